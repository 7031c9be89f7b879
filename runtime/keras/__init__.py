"""``tf.keras``: the subset that custom training loops use — layers, models, initializers,
activations, losses, metrics, optimizers and their learning-rate schedules, ``utils`` and
the base classes at top level (``tf.keras.Layer``, ``tf.keras.Loss``...)."""
from runtime.keras import (activations, backend, constraints, initializers,  # noqa: F401
                           layers, losses, metrics, models, optimizers, preprocessing, random,
                           regularizers, utils)
from runtime.keras.initializers import Initializer  # noqa: F401
from runtime.keras.input_spec import InputSpec  # noqa: F401
from runtime.keras.keras_tensor import KerasTensor  # noqa: F401
from runtime.keras.layers.base import Layer  # noqa: F401
from runtime.keras.layers.base import KerasVariable as Variable  # noqa: F401
from runtime.keras.losses import Loss  # noqa: F401
from runtime.keras.metrics import Metric  # noqa: F401
from runtime.keras.models import Input, Model, Sequential  # noqa: F401
from runtime.keras.regularizers import Regularizer  # noqa: F401
from runtime.keras.scopes import name_scope  # noqa: F401
from runtime.optimizers import Optimizer  # noqa: F401
