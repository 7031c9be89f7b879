"""``tf.Variable``: mutable state that outlives a trace.

The value lives in ``graph.resources`` under the variable's resource id.
Eagerly, reads and assignments touch that store at once. While a graph is
being built, every read records a new stateful ``ReadVariableOp`` and every
assignment a stateful ``Assign*VariableOp``; the executor runs stateful ops
in creation order, so reads see the assignments that precede them in the
program. Graphs refer to the variable only by its id (an attr), so nothing
needs to be captured and a saved graph still names its state.
"""
from __future__ import annotations

import weakref

import numpy as np

from graph import dtypes, resources
from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from graph.ir import Graph
from graph.shapes import TensorShape, as_shape
from graph.registry import get_op
from runtime import context
from runtime import name_scope as _name_scope
from runtime.distribute import check_single_replica_write
from runtime.errors import LeakedTensorError
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.ops import operators
from runtime.ops.random_ops import count_op_seeds_with
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor, _numpy_text
from runtime.variable_enums import VariableAggregation, VariableSynchronization


# Called with each new Variable before it creates state (runtime.function installs one).
_CREATION_HOOKS: list = []
# Called with (variable, tensor) for each read while a GradientTape records.
READ_HOOKS: list = []


_BY_RESOURCE: "weakref.WeakValueDictionary" = weakref.WeakValueDictionary()


def variable_of(resource: int):
    """The live Variable holding ``resource`` (graphs and records know variables by id)."""
    return _BY_RESOURCE.get(resource)


