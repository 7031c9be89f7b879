"""The converter's fast paths give what the general mechanism gives (issue 17).

Each shortcut taken for speed is checked against the slower reference it replaces: the
unparser's hand-written methods against ``ast.unparse``, the generated ast → gast
converters against gast's, passes and analyses skipped for constructs the tree lacks
against running them, control flow's top-level-only ``located`` against the deep walk,
the indented unparse against ``textwrap.indent``, ``to_code`` without line fill-in against
the full conversion. A conversion leaves no reference cycle behind, so its trees are freed
at once instead of by the cyclic garbage collector.
"""
import ast
import gc
import inspect
import textwrap

import gast
import pytest

from autograph.converter import conversion, gast_convert, loader, naming, templates
from autograph.converter.options import Feature as tf_features
from autograph.converter.unparse import unparse, unparse_with_lines
from autograph.impl.api import to_code

SOURCES = [
    "y = 3 .real\nz = 3.5.real\nw = (-3).real\n",
    "x = ()\ny = (1,)\nz = (1, 2)\nf(*a, **k)\nd[1, 2] = d[()]\nd[(1,)] = 0\n",
    "def f(a, /, b: int = 1, *c, d, e=2, **g) -> None:\n    'doc'\n    return\n",
    "@dec\ndef f():\n    nonlocal a, b\n    global c\n    return (a, b)\n",
    "x = a < b <= c\ny = (a < b) < c\nz = not a < b\nw = (a < b) + 1\nv = a is not b\n",
    "x = f'{a!r:>3} {\"b\"} {c < d} {e[\"k\"]}'\ny = f'{x:{w}}'\n",
    "x = lambda a=1, *b: (a, b)\ny = (yield)\nz = a if b else (c, d)\n",
    "x = 'a\\nb'\ny = b'\\x00'\nz = 1e400\nw = ...\nv = u'x'\nt = None, True\n",
    "for i in range(3):\n    pass\nelse:\n    a.b.c(1)(2)\n",
    "try:\n    pass\nexcept (E, F) as e:\n    raise\nfinally:\n    del a, b[0]\n",
    "x: int = 1\ny: 'T'\n(z): int\n",
]


@pytest.mark.parametrize("source", SOURCES)
def test_unparser_fast_paths_write_what_the_stdlib_writes(source):
    tree = ast.parse(source)
    assert unparse(gast_convert.ast_to_gast(tree)) == ast.unparse(tree)


def test_nodes_built_by_hand_without_locations_convert_as_gast_converts_them():
    tree = ast.Expression(body=ast.BinOp(left=ast.Name(id="a", ctx=ast.Load()), op=ast.Mult(),
                                         right=ast.Constant(value=2)))
    ours = gast_convert.ast_to_gast(tree)
    assert gast.dump(ours, include_attributes=True) == \
        gast.dump(gast.ast_to_gast(tree), include_attributes=True)


def test_stateless_markers_are_shared_as_ast_parse_shares_them():
    first = gast_convert.ast_to_gast(ast.parse("a + b")).body[0].value
    second = gast_convert.ast_to_gast(ast.parse("c + d")).body[0].value
    assert isinstance(first.op, gast.Add) and first.op is second.op
    assert first.left.ctx is second.right.ctx


def _program(x, items):
    total = 0
    for item in items:
        if item is None:
            continue
        if item > x:
            total += item
            break
    try:
        total += 1
    finally:
        if total > 100:
            return -1
    while x > 0:
        x -= 1
    else:
        total += 1
    return lambda: total + x


_COUNT = 0


def _plain(x):
    y = 0
    if x > 0:
        y = x
    return y


def test_unparse_with_an_indent_equals_indenting_the_text():
    tree = conversion.convert_function(_program).tree
    text, lines = unparse_with_lines(tree)
    indented, indented_lines = unparse_with_lines(tree, indent=1)
    assert indented == textwrap.indent(text, "    ")
    assert indented_lines == lines


def test_the_source_map_holds_one_origin_per_user_line():
    converted = conversion.convert_function(_program)
    _, lines = unparse_with_lines(converted.tree)
    mapping = loader.source_map(converted, lines, 1)
    by_line = {}
    for origin in mapping.values():
        assert by_line.setdefault(origin.line, origin) is origin
    assert len(by_line) > 10


def _closures(x, items):
    global _COUNT
    fns = []
    _COUNT = len(fns)
    for i in items:
        if i > x:
            x = i
        fns.append([lambda: i + x for _ in range(2)])
    y = 0
    while y < x:
        y += 1
    assert x > 0, f"small {x}"
    return fns, y


class _Base:
    def step(self, x):
        return x


class _Private(_Base):
    __scale = 2

    def step(self, x):
        __total = super().step(x)
        for i in range(x):
            if i > self.__scale:
                __total += i
        return __total

    def plain(self, x):
        if x > self.__scale:
            x = x * 2
        return x


