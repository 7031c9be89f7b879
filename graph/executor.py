"""Compiles a graph once into a plan and runs that plan many times.

Two interchangeable back ends share one schedule:

* ``codegen`` (default) writes the schedule as one Python function that calls
  each node's kernel directly (the torch.fx approach): no dispatch loop at run
  time. If and While bodies are written inline as nested ``if``/``while``
  blocks of the same function, so a loop iteration costs its kernels and a
  few local-variable moves, nothing more. Values live in local "slots" that
  are reused as soon as their value is dead, so every intermediate is freed
  after its last use, exactly as hand-written ``x = np.tanh(x)`` frees the
  old ``x``. Large elementwise intermediates are written into a dead buffer of
  the same shape and dtype (``out=``) when no other value can see it.
* ``interpret`` walks the schedule node by node and checks every value
  against its inferred type. It is the reference the compiled path is tested
  against.

The schedule is non-strict: it keeps only the nodes that the fetched outputs
or a stateful op need, in creation order, so stateful ops keep program order
and an unused failing op never runs.

Arithmetic and comparison ufuncs are written as Python operators
(``a + b``), which numpy dispatches to the same ufunc for arrays but runs
about twenty times faster on the numpy scalars a staged loop counter holds.
numpy's floating-point and scalar-overflow warnings (division by zero,
``log(0)``, int32 wrap-around of a loop counter) are silenced for the whole
plan run, as TensorFlow's kernels are silent: the values (inf, nan, the
wrapped integer) are the same either way. Silencing costs one context-variable
set and reset per plan call (~0.4 µs with numpy 2), independent of the graph.
"""
from __future__ import annotations

import itertools
from typing import Callable, Sequence

import numpy as np

from graph.errors import GraphError, InvalidArgumentError, OpError
from graph.ir import Graph, Node, Output
from graph.ops.tensor_array import append_kernel
from graph.registry import get_op, silenced

_plan_ids = itertools.count()

_IF_OPS = frozenset({"If", "StatelessIf"})
_WHILE_OPS = frozenset({"While", "StatelessWhile"})
# CPython refuses more than 20 statically nested loop blocks and 100 indentation
# levels; deeper control flow falls back to calling separately compiled sub-plans.
_MAX_INLINE_LOOPS = 12
_MAX_INLINE_INDENT = 48
# Below this many elements a fresh allocation is as cheap as reusing a buffer.
_REUSE_MIN_ELEMENTS = 8192
_LINE_MAP = "__graph_line_nodes__"  # the generated module's line -> Node table

_BINARY_OPERATORS = {
    np.add: "+", np.subtract: "-", np.multiply: "*",
    np.less: "<", np.less_equal: "<=", np.greater: ">", np.greater_equal: ">=",
    np.equal: "==", np.not_equal: "!=", np.remainder: "%", np.floor_divide: "//",
}
_UNARY_OPERATORS = {np.negative: "-"}
_REDUCE_UFUNCS = {"Sum": np.add, "Prod": np.multiply}  # (both have an identity: empty is fine)


def schedule(graph: Graph, fetches: Sequence[Output]) -> list[Node]:
    """The nodes needed for ``fetches`` and for every stateful op, in creation order."""
    needed: set[int] = set()
    stack = [o.node for o in fetches]
    stack += [n for n in graph.nodes if get_op(n.op).stateful]
    while stack:
        node = stack.pop()
        if id(node) in needed:
            continue
        needed.add(id(node))
        stack.extend(i.node for i in node.inputs)
        stack.extend(node.control_inputs)
    return [n for n in graph.nodes if id(n) in needed]


