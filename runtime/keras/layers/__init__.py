"""``tf.keras.layers``."""
from runtime.keras.layers.base import Layer  # noqa: F401
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
                                       SpatialDropout1D, SpatialDropout2D, SpatialDropout3D)
from runtime.keras.layers.merging import (Add, Average, Concatenate, Maximum,  # noqa: F401
                                          Minimum, Multiply, Subtract, add, average,
                                          concatenate, maximum, minimum, multiply, subtract)
from runtime.keras.layers.reshaping import (  # noqa: F401
    Cropping1D, Cropping2D, Cropping3D, Permute, RepeatVector, Rescaling, UpSampling1D,
    UpSampling2D, UpSampling3D, ZeroPadding1D, ZeroPadding2D, ZeroPadding3D)
from runtime.keras.layers.rnn import (GRU, LSTM, RNN, Bidirectional, GRUCell,  # noqa: F401
                                      LSTMCell, SimpleRNN, SimpleRNNCell, TimeDistributed)
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
