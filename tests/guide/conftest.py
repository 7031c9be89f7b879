import sys

import pytest

from tests.guide.helpers import out  # noqa: F401  (fixture)


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
