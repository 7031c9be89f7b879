"""Round trip of a third-party package through ``autograph convert --no-wrap``, by hand.

    python -m tests.roundtrip.pypi /tmp/src/toolz-1.2.0 --package toolz
    python -m tests.roundtrip.pypi /tmp/src/attrs-26.1.0 --package src/attr \\
        --package src/attrs --path src --python /tmp/venv/bin/python -- -x -q tests/test_make.py

The unpacked source tree (an sdist: it ships the package's tests) is copied
twice; in the second copy each ``--package`` (a package directory or module
file, relative to the tree) is replaced by its ``autograph convert`` output.
The package's own pytest suite then runs in both copies, with ``--path``
(default: the tree) first on ``PYTHONPATH`` and the project's ``addopts`` and
cache off, and every test whose outcome differs is printed. The package's
tests are not converted: only the package is under test. ``--python`` is an
interpreter that has pytest, the package's test dependencies and autograph
importable (autograph's own by default). Nothing is downloaded: CI never runs
this; it is how the converter was checked against packages nobody here wrote.
Exit status 0 when every test ends the same way converted as unconverted.
"""
from __future__ import annotations

import argparse
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET

if __package__ in (None, ""):  # run as a script path
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent.parent))
    from tests.roundtrip import harness
else:
    from . import harness


def outcomes(junit: pathlib.Path) -> tuple[dict, dict]:
    """Test id -> outcome (pass, fail, error, skip), and the message of every non-pass."""
    results, messages = {}, {}
    for case in ET.parse(junit).getroot().iter("testcase"):
        tid = f"{case.get('classname')}::{case.get('name')}"
        outcome = "pass"
        for child in case:
            kind = {"failure": "fail", "error": "error", "skipped": "skip"}.get(child.tag)
            if kind:
                outcome = kind
                messages[tid] = (child.get("message") or "") + "\n" + (child.text or "")
        if tid in results and results[tid] != "pass":  # setup error + call: keep the worst
            continue
        results[tid] = outcome
    return results, messages


def run_pytest(tree: pathlib.Path, path: str, python: str, args: list[str], label: str,
               packages: list[str], timeout: float) -> harness.Run:
    junit = tree.parent / f"junit-{label}.xml"
    env = harness._env()
    env["PYTHONPATH"] = str(tree / path)
    names = [pathlib.Path(p).stem for p in packages]
    where = subprocess.run(
        [python, "-c", "import importlib,sys\nfor n in sys.argv[1:]: "
         "print(importlib.import_module(n).__file__)", *names],
        cwd=tree, env=env, capture_output=True, text=True)
    problems = [f"{line} is not in {tree}" for line in where.stdout.split()
                if not pathlib.Path(line).resolve().is_relative_to(tree.resolve())]
    if where.returncode:
        problems.append(f"cannot import {names}: {where.stderr[-2000:]}")
    command = [python, "-m", "pytest", "-p", "no:cacheprovider", "-o", "addopts=",
               f"--junitxml={junit}", "-q", *args]
    started = time.perf_counter()
    try:
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True,
                              errors="replace", timeout=timeout, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        return harness.Run(label, {}, {}, [f"timed out after {timeout} s"], timeout, -1,
                           None, "")
    seconds = time.perf_counter() - started
    output = (done.stdout + done.stderr)[-6000:]
    if not junit.exists():
        return harness.Run(label, {}, {}, problems + [f"pytest wrote no report:\n{output}"],
                           seconds, done.returncode, None, output)
    results, messages = outcomes(junit)
    return harness.Run(label, results, messages, problems, seconds, done.returncode,
                       None, output)


def round_trip(source: pathlib.Path, packages: list[str], workdir: pathlib.Path,
               path: str = ".", python: str = sys.executable, args=(),
               timeout: float = 1200.0) -> harness.RoundTrip:
    original, converted = workdir / "original", workdir / "converted"
    for tree in (original, converted):
        shutil.rmtree(tree, ignore_errors=True)
        shutil.copytree(source, tree, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    convert_seconds, output = 0.0, []
    for package in packages:
        target = converted / package
        out = workdir / "out" / package
        shutil.rmtree(out, ignore_errors=True)
        seconds, text = harness.convert(original / package, out.parent, timeout)
        convert_seconds += seconds
        output.append(text)
        if target.is_dir():
            shutil.rmtree(target)
            shutil.copytree(out, target)
        else:
            shutil.copy2(out, target)
    baseline = run_pytest(original, path, python, list(args), "unconverted", packages, timeout)
    after = run_pytest(converted, path, python, list(args), "converted", packages, timeout)
    return harness.RoundTrip(source.name, "pytest", convert_seconds, "\n".join(output),
                             baseline, after, None, workdir)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tests.roundtrip.pypi",
                                     description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter,
                                     epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("source", type=pathlib.Path, help="the unpacked source tree")
    parser.add_argument("--package", action="append", required=True,
                        help="package directory or module file to convert (relative)")
    parser.add_argument("--path", default=".", help="directory put on PYTHONPATH (relative)")
    parser.add_argument("--python", default=sys.executable)
    parser.add_argument("--keep", type=pathlib.Path, metavar="DIR",
                        help="work in DIR and keep it")
    parser.add_argument("--timeout", type=float, default=1200.0)
    parser.add_argument("--limit", type=int, default=30, help="differences shown")
    argv = sys.argv[1:] if argv is None else list(argv)
    split = argv.index("--") if "--" in argv else len(argv)
    args = parser.parse_args(argv[:split])
    args.pytest_args = argv[split + 1:]  # pytest's own arguments, after --
    with tempfile.TemporaryDirectory(prefix="ag-pypi-") as tmp:
        workdir = args.keep.resolve() if args.keep else pathlib.Path(tmp)
        workdir.mkdir(parents=True, exist_ok=True)
        try:
            rt = round_trip(args.source.resolve(), args.package, workdir, args.path,
                            args.python, args.pytest_args, args.timeout)
        except harness.RoundTripError as exc:
            print(f"{args.source.name}: {exc}")
            return 2
        print(f"{rt.module}: {'same' if rt.same else 'DIFF'}; unconverted "
              f"{rt.baseline.summary()} [{rt.baseline.seconds:.1f}s]; converted "
              f"{rt.converted.summary()} [{rt.converted.seconds:.1f}s; "
              f"convert {rt.convert_seconds:.1f}s]")
        if not rt.same:
            print(rt.report(limit=args.limit, message_lines=12))
            if not rt.baseline.outcomes:
                print(rt.baseline.output)
            if not rt.converted.outcomes:
                print(rt.converted.output)
    return 0 if rt.same else 1


if __name__ == "__main__":
    sys.exit(main())
