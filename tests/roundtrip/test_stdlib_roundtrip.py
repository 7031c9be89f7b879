"""Stdlib modules nobody here wrote, converted with ``autograph convert --no-wrap``, pass
their own CPython unit tests exactly as the unconverted modules do.

Per module: the source is copied, the copy converted, and ``test.test_<name>``
run in fresh interpreters against the unconverted copy and against the
converted one (``harness.py``; ``_unittest_runner.py`` checks that the tests
really import the copy). Every test must end the same way in both runs:
the same tests run, pass, fail, error and skip.

The modules (``modules.CI_MODULES``) are chosen for loops, branches,
try/except, generators, closures and classes, and for tests that take a
second or less. They run two or more at a time (subprocesses), started once
for all selected tests. ``python -m tests.roundtrip.run MODULE...`` runs any
other module by hand.
"""
from __future__ import annotations

import concurrent.futures
import os

import pytest

from tests.roundtrip import harness
from tests.roundtrip.modules import CI_MODULES, SLOW_TESTS

pytestmark = pytest.mark.skipif(
    not harness.test_package_available(),
    reason="CPython's `test` package (the stdlib's own unit tests) is not installed")

RUN_TIMEOUT = 120.0  # seconds per test run (one module, one copy)
CONVERT_TIMEOUT = 120.0


@pytest.fixture(scope="module")
def round_trips(request, tmp_path_factory):
    """Module name -> future RoundTrip, for the modules of the selected tests only."""
    selected = [item.callspec.params["module"] for item in request.session.items
                if getattr(item, "originalname", None) == "test_converted_module_passes_its_tests"
                and item.module is request.module and hasattr(item, "callspec")]
    base = tmp_path_factory.mktemp("roundtrip")
    workers = max(2, min(4, os.cpu_count() or 2))
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        futures = {module: pool.submit(harness.round_trip, module, base / module,
                                       timeout=RUN_TIMEOUT, convert_timeout=CONVERT_TIMEOUT,
                                       deselect=SLOW_TESTS.get(module, ()))
                   for module in dict.fromkeys(selected)}
        yield futures
        for future in futures.values():
            future.cancel()


@pytest.mark.parametrize("module", CI_MODULES)
def test_converted_module_passes_its_tests(round_trips, module):
    error = None
    try:
        rt = round_trips[module].result()
    except harness.NotAvailable as exc:
        pytest.skip(str(exc))
    except harness.RoundTripError as exc:
        error = str(exc)
    if error is not None:  # could not convert, or the runner broke: no tests to compare
        pytest.fail(error, pytrace=False)
    if not rt.baseline.outcomes or rt.baseline.problems:
        pytest.fail(f"the unconverted copy did not run as it should:\n{rt.report()}\n"
                    f"{rt.baseline.output}", pytrace=False)
    if not rt.same:
        pytest.fail(rt.report(), pytrace=False)
