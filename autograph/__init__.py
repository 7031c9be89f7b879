"""autograph: TensorFlow's tf.function + AutoGraph, small and framework-free.

``import autograph as tf`` gives TensorFlow's names for the runtime API.
"""
from graph import __version__  # noqa: F401
from runtime import *  # noqa: F401,F403
from autograph.function import function  # noqa: F401
from autograph.impl.api import convert, do_not_convert, to_code, to_graph  # noqa: F401,E402
from autograph import autograph  # noqa: F401,E402  (tf.autograph.to_code, ...)

# Functions given to Dataset.map/filter/reduce... run converted, as TensorFlow converts them.
from runtime.data import set_function_converter as _set_dataset_converter  # noqa: E402
from autograph.impl.api import converted_callable as _converted_callable  # noqa: E402
_set_dataset_converter(_converted_callable)

# `import autograph.experimental.numpy as tnp`, as `import tensorflow.experimental.numpy`.
import sys as _sys  # noqa: E402
_sys.modules[__name__ + ".experimental"] = experimental  # noqa: F405
_sys.modules[__name__ + ".experimental.numpy"] = experimental.numpy  # noqa: F405
compat.v2 = _sys.modules[__name__]  # noqa: F405  (tf.compat.v2 is tf)
