"""Checks that imports point down the layers: autograph -> runtime -> graph -> numpy.

Run as a script (``make lint``) or through tests/test_layers.py.
"""
from __future__ import annotations

import ast
import pathlib
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
FORBIDDEN = {
    "graph": {"runtime", "autograph"},
    "runtime": {"autograph"},
}


def violations() -> list[str]:
    found = []
    for layer, banned in FORBIDDEN.items():
        for path in sorted((ROOT / layer).rglob("*.py")):
            tree = ast.parse(path.read_text(), str(path))
            for node in ast.walk(tree):
                names = []
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                for name in names:
                    if name.split(".")[0] in banned:
                        found.append(f"{path.relative_to(ROOT)}:{node.lineno}: "
                                     f"{layer}/ must not import {name}")
    return found


if __name__ == "__main__":
    problems = violations()
    print("\n".join(problems) or "layers ok")
    sys.exit(1 if problems else 0)
