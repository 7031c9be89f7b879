"""``tf.keras.optimizers``: SGD and Adam (runtime.optimizers) and Keras 3's other update
rules, which take a learning-rate schedule and ``weight_decay`` like Keras's."""
from runtime.keras.optimizers import schedules  # noqa: F401
from runtime.keras.optimizers.rules import (Adadelta, Adagrad, Adamax, AdamW, Ftrl,  # noqa: F401
                                            Lion, Nadam, RMSprop)
from runtime.keras.optimizers.adafactor import Adafactor  # noqa: F401
from runtime.keras.optimizers.lamb import Lamb  # noqa: F401
from runtime.optimizers import SGD, Adam, Optimizer  # noqa: F401

_BY_NAME = {c.__name__.lower(): c for c in (SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta,
                                            Adamax, Nadam, Ftrl, Lion, Adafactor)}


def get(identifier):
    """An optimizer from its name (``"adam"``) with default arguments, or the optimizer given."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str) and identifier.lower() in _BY_NAME:
        return _BY_NAME[identifier.lower()]()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier}")
