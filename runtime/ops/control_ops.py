"""Control-flow helpers of TensorFlow's top level: ``control_dependencies``, ``group``,
``tuple``, ``no_op``, ``case``, ``switch_case``, and the questions a program asks about
where it runs (``inside_function``, ``is_tensor``, ``get_static_value``...).

``control_dependencies`` needs no hook in ``apply_op``: a graph keeps its nodes in
creation order, so on leaving the block every node the block added to the graph
(except those made under ``control_dependencies(None)``) gets the given ops as
control inputs, as TensorFlow gives them to ops created in the block. Eagerly ops
run in program order already and the block is a plain context (callables given
to it are called, as TensorFlow does).
"""
from __future__ import annotations

import logging
import sys
import threading

import numpy as np

from graph import dtypes
from runtime import context, nest
from runtime.composite import CompositeTensor
from runtime.gradients.registry import NotDifferentiable
from runtime.ops import array_ops, math_ops
from runtime.ops.control_flow import cond
from runtime.ops.core import apply_op, convert_to_tensor, is_tensor_like
from runtime.name_scope import current_eager_scope
from runtime.ops.logging_ops import Assert
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor

__all__ = ["Operation", "case", "control_dependencies", "get_current_name_scope",
           "get_logger", "get_static_value", "group", "inside_function", "is_symbolic_tensor",
           "is_tensor", "no_op", "switch_case", "timestamp", "tuple"]

_tuple = tuple  # (the builtin, shadowed below by tf.tuple)


class Operation:
    """A graph node seen as TensorFlow's ``tf.Operation`` (what ``no_op`` and ``group``
    return in a graph): its name, type and control inputs, usable as a control
    dependency."""

    def __init__(self, node):
        self._node = node

    name = property(lambda self: self._node.name)
    type = property(lambda self: self._node.op)
    graph = property(lambda self: self._node.graph)
    control_inputs = property(lambda self: [Operation(n) for n in self._node.control_inputs])
    outputs = property(lambda self: [SymbolicTensor(o) for o in self._node.outputs])

    def __eq__(self, other):
        return isinstance(other, Operation) and other._node is self._node

    def __hash__(self):
        return id(self._node)

    def __repr__(self) -> str:
        return f"<tf.Operation '{self.name}' type={self.type}>"


# -- control dependencies --------------------------------------------------------------------

class _Frames(threading.local):
    def __init__(self):
        self.stack = []  # open control_dependencies blocks, innermost last


_frames = _Frames()


def _control_node(value, graph):
    """The node that ``value`` (a tensor, Operation or tensor-like) stands for in ``graph``."""
    if isinstance(value, Operation):
        node = value._node
    elif isinstance(value, SymbolicTensor):
        node = value._output.node
    elif is_tensor_like(value) and not isinstance(value, EagerTensor):
        t = convert_to_tensor(value)  # a Variable: the read of its value
        node = t._output.node if isinstance(t, SymbolicTensor) else None
    elif value is None or isinstance(value, EagerTensor):
        node = None  # (an eager value, or an op without outputs such as a graph Assert)
    else:
        raise TypeError(f"Control input must be an Operation or a Tensor, got "
                        f"{type(value).__name__}: {value!r}")
    return node if node is not None and node.graph is graph else None


class _Frame:
    def __init__(self, graph, deps):
        self.graph, self.deps = graph, deps
        self.start = len(graph.nodes)
        self.excluded = set()  # ids of nodes made under an inner control_dependencies(None)


class control_dependencies:  # noqa: N801  (TensorFlow's name)
    """``tf.control_dependencies(control_inputs)``: ops created in the block run after
    ``control_inputs``. ``None`` clears the dependencies of enclosing blocks."""

    def __init__(self, control_inputs):
        self._inputs = control_inputs
        self._frame = None

    def __enter__(self):
        graph = context.current_graph()
        if graph is None:
            for c in self._inputs or ():
                if callable(c) and not is_tensor_like(c):
                    c()
            return None
        deps = None
        if self._inputs is not None:
            deps = []
            for c in self._inputs:
                node = _control_node(c, graph)
                if node is not None and all(node is not d for d in deps):
                    deps.append(node)
        self._frame = _Frame(graph, deps)
        _frames.stack.append(self._frame)
        return None

    def __exit__(self, *exc) -> bool:
        frame = self._frame
        if frame is None:
            return False
        _frames.stack.remove(frame)
        made = frame.graph.nodes[frame.start:]
        if frame.deps is None:
            for outer in _frames.stack:
                if outer.graph is frame.graph:
                    outer.excluded.update(id(n) for n in made)
            return False
        for node in made:
            if id(node) in frame.excluded or node.op == "Placeholder":
                continue
            sources = {id(i.node) for i in node.inputs} | {id(c) for c in node.control_inputs}
            node.control_inputs.extend(d for d in frame.deps
                                       if id(d) not in sources and d is not node)
        return False


