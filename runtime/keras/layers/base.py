"""``tf.keras.layers.Layer``: a tf.Module that builds its weights on its first call.

A layer's weights are the Variables it made with ``add_weight`` (trainable
ones first, then the others, each in creation order) followed by those of the
layers it holds in attributes (in assignment order, looking into lists, tuples
and dicts), as Keras 3 lists them; ``variables`` also holds the states of its
``SeedGenerator``s, after its own weights. Being a Module, a layer's variables
are found by ``tf.Module``'s attribute walk too, so checkpoints and saved
models need nothing Keras-specific. As in Keras 3, a plain ``tf.Variable``
assigned to a layer is not one of its ``weights``.

Names are Keras 3's: a layer is named after its class in Keras's snake case
(``conv2d``, ``dense_1``); a weight is a ``KerasVariable`` whose ``name`` is
what ``add_weight`` was given (``kernel``) and whose ``path`` is the chain of
layers it was built in (``sequential/dense_1/kernel``), fixed at the layer's
first call. ``tf.name_scope`` plays no part in it, as in Keras 3.

``__call__`` converts array inputs to tensors (floats to the layer's dtype),
builds the layer from the first input's shape, and resolves ``training``: an
explicit argument wins, else the value of the enclosing layer call, else the
default of ``call``'s signature. Called on KerasTensors (the functional API), it
records the call instead (``keras_tensor.symbolic_call``).
"""
from __future__ import annotations

import functools
import inspect
import re
import threading
import warnings
import weakref
from contextlib import contextmanager

import numpy as np

from graph.dtypes import as_dtype
from graph.ir import Graph
from runtime import context, nest
from runtime.function import deferred_variables
from runtime.keras import constraints, initializers, regularizers
from runtime.keras.backend import floatx, layer_dtype
from runtime.keras.input_spec import assert_input_compatibility
from runtime.keras.keras_tensor import (KerasTensor, Node, has_keras_tensor,  # noqa: F401
                                         scratch_input, symbolic_call)
from runtime.keras.random import SeedGenerator
from runtime.module import Module
from runtime.name_scope import name_scope
from runtime.ops.core import convert_to_tensor
from runtime.ops import array_ops
from runtime.ops.math_ops import cast
from runtime.ops.special_ops import divide_no_nan
from runtime.tensor import Tensor
from runtime.variables import ResourceVariable, Variable

_uids: dict[str, int] = {}
_uid_lock = threading.Lock()


def unique_name(base: str) -> str:
    """``dense``, then ``dense_1``, ``dense_2``... per base name, as Keras names layers."""
    with _uid_lock:
        n = _uids.get(base, 0)
        _uids[base] = n + 1
    return base if n == 0 else f"{base}_{n}"


def snake_case(name: str) -> str:
    """Keras's snake case of a class name: ``Conv2DTranspose`` -> ``conv2d_transpose``,
    ``LSTM`` -> ``lstm``, ``ReLU`` -> ``re_lu``."""
    name = re.sub(r"\W+", "", name)
    name = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", name).lower()


class _ScopeStack(threading.local):
    def __init__(self):
        self.entries: list = []  # (name, caller, parent path or None)


_scopes = _ScopeStack()


@contextmanager
def keras_name_scope(name: str, caller=None):
    """Keras 3's name scope: what variable paths are made of. A caller's scope re-opened
    directly inside itself is not doubled; a layer's scope starts from the path it was first
    opened at (its ``_parent_path``)."""
    top = _scopes.entries[-1] if _scopes.entries else None
    if top is not None and caller is not None and top[0] == name and top[1] is caller:
        yield
        return
    _scopes.entries.append((name, caller, getattr(caller, "_parent_path", None)))
    try:
        yield
    finally:
        _scopes.entries.pop()


def current_path() -> str:
    parts: list[str] = []
    for name, _, parent in _scopes.entries:
        if parent is not None:
            parts = [p for p in parent.split("/") if p]
        parts.append(name)
    return "/".join(parts)


