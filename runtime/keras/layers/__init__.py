"""``tf.keras.layers``."""
from runtime.keras.layers.base import Layer  # noqa: F401
from runtime.keras.models import Input  # noqa: F401  (after base: models builds on it)
from runtime.keras.layers.activation import (ELU, LeakyReLU, PReLU, ReLU,  # noqa: F401
                                             Softmax)
from runtime.keras.layers.attention import (Attention, EinsumDense,  # noqa: F401
                                            MultiHeadAttention)
from runtime.keras.layers.convolutional import (  # noqa: F401
    AveragePooling1D, AveragePooling2D, AveragePooling3D, Conv1D, Conv1DTranspose, Conv2D,
    Conv2DTranspose, Conv3D, Conv3DTranspose, GlobalAveragePooling1D, GlobalAveragePooling2D,
    GlobalAveragePooling3D, GlobalMaxPooling1D, GlobalMaxPooling2D, GlobalMaxPooling3D,
    MaxPooling1D, MaxPooling2D, MaxPooling3D)
from runtime.keras.layers.core import (Activation, AlphaDropout, Dense, Dropout,  # noqa: F401
                                       Embedding, Flatten, GaussianDropout, GaussianNoise,
                                       Identity, Lambda, Masking, Reshape,
                                       SpatialDropout1D,
                                       SpatialDropout2D, SpatialDropout3D)
from runtime.keras.layers.merging import (Add, Average, Concatenate, Maximum,  # noqa: F401
                                          Minimum, Multiply, Subtract, add, average,
                                          concatenate, maximum, minimum, multiply, subtract)
from runtime.keras.layers.reshaping import (  # noqa: F401
    Cropping1D, Cropping2D, Cropping3D, Permute, RepeatVector, Rescaling, UpSampling1D,
    UpSampling2D, UpSampling3D, ZeroPadding1D, ZeroPadding2D, ZeroPadding3D)
from runtime.keras.layers.rnn import (GRU, LSTM, RNN, Bidirectional, GRUCell,  # noqa: F401
                                      LSTMCell, SimpleRNN, SimpleRNNCell, TimeDistributed)
from runtime.keras.layers.augmentation import (  # noqa: F401
    CenterCrop, RandomBrightness, RandomContrast, RandomCrop, RandomFlip, RandomRotation,
    RandomTranslation, RandomZoom, Resizing)
from runtime.keras.layers.extra import (ActivityRegularization,  # noqa: F401
                                        AdditiveAttention, Dot, GroupNormalization,
                                        UnitNormalization)
from runtime.keras.layers.input_layer import InputLayer  # noqa: F401
from runtime.keras.layers.lookup import IntegerLookup, StringLookup  # noqa: F401
from runtime.keras.layers.preprocessing import (CategoryEncoding,  # noqa: F401
                                                Discretization, Hashing, Normalization)
from runtime.keras.layers.separable import (  # noqa: F401
    DepthwiseConv1D, DepthwiseConv2D, SeparableConv1D, SeparableConv2D, SeparableConvolution1D,
    SeparableConvolution2D)
from runtime.keras.layers.stacked_cells import StackedRNNCells  # noqa: F401
from runtime.keras.layers.text_vectorization import TextVectorization  # noqa: F401
from runtime.keras.layers.normalization import (BatchNormalization,  # noqa: F401
                                                LayerNormalization)

MaxPool1D, MaxPool2D, MaxPool3D = MaxPooling1D, MaxPooling2D, MaxPooling3D
AvgPool1D, AvgPool2D, AvgPool3D = AveragePooling1D, AveragePooling2D, AveragePooling3D
Convolution1D, Convolution2D, Convolution3D = Conv1D, Conv2D, Conv3D
Convolution1DTranspose, Convolution2DTranspose = Conv1DTranspose, Conv2DTranspose
Convolution3DTranspose = Conv3DTranspose
GlobalAvgPool1D, GlobalAvgPool2D = GlobalAveragePooling1D, GlobalAveragePooling2D
GlobalAvgPool3D = GlobalAveragePooling3D
GlobalMaxPool1D, GlobalMaxPool2D = GlobalMaxPooling1D, GlobalMaxPooling2D
GlobalMaxPool3D = GlobalMaxPooling3D
