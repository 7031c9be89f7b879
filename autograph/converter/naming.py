"""Fresh names for generated variables and functions that never clash with the user's."""
from __future__ import annotations

import gast


# Types of node attribute values that never hold a node (positions, identifiers, constants,
# the analyses' sets): the tree walks skip them with one set lookup, which keeps the two
# isinstance calls per value for the few lists and nodes.
LEAVES = frozenset({int, str, bool, float, complex, bytes, type(None), type(...), set,
                    frozenset})

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
        for v in node.__dict__.values():
            if type(v) in LEAVES:
                continue
            if isinstance(v, list):
                stack.extend([c for c in v if isinstance(c, gast.AST)])
            elif isinstance(v, gast.AST):
                stack.append(v)
    return False


def keeps_as_is(node) -> bool:
    """Nested scopes the converter leaves exactly as written: generators, coroutines and
    lambdas that yield (with everything inside them)."""
    if isinstance(node, gast.AsyncFunctionDef):
        return True
    return isinstance(node, (gast.FunctionDef, gast.Lambda)) and suspends(node)


class Namer:
    """Hands out ``base``, ``base_1``, ``base_2``... avoiding every name in the tree."""

    def __init__(self, tree):
        self.used: set[str] = set()
        self._next: dict[str, int] = {}
        self.bound: set[str] = set()  # names the code assigns (can shadow builtins)
        self.functions: list = []  # the user's functions to convert, outermost first
        self.has_delete = False
        self.has_walrus = False
        self.generated: set[str] = set()  # names handed out by new()
        stack = [(tree, False)]
        while stack:
            node, kept = stack.pop()
            if not kept and node is not tree and keeps_as_is(node):
                node.ag_keep = kept = True  # converting it would change what it does
            for v in node.__dict__.values():
                if type(v) in LEAVES:
                    continue
                if isinstance(v, list):
                    stack.extend([(c, kept) for c in v if isinstance(c, gast.AST)])
                elif isinstance(v, gast.AST):
                    stack.append((v, kept))
            if isinstance(node, gast.Name):
                self.used.add(node.id)
                if not isinstance(node.ctx, gast.Load):
                    self.bound.add(node.id)
            elif isinstance(node, (gast.FunctionDef, gast.ClassDef)):
                self.used.add(node.name)
                self.bound.add(node.name)
                if isinstance(node, gast.FunctionDef) and not kept:
                    self.functions.append(node)
            elif isinstance(node, gast.alias):
                self.used.add(node.asname or node.name.split(".")[0])
                self.bound.add(node.asname or node.name.split(".")[0])
            elif isinstance(node, gast.Delete):
                self.has_delete = True
            elif isinstance(node, gast.NamedExpr):
                self.has_walrus = True

        # Outermost first: a nested def is indented further than the def containing it.
        self.functions.sort(key=lambda f: (f.col_offset, f.lineno))

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

