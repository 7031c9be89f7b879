"""Keras's registry of custom objects: ``register_keras_serializable`` and its lookups.

Custom layers in Keras 3 code carry ``@tf.keras.utils.register_keras_serializable()``;
the decorator records the class (or function) under ``"package>name"`` and returns it
unchanged. ``custom_object_scope`` adds names for the duration of a ``with`` block.
"""
from __future__ import annotations

import inspect
import threading

_GLOBAL_CUSTOM_OBJECTS: dict = {}
_GLOBAL_CUSTOM_NAMES: dict = {}
_scopes = threading.local()


def register_keras_serializable(package: str = "Custom", name: str | None = None):
    """Registers the decorated class or function as ``"package>name"``."""
    def decorator(arg):
        class_name = name if name is not None else arg.__name__
        registered = f"{package}>{class_name}"
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() "
                             "method.")
        _GLOBAL_CUSTOM_OBJECTS[registered] = arg
        _GLOBAL_CUSTOM_NAMES[arg] = registered
        return arg
    return decorator


def get_registered_name(obj) -> str:
    """The name ``obj`` was registered under, else its own name."""
    return _GLOBAL_CUSTOM_NAMES.get(obj, getattr(obj, "__name__", None))


def get_registered_object(name, custom_objects=None, module_objects=None):
    """What ``name`` stands for: the innermost scope first, then the global registry, then
    ``custom_objects`` and ``module_objects``; None when nothing has it."""
    for scope in reversed(getattr(_scopes, "stack", [])):
        if name in scope:
            return scope[name]
    for table in (_GLOBAL_CUSTOM_OBJECTS, custom_objects or {}, module_objects or {}):
        if name in table:
            return table[name]
    return None


def get_custom_objects() -> dict:
    """The global registry itself (a dict: adding to it registers)."""
    return _GLOBAL_CUSTOM_OBJECTS


class CustomObjectScope:
    """``with CustomObjectScope({"name": obj}):`` makes the names known inside the block."""

    def __init__(self, custom_objects: dict | None = None):
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self):
        if not hasattr(_scopes, "stack"):
            _scopes.stack = []
        _scopes.stack.append(self.custom_objects)
        return self

    def __exit__(self, *exc):
        _scopes.stack.pop()
        return False


custom_object_scope = CustomObjectScope
