"""Source text straight from a gast tree (no conversion to stdlib ast first).

The stdlib unparser dispatches on class names, which gast shares; it differs
only where it checks ``isinstance`` against stdlib classes or reads a field
gast spells differently (parameters, ``except ... as name``). Those few
methods are adapted here; f-strings are handed over as stdlib ast. The nodes
generated code is made of (``def``, ``nonlocal``, assignments, calls, tuples,
comparisons, names, constants) are written directly, without the stdlib's
generic helpers and context managers: that halves the time of an unparse.
``tests/autograph/test_gast_convert.py`` checks the text equals ``ast.unparse``'s
on every file of the project.
"""
from __future__ import annotations

import ast

import gast

from autograph.converter.gast_convert import gast_to_ast


class _GastUnparser(ast._Unparser):  # noqa: SLF001  (stable since Python 3.9)
    def visit_Name(self, node):
        self._source.append(node.id)
        if node.ctx.__class__ is gast.Param and getattr(node, "annotation", None) is not None:
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
            self._statement(node)  # an `elif` is a statement of its own line
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
        """The stdlib's, reading gast parameters (``Name`` nodes) directly."""
        all_args = node.posonlyargs + node.args
        if not all_args and node.vararg is None and node.kwarg is None and not node.kwonlyargs:
            return  # most generated functions take nothing
        first = True
        defaults = [None] * (len(all_args) - len(node.defaults)) + node.defaults
        n_posonly = len(node.posonlyargs)
        for index, (a, d) in enumerate(zip(all_args, defaults), 1):
            if first:
                first = False
            else:
                self.write(", ")
            self.visit_Name(a)
            if d:
                self.write("=")
                self.traverse(d)
            if index == n_posonly:
                self.write(", /")
        if node.vararg or node.kwonlyargs:
            if first:
                first = False
            else:
                self.write(", ")
            self.write("*")
            if node.vararg:
                self.visit_Name(node.vararg)
        for a, d in zip(node.kwonlyargs, node.kw_defaults):
            self.write(", ")
            self.visit_Name(a)
            if d:
                self.write("=")
                self.traverse(d)
        if node.kwarg:
            if not first:
                self.write(", ")
            self.write("**")
            self.visit_Name(node.kwarg)

    def visit_AnnAssign(self, node):
        super().visit_AnnAssign(gast_to_ast(node))

    def _statement(self, node) -> None:
        """Called before a statement's first line is written (see ``_LineRecorder``)."""

    # -- speed: the nodes generated code is made of, written directly (same text as the
    # stdlib's methods: these skip its generic helpers, context managers and lambdas)

    def visit_FunctionDef(self, node):
        if node.decorator_list or node.returns is not None or getattr(node, "type_params", None) \
                or node.type_comment is not None or self._type_ignores:
            return super().visit_FunctionDef(node)
        source = self._source
        if source:
            source.append("\n")
        self.fill("def " + node.name)
        source.append("(")
        self.visit_arguments(node.args)
        source.append("):")
        self._indent += 1
        first = node.body[0]
        if first.__class__ is _EXPR and first.value.__class__ is _CONSTANT \
                and isinstance(first.value.value, str):
            self._write_docstring_and_traverse_body(node)
        else:
            self.traverse(node.body)
        self._indent -= 1

    def fill(self, text=""):
        source = self._source
        if source:
            source.append("\n")
        source.append("    " * self._indent + text)

    def visit_Compare(self, node):
        parens = self._precedences.get(node, _TEST) > _CMP
        source = self._source
        if parens:
            source.append("(")
        precedences = self._precedences
        precedences[node.left] = _CMP_NEXT
        for e in node.comparators:
            precedences[e] = _CMP_NEXT
        self.traverse(node.left)
        for o, e in zip(node.ops, node.comparators):
            source.append(_CMPOPS[o.__class__])
            self.traverse(e)
        if parens:
            source.append(")")

    def visit_Nonlocal(self, node):
        self.fill("nonlocal " + ", ".join(node.names))

    def visit_Global(self, node):
        self.fill("global " + ", ".join(node.names))

    def visit_Expr(self, node):
        self.fill()
        self._precedences[node.value] = _YIELD
        self.traverse(node.value)

    def visit_Return(self, node):
        if node.value is None:
            return self.fill("return")
        self.fill("return ")
        self.traverse(node.value)

    def visit_Assign(self, node):
        if node.type_comment is not None or self._type_ignores:
            return super().visit_Assign(node)
        self.fill()
        write = self._source.append
        for target in node.targets:
            self._precedences[target] = _TUPLE
            self.traverse(target)
            write(" = ")
        self.traverse(node.value)

    def visit_Constant(self, node):
        cls = node.value.__class__
        if cls in _PLAIN_CONSTANTS and node.kind is None \
                and not (cls is str and self._avoid_backslashes):  # (inside f-strings)
            self._source.append(repr(node.value))
        else:
            super().visit_Constant(node)

    def visit_Attribute(self, node):
        value = node.value
        self._precedences[value] = _ATOM
        self.traverse(value)
        if isinstance(value, (gast.Constant, ast.Constant)) and isinstance(value.value, int):
            self._source.append(" ")
        self._source.append("." + node.attr)

    def visit_Call(self, node):
        self._precedences[node.func] = _ATOM
        self.traverse(node.func)
        source = self._source
        source.append("(")
        comma = False
        for e in node.args:
            if comma:
                source.append(", ")
            comma = True
            self.traverse(e)
        for e in node.keywords:
            if comma:
                source.append(", ")
            comma = True
            self.traverse(e)
        source.append(")")

    def visit_Tuple(self, node):
        elts = node.elts
        parens = not elts or self._precedences.get(node, _TEST) > _TUPLE
        source = self._source
        if parens:
            source.append("(")
        if len(elts) == 1:
            self.traverse(elts[0])
            source.append(",")
        else:
            comma = False
            for e in elts:
                if comma:
                    source.append(", ")
                comma = True
                self.traverse(e)
        if parens:
            source.append(")")

    # -- speed: class-level dispatch, and plain objects instead of generator context managers

    def traverse(self, node):
        if node.__class__ is list:
            for item in node:
                if item.__class__ is list:
                    self.traverse(item)
                else:
                    (_DISPATCH.get(item.__class__) or _method(item.__class__))(self, item)
            return
        (_DISPATCH.get(node.__class__) or _method(node.__class__))(self, node)

    def block(self, *, extra=None):
        return _Block(self, extra)

    def delimit(self, start, end):
        return _Delimit(self, start, end)

    def delimit_if(self, start, end, condition):
        return _Delimit(self, start, end) if condition else _NOTHING

    def write(self, *text):
        self._source.extend(text)


