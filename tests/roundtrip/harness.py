"""Round trip of stdlib modules through ``autograph convert --no-wrap``.

For a module M of the standard library (pure Python): copy its source into a
temporary directory, convert the copy with the ``autograph`` command line,
then run CPython's own unit tests for M (``test.test_M``) twice in fresh
interpreters, once against the unconverted copy and once against the
converted one (``_unittest_runner.py`` makes the copy shadow the stdlib
module and checks the tests really see it), and compare the outcome of every
test. Both runs use a copy in the same kind of place, so the only difference
between them is the conversion.

Python subprocesses that the tests start see the same copy (``boot/``),
except those started in isolated mode (``-I``, as ``assert_python_ok`` does),
which see the stdlib module in both runs alike. Tests that depend on the
module being the stdlib file itself fail in both runs alike too
(``test_linecache``, ``test_ast``): the comparison is what counts.
``PYTHONHASHSEED=0`` gives both runs the same set and dict orders.

Used by ``test_stdlib_roundtrip.py`` (a fixed, fast set of modules) and by
``python -m tests.roundtrip.run`` (any modules, by hand).
"""
from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import sysconfig
import time

HERE = pathlib.Path(__file__).resolve().parent
RUNNER = HERE / "_unittest_runner.py"
STDLIB = pathlib.Path(sysconfig.get_paths()["stdlib"])

# Modules whose test module is not test.test_<name>.
TEST_MODULES = {
    "urllib.parse": "test.test_urlparse",
    "_pydecimal": "test.test_decimal",
    "_pyio": "test.test_io",
    "_py_abc": "test.test_abc",
    "_strptime": "test.test_strptime",
    "xml.etree.ElementTree": "test.test_xml_etree",
    "html.parser": "test.test_htmlparser",
    "http.cookies": "test.test_http_cookies",
    "http.cookiejar": "test.test_http_cookiejar",
    "xml.dom.minidom": "test.test_minidom",
    "xml.sax": "test.test_sax",
    "numbers": "test.test_abstract_numbers",
    "nturl2path": "test.test_urllib",
    "dbm.dumb": "test.test_dbm_dumb",
    "re._parser": "test.test_re",
    "re._compiler": "test.test_re",
    "xml.etree.ElementPath": "test.test_xml_etree",
    "xml.dom.pulldom": "test.test_pulldom",
    "xml.dom.expatbuilder": "test.test_minidom",
    "urllib.request": "test.test_urllib2",
    "urllib.robotparser": "test.test_robotparser",
    "http.client": "test.test_httplib",
    "http.server": "test.test_httpservers",
    "xmlrpc.client": "test.test_xmlrpc",
    "_collections_abc": "test.test_collections",
    "collections.abc": "test.test_collections",
}


class RoundTripError(Exception):
    """The round trip itself could not run (conversion failed, the runner broke)."""


class NotAvailable(RoundTripError):
    """This Python has no pure-Python source or no unit tests for the module."""


@dataclasses.dataclass
class Run:
    """One run of a module's unit tests against one copy of the module."""

    label: str
    outcomes: dict
    messages: dict
    problems: list
    seconds: float
    returncode: int
    file: str | None
    output: str  # the tests' own stdout+stderr (tail)
    durations: dict = dataclasses.field(default_factory=dict)  # seconds per test id

    def counts(self) -> dict:
        counts = {"run": 0, "pass": 0, "fail": 0, "error": 0, "skip": 0, "xfail": 0,
                  "xpass": 0}
        for outcome in self.outcomes.values():
            counts[outcome] += 1
        counts["run"] = len(self.outcomes)
        return counts

    def summary(self) -> str:
        c = self.counts()
        parts = [f"{c['run']} run"]
        parts += [f"{c[k]} {k}" for k in ("fail", "error", "skip", "xfail", "xpass") if c[k]]
        return ", ".join(parts)


