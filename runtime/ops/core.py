"""The one place where an op either runs eagerly or is recorded into a graph, and the one
home of tensor conversion (``constant``, ``convert_to_tensor`` and the auto-packing of nested
lists holding tensors, ``stack_nested``): the op modules build on it, never the reverse."""
from __future__ import annotations

import weakref

import numpy as np

from graph import dtypes
from graph.dtypes import DType, as_array, as_dtype, infer_dtype, unsupported_value
from graph.errors import TensorConversionError
from graph.ir import Graph, Output, TensorType
from graph.shapes import TensorShape
from runtime import context
from runtime.context import building_stack as _building
from runtime.ops.eager import NUMERIC_CHECKS, RECORDERS, leaked, run_eager  # noqa: F401
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor

_ARG_NAMES = ("x", "y", "z")



def apply_op(op: str, inputs=(), attrs=None, name: str | None = None,
             arg_names=_ARG_NAMES):
    """Runs ``op`` on ``inputs`` now, or records it into the graph being built.

    Non-tensor inputs must already be converted by the caller. Returns one
    tensor, a tuple of tensors, or None for an op with no outputs.
    """
    attrs = {} if attrs is None else attrs
    graphs = _building.graphs  # (context.current_graph() without its call)
    graph = graphs[-1] if graphs else None
    if graph is None:  # inference cached per op, dtypes, shapes and attrs (runtime.ops.eager)
        result = run_eager(op, inputs, attrs)
        if RECORDERS:  # a GradientTape is recording (runtime.gradients.tape)
            RECORDERS[-1](op, inputs, attrs, result)
        if NUMERIC_CHECKS:  # tf.debugging.enable_check_numerics
            NUMERIC_CHECKS[-1](op, result)
        return result
    refs = [as_graph_input(graph, t) for t in inputs]
    node = graph.add_node(op, refs, attrs, name=name, origin=current_origin())
    n = len(node.outputs)
    result = (SymbolicTensor(node.output(0)) if n == 1 else None if n == 0
              else tuple(SymbolicTensor(node.output(i)) for i in range(n)))
    if NUMERIC_CHECKS:
        NUMERIC_CHECKS[-1](op, result)
    return result


def as_graph_input(graph: Graph, t) -> Output:
    """The graph-local output standing for tensor ``t`` (capturing it when needed)."""
    if isinstance(t, SymbolicTensor):
        if t._output.node.graph is graph:
            return t._output
        return capture(graph, t)
    if isinstance(t, EagerTensor):
        known = _EAGER_INPUTS.get(graph)
        if known is None:
            known = _EAGER_INPUTS[graph] = {}
        hit = known.get(id(t))
        if hit is not None:
            return hit[1]
        output = graph.add_node("Const", attrs={"dtype": t.dtype, "value": np.asarray(t._value)},
                                name="Const", origin=current_origin()).output(0)
        known[id(t)] = (t, output)  # (holding t keeps its id from naming another tensor)
        return output
    raise TypeError(f"Expected a Tensor, got {type(t).__name__}: {t!r}")


# graph -> {id(eager tensor): (the tensor, its Const)}: each eager tensor a function uses is
# one node, as TensorFlow captures it once, so a GradientTape can watch what the ops read.
_EAGER_INPUTS: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def capture(graph: Graph, t: SymbolicTensor) -> Output:
    """Makes an outer graph's tensor usable in sub-graph ``graph`` via a placeholder."""
    owner = t._output.node.graph
    chain = []
    g = graph
    while g is not None and g is not owner:
        chain.append(g)
        g = g.outer
    if g is None:
        raise leaked(t, graph)
    output = t._output
    for inner in reversed(chain):  # outermost sub-graph first
        existing = inner.captures.get(output)
        if existing is None:
            existing = inner.add_node(
                "Placeholder", attrs={"dtype": output.dtype, "shape": output.shape},
                name=output.node.name.replace("/", "_").lower(), origin=None).output(0)
            inner.captures[output] = existing
        output = existing
    return output