_DISPATCH: dict = {}  # node class -> visit method (subclasses add no visit methods)


def _method(cls):
    method = _DISPATCH[cls] = getattr(_GastUnparser, "visit_" + cls.__name__,
                                      _GastUnparser.generic_visit)
    return method


# The stdlib's precedences and comparison operators, read once (an enum member lookup costs
# a descriptor call); operators keyed by gast and stdlib class (f-strings are stdlib nodes).
_P = ast._Precedence  # noqa: SLF001
_ATOM, _TUPLE, _TEST, _YIELD, _CMP, _CMP_NEXT = (_P.ATOM, _P.TUPLE, _P.TEST, _P.YIELD, _P.CMP,
                                                 _P.CMP.next())
_CMPOPS = {getattr(module, name): f" {op} "
           for name, op in ast._Unparser.cmpops.items()  # noqa: SLF001
           for module in (gast, ast)}
_PLAIN_CONSTANTS = frozenset({str, int, bool, type(None)})
_EXPR, _CONSTANT = gast.Expr, gast.Constant  # (a def's docstring, checked inline)


class _Block:
    """``with self.block():`` — ``:``, then one more level of indentation inside."""

    __slots__ = ("u", "extra")

    def __init__(self, u, extra):
        self.u, self.extra = u, extra

    def __enter__(self):
        self.u._source.append(":")
        if self.extra:
            self.u._source.append(self.extra)
        self.u._indent += 1

    def __exit__(self, *exc):
        self.u._indent -= 1


class _Delimit:
    __slots__ = ("u", "end")

    def __init__(self, u, start, end):
        u._source.append(start)
        self.u, self.end = u, end

    def __enter__(self):
        return None

    def __exit__(self, *exc):
        self.u._source.append(self.end)


class _Nothing:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return None


_NOTHING = _Nothing()


class _LineRecorder(_GastUnparser):
    """Also records the line where each statement starts, so that compiling the text needs no
    second parse to find out which generated line came from which statement.

    While writing, a statement's start is only the index of its first chunk of text; lines
    are counted once at the end (counting each chunk's newlines as it is written cost a
    third of the unparse)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)  # (f-strings make inner unparsers with a keyword)
        self.lines: list = []  # (line, statement), in order
        self._starts: list = []  # (index in _source of the statement's first chunk, statement)
        self._pending = None

    def _visit_and_count(self, node):
        text = super().visit(node)
        source, line, done = self._source, 1, 0
        for index, stmt in self._starts:
            line += "".join(source[done:index]).count("\n")
            done = index
            self.lines.append((line, stmt))
        return text

    def visit(self, node):
        if isinstance(node, gast.stmt):
            self._pending = node
        return self._visit_and_count(node)

    def traverse(self, node):
        if node.__class__ is list:  # (statements are only ever traversed in their blocks)
            for item in node:
                if isinstance(item, gast.stmt):
                    self._pending = item
                self.traverse(item)
            return
        (_DISPATCH.get(node.__class__) or _method(node.__class__))(self, node)

    def _statement(self, node) -> None:
        self._pending = node

    def _write_docstring_and_traverse_body(self, node):
        if self.get_raw_docstring(node) is not None:
            self._pending = node.body[0]  # written without traverse
        super()._write_docstring_and_traverse_body(node)

    def fill(self, text=""):
        source = self._source
        if source:
            source.append("\n")
        if self._pending is not None and not text.startswith("@"):  # (decorators: not yet)
            self._starts.append((len(source), self._pending))
            self._pending = None
        source.append("    " * self._indent + text)


def unparse(node) -> str:
    """The source of a gast tree, formatted as ``ast.unparse`` would format its ast twin."""
    return _GastUnparser().visit(node)


def unparse_with_lines(node, indent: int = 0) -> tuple[str, list]:
    """``unparse(node)`` and [(line in that text, statement node)] for every statement;
    ``indent`` levels of indentation before every line (to nest it without a second pass)."""
    recorder = _LineRecorder()
    recorder._indent = indent
    return recorder.visit(node), recorder.lines