@dataclasses.dataclass
class RoundTrip:
    module: str
    tests_module: str
    convert_seconds: float
    convert_output: str
    baseline: Run
    converted: Run
    stdlib: Run | None = None
    workdir: pathlib.Path | None = None

    def differences(self) -> list[tuple[str, str, str]]:
        """(test id, unconverted outcome, converted outcome) for every test that differs."""
        ids = sorted(set(self.baseline.outcomes) | set(self.converted.outcomes))
        return [(tid, self.baseline.outcomes.get(tid, "absent"),
                 self.converted.outcomes.get(tid, "absent"))
                for tid in ids
                if self.baseline.outcomes.get(tid) != self.converted.outcomes.get(tid)]

    @property
    def same(self) -> bool:
        return not self.baseline.problems and not self.converted.problems \
            and not self.differences()

    def report(self, limit: int = 20, message_lines: int = 6) -> str:
        """A readable account of what differs, with the tail of each converted failure."""
        lines = [f"{self.module} ({self.tests_module}): unconverted {self.baseline.summary()}; "
                 f"converted {self.converted.summary()}"]
        for label, run in (("unconverted", self.baseline), ("converted", self.converted)):
            for problem in run.problems:
                lines.append(f"  {label} copy: {problem}")
        diffs = self.differences()
        for tid, before, after in diffs[:limit]:
            lines.append(f"  {tid}: {before} -> {after}")
            message = self.converted.messages.get(tid)
            if message:
                tail = message.rstrip().splitlines()[-message_lines:]
                lines += ["      " + line for line in tail]
        if len(diffs) > limit:
            lines.append(f"  ... and {len(diffs) - limit} more differences")
        return "\n".join(lines)


def locate(module: str) -> pathlib.Path:
    """The stdlib source of ``module``: a ``.py`` file or a package directory."""
    base = STDLIB.joinpath(*module.split("."))
    if (base / "__init__.py").is_file():
        return base
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    raise NotAvailable(f"{module}: no pure-Python source in {STDLIB}")


def tests_module_for(module: str) -> str:
    if module in TEST_MODULES:
        return TEST_MODULES[module]
    if module.startswith("email."):  # one test package for all of the email package
        return "test.test_email"
    name = "test.test_" + module.rpartition(".")[2].lstrip("_")
    tests_dir = STDLIB.joinpath(*name.split("."))
    if not (tests_dir.with_suffix(".py").is_file() or (tests_dir / "__init__.py").is_file()):
        raise NotAvailable(f"{module}: no test module {name} (say which: MODULE=test.test_x)")
    return name


def test_package_available() -> bool:
    """CPython's own tests are installed (some distributions ship them separately)."""
    return (STDLIB / "test" / "__init__.py").is_file() \
        and (STDLIB / "test" / "support" / "__init__.py").is_file()


def autograph_command() -> list[str]:
    """The CLI, run by the interpreter itself (``python -m autograph``, the same program as
    the ``autograph`` script): one exec of a binary, not of a shebang script, which a CI run
    once saw fail with EFAULT."""
    return [sys.executable, "-m", "autograph"]


