"""``tf.keras.Model`` (subclassing; ``Model(inputs, outputs)`` makes the functional model of
``functional.py``), ``tf.keras.Sequential`` and ``tf.keras.Input``.

Custom training loops with ``tf.GradientTape`` are the supported way to train:
``compile``/``fit``/``evaluate``/``predict`` raise NotImplementedError saying so.
``build(input_shape)`` calls the model once on a placeholder in a scratch graph,
so every weight exists before a ``tf.function`` first runs (what the guide
recommends for "Using with multiple Keras models") without computing anything.
"""
from __future__ import annotations

import textwrap

from graph.ir import Graph
from runtime import context
from runtime.keras.layers.base import KerasTensor, Layer, _masks_of, scratch_input, unique_name
from runtime.keras.layers.input_layer import InputLayer
from runtime.module import attribute_children

_TRAINING_LOOP = ("custom training loops with tf.GradientTape and an optimizer are the "
                  "supported way to train and run models here")


def Input(shape=None, batch_size=None, dtype=None, name=None, batch_shape=None):  # noqa: N802
    """A model's input: the KerasTensor of an ``InputLayer`` (its shape has the batch axis)."""
    if shape is None and batch_shape is None:
        raise ValueError("Please provide to Input a `shape` argument. Note that `shape` does "
                         "not include the batch dimension.")
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, name=name,
                       batch_shape=batch_shape)
    return layer.output


def _placeholder_call(model: Layer, shape, dtype) -> None:
    """Runs ``model`` on a placeholder of ``shape`` in a scratch graph: builds its weights."""
    scratch = Graph("build")
    with context.building(scratch):
        model(scratch_input(scratch, dtype, list(shape)))


_WIDTHS = (33, 24, 15)  # the summary table's columns
_GRAPH_WIDTHS = (21, 19, 12, 19)  # ... with "Connected to" (a model that is not a chain)


def _rule(left: str, mid: str, right: str, fill: str, widths) -> str:
    return left + mid.join(fill * w for w in widths) + right


def _row(cells, bar: str, widths) -> list[str]:
    """A table row (the counts right-aligned); a cell too wide for its column wraps at spaces
    onto more lines, as rich's tables do."""
    wrapped = [textwrap.wrap(c, w - 2) or [""] for c, w in zip(cells, widths)]
    lines = []
    for k in range(max(len(parts) for parts in wrapped)):
        texts = [parts[k] if k < len(parts) else "" for parts in wrapped]
        lines.append(bar + bar.join(f" {c:<{w - 2}} " if i != 2 else f" {c:>{w - 2}} "
                                    for i, (c, w) in enumerate(zip(texts, widths))) + bar)
    return lines


