"""Every test starts from TensorFlow's initial random state: no global seed (a test that
sets one would otherwise decide what later tests' seeded ops draw)."""
import pytest

import runtime


@pytest.fixture(autouse=True)
def _no_global_seed():
    runtime.random.set_seed(None)
    yield