def copy_source(module: str, dest: pathlib.Path) -> pathlib.Path:
    """Copies the module's file (or package tree, without caches) into ``dest``."""
    src = locate(module)
    dest.mkdir(parents=True, exist_ok=True)
    target = dest / src.name
    if src.is_dir():
        shutil.copytree(src, target, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    else:
        shutil.copy2(src, target)
    return target


def convert(source: pathlib.Path, out: pathlib.Path, timeout: float) -> tuple[float, str]:
    started = time.perf_counter()
    try:
        done = subprocess.run(
            [*autograph_command(), "convert", str(source), "-o", str(out), "--no-wrap",
             "--no-progress"],
            capture_output=True, text=True, timeout=timeout, cwd=source.parent)
    except subprocess.TimeoutExpired:
        raise RoundTripError(f"autograph convert {source.name} took more than {timeout} s")
    seconds = time.perf_counter() - started
    output = (done.stdout + done.stderr).strip()
    if done.returncode != 0:
        raise RoundTripError(f"autograph convert {source.name} failed "
                             f"(exit {done.returncode}):\n{output}")
    if not (out / source.name).exists():
        raise RoundTripError(f"autograph convert wrote no {out / source.name}:\n{output}")
    return seconds, output


def _env() -> dict:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("PYTHON") or k in ("PYTHONIOENCODING", "PYTHONUTF8")}
    env.pop("AUTOGRAPH_ROUNDTRIP_SHADOW", None)
    env["PYTHONHASHSEED"] = "0"  # the same set/dict orders in both runs
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def run_tests(module: str, tests_module: str, shadow: pathlib.Path | None, converted: bool,
              label: str, workdir: pathlib.Path, timeout: float,
              resources: str | None = None, verbose: bool = False,
              original: pathlib.Path | None = None, deselect=()) -> Run:
    """Runs ``tests_module`` in a fresh interpreter against the copy in ``shadow``."""
    out = workdir / f"result-{label}.json"
    cwd = workdir / f"cwd-{label}"  # tests create files in the current directory
    cwd.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, str(RUNNER), "--module", module, "--tests", tests_module,
               "--out", str(out)]
    if shadow is not None:
        command += ["--shadow", str(shadow), "--stdlib-source", str(locate(module))]
    if converted:
        command.append("--converted")
    if original is not None:
        command += ["--original", str(original)]
    if resources is not None:
        command += ["--use", resources]
    if verbose:
        command.append("--verbose")
    for test_id in deselect:
        command += ["--deselect", test_id]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, cwd=cwd, env=_env(), capture_output=True,
                              text=True, errors="replace", timeout=timeout,
                              stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired as exc:
        output = (exc.stdout or b"")[-3000:]
        if isinstance(output, bytes):
            output = output.decode(errors="replace")
        return Run(label, {}, {}, [f"timed out after {timeout} s"], timeout, -1, None, output)
    seconds = time.perf_counter() - started
    output = (done.stdout + done.stderr)[-6000:]
    if not out.exists():
        return Run(label, {}, {}, [f"the runner crashed (exit {done.returncode}):\n{output}"],
                   seconds, done.returncode, None, output)
    doc = json.loads(out.read_text(encoding="utf-8"))
    return Run(label, doc["outcomes"], doc["messages"], doc["problems"], seconds,
               done.returncode, doc.get("file"), output, doc.get("durations", {}))


def round_trip(module: str, workdir: pathlib.Path, tests_module: str | None = None,
               timeout: float = 300.0, convert_timeout: float = 300.0,
               with_stdlib: bool = False, resources: str | None = None,
               deselect=()) -> RoundTrip:
    """Copies, converts and tests ``module`` under ``workdir`` (which it creates).

    ``deselect``: test ids left out of every run (tests too slow converted).
    """
    tests_module = tests_module or tests_module_for(module)
    workdir.mkdir(parents=True, exist_ok=True)
    original = workdir / "original"
    copy = copy_source(module, original)
    converted = workdir / "converted"
    seconds, output = convert(copy, converted, convert_timeout)
    baseline = run_tests(module, tests_module, original, False, "unconverted", workdir,
                         timeout, resources, deselect=deselect)
    after = run_tests(module, tests_module, converted, True, "converted", workdir, timeout,
                      resources, original=original, deselect=deselect)
    stdlib = None
    if with_stdlib:
        stdlib = run_tests(module, tests_module, None, False, "stdlib", workdir, timeout,
                           resources, deselect=deselect)
    return RoundTrip(module, tests_module, seconds, output, baseline, after, stdlib, workdir)


def parse_target(text: str) -> tuple[str, str | None]:
    """``json`` or ``urllib.parse=test.test_urlparse``."""
    module, _, tests = text.partition("=")
    if not re.fullmatch(r"[A-Za-z_][\w.]*", module):
        raise RoundTripError(f"not a module name: {module!r}")
    return module, tests or None
