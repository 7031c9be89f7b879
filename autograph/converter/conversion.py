"""The conversion pipeline: parse → one converter per construct, in a fixed order → tree.

The order matters and is fixed:

1. ``functions``: name ``tf__f``, no decorators, lambda → def, generator check.
2. ``finally_jumps``: a ``try`` whose ``finally`` may jump catches and re-raises the
   exception in flight itself (a lowered jump can then drop it, as Python's does).
   ``break_statements``, 3. ``continue_statements``, 4. ``return_statements``:
   jumps become flag variables (later passes see structured code only).
5. ``asserts``, 6. ``call_trees``, with ``lists``: statements and calls that become
   ``ag__`` calls (``l.append(x)`` of a local list → ``l = ag__.list_append(l, x)``).
7. ``control_flow``: ``if``/``while``/``for`` (with dataflow analysis of the
   code as it is now, and ``ag__.ld`` on maybe-unassigned loads).
8. ``conditional_expressions``, 9. ``logical_expressions``: expression-level
   rewrites, last, so that the analyses see plain expressions. The calls walk
   already visits every expression, so it records these nodes, and they are
   rewritten in place at the end instead of walking the (by then larger) tree again.
"""
from __future__ import annotations

from dataclasses import dataclass

import gast

from autograph.converter import (asserts, break_statements, call_trees,
                                 conditional_expressions, continue_statements, control_flow,
                                 finally_jumps, functions, lists, logical_expressions,
                                 return_statements, templates)
from autograph.converter.naming import Namer, push_children
from autograph.converter.options import DEFAULT, ConversionOptions
from autograph.converter.parser import Source, parse_function
from autograph.converter.transformer import Context, Transformer
from autograph.converter.unparse import unparse

PASSES = (finally_jumps, break_statements, continue_statements, return_statements, asserts,
          call_trees, control_flow, conditional_expressions, logical_expressions)


class _RecordsExpressions(Transformer):
    """Part of the calls walk: records the nodes passes 8 and 9 rewrite, innermost first.

    Not in a class body itself (the thunks they become could not see the class's names),
    nor where an operand that would become a thunk assigns with ``:=``.
    """

    _in_class_body = False

    def _record(self, node, thunked: list):
        if self._in_class_body or (self.ctx.namer.has_walrus and _assigns(thunked)):
            return node
        self.ctx.expressions.append(node)
        return node

    def visit_IfExp(self, node):
        self.generic_visit(node)
        return self._record(node, [node.body, node.orelse])

    def visit_BoolOp(self, node):
        self.generic_visit(node)
        return self._record(node, node.values[1:])

    def visit_Compare(self, node):
        self.generic_visit(node)
        if len(node.ops) < 2:
            return node
        return self._record(node, node.comparators[1:])

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if isinstance(node.op, gast.Not):
            return self._record(node, [])
        return node


def _assigns(nodes: list) -> bool:
    """Whether ``nodes`` hold a ``:=`` that binds in the enclosing function."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, gast.NamedExpr):
            return True
        if isinstance(n, (gast.Lambda, gast.FunctionDef, gast.ClassDef)):
            continue
        push_children(n, stack)
    return False


class _AssertsAndCalls(lists.ListAppendTransformer, call_trees.CallTreeTransformer,
                       asserts.AssertTransformer, _RecordsExpressions):
    """Passes 5 and 6 in one walk (they rewrite disjoint nodes; asserts see converted calls).

    Scopes the converter keeps as they are (``ag_keep``: generators...) are not entered.
    """

    def _scope(self, node, visit, in_class_body: bool):
        if getattr(node, "ag_keep", False):
            return node
        saved, self._in_class_body = self._in_class_body, in_class_body
        self.functions.append(node)
        try:
            return visit(node)
        finally:
            self._in_class_body = saved
            self.functions.pop()

    def visit_FunctionDef(self, node):
        return self._scope(node, super().visit_FunctionDef, False)

    def visit_Lambda(self, node):
        return self._scope(node, self.generic_visit, False)

    def visit_ClassDef(self, node):
        return self._scope(node, super().visit_ClassDef, True)

    def visit_AsyncFunctionDef(self, node):
        return node


_REWRITTEN = (gast.IfExp, gast.BoolOp, gast.UnaryOp, gast.Compare)


def _rewrite_expressions(nodes: list) -> None:
    """Passes 8 and 9: each recorded node becomes its replacement, in place (the replacement
    holds the node's operands, which are converted already or later in place too)."""
    for node in nodes:
        if not isinstance(node, _REWRITTEN):
            continue  # recorded twice (a node shared by two parents), already rewritten
        if isinstance(node, gast.IfExp):
            new = conditional_expressions.replacement(node)
        else:
            new = logical_expressions.replacement(node)
        node.__class__ = new.__class__
        d = node.__dict__
        d.clear()
        d.update(new.__dict__)


def _run_passes(node, ctx):
    seen = ctx.namer.jumps  # (a pass whose construct is nowhere in the tree is skipped)
    if gast.Try in seen or gast.TryStar in seen:
        node = finally_jumps.transform(node, ctx)
    if gast.Break in seen or ctx.namer.has_loop_else:
        node = break_statements.transform(node, ctx)
    if gast.Continue in seen:
        node = continue_statements.transform(node, ctx)
    node = return_statements.transform(node, ctx)
    continue_statements.remove_unread_flags(ctx)
    node = _AssertsAndCalls(ctx, call_trees.shadowed_builtins(ctx)).visit(node)
    node = control_flow.transform(node, ctx)
    _rewrite_expressions(ctx.expressions)
    if ctx.generated_names:  # `locals()` leaves out the names the passes made
        names = sorted(ctx.namer.generated | {"ag__"})
        for tuple_node in ctx.generated_names:
            tuple_node.elts = [gast.Constant(n, None) for n in names]
    return node


@dataclass(frozen=True)
class ConvertedSource:
    """A converted function as a gast ``FunctionDef`` (user line numbers) and its source."""

    tree: gast.FunctionDef
    source: Source

    @property
    def name(self) -> str:
        return self.tree.name

    def code(self) -> str:
        return unparse(self.tree) + "\n"


def convert_function(fn, options: ConversionOptions = DEFAULT, *,
                     all_lines: bool = True) -> ConvertedSource:
    """Converts the Python function (or lambda) ``fn`` into a new function's tree.

    ``all_lines=False``: only the text is wanted (``to_code``), so the statements that have
    no user line yet are not given their parent's.
    """
    source = parse_function(fn)
    return convert_tree(source.node, source, getattr(fn, "__globals__", {}), options,
                        all_lines=all_lines)


def convert_tree(node, source: Source, globals_: dict,
                 options: ConversionOptions = DEFAULT, *, all_lines: bool = True
                 ) -> ConvertedSource:
    """Converts a parsed ``def`` (or lambda) node; ``globals_`` are the module's names."""
    ctx = Context(source, None, globals_, options=options)
    node = functions.transform(node, ctx)
    ctx.namer = Namer(node)
    if functions.check_and_fix(node, ctx, ctx.namer):
        ctx.namer = Namer(node)  # (private names renamed: the names in use changed)
    node = _run_passes(node, ctx)
    if all_lines:
        templates.fill_locations(node)
    return ConvertedSource(node, source)
