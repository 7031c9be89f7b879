"""tf.autograph.set_verbosity/trace and the TensorFlow 2 subset of tf.compat.v1."""
import logging

import numpy as np
import pytest

import autograph as tf
from autograph.impl import ag_logging


@pytest.fixture
def verbosity():
    saved = ag_logging.verbosity_level, ag_logging.echo_log_to_stdout
    yield tf.autograph.set_verbosity
    ag_logging.verbosity_level, ag_logging.echo_log_to_stdout = saved


def _helper_s7(x):
    return x * 2


def test_trace_prints_the_symbolic_values_once_per_trace(capsys):
    @tf.function
    def f(x):
        tf.autograph.trace("tracing", x)
        return x + 1

    f(tf.constant(1))
    f(tf.constant(2))
    assert capsys.readouterr().out == 'tracing Tensor("x:0", shape=(), dtype=int32)\n'


def test_verbosity_logs_conversions_to_stdout_when_asked(verbosity, capsys):
    def g(x):
        return _helper_s7(x) + 1

    verbosity(2, alsologtostdout=True)
    assert tf.autograph.to_graph(g)(tf.constant(1)).numpy() == 3
    out = capsys.readouterr().out
    assert f"Converted call: {_helper_s7}" in out
    assert f"{_helper_s7} is not cached for subkey" in out
    assert f"Transformed {_helper_s7}:" in out and "def tf___helper_s7(x):" in out


def test_verbosity_level_one_leaves_out_the_source(verbosity, capsys):
    def h(x):
        return x - 1

    verbosity(1, alsologtostdout=True)
    tf.autograph.to_graph(h)(1)
    out = capsys.readouterr().out
    assert f"Converted call: {h}" in out and "Transformed" not in out


def test_verbosity_zero_logs_nothing(verbosity, capsys, caplog):
    def k(x):
        return x - 2

    verbosity(0, alsologtostdout=True)
    with caplog.at_level(logging.INFO, logger="tensorflow"):
        tf.autograph.to_graph(k)(1)
    assert capsys.readouterr().out == "" and not caplog.records


def test_compat_v1_logging_sets_the_tensorflow_logger_level():
    logger = tf.get_logger()
    saved = logger.level
    try:
        tf.compat.v1.logging.set_verbosity(tf.compat.v1.logging.ERROR)
        assert logger.level == logging.ERROR == tf.compat.v1.logging.get_verbosity()
        assert tf.compat.v1.logging.WARN == logging.WARNING
    finally:
        logger.setLevel(saved)


def test_compat_v1_seed_and_switches_mean_what_they_mean_in_tensorflow_2():
    tf.compat.v1.enable_eager_execution()
    tf.compat.v1.enable_v2_behavior()
    assert tf.compat.v1.executing_eagerly()
    tf.compat.v1.set_random_seed(3)
    a = tf.random.uniform([3]).numpy()
    tf.random.set_seed(3)
    np.testing.assert_array_equal(a, tf.random.uniform([3]).numpy())
    assert tf.compat.v2 is tf


def test_compat_v1_tensorflow_1_api_is_refused_by_name():
    with pytest.raises(AttributeError, match=r"tf\.compat\.v1\.placeholder is TensorFlow 1 API"):
        tf.compat.v1.placeholder
    with pytest.raises(AttributeError, match=r"tf\.compat\.v1\.train is TensorFlow 1 API"):
        tf.compat.v1.train.AdamOptimizer
    with pytest.raises(NotImplementedError, match="graph mode"):
        tf.compat.v1.disable_eager_execution()


def test_user_code_frames_are_marked_converted_and_listed_without_gaps():
    # The guide's format: each converted frame ends with "  *", frames one after another.
    def inner(x):
        return tf.Variable(x)

    @tf.function
    def outer(x):
        return inner(x)

    with pytest.raises(ValueError) as info:  # (as in TensorFlow: the first call refuses it)
        outer(1.0)
    text = str(info.value)
    assert text.startswith("in user code:\n\n")
    assert ", in outer  *\n        return inner(x)\n    File " in text
    assert ", in inner  *\n        return tf.Variable(x)\n\n    ValueError: " in text
