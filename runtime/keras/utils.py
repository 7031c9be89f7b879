"""``tf.keras.utils``: what custom training loops use from it."""
from __future__ import annotations

import random

import numpy as np

from runtime.keras.array_utils import normalize, pad_sequences, to_categorical  # noqa: F401
from runtime.keras.data_utils import (is_keras_tensor, pack_x_y_sample_weight,  # noqa: F401
                                      unpack_x_y_sample_weight)
from runtime.keras.dataset_utils import (split_dataset,  # noqa: F401
                                         timeseries_dataset_from_array)
from runtime.keras.object_registration import (  # noqa: F401
    CustomObjectScope, custom_object_scope, get_custom_objects, get_registered_name,
    get_registered_object, register_keras_serializable)
from runtime.keras.progbar import Progbar  # noqa: F401
from runtime.keras.random import reset_global_seed_generator
from runtime.ops.random_ops import set_seed


def set_random_seed(seed) -> None:
    """Seeds Python's ``random``, NumPy's global generator and TensorFlow's global seed at once,
    and drops Keras's global seed generator, so that a program is reproducible
    (``tf.keras.utils.set_random_seed``): unseeded initializers and generators made after it
    take their seeds from Python's ``random`` in creation order."""
    if not isinstance(seed, int):
        raise ValueError(f"Expected `seed` argument to be an integer. Received: seed={seed} (of type {type(seed)})")
    reset_global_seed_generator()
    random.seed(seed)
    np.random.seed(seed)
    set_seed(seed)
