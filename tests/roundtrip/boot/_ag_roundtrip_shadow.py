"""Makes imports of one module (and its submodules) load a copy of it from a directory.

Shared by the round-trip runner (``../_unittest_runner.py``) and by
``sitecustomize.py`` here, which applies the same shadowing in Python
subprocesses that the tests start (``python -m json.tool``), so they see
the copy too. Standard library only.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import json
import os
import sys

ENV = "AUTOGRAPH_ROUNDTRIP_SHADOW"  # {"module", "root", "converted"} as JSON, for subprocesses


class ShadowFinder(importlib.abc.MetaPathFinder):
    """Finds ``module`` and ``module.*`` in ``root`` (the copy), before any other finder.

    ``root`` holds ``textwrap.py`` for ``textwrap``, ``json/`` for ``json``,
    ``parse.py`` for ``urllib.parse`` (the parent package stays the stdlib's).
    """

    def __init__(self, module: str, root: str, prepare=None):
        self.module = module
        self.root = root
        self.base = os.path.join(root, module.rpartition(".")[2])
        self.prepare = prepare  # run once, before the copy is first found
        self.preparing = False

    def find_spec(self, fullname, path=None, target=None):
        if fullname != self.module and not fullname.startswith(self.module + "."):
            return None
        if self.preparing:
            return None  # what ``prepare`` imports gets the stdlib module
        if self.prepare is not None:
            self.preparing = True
            try:
                self.prepare()
            finally:
                self.prepare, self.preparing = None, False
            for name in module_names(self.module):  # the stdlib's, imported by prepare
                del sys.modules[name]
        rel = fullname[len(self.module):].lstrip(".")
        stem = os.path.join(self.base, *rel.split(".")) if rel else self.base
        init = os.path.join(stem, "__init__.py")
        if os.path.isfile(init):
            return importlib.util.spec_from_file_location(
                fullname, init, submodule_search_locations=[stem])
        if os.path.isfile(stem + ".py"):
            return importlib.util.spec_from_file_location(fullname, stem + ".py")
        return None  # e.g. a C submodule: the normal finders


def module_names(module: str) -> list[str]:
    return [name for name in sys.modules if name == module or name.startswith(module + ".")]


def import_runtime() -> None:
    """Imports what a converted module imports (autograph's runtime, numpy).

    Done before the copy is loaded, with the stdlib's modules, so that a
    converted ``textwrap`` (which numpy uses) does not import itself
    half-initialized.
    """
    import autograph.converted_module  # noqa: F401
    import autograph.operators  # noqa: F401


def install(module: str, root: str, lazy: bool = False,
            converted: bool = True) -> ShadowFinder:
    """From now on ``import module`` loads the copy in ``root``; forgets loaded originals.

    The runtime is imported now, or with ``lazy`` when a ``converted`` copy
    is first imported (a subprocess that never imports it does not pay for
    numpy).
    """
    if not lazy:
        import_runtime()
    root = os.path.abspath(root)
    while root in sys.path:
        sys.path.remove(root)
    for name in module_names(module):
        del sys.modules[name]
    finder = ShadowFinder(module, root, prepare=import_runtime if lazy and converted else None)
    sys.meta_path.insert(0, finder)
    sys.path_importer_cache.clear()
    importlib.invalidate_caches()
    return finder


def environment_value(module: str, root: str, converted: bool) -> str:
    return json.dumps({"module": module, "root": root, "converted": converted})


def install_from_environment() -> None:
    spec = os.environ.get(ENV)
    if spec:
        spec = json.loads(spec)
        install(spec["module"], spec["root"], lazy=True, converted=spec["converted"])
