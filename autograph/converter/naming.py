"""Fresh names for generated variables and functions that never clash with the user's."""
from __future__ import annotations

import ast
import typing

import gast


# Types of node attribute values that never hold a node (positions, identifiers, constants,
# the analyses' sets) or are field-less markers (Load, Add, Not...): the tree walks skip them
# with one set lookup, which keeps the two isinstance calls per value for the few lists and
# nodes.
_MARKERS = (gast.expr_context, gast.operator, gast.unaryop, gast.cmpop, gast.boolop)
LEAVES = frozenset({int, str, bool, float, complex, bytes, type(None), type(...), set,
                    frozenset} | {c for c in vars(gast).values()
                                  if isinstance(c, type) and issubclass(c, _MARKERS)})



def _child_fields(cls) -> tuple:
    """The fields of a gast class that may hold nodes, in field order: not identifiers,
    numbers, constants or markers (from gast's field types). ``ExceptHandler.name`` holds a
    ``Name`` in gast; loops carry what the passes attach (``ag_extra_test``, the loop's
    options), which the walks see as they see the loop's test."""
    types = getattr(cls, "_field_types", None)
    if types is None:
        return tuple(cls._fields)
    out = []
    for f in cls._fields:
        kinds = typing.get_args(types.get(f)) or (types.get(f),)
        if (cls is gast.ExceptHandler and f == "name") or any(
                isinstance(k, type) and issubclass(k, (ast.AST, gast.AST))
                and not issubclass(k, _MARKER_KINDS) for k in kinds):
            out.append(f)
    if cls is gast.For:
        out.append("ag_extra_test")
    if cls is gast.For or cls is gast.While:
        out.append("ag_loop_options")
    return tuple(out)


_MARKER_KINDS = _MARKERS + (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)


# Node class -> the fields that may hold nodes: the walks read these only, not every
# attribute (a Name has eight: its identifier, context, annotation and location). Filled
# once for every class (a plain dict: a subclass with __missing__ is slower to read in every
# walk); stdlib ast nodes have none for the walks.
CHILDREN = {c: () for c in vars(ast).values() if isinstance(c, type) and issubclass(c, ast.AST)}
CHILDREN.update({c: _child_fields(c) for c in vars(gast).values()
                 if isinstance(c, type) and issubclass(c, gast.AST)})


def push_children(node, stack: list) -> None:
    """Appends ``node``'s child nodes to ``stack`` in field order: the one step every walk
    of the converter's analyses takes (a plain loop: it runs for every node of a tree)."""
    d = node.__dict__
    for f in CHILDREN[node.__class__]:
        v = d.get(f)
        if v.__class__ is list:
            for c in v:
                if c is not None:  # (`**mapping` in a dict display, a missing default)
                    stack.append(c)
        elif v is not None:
            stack.append(v)


# Statement class -> the fields holding its nested blocks: the statement walks look up only
# the fields a node has (most statements have none). A ``match``'s blocks are its cases and
# a case's block its body, as a ``try``'s are its handlers and a handler's its body.
BLOCKS = {c: tuple(f for f in ("body", "orelse", "finalbody", "handlers", "cases")
                   if f in c._fields)
          for c in vars(gast).values()
          if isinstance(c, type) and issubclass(c, (gast.stmt, gast.excepthandler,
                                                    gast.match_case))}
# The fields holding clauses (handlers, cases) rather than statements.
CLAUSES = ("handlers", "cases")
TRY = (gast.Try, gast.TryStar)  # (`except*` blocks cannot jump; the rest is a `try`'s)

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
           gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
_SUSPENDS = (gast.Yield, gast.YieldFrom, gast.Await)


def suspends(scope) -> bool:
    """Whether the function or lambda ``scope`` itself (not a scope nested in it) yields or
    awaits: its body runs piecemeal, so it cannot become nested functions and calls."""
    stack = list(scope.body) if isinstance(scope.body, list) else [scope.body]
    while stack:
        node = stack.pop()
        if isinstance(node, _SUSPENDS):
            return True
        if isinstance(node, _SCOPES):
            continue
        push_children(node, stack)
    return False


def keeps_as_is(node) -> bool:
    """Nested scopes the converter leaves exactly as written: generators, coroutines and
    lambdas that yield (with everything inside them)."""
    if isinstance(node, gast.AsyncFunctionDef):
        return True
    return isinstance(node, (gast.FunctionDef, gast.Lambda)) and suspends(node)


_SCOPE_NODES = frozenset({gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef})
# (passes that lower them can skip)
_JUMPS = frozenset({gast.Try, gast.TryStar, gast.Break, gast.Continue})
_NAMER_CASES = frozenset({gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
                          gast.alias, gast.Delete, gast.NamedExpr, gast.While, gast.For,
                          gast.Global, gast.Nonlocal, gast.Yield, gast.YieldFrom,
                          gast.Return, gast.Subscript}) | _JUMPS


