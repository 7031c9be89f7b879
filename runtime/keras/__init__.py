"""``tf.keras``: the subset that custom training loops use — layers, models, initializers,
activations, losses, metrics, optimizers and their learning-rate schedules, and
``utils.set_random_seed``."""
from runtime.keras import (activations, backend, initializers, layers, losses,  # noqa: F401
                           metrics, models, optimizers, random, regularizers, utils)
from runtime.keras.layers.base import KerasTensor  # noqa: F401
from runtime.keras.models import Input, Model, Sequential  # noqa: F401
