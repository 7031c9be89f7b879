"""Source text straight from a gast tree (no conversion to stdlib ast first).

The stdlib unparser dispatches on class names, which gast shares; it differs
only where it checks ``isinstance`` against stdlib classes or reads a field
gast spells differently (parameters, ``except ... as name``). Those few
methods are adapted here; f-strings are handed over as stdlib ast.
"""
from __future__ import annotations

import ast

import gast

from autograph.converter.gast_convert import gast_to_ast


class _GastUnparser(ast._Unparser):  # noqa: SLF001  (stable since Python 3.9)
    def visit_Name(self, node):
        self.write(node.id)
        if isinstance(node.ctx, gast.Param) and getattr(node, "annotation", None) is not None:
            self.write(": ")
            self.traverse(node.annotation)

    def visit_ExceptHandler(self, node):
        self.fill("except*" if self._in_try_star else "except")
        if node.type:
            self.write(" ")
            self.traverse(node.type)
        if node.name is not None:
            self.write(" as ")
            self.write(node.name if isinstance(node.name, str) else node.name.id)
        with self.block():
            self.traverse(node.body)

    def visit_If(self, node):
        self.fill("if ")
        self.traverse(node.test)
        with self.block():
            self.traverse(node.body)
        while node.orelse and len(node.orelse) == 1 and isinstance(node.orelse[0], (ast.If, gast.If)):
            node = node.orelse[0]
            self.fill("elif ")
            self.traverse(node.test)
            with self.block():
                self.traverse(node.body)
        if node.orelse:
            self.fill("else")
            with self.block():
                self.traverse(node.orelse)

    def visit_Subscript(self, node):
        self.set_precedence(ast._Precedence.ATOM, node.value)
        self.traverse(node.value)
        with self.delimit("[", "]"):
            if isinstance(node.slice, (ast.Tuple, gast.Tuple)) and node.slice.elts:
                self.items_view(self.traverse, node.slice.elts)
            else:
                self.traverse(node.slice)

    def get_raw_docstring(self, node):
        if not isinstance(node, (gast.AsyncFunctionDef, gast.FunctionDef, gast.ClassDef,
                                 gast.Module)) or not node.body:
            return None
        first = node.body[0]
        if isinstance(first, gast.Expr) and isinstance(first.value, gast.Constant) \
                and isinstance(first.value.value, str):
            return first.value
        return None

    def visit_JoinedStr(self, node):
        super().visit_JoinedStr(gast_to_ast(node))

    def visit_FormattedValue(self, node):
        super().visit_FormattedValue(gast_to_ast(node))

    def visit_arguments(self, node):
        def arg(name):
            if name is None:
                return None
            annotation = getattr(name, "annotation", None)
            return ast.arg(arg=name.id, annotation=None if annotation is None
                           else gast_to_ast(annotation))
        super().visit_arguments(ast.arguments(
            posonlyargs=[arg(a) for a in node.posonlyargs], args=[arg(a) for a in node.args],
            vararg=arg(node.vararg), kwonlyargs=[arg(a) for a in node.kwonlyargs],
            kw_defaults=node.kw_defaults, kwarg=arg(node.kwarg), defaults=node.defaults))

    def visit_AnnAssign(self, node):
        super().visit_AnnAssign(gast_to_ast(node))


def unparse(node) -> str:
    """The source of a gast tree, formatted as ``ast.unparse`` would format its ast twin."""
    return _GastUnparser().visit(node)
