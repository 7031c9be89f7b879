"""What every converter shares: the conversion context and a base transformer.

Each converter is one ``Transformer`` subclass with a ``transform(node, ctx)``
entry point; reading one converter tells everything about one construct.
"""
from __future__ import annotations

import ast
from dataclasses import dataclass, field

import gast

from autograph.converter.naming import BLOCKS, CHILDREN, CLAUSES, Namer
from autograph.converter.options import DEFAULT, ConversionOptions
from autograph.converter.parser import Source
from autograph.errors import ConversionError, UnsupportedConstructError


@dataclass
class Context:
    """One conversion: the user's source, fresh names, and the function's globals."""

    source: Source
    namer: Namer
    globals: dict = field(default_factory=dict)
    flags: set = field(default_factory=set)  # generated jump flags (do_return, break_...)
    continue_loops: list = field(default_factory=list)  # (loop, its continue_ flag, read?)
    expressions: list = field(default_factory=list)  # and/or/not, a if c else b: rewritten last
    generated_names: list = field(default_factory=list)  # tuples: ag__.locals_(names) (calls)
    options: ConversionOptions = DEFAULT

    def origin_text(self, node) -> str:
        line = getattr(node, "lineno", None)
        if line is None:
            return self.source.filename
        return f"{self.source.filename}:{self.source.file_line(line)}"

    def error(self, node, message: str, kind=UnsupportedConstructError) -> ConversionError:
        """A ConversionError naming the user's file:line, function and source line."""
        line = getattr(node, "lineno", None)
        text = self.source.line_text(line) if line is not None else ""
        shown = f"\n    {text}" if text else ""
        return kind(f"{self.origin_text(node)} in {self.source.function_name}: "
                    f"{message}{shown}")


_LEAVES = (gast.Name, gast.Constant, gast.expr_context, gast.operator, gast.unaryop,
           gast.cmpop, gast.boolop)
_LEAF_CLASSES = frozenset(c for c in vars(gast).values()
                          if isinstance(c, type) and issubclass(c, _LEAVES))


_SKIPPED: dict = {}


def _visitor(cls, node_cls):
    """``cls``'s ``visit_<node class>`` method, or None. (``ast.NodeVisitor.visit_Constant``
    only forwards to the deprecated ``visit_Num``/``visit_Str``..., which no converter has:
    it counts as none, so that constants are not entered.)"""
    method = getattr(cls, "visit_" + node_cls.__name__, None)
    return None if method is ast.NodeVisitor.visit_Constant else method


def _skipped(cls) -> frozenset:
    """The leaf classes not worth entering: all of them but Name/Constant when visited."""
    skip = _SKIPPED.get(cls)
    if skip is None:
        skip = _SKIPPED[cls] = _LEAF_CLASSES - {
            c for c in (gast.Name, gast.Constant) if _visitor(cls, c)}
    return skip


_METHODS: dict = {}


def _methods(cls) -> dict:
    """Node class -> ``cls``'s visit function, filled as classes are met: one table per
    transformer class, shared by its instances (each conversion makes new ones)."""
    table = _METHODS.get(cls)
    if table is None:
        table = _METHODS[cls] = {}
    return table


class Transformer(gast.NodeTransformer):
    """A NodeTransformer that also visits the extra loop test attached to ``for`` nodes
    (``ag_extra_test`` is in the node's ``__dict__``, which ``generic_visit`` walks).

    ``visit``/``generic_visit`` are hand-written (per-class method cache, only the fields
    that hold nodes, no descent into leaves): the stdlib versions dominate conversion time otherwise.
    """

    def __init__(self, ctx: Context):
        self.ctx = ctx
        self._methods = _methods(type(self))
        self._skip = _skipped(type(self))

    def visit(self, node):
        cls = node.__class__
        method = self._methods.get(cls)
        if method is None:  # (functions, not bound methods: a transformer is no cycle, so
            # that the trees it reaches are freed as soon as the conversion drops them)
            method = _visitor(type(self), cls) or type(self).generic_visit
            self._methods[cls] = method
        return method(self, node)

    def generic_visit(self, node):
        d = node.__dict__
        skip = self._skip
        for k in CHILDREN[node.__class__]:
            v = d.get(k)
            if v.__class__ is list:
                if not v or not isinstance(v[0], gast.AST):
                    continue
                new = []
                for item in v:
                    if item is None or item.__class__ in skip:  # (None: a `**mapping` key)
                        new.append(item)
                        continue
                    item = self.visit(item)
                    if item is None:
                        continue
                    if item.__class__ is list:
                        new.extend(item)
                    else:
                        new.append(item)
                d[k] = new
            elif v is not None and v.__class__ not in skip:
                d[k] = self.visit(v)
        return node

    def visit_block(self, stmts: list) -> list:
        out = []
        for s in stmts:
            new = self.visit(s)
            if new is None:
                continue
            if new.__class__ is list:
                out.extend(new)
            else:
                out.append(new)
        return out


def user_functions(tree, ctx: Context | None = None) -> list:
    """Every function definition of the user's in the tree, outermost first."""
    if ctx is not None and ctx.namer is not None:
        return ctx.namer.functions
    return [n for n in gast.walk(tree)
            if isinstance(n, gast.FunctionDef) and not getattr(n, "ag_generated", False)]


class StatementTransformer(Transformer):
    """A transformer of statements only: it never descends into expressions."""

    def generic_visit(self, node):
        d = node.__dict__
        for f in BLOCKS.get(node.__class__, ()):
            block = d.get(f)
            if not block:
                continue
            if f in CLAUSES:  # the handlers of a `try`, the cases of a `match`
                for h in block:
                    h.body = self.visit_block(h.body)
            elif isinstance(block[0], gast.stmt):
                d[f] = self.visit_block(block)
        return node
