"""tf.print, tf.strings and tf.debugging asserts: eager and staged."""
import contextlib
import io
import logging
import sys

import numpy as np
import pytest

import runtime as tf
from graph import compile_graph
from graph.errors import InvalidArgumentError
from tests.staging import trace


def run_staged(fn, *args):
    """Traces ``fn`` and returns a callable running its compiled graph."""
    graph, _, feeds = trace(fn, *args)
    plan = compile_graph(graph)
    return lambda *new: plan(*(new or feeds))


def test_eager_print_formats_like_tensorflow(capsys):
    tf.print(tf.constant([0.666458249, 0.713946581, 0.723879576, 0.330758929, 0.184087753]))
    assert capsys.readouterr().err == "[0.666458249 0.713946581 0.723879576 0.330758929 0.184087753]\n"
    tf.print("Executed with", 1)
    tf.print("Value:", tf.constant(1))
    tf.print(tf.range(10))
    tf.print(tf.constant([[1.5, 2.0], [3.0, 4.25]]))
    tf.print(tf.constant([True, False]), tf.constant("s"), [tf.constant(1), "a"], {"k": tf.constant(2.5)})
    assert capsys.readouterr().err == (
        "Executed with 1\nValue: 1\n[0 1 2 ... 7 8 9]\n[[1.5 2]\n [3 4.25]]\n"
        "[1 0] \"s\" [1, 'a'] {'k': 2.5}\n")


def test_print_options(capsys):
    x = tf.range(8)
    tf.print(x, summarize=None)
    tf.print(x, summarize=1, end="|")
    tf.print("a", "b", x[:2], sep=", ")
    tf.print(tf.constant("plain scalar string"))
    tf.print("braces {} stay", tf.constant(3))
    tf.print("to stdout", output_stream=sys.stdout)
    out = capsys.readouterr()
    assert out.err == ("[0 1 2 3 4 5 6 7]\n[0 ... 7]|a, b, [0 1]\nplain scalar string\n"
                       "braces {} stay 3\n")
    assert out.out == "to stdout\n"


def test_print_to_log_and_file(tmp_path, caplog):
    with caplog.at_level(logging.INFO):
        tf.print("logged", tf.constant(2), output_stream=logging.info)
    assert "logged 2" in caplog.text
    path = tmp_path / "out.txt"
    tf.print("one", output_stream=f"file://{path}")
    tf.print("two", output_stream=f"file://{path}")
    assert path.read_text() == "one\ntwo\n"


def test_unsupported_stream_is_rejected():
    with pytest.raises(ValueError, match="Unsupported output stream.*sys.stdout"):
        tf.print("x", output_stream=io.StringIO())


def test_staged_print_runs_every_time_the_graph_runs(capsys):
    def f(x):
        tf.print("x:", x)
        return x + 1
    run = run_staged(f, np.array([1.5, 2.0], np.float32))
    assert capsys.readouterr().err == ""          # tracing prints nothing
    run()
    run(np.array([3.0], np.float32))
    assert capsys.readouterr().err == "x: [1.5 2]\nx: [3]\n"


def test_staged_print_looks_up_stderr_when_it_runs():
    run = run_staged(lambda: (tf.print("late"), tf.constant(0))[1])
    buffer = io.StringIO()
    with contextlib.redirect_stderr(buffer):
        run()
    assert buffer.getvalue() == "late\n"


def test_print_in_a_staged_loop_matches_eager(capsys):
    def f(x):
        def body(x):
            tf.print(x)
            return (tf.tanh(x),)
        return tf.while_loop(lambda x: tf.reduce_sum(x) > 1, body, [x])
    x = np.array([0.666458249, 0.713946581, 0.723879576, 0.330758929, 0.184087753], np.float32)
    f(tf.constant(x))
    eager = capsys.readouterr().err
    run_staged(f, x)()
    staged = capsys.readouterr().err
    assert staged == eager and staged.count("\n") > 3
    assert staged.splitlines()[0] == "[0.666458249 0.713946581 0.723879576 0.330758929 0.184087753]"
    # numpy's correctly rounded tanh; TensorFlow's float32 kernel (Eigen's rational
    # approximation) prints 0.319202513 0.182036072 for the last two.
    assert staged.splitlines()[1] == "[0.582645297 0.613145649 0.619306684 0.319202542 0.182036087]"


def test_print_inside_cond_makes_it_stateful(capsys):
    def f(x):
        return tf.cond(x > 0, lambda: (tf.print("pos"), x)[1], lambda: x)
    graph, _, _ = trace(f, np.int32(1))
    assert any(n.op == "If" for n in graph.nodes)
    plan = compile_graph(graph)
    plan(np.int32(1))
    plan(np.int32(-1))
    assert capsys.readouterr().err == "pos\n"


# -- asserts ----------------------------------------------------------------------

