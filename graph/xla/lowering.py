"""The lowering table (op name -> lowering function) and the walk that lowers one graph.

A lowering is ``fn(ctx, node, *inputs) -> value | tuple`` called while JAX
traces: ``inputs`` are JAX values, numpy arrays (values known when the graph
is compiled: constants, static shapes) or ``ListBuffer``s (tensor_list.py). One family
module per op family registers its lowerings with ``@lowering("Op", ...)``.

Values known at compile time stay numpy: a pure op whose inputs are all
known runs its own numpy kernel instead of its lowering, so shapes, sizes
and axes computed in the graph (``Shape`` -> ``Reshape``) are compile-time
constants, as XLA requires. Every result is cast to the dtype inference
gave the node, so the compiled program has the numpy backend's dtypes.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from graph.errors import InvalidArgumentError
from graph.executor import schedule
from graph.ir import Graph, Node, Output
from graph.registry import call_quietly, get_op

LOWERINGS: dict[str, Callable] = {}

# Graph inputs, constants and no-ops: handled by the walk itself.
_STRUCTURAL = frozenset({"Placeholder", "Const", "NoOp"})


# Ops XLA cannot compile by design: op name -> why, and (name predicate, why) for whole
# families (unsupported.py fills them with ``cannot_compile``); any other op without a
# lowering is reported as having none.
REASONS: dict[str, str] = {}
_FAMILY_REASONS: list[tuple[Callable[[str], bool], str]] = []


def cannot_compile(reason: str, *names: str, family: Callable[[str], bool] | None = None):
    """Records that the ops ``names``, and every op whose name ``family`` accepts (also ops
    registered later), cannot be compiled by XLA, and why."""
    for name in names:
        REASONS[name] = reason
    if family is not None:
        _FAMILY_REASONS.append((family, reason))


def reason_of(op: str) -> str | None:
    """Why ``op`` cannot be compiled, or None when nothing says it cannot."""
    if op in REASONS:
        return REASONS[op]
    return next((why for matches, why in _FAMILY_REASONS if matches(op)), None)


# Ops lowered even when their inputs are all known at compile time: their numpy kernels give
# other values than TensorFlow's XLA kernels (the stateless random ops).
UNFOLDED: set[str] = set()


def lowering(*names: str, fold: bool = True):
    """Registers the decorated function as the lowering of each op in ``names``; ``fold``
    False: never run their numpy kernels on compile-time values instead."""
    def register(fn):
        for name in names:
            if name in LOWERINGS:
                raise ValueError(f"Op {name!r} already has an XLA lowering")
            LOWERINGS[name] = fn
            if not fold:
                UNFOLDED.add(name)
        return fn
    return register


class Unsupported(Exception):
    """Raised while lowering: ``node`` cannot be compiled (``reason`` says why).

    The plan reports it as TensorFlow's "Detected unsupported operations"
    InvalidArgumentError before anything runs. ``constant``: the node needs an input
    computed at run time as a compile-time constant (a size, a shape, a slice's bounds);
    the plan then compiles the program for the values of the graph inputs it comes from,
    as TensorFlow's XLA does with its compile-time-constant arguments. ``sources``: the
    nodes that value is computed by (default: the node itself, all of its inputs).
    """

    def __init__(self, node: Node, reason: str, constant: bool = False,
                 sources: list[Node] | None = None):
        super().__init__(reason)
        self.node = node
        self.reason = reason
        self.constant = constant
        self.sources = [node] if sources is None else sources


class Context:
    """What lowerings share during one trace: the plan and the state threaded through it.

    ``state`` holds the variables' current values (``"vars"``: resource id ->
    value) and the random key (``"key"``, None without random ops). It is a
    pytree: control-flow lowerings pass it into their bodies and take it back.
    ``bounds`` (shared by every context of one program) holds compile-time upper
    bounds of run-time values (id -> (value, bound)): a loop's iteration count.
    """

    def __init__(self, plan, variables: dict, key=None, bounds: dict | None = None):
        self.plan = plan
        self.state = {"vars": variables, "key": key}
        self.bounds = {} if bounds is None else bounds

    def inner(self, state) -> "Context":
        """A context for a body run with ``state``, sharing the program's bounds."""
        return Context(self.plan, state["vars"], state["key"], self.bounds)

    def bound_of(self, value):
        """The compile-time upper bound of ``value``, or None. A bound may be recorded as a
        function computing it (a loop's trip count, found only when something asks)."""
        if is_static(value):
            return value
        found = self.bounds.get(id(value))
        if found is None or found[0] is not value:
            return None
        if callable(found[1]):
            self.bounds[id(value)] = found = (value, found[1]())
        return found[1]

    def next_key(self):
        """A fresh key for one random op; the threaded key moves on."""
        import jax
        key, sub = jax.random.split(self.state["key"])
        self.state = {**self.state, "key": key}
        return sub


