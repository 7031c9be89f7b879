"""tf.function(jit_compile=True): semantics, state, errors and the compiler IR."""
import subprocess
import sys

import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError

jax = pytest.importorskip("jax")


def _both(fn, *args):
    """(compiled, numpy backend) results as numpy lists."""
    got = tf.function(fn, jit_compile=True)(*args)
    want = tf.function(fn)(*args)
    return ([np.asarray(t) for t in tf.nest.flatten(got)],
            [np.asarray(t) for t in tf.nest.flatten(want)])


def _assert_same(fn, *args, rtol=1e-6):
    got, want = _both(fn, *args)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=rtol)


def test_default_path_never_imports_jax():
    code = ("import sys, autograph as tf\n"
            "f = tf.function(lambda x: x * 2, autograph=False)\n"
            "f(tf.constant(1.0))\n"
            "assert 'jax' not in sys.modules, 'jax imported'\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=str(__import__("pathlib")
                   .Path(__file__).resolve().parents[2]))


def test_missing_jax_says_how_to_install(monkeypatch):
    from graph.xla import require_jax
    monkeypatch.setitem(sys.modules, "jax", None)
    with pytest.raises(ImportError, match=r"pip install autograph-staging\[xla\]"):
        require_jax()


def test_nested_control_flow_and_array_ops():
    def f(x, n):
        total = tf.zeros([3])
        i = 0
        while i < n:
            if tf.reduce_sum(x) > 0:
                for j in tf.range(2):
                    total += tf.tanh(x[j] * tf.cast(i, tf.float32))
            else:
                total -= tf.reduce_mean(tf.matmul(x, x, transpose_b=True))
            i += 1
        return total, tf.argmax(x, axis=1), tf.concat([x, x], 0)[1:3]
    x = tf.constant(np.arange(9, dtype=np.float32).reshape(3, 3) / 10)
    _assert_same(f, x, tf.constant(3))
    _assert_same(f, -x, tf.constant(2))


def test_64_bit_dtypes_without_touching_jax_config():
    def f(a, b):
        return a * 3 + 1, b / 3, tf.reduce_sum(a)
    got, want = _both(f, tf.constant(np.int64(2**40)), tf.constant(np.float64(1.0)))
    assert [g.dtype for g in got] == [np.int64, np.float64, np.int64]
    assert [g.tolist() for g in got] == [w.tolist() for w in want]
    assert not jax.config.jax_enable_x64


def test_int32_sum_stays_int32():
    got, _ = _both(lambda x: (tf.reduce_sum(x), tf.reduce_mean(x)), tf.constant([1, 2, 4]))
    assert [g.dtype for g in got] == [np.int32, np.int32] and got[1] == 2


def test_tensor_array_of_known_size():
    def f(x):
        ta = tf.TensorArray(tf.float32, size=4)
        for i in tf.range(4):
            ta = ta.write(i, x * tf.cast(i, tf.float32))
        return ta.stack(), ta.read(2)
    _assert_same(f, tf.constant([1.0, 2.0]))


def test_variables_are_read_and_written_back():
    v = tf.Variable(1.0)
    w = tf.Variable(np.int64(5))

    @tf.function(jit_compile=True)
    def f(x):
        for _ in tf.range(3):
            v.assign_add(x)
        w.assign(w * 2)
        return v.read_value()
    assert float(f(tf.constant(2.0))) == 7.0
    assert float(v.numpy()) == 7.0 and int(w.numpy()) == 10 and w.numpy().dtype == np.int64
    f(tf.constant(1.0))
    assert float(v.numpy()) == 10.0 and int(w.numpy()) == 20


def test_random_ops_follow_seeds():
    def make():
        return tf.function(lambda: tf.random.uniform([3], seed=7), jit_compile=True)
    f, g = make(), make()
    a, b = f().numpy(), f().numpy()
    assert a.dtype == np.float32 and a.shape == (3,) and not np.array_equal(a, b)
    np.testing.assert_array_equal(g().numpy(), a)  # same seeds, same sequence
    assert ((a >= 0) & (a < 1)).all()


def test_gradient_tape_inside_compiled_function():
    @tf.function(jit_compile=True)
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.math.sin(x) * x)
            y = tf.cond(y > 0, lambda: y * 2.0, lambda: y)
        return tape.gradient(y, x)
    x = np.array([0.5, 1.0], np.float32)
    np.testing.assert_allclose(f(tf.constant(x)).numpy(), 2 * (np.cos(x) * x + np.sin(x)),
                               rtol=1e-5)