def test_assert_staged_passes_and_fails_with_the_user_line():
    def f(x):
        tf.debugging.Assert(tf.reduce_all(x > 0), ["x must be positive:", x])  # the line
        return x * 2
    run = run_staged(f, np.array([1, 2], np.int32))
    np.testing.assert_array_equal(run()[0], [2, 4])
    with pytest.raises(InvalidArgumentError) as info:
        run(np.array([1, -2, 3, 4], np.int32))
    message = str(info.value)
    assert "assertion failed: [x must be positive:] [1 -2 3...]" in message
    assert f"test_print.py:{f.__code__.co_firstlineno + 1}" in message


def test_assert_eager():
    tf.debugging.Assert(True, ["never shown"])
    with pytest.raises(InvalidArgumentError, match=r"Expected .* to be true. Summarized data: b'bad'\n1, 2, 3, \.\.\."):
        tf.Assert(tf.constant(False), ["bad", tf.range(1, 6)])


def test_assert_equal_and_friends():
    tf.debugging.assert_equal(tf.constant([1, 2]), [1, 2])
    tf.debugging.assert_greater(tf.constant([2, 3]), 1)
    tf.debugging.assert_positive(tf.constant([0.5]))
    with pytest.raises(InvalidArgumentError, match=r"oops\nCondition x == y did not hold.\nIndices of first 1 different values:\n\[\[1\]\]\nCorresponding x values:\n\[2\]\nCorresponding y values:\n\[3\]\n  at .*test_print.py:\d+"):
        tf.debugging.assert_equal(tf.constant([1, 2]), [1, 3], message="oops")
    with pytest.raises(InvalidArgumentError, match="Condition x < y"):
        tf.debugging.assert_less(tf.constant(5), 3)
    with pytest.raises(InvalidArgumentError, match=r"Condition x >= y"):
        tf.debugging.assert_non_negative(tf.constant([-1.0]))


def test_assert_equal_staged():
    def f(x, y):
        tf.debugging.assert_equal(x, y, message="mismatch")
        return x + y
    run = run_staged(f, np.array([1, 2], np.int32), np.array([1, 2], np.int32))
    run()
    with pytest.raises(InvalidArgumentError, match=r"\[mismatch\] \[Condition x == y did not hold "
                                                   r"element-wise:\] \[x \(arg0:0\) = \] \[1 2\]"):
        run(np.array([1, 2], np.int32), np.array([1, 3], np.int32))


def test_assert_on_constants_fails_while_tracing():
    with pytest.raises(InvalidArgumentError, match="Condition x > y did not hold"):
        trace(lambda: tf.debugging.assert_greater(tf.constant(1), tf.constant(2)))


# -- strings --------------------------------------------------------------------------

def test_strings_namespace():
    assert tf.strings.format("x={} y={}", [tf.constant([1, 2]), 3.5]).numpy() == b"x=[1 2] y=3.5"
    assert tf.strings.join([tf.constant(["a", "b"]), "c"], separator="-").numpy().tolist() == [b"a-c", b"b-c"]
    assert tf.strings.length(tf.constant(["ab", "é"])).numpy().tolist() == [2, 2]
    assert tf.strings.length("é", unit="UTF8_CHAR").numpy() == 1
    assert tf.strings.upper("abc").numpy() == b"ABC"
    assert tf.strings.to_number(tf.constant(["1.5", "2"])).numpy().tolist() == [1.5, 2.0]
    assert tf.strings.as_string(tf.constant([1, 2])).numpy().tolist() == [b"1", b"2"]
    with pytest.raises(InvalidArgumentError, match="could not correctly convert string: x"):
        tf.strings.to_number("x")


def test_string_ops_staged():
    s = tf.constant(np.array([b"ab", b"c"], dtype=object))

    def f(s):
        return tf.strings.join([s, s]), tf.strings.length(s), s + "!", tf.strings.format("{}", s)
    graph, _, feeds = trace(f, s)
    for backend in ("codegen", "interpret"):
        out = compile_graph(graph, backend=backend)(*feeds)
        assert out[0].tolist() == [b"abab", b"cc"] and out[1].tolist() == [2, 1]
        assert out[2].tolist() == [b"ab!", b"c!"] and out[3][()] == b'["ab" "c"]'


@pytest.mark.parametrize("shape, text", [
    ([0], "[]"), ([0, 2], "[]"), ([0, 0], "[]"),
    ([2, 0], "[\n ...]"), ([1, 0], "[\n ...]"),
    ([2, 0, 3], "[\n\n ...]"), ([2, 3, 0], "[\n\n ...]"),
])
def test_print_of_an_empty_tensor_with_rows_is_tensorflow_s(shape, text, capsys):
    # Recorded from TensorFlow 2.21's tf.print; "[[]\n []]" was printed before.
    tf.print(tf.zeros(shape), output_stream=sys.stdout)
    tf.print(tf.zeros(shape, tf.int32), summarize=-1, output_stream=sys.stdout)
    assert capsys.readouterr().out == f"{text}\n{text}\n"