class KerasVariable(ResourceVariable):
    """A Keras 3 variable: ``name`` as given (``kernel``), ``path`` under the Keras name scopes
    open at creation (``sequential/dense/kernel``), printed as Keras 3 prints it."""

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, autocast=True,
                 aggregation="none", synchronization="auto", name=None, **kwargs):
        if isinstance(initializer, (str, initializers.Initializer)):
            if shape is None:
                raise ValueError("When creating a Variable from an initializer, the `shape` "
                                 "argument should be specified. Received: initializer="
                                 f"{initializer} and shape={shape}")
            init, dtype = initializers.get(initializer), as_dtype(dtype or floatx())
            initializer = functools.partial(init, tuple(shape), dtype=dtype)
        name = name or unique_name("variable")
        parent = current_path()
        self._path = f"{parent}/{name}" if parent else name
        self._short_name = name
        with name_scope(""):  # (TensorFlow's name scopes are not part of a Keras name)
            super().__init__(initializer, trainable=trainable, dtype=dtype,
                             name=self._path, **kwargs)

    @property
    def name(self) -> str:
        return self._short_name

    @property
    def path(self) -> str:
        return self._path

    def __repr__(self) -> str:
        value = f", value={self.numpy()}" if context.executing_eagerly() else ""
        return (f"<Variable path={self._path}, shape={tuple(self.shape.as_list())}, "
                f"dtype={self.dtype.name}{value}>")

    __str__ = __repr__


class _CallContext(threading.local):
    def __init__(self):
        self.training: list = []
        self.wrapped = False


_call_context = _CallContext()


@contextmanager
def wrapped_call():
    """A wrapper's call of its layer (TimeDistributed), which Keras makes on ``call``
    directly: the layer drops a mask it does not support without a warning."""
    _call_context.wrapped = True
    try:
        yield
    finally:
        _call_context.wrapped = False
# call's parameters per function: ``training`` is looked up on every layer call.
_call_params_cache: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _scoped_build(build):
    """``build`` run in the layer's Keras name scope, however it is called (Keras wraps it so)."""
    @functools.wraps(build)
    def scoped(self, *args, **kwargs):
        with self._build_scope():
            return build(self, *args, **kwargs)
    return scoped


# Keras masks carried by tensors (Keras sets ``tensor._keras_mask``; tensors here have slots):
# id of a tensor -> (a weak reference to it, its mask).
_MASKS: dict[int, tuple] = {}


def get_keras_mask(value):
    """The Keras mask attached to ``value`` by the layer that made it, or None."""
    entry = _MASKS.get(id(value))
    if entry is None or entry[0]() is not value:
        return None
    return entry[1]


def _masks_of(value):
    """The Keras mask of a tensor, or the list of those of a list of tensors."""
    if isinstance(value, (list, tuple)):
        return [get_keras_mask(x) for x in value]
    return get_keras_mask(value)


def _is_tensor_argument(value) -> bool:
    """A tensor, or a list of tensors (and Nones): what Keras 3 counts as a tensor argument."""
    if isinstance(value, (list, tuple)):
        flat = nest.flatten(value)
        return bool(flat) and all(v is None or isinstance(v, (Tensor, Variable)) for v in flat) \
            and any(v is not None for v in flat)
    return isinstance(value, (Tensor, Variable))


def _set_keras_mask(value, mask) -> None:
    """Attaches ``mask`` to ``value`` (None removes it), as Keras sets ``_keras_mask``."""
    if not isinstance(value, Tensor):
        return
    key = id(value)
    if mask is None:
        _MASKS.pop(key, None)
        return
    _MASKS[key] = (weakref.ref(value, lambda _, key=key: _MASKS.pop(key, None)), mask)


