"""``tf.keras.layers.InputLayer``: the layer form of ``tf.keras.Input``. It holds the
``KerasTensor`` (``output``) that describes a model's input and is built from the start; it
is never called on data (as in Keras 3, where only the functional API calls it)."""
from __future__ import annotations

from runtime.keras.layers.base import KerasTensor, Layer, unique_name


class InputLayer(Layer):
    """The input of a Sequential model: its ``batch_shape`` and dtype."""

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None, batch_shape=None,
                 input_tensor=None, optional=False, name=None, **kwargs):
        if kwargs.pop("input_shape", None) is not None:
            raise ValueError("Argument `input_shape` is deprecated. Use `shape` instead.")
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {list(kwargs)}")
        if sparse or input_tensor is not None:
            raise NotImplementedError("sparse inputs and `input_tensor` are not supported here")
        if shape is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `shape` and `batch_shape` at the same time.")
        if batch_size is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `batch_size` and `batch_shape` at the same "
                             "time.")
        if shape is None and batch_shape is None:
            raise ValueError("You must pass a `shape` argument.")
        batch_shape = tuple(batch_shape) if batch_shape is not None else \
            (batch_size,) + tuple(shape)
        super().__init__(name=name or unique_name("input_layer"), dtype=dtype)
        self.batch_shape, self.sparse, self.optional = batch_shape, bool(sparse), optional
        self.output = KerasTensor(batch_shape, self.dtype, name=name)
        self.built = True

    def call(self):  # noqa: D102  (Keras's InputLayer.call takes no inputs)
        return None

    def get_config(self):
        return {"batch_shape": self.batch_shape, "dtype": self.dtype.name,
                "sparse": self.sparse, "ragged": False, "name": self.name,
                "optional": self.optional}