class Model(Layer):
    """A layer that groups layers; subclass it and define ``call``."""

    def __new__(cls, *args, **kwargs):
        """``Model(inputs, outputs)`` makes a functional model (Keras's ``Functional``)."""
        if cls is Model and (args or "inputs" in kwargs or "outputs" in kwargs):
            from runtime.keras.functional import Functional  # (it builds on this module)
            cls = Functional  # (Python then runs Functional.__init__ on the arguments)
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        if args or "inputs" in kwargs or "outputs" in kwargs:
            raise NotImplementedError("A subclassed model built from inputs and outputs is not "
                                      "supported: use tf.keras.Model(inputs, outputs) itself")
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
        header, rows = self._summary_table()
        widths = _WIDTHS if len(header) == 3 else _GRAPH_WIDTHS
        out = [f'Model: "{self.name}"', _rule("┏", "┳", "┓", "━", widths),
               *_row(header, "┃", widths), _rule("┡", "╇", "┩", "━", widths)]
        for i, cells in enumerate(rows):
            if i:
                out.append(_rule("├", "┼", "┤", "─", widths))
            out.extend(_row(cells, "│", widths))
        out.append(_rule("└", "┴", "┘", "─", widths))
        total = self.count_params()
        trainable = sum(int(v.shape.num_elements()) for v in self.trainable_weights)
        for label, n in (("Total", total), ("Trainable", trainable),
                         ("Non-trainable", total - trainable)):
            out.append(f" {label} params: {n:,} ({n * 4:,.2f} B)")  # float32 weights
        for text in out:
            (print_fn or print)(text)

    def _summary_table(self):
        """The header and rows of ``summary``: each layer's name and type, the shape of its
        last output, its parameter count."""
        return (("Layer (type)", "Output Shape", "Param #"),
                [(f"{l.name} ({type(l).__name__})",
                  "?" if l._output_shape is None else str(l._output_shape),
                  f"{l.count_params():,}") for l in self.layers])

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
    """A plain stack of layers, each called on the previous one's output. Built from an
    Input (given, or made from the first layer's ``input_shape``), its layers are called on
    it as in a functional model (Keras 3), which gives ``inputs``, ``outputs`` and each
    layer's ``output``; otherwise it builds on a placeholder of the shape given."""

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(trainable=trainable, name=name)
        self._stack: list[Layer] = []
        self._input = None
        self._output = None  # the KerasTensor its layers made from an Input (Keras 3)
        self._named_input = False  # (whether a build without an Input took Keras's name)
        for layer in layers or ():
            self.add(layer, rebuild=False)
        if self._stack and self._input is not None:
            self.build(self._input.shape)

    def _trackable_children(self) -> dict:
        """Keras 3 tracks a Sequential's layers as the operations of the functional model it
        builds, after its InputLayer: checkpoints key them ``_functional/_operations/1/...``."""
        children = attribute_children(self)
        del children["_stack"]
        children["_functional"] = {"_operations": [None, *self._stack]}
        return children

    def add(self, layer, rebuild=True) -> None:
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
            self._input = Input(shape=layer._input_shape_arg)
        self._stack.append(layer)
        self.built = False
        if rebuild and self._input is not None:
            self.build(self._input.shape)

    def pop(self, rebuild=True) -> Layer:
        if not self._stack:
            raise TypeError("There are no layers in the model.")
        layer = self._stack.pop()
        self._output = None
        if rebuild and self._stack and self._input is not None:
            self.build(self._input.shape)
        return layer

    def build(self, input_shape=None):
        if input_shape is None:
            raise ValueError("You must provide an `input_shape` argument.")
        self.built = True
        if self._input is not None and tuple(input_shape) == self._input.shape:
            with self._keras_scope():  # each layer records its call on the Input
                self._output = self.call(self._input)
        else:
            dtype = self._input.dtype if self._input is not None else self.dtype
            _placeholder_call(self, input_shape, dtype)
        self._take_keras_names()

    def _graph_end(self, attr: str, label: str):
        if self._output is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined {label} yet.")
        return getattr(self, attr)

    @property
    def inputs(self) -> list:
        """The Input of a model built from one, as a list (Keras 3)."""
        return [self._graph_end("_input", "inputs")]

    @property
    def outputs(self) -> list:
        return [self._graph_end("_output", "outputs")]

    @property
    def input_shape(self):
        return self._graph_end("_input", "input shape").shape

    @property
    def output_shape(self):
        return self._graph_end("_output", "output shape").shape

    def _build_from(self, inputs) -> None:  # each layer builds on its own first call
        self.built = True
        if hasattr(inputs, "shape") and self._input is None:  # (Keras 3 builds a Functional on
            self._take_keras_names()                          # an InputLayer it puts first)

    def _take_keras_names(self) -> None:
        """Takes the names Keras 3 gives the InputLayer and Functional that a Sequential
        builds, so that later layers and models are numbered as in Keras."""
        if self._input is None:  # (its output and each layer's are KerasTensors too)
            if not self._named_input:
                unique_name("input_layer")
                unique_name("keras_tensor")
                self._named_input = True
            for _ in self._stack:
                unique_name("keras_tensor")
        unique_name("functional")

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
