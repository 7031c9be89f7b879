"""``tf.keras``: the subset the guides use — layers, models, initializers, activations,
losses, metrics, and the optimizers of ``runtime.optimizers``."""
from runtime import optimizers  # noqa: F401
from runtime.keras import activations, initializers, layers, losses, metrics, models  # noqa: F401
from runtime.keras.layers.base import KerasTensor  # noqa: F401
from runtime.keras.models import Input, Model, Sequential  # noqa: F401
