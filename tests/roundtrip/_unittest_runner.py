"""Runs CPython's unit tests for one stdlib module against a copy of that module.

Run as a script in a fresh interpreter (``harness.run_tests`` does it)::

    python _unittest_runner.py --module textwrap --tests test.test_textwrap \\
        --shadow DIR [--converted] --out result.json

``DIR`` holds the copy (``DIR/textwrap.py``, or ``DIR/json/`` for a package;
for a dotted name such as ``urllib.parse``, ``DIR/parse.py``). A finder put
first on ``sys.meta_path`` (``boot/_ag_roundtrip_shadow.py``) makes every
import of the module (and of its submodules) load the copy, including the
re-imports of ``test.support.import_helper.import_fresh_module``; whatever
the interpreter imported before (unittest, test.support, autograph's
runtime) keeps the real stdlib module. Python subprocesses that the tests
start get the same finder through ``boot/sitecustomize.py``.

Before and after the tests ran, the runner checks that the module the tests
see is the copy (``__file__`` inside ``DIR``, the ``autograph convert``
banner present exactly when ``--converted``), and that the test modules did
not reach the stdlib original some other way (a module object, function or
class in their globals compiled from ``--stdlib-source``). Any such problem
is written to the result, and the runner exits with status 3.

The result file is JSON: the outcome of every test id (``pass``, ``fail``,
``error``, ``skip``, ``xfail``, ``xpass``; failed subtests get their own id),
a short message for every non-pass, counts and the checks above. Only this
file is the result: the tests' own output goes to stdout/stderr untouched.
"""
from __future__ import annotations

import sys

# The script's directory (tests/roundtrip) must not shadow anything.
if sys.path and sys.path[0] and __file__.startswith(sys.path[0]):
    del sys.path[0]

import argparse  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import types  # noqa: E402
import unittest  # noqa: E402

BOOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "boot")
sys.path.insert(0, BOOT)
import _ag_roundtrip_shadow as shadowing  # noqa: E402
from _ag_roundtrip_shadow import module_names  # noqa: E402
del sys.path[0]

BANNER = "# Converted by `autograph convert`"
# Resources a plain `python -m unittest` run would allow, minus the ones that reach outside
# (network) or take minutes; regrtest's -u names.
DEFAULT_RESOURCES = ["cpu", "decimal", "subprocess", "walltime", "tzdata"]
_dumps = json.dumps  # the real json, even when json itself is the module under test


def inside(path, root) -> bool:
    if not path:
        return False
    path = os.path.realpath(path)
    root = os.path.realpath(root)
    return path == root or path.startswith(root + os.sep)


def check_module(module: str, root: str, converted: bool,
                 original: str | None = None) -> list[str]:
    """Problems with ``sys.modules[module]`` and its loaded submodules being the copy.

    A converted copy's files carry the ``autograph convert`` banner, except a
    file with nothing to convert, which is then the same as its counterpart
    in ``original`` (the unconverted copy).
    """
    problems = []
    for name in sorted(module_names(module)):
        mod = sys.modules[name]
        if mod is None:
            continue
        path = getattr(mod, "__file__", None)
        if path is None or not path.endswith(".py"):
            continue  # namespace or extension module: not ours to check
        if not inside(path, root):
            problems.append(f"sys.modules[{name!r}] is {path}, not the copy in {root}")
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if converted and BANNER not in text:
            twin = os.path.join(original, os.path.relpath(path, root)) if original else None
            if twin is None or not os.path.isfile(twin):
                problems.append(f"{path}: no autograph banner (a converted copy expected)")
            else:
                with open(twin, encoding="utf-8", errors="replace") as f:
                    if f.read() != text:
                        problems.append(f"{path}: no autograph banner, yet it differs from "
                                        f"{twin}")
        elif not converted and BANNER in text:
            problems.append(f"{path}: autograph banner in the unconverted copy")
    return problems


def code_file(obj):
    code = getattr(obj, "__code__", None)
    return code.co_filename if code is not None else None