# -- grouping ----------------------------------------------------------------------------------

def no_op(name=None):
    """``tf.no_op``: does nothing; a graph's NoOp (an anchor for control edges)."""
    graph = context.current_graph()
    if graph is None:
        return None
    node = graph.add_node("NoOp", name=name or "NoOp", origin=current_origin())
    return Operation(node)


def group(*inputs, name=None):
    """``tf.group``: one op that runs after all ``inputs`` (tensors or ops, nested);
    None eagerly."""
    if context.current_graph() is None:
        return None
    with control_dependencies(nest.flatten(list(inputs))):
        return no_op(name=name or "group_deps")


def tuple(tensors, control_inputs=None, name=None):  # noqa: A001  (TensorFlow's name)
    """``tf.tuple``: the tensors, each available only once all of them (and
    ``control_inputs``) are computed; eagerly the list as given."""
    if context.current_graph() is None:
        return list(tensors)
    gate = [t for t in tensors if t is not None] + list(control_inputs or ())
    with control_dependencies(gate):
        return [None if t is None else array_ops.identity(t, name="control_dependency")
                for t in tensors]


# -- multi-way branches -------------------------------------------------------------------------

def case(pred_fn_pairs, default=None, exclusive: bool = False, strict: bool = False,
         name: str = "case"):
    """``tf.case``: the result of the first ``fn`` whose predicate holds, else ``default()``.

    Without ``default`` the last pair's ``fn`` is the default, and it checks that
    some predicate holds; ``exclusive`` checks that at most one does.
    """
    if isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = list(pred_fn_pairs.items())
    if not isinstance(pred_fn_pairs, (list, _tuple)):
        raise TypeError(f"pred_fn_pairs must be a list, tuple, or dict. Received: "
                        f"{pred_fn_pairs!r}")
    preds, fns = [], []
    for pair in pred_fn_pairs:
        if not isinstance(pair, _tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in pred_fn_pairs must be a 2-tuple. Received {pair!r}.")
        pred, fn = pair
        pred = convert_to_tensor(pred)
        if pred.dtype != dtypes.bool_:
            raise TypeError(f"pred must be Tensor of type bool: {pred.dtype.name}")
        if not callable(fn):
            raise TypeError(f"fn for pred {pred!r} must be callable.")
        preds.append(pred)
        fns.append(fn)
    if default is not None and not callable(default):
        raise TypeError("default must be callable.")
    if not preds:
        if default is None:
            raise ValueError("pred_fn_pairs must not be empty when no default is given")
        return default()
    all_preds = array_ops.stack(preds)
    if exclusive:
        count = math_ops.reduce_sum(math_ops.cast(all_preds, dtypes.int32))
        Assert(math_ops.less_equal(count, 1),
               [f"Input error: exclusive=True: more than 1 conditions "
                f"({', '.join('?' for _ in preds)}) evaluated as True:", all_preds])
    if default is None:
        last_fn, preds, fns = fns[-1], preds[:-1], fns[:-1]

        def default():
            Assert(math_ops.reduce_any(all_preds),
                   ["Input error: None of conditions evaluated as True:", all_preds])
            return last_fn()

    def chain(i):
        if i == len(preds):
            return default()
        return cond(preds[i], fns[i], lambda: chain(i + 1), name=name)
    return chain(0)


def switch_case(branch_index, branch_fns, default=None, name: str = "switch_case"):
    """``tf.switch_case``: ``branch_fns[branch_index]()``; an index out of range runs
    ``default`` (the last branch when None)."""
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if not branch_index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {branch_index.dtype!r}")
    fns = _branch_list(branch_fns)
    if default is None:
        default = fns[-1]
    elif not callable(default):
        raise TypeError("default must be callable.")
    if isinstance(branch_index, EagerTensor):
        i = int(np.asarray(branch_index.numpy()).reshape(()))
        return (fns[i] if 0 <= i < len(fns) else default)()

    def chain(i):
        if i == len(fns):
            return default()
        if i == len(fns) - 1 and default is fns[-1]:
            return fns[i]()
        return cond(math_ops.equal(branch_index, i), fns[i], lambda: chain(i + 1), name=name)
    return chain(0)


def _branch_list(branch_fns) -> list:
    """The branches as a list: given as a list of callables, a dict or (key, fn) pairs
    with keys 0..n-1."""
    if isinstance(branch_fns, dict):
        pairs = list(branch_fns.items())
    elif isinstance(branch_fns, (list, _tuple)) and branch_fns and all(
            isinstance(p, _tuple) and len(p) == 2 and isinstance(p[0], int)
            for p in branch_fns):
        pairs = list(branch_fns)
    elif isinstance(branch_fns, (list, _tuple)):
        pairs = list(enumerate(branch_fns))
    else:
        raise TypeError("branch_fns must be a list, tuple, or dict")
    if not pairs:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    keys = sorted(k for k, _ in pairs)
    if keys != list(range(len(pairs))):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to "
                         f"{len(pairs)}) but found {{{','.join(map(str, keys))}}}")
    for _, fn in pairs:
        if not callable(fn):
            raise TypeError(f"fn for branch must be callable, got {fn!r}")
    return [fn for _, fn in sorted(pairs, key=lambda p: p[0])]


