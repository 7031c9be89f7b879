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
  A result is computed straight into the slot it ends in when that slot's
  old value is dead (a loop variable the body replaces, an If input a
  branch passes on), so a loop body ending in an if/elif chain moves
  nothing. A counted loop (``for i in tf.range(...)``: ``i < limit``,
  ``i += step``) is a Python ``for`` over the counter's values
  (``CountedRange``), and ``x[i]`` of its counter tests the range once.
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
import operator
from typing import Callable, Sequence

import numpy as np

from graph.errors import GraphError, InvalidArgumentError, OpError
from graph.ir import Graph, Node, Output
from graph.ops.tensor_array import append_kernel
from graph.registry import _REGISTRY, get_op, silenced

_plan_ids = itertools.count()
# Compiled plan modules by (graph name, source): a retrace for a new input shape usually
# writes the very same text (shapes rarely reach it), and compile() is a quarter of
# compiling a small graph. Each plan still execs the code in its own namespace.
_CODE_CACHE: dict[tuple[str, str], object] = {}
_CODE_CACHE_SIZE = 256

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
_OBJECT = np.dtype(object)


def schedule(graph: Graph, fetches: Sequence[Output]) -> list[Node]:
    """The nodes needed for ``fetches`` and for every stateful op, in creation order.

    A variable read is stateful only to keep its place among the assignments: one that
    nothing needs changes nothing, and is left out."""
    needed: set[int] = set()
    add = needed.add
    nodes = graph.nodes
    stack = list(map(_node_of, fetches))
    for op in set(map(_op_of, nodes)):  # (a few distinct ops: test each once)
        if (_REGISTRY.get(op) or get_op(op)).stateful and op != "ReadVariableOp":
            stack += [n for n in nodes if n.op == op]
    pop, extend = stack.pop, stack.extend
    while stack:
        node = pop()
        if id(node) in needed:
            continue
        add(id(node))
        extend(map(_node_of, node.inputs))
        if node.control_inputs:
            extend(node.control_inputs)
    return [n for n in nodes if id(n) in needed]


_node_of, _op_of = operator.attrgetter("node"), operator.attrgetter("op")


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
            # (by the frame's module table, not its file name: plans of the same text
            # share one code object, each run in its own module)
            table = tb.tb_frame.f_globals.get(_LINE_MAP)
            if table is not None:
                found = table.get(tb.tb_lineno, found)
            elif tb.tb_frame.f_code.co_filename == self._filename:
                found = self._line_nodes.get(tb.tb_lineno, found)
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


def _compiled(name: str, source: str):
    """The code object of a generated plan module, compiled once per distinct text."""
    key = (name, source)
    code = _CODE_CACHE.get(key)
    if code is None:
        code = compile(source, f"<graph {name} #{next(_plan_ids)}>", "exec")
        if len(_CODE_CACHE) >= _CODE_CACHE_SIZE:
            _CODE_CACHE.pop(next(iter(_CODE_CACHE), None), None)  # the oldest
        _CODE_CACHE[key] = code
    return code


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
    for t in node.outputs:
        if t.dtype.is_string or t.dtype.numpy_dtype == _OBJECT:
            return None
    for i in node.inputs:
        if i.dtype.is_string or i.dtype.numpy_dtype == _OBJECT:
            return None
    return kernel


