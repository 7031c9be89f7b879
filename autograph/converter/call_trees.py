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

import ast
import builtins
import types

import gast

from autograph.converter import templates
from autograph.converter.gast_convert import gast_to_ast
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
        self.functions: list = []  # the defs, lambdas and classes around the node visited
        self._orders: dict = {}  # id(def) -> the order of its locals()

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
        if _reads_the_scope(node):
            node.ag_reads_locals = True  # (dataflow: every local is live at this call)
            twin = SCOPE_TWINS.get(node.func.id)
            in_class_body = self.functions and isinstance(self.functions[-1], gast.ClassDef)
            if twin is not None and node.func.id not in self.shadowed and not in_class_body:
                return self._scope_twin(node, twin)
        if self._plain(node.func) or _in_a_namespace(node):
            return node
        node.func = templates.replace_as_expression("ag__.converted(func)", func=node.func)
        return node

    def _scope_twin(self, node, twin: str):
        """``locals()`` → ``ag__.locals_(generated, order)``: the function's locals as
        written, without the converter's own names, which the first tuple lists once the
        passes that make them are done (``conversion._run_passes``), in their order as
        written."""
        names = gast.Tuple(elts=[], ctx=gast.Load())
        self.ctx.generated_names.append(names)
        node.func = gast.Attribute(value=gast.Name("ag__", gast.Load(), None, None),
                                   attr=twin, ctx=gast.Load())
        node.args = [names]
        if twin == "locals_" and self.functions:
            fn = self.functions[-1]
            order = self._orders.get(id(fn))
            if order is None:
                order = self._orders[id(fn)] = _locals_order(fn)
            if order:
                node.args.append(gast.Tuple(elts=[gast.Constant(n, None) for n in order],
                                            ctx=gast.Load()))
        return node


def _locals_order(fn) -> list[str]:
    """The order of ``locals()`` in ``fn`` as written, which converted code, whose bodies
    assign placeholders first, does not keep: CPython's, from ``fn`` compiled on its own
    (parameters, locals as they first appear, cells; converted calls inside compile alike)."""
    if not isinstance(fn, gast.FunctionDef):
        return []
    try:
        module = ast.fix_missing_locations(ast.Module([gast_to_ast(fn)], []))
        code = next(c for c in compile(module, "<locals>", "exec").co_consts
                    if isinstance(c, types.CodeType))
    except (SyntaxError, ValueError, TypeError, StopIteration):
        return []
    return list(code.co_varnames + code.co_cellvars)


# Calls that read the caller's namespace: with no arguments (``locals()``), they see the
# locals of the function as written, which converted control flow spreads over its bodies.
SCOPE_TWINS = {"locals": "locals_", "vars": "locals_", "dir": "dir_"}


def _reads_the_scope(node) -> bool:
    """``locals()``, ``vars()``, ``dir()``, or ``eval``/``exec`` without a namespace."""
    func = node.func
    if not isinstance(func, gast.Name) or node.keywords:
        return False
    if func.id in SCOPE_TWINS:
        return not node.args
    return func.id in ("eval", "exec") and len(node.args) == 1


def _in_a_namespace(node) -> bool:
    """``eval``/``exec`` given their namespace: plain calls. Without one they see the caller's
    locals, which converted control flow spreads over its bodies: ``frames.eval_`` gathers
    them (``eval``/``exec`` are then converted calls: shadowing names are left to run time)."""
    return (isinstance(node.func, gast.Name) and node.func.id in ("eval", "exec")
            and (len(node.args) != 1 or bool(node.keywords)))


def shadowed_builtins(ctx) -> set[str]:
    """Builtin names the function (or its module) rebinds: calls to them are converted.
    (Set operations: they test the smaller side's names in C, not each builtin in Python.)"""
    return (PLAIN_BUILTINS & ctx.namer.bound) | (ctx.globals.keys() & PLAIN_BUILTINS)


def transform(tree, ctx):
    return CallTreeTransformer(ctx, shadowed_builtins(ctx)).visit(tree)
