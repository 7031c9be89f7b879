"""Calls ``f(x, k=v)`` → ``ag__.converted(f)(x, k=v)``.

The arguments stay as written and the call stays in the user's frame. ``converted``
decides at run time: user functions are converted too,
library functions run as they are, and some builtins get tensor-aware
versions. Calls of builtins that need no conversion (``print``, ``str``,
exception classes...) stay plain calls, so converted code reads like the
user's. ``print`` stays Python's print: it runs while tracing, as in
TensorFlow.
"""
from __future__ import annotations

import builtins

import gast

from autograph.converter import templates
from autograph.converter.options import Feature
from autograph.converter.transformer import Transformer

PLAIN_BUILTINS = frozenset(
    ["print", "repr", "str", "hasattr", "getattr", "setattr", "delattr", "id", "type",
     "callable", "iter", "next", "list", "tuple", "dict", "set", "frozenset",
     "reversed", "divmod", "round", "hash", "vars", "dir", "format", "chr", "ord", "bytes",
     "object", "super", "isinstance", "issubclass", "min", "max", "sum", "any", "all", "bool", "slice", "property", "staticmethod", "classmethod", "open", "globals",
     "locals", "complex", "bytearray", "memoryview", "pow", "ascii", "bin",
     "hex", "oct", "input"]
    + [n for n, v in vars(builtins).items() if isinstance(v, type) and issubclass(v, BaseException)])


class CallTreeTransformer(Transformer):
    def __init__(self, ctx, shadowed: set[str]):
        super().__init__(ctx)
        self.shadowed = shadowed

    def _plain(self, func) -> bool:
        if getattr(func, "attr", getattr(func, "id", None)) == "set_loop_options":
            return True  # a directive: control_flow moves it into the loop's options
        if isinstance(func, gast.Name):
            if func.id == "print" and self.ctx.options.uses(Feature.BUILTIN_FUNCTIONS):
                return False  # print of tensors prints when the graph runs
            return func.id in PLAIN_BUILTINS and func.id not in self.shadowed
        if isinstance(func, gast.Attribute) and isinstance(func.value, gast.Name):
            return func.value.id == "ag__"
        return False

    def visit_Call(self, node):
        self.generic_visit(node)
        if self._plain(node.func) or _in_a_namespace(node):
            return node
        node.func = templates.replace_as_expression("ag__.converted(func)", func=node.func)
        return node


def _in_a_namespace(node) -> bool:
    """``eval``/``exec`` given their namespace: plain calls. Without one they see the caller's
    locals, which converted control flow spreads over its bodies: ``frames.eval_`` gathers
    them (``eval``/``exec`` are then converted calls: shadowing names are left to run time)."""
    return (isinstance(node.func, gast.Name) and node.func.id in ("eval", "exec")
            and (len(node.args) != 1 or bool(node.keywords)))


def shadowed_builtins(ctx) -> set[str]:
    """Builtin names the function (or its module) rebinds: calls to them are converted."""
    return {n for n in PLAIN_BUILTINS if n in ctx.namer.bound or n in ctx.globals}


def transform(tree, ctx):
    return CallTreeTransformer(ctx, shadowed_builtins(ctx)).visit(tree)