def _scalar_form(value):
    """A 0-d numeric constant as a numpy scalar, else None.

    numpy runs scalar-with-scalar arithmetic far faster on numpy scalars than
    on 0-d arrays, but array-with-constant arithmetic faster with a 0-d array,
    so generated code passes whichever form suits the node.
    """
    if isinstance(value, np.ndarray) and value.ndim == 0 and value.dtype != _OBJECT:
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
        self.keys: list[list[tuple]] = []  # per scheduled node: the keys of its inputs
        last, consumers, canon, keys = self.last, self.consumers, self.canon, self.keys
        for idx, node in enumerate(self.nodes):
            ins: list[tuple] = []
            keys.append(ins)
            if node.op == "Identity" and (id(node), 0) in canon:
                continue
            for i in node.inputs:
                v = self.value(i) if i.node.op == "Identity" else i
                k = id(v.node), v.index
                ins.append(k)
                last[k] = idx
                found = consumers.get(k)
                if found is None:
                    consumers[k] = [node]
                else:
                    found.append(node)
            n_out = len(node.outputs)  # unused outputs die at once:
            if n_out == 1:
                last.setdefault((id(node), 0), idx)
            else:
                for j in range(n_out):
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
        # counter name of an enclosing counted loop -> (its CountedRange, {bound: flag name})
        self.counters: dict[str, tuple[str, dict[int, str]]] = {}

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
        names, _ = self.block(graph, self.fetches, params, 1, 0, frozenset(params))
        self.emit(1, f"return ({', '.join(names)}{',' if len(names) == 1 else ''})")
        source = "\n".join(self.lines) + "\n"
        code = _compiled(graph.name, source)
        exec(code, self.namespace)
        return Plan(graph, self.fetches, self.namespace["plan"], source, self.line_nodes,
                    code.co_filename)

    # -- one graph as one block of statements ----------------------------------
    def block(self, graph: Graph, fetches: list[Output], in_names: list[str], indent: int,
              loops: int, writable: frozenset = frozenset()) -> tuple[list[str], set[str]]:
        """Emits ``graph``'s schedule; returns the names holding ``fetches`` and,
        among them, the slots this block owns (the caller moves and deletes them).

        ``writable`` names inputs whose slots nothing reads after this block
        except through its results (a loop variable the body replaces, a
        value an If overwrites with its result): once such an input is dead
        here its slot is reused like an owned one, so a result is computed
        straight into the slot it ends in and the caller's move vanishes.
        """
        info = _Block(graph, fetches)
        names: dict[tuple, str] = {_key(i): n for i, n in zip(graph.inputs, in_names)}
        owned: set[tuple] = set()    # values held in this block's own slots
        adopted = {_key(i) for i, n in zip(graph.inputs, in_names)
                   if n in writable and in_names.count(n) == 1}
        ufunc_made: set[tuple] = set()  # values that are fresh ufunc results
        alias, last, fetched = info.value, info.last, info.fetched
        free: list[str] = []
        start = len(self.lines)

        def slot() -> str:
            return free.pop() if free else self.new_name("v")

        for idx, (node, ins) in enumerate(zip(info.nodes, info.keys)):
            op = node.op
            if op == "Placeholder":
                if (id(node), 0) not in names:
                    raise InvalidArgumentError(
                        message=f"Placeholder {node.name!r} is needed but is not an input of "
                                f"graph {graph.name!r}")
                continue
            if op == "Const":
                value = node.attrs["value"]
                name = names[id(node), 0] = self.bind("c", value)
                scalar = _scalar_form(value)
                if scalar is not None:
                    self.scalars[name] = self.bind("s", scalar)
                continue
            if op == "Identity" and (id(node), 0) in info.canon:
                continue  # an alias of its input: no code
            args = [names[k] for k in ins]
            n_out = len(node.outputs)
            if (node.outputs[0].shape.rank == 0 if n_out == 1 else
                    n_out and all(t.shape.rank == 0 for t in node.outputs)):
                scalars = self.scalars
                args = [scalars.get(a, a) for a in args]
            dying: list[Output] = []
            dying_keys: list[tuple] = []
            for i, k in zip(node.inputs, ins):
                if last[k] == idx and (k in owned or k in adopted) and k not in fetched and \
                        k not in dying_keys:
                    dying.append(alias(i))
                    dying_keys.append(k)
            released = [names[k] for k in dying_keys]
            outs = [(id(node), 0)] if n_out == 1 else [(id(node), j) for j in range(n_out)]
            inline = (node.op in _IF_OPS or node.op in _WHILE_OPS) and \
                loops < _MAX_INLINE_LOOPS and indent < _MAX_INLINE_INDENT
            if inline and node.op in _IF_OPS:
                targets = _if_targets(node, args, released, slot)
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
                return _subscript(node, args, call, self.index_guard) or call, None
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
            names, owned = self.block(branch, list(branch.outputs), args[1:], indent + 1, loops,
                                      frozenset(targets) & frozenset(args[1:]))
            self.moves(list(zip(targets, names)), indent + 1, node)
            if owned - set(targets):
                self.emit(indent + 1, "del " + ", ".join(sorted(owned - set(targets))))

    def index_guard(self, index: str, dim: int) -> str:
        """The test that ``index`` lies in ``[-dim, dim)``: per element, or for the
        counter of an enclosing counted loop, one flag computed before the loop."""
        if index not in self.counters:
            return f"{-dim} <= {index} < {dim}"
        flags = self.counters[index][1]
        if dim not in flags:
            flags[dim] = self.new_name("inside")
        return flags[dim]

    def moves(self, pairs: list[tuple[str, str]], indent: int, node: Node) -> None:
        """``target = source`` for each pair that differs; all at once when a
        target is also a source (a permutation of slots)."""
        pairs = [(t, s) for t, s in pairs if t != s]
        targets = {t for t, _ in pairs}
        if any(s in targets for _, s in pairs):
            self.emit(indent, ", ".join(t for t, _ in pairs) + " = " +
                      ", ".join(s for _, s in pairs) + ",", node)
        else:
            for t, s in pairs:
                self.emit(indent, f"{t} = {s}", node)

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
        body_fetches = list(body.outputs)
        counted = _counted_loop(node)
        if counted is None:
            self.emit(indent, "while True:", node)
            (pred,), _ = self.block(cond, list(cond.outputs), loop_vars, indent + 1, loops + 1)
            self.emit(indent + 1, f"if not {pred}:", node)
            self.emit(indent + 2, "break")
        else:  # ``for i in <the counter's values>``: no comparison, no increment per iteration
            j, limit, step = counted
            limit, step = (loop_vars[r] if type(r) is int else self.bind("c", r)
                           for r in (limit, step))
            count = self.bind("k", CountedRange)
            dtype = self.bind("g", node.inputs[j].dtype.numpy_dtype)
            rng = slot()
            self.emit(indent, f"{rng} = {count}({loop_vars[j]}, {limit}, {step}, {dtype})", node)
            flags_line = len(self.lines)
            self.emit(indent, "pass")  # (becomes the index flags the body asks for)
            self.emit(indent, f"for {loop_vars[j]} in {rng}.values:", node)
            body_fetches[j] = body.inputs[j]  # the for statement assigns it
            self.counters[loop_vars[j]] = (rng, {})
        new, owned = self.block(body, body_fetches, loop_vars, indent + 1, loops + 1,
                                frozenset(loop_vars))
        if counted is not None:
            flags = self.counters.pop(loop_vars[j])[1]
            if flags:
                self.lines[flags_line] = "    " * indent + ", ".join(flags.values()) + " = " + \
                    ", ".join(f"{rng}.within({d})" for d in flags)
        self.moves(list(zip(loop_vars, new)), indent + 1, node)
        if owned - set(loop_vars):
            self.emit(indent + 1, "del " + ", ".join(sorted(owned - set(loop_vars))))
        if counted is not None:
            self.emit(indent, f"{loop_vars[counted[0]]} = {rng}.end", node)
            released.append(rng)  # (the caller deletes and frees it)
        return loop_vars


