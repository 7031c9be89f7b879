"""Fresh names for generated variables and functions that never clash with the user's."""
from __future__ import annotations

import gast


class Namer:
    """Hands out ``base``, ``base_1``, ``base_2``... avoiding every name in the tree."""

    def __init__(self, tree):
        self.used: set[str] = set()
        for node in gast.walk(tree):
            if isinstance(node, gast.Name):
                self.used.add(node.id)
            elif isinstance(node, (gast.FunctionDef, gast.ClassDef)):
                self.used.add(node.name)
            elif isinstance(node, gast.alias):
                self.used.add(node.asname or node.name.split(".")[0])

    def new(self, base: str) -> str:
        name, i = base, 0
        while name in self.used:
            i += 1
            name = f"{base}_{i}"
        self.used.add(name)
        return name