def constant(value, dtype=None, shape=None, name: str = "Const") -> Tensor:
    """``tf.constant``: a tensor holding ``value`` (int→int32, float→float32)."""
    if value.__class__ not in _SCALARS:  # (``x * 2.0`` converts a Python number per call)
        if isinstance(value, Tensor):
            value = value.numpy() if isinstance(value, EagerTensor) else value
            if isinstance(value, SymbolicTensor):
                raise TypeError("tf.constant needs a concrete value, got a symbolic tensor; "
                                "use tf.identity instead")
        if isinstance(value, (list, tuple)) and shape is None and contains_tensor(value):
            return stack_nested(value, dtype=dtype)  # tf.constant([x, 1]) packs them
    if dtype is not None:
        dt = as_dtype(dtype)
    else:
        dt = infer_dtype(value)
        if dt is dtypes.float32 and not isinstance(value, (np.ndarray, np.generic)):
            _check_float32_range(value)
    _check_convertible(value, dt)
    return _constant(value, dt, shape, name)


_FLOAT32_MAX = float(np.finfo(np.float32).max)


def _check_float32_range(value) -> None:
    """TensorFlow refuses a finite Python float beyond float32's range when it infers float32
    (a given dtype makes it inf instead)."""
    if value.__class__ is float:
        if not abs(value) > _FLOAT32_MAX or value in (np.inf, -np.inf):
            return
    else:
        floats = np.asarray(value, dtype=np.float64) if isinstance(value, (list, tuple)) \
            else None
        if floats is None or not (np.isfinite(floats) & (np.abs(floats) > _FLOAT32_MAX)).any():
            return
    raise TensorConversionError(
        "Can't convert Python sequence with a value out of range for a double-precision float.")


def _constant(value, dt: DType, shape, name: str) -> Tensor:
    """``constant`` of a value already checked to convert to ``dt``."""
    arr = as_array(value, dt)
    if shape is not None:
        shape = tuple(shape)
        if arr.size == 1 and arr.shape != shape:
            arr = np.full(shape, arr.reshape(()), dtype=arr.dtype)
        elif arr.shape != shape:
            if arr.size != int(np.prod(shape)):  # TensorFlow's TypeError, not numpy's ValueError
                raise TypeError(
                    f"Expected Tensor's shape: {shape}, but got {arr.shape}."
                    if context.current_graph() is not None else
                    f"Eager execution of tf.constant with unsupported shape. Tensor {arr} "
                    f"(converted from {value}) has {arr.size} elements, but got `shape` "
                    f"{shape} with {int(np.prod(shape))} elements).")
            arr = arr.reshape(shape)
    graph = context.current_graph()
    if graph is None:
        return EagerTensor(arr[()] if arr.ndim == 0 and dt is not dtypes.string else arr, dt)
    node = graph.add_node("Const", attrs={"dtype": dt, "value": arr}, name=name,
                          origin=current_origin())
    return SymbolicTensor(node.output(0))


def _check_convertible(value, dtype: DType) -> None:
    """Refuses lossy conversions TensorFlow refuses (1.5 to int32, 'a' to float)."""
    if isinstance(value, (np.ndarray, np.generic)):
        return
    rule = _RULES.get(dtype.name) or _rule(dtype)
    if value.__class__ in _SCALARS:
        _check_leaf(value, value, dtype, rule)
        return
    for leaf in _leaves(value):
        _check_leaf(leaf, value, dtype, rule)


def _rule(dtype: DType) -> tuple:
    """What the leaf checks ask of ``dtype``: (is string, is complex, is integer, is bool,
    integer range or None), made once per dtype (``np.iinfo`` costs a microsecond)."""
    integer = dtype.is_integer
    limits = None
    if integer:
        info = np.iinfo(dtype.numpy_dtype)
        limits = (int(info.min), int(info.max))
    rule = _RULES[dtype.name] = (dtype.is_string, dtype.is_complex, integer, dtype.is_bool,
                                 limits)
    return rule


_RULES: dict = {}