def _if_targets(node: Node, args: list[str], released: list[str], slot) -> list[str]:
    """The slots an inlined If writes its results into.

    A result that a branch passes on unchanged from an input dying here
    takes that input's slot, so that branch needs no move (and neither does
    a loop whose body ends with the If); the other results take the other
    dying slots, then fresh ones.
    """
    n = len(node.outputs)
    targets: list[str | None] = [None] * n
    for j in range(n):
        for attr in ("then_branch", "else_branch"):
            branch = node.attrs[attr]
            src = _source(branch.outputs[j])
            if src in branch.inputs:
                name = args[1 + branch.inputs.index(src)]
                if name in released:
                    released.remove(name)
                    targets[j] = name
                    break
    return [t if t is not None else released.pop(0) if released else slot() for t in targets]


def _source(output: Output) -> Output:
    """``output`` with Identity nodes looked through."""
    while output.node.op == "Identity" and len(output.node.inputs) == 1:
        output = output.node.inputs[0]
    return output


def _counted_loop(node: Node) -> tuple[int, object, object] | None:
    """``(j, limit, step)`` when ``node`` is a While over an integer counter.

    The loop is ``while v[j] < limit: ...; v[j] = v[j] + step`` where
    ``limit`` and ``step`` are scalar loop variables the body passes on
    unchanged (given by index) or constants (given by value), and the
    condition does nothing else: what ``for i in tf.range(...)`` becomes.
    """
    cond, body = node.attrs["cond"], node.attrs["body"]
    if len(cond.outputs) != 1 or any(get_op(n.op).stateful for n in cond.nodes):
        return None
    less = _source(cond.outputs[0]).node
    if less.op != "Less" or any(n.op not in ("Placeholder", "Const", "Identity") or n is less
                                 for n in schedule(cond, cond.outputs) if n is not less):
        return None

    def operand(graph: Graph, output: Output):
        """A loop-invariant scalar: its loop-variable index, or its constant value."""
        output = _source(output)
        if output.shape.rank != 0:
            return None
        if output.node.op == "Const":
            return output.node.attrs["value"]
        if output in graph.inputs:
            m = graph.inputs.index(output)
            if _source(body.outputs[m]) == body.inputs[m]:
                return m
        return None

    counter = _source(less.inputs[0])
    if counter not in cond.inputs:
        return None
    j = cond.inputs.index(counter)
    dtype = node.inputs[j].dtype.numpy_dtype
    if node.inputs[j].shape.rank != 0 or dtype.kind not in "iu":
        return None
    add = _source(body.outputs[j]).node
    if add.op != "AddV2" or _source(add.inputs[0]) != body.inputs[j]:
        return None
    limit, step = operand(cond, less.inputs[1]), operand(body, add.inputs[1])
    if limit is None or step is None:
        return None
    return j, limit, step