class Variable:
    """A mutable tensor-like value (``tf.Variable``)."""

    __array_priority__ = 100  # numpy defers ``ndarray + Variable`` to our operators

    def __new__(cls, *args, **kwargs):
        # ``tf.Variable(...)`` makes a ResourceVariable, as TensorFlow's metaclass does.
        return super().__new__(ResourceVariable if cls is Variable else cls)

    def __init__(self, initial_value=None, trainable=None, validate_shape: bool = True,
                 caching_device=None, name: str | None = None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregation.NONE, shape=None,
                 experimental_enable_variable_lifting: bool = True):
        """TensorFlow's signature (``validate_shape`` and ``caching_device`` change nothing
        here, as in TensorFlow 2 eagerly); ``variable_def`` and ``import_scope`` (TensorFlow 1
        graph-mode arguments) must be left unset."""
        if variable_def is not None or import_scope is not None:
            raise ValueError("tf.Variable: variable_def and import_scope are TensorFlow 1 "
                             "graph-mode arguments; create the variable from initial_value")
        if constraint is not None and not callable(constraint):
            raise ValueError(f"The `constraint` argument must be a callable, got {constraint!r}")
        synchronization = VariableSynchronization(synchronization)
        aggregation = VariableAggregation(aggregation)
        if trainable is None:  # (TensorFlow: on-read variables are not trained by default)
            trainable = synchronization is not VariableSynchronization.ON_READ
        elif trainable and synchronization is VariableSynchronization.ON_READ:
            raise ValueError("Synchronization value can be set to "
                             "VariableSynchronization.ON_READ only for non-trainable variables. "
                             "You have specified trainable=True and "
                             "synchronization=VariableSynchronization.ON_READ.")
        # A tf.function being traced counts (or refuses) it, and says whether it traces it.
        traced = [hook(self) for hook in _CREATION_HOOKS]
        if initial_value is None:
            raise ValueError("tf.Variable needs an initial_value")
        graph = context.current_graph()  # (its name scope prefixes the name, as TensorFlow's)
        scope = _name_scope.current_eager_scope() if graph is None else graph.scope_prefix
        if callable(initial_value):
            initial_value = _call_initial_value(initial_value)
        deferred = None
        with context.init_scope():  # state is created once, outside any graph being built
            if isinstance(initial_value, SymbolicTensor):
                # Computed now if it depends on constants only (tf.zeros([2]) recorded in the
                # graph being traced); one that needs the function's tensors or state is
                # assigned by the traced function's first run, as TensorFlow's fallback does.
                lifted = _compute(initial_value, fresh_random=True)
                if isinstance(lifted, EagerTensor):
                    initial_value = lifted
                elif any(traced):
                    deferred = initial_value
                else:
                    raise _unliftable(initial_value, lifted)
            if deferred is not None:
                if dtype is not None and as_dtype(dtype) != deferred.dtype:
                    raise ValueError(
                        f"tf.Variable at {current_origin()}: the initial value {deferred.name} "
                        f"is {deferred.dtype.name}, not the dtype={as_dtype(dtype).name} asked "
                        "for; cast it with tf.cast.")
                value = deferred
            else:
                if isinstance(initial_value, Variable):
                    initial_value = initial_value._as_tensor()
                value = convert_to_tensor(initial_value,
                                          dtype=None if dtype is None else as_dtype(dtype))
        self._dtype = value.dtype
        self._shape = value.shape if shape is None else as_shape(shape)
        if not self._shape.is_compatible_with(value.shape):
            raise ValueError(f"tf.Variable: the initial value has shape {value.shape}, which "
                             f"does not fit shape={self._shape}")
        self._trainable = bool(trainable)
        self._constraint = constraint
        self._synchronization, self._aggregation = synchronization, aggregation
        self._name = f"{scope}{name or 'Variable'}:0"
        if deferred is None:
            self._resource = resources.new_resource(np.array(value.numpy(),
                                                             dtype=self._dtype.numpy_dtype))
        else:
            self._resource = resources.new_resource(None, initialized=False)
        _BY_RESOURCE[self._resource] = self
        if deferred is not None:
            self._initialize_in_graph(deferred)

    def _initialize_in_graph(self, initial_value: SymbolicTensor) -> None:
        """Records into the function being traced the assignment of an initial value that
        needs the function's inputs, done only while the variable holds no value (TensorFlow
        conds on ``VarIsInitializedOp``). The Function runs this trace on its first call
        (``runtime/function.py``)."""
        apply_op("InitializeVariableOp", [initial_value], attrs=self._attrs(),
                 name="InitializeVariableOp")

    # -- identity ----------------------------------------------------------
    @property
    def name(self) -> str:
        return self._name

    constraint = property(lambda self: self._constraint,
                          doc="The projection an optimizer applies after each update, or None.")
    synchronization = property(lambda self: self._synchronization)
    aggregation = property(lambda self: self._aggregation)

    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def trainable(self) -> bool:
        return self._trainable

    @property
    def ndim(self):
        return self._shape.rank

    def get_shape(self) -> TensorShape:
        return self._shape

    @property
    def device(self) -> str:
        """Where the state lives: the one CPU, named as TensorFlow names it."""
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    @property
    def _unique_id(self) -> int:
        """The resource id: a stable key for trace caches, unique per variable."""
        return self._resource

    @property
    def resource_id(self) -> int:
        return self._resource

    def ref(self):
        return _VariableRef(self)

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")

    # -- reading -----------------------------------------------------------
    def _as_tensor(self) -> Tensor:
        """The current value: an EagerTensor, or a new ReadVariableOp node in a graph."""
        graph = context.current_graph()
        if graph is None:
            value = resources.read(self._resource)
            t = EagerTensor(np.array(value, copy=True), self._dtype)
        else:
            t = apply_op("ReadVariableOp", [], attrs=self._attrs(), name="ReadVariableOp")
        for hook in READ_HOOKS:  # GradientTapes watching variable reads
            hook(self, t)
        return t

    def value(self) -> Tensor:
        return self._as_tensor()

    def read_value(self) -> Tensor:
        return self._as_tensor()

    def numpy(self):
        if not context.executing_eagerly():
            raise NotImplementedError(
                f"numpy() is only available when eager execution is enabled: {self._name} is "
                "read inside a function being traced. Use the variable as a tensor (or "
                "tf.print it) instead.")
        return self._as_tensor().numpy()

    def __array__(self, dtype=None, copy=None):
        arr = np.asarray(self.numpy())
        return arr if dtype is None else arr.astype(dtype)

    def __getitem__(self, key):
        """``v[key]``: the slice's value, which can also ``.assign(value)`` into ``v``."""
        from runtime.ops.array_ops import is_boolean_mask, strided_slice_spec
        sliced = self._as_tensor()[key]
        if is_boolean_mask(key):
            return sliced  # (a gather: TensorFlow cannot assign through it either)
        spec, bounds = strided_slice_spec(key)
        # The very tensor the slice made (a tape knows it), retyped to one that can assign.
        sliced.__class__ = _SlicedEager if isinstance(sliced, EagerTensor) else _SlicedSymbolic
        _SLICE_SOURCES[id(sliced)] = (self, spec, bounds)
        weakref.finalize(sliced, _SLICE_SOURCES.pop, id(sliced), None)
        return sliced

    def _assign_slice(self, spec, bounds, value):
        """``v[spec] = value`` (broadcast), as TensorFlow's ``ResourceStridedSliceAssign``."""
        t = self._converted(value, "assign", check_shape=False)
        new = apply_op("TensorStridedSliceUpdate", [self._as_tensor()] + bounds + [t],
                       attrs={"spec": spec}, name="strided_slice/_assign")
        return self._write("AssignVariableOp", new, "assign", True)

    def __bool__(self) -> bool:
        return bool(self._as_tensor())

    def __index__(self) -> int:
        return self._as_tensor().__index__()

    def __int__(self) -> int:
        return int(self._as_tensor())

    def __float__(self) -> float:
        return float(self._as_tensor())

    def __len__(self) -> int:
        return len(self._as_tensor())

    def __iter__(self):
        return iter(self._as_tensor())

    # -- writing -----------------------------------------------------------
    def _attrs(self) -> dict:
        return {"resource": self._resource, "dtype": self._dtype, "shape": self._shape}

    def _converted(self, value, what: str, check_shape: bool = True) -> Tensor:
        if isinstance(value, Variable):
            value = value._as_tensor()
        if isinstance(value, Tensor):
            t = value
        else:
            try:
                t = convert_to_tensor(value, dtype=self._dtype)
            except (TypeError, ValueError) as e:
                raise TypeError(f"Cannot {what} {value!r} to {self._name} of dtype "
                                f"{self._dtype.name} at {current_origin()}: {e}") from None
        if t.dtype != self._dtype:
            raise TypeError(
                f"Cannot {what} a tensor of dtype {t.dtype.name} to {self._name} of dtype "
                f"{self._dtype.name} at {current_origin()}; convert it with "
                f"tf.cast(value, tf.{self._dtype.name}).")
        if check_shape and not self._shape.is_compatible_with(t.shape):
            if what == "assign":  # TensorFlow's messages, word for word
                raise ValueError(
                    f"Cannot assign value to variable ' {self._name}': Shape mismatch.The "
                    f"variable shape {self._shape}, and the assigned value shape {t.shape} are "
                    "incompatible.")
            raise InvalidArgumentError(
                message=f"Cannot update variable with shape {list(self._shape.as_tuple())} "
                        f"using a Tensor with shape {list(t.shape.as_tuple())}, shapes must be "
                        "equal.")
        return t

    def _write(self, op: str, value, what: str, read_value: bool):
        check_single_replica_write(self._name)
        t = self._converted(value, what)
        if context.current_graph() is None:
            apply_op(op, [t], attrs=self._attrs())
            return _UnreadVariable(self) if read_value else None
        apply_op(op, [t], attrs=self._attrs(), name=op)
        return self._as_tensor()

    def assign(self, value, use_locking=None, name=None, read_value: bool = True):
        """Sets the value; eagerly returns an ``UnreadVariable`` view of this variable (None
        when ``read_value=False``), in a graph the new value."""
        return self._write("AssignVariableOp", value, "assign", read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value: bool = True):
        return self._write("AssignAddVariableOp", delta, "assign_add", read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value: bool = True):
        return self._write("AssignSubVariableOp", delta, "assign_sub", read_value)

    # -- sparse reads and writes: compositions of the dense ops ------------------
    def sparse_read(self, indices, name=None) -> Tensor:
        """The rows ``indices`` of the value (its gradient is an IndexedSlices)."""
        from runtime.ops.array_ops import gather
        return gather(self._as_tensor(), indices, name=name)

    def gather_nd(self, indices, name=None) -> Tensor:
        from runtime.ops.array_ops import gather_nd
        return gather_nd(self._as_tensor(), indices, name=name)

    def _scatter_nd(self, fn_name: str, indices, updates):
        from runtime.ops import array_ops
        new = getattr(array_ops, fn_name)(self._as_tensor(), indices,
                                          self._converted(updates, "scatter into",
                                                          check_shape=False))
        return self._write("AssignVariableOp", new, "assign", True)

    def _scatter(self, fn_name: str, sparse_delta):
        from runtime.ops.array_ops import expand_dims
        from runtime.ops.type_ops import IndexedSlices
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError(f"sparse_delta is not IndexedSlices: {sparse_delta}")
        return self._scatter_nd(fn_name, expand_dims(sparse_delta.indices, -1),
                                sparse_delta.values)

    def scatter_nd_update(self, indices, updates, name=None):
        return self._scatter_nd("tensor_scatter_nd_update", indices, updates)

    def scatter_nd_add(self, indices, updates, name=None):
        return self._scatter_nd("tensor_scatter_nd_add", indices, updates)

    def scatter_nd_sub(self, indices, updates, name=None):
        return self._scatter_nd("tensor_scatter_nd_sub", indices, updates)

    def scatter_nd_max(self, indices, updates, name=None):
        return self._scatter_nd("tensor_scatter_nd_max", indices, updates)

    def scatter_nd_min(self, indices, updates, name=None):
        return self._scatter_nd("tensor_scatter_nd_min", indices, updates)

    def scatter_update(self, sparse_delta, use_locking=False, name=None):
        """Writes ``sparse_delta.values`` into the rows ``sparse_delta.indices``."""
        return self._scatter("tensor_scatter_nd_update", sparse_delta)

    def scatter_add(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("tensor_scatter_nd_add", sparse_delta)

    def scatter_sub(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("tensor_scatter_nd_sub", sparse_delta)

    def scatter_max(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("tensor_scatter_nd_max", sparse_delta)

    def scatter_min(self, sparse_delta, use_locking=False, name=None):
        return self._scatter("tensor_scatter_nd_min", sparse_delta)

    def scatter_mul(self, sparse_delta, use_locking=False, name=None):
        """Multiplies the rows ``sparse_delta.indices`` by ``sparse_delta.values`` (a row named
        twice is multiplied by both)."""
        return self._scale_rows(sparse_delta, "multiply")

    def scatter_div(self, sparse_delta, use_locking=False, name=None):
        """Divides the rows ``sparse_delta.indices`` by ``sparse_delta.values``."""
        return self._scale_rows(sparse_delta, "divide")

    def _scale_rows(self, sparse_delta, how: str):
        from runtime.ops import math_ops
        from runtime.ops.array_ops import shape as shape_of
        from runtime.ops.special_ops import unsorted_segment_prod
        from runtime.ops.type_ops import IndexedSlices
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError(f"sparse_delta is not IndexedSlices: {sparse_delta}")
        value = self._as_tensor()
        rows = shape_of(value, out_type=sparse_delta.indices.dtype)[0]
        factor = unsorted_segment_prod(sparse_delta.values, sparse_delta.indices, rows)
        return self.assign(getattr(math_ops, how)(value, factor))

    def experimental_ref(self):
        """Deprecated alias of ``ref()``."""
        return self.ref()

    def set_shape(self, shape) -> None:
        """Checks that ``shape`` is compatible with the variable's (which stays as it is)."""
        self._shape.assert_is_compatible_with(shape)

    @property
    def initial_value(self):
        if context.executing_eagerly():
            raise RuntimeError("This property is not supported when eager execution is enabled.")
        raise RuntimeError("initial_value is not kept: Variables here are created eagerly.")

    # -- printing ----------------------------------------------------------
    def __repr__(self) -> str:
        head = f"<tf.Variable '{self._name}' shape={self._shape} dtype={self._dtype.name}"
        if context.executing_eagerly():
            return f"{head}, numpy={_numpy_text(self._as_tensor(), is_repr=True)}>"
        return head + ">"

    __str__ = __repr__


class ResourceVariable(Variable):
    """The class of what ``tf.Variable(...)`` makes (TensorFlow's name for it)."""


class _UnreadVariable(ResourceVariable):
    """What an eager ``assign*`` returns: the same state under the name ``UnreadVariable``
    (reads see the variable's current value; writes change the variable)."""

    def __new__(cls, variable):
        return object.__new__(cls)

    def __init__(self, variable):
        self.__dict__.update(variable.__dict__)
        self._name = "UnreadVariable"


# id of a ``v[key]`` tensor -> (v, spec, bounds), while that tensor lives.
_SLICE_SOURCES: dict = {}


class _SliceAssign:
    """``v[key].assign(value)``: a slice of a variable remembers where it came from."""

    __slots__ = ()

    def assign(self, value, name=None):
        variable, spec, bounds = _SLICE_SOURCES[id(self)]
        return variable._assign_slice(spec, bounds, value)


class _SlicedEager(_SliceAssign, EagerTensor):
    __slots__ = ()


class _SlicedSymbolic(_SliceAssign, SymbolicTensor):
    __slots__ = ()


# They are the tensors TensorFlow's ``v[key]`` gives: named so.
_SlicedEager.__name__ = _SlicedEager.__qualname__ = "EagerTensor"
_SlicedSymbolic.__name__ = _SlicedSymbolic.__qualname__ = "SymbolicTensor"


# The graphs runtime.keras runs a ``call`` or ``build`` in to make a layer's weights (Keras 3
# makes those variables lazily and initializes them eagerly, under ``tf.init_scope``).
_KERAS_SCRATCH_GRAPHS = ("scratch", "build")


def _initializer_graph():
    """The graph a callable initial value is built in, as TensorFlow builds it: the function
    being traced, or None when eager or in one of runtime.keras's scratch graphs."""
    graph = context.current_graph()
    if graph is None:
        return None
    root = graph
    while root.outer is not None:
        root = root.outer
    return None if root.name in _KERAS_SCRATCH_GRAPHS else graph


def _call_initial_value(fn):
    """``fn()``, a variable's callable initial value.

    While a function is traced, TensorFlow builds it in that function's graph and computes it
    once, lifted out: its unseeded random ops take the function's next op seeds and draw the
    first values of their seeds. So it is built here in a graph aside, numbered with the
    function's, and computed at once; a value that reads the function's tensors is built in
    the function (whose first run assigns it), one that reads state is made eagerly.
    """
    graph = _initializer_graph()
    if graph is not None:
        aside = Graph("initializer")
        count_op_seeds_with(aside, graph)
        try:
            with context.building(aside):
                value = fn()
        except LeakedTensorError:  # it reads the function's tensors
            return fn()
        if not (isinstance(value, SymbolicTensor) and value._output.node.graph is aside):
            return value
        computed = _compute(value, fresh_random=True)
        if isinstance(computed, EagerTensor):
            return computed
    with context.init_scope():
        return fn()


def _seeded_random(opdef) -> bool:
    return opdef.build is not None and "seed2" in opdef.kernel_attrs


def _compute(t: SymbolicTensor, fresh_random: bool = False):
    """The value of ``t`` computed now, or the first node it depends on that cannot run
    outside its graph (a placeholder, state; a seeded random op unless ``fresh_random``:
    then it runs as a new op, from the start of its seeds' stream)."""
    target = t._output.node
    needed, stack = set(), [target]
    while stack:
        node = stack.pop()
        if id(node) not in needed:
            needed.add(id(node))
            stack.extend(i.node for i in node.inputs)
            stack.extend(node.control_inputs)
    nodes = [node for node in target.graph.nodes if id(node) in needed]
    for node in nodes:
        opdef = get_op(node.op)
        if node.op == "Const":
            continue
        if node.op == "Placeholder" or opdef.kernel is None or \
                opdef.stateful and not (fresh_random and _seeded_random(opdef)):
            return node
    values = {}
    for node in nodes:
        if node.op == "Const":
            values[node.output(0)] = node.attrs["value"]
            continue
        opdef = get_op(node.op)
        inputs = [values[i] for i in node.inputs]
        result = opdef.make_kernel(node, None)(*inputs) if opdef.stateful else \
            opdef.run_eager(inputs, node.attrs)
        outs = [result] if len(node.outputs) == 1 else list(result)
        for j, value in enumerate(outs):
            values[node.output(j)] = value
    return EagerTensor(values[t._output], t.dtype)


def _unliftable(t: SymbolicTensor, needed) -> ValueError:
    return ValueError(
        f"tf.Variable at {current_origin()} got the symbolic tensor {t.name} as its initial "
        f"value, which depends on {needed.name!r} ({needed.op}): outside a tf.function's "
        "first trace, a variable's initial value must be computable outside the graph being "
        "built. Pass a Python/numpy value or a callable, or create the variable in the "
        "tf.function or outside any graph.")


class _VariableRef:
    __slots__ = ("_variable",)

    def __init__(self, variable):
        self._variable = variable

    def deref(self):
        return self._variable

    def __hash__(self):
        return hash(self._variable._resource)

    def __eq__(self, other):
        return isinstance(other, _VariableRef) and other._variable is self._variable


def _install_operators() -> None:
    """``v + 1``, ``v > 0``, ``v == w``...: read the variable, then the tensor operator."""
    install = getattr(operators, "install_operators", None)
    if install is not None:
        install(Variable)
        return
    for dunder in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul"):
        for name in (f"__{dunder}__", f"__r{dunder}__"):  # older operators module
            fn = getattr(Tensor, name, None)
            if fn is not None:
                setattr(Variable, name, lambda self, o, _fn=fn: _fn(self._as_tensor(), o))
    for name in ("__lt__", "__le__", "__gt__", "__ge__", "__neg__", "__abs__"):
        fn = getattr(Tensor, name, None)
        if fn is not None and fn is not getattr(object, name, None):
            setattr(Variable, name, lambda self, *o, _fn=fn: _fn(self._as_tensor(), *o))


_install_operators()