class Layer(Module):
    """Base class of the layers: weights, building, the call protocol.

    Masks are Keras 3's: a ``call`` taking ``mask`` is given the masks of its one tensor
    argument (with several tensor arguments, ``<name>_mask`` gets the mask of ``<name>``);
    a layer that ``supports_masking`` (by default: one that overrides ``compute_mask``)
    attaches ``compute_mask`` to the outputs that have no mask yet; any other layer drops
    the mask of its input with Keras's warning.
    """

    @property
    def supports_masking(self) -> bool:
        """Whether ``compute_mask`` gives this layer's output mask; by default, whether the
        layer overrides ``compute_mask`` (Keras 3)."""
        flag = self.__dict__.get("_supports_masking")
        return type(self).compute_mask is not Layer.compute_mask if flag is None else flag

    @supports_masking.setter
    def supports_masking(self, value) -> None:
        self.__dict__["_supports_masking"] = bool(value)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        if "build" in cls.__dict__:
            cls.build = _scoped_build(cls.__dict__["build"])

    def _keras_scope(self):
        """This layer's Keras name scope; the path it is first opened at is kept for good."""
        if self.__dict__.get("_parent_path") is None:
            self._parent_path = current_path()
        return keras_name_scope(self.name, caller=self)

    @contextmanager
    def _build_scope(self):
        with self._keras_scope():
            self._path = current_path()
            yield

    @property
    def path(self):
        """Where the layer lives (``sequential/dense``), known once it is built (Keras 3)."""
        return self.__dict__.get("_path")

    @property
    def input(self):
        """The KerasTensor(s) of the layer's first call on KerasTensors (Keras 3)."""
        return self._first_call("inputs", "input")

    @property
    def output(self):
        """What the layer's first call on KerasTensors returned (Keras 3): how a model is cut
        at a layer (``Model(base.input, base.get_layer("block").output)``)."""
        return self._first_call("outputs", "output")

    @output.setter
    def output(self, value) -> None:  # (an InputLayer's KerasTensor: its input node's output)
        if not isinstance(value, KerasTensor):
            raise AttributeError(f"property 'output' of '{type(self).__name__}' object has "
                                 "no setter")
        Node(self, outputs=[value])

    def _first_call(self, attr, label):
        nodes = self.__dict__.get("_inbound_nodes")
        if not nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no "
                                 f"defined {label}.")
        values = getattr(nodes[0], attr)
        return values[0] if len(values) == 1 else values

    def __init__(self, trainable=True, name=None, dtype=None, **kwargs):
        input_shape = kwargs.pop("input_shape", None)
        input_dim = kwargs.pop("input_dim", None)
        activity_regularizer = kwargs.pop("activity_regularizer", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to {type(self).__name__}: "
                             f"{kwargs}")
        super().__init__(name=name or unique_name(snake_case(type(self).__name__)))
        self._trainable = bool(trainable)
        if isinstance(dtype, dict):  # a serialized DTypePolicy (from get_config)
            dtype = dtype.get("config", {}).get("name")
        self._dtype = as_dtype(dtype or layer_dtype())
        self._own_weights: list[Variable] = []
        self._losses: list[Tensor] = []
        self._weight_regularizers: dict = {}  # resource id -> regularizer of an own weight
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self._output_shape = None
        self.built = False
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        # Where a Sequential model builds from when this is its first layer.
        self._input_shape_arg = None if input_shape is None else tuple(input_shape)

    # -- dtype and trainability ----------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def compute_dtype(self):
        return self._dtype

    @property
    def trainable(self) -> bool:
        return self._trainable

    @trainable.setter
    def trainable(self, value) -> None:
        self._trainable = bool(value)
        for layer in self._flat_layers():
            layer._trainable = bool(value)

    # -- weights ---------------------------------------------------------------------------
    def add_weight(self, shape=None, initializer=None, dtype=None, trainable=True,
                   autocast=True, regularizer=None, constraint=None, aggregation="none",
                   name=None):
        """Creates a Variable of this layer (``initializer`` defaults as in Keras: glorot
        uniform for floats, zeros otherwise)."""
        dtype = as_dtype(dtype or self._dtype)
        shape = () if shape is None else tuple(int(d) for d in shape)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        init = initializers.get(initializer)
        name = name or unique_name("variable")  # (one count for the whole program, as Keras's)
        with keras_name_scope(self.name, caller=self):
            v = KerasVariable(lambda: init(shape, dtype=dtype), trainable=trainable,
                              dtype=dtype, name=name, constraint=constraints.get(constraint))
        self._own_weights.append(v)
        regularizer = regularizers.get(regularizer)
        if regularizer is not None:
            self.__dict__.setdefault("_weight_regularizers", {})[v._resource] = regularizer
        return v

    def _layers(self) -> list["Layer"]:
        """The layers held directly in attributes (through lists, tuples, dicts)."""
        return self._held(Layer)

    def _held(self, kind) -> list:
        """The objects of ``kind`` held directly in attributes (through lists, tuples, dicts)."""
        found, seen = [], set()

        def visit(value):
            if isinstance(value, kind):
                if id(value) not in seen and value is not self:
                    seen.add(id(value))
                    found.append(value)
            elif isinstance(value, dict):
                for v in value.values():
                    visit(v)
            elif isinstance(value, (list, tuple)):
                for v in value:
                    visit(v)

        for key, value in vars(self).items():
            if not key.startswith("__"):
                visit(value)
        return found

    def _flat_layers(self) -> list["Layer"]:
        out, seen = [], set()
        stack = list(reversed(self._layers()))
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            out.append(layer)
            stack.extend(reversed(layer._layers()))
        return out

    def _unique(self, groups) -> list[Variable]:
        out, seen = [], set()
        for v in groups:
            if v._resource not in seen:
                seen.add(v._resource)
                out.append(v)
        return out

    def _own_non_trainable(self) -> list[Variable]:
        return [v for v in self._own_weights if not v.trainable]

    def _own(self) -> list[Variable]:
        """This layer's weights, trainable ones first (Keras 3 keeps them in two lists)."""
        return [v for v in self._own_weights if v.trainable] + self._own_non_trainable()

    def _seed_states(self) -> list[Variable]:
        return [g.state for g in self._held(SeedGenerator)]

    @property
    def weights(self) -> list[Variable]:
        return self._unique(self._own() + [w for l in self._layers() for w in l.weights])

    @property
    def trainable_weights(self) -> list[Variable]:
        if not self._trainable:
            return []
        own = [v for v in self._own_weights if v.trainable]
        return self._unique(own + [w for l in self._layers() for w in l.trainable_weights])

    @property
    def non_trainable_weights(self) -> list[Variable]:
        if not self._trainable:
            return self.weights
        return self._unique(self._own_non_trainable() +
                            [w for l in self._layers() for w in l.non_trainable_weights])

    # tf.Module's trainable_variables follows the layer's flag.
    trainable_variables = trainable_weights

    @property
    def variables(self) -> list[Variable]:
        """The weights and the seed generators' states (after the layer's own weights)."""
        return self._unique(self._own() + self._seed_states() +
                            [w for l in self._layers() for w in l.variables])

    @property
    def non_trainable_variables(self) -> list[Variable]:
        if not self._trainable:
            return self.variables
        return self._unique(self._own_non_trainable() + self._seed_states() +
                            [w for l in self._layers() for w in l.non_trainable_variables])

    def get_weights(self) -> list[np.ndarray]:
        return [v.numpy() for v in self.weights]

    def set_weights(self, weights) -> None:
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a "
                             f"weight list of length {len(weights)}, but the layer was "
                             f"expecting {len(params)} weights.")
        for v, w in zip(params, weights):
            w = np.asarray(w)
            if tuple(v.shape.as_list()) != w.shape:
                raise ValueError(f"Layer {self.name} weight shape {tuple(v.shape.as_list())} "
                                 f"is not compatible with provided weight shape {w.shape}.")
            v.assign(w.astype(v.dtype.numpy_dtype))

    def count_params(self) -> int:
        return int(sum(np.prod(v.shape.as_list(), dtype=np.int64) for v in self.weights))

    # -- losses ----------------------------------------------------------------------------
    def add_loss(self, loss) -> None:
        """Adds scalar loss tensors (from ``call`` or ``build``) to ``losses``; the outermost
        layer call starts the list afresh, as Keras 3 does."""
        losses = nest.flatten(loss)
        for x in losses:
            if not isinstance(x, Tensor):
                raise ValueError("`add_loss()` can only be called from inside `build()` or "
                                 f"`call()`, on a tensor input. Received invalid value: {x}")
        self.__dict__.setdefault("_losses", []).extend(losses)

    @property
    def losses(self) -> list:
        """The losses added by this layer and the layers it holds during the last call, then
        the penalties of the regularized trainable weights (computed now)."""
        out, penalties = [], {}
        for layer in [self] + self._flat_layers():
            out.extend(layer.__dict__.get("_losses", ()))
            penalties.update(layer.__dict__.get("_weight_regularizers", {}))
        out.extend(penalties[v._resource](v) for v in self.trainable_weights
                   if v._resource in penalties)
        return out

    def _clear_losses(self) -> None:
        for layer in [self] + self._flat_layers():
            layer.__dict__.get("_losses", []).clear()

    # -- building and calling -----------------------------------------------------------
    def build(self, input_shape) -> None:
        """Creates the weights for inputs of ``input_shape`` (a tuple; None for unknown)."""
        self.built = True

    build._default = True  # (Keras's is_default: a layer without a build of its own)

    def call(self, inputs, *args, **kwargs):
        return inputs

    def compute_mask(self, inputs, mask=None):
        """The mask of this layer's output: its input's (called when it supports masking)."""
        return mask

    def _populate_masks(self, params, args, kwargs):
        """Keras 3's mask arguments, filled in from the masks the inputs carry; returns the
        mask of the call (``mask`` given or filled in, else the first input's)."""
        names = [n for n, p in params.items()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        bound = dict(zip(names, args))
        bound.update((k, v) for k, v in kwargs.items() if k in params)
        tensors = {k: v for k, v in bound.items() if _is_tensor_argument(v)}
        if len(tensors) == 1:
            if "mask" in params and bound.get("mask") is None:
                kwargs["mask"] = bound["mask"] = _masks_of(next(iter(tensors.values())))
        else:
            for name, value in tensors.items():
                if f"{name}_mask" in params and bound.get(f"{name}_mask") is None:
                    kwargs[f"{name}_mask"] = _masks_of(value)
        if bound.get("mask") is not None:
            return bound["mask"]
        return _masks_of(args[0]) if args else None

    def _set_output_masks(self, inputs, outputs, previous_mask) -> None:
        flat = nest.flatten(outputs)
        if all(get_keras_mask(x) is not None for x in flat):
            return
        masks = self.compute_mask(inputs, previous_mask)
        if masks is None:
            return
        masks = nest.flatten(masks) if isinstance(masks, (list, tuple)) else [masks]
        for tensor, mask in zip(flat, masks):
            if mask is not None and get_keras_mask(tensor) is None:
                _set_keras_mask(tensor, mask)

    def _convert_input(self, x):
        y = self._converted(x)
        if y is not x and get_keras_mask(x) is not None:  # (the mask follows the cast)
            _set_keras_mask(y, get_keras_mask(x))
        return y

    def _converted(self, x):
        if isinstance(x, Tensor):
            if x.dtype.is_floating and x.dtype != self._dtype:
                return cast(x, self._dtype)
            return x
        if isinstance(x, Variable):
            return x
        if isinstance(x, (np.ndarray, float, int, np.generic)):
            t = convert_to_tensor(x)
            return cast(t, self._dtype) if t.dtype.is_floating and t.dtype != self._dtype else t
        return x

    def _call_params(self):
        fn = getattr(self.call, "python_function", self.call)
        key = getattr(fn, "__func__", fn)
        params = _call_params_cache.get(key)
        if params is None:
            try:
                params = dict(inspect.signature(fn).parameters)
            except (TypeError, ValueError):
                params = {}
            _call_params_cache[key] = params
        return params

    def __call__(self, *args, **kwargs):
        wrapped, _call_context.wrapped = _call_context.wrapped, False
        if not args and "inputs" in kwargs:
            args = (kwargs.pop("inputs"),)
        if has_keras_tensor((args, kwargs)):  # the functional API: record the call
            return symbolic_call(self, args, kwargs)
        if args:
            first = args[0]
            if isinstance(first, (list, tuple)) and not any(
                    isinstance(v, (Tensor, Variable, np.ndarray)) for v in nest.flatten(first)):
                first = self._convert_input(np.asarray(first))  # nested numbers: one tensor
            args = (nest.map_structure(self._convert_input, first),) + args[1:]
            spec = self.__dict__.get("input_spec")
            if spec is not None:
                assert_input_compatibility(spec, args[0], self.name)
        if not _call_context.training:  # the outermost layer call
            self._clear_losses()
        params = self._call_params()
        if "training" in params:
            training = kwargs.get("training")
            if training is None and _call_context.training:
                training = _call_context.training[-1]
            if training is None:
                default = params["training"].default
                training = None if default is inspect.Parameter.empty else default
            kwargs["training"] = training
        else:
            training = kwargs.pop("training", None)
            if training is None and _call_context.training:
                training = _call_context.training[-1]
        if not self.built:
            with self._build_scope():
                if getattr(type(self).build, "_default", False) and \
                        any(not layer.built for layer in self._layers()):
                    self._build_by_symbolic_call(args, kwargs, training)
                if not self.built:
                    self._build_from(args[0] if args else None)
        previous_mask = self._populate_masks(params, args, kwargs)
        _call_context.training.append(training)
        try:
            with name_scope(self.name), self._keras_scope():
                outputs = self.call(*args, **kwargs)
        finally:
            _call_context.training.pop()
        if self.supports_masking:
            self._set_output_masks(args[0] if args else None, outputs, previous_mask)
        elif not wrapped and any(m is not None for m in nest.flatten(previous_mask)):
            warnings.warn(f"Layer '{self.name}' (of type {type(self).__name__}) was passed an "
                          "input with a mask attached to it. However, this layer does not "
                          "support masking and will therefore destroy the mask information. "
                          "Downstream layers will not see the mask.")
        first = nest.flatten(outputs)
        if self.__dict__.get("activity_regularizer") is not None:
            self._add_activity_losses(first)
        if first and hasattr(first[0], "shape"):
            self._output_shape = tuple(first[0].shape.as_list()) if first[0].shape.rank \
                is not None else None
        return outputs

    def _add_activity_losses(self, outputs) -> None:
        """The activity penalty of each output, divided by its batch size (Keras 3)."""
        for output in outputs:
            if isinstance(output, Tensor):
                loss = self.activity_regularizer(output)
                if output.shape.rank != 0:
                    batch = cast(array_ops.shape(output)[0], loss.dtype)
                    loss = divide_no_nan(loss, batch)
                self.add_loss(loss)

    def _build_by_symbolic_call(self, args, kwargs, training) -> None:
        """Keras 3's build of a layer without a ``build`` of its own whose sublayers are
        unbuilt: ``call`` runs once on placeholders in a scratch graph (its Python runs, its
        ops are thrown away), the weights it makes counting only for a Function traced around
        this call (``deferred_variables``). A call that fails there builds as it runs instead."""
        scratch = Graph("scratch")

        def placeholder(value):
            return scratch_input(scratch, value.dtype, value.shape) \
                if isinstance(value, Tensor) else value
        _call_context.training.append(training)
        try:
            with deferred_variables(), context.building(scratch), name_scope(self.name), \
                    self._keras_scope():
                self.call(*nest.map_structure(placeholder, list(args)),
                          **nest.map_structure(placeholder, kwargs))
        except Exception:  # noqa: BLE001  (as Keras: the real call builds what is left)
            return
        finally:
            _call_context.training.pop()
            self._clear_losses()
        self.built = True

    def _build_from(self, inputs) -> None:
        shapes = nest.map_structure(
            lambda t: tuple(t.shape.as_list()) if hasattr(t, "shape") and t.shape.rank
            is not None else None, inputs)
        self.build(shapes)
        self.built = True

    # -- configuration ----------------------------------------------------------------
    def get_config(self) -> dict:
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": {"module": "keras", "class_name": "DTypePolicy",
                            "config": {"name": self._dtype.name}, "registered_name": None}}
        if self.__dict__.get("activity_regularizer") is not None:
            config["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"