# -- where the program runs ------------------------------------------------------------------

def inside_function() -> bool:
    """``tf.inside_function``: True while a graph is being built (tracing a tf.function)."""
    return context.current_graph() is not None


def is_tensor(x) -> bool:
    """``tf.is_tensor``: a Tensor, Variable or composite tensor (RaggedTensor, SparseTensor)."""
    return is_tensor_like(x) or isinstance(x, CompositeTensor)


def is_symbolic_tensor(tensor) -> bool:
    """``tf.is_symbolic_tensor``: a graph tensor (no value until the graph runs)."""
    return isinstance(tensor, SymbolicTensor)


def get_static_value(tensor, partial: bool = False):
    """``tf.get_static_value``: the numpy value of ``tensor`` when known now, else None;
    a value that is not a tensor is returned as it is."""
    if isinstance(tensor, EagerTensor):
        return tensor.numpy()
    if isinstance(tensor, SymbolicTensor):
        value = tensor.value
        return None if value is None else np.asarray(value)
    if is_tensor_like(tensor):
        return get_static_value(convert_to_tensor(tensor), partial)
    return tensor


def get_current_name_scope() -> str:
    """``tf.get_current_name_scope``: the open name scope, without a trailing '/'."""
    graph = context.current_graph()
    prefix = current_eager_scope() if graph is None else graph.scope_prefix
    return prefix.rstrip("/")


class _StderrHandler(logging.StreamHandler):
    """Writes to whatever ``sys.stderr`` is when a record comes (as Python's last-resort
    handler does), so a redirected or captured stderr receives TensorFlow's warnings."""

    def __init__(self):
        logging.Handler.__init__(self)

    @property
    def stream(self):
        return sys.stderr


def get_logger() -> logging.Logger:
    """``tf.get_logger``: the ``tensorflow`` logger, level WARNING unless set, printing
    ``WARNING:tensorflow:message`` to stderr when logging is not configured otherwise
    (TensorFlow's setup, made when the logger is first used, as TensorFlow's warnings do)."""
    logger = logging.getLogger("tensorflow")
    if logger.level == logging.NOTSET:
        logger.setLevel(logging.WARNING)
    if not logger.handlers and not logging.getLogger().handlers:
        handler = _StderrHandler()
        handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT))
        logger.addHandler(handler)
    return logger


def timestamp(name=None) -> Tensor:
    """``tf.timestamp``: seconds since the epoch as float64, read when the op runs."""
    return apply_op("Timestamp", [], name=name or "Timestamp")


NotDifferentiable("Timestamp")
