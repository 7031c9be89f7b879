import os
import sys

import pytest

from tests.guide.helpers import out  # noqa: F401  (fixture)


@pytest.fixture(autouse=True)
def _without_converter_when_asked(monkeypatch):
    """AUTOGRAPH_NO_CONVERTER=1 runs the guide with tf.function(autograph=False) semantics."""
    if os.environ.get("AUTOGRAPH_NO_CONVERTER") == "1":
        import importlib
        module = importlib.import_module("autograph.function")
        monkeypatch.setattr(module, "_converter", lambda: None)


@pytest.hookimpl(hookwrapper=True, trylast=True)
def pytest_runtest_call(item):
    """For tests using ``out``: tf.print's stderr goes where print goes, so order is kept.

    Done here, inside pytest's own capture of the call phase (capture is
    re-installed when the call starts, which would undo a fixture's patch).
    """
    if "out" not in item.fixturenames:
        yield
        return
    saved = sys.stderr
    sys.stderr = sys.stdout
    try:
        yield
    finally:
        sys.stderr = saved