class _AllPasses(naming.Namer):
    """A namer that reports every jump construct, a nested scope, a declaration, a ``yield``,
    a private name, returns inside control flow and assigned attributes: no pass, analysis
    or walk is skipped."""

    def __init__(self, tree):
        super().__init__(tree)
        self.jumps = {gast.Try, gast.Break, gast.Continue}
        self.has_loop_else = True
        self.has_scopes = True
        self.has_declarations = True
        self.has_yield = True
        self.has_private = True
        self.returns = -1  # (never the count of a body's own returns)
        self.has_composite_targets = True


def _composites(obj, lst, d):
    for i in range(len(lst)):
        if lst[i] > 0:
            obj.total = obj.total + lst[i]
            lst[i] += 1
        else:
            del d["k"]
    return obj


@pytest.mark.parametrize("fn", [_program, _plain, _closures, _Private.step, _Private.plain,
                                _composites])
@pytest.mark.parametrize("features", [None, tf_features.ASSERT_STATEMENTS])
def test_skipping_what_the_tree_does_not_hold_changes_nothing(fn, features, monkeypatch):
    fast = to_code(fn, experimental_optional_features=features)
    monkeypatch.setattr(conversion, "Namer", _AllPasses)
    assert to_code(fn, experimental_optional_features=features) == fast


def test_the_namer_records_the_jumps_and_scopes_it_saw():
    namer = naming.Namer(conversion.parse_function(_program).node)
    assert namer.jumps == {gast.Try, gast.Break, gast.Continue} and namer.has_loop_else
    assert namer.has_scopes  # (its lambda)
    namer = naming.Namer(conversion.parse_function(_plain).node)
    assert not namer.jumps and not namer.has_loop_else and not namer.has_scopes
    namer = naming.Namer(conversion.parse_function(_closures).node)
    assert namer.has_scopes and namer.has_declarations and not namer.has_composite_targets
    assert naming.Namer(conversion.parse_function(_composites).node).has_composite_targets
    assert naming.Namer(gast.parse("x = a.b[c]\nf(a.b, c[d])")).has_composite_targets is False
    for source in ("a.b = 1", "a[0] += 1", "del a.b", "(x, *a[1:]) = y", "with f() as a.b: pass"):
        assert naming.Namer(gast.parse(source)).has_composite_targets, source


def _holding_nodes(node) -> list:
    """The attributes of ``node`` that hold nodes other than markers (Load, Add...)."""
    out = []
    for k, v in node.__dict__.items():
        values = v if isinstance(v, list) else [v]
        if any(isinstance(c, gast.AST) and not isinstance(c, naming._MARKER_KINDS)
               for c in values):
            out.append(k)
    return out


@pytest.mark.parametrize("fn", [_program, _closures, _Private.step])
def test_the_walks_read_every_attribute_that_holds_nodes_in_order(fn):
    trees = [conversion.parse_function(fn).node, conversion.convert_function(fn).tree]
    trees.append(gast.parse(textwrap.dedent(inspect.getsource(fn))))  # (gast's field order)
    for tree in trees:
        for node in gast.walk(tree):
            holding = _holding_nodes(node)
            assert holding == [f for f in naming.CHILDREN[node.__class__] if f in holding]


def test_the_private_names_of_a_method_are_still_mangled():
    code = to_code(_Private.step)
    assert "__total" not in code.replace("_Private__total", "")
    assert "self._Private__scale" in code and "super(__class__, self)" in code


def _deep_located(nodes, origin, nested=True):
    """The reference: every generated statement nested in ``nodes`` gets ``origin``'s place."""
    loc = tuple(getattr(origin, a, None) for a in templates._LOCATION)
    if loc[0] is None:
        return nodes
    stack = list(nodes) if isinstance(nodes, list) else [nodes]
    while stack:
        node = stack.pop()
        if not isinstance(node, gast.stmt) or getattr(node, "lineno", None) is not None:
            continue
        node.lineno, node.col_offset, node.end_lineno, node.end_col_offset = loc
        for f in ("body", "orelse", "finalbody"):
            stack.extend(getattr(node, f, None) or [])
        for h in getattr(node, "handlers", None) or []:
            stack.extend(h.body)
    return nodes


@pytest.mark.parametrize("fn", [_program, _plain])
def test_locating_the_top_statements_only_maps_every_line_as_before(fn, monkeypatch):
    def source_map():
        converted = conversion.convert_function(fn)
        _, lines = unparse_with_lines(converted.tree)
        return {k: v.line for k, v in loader.source_map(converted, lines, 1).items()}

    fast = source_map()
    monkeypatch.setattr(templates, "located", _deep_located)
    assert source_map() == fast


@pytest.mark.parametrize("fn", [_program, _plain])
def test_a_conversion_leaves_no_reference_cycle(fn):
    to_code(fn)  # (the first conversion in a process makes its one-time tables)
    gc.collect()
    gc.disable()
    try:
        to_code(fn)
        converted = conversion.convert_function(fn)
        loader.compile_converted(converted, fn.__code__.co_freevars)
        del converted
        assert gc.collect() == 0
    finally:
        gc.enable()


@pytest.mark.parametrize("fn", [_program, _closures])
def test_to_code_skips_the_lines_but_writes_the_same_text(fn):
    assert to_code(fn) == conversion.convert_function(fn).code()


