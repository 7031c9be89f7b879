"""``tf.keras.Model`` (subclassing), ``tf.keras.Sequential`` and ``tf.keras.Input``.

Custom training loops with ``tf.GradientTape`` are the supported way to train:
``compile``/``fit``/``evaluate``/``predict`` raise NotImplementedError saying so.
``build(input_shape)`` calls the model once on a placeholder in a scratch graph,
so every weight exists before a ``tf.function`` first runs (what the guide
recommends for "Using with multiple Keras models") without computing anything.
"""
from __future__ import annotations

from graph.ir import Graph
from runtime import context
from runtime.keras.layers.base import KerasTensor, Layer, _masks_of, scratch_input
from runtime.keras.layers.input_layer import InputLayer

_TRAINING_LOOP = ("custom training loops with tf.GradientTape and an optimizer are the "
                  "supported way to train and run models here")


def Input(shape=None, batch_size=None, dtype=None, name=None):  # noqa: N802 (Keras's name)
    """The input of a Sequential model: its shape (without the batch axis) and dtype."""
    if shape is None:
        raise ValueError("Please provide to Input a `shape` argument. Note that `shape` does "
                         "not include the batch dimension.")
    return KerasTensor((batch_size,) + tuple(shape), dtype or "float32", name)


def _placeholder_call(model: Layer, shape, dtype) -> None:
    """Runs ``model`` on a placeholder of ``shape`` in a scratch graph: builds its weights."""
    scratch = Graph("build")
    with context.building(scratch):
        model(scratch_input(scratch, dtype, list(shape)))


_WIDTHS = (33, 24, 15)  # the summary table's columns


def _rule(left: str, mid: str, right: str, fill: str) -> str:
    return left + mid.join(fill * w for w in _WIDTHS) + right


def _row(cells, bar: str) -> str:
    return bar + bar.join(f" {c:<{w - 2}} " if i < 2 else f" {c:>{w - 2}} "
                          for i, (c, w) in enumerate(zip(cells, _WIDTHS))) + bar


class Model(Layer):
    """A layer that groups layers; subclass it and define ``call``."""

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise NotImplementedError("The functional API (Model(inputs, outputs)) is not "
                                      "supported: use tf.keras.Sequential or subclass "
                                      "tf.keras.Model")
        super().__init__(**kwargs)

    def build(self, input_shape=None):
        if self.built:
            return
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        if type(self).call is Layer.call:
            raise ValueError("You cannot build your model by calling `build` if your layers do "
                             "not support float type inputs. Define `call` first.")
        self.built = True  # before the call, so __call__ does not build again
        _placeholder_call(self, input_shape, self.dtype)

    build._default = True  # (a subclassed model builds by running its call, as Keras's does)

    def _build_from(self, inputs) -> None:  # a subclassed model's layers build as they are called
        self.built = True

    @property
    def layers(self) -> list[Layer]:
        return self._layers()

    def get_layer(self, name=None, index=None):
        if index is not None:
            return self.layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: "
                         f"{[l.name for l in self.layers]}.")

    def summary(self, print_fn=None) -> None:
        """Prints the layers, their output shapes and parameter counts, as Keras 3 does."""
        rows = [(f"{l.name} ({type(l).__name__})",
                 "?" if l._output_shape is None else str(l._output_shape),
                 f"{l.count_params():,}") for l in self.layers]
        out = [f'Model: "{self.name}"', _rule("┏", "┳", "┓", "━"),
               _row(("Layer (type)", "Output Shape", "Param #"), "┃"), _rule("┡", "╇", "┩", "━")]
        for i, cells in enumerate(rows):
            if i:
                out.append(_rule("├", "┼", "┤", "─"))
            out.append(_row(cells, "│"))
        out.append(_rule("└", "┴", "┘", "─"))
        total = self.count_params()
        trainable = sum(int(v.shape.num_elements()) for v in self.trainable_weights)
        for label, n in (("Total", total), ("Trainable", trainable),
                         ("Non-trainable", total - trainable)):
            out.append(f" {label} params: {n:,} ({n * 4:,.2f} B)")  # float32 weights
        for text in out:
            (print_fn or print)(text)

    def compile(self, *args, **kwargs):
        raise NotImplementedError(f"Model.compile is not supported: {_TRAINING_LOOP}.")

    def fit(self, *args, **kwargs):
        raise NotImplementedError(f"Model.fit is not supported: {_TRAINING_LOOP}.")

    def evaluate(self, *args, **kwargs):
        raise NotImplementedError(f"Model.evaluate is not supported: {_TRAINING_LOOP}.")

    def predict(self, *args, **kwargs):
        raise NotImplementedError(f"Model.predict is not supported: call the model instead "
                                  f"({_TRAINING_LOOP}).")

    def train_on_batch(self, *args, **kwargs):
        raise NotImplementedError(f"Model.train_on_batch is not supported: {_TRAINING_LOOP}.")


class Sequential(Model):
    """A plain stack of layers, each called on the previous one's output."""

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(trainable=trainable, name=name)
        self._stack: list[Layer] = []
        self._input = None
        for layer in layers or ():
            self.add(layer)

    def add(self, layer) -> None:
        if isinstance(layer, InputLayer):
            layer = layer.output
        if isinstance(layer, KerasTensor):
            if self._stack or self._input is not None:
                raise ValueError("An Input can only be the first element of a Sequential model")
            self._input = layer
            return
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential "
                             f"model. Received: {layer} (of type {type(layer)})")
        if not self._stack and self._input is None and layer._input_shape_arg is not None:
            self._input = KerasTensor((None,) + layer._input_shape_arg)
        self._stack.append(layer)
        self.built = False
        if self._input is not None:
            self.build(self._input.shape)

    def pop(self) -> Layer:
        if not self._stack:
            raise TypeError("There are no layers in the model.")
        return self._stack.pop()

    def build(self, input_shape=None):
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        self.built = True
        dtype = self._input.dtype if self._input is not None else self.dtype
        _placeholder_call(self, input_shape, dtype)

    def _build_from(self, inputs) -> None:  # each layer builds on its own first call
        self.built = True

    @property
    def layers(self) -> list[Layer]:
        return list(self._stack)

    def call(self, inputs, training=None, mask=None):
        """Each layer on the previous output; a layer whose ``call`` takes ``mask`` gets the
        mask of its input (``mask`` for the first), as Keras 3 runs a Sequential."""
        x = inputs
        for layer in self._stack:
            kwargs = {"mask": mask} if mask is not None and "mask" in layer._call_params() \
                else {}
            x = layer(x, training=training, **kwargs)
            mask = _masks_of(x)
        return x