def check_test_modules(module: str, original: str, tests: str) -> list[str]:
    """Objects of the test modules' globals that come from ``original`` (the stdlib's file
    or package of ``module``) rather than from the copy: module objects, functions, and
    classes whose methods were compiled from it."""
    problems = []
    for tname in sorted(n for n in sys.modules if n == tests or n.startswith(tests + ".")):
        tmod = sys.modules[tname]
        for key, value in list(vars(tmod).items()):
            where = f"{tname}.{key}"
            if isinstance(value, types.ModuleType):
                path = getattr(value, "__file__", None)
                if inside(path, original):
                    problems.append(f"{where} is module {value.__name__} from {path}")
            elif isinstance(value, types.FunctionType):
                path = code_file(value)
                if inside(path, original):
                    problems.append(f"{where} is function {value.__qualname__} from {path}")
            elif isinstance(value, type):
                paths = sorted(p for p in map(code_file, vars(value).values())
                               if inside(p, original))
                if paths:
                    problems.append(f"{where} is class {value.__qualname__} from {paths[0]}")
    return problems


class CollectingResult(unittest.TestResult):
    """Outcome and a short message per test id (failed subtests have their own ids).

    A test that runs twice (a test package loading a module twice) gets
    ``#2`` after its id the second time.
    """

    def __init__(self, verbose=False):
        super().__init__()
        self.outcomes: dict[str, str] = {}
        self.messages: dict[str, str] = {}
        self.durations: dict[str, float] = {}
        self.verbose = verbose
        self._keys: dict[str, str] = {}
        self._seen: dict[str, int] = {}
        self._started: dict[str, float] = {}

    def startTest(self, test):
        super().startTest(test)
        tid = test.id()
        self._seen[tid] = n = self._seen.get(tid, 0) + 1
        self._keys[tid] = key = tid if n == 1 else f"{tid}#{n}"
        self._started[key] = time.perf_counter()

    def stopTest(self, test):
        super().stopTest(test)
        key = self._key(test)
        started = self._started.pop(key, None)
        if started is not None:
            self.durations[key] = round(time.perf_counter() - started, 4)

    def _key(self, test):
        parent = getattr(test, "test_case", None)
        if parent is not None and hasattr(test, "_subDescription"):  # a subtest
            return f"{self._keys.get(parent.id(), parent.id())} {test._subDescription()}"
        return self._keys.get(test.id(), test.id())

    def _record(self, test, outcome, message=None):
        key = self._key(test)
        if key in self.outcomes and self.outcomes[key] != "pass":
            return  # keep the first non-pass (e.g. an error in tearDown after a failure)
        self.outcomes[key] = outcome
        if message is not None:
            self.messages[key] = message
        if self.verbose:
            print(f"[roundtrip] {key} ... {outcome}", file=sys.__stderr__, flush=True)

    @staticmethod
    def _describe(err):
        exctype, value, tb = err
        text = "".join(traceback.format_exception(exctype, value, tb))
        return text[-4000:] if len(text) > 4000 else text

    def addSuccess(self, test):
        super().addSuccess(test)
        self._record(test, "pass")

    def addFailure(self, test, err):
        super().addFailure(test, err)
        self._record(test, "fail", self._describe(err))

    def addError(self, test, err):
        super().addError(test, err)
        self._record(test, "error", self._describe(err))

    def addSkip(self, test, reason):
        super().addSkip(test, reason)
        self._record(test, "skip", str(reason))

    def addExpectedFailure(self, test, err):
        super().addExpectedFailure(test, err)
        self._record(test, "xfail")

    def addUnexpectedSuccess(self, test):
        super().addUnexpectedSuccess(test)
        self._record(test, "xpass")

    def addSubTest(self, test, subtest, err):
        super().addSubTest(test, subtest, err)
        if err is not None:
            failed = issubclass(err[0], test.failureException)
            self._record(subtest, "fail" if failed else "error", self._describe(err))


