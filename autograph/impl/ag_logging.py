"""AutoGraph's debug log: ``tf.autograph.set_verbosity`` and ``tf.autograph.trace``.

Verbosity 0 (the default) logs nothing. 1 logs each call converted code makes through
the converter and each function converted; 2 and more add the converted source and the
calls that run unconverted (allowlisted). Entries go to the ``tensorflow`` logger at INFO
level, and also to stdout with ``alsologtostdout=True``, as in TensorFlow. The
``AUTOGRAPH_VERBOSITY`` environment variable sets the level until ``set_verbosity`` is
called; it is read when this module is imported (converted code checks the level on
every call, so it is kept in a variable rather than looked up in the environment).
"""
from __future__ import annotations

import logging
import os

VERBOSITY_VAR_NAME = "AUTOGRAPH_VERBOSITY"
DEFAULT_VERBOSITY = 0


def _level_from_environment() -> int:
    try:
        return int(os.getenv(VERBOSITY_VAR_NAME, DEFAULT_VERBOSITY))
    except ValueError:
        return DEFAULT_VERBOSITY


verbosity_level: int = _level_from_environment()
echo_log_to_stdout: bool = False
_logger = logging.getLogger("tensorflow")


def set_verbosity(level: int, alsologtostdout: bool = False) -> None:
    """Sets AutoGraph's verbosity (0: no logging; 10 for a bug report) and whether log
    entries are also printed to stdout. Takes precedence over ``AUTOGRAPH_VERBOSITY``."""
    global verbosity_level, echo_log_to_stdout
    verbosity_level = int(level)
    echo_log_to_stdout = bool(alsologtostdout)


def get_verbosity() -> int:
    return verbosity_level


def has_verbosity(level: int) -> bool:
    return verbosity_level >= level


def log(level: int, msg: str, *args) -> None:
    """Logs ``msg % args`` at INFO when the verbosity is at least ``level``."""
    if verbosity_level >= level:
        _logger.info(msg, *args)
        if echo_log_to_stdout:
            print(msg % args if args else msg)


def trace(*args) -> None:
    """Prints ``args`` when the code runs: in a tf.function, once per trace (the values
    are the symbolic tensors of the graph being built), as TensorFlow's does."""
    print(*args)
