"""The conversion pipeline: parse → one converter per construct, in a fixed order → tree.

The order matters and is fixed:

1. ``functions``: name ``tf__f``, no decorators, lambda → def, generator check.
2. ``break_statements``, 3. ``continue_statements``, 4. ``return_statements``:
   jumps become flag variables (later passes see structured code only).
5. ``asserts``, 6. ``call_trees``: statements and calls that become ``ag__`` calls.
7. ``control_flow``: ``if``/``while``/``for`` (with dataflow analysis of the
   code as it is now, and ``ag__.ld`` on maybe-unassigned loads).
8. ``conditional_expressions``, 9. ``logical_expressions``: expression-level
   rewrites, last, so that the analyses see plain expressions.
"""
from __future__ import annotations

from dataclasses import dataclass

import gast

from autograph.converter import (asserts, break_statements, call_trees,
                                 conditional_expressions, continue_statements, control_flow,
                                 functions, logical_expressions, return_statements, templates)
from autograph.converter.naming import Namer
from autograph.converter.parser import Source, parse_function
from autograph.converter.transformer import Context
from autograph.converter.unparse import unparse

PASSES = (break_statements, continue_statements, return_statements, asserts, call_trees,
          control_flow, conditional_expressions, logical_expressions)


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


def convert_function(fn) -> ConvertedSource:
    """Converts the Python function (or lambda) ``fn`` into a new function's tree."""
    source = parse_function(fn)
    node = source.node
    ctx = Context(source, None, getattr(fn, "__globals__", {}))
    node = functions.transform(node, ctx)
    ctx.namer = Namer(node)
    for converter in PASSES:
        node = converter.transform(node, ctx)
    templates.fill_locations(node)
    return ConvertedSource(node, source)
