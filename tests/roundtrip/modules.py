"""The stdlib modules ``test_stdlib_roundtrip.py`` converts and tests in the project's suite.

Chosen for what the converter has to get right — loops with break/else,
branches, try/except/else/finally, generators, closures, classes, recursion,
``with`` — and for unit tests that take a second or two. Each line says what
the module exercises. ``python -m tests.roundtrip.run MODULE...`` runs any
other module by hand.
"""
CI_MODULES = [
    "textwrap",      # regex-driven loops over chunks, a class with many branches
    "shlex",         # a character state machine in one while loop, an iterator class
    "difflib",       # nested loops, generators, classes, default arguments, recursion
    "heapq",         # index loops, generators (merge), the pure-Python twin of _heapq
    "getopt",        # while loops, recursion, try/except/else
    "fractions",     # numeric classes, operator fallbacks, many early returns
    "configparser",  # classes, try/except, generators, closures (343 tests)
    "ipaddress",     # classes, loops, try/except, generators (204 tests)
    "functools",     # closures (lru_cache, singledispatch), the pure-Python twins
    "mimetypes",     # while loops with := in the test, try/except, a class
    "glob",          # recursive generators, try/except around the file system
    "pprint",        # recursion, dispatch tables, classes
    "collections",   # namedtuple finds its caller's module with sys._getframe(1)
    "typing",        # protocol checks ask which module called them, through frozen abc
    "dataclasses",   # class machinery built by exec'd code, many branches on field kinds
]

# Modules whose converted copies still differ, all for one reason: converted code runs
# through more Python frames (the nested functions of converted control flow). Converted
# code's own calls of ``sys._getframe`` and ``warnings.warn`` count only the program's
# frames (autograph/operators/frames.py), but code that walks ``f_back`` itself, compares
# traceback frames or counts recursion depth still sees the extra ones.
# ``python -m tests.roundtrip.run gettext ...`` shows the differences.
KNOWN_FRAME_DIFFERENCES = {
    "gettext": "walks frame.f_back itself to choose a warning's stacklevel",
    "tomllib": "a recursion-limit test: more frames per recursion level",
    "contextlib": "a test compares traceback frames",
}

# Tests left out of the suite's runs (both unconverted and converted) because converted
# they take far longer than the rest of the module; the by-hand runner keeps them unless
# asked (--ci, or --deselect).
SLOW_TESTS = {
    # deep recursion through SequenceMatcher: 1.2 s unconverted, ~40 s converted
    "difflib": ["test.test_difflib.TestSFpatches.test_recursion_limit"],
}
