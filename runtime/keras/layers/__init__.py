"""``tf.keras.layers``."""
from runtime.keras.layers.base import Layer  # noqa: F401
from runtime.keras.layers.convolutional import (AveragePooling2D, Conv2D,  # noqa: F401
                                                GlobalAveragePooling2D, MaxPooling2D)
from runtime.keras.layers.core import (Activation, Dense, Dropout, Embedding,  # noqa: F401
                                       Flatten, Reshape)
from runtime.keras.layers.normalization import (BatchNormalization,  # noqa: F401
                                                LayerNormalization)

MaxPool2D, AvgPool2D, Convolution2D = MaxPooling2D, AveragePooling2D, Conv2D
GlobalAvgPool2D = GlobalAveragePooling2D