def is_private(name: str) -> bool:
    """``__x``: a name Python mangles inside a class (not ``__x__``)."""
    return name[:2] == "__" and name[-2:] != "__" and "." not in name


class Namer:
    """Hands out ``base``, ``base_1``, ``base_2``... avoiding every name in the tree.

    Its one walk of the tree also records what later passes ask of the whole tree (the
    user's functions, ``del``, ``:=``, jumps, loop ``else``, nested scopes, declarations):
    a pass or an analysis whose construct is absent is skipped instead of searching for it.
    """

    def __init__(self, tree):
        self.used: set[str] = set()
        self._next: dict[str, int] = {}
        self.bound: set[str] = set()  # names the code assigns (can shadow builtins)
        self.functions: list = []  # the user's functions to convert, outermost first
        self.has_walrus = False
        self.jumps: set = set()  # which of Try, Break, Continue the tree holds
        self.has_loop_else = False
        self.has_scopes = False  # a def, lambda or class inside the tree (set by passes too)
        self.has_declarations = False  # a `global` or `nonlocal` statement
        self.has_yield = False  # a `yield` anywhere (functions.check_and_fix looks closer)
        self.has_private = False  # a private name (`__x`) anywhere: in a class, it is mangled
        self.returns = 0  # how many `return` statements the tree holds (outside kept scopes)
        self.has_composite_targets = False  # `a.b = ...`, `a[i] += ...`, `del a.b`...
        self.generated: set[str] = set()  # names handed out by new()
        for scope in self._walk(tree, tree, False):
            self._walk(scope, tree, True)
        if not self.has_private:  # (names: used holds every identifier but attributes')
            self.has_private = any(n[:2] == "__" and is_private(n) for n in self.used)
        # Outermost first: a nested def is indented further than the def containing it.
        self.functions.sort(key=lambda f: (f.col_offset, f.lineno))

    def _walk(self, root, tree, kept: bool) -> list:
        """Records what ``root``'s subtree holds. ``kept``: the subtree is a scope the
        converter keeps as written (its defs are not the user's functions to convert).
        Returns the scopes to keep found on the way (not entered: walked as kept after)."""
        used, bound, functions = self.used, self.bound, self.functions
        to_keep = []
        stack = [root]
        while stack:
            node = stack.pop()
            cls = node.__class__
            if cls is gast.Name:
                used.add(node.id)
                if node.ctx.__class__ is not gast.Load:
                    bound.add(node.id)
                if getattr(node, "annotation", None) is None:  # (a parameter's annotation)
                    continue
            elif cls is gast.Constant:
                continue
            elif cls is gast.Attribute:
                if node.attr[:2] == "__" and is_private(node.attr):
                    self.has_private = True
                if node.ctx.__class__ is not gast.Load:
                    self.has_composite_targets = True
            elif cls in _NAMER_CASES:
                if cls is gast.Subscript:
                    if node.ctx.__class__ is not gast.Load:
                        self.has_composite_targets = True
                elif cls in _SCOPE_NODES and node is not tree:
                    self.has_scopes = True
                    if not kept and keeps_as_is(node):
                        node.ag_keep = True  # converting it would change what it does
                        to_keep.append(node)
                        continue
                if cls is gast.FunctionDef or cls is gast.ClassDef:
                    used.add(node.name)
                    bound.add(node.name)
                    if cls is gast.FunctionDef and not kept:
                        functions.append(node)
                elif cls is gast.alias:
                    used.add(node.asname or node.name.split(".")[0])
                    bound.add(node.asname or node.name.split(".")[0])
                elif cls is gast.NamedExpr:
                    self.has_walrus = True
                elif cls is gast.Return:
                    if not kept:
                        self.returns += 1
                elif cls in _JUMPS:
                    self.jumps.add(cls)
                elif cls is gast.AsyncFunctionDef:
                    if is_private(node.name):
                        self.has_private = True
                elif cls is gast.Global or cls is gast.Nonlocal:
                    self.has_declarations = True
                    if any(is_private(n) for n in node.names):
                        self.has_private = True
                elif cls is gast.Yield or cls is gast.YieldFrom:
                    self.has_yield = True
                elif (cls is gast.While or cls is gast.For) and node.orelse:
                    self.has_loop_else = True
            d = node.__dict__
            for f in CHILDREN[cls]:
                v = d.get(f)
                if v.__class__ is list:
                    for c in v:
                        if c is not None:
                            stack.append(c)
                elif v is not None:
                    stack.append(v)
        return to_keep

    def new(self, base: str) -> str:
        i = self._next.get(base, 0)  # names of a base are handed out in order: resume there
        name = base if i == 0 else f"{base}_{i}"
        while name in self.used:
            i += 1
            name = f"{base}_{i}"
        self._next[base] = i + 1
        self.used.add(name)
        self.generated.add(name)
        return name