class Plan:
    """A compiled graph: call it with one value per graph input."""

    def __init__(self, graph: Graph, fetches: list[Output], fn: Callable,
                 source: str = "", line_nodes: dict | None = None, filename: str = ""):
        self.graph = graph
        self.fetches = fetches
        self.fn = fn  # raw callable returning a tuple; errors not mapped, warnings not silenced
        self._run = silenced(fn)
        self.source = source
        self._line_nodes = line_nodes or {}
        self._filename = filename
        self._n_inputs = len(graph.inputs)

    def __call__(self, *feeds):
        if len(feeds) != self._n_inputs:
            raise InvalidArgumentError(
                message=f"Graph {self.graph.name!r} takes {len(self.graph.inputs)} inputs, "
                        f"got {len(feeds)}")
        try:
            return self._run(*feeds)
        except GraphError as e:
            node = self._failing_node(e)
            if isinstance(e, OpError) and node is not None and not getattr(e, "_located", False):
                raise _locate(e, node) from None
            raise
        except Exception as e:  # a numpy kernel failed: report it as TensorFlow would
            node = self._failing_node(e)
            if node is None:
                raise
            err = InvalidArgumentError(message=f"{type(e).__name__}: {e}")
            raise _locate(err, node) from e

    def _failing_node(self, exc: BaseException):
        """The node whose generated line raised ``exc`` (the innermost one wins).

        Every generated module carries its own line table, so a sub-plan
        compiled separately (deeply nested control flow) is found too.
        """
        tb = exc.__traceback__
        found = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self._filename:
                found = self._line_nodes.get(tb.tb_lineno, found)
            else:
                table = tb.tb_frame.f_globals.get(_LINE_MAP)
                if table is not None:
                    found = table.get(tb.tb_lineno, found)
            tb = tb.tb_next
        return found


def _locate(err: OpError, node: Node) -> OpError:
    where = f" (op {node.name!r} of type {node.op}"
    where += f", defined at {node.origin})" if node.origin else ")"
    err.message = f"{err.message}{where}"
    err.args = (err.message,)
    err.op = node
    err._located = True
    return err


def compile_graph(graph: Graph, fetches: Sequence[Output] | None = None,
                  backend: str = "codegen") -> Plan:
    """Compiles ``graph`` into a Plan returning ``fetches`` (default: graph.outputs)."""
    fetches = list(graph.outputs if fetches is None else fetches)
    if backend == "codegen":
        return _Codegen(graph, fetches).plan()
    if backend == "interpret":
        return _interpreter_plan(graph, fetches)
    if backend == "xla":  # jit_compile=True: lowered to JAX (imported only then)
        from graph.xla import compile_xla
        return compile_xla(graph, fetches)
    raise ValueError(f"Unknown executor backend {backend!r}; use 'codegen', 'interpret' or 'xla'")


class _SubgraphCompiler:
    """Compiles library sub-graphs once per plan, with the parent's back end."""

    def __init__(self, backend: str):
        self.backend = backend
        self._cache: dict[int, Callable] = {}

    def __call__(self, graph: Graph) -> Callable:
        key = id(graph)
        if key not in self._cache:
            plan = compile_graph(graph, backend=self.backend)
            self._cache[key] = plan.fn
        return self._cache[key]


# -- code generation ------------------------------------------------------------------

def _plain_ufunc(node: Node, kernel) -> np.ufunc | None:
    """``kernel`` when it is a one-output numpy ufunc applied to numeric values."""
    if not isinstance(kernel, np.ufunc) or kernel.nout != 1 or len(node.outputs) != 1:
        return None
    for t in [i.type for i in node.inputs] + node.outputs:
        if t.dtype.is_string or t.dtype.numpy_dtype == np.dtype(object):
            return None
    return kernel


