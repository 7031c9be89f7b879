"""autograph.function: the public decorator and how it wires the converter into runtime.Function."""
import importlib

import pytest

import autograph as tf
from runtime.function import Function

function_module = importlib.import_module("autograph.function")


def square(x):
    return x * x


def test_three_call_forms_build_a_function():
    for f in (tf.function(square), tf.function()(square),
              tf.function(input_signature=None)(square)):
        assert isinstance(f, Function)
        assert f.python_function is square
        assert f.__name__ == "square"
        assert int(f(tf.constant(3))) == 9

    @tf.function
    def cube(x):
        return x * x * x
    assert int(cube(tf.constant(2))) == 8


def test_converter_is_passed_unless_autograph_is_false(monkeypatch):
    seen = []

    def local_square(x):  # not the shared `square`: its other Functions count as retraces
        return x * x

    def fake_convert(fn):
        seen.append(fn)
        return fn
    monkeypatch.setattr(function_module, "_converter", lambda options: fake_convert)
    f = tf.function(local_square)
    f(tf.constant(2))
    f(tf.constant(3))
    assert seen == [local_square]          # converted once per Function, at its first trace
    g = tf.function(local_square, autograph=False)
    g(tf.constant(2))
    assert seen == [local_square]
    assert g._converter is None


def test_converter_missing_means_none(monkeypatch):
    monkeypatch.setattr(function_module, "_converter", lambda options: None)
    assert tf.function(square)._converter is None


def test_options_are_passed_through():
    f = tf.function(square, reduce_retracing=True, jit_compile=True)
    assert f._reduce_retracing and f._jit_compile
    assert tf.function(square, experimental_relax_shapes=True)._reduce_retracing
    spec = [tf.TensorSpec([None], tf.int32)]
    assert tf.function(square, input_signature=spec).input_signature == tuple(spec)


def test_rewrapping_a_function_keeps_the_python_function():
    f = tf.function(tf.function(square), autograph=False)
    assert f.python_function is square


def test_bad_input_signature_is_a_type_error():
    with pytest.raises(TypeError, match="input_signature"):
        tf.function(square, input_signature=tf.TensorSpec([], tf.int32))


def test_public_names():
    assert tf.config.run_functions_eagerly and tf.config.functions_run_eagerly
    assert tf.Module and tf.py_function and tf.types.experimental.TraceType
    assert tf.TensorSpec is __import__("runtime").TensorSpec


def _tanh_of(x):
    return tf.tanh(x)


def test_a_library_function_converted_on_request_leaves_its_code_siblings_unconverted():
    # tf.exp and tf.tanh share one code object (their fast path): converting tf.exp because a
    # user asked must not make tf.tanh, called from user code, run converted (its nodes then
    # pointed at the library's lines instead of the user's)
    assert tf.function(tf.exp)(tf.constant([1.0])).numpy().tolist() == [2.7182817459106445]
    concrete = tf.function(_tanh_of).get_concrete_function(tf.constant([1.0]))
    tanh = next(n for n in concrete.graph.get_operations() if n.type == "Tanh")
    assert tanh.origin.file.endswith("test_function.py"), tanh.origin