def _handlers(x):
    for i in range(x):
        try:
            x = x - 1
        except ValueError as first:
            print(first)
        except (KeyError, TypeError) as second:
            x = second
        finally:
            done = i
    return x, done


def test_a_compound_statement_modifies_its_targets_then_its_blocks_in_order():
    from autograph.converter.activity import modified_names, modified_symbols
    from autograph.converter.dataflow import FunctionAnalysis
    fn = conversion.parse_function(_handlers).node
    fa = FunctionAnalysis(fn)
    loop = fn.body[0]
    # the handlers' names too (`except E as name` binds name), each symbol once; the
    # blocks in field order (a try's handlers after its finally), as state is ordered
    assert fa.modified(loop) == ["i", "x", "done", "first", "second"]
    assert set(fa.modified(loop)) == set(modified_names(loop))
    assert fa.modified(loop, composite=True) == fa.modified(loop)
    assert set(fa.modified(loop, composite=True)) == set(modified_symbols(loop))


def _shadows(x):
    len = abs  # noqa: F841  (binds a builtin name: its calls are converted)
    return str(x), repr(x)


def test_transformers_of_one_class_share_their_visit_methods():
    from autograph.converter import call_trees
    from autograph.converter.transformer import Context
    source = conversion.parse_function(_shadows)
    ctx = Context(source, naming.Namer(source.node))
    a = call_trees.CallTreeTransformer(ctx, set())
    b = call_trees.CallTreeTransformer(ctx, set())
    assert a._methods is b._methods
    a.visit(source.node)
    assert b._methods[gast.Call] is call_trees.CallTreeTransformer.visit_Call


def test_shadowed_builtins_are_the_ones_the_function_or_its_module_binds():
    from autograph.converter import call_trees
    from autograph.converter.transformer import Context
    source = conversion.parse_function(_shadows)
    ctx = Context(source, naming.Namer(source.node), {"repr": 1, "other": 2})
    assert call_trees.shadowed_builtins(ctx) == {"repr"}  # (len is not a plain builtin)
    ctx.namer.bound.add("str")
    assert call_trees.shadowed_builtins(ctx) == {"repr", "str"}


def _returns(x):
    def inner(y):
        return y

    def gen():  # (a generator: kept as written)
        yield x
        return

    if x:
        return inner(x)
    return gen


def test_the_namer_counts_the_returns_outside_scopes_kept_as_written():
    assert naming.Namer(conversion.parse_function(_plain).node).returns == 1
    # the def's, the branch's and the last; not the generator's
    assert naming.Namer(conversion.parse_function(_returns).node).returns == 3


def _loop_jumps(xs):
    for x in xs:
        for y in xs:
            if y:
                break
        else:  # (a jump here would be the outer loop's: the break pass moves it out first)
            x = 0
        while x:
            def inner():
                for z in xs:
                    continue
            try:
                x -= 1
            except ValueError:
                break
        for y in xs:
            with open(y) as f:
                if f:
                    continue
            match y:
                case 1:
                    break
    return xs


@pytest.mark.parametrize("kind", [gast.Break, gast.Continue])
def test_the_loops_jumps_noted_while_visiting_are_the_ones_a_walk_finds(kind):
    from autograph.converter import jumps

    class Probe(jumps.LoopJumpTransformer):
        visit_FunctionDef = lambda self, node: node  # noqa: E731
        seen: list = []

        def _loop(self, node):
            expected = jumps.contains(node.body, kind, into_loops=False)
            self.seen.append((self.visit_loop_body(node), expected))
            node.orelse = self.visit_block(node.orelse)
            return node

        visit_For = visit_While = _loop

    setattr(Probe, "visit_" + kind.__name__, jumps.LoopJumpTransformer._jump)
    fn = conversion.parse_function(_loop_jumps).node
    Probe(None).visit_block(fn.body)
    assert len(Probe.seen) == 4 and {s[1] for s in Probe.seen} == {True, False}
    assert all(noted == found for noted, found in Probe.seen)


def _continues(xs):
    total = 0
    for x in xs:  # (moved into the else branch: the flag is never read)
        if x is None:
            continue
        total += x
    for x in xs:  # (guarded: read)
        if x > 0:
            if x > 5:
                continue
            total -= 1
        total += 1
    for x in xs:
        try:
            total += 1
        finally:
            if x:
                continue
    while total > 0:
        total -= 1
        if total == 3:
            return total
        if total == 2:
            continue
        total -= 1
    return total


@pytest.mark.parametrize("fn", [_continues, _program, _loop_jumps])
def test_a_continue_flag_known_unread_is_removed_as_a_walk_would_find(fn, monkeypatch):
    from autograph.converter import continue_statements, jumps
    fast = to_code(fn)

    def always_walk(ctx):
        for loop, flag, _ in ctx.continue_loops:
            jumps.remove_unread_flag(loop, flag)

    monkeypatch.setattr(continue_statements, "remove_unread_flags", always_walk)
    assert to_code(fn) == fast
