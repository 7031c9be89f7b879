"""Stdlib modules converted with ``autograph convert --no-wrap`` pass their own unit tests.

- ``test_stdlib_roundtrip.py``: the suite's check, on ``modules.CI_MODULES``;
- ``python -m tests.roundtrip.run MODULE...``: any modules, by hand (``--help``);
- ``harness.py``: copy, convert, run both copies' tests, compare;
- ``_unittest_runner.py``: runs one module's tests against one copy (a fresh interpreter);
- ``boot/``: makes the copy shadow the stdlib module (also in the tests' subprocesses).
"""