def half_in_float32(fn):
    """``fn`` computed in float32 for float16 arguments, its float results rounded back: what
    TensorFlow's XLA CPU backend does with a float16 op where JAX's own float16 lowering is
    not correctly rounded (division by a broadcast value) or its series need the range."""
    import jax.numpy as jnp

    def run(*xs):
        if not any(getattr(x, "dtype", None) == jnp.float16 for x in xs):
            return fn(*xs)
        out = fn(*(x.astype(jnp.float32) if getattr(x, "dtype", None) == jnp.float16 else x
                   for x in xs))
        back = lambda r: r.astype(jnp.float16) if r.dtype == jnp.float32 else r  # noqa: E731
        return tuple(map(back, out)) if isinstance(out, tuple) else back(out)
    return run


def is_static(value) -> bool:
    """Whether ``value`` is known at compile time (a numpy value, not a JAX tracer)."""
    return isinstance(value, (np.ndarray, np.generic))


def static_value(value, node: Node, what: str):
    """``value`` as numpy; ``Unsupported`` when it is only known at run time."""
    if is_static(value):
        return np.asarray(value)
    raise Unsupported(node, f"{what} must be a compile-time constant, but it is computed at "
                            "run time", constant=True)


def _conform(value, expected):
    """``value`` with the numpy dtype inference gave the node (jnp promotes differently)."""
    dtype = expected.dtype.numpy_dtype
    if dtype == np.dtype(object) or not hasattr(value, "dtype") or value.dtype == dtype:
        return value
    return value.astype(dtype)


def _fold(node: Node, values: list):
    """Runs a pure node on compile-time values with its numpy kernel, or None."""
    opdef = get_op(node.op)
    if opdef.stateful or opdef.function_attrs or node.op in UNFOLDED or \
            any(t.dtype.name == "variant" for t in node.outputs):
        return None
    try:
        result = call_quietly(opdef.make_kernel(node, None), values, {})
    except Exception:  # the lowering decides (XLA does not raise where numpy kernels check)
        return None
    results = (result,) if len(node.outputs) == 1 else tuple(result)
    return tuple(np.asarray(r, dtype=t.dtype.numpy_dtype) for r, t in zip(results, node.outputs))


def lower_graph(ctx: Context, graph: Graph, inputs: list, fetches: list[Output] | None = None):
    """Evaluates ``graph`` on JAX values (tracing it); returns the fetched values as a list."""
    fetches = list(graph.outputs if fetches is None else fetches)
    env: dict[tuple, object] = {(id(i.node), i.index): v for i, v in zip(graph.inputs, inputs)}
    for node in schedule(graph, fetches):
        op = node.op
        if op == "Placeholder" or op == "NoOp":
            continue
        if op == "Const":
            env[id(node), 0] = node.attrs["value"]
            continue
        args = [env[id(i.node), i.index] for i in node.inputs]
        results = _fold(node, args) if args and all(map(is_static, args)) else None
        if results is None:
            try:
                result = LOWERINGS[op](ctx, node, *args)
            except Unsupported:
                raise
            except InvalidArgumentError as e:  # an error TensorFlow's XLA compiler gives too
                e.op = node
                raise
            except Exception as e:  # JAX refused what the lowering built: name the node
                raise Unsupported(node, f"XLA cannot compile it here ({type(e).__name__}: "
                                        f"{e})") from e
            results = (result,) if len(node.outputs) == 1 else tuple(result)
            results = [_conform(r, t) for r, t in zip(results, node.outputs)]
        for j, r in enumerate(results):
            env[id(node), j] = r
    return [env[id(f.node), f.index] for f in fetches]


# -- what cannot be compiled ----------------------------------------------------------

def _unsupported_reason(node: Node) -> str | None:
    if node.op == "Assert" or (node.op == "Const" and node.outputs[0].dtype.is_string):
        return None  # dropped by XLA / only read by what is dropped or reported itself
    for t in list(node.outputs) + [i.type for i in node.inputs]:
        if t.dtype.is_string:
            return "string tensors cannot be compiled by XLA"
    if node.op in _STRUCTURAL:
        return None
    if node.op not in LOWERINGS:
        return reason_of(node.op) or "no XLA lowering is registered for this op"
    return None


def unsupported_nodes(graph: Graph, fetches: list[Output] | None = None) -> list[tuple[Node, str]]:
    """Every scheduled node (bodies included) that XLA cannot compile, with why."""
    found = []
    fetches = list(graph.outputs if fetches is None else fetches)
    for node in schedule(graph, fetches):
        reason = _unsupported_reason(node)
        if reason is not None:
            found.append((node, reason))
        for attr in get_op(node.op).function_attrs:
            found.extend(unsupported_nodes(node.attrs[attr]))
    return found


def unsupported_error(graph_name: str, found: list[tuple[Node, str]]) -> InvalidArgumentError:
    """TensorFlow's message for a graph with ops XLA cannot compile."""
    ops = ", ".join(f"{n.op} ({why}){{{{node {n.name}}}}}" for n, why in found)
    lines = [f"Detected unsupported operations when trying to compile graph {graph_name} on "
             f"XLA_CPU_JIT: {ops}"]
    origins = [n.origin for n, _ in found if n.origin is not None]
    if origins:
        lines.append("The op is created at: ")
    for origin in dict.fromkeys(origins):
        lines.append(f'File "{origin.file}", line {origin.line}, '
                     f"in {origin.function or '<module>'}")
    err = InvalidArgumentError(message="\n".join(lines))
    err.op = found[0][0]
    return err