def _check_leaf(leaf, value, dtype: DType, rule: tuple) -> None:
    """Raises TypeError when ``leaf`` (of ``value``) does not convert to ``dtype`` exactly."""
    string, complex_, integer, boolean, limits = rule
    c = leaf.__class__
    if c is int:  # the common leaves first: plain Python numbers
        ok, whole = not (string or boolean), True
    elif c is float:
        ok, whole = not (string or integer or boolean), False  # (even 2.0 for an integer)
    elif c is bool:
        ok, whole = not string, False
    elif isinstance(leaf, Tensor):
        return
    else:
        if not isinstance(leaf, _LEAF_TYPES) and not hasattr(leaf, "_as_tensor"):
            raise unsupported_value(leaf)
        whole = isinstance(leaf, int) and not isinstance(leaf, bool)
        ok = isinstance(leaf, (str, bytes)) == string \
            and (complex_ or not isinstance(leaf, complex)) \
            and not ((integer or boolean) and isinstance(leaf, float)) \
            and not (boolean and whole)
    if not ok:
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype {dtype.name}")
    if whole and integer and not limits[0] <= leaf <= limits[1]:
        # As TensorFlow: an int that fits int64 wraps around to a narrower integer dtype
        # (tf.constant(300, tf.int8) is 44); beyond int64 (or uint64's range) it is an error.
        if leaf < 0 and limits[1] == _UINT64_MAX:
            raise TypeError(f"Cannot convert {leaf!r} to EagerTensor of dtype {dtype.name}: "
                            "out of range")
        if limits[1] >= _INT64_MAX or not _INT64_MIN <= leaf <= _INT64_MAX:
            raise TensorConversionError(
                "Can't convert Python sequence with out-of-range integer to Tensor.")


_INT64_MIN, _INT64_MAX, _UINT64_MAX = -(1 << 63), (1 << 63) - 1, (1 << 64) - 1


_SCALARS = frozenset({bool, int, float})
# what tensors are made of (a TensorShape converts as the list of its dimensions)
_LEAF_TYPES = (int, float, complex, str, bytes, np.generic, np.ndarray, TensorShape)


def _leaves(value):
    if isinstance(value, (list, tuple)):
        for v in value:
            if v.__class__ in _SCALARS:
                yield v
            else:
                yield from _leaves(v)
    else:
        yield value


def _plain(value) -> bool:
    """True for a list or tuple of Python numbers (nested or not): no tensor, no string."""
    for v in value:
        if v.__class__ not in _SCALARS and (v.__class__ not in (list, tuple) or not _plain(v)):
            return False
    return True


def convert_to_tensor(value, dtype=None, name: str | None = None, dtype_hint=None) -> Tensor:
    """Turns a Python value, numpy value, Variable or Tensor into a Tensor.

    ``dtype`` is a requirement (a Tensor of another dtype is an error);
    ``dtype_hint`` only guides the conversion of Python values.
    """
    if value.__class__ in _SCALARS and dtype_hint is None:  # a Python number: no Tensor-likes
        return constant(value, dtype=dtype, name=name or "Const")
    if isinstance(value, Tensor):
        if dtype is not None and value.dtype != as_dtype(dtype):
            raise ValueError(f"Tensor conversion requested dtype {as_dtype(dtype).name} for "
                             f"Tensor with dtype {value.dtype.name}: {value!r}")
        return value
    convert = getattr(value, "_as_tensor", None)  # Variables and other tensor-likes
    if convert is not None:
        result = convert()
        return convert_to_tensor(result, dtype=dtype, name=name)
    if getattr(value, "_type_spec", None) is not None and hasattr(value, "_components"):
        # a composite tensor (RaggedTensor, SparseTensor, ExtensionType) an API without a
        # dispatch target for it was given: TensorFlow's ValueError
        raise ValueError(f"Attempt to convert a value ({value!r}) with an unsupported type "
                         f"({type(value)}) to a Tensor.")
    plain = value.__class__ in (list, tuple) and _plain(value)  # ([32, 8]: a shape, axes)
    if not plain and isinstance(value, (list, tuple)) and contains_tensor(value):
        # TensorFlow's auto-packing: a required dtype casts the tensors in the list to
        # it, a hinted one too when the packing succeeds; without either they must agree
        if dtype is None and dtype_hint is not None:
            try:
                return stack_nested(value, dtype=dtype_hint)
            except (TypeError, ValueError):
                pass
        return stack_nested(value, dtype=dtype)
    if dtype is None and dtype_hint is not None:
        try:
            hint = as_dtype(dtype_hint)
            _check_convertible(value, hint)
            if plain or not (hint.is_numeric and infer_dtype(value).is_string):
                return _constant(value, hint, None, name or "Const")
        except TypeError:
            pass
    return constant(value, dtype=dtype, name=name or "Const")