def test_compiled_function_under_outer_tape():
    f = tf.function(lambda x: tf.reduce_sum(x * x * x), jit_compile=True)
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        y = f(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [3.0, 12.0])


def test_unsupported_ops_are_reported_before_running():
    v = tf.Variable(0)

    @tf.function(jit_compile=True)
    def f(x):
        v.assign_add(1)
        tf.print(x)
        return x + 1
    with pytest.raises(InvalidArgumentError) as info:
        f(tf.constant(1))
    message = str(info.value)
    assert message.startswith("Detected unsupported operations when trying to compile graph f")
    assert "StringFormat" in message and "test_jit_compile.py" in message
    assert int(v.numpy()) == 0  # nothing ran


@pytest.mark.parametrize("body", [
    lambda x: tf.strings.length(tf.strings.as_string(x)),
    lambda x: tf.py_function(lambda a: a, [x], tf.int32),
])
def test_strings_and_py_function_are_unsupported(body):
    with pytest.raises(InvalidArgumentError, match="Detected unsupported operations"):
        tf.function(body, jit_compile=True)(tf.constant(1))


def test_dynamic_tensor_array_is_unsupported():
    def f(n):
        ta = tf.TensorArray(tf.int32, size=0, dynamic_size=True)
        for i in tf.range(n):
            ta = ta.write(i, i)
        return ta.stack()
    with pytest.raises(InvalidArgumentError, match="dynamic_size"):
        tf.function(f, jit_compile=True)(tf.constant(3))


def test_assert_is_dropped_as_under_tensorflow_xla():
    f = tf.function(lambda x: (tf.debugging.assert_positive(x), x + 1)[1], jit_compile=True)
    assert float(f(tf.constant(-1.0))) == 0.0


def test_compiler_ir_and_aliases():
    f = tf.function(lambda x: tf.tanh(x) * 2, experimental_compile=True)
    x = tf.constant([1.0, 2.0])
    hlo = f.experimental_get_compiler_ir(x)(stage="hlo")
    assert hlo.startswith("HloModule") and "tanh" in hlo
    assert "HloModule" in f.experimental_get_compiler_ir(x)(stage="optimized_hlo")
    with pytest.raises(ValueError, match="stage"):
        f.experimental_get_compiler_ir(x)(stage="nope")

    class Model:
        @tf.function(jit_compile=True)
        def scale(self, x):
            return x * 3.0
    np.testing.assert_allclose(Model().scale(x).numpy(), [3.0, 6.0])


def test_cli_graph_format_hlo(tmp_path, capsys):
    from autograph.cli import main
    module = tmp_path / "mod.py"
    module.write_text("import autograph as tf\n\ndef f(x):\n    return tf.tanh(x) * 2.0\n")
    assert main(["graph", f"{module}:f", "--spec", "float32[3]", "--format", "hlo"]) == 0
    assert capsys.readouterr().out.startswith("HloModule")
    assert main(["graph", f"{module}:f", "--spec", "float32[None]", "--format", "hlo"]) == 1


def test_state_threads_through_branches_and_loops():
    v = tf.Variable(0.0)

    @tf.function(jit_compile=True)
    def f(x):
        total = tf.zeros([2])
        for _ in tf.range(3):
            total += tf.random.normal([2], seed=3)
            if x > 0:
                v.assign_add(1.0)
            else:
                v.assign_sub(2.0)
        return total
    a = f(tf.constant(1.0)).numpy()
    assert float(v.numpy()) == 3.0
    b = f(tf.constant(-1.0)).numpy()
    assert float(v.numpy()) == -3.0
    assert a.shape == (2,) and a.dtype == np.float32 and not np.array_equal(a, b)


def test_shape_changing_in_a_loop_is_unsupported():
    @tf.function(jit_compile=True)
    def grow(x):
        return tf.while_loop(lambda x: tf.shape(x)[0] < 10, lambda x: [tf.concat([x, x], 0)],
                             [x], shape_invariants=[tf.TensorShape([None])])
    with pytest.raises(InvalidArgumentError, match="changes its shape") as info:
        grow(tf.constant([1.0]))
    assert "test_jit_compile.py" in str(info.value)


def test_datasets_are_unsupported():
    @tf.function(jit_compile=True)
    def total():
        s = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(3):
            s += x
        return s
    with pytest.raises(InvalidArgumentError, match="RangeDataset"):
        total()
