"""What every converter shares: the conversion context and a base transformer.

Each converter is one ``Transformer`` subclass with a ``transform(node, ctx)``
entry point; reading one converter tells everything about one construct.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import gast

from autograph.converter.naming import Namer
from autograph.converter.parser import Source
from autograph.errors import ConversionError


@dataclass
class Context:
    """One conversion: the user's source, fresh names, and the function's globals."""

    source: Source
    namer: Namer
    globals: dict = field(default_factory=dict)
    flags: set = field(default_factory=set)  # generated jump flags (do_return, break_...)

    def origin_text(self, node) -> str:
        line = getattr(node, "lineno", None)
        if line is None:
            return self.source.filename
        return f"{self.source.filename}:{self.source.file_line(line)}"

    def error(self, node, message: str) -> ConversionError:
        """A ConversionError naming the user's file:line, function and source line."""
        line = getattr(node, "lineno", None)
        text = self.source.line_text(line) if line is not None else ""
        shown = f"\n    {text}" if text else ""
        return ConversionError(f"{self.origin_text(node)} in {self.source.function_name}: "
                               f"{message}{shown}")


class Transformer(gast.NodeTransformer):
    """A NodeTransformer that also visits the extra loop test attached to ``for`` nodes."""

    def __init__(self, ctx: Context):
        self.ctx = ctx

    def visit_For(self, node):
        extra = getattr(node, "ag_extra_test", None)
        if extra is not None:
            node.ag_extra_test = self.visit(extra)
        self.generic_visit(node)
        return node

    def visit_block(self, stmts: list) -> list:
        out = []
        for s in stmts:
            new = self.visit(s)
            if new is None:
                continue
            out.extend(new if isinstance(new, list) else [new])
        return out


def user_functions(tree) -> list:
    """Every function definition in the tree, outermost first (generated ones excluded)."""
    return [n for n in gast.walk(tree)
            if isinstance(n, gast.FunctionDef) and not getattr(n, "ag_generated", False)]
