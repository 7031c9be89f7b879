"""Functions and lambdas defined inside converted code, lambdas sharing a line, ``len`` of a
dataset in a graph, and the names loop variables print with: each failed before its fix."""
import io
import warnings
from contextlib import redirect_stdout

import numpy as np
import pytest

import autograph as tf
from autograph.converter import conversion


def test_defs_and_lambdas_in_converted_code_are_not_converted_again(monkeypatch):
    def outer(x):
        pick = [lambda v: v + 1 if v > 0 else v - 1, lambda v: v * 2]

        def inner(v):
            if v > 2:
                return v * 10
            return v
        return inner(pick[1](pick[0](x)))

    calls = []
    real = conversion.convert_function
    monkeypatch.setattr(conversion, "convert_function",
                        lambda fn, *a, **k: calls.append(fn.__name__) or real(fn, *a, **k))
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "could not convert <lambda>" before the fix
        f = tf.function(outer)
        assert int(f(tf.constant(1))) == 40
        assert int(f(tf.constant(-3))) == -8
    assert calls == ["outer"]


def test_same_signature_lambdas_on_one_line_are_told_apart():
    pair = [lambda v: v * 2 if v > 1 else v, lambda v: v - 1 if v > 1 else v + 100]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        first, second = (tf.function(f) for f in pair)
        assert int(first(tf.constant(3))) == 6 and int(first(tf.constant(1))) == 1
        assert int(second(tf.constant(3))) == 2 and int(second(tf.constant(1))) == 101


def test_dataset_map_and_filter_lambdas_on_one_line():
    def total(ds):
        s = 0
        for y in ds.map(lambda v: v * 2).filter(lambda v: v > 2):
            s += y
        return s

    ds = tf.data.Dataset.from_tensor_slices(np.array([1, 2, 3], np.int32))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert int(total(ds)) == 10
        assert int(tf.function(total)(ds)) == 10


def _len(x):
    return len(x)


def test_len_of_a_dataset_in_a_graph_is_its_cardinality():
    # TensorFlow 2.21: tf.Tensor(3, shape=(), dtype=int64) (before: TypeError, eager only)
    n = tf.function(_len)(tf.data.Dataset.from_tensor_slices([1, 2, 3]))
    assert n.dtype == tf.int64 and int(n) == 3
    batched = tf.function(_len)(tf.data.Dataset.range(5).batch(2))
    assert int(batched) == 3


@pytest.mark.parametrize("make,got", [
    (lambda: tf.data.Dataset.range(3).repeat(), -1),
    (lambda: tf.data.Dataset.range(3).filter(lambda v: v > 1), -2),
])
def test_len_of_an_infinite_or_unknown_dataset_fails_when_run(make, got):
    message = f"len requires dataset with definitive cardinality, got {got}"
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.function(_len)(make())
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.autograph.to_graph(_len)(make())


def test_cardinality_is_known_in_a_graph():
    @tf.function
    def card(ds):
        return ds.cardinality()
    assert int(card(tf.data.Dataset.range(7).skip(2))) == 5


def test_loop_variables_print_as_tensorflow_names_them():
    def loops(n):
        for i in range(n):
            print("i", i)
        j = 0
        while j < n:
            print("j", j)
            j += 1
        return n

    out = io.StringIO()
    with redirect_stdout(out):
        tf.function(loops)(tf.constant(2))
    # TensorFlow 2.21 prints exactly these two lines while tracing.
    assert out.getvalue().splitlines() == [
        'i Tensor("while/Placeholder:0", shape=(), dtype=int32)',
        'j Tensor("while_1/Placeholder:0", shape=(), dtype=int32)']
