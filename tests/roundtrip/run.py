"""Round trip of stdlib modules through ``autograph convert --no-wrap``, by hand.

    .venv/bin/python -m tests.roundtrip.run textwrap shlex json
    .venv/bin/python -m tests.roundtrip.run --ci            # the set the test suite runs
    .venv/bin/python -m tests.roundtrip.run urllib.parse=test.test_urlparse --keep /tmp/rt
    .venv/bin/python tests/roundtrip/run.py difflib -j 2 --stdlib --json results.json

For each module: copy its source, convert the copy, run CPython's unit tests
for it (``test.test_<name>``, or the one named after ``=``) against the
unconverted copy and against the converted one, and print one line per
module plus every test whose outcome differs (with the end of its
traceback). ``--stdlib`` also runs the tests against the stdlib module
itself, as a check that copying changes nothing. Exit status 0 when every
module gives the same outcomes converted as unconverted, 1 otherwise.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import json
import pathlib
import sys
import tempfile
import time

if __package__ in (None, ""):  # run as a script path
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent.parent))
    from tests.roundtrip import harness
    from tests.roundtrip.modules import CI_MODULES, SLOW_TESTS
else:
    from . import harness
    from .modules import CI_MODULES, SLOW_TESTS


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.roundtrip.run",
        description=__doc__.split("\n\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog="\n\n".join(__doc__.split("\n\n")[1:]))
    parser.add_argument("modules", nargs="*", metavar="MODULE[=TESTS]",
                        help="stdlib module (textwrap, json, urllib.parse), optionally with "
                             "its test module (urllib.parse=test.test_urlparse)")
    parser.add_argument("--ci", action="store_true",
                        help="add the modules test_stdlib_roundtrip.py checks, leaving out "
                             "the tests it leaves out (modules.SLOW_TESTS)")
    parser.add_argument("--deselect", action="append", default=[], metavar="TEST_ID",
                        help="leave out this test (a unittest id), in every run")
    parser.add_argument("-j", "--jobs", type=int, default=1, help="modules at a time")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds per test run (default 300)")
    parser.add_argument("--stdlib", action="store_true",
                        help="also run the tests against the stdlib module itself")
    parser.add_argument("--use", default=None, metavar="RESOURCES",
                        help="test.support resources, comma separated, or 'all' "
                             "(default: cpu,decimal,subprocess,walltime,tzdata)")
    parser.add_argument("--keep", metavar="DIR",
                        help="work in DIR and keep it (copies, converted code, JSON results)")
    parser.add_argument("--json", metavar="FILE", help="write every result to FILE as JSON")
    parser.add_argument("--limit", type=int, default=20,
                        help="differences shown per module (default 20)")
    args = parser.parse_args(argv)

    targets = [harness.parse_target(t) for t in args.modules]
    if args.ci:
        targets += [(m, None) for m in CI_MODULES if m not in {t[0] for t in targets}]
    if not targets:
        parser.error("name at least one module, or --ci")
    if not harness.test_package_available():
        print("CPython's test package is not installed: nothing to run", file=sys.stderr)
        return 2

    if args.keep:
        base = pathlib.Path(args.keep).resolve()
        base.mkdir(parents=True, exist_ok=True)
        cleanup = None
    else:
        cleanup = tempfile.TemporaryDirectory(prefix="ag-roundtrip-")
        base = pathlib.Path(cleanup.name)

    def one(target):
        module, tests = target
        started = time.perf_counter()
        try:
            deselect = list(args.deselect)
            if args.ci:
                deselect += SLOW_TESTS.get(module, [])
            rt = harness.round_trip(module, base / module, tests, timeout=args.timeout,
                                    with_stdlib=args.stdlib, resources=args.use,
                                    deselect=deselect)
        except harness.RoundTripError as exc:
            return module, None, str(exc), time.perf_counter() - started
        return module, rt, None, time.perf_counter() - started

    results = []
    try:
        with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
            for module, rt, error, seconds in pool.map(one, targets):
                results.append((module, rt, error, seconds))
                print(line(module, rt, error, seconds), flush=True)
        print()
        for module, rt, error, seconds in results:
            if error:
                print(f"{module}: {error}\n")
            elif not rt.same or (rt.stdlib and rt.stdlib.outcomes != rt.baseline.outcomes):
                print(rt.report(limit=args.limit))
                if rt.stdlib and rt.stdlib.outcomes != rt.baseline.outcomes:
                    print(f"  (the unconverted copy differs from the stdlib module itself: "
                          f"{rt.stdlib.summary()})")
                print()
        if args.json:
            pathlib.Path(args.json).write_text(json.dumps(
                [as_json(module, rt, error, seconds) for module, rt, error, seconds in results],
                indent=1))
    finally:
        if cleanup is not None:
            cleanup.cleanup()
    failed = [m for m, rt, error, _ in results if error or not rt.same]
    print(f"{len(results) - len(failed)}/{len(results)} modules behave the same converted"
          + (f"; differ: {' '.join(failed)}" if failed else ""))
    return 1 if failed else 0


def line(module, rt, error, seconds) -> str:
    if error:
        return f"{module:<16} ERROR  {error.splitlines()[0]}"
    verdict = "same" if rt.same else f"DIFF ({len(rt.differences())} tests)"
    text = (f"{module:<16} {verdict:<16} unconverted: {rt.baseline.summary():<32} "
            f"converted: {rt.converted.summary():<32} "
            f"[convert {rt.convert_seconds:.1f}s, tests {rt.baseline.seconds:.1f}s / "
            f"{rt.converted.seconds:.1f}s, total {seconds:.1f}s]")
    if rt.stdlib is not None:
        text += f" stdlib: {rt.stdlib.summary()}"
    return text


def as_json(module, rt, error, seconds) -> dict:
    if error:
        return {"module": module, "error": error, "seconds": seconds}
    doc = {"module": module, "tests_module": rt.tests_module, "same": rt.same,
           "seconds": round(seconds, 2), "convert_seconds": round(rt.convert_seconds, 2),
           "convert_output": rt.convert_output,
           "differences": rt.differences()}
    for run in (rt.baseline, rt.converted, rt.stdlib):
        if run is not None:
            doc[run.label] = {"counts": run.counts(), "seconds": round(run.seconds, 2),
                              "problems": run.problems, "file": run.file,
                              "outcomes": run.outcomes, "messages": run.messages}
    return doc


if __name__ == "__main__":
    sys.exit(main())
