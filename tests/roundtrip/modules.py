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
    "optparse",      # option parsing: long if/elif chains, while loops over arguments, classes
    "http.cookiejar",  # cookie parsing: loops with break/continue, try/except, regexes
    "xml.dom.minidom",  # a DOM: recursion over trees, generators, many small classes
    "html.parser",   # a regex-driven state machine in one while loop with many exits
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
    "traceback": "walk_stack(None) skips a fixed number of f_back frames (2 tests)",
    "doctest": "a test compares a traceback's frames and their source lines",
    "bdb": "the debugger's own converted code calls the operators, which it then traces",
    "trace": "the tracer sees the operators' frames (counts, callers, coverage)",
    "logging": "findCaller walks f_back past logging's own file: it stops in the operators",
}

# Modules whose tests look at the code objects of the module's own functions, which
# conversion changes: their variables, constants and names (``dis.code_info``), and the
# ``ag__`` cell a nested def reads from the function it is nested in (``__closure__``).
KNOWN_INTROSPECTION_DIFFERENCES = {
    "dis": "code_info/show_code of dis's own code_info function (3 tests)",
    "weakref": "WeakValueDictionary's `_remove` callback has a closure: the `ag__` cell",
}

# Modules whose converted copies differ for a reason outside the converter and operators.
KNOWN_OTHER_DIFFERENCES = {
    # the tests start the base interpreter (realpath of sys.executable, outside the venv),
    # which cannot import autograph: the converted copy fails to import there
    "platform": "test_architecture_via_symlink runs the base interpreter",
    "sysconfig": "test_symlink runs the base interpreter",
    # converted functions import the operators (`import autograph.operators as ag__`)
    # through builtins.__import__, which test_discovery patches to return a fake package
    "unittest": "converted code's own import goes through a patched builtins.__import__",
}

# Tests left out of the suite's runs (both unconverted and converted) because converted
# they take far longer than the rest of the module; the by-hand runner keeps them unless
# asked (--ci, or --deselect).
SLOW_TESTS = {
    # deep recursion through SequenceMatcher: 1.2 s unconverted, ~40 s converted
    "difflib": ["test.test_difflib.TestSFpatches.test_recursion_limit"],
}

# Checked by hand (``python -m tests.roundtrip.run``) and the same converted, besides
# CI_MODULES: for the record of what the converter has been through.
SAME_BY_HAND = """
    pdb argparse reprlib plistlib http.cookies string calendar cmd codeop netrc quopri numbers
    nturl2path datetime pickle locale wave _py_abc ast pathlib posixpath ntpath zipapp
    statistics code warnings _strptime tokenize symtable filecmp fileinput shelve csv json
    selectors sched queue enum operator email.utils email._header_value_parser
    email.quoprimime email.header email.message email.feedparser email.generator
    email._policybase email.charset tarfile zipfile re._parser xml.etree.ElementPath
    xml.etree.ElementTree xml.sax xml.dom.pulldom xml.dom.expatbuilder dbm dbm.dumb copy
    base64 pstats timeit uu colorsys graphlib imghdr sndhdr mailbox html shutil tempfile uuid
    fnmatch linecache keyword pyclbr py_compile runpy inspect random bisect sunau aifc xdrlib
    gzip lzma bz2 pickletools copyreg types secrets stat urllib.request urllib.robotparser
    http.client http.server xmlrpc.client ftplib smtplib poplib cgi cgitb rlcompleter
    tabnanny webbrowser mailcap telnetlib pipes hmac hashlib zoneinfo profile zipimport
    modulefinder compileall getpass codecs threading _collections_abc collections.abc
    wsgiref pkgutil site asyncore smtpd imp pydoc
""".split()

# PyPI packages checked by hand with ``python -m tests.roundtrip.pypi`` (their sdists' own
# pytest suites, unconverted vs converted; never in CI: no network): the version, and what
# differs, if anything, with the reason. Each converter bug they showed has a test in
# tests/autograph/test_roundtrip_s6.py.
PYPI_BY_HAND = {
    "toolz 1.2.0": "same (193 tests)",
    "more-itertools 11.2.1": "same (765)",
    "inflection 0.5.1": "same (455)",
    "idna 3.20": "same (6442)",
    "tabulate 0.10.0": "same (319)",
    "semver 3.1.1": "same (513)",
    "cachetools 8.0.1": "same (465)",
    "funcy 2.1": "same (219)",
    "parse 1.22.4": "same (110) since `return locals()` after branches keeps their values",
    "toml 0.10.2": "same (23)",
    "boltons 26.2.0": "same (519)",
    "simplejson 4.3.0": "same (282, pure Python)",
    "attrs 26.1.0": "same (1386) since a Python while no longer needs sys._getframe",
    "marshmallow 4.4.0": "same (1192; two test ids hold the current time)",
    "natsort 8.4.0": "same (333)",
    "click 8.5.1": "test_chain reads f_code.co_name of a callback click calls converted "
                   "(tf__cli); test_light_imports: a converted click imports autograph",
    "six 1.17.0": "test_reraise compares traceback frames",
    "glom 25.12.0": "10 test_error tests compare formatted tracebacks (its tests are "
                    "inside the package, converted too)",
    "jinja2 3.1.6": "test_debug compares a traceback: the test's lambda, called by "
                    "converted jinja2, runs converted",
    "tomlkit 0.15.2": "4 nesting-limit tests: more frames per recursion level",
    "decorator 5.3.1": "a doctest prints a wrapper's __code__.co_varnames (same otherwise "
                       "since a source is never taken from __wrapped__)",
    "pyparsing 3.3.3": "parse actions taking fewer arguments fail: _trim_arity compares "
                       "traceback line numbers with its own line + 9, and the converted file "
                       "has other line numbers",
}
