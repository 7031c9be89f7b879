"""What the guides' notebooks set up: ``assert_raises``, and a way to see prints in order.

The guides print ``Caught expected exception \\n  <class '...'>:`` and then a
traceback on stderr; tests compare the stdout part and keep the exception
(``caught[-1]``) to check its type and message.
"""
import contextlib

import pytest

caught: list = []


@contextlib.contextmanager
def assert_raises(error_class):
    try:
        yield
    except error_class as e:
        print('Caught expected exception \n  {}:'.format(error_class))
        caught.append(e)
    except Exception as e:
        raise e
    else:
        raise Exception('Expected {} to be raised but no error was raised!'.format(
            error_class))


@pytest.fixture
def out(capsys):
    """Returns a function giving everything printed so far (tf.print's stderr included, in order:
    tests/guide/conftest.py sends stderr to stdout while such a test runs)."""

    def read() -> str:
        return capsys.readouterr().out
    return read