class CountedRange:
    """The values a counted While loop's counter takes, and the value it ends with.

    numpy yields an ``arange``'s elements as scalars faster than a loop can
    compare and increment its counter, and each element is exactly the value
    the loop would have computed. Chunked, so a long loop runs in constant
    memory; a step that is not positive runs the loop's own arithmetic.
    """

    __slots__ = ("values", "end", "_bounds")
    _CHUNK = 512  # values: a 10^6-iteration loop peaks as a 10^3 one does

    def __init__(self, start, limit, step, dtype: np.dtype):
        self._bounds = None  # (first, last) value, when known
        if not step > 0:
            self.end = start
            self.values = self._stepping(start, limit, step)
            return
        lo, hi, st = int(start), int(limit), int(step)
        n = max(0, -(-(hi - lo) // st))
        if n == 0:
            self.end, self.values, self._bounds = start, (), (0, 0)
            return
        self._bounds = (lo, lo + (n - 1) * st)
        info = np.iinfo(dtype)  # the counter's last increment wraps as the loop's would
        end = (lo + n * st - info.min) % (info.max - info.min + 1) + info.min
        self.end = dtype.type(end)
        span = st * self._CHUNK
        if n <= self._CHUNK:
            self.values = np.arange(lo, hi, st, dtype)
        else:
            self.values = itertools.chain.from_iterable(
                np.arange(a, min(a + span, hi), st, dtype) for a in range(lo, hi, span))

    def within(self, dim: int) -> bool:
        """Whether every value indexes a dimension of size ``dim`` (``-dim <= v < dim``)."""
        return self._bounds is not None and -dim <= self._bounds[0] and self._bounds[1] < dim

    def _stepping(self, i, limit, step):
        while i < limit:
            yield i
            i = i + step
            self.end = i


def _subscript(node: Node, args: list[str], call: str, index_guard) -> str | None:
    """``x[i]``, ``x[1:3]``, ``x[..., None]`` written as a Python subscript, or None.

    The StridedSlice kernel interprets its spec on every call (~1.7 µs); a
    subscript costs what hand-written numpy costs. The kernel stays the
    fallback: a tensor-valued index is checked against the statically known
    dimension and the kernel runs (and raises TensorFlow's error) when it is
    out of range (for the counter of a counted loop, one test of the loop's
    range before the loop: ``index_guard``). Only numeric inputs of known rank whose every indexed
    dimension is known qualify; a tensor-valued slice step (which may be 0)
    does not. The result may be a numpy scalar where the kernel returns a 0-d
    array, as the generated scalar arithmetic does.
    """
    x = node.inputs[0]
    dims = x.shape.as_tuple()
    if dims is None or x.dtype.is_string or x.dtype.numpy_dtype == _OBJECT:
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
                guards.append(index_guard(b, d))
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
    if expected.dtype.numpy_dtype == _OBJECT:
        ok_dtype = dtype == _OBJECT or isinstance(value, (bytes, object))
    else:
        ok_dtype = dtype == expected.dtype.numpy_dtype
    shape = np.shape(value)
    if not ok_dtype or not expected.shape.is_compatible_with(shape):
        raise AssertionError(
            f"Kernel of {node.op} ({node.name}) output {index} produced "
            f"{dtype}{list(shape)}, but inference said {expected}")