def _scalar_form(value):
    """A 0-d numeric constant as a numpy scalar, else None.

    numpy runs scalar-with-scalar arithmetic far faster on numpy scalars than
    on 0-d arrays, but array-with-constant arithmetic faster with a 0-d array,
    so generated code passes whichever form suits the node.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype != np.dtype(object):
        return value[()]
    return None


def _key(output: Output) -> tuple[int, int]:
    """A value's dict key while compiling: hashing a tuple of ints is C code, while
    ``Output`` (a dataclass) hashes and compares in Python, thousands of times a plan."""
    return id(output.node), output.index


class _Block:
    """Liveness facts about one scheduled graph compiled into one block of code.

    Values are keyed by ``_key``.
    """

    def __init__(self, graph: Graph, fetches: list[Output]):
        self.nodes = schedule(graph, fetches)
        self.canon: dict[tuple, Output] = {}  # Identity output -> the value it passes on
        for node in self.nodes:
            if node.op == "Identity" and len(node.inputs) == 1:
                self.canon[id(node), 0] = self.value(node.inputs[0])
        self.fetched = {_key(self.value(f)) for f in fetches}
        self.last: dict[tuple, int] = {}
        self.consumers: dict[tuple, list[Node]] = {}
        last, consumers, canon = self.last, self.consumers, self.canon
        for idx, node in enumerate(self.nodes):
            if node.op == "Identity" and (id(node), 0) in canon:
                continue
            for i in node.inputs:
                v = self.value(i) if i.node.op == "Identity" else i
                k = id(v.node), v.index
                last[k] = idx
                if k in consumers:
                    consumers[k].append(node)
                else:
                    consumers[k] = [node]
            for j in range(len(node.outputs)):  # unused outputs die at once
                last.setdefault((id(node), j), idx)

    def value(self, output: Output) -> Output:
        if output.node.op != "Identity":
            return output
        return self.canon.get((id(output.node), output.index), output)


class _Codegen:
    """Writes one Python function for a graph, control-flow bodies inlined."""

    def __init__(self, graph: Graph, fetches: list[Output]):
        self.graph = graph
        self.fetches = fetches
        self.line_nodes: dict[int, Node] = {}
        self.namespace: dict[str, object] = {_LINE_MAP: self.line_nodes}
        self.lines: list[str] = []
        self._ids = itertools.count()
        self._globals: dict[int, str] = {}
        self.compile_sub = _SubgraphCompiler("codegen")
        self._kernels: dict[int, tuple[Node, Callable | None]] = {}
        self._ufuncs: dict[int, np.ufunc | None] = {}  # by node id (nodes outlive the compile)
        self.scalars: dict[str, str] = {}  # name of a 0-d constant -> its scalar form

    def kernel(self, node: Node) -> Callable | None:
        """The node's kernel, built once (builds may hold per-node state such as a
        random generator); None for ops called with their attrs as keywords."""
        entry = self._kernels.get(id(node))
        if entry is None:
            opdef = get_op(node.op)
            if opdef.build is None and opdef.kernel_attrs:
                kernel = None
            else:
                kernel = opdef.make_kernel(node, self.compile_sub)
            entry = self._kernels[id(node)] = (node, kernel)
        return entry[1]

    def ufunc(self, node: Node) -> np.ufunc | None:
        key = id(node)
        if key in self._ufuncs:
            return self._ufuncs[key]
        opdef = get_op(node.op)
        if opdef.function_attrs or node.op in ("Placeholder", "Const"):
            found = None
        else:
            found = _plain_ufunc(node, self.kernel(node))
        self._ufuncs[key] = found
        return found

    # -- output helpers ---------------------------------------------------
    def emit(self, indent: int, text: str, node: Node | None = None) -> None:
        self.lines.append("    " * indent + text)
        if node is not None:
            self.line_nodes[len(self.lines)] = node

    def new_name(self, prefix: str) -> str:
        return f"{prefix}{next(self._ids)}"

    def bind(self, prefix: str, value) -> str:
        """A global name of the generated module holding ``value``."""
        key = id(value)
        if key in self._globals and self.namespace[self._globals[key]] is value:
            return self._globals[key]
        name = self.new_name(prefix)
        self.namespace[name] = value
        self._globals[key] = name
        return name

    def plan(self) -> Plan:
        graph = self.graph
        params = [f"a{i}" for i in range(len(graph.inputs))]
        self.emit(0, f"def plan({', '.join(params)}):")
        names, _ = self.block(graph, self.fetches, params, 1, 0)
        self.emit(1, f"return ({', '.join(names)}{',' if len(names) == 1 else ''})")
        source = "\n".join(self.lines) + "\n"
        filename = f"<graph {graph.name} #{next(_plan_ids)}>"
        exec(compile(source, filename, "exec"), self.namespace)
        return Plan(graph, self.fetches, self.namespace["plan"], source, self.line_nodes,
                    filename)

    # -- one graph as one block of statements ----------------------------------
    def block(self, graph: Graph, fetches: list[Output], in_names: list[str], indent: int,
              loops: int) -> tuple[list[str], set[str]]:
        """Emits ``graph``'s schedule; returns the names holding ``fetches`` and,
        among them, the slots this block owns (the caller moves and deletes them)."""
        info = _Block(graph, fetches)
        names: dict[tuple, str] = {_key(i): n for i, n in zip(graph.inputs, in_names)}
        owned: set[tuple] = set()    # values held in this block's own slots
        ufunc_made: set[tuple] = set()  # values that are fresh ufunc results
        alias, last, fetched = info.value, info.last, info.fetched
        free: list[str] = []
        start = len(self.lines)

        def slot() -> str:
            return free.pop() if free else self.new_name("v")

        for idx, node in enumerate(info.nodes):
            if node.op == "Placeholder":
                if (id(node), 0) not in names:
                    raise InvalidArgumentError(
                        message=f"Placeholder {node.name!r} is needed but is not an input of "
                                f"graph {graph.name!r}")
                continue
            if node.op == "Const":
                value = node.attrs["value"]
                name = names[id(node), 0] = self.bind("c", value)
                scalar = _scalar_form(value)
                if scalar is not None:
                    self.scalars[name] = self.bind("s", scalar)
                continue
            if node.op == "Identity" and (id(node), 0) in info.canon:
                continue  # an alias of its input: no code
            ins = [_key(alias(i)) for i in node.inputs]
            args = [names[k] for k in ins]
            if node.outputs and all(t.shape.rank == 0 for t in node.outputs):
                args = [self.scalars.get(a, a) for a in args]
            dying: list[Output] = []
            dying_keys: list[tuple] = []
            for i, k in zip(node.inputs, ins):
                if last[k] == idx and k in owned and k not in fetched and k not in dying_keys:
                    dying.append(alias(i))
                    dying_keys.append(k)
            released = [names[k] for k in dying_keys]
            outs = [(id(node), j) for j in range(len(node.outputs))]
            inline = (node.op in _IF_OPS or node.op in _WHILE_OPS) and \
                loops < _MAX_INLINE_LOOPS and indent < _MAX_INLINE_INDENT
            if inline and node.op in _IF_OPS:
                targets = [slot() for _ in outs]
                self.inline_if(node, args, targets, indent, loops)
            elif inline:
                targets = self.inline_while(node, args, dying, names, released, slot, indent,
                                            loops)
            else:
                expr, reuse = self.call(node, args, dying, info, ufunc_made, names)
                unused = len(outs) == 1 and last[outs[0]] == idx and \
                    outs[0] not in fetched and reuse is None
                if not outs or unused:
                    self.emit(indent, expr, node)  # no result, or one nobody reads
                    outs, targets = [], []
                else:
                    if reuse is not None:
                        released.remove(reuse)
                        targets = [reuse]
                    else:
                        targets = [released.pop(0) if released else slot() for _ in outs]
                    lhs = targets[0] if len(outs) == 1 else ", ".join(targets) + ","
                    self.emit(indent, f"{lhs} = {expr}", node)
                if self.ufunc(node) is not None:
                    ufunc_made.update(outs)
            for o, t in zip(outs, targets):
                names[o] = t
                owned.add(o)
            dead = released + [names[o] for o in outs if last[o] == idx and o not in fetched]
            if dead:
                self.emit(indent, "del " + ", ".join(dead))
                free.extend(dead)
        if len(self.lines) == start:
            self.emit(indent, "pass")
        result = [names[_key(alias(f))] for f in fetches]
        return result, {names[k] for k in fetched if k in owned}

    def call(self, node: Node, args: list[str], dying: list[Output], info: _Block,
             ufunc_made: set[tuple], names: dict[tuple, str]) -> tuple[str, str | None]:
        """The expression computing ``node`` and the dead buffer it writes into, if any."""
        opdef = get_op(node.op)
        ufunc = self.ufunc(node)
        if ufunc is not None:
            reuse = self._reusable(node, dying, info, ufunc_made)
            if reuse is not None:
                k = self.bind("k", ufunc)
                return f"{k}({', '.join(args)}, out={names[_key(reuse)]})", names[_key(reuse)]
            if ufunc in _BINARY_OPERATORS and len(args) == 2:
                return f"{args[0]} {_BINARY_OPERATORS[ufunc]} {args[1]}", None
            if ufunc in _UNARY_OPERATORS and len(args) == 1:
                return f"{_UNARY_OPERATORS[ufunc]}{args[0]}", None
        if node.op == "TensorListSetItem":  # in-order writes append (graph/ops/tensor_array.py)
            k = self.bind("k", append_kernel(node.attrs.get("element_dtype"),
                                             bool(node.attrs.get("resize_if_index_out_of_bounds")),
                                             node.inputs[2].shape))
            return f"{k}({', '.join(args)})", None
        if node.op in _REDUCE_UFUNCS and len(args) == 1:
            return self._reduce(node, args[0]), None
        if opdef.build is None and opdef.kernel_attrs:
            k = self.bind("k", opdef.kernel)
            kw = [f"{a}={self.bind('g', node.attrs[a])}" for a in opdef.kernel_attrs]
            call = f"{k}({', '.join(args + kw)})"
            if node.op == "StridedSlice":
                return _subscript(node, args, call) or call, None
            return call, None
        k = self.bind("k", self.kernel(node))
        return f"{k}({', '.join(args)})", None

    def _reduce(self, node: Node, arg: str) -> str:
        """``Sum``/``Prod`` as the ufunc's ``reduce`` called directly: what ``np.sum`` runs
        (same summation order, same values) without its Python wrappers (~0.4 µs a call,
        which a loop condition such as ``reduce_sum(x) > 1`` pays every iteration)."""
        axis = node.attrs.get("axis")
        axis = "None" if axis is None else self.bind("g", tuple(axis))
        reduce = self.bind("k", _REDUCE_UFUNCS[node.op].reduce)
        dtype = self.bind("g", node.outputs[0].dtype.numpy_dtype)
        return f"{reduce}({arg}, {axis}, {dtype}, None, {bool(node.attrs.get('keep_dims'))})"

    def _reusable(self, node: Node, dying: list[Output], info: _Block, ufunc_made: set[tuple]):
        """A dying input buffer that ``node`` may overwrite (``out=``), or None.

        Only a fresh ufunc result whose every reader is a ufunc qualifies: no
        view of it (reshape, slice, identity fetched by a caller) can exist.
        Only elementwise ufuncs write in place; matmul's input overlapping its
        output costs numpy a hidden copy.
        """
        if self.ufunc(node).signature is not None:
            return None  # a gufunc (matmul) writing over its own input makes numpy copy it first
        out = node.outputs[0]
        n = out.shape.num_elements()
        if n is None or n < _REUSE_MIN_ELEMENTS:
            return None
        for v in dying:
            k = _key(v)
            if k in ufunc_made and v.type == out and \
                    all(self.ufunc(c) is not None for c in info.consumers.get(k, ())):
                return v
        return None

    # -- control flow written inline ---------------------------------------------
    def inline_if(self, node: Node, args: list[str], targets: list[str], indent: int,
                  loops: int) -> None:
        self.emit(indent, f"if {args[0]}:", node)
        for kind, attr in (("then", "then_branch"), ("else", "else_branch")):
            if kind == "else":
                self.emit(indent, "else:", node)
            branch = node.attrs[attr]
            names, owned = self.block(branch, list(branch.outputs), args[1:], indent + 1, loops)
            for t, n in zip(targets, names):
                self.emit(indent + 1, f"{t} = {n}", node)
            if owned:
                self.emit(indent + 1, "del " + ", ".join(sorted(owned)))

    def inline_while(self, node: Node, args: list[str], dying: list[Output],
                     names: dict[tuple, str], released: list[str], slot, indent: int,
                     loops: int) -> list[str]:
        """Writes the loop; returns the slots holding the loop variables afterwards.

        A loop variable takes over the slot of an input that dies here (no copy);
        the others get a fresh slot initialised from their input.
        """
        loop_vars = []
        for i, inp in enumerate(node.inputs):
            name = args[i]
            if name in released:
                released.remove(name)
                loop_vars.append(name)
            else:
                var = slot()
                if inp.shape.rank == 0:
                    name = self.scalars.get(name, name)
                self.emit(indent, f"{var} = {name}", node)
                loop_vars.append(var)
        cond, body = node.attrs["cond"], node.attrs["body"]
        self.emit(indent, "while True:", node)
        (pred,), _ = self.block(cond, list(cond.outputs), loop_vars, indent + 1, loops + 1)
        self.emit(indent + 1, f"if not {pred}:", node)
        self.emit(indent + 2, "break")
        new, owned = self.block(body, list(body.outputs), loop_vars, indent + 1, loops + 1)
        moves = [(t, s) for t, s in zip(loop_vars, new) if t != s]
        targets = {t for t, _ in moves}
        if any(s in targets for _, s in moves):  # a permutation: assign all at once
            self.emit(indent + 1, ", ".join(t for t, _ in moves) + " = " +
                      ", ".join(s for _, s in moves) + ",", node)
        else:
            for t, s in moves:
                self.emit(indent + 1, f"{t} = {s}", node)
        if owned:
            self.emit(indent + 1, "del " + ", ".join(sorted(owned)))
        return loop_vars


def _subscript(node: Node, args: list[str], call: str) -> str | None:
    """``x[i]``, ``x[1:3]``, ``x[..., None]`` written as a Python subscript, or None.

    The StridedSlice kernel interprets its spec on every call (~1.7 µs); a
    subscript costs what hand-written numpy costs. The kernel stays the
    fallback: a tensor-valued index is checked against the statically known
    dimension and the kernel runs (and raises TensorFlow's error) when it is
    out of range. Only numeric inputs of known rank whose every indexed
    dimension is known qualify; a tensor-valued slice step (which may be 0)
    does not. The result may be a numpy scalar where the kernel returns a 0-d
    array, as the generated scalar arithmetic does.
    """
    x = node.inputs[0]
    dims = x.shape.as_tuple()
    if dims is None or x.dtype.is_string or x.dtype.numpy_dtype == np.dtype(object):
        return None
    items = [tuple(item) for item in node.attrs["spec"]]
    used = sum(1 for item in items if item[0] in ("index", "slice"))
    if not items or used > len(dims) or sum(item[0] == "ellipsis" for item in items) > 1:
        return None

    def bound(b) -> str | None:
        if b is None or type(b) is int:
            return "" if b is None else str(b)
        if isinstance(b, (tuple, list)) and len(b) == 2 and b[0] == "input":
            return args[b[1]]
        return None

    parts, guards, axis = [], [], 0
    for item in items:
        kind = item[0]
        if kind == "newaxis":
            parts.append("None")
        elif kind == "ellipsis":
            parts.append("...")
            axis += len(dims) - used
        elif kind == "index":
            d, b = dims[axis], bound(item[1])
            if d is None or not b:
                return None
            if type(item[1]) is int:
                if not -d <= item[1] < d:
                    return None  # the kernel reports it
            else:
                guards.append(f"{-d} <= {b} < {d}")
            parts.append(b)
            axis += 1
        elif kind == "slice":
            start, stop, step = (bound(b) for b in item[1:])
            if start is None or stop is None or step is None or \
                    (item[3] is not None and type(item[3]) is not int) or item[3] == 0:
                return None
            parts.append(f"{start}:{stop}" + (f":{step}" if step else ""))
            axis += 1
        else:
            return None
    expr = f"{args[0]}[{', '.join(parts)}]"
    return f"({expr} if {' and '.join(guards)} else {call})" if guards else expr


# -- the reference interpreter -------------------------------------------------------

def _interpreter_plan(graph: Graph, fetches: list[Output]) -> Plan:
    nodes = schedule(graph, fetches)
    compile_sub = _SubgraphCompiler("interpret")
    kernels = {id(n): get_op(n.op).make_kernel(n, compile_sub)
               for n in nodes if n.op not in ("Placeholder", "Const")}
    inputs = list(graph.inputs)

    def run(*feeds):
        env: dict[Output, object] = dict(zip(inputs, feeds))
        for node in nodes:
            if node.op == "Placeholder":
                if node.output(0) not in env:
                    raise InvalidArgumentError(
                        message=f"Placeholder {node.name!r} is needed but is not an input of "
                                f"graph {graph.name!r}")
                continue
            if node.op == "Const":
                env[node.output(0)] = node.attrs["value"]
                continue
            try:
                result = kernels[id(node)](*[env[i] for i in node.inputs])
            except OpError as e:
                if getattr(e, "_located", False):
                    raise
                raise _locate(e, node) from None
            except Exception as e:
                raise _locate(InvalidArgumentError(message=f"{type(e).__name__}: {e}"), node) from e
            values = (result,) if len(node.outputs) == 1 else tuple(result)
            for j, value in enumerate(values):
                check_value(value, node, j)
                env[node.output(j)] = value
        return tuple(env[f] for f in fetches)

    return Plan(graph, fetches, run, "", {}, "<interpreter>")


def check_value(value, node: Node, index: int) -> None:
    """Raises when a kernel's result disagrees with its node's inferred type."""
    expected = node.outputs[index]
    dtype = getattr(value, "dtype", None)
    if expected.dtype.numpy_dtype == np.dtype(object):
        ok_dtype = dtype == np.dtype(object) or isinstance(value, (bytes, object))
    else:
        ok_dtype = dtype == expected.dtype.numpy_dtype
    shape = np.shape(value)
    if not ok_dtype or not expected.shape.is_compatible_with(shape):
        raise AssertionError(
            f"Kernel of {node.op} ({node.name}) output {index} produced "
            f"{dtype}{list(shape)}, but inference said {expected}")
