"""``tf.keras.name_scope``: Keras 3's name scope, which names the Keras variables made in it
(``blk/variable``) and, as Keras's TensorFlow backend does, the ops too."""
from __future__ import annotations

from contextlib import ExitStack

from runtime.keras.layers.base import keras_name_scope
from runtime.name_scope import name_scope as tf_name_scope


class name_scope:  # noqa: N801  (Keras's name)
    """Opens ``name`` for Keras variable paths and TensorFlow op names."""

    def __init__(self, name, caller=None, **kwargs):
        if not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character "
                             f"`/`. Received: name={name}")
        self.name, self.caller = name, caller
        self._stack = None

    def __enter__(self):
        self._stack = ExitStack()
        self._stack.enter_context(keras_name_scope(self.name, caller=self.caller))
        self._stack.enter_context(tf_name_scope(self.name))
        return self

    def __exit__(self, *exc):
        stack, self._stack = self._stack, None
        return stack.__exit__(*exc)