def deselect(suite, ids: set[str]):
    """``suite`` without the tests whose ids are in ``ids``; and the ids dropped."""
    dropped = []

    def keep(node):
        if isinstance(node, unittest.TestSuite):
            node._tests = [t for t in map(keep, node._tests) if t is not None]
            return node
        if node.id() in ids:
            dropped.append(node.id())
            return None
        return node

    return keep(suite), dropped


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--module", required=True)
    parser.add_argument("--tests", required=True)
    parser.add_argument("--shadow", help="directory holding the copy (omit: the stdlib itself)")
    parser.add_argument("--converted", action="store_true")
    parser.add_argument("--original", help="the unconverted copy, for files with nothing to "
                                           "convert in a converted package")
    parser.add_argument("--out", required=True)
    parser.add_argument("--stdlib-source", help="the stdlib's file or package of the module: "
                                                "nothing the tests use may come from it")
    parser.add_argument("--use", default=",".join(DEFAULT_RESOURCES),
                        help="test.support resources to enable ('all' for every one)")
    parser.add_argument("--deselect", action="append", default=[], metavar="TEST_ID",
                        help="leave this test out (both runs get the same list)")
    parser.add_argument("-v", "--verbose", action="store_true")
    args = parser.parse_args(argv)

    started = time.perf_counter()
    result_doc = {"module": args.module, "tests_module": args.tests, "shadow": args.shadow,
                  "converted": args.converted, "problems": [], "outcomes": {},
                  "messages": {}}

    def finish(status):
        result_doc["seconds"] = round(time.perf_counter() - started, 3)
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(_dumps(result_doc, indent=1, sort_keys=True))
        return status

    # What a converted module imports, and the test machinery, come from the real stdlib
    # before the copy is put in place (the same in both runs, so the results compare).
    import autograph.converted_module  # noqa: F401
    import autograph.operators  # noqa: F401
    from test import support
    support.use_resources = None if args.use == "all" else [
        r for r in args.use.split(",") if r]
    if args.shadow:
        shadow = os.path.abspath(args.shadow)
        shadowing.install(args.module, shadow)
        # Python subprocesses of the tests shadow the module the same way (boot/sitecustomize).
        os.environ[shadowing.ENV] = shadowing.environment_value(
            args.module, shadow, args.converted)
        os.environ["PYTHONPATH"] = BOOT
        try:
            mod = importlib.import_module(args.module)
        except BaseException:
            result_doc["problems"].append("importing the copy failed:\n" + traceback.format_exc())
            return finish(3)
        result_doc["file"] = getattr(mod, "__file__", None)
        problems = check_module(args.module, shadow, args.converted, args.original)
        if problems:
            result_doc["problems"] += problems
            return finish(3)
    else:
        mod = importlib.import_module(args.module)
        result_doc["file"] = getattr(mod, "__file__", None)

    suite = unittest.defaultTestLoader.loadTestsFromName(args.tests)
    if args.deselect:
        suite, dropped = deselect(suite, set(args.deselect))
        result_doc["deselected"] = dropped
    if args.shadow:
        problems = check_module(args.module, shadow, args.converted, args.original)
        if args.stdlib_source:
            problems += check_test_modules(args.module, args.stdlib_source, args.tests)
        if problems:
            result_doc["problems"] += problems
            return finish(3)

    result = CollectingResult(verbose=args.verbose)
    suite.run(result)
    for test, message in result.errors + result.failures:  # setUpModule, setUpClass, ...
        key = result._key(test)
        if key not in result.outcomes:
            result.outcomes[key] = "error"
            result.messages[key] = message
    result_doc["outcomes"] = result.outcomes
    result_doc["messages"] = result.messages
    result_doc["durations"] = result.durations
    result_doc["testsRun"] = result.testsRun
    if args.shadow:
        # A test may have re-imported the module: it must still be the copy.
        after = check_module(args.module, shadow, args.converted, args.original)
        if after:
            result_doc["problems"] += ["after the tests: " + p for p in after]
            return finish(3)
    return finish(0)


if __name__ == "__main__":
    sys.exit(main())
