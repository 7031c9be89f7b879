"""``tf.compat.v1``: only the names that mean the same in a TensorFlow 2 program.

TensorFlow 2 scripts keep a few TensorFlow 1 lines as boilerplate: silencing the log
(``tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)``), seeding
(``set_random_seed``), ``enable_eager_execution()``. Those are here, with TensorFlow
2's meaning, which is theirs too. Everything else of TensorFlow 1 (sessions,
placeholders, variable scopes, graph mode) would behave differently under the same
names, so asking for it raises an AttributeError that says so instead of running a
TensorFlow 1 program with TensorFlow 2 semantics.
"""
from __future__ import annotations

import logging as _logging
from types import ModuleType

from runtime.context import executing_eagerly
from runtime.ops.control_ops import get_logger
from runtime.ops.random_ops import set_seed


class _V1Namespace(ModuleType):
    """A namespace whose missing names raise an AttributeError naming TensorFlow 1."""

    def __getattr__(self, name: str):
        if name.startswith("__"):
            raise AttributeError(name)
        raise AttributeError(
            f"{self.__name__}.{name} is TensorFlow 1 API, which autograph does not provide "
            "(only the compat.v1 names that mean the same in TensorFlow 2 exist: logging, "
            "set_random_seed, enable_eager_execution, ...). Use the TensorFlow 2 equivalent.")


def _namespace(name: str, doc: str, **members) -> _V1Namespace:
    module = _V1Namespace(name, doc)
    module.__dict__.update(members)
    return module


# -- tf.compat.v1.logging: the `tensorflow` logger, as TensorFlow 2 keeps it ----------
DEBUG, INFO, WARN, ERROR, FATAL = (_logging.DEBUG, _logging.INFO, _logging.WARNING,
                                   _logging.ERROR, _logging.FATAL)


def set_verbosity(v) -> None:
    """Sets the threshold of the ``tensorflow`` logger (``tf.get_logger()``)."""
    get_logger().setLevel(v)


def get_verbosity() -> int:
    return get_logger().getEffectiveLevel()


def _log_at(level: int):
    def emit(msg, *args, **kwargs):
        get_logger().log(level, msg, *args, **kwargs)
    emit.__name__ = _logging.getLevelName(level).lower()
    return emit


def log(level, msg, *args, **kwargs) -> None:
    get_logger().log(level, msg, *args, **kwargs)


logging = _namespace(
    "tf.compat.v1.logging", "The `tensorflow` logger under TensorFlow 1's names.",
    DEBUG=DEBUG, INFO=INFO, WARN=WARN, ERROR=ERROR, FATAL=FATAL,
    set_verbosity=set_verbosity, get_verbosity=get_verbosity, log=log,
    debug=_log_at(DEBUG), info=_log_at(INFO), warn=_log_at(WARN), warning=_log_at(WARN),
    error=_log_at(ERROR), fatal=_log_at(FATAL))


# -- switches that TensorFlow 2 already has on ---------------------------------------
def enable_eager_execution(config=None, device_policy=None, execution_mode=None) -> None:
    """A no-op: eager execution is on (as in TensorFlow 2)."""


def enable_v2_behavior() -> None:
    """A no-op: TensorFlow 2 behaviour is the only one."""


def _tensorflow1_only(name: str):
    def refuse(*args, **kwargs):
        raise NotImplementedError(
            f"tf.compat.v1.{name}() switches to TensorFlow 1 graph mode (sessions, "
            "placeholders), which autograph does not provide; remove the call and use "
            "tf.function for graphs.")
    refuse.__name__ = name
    return refuse


def set_random_seed(seed) -> None:
    """TensorFlow 1's name of ``tf.random.set_seed`` (the same global seed)."""
    set_seed(seed)


v1 = _namespace(
    "tf.compat.v1", __doc__,
    logging=logging, executing_eagerly=executing_eagerly, get_logger=get_logger,
    enable_eager_execution=enable_eager_execution, enable_v2_behavior=enable_v2_behavior,
    enable_resource_variables=enable_v2_behavior, enable_control_flow_v2=enable_v2_behavior,
    enable_v2_tensorshape=enable_v2_behavior,
    disable_eager_execution=_tensorflow1_only("disable_eager_execution"),
    disable_v2_behavior=_tensorflow1_only("disable_v2_behavior"),
    disable_resource_variables=_tensorflow1_only("disable_resource_variables"),
    disable_control_flow_v2=_tensorflow1_only("disable_control_flow_v2"),
    set_random_seed=set_random_seed,
    random=_namespace("tf.compat.v1.random", "Seeding, as TensorFlow 2 seeds.",
                      set_random_seed=set_random_seed))