def is_tensor_like(value) -> bool:
    """A Tensor, or a value that converts itself (``_as_tensor``: Variables)."""
    return isinstance(value, Tensor) or hasattr(value, "_as_tensor")


def stack_nested(value, dtype=None) -> Tensor:
    """Packs a nested list holding tensors into one tensor (``tf.constant([x, 1])``).

    As TensorFlow's auto-packing: without ``dtype``, Python values take the
    dtype of the first tensor found (depth first) and a tensor of another
    dtype is an error; a ``dtype`` other than that first tensor's casts every
    tensor in the list to it (``tf.concat([v_int32, [i_int64]], 0)`` packs
    ``[i]`` as int32).
    """
    inferred = _first_dtype(value)
    if dtype is None:
        return _pack_nested(value, inferred, cast=False)
    dtype = as_dtype(dtype)
    return _pack_nested(value, dtype, cast=inferred is not None and inferred != dtype)


def _first_dtype(value) -> DType | None:
    if isinstance(value, (list, tuple)):
        for v in value:
            found = _first_dtype(v)
            if found is not None:
                return found
        return None
    return convert_to_tensor(value).dtype if is_tensor_like(value) else None


def contains_tensor(value) -> bool:
    """True when ``value`` is a tensor-like or a (nested) list or tuple holding one."""
    if isinstance(value, (list, tuple)):
        for v in value:
            if v.__class__ not in _SCALARS and contains_tensor(v):
                return True
        return False
    return is_tensor_like(value)


def _pack_nested(value, dtype: DType | None, cast: bool) -> Tensor:
    if isinstance(value, (list, tuple)) and contains_tensor(value):
        elements = [_pack_nested(v, dtype, cast) for v in value]
        return apply_op("Pack", elements, attrs={"axis": 0}, name="packed")
    if is_tensor_like(value):
        t = convert_to_tensor(value)
        if dtype is not None and t.dtype != dtype:
            if cast:
                return apply_op("Cast", [t], {"SrcT": t.dtype, "DstT": dtype, "Truncate": False},
                                name="Cast")
            raise TypeError(f"Cannot convert a list containing a tensor of dtype {t.dtype.name} "
                            f"to {dtype.name} (Tensor is: {t!r})")
        return t
    return convert_to_tensor(value, dtype=dtype)


def binary_operands(x, y, op_name: str):
    """Converts the operands of a binary op; a Python number takes the tensor's dtype."""
    if isinstance(x, Tensor) and not isinstance(y, Tensor):
        y = convert_to_tensor(y, dtype_hint=x.dtype, name=_const_name(op_name, "y"))
    elif isinstance(y, Tensor) and not isinstance(x, Tensor):
        x = convert_to_tensor(x, dtype_hint=y.dtype, name=_const_name(op_name, "x"))
    else:
        x = convert_to_tensor(x, name=_const_name(op_name, "x"))
        y = convert_to_tensor(y, dtype_hint=x.dtype, name=_const_name(op_name, "y"))
    return x, y


def _const_name(op_name: str, arg: str) -> str:
    """``Greater/y``: how TensorFlow names a constant made for an op's argument."""
    graph = context.current_graph()
    if graph is None:
        return "Const"
    full = graph.unique_name(op_name, mark_used=False)
    return full[len(graph.scope_prefix):] + "/" + arg


def tensor_type(t: Tensor) -> TensorType:
    return TensorType(t.dtype, t.shape)
