"""The eager inference cache (runtime/ops/eager.py): hits equal the uncached path.

Every test compares what a cache hit gives (value, dtype, error message)
with the reference path that runs the inference on the real inputs each
time, and covers the cases where a key on dtypes and shapes alone would be
wrong: inference that reads input values, attrs of another type, inference
that needs more than a probe offers.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import runtime as rt
from graph import dtypes
from graph import registry
from graph.errors import InvalidArgumentError, NotFoundError
from graph.ir import TensorType
from graph.shapes import TensorShape
from runtime.function import Function
from runtime.ops import eager
from runtime.ops.core import apply_op
from runtime.tensor import EagerTensor


@pytest.fixture(autouse=True)
def fresh_cache():
    eager.clear_cache()
    yield
    eager.clear_cache()


@pytest.fixture
def test_op():
    """Registers ops for one test and removes them (and their cache entries) afterwards."""
    names = []

    def register(name, infer, kernel, **kwargs):
        names.append(name)
        return registry.register_op(name, infer, kernel, **kwargs)
    yield register
    for name in names:
        registry._REGISTRY.pop(name, None)


def _message(fn) -> str:
    with pytest.raises(Exception) as info:
        fn()
    return f"{type(info.value).__name__}: {info.value}"


def _uncached(op, inputs, attrs=None):
    return eager._run_uncached(op, inputs, attrs or {})


CASES = [
    ("AddV2", lambda: [rt.constant([1.0, 2.0]), rt.constant(3.0)], None),
    ("Mul", lambda: [rt.constant([[1, 2]]), rt.constant([[3], [4]])], None),
    ("Tanh", lambda: [rt.constant(np.ones((2, 3), np.float64))], None),
    ("MatMul", lambda: [rt.constant(np.ones((2, 3), np.float32)),
                        rt.constant(np.ones((2, 3), np.float32))],
     {"transpose_a": False, "transpose_b": True}),
    ("Sum", lambda: [rt.constant(np.arange(6, dtype=np.int32).reshape(2, 3))],
     {"axis": (1,), "keep_dims": False}),
    ("Greater", lambda: [rt.constant([1, 5]), rt.constant(2)], None),
    ("StridedSlice", lambda: [rt.constant(np.arange(12.0).reshape(3, 4))],
     {"spec": (("index", 1), ("slice", None, None, 2))}),
    ("Cast", lambda: [rt.constant([1.7, -2.5])],
     {"SrcT": dtypes.float32, "DstT": dtypes.int32, "Truncate": False}),
    ("Unpack", lambda: [rt.constant(np.arange(6.0).reshape(3, 2))], {"num": 3, "axis": 0}),
    ("AddV2", lambda: [rt.constant(["a", "b"]), rt.constant("c")], None),  # built: strings
    ("FloorDiv", lambda: [rt.constant([7, -7]), rt.constant([2, 3])], None),
    ("FloorMod", lambda: [rt.constant([7.5, -7.0]), rt.constant(2.0)], None),
    ("Equal", lambda: [rt.constant([1, 2]), rt.constant([1, 2, 3])],
     {"incompatible_shape_error": False}),
    ("NotEqual", lambda: [rt.constant([1, 2]), rt.constant([[1], [3]])],
     {"incompatible_shape_error": True}),
    ("BatchMatMulV2", lambda: [rt.constant(np.ones((2, 2, 3))), rt.constant(np.ones((2, 2, 3)))],
     {"adj_x": False, "adj_y": True}),
]


@pytest.mark.parametrize("op,make,attrs", CASES, ids=[c[0] for c in CASES])
def test_a_cache_hit_gives_what_the_uncached_path_gives(op, make, attrs):
    inputs = make()
    expected = _uncached(op, inputs, attrs)
    first = apply_op(op, inputs, attrs)      # a miss: inference on probes, then cached
    second = apply_op(op, make(), attrs)     # a hit: no inference
    assert len(eager._CACHE) >= 1
    for got in (first, second):
        got_all = got if isinstance(got, tuple) else (got,)
        want_all = expected if isinstance(expected, tuple) else (expected,)
        assert len(got_all) == len(want_all)
        for g, w in zip(got_all, want_all):
            assert isinstance(g, EagerTensor) and g.dtype is w.dtype
            assert np.asarray(g.numpy()).dtype == w.dtype.numpy_dtype
            np.testing.assert_array_equal(g.numpy(), w.numpy())


def test_integer_division_by_zero_is_found_after_a_nonzero_divisor_was_cached():
    """FloorDiv's graph kernel drops the zero check for a nonzero constant divisor: eagerly
    every divisor is a constant, so the entry is keyed on the divisor's value."""
    x = rt.constant([7, 8])
    for _ in range(2):
        assert (x // rt.constant([2, 3])).numpy().tolist() == [3, 2]
    with pytest.raises(InvalidArgumentError, match="Integer division by zero"):
        x // rt.constant([2, 0])
    big = rt.constant(np.arange(1, 101, dtype=np.int32))
    assert (big // big).numpy().tolist() == [1] * 100     # too large to key on: uncached
    with pytest.raises(InvalidArgumentError, match="Integer division by zero"):
        big // rt.constant(np.arange(100, dtype=np.int32))


def test_errors_are_not_cached_and_keep_their_message():
    x, y = rt.constant([1.0]), rt.constant([1])
    add = lambda: x + y  # noqa: E731  (one line: the messages name it)
    first = _message(add)
    assert "cannot compute AddV2" in first and "int32" in first and "test_eager_cache" in first
    assert _message(add) == first                     # the same message every time
    assert _message(lambda: _uncached("AddV2", [x, y])).split("\n")[0] == first.split("\n")[0]
    rt.constant([1.0]) + rt.constant([2.0])            # a good key next to the bad one
    assert _message(add) == first


def test_inference_reading_values_is_keyed_on_them():
    """RandomUniformInt's inference checks minval < maxval from the values (so does its
    kernel: test_expand_dims_checks_each_axis_value is the one a wrong key would fail)."""
    ok = rt.random.uniform([3], minval=0, maxval=5, dtype=rt.int32)
    assert ok.shape == (3,) and ok.dtype == rt.int32
    again = rt.random.uniform([3], minval=0, maxval=5, dtype=rt.int32)  # a hit on the values
    assert np.all((again.numpy() >= 0) & (again.numpy() < 5))
    message = _message(lambda: rt.random.uniform([3], minval=5, maxval=1, dtype=rt.int32))
    assert "Need minval < maxval: 5 >= 1" in message


def test_expand_dims_checks_each_axis_value():
    x = rt.constant(np.ones((2, 3), np.float32))
    assert rt.expand_dims(x, 0).shape == (1, 2, 3)
    assert rt.expand_dims(x, 2).shape == (2, 3, 1)
    bad = lambda: rt.expand_dims(x, 7)  # noqa: E731
    fresh = _message(bad)
    eager.clear_cache()
    rt.expand_dims(x, 0)  # cached for this axis value only: the inference reads it
    assert _message(bad) == fresh
    assert "ExpandDims" in fresh


def _const(value, dtype=dtypes.int32):
    return EagerTensor(np.asarray(value, dtype.numpy_dtype), dtype)


def test_a_read_set_that_grows_with_the_values_is_not_cached(test_op):
    """Reads y only when x > 0: a key holding x's value alone must not decide for y."""
    def infer(inputs, attrs):
        x, y = inputs
        if int(x.value) > 0 and int(y.value) < 0:
            raise InvalidArgumentError(message="TestGrowingReads: y must not be negative")
        return [TensorType(dtypes.int32, TensorShape([]))]
    test_op("TestGrowingReads", infer, lambda x, y: np.int32(x + y))
    assert int(apply_op("TestGrowingReads", [_const(0), _const(-5)])) == -5  # reads x only
    assert int(apply_op("TestGrowingReads", [_const(1), _const(2)])) == 3    # reads x and y
    with pytest.raises(InvalidArgumentError, match="y must not be negative"):
        apply_op("TestGrowingReads", [_const(1), _const(-1)])
    assert int(apply_op("TestGrowingReads", [_const(0), _const(-7)])) == -7


def _no_negatives(inputs, attrs):
    if np.any(np.asarray(inputs[0].value) < 0):
        raise InvalidArgumentError(message="TestRead: negative element")
    return [TensorType(dtypes.int32, inputs[0].shape)]


@pytest.mark.parametrize("size", [3, 1000], ids=["small: keyed on its bytes", "large: uncached"])
def test_a_value_checked_by_inference_only_is_checked_on_every_call(test_op, size):
    test_op("TestRead", _no_negatives, lambda x: x)  # the kernel would not notice
    good = np.arange(size, dtype=np.int32)
    for _ in range(2):
        assert apply_op("TestRead", [_const(good)]).numpy().tolist() == good.tolist()
    bad = good.copy()
    bad[size // 2] = -1
    with pytest.raises(InvalidArgumentError, match="negative element"):
        apply_op("TestRead", [_const(bad)])
    assert len(eager._CACHE) == (2 if size == 3 else 1)


def test_attrs_of_another_type_are_another_key(test_op):
    def infer(inputs, attrs):
        if not isinstance(attrs["flag"], bool):
            raise TypeError(f"TestAttrType: flag must be a bool, got {attrs['flag']!r}")
        return [TensorType(dtypes.int32, inputs[0].shape)]
    test_op("TestAttrType", infer, lambda x, flag: x, kernel_attrs=("flag",))
    apply_op("TestAttrType", [_const(1)], {"flag": True})
    with pytest.raises(InvalidArgumentError, match="flag must be a bool, got 1"):
        apply_op("TestAttrType", [_const(1)], {"flag": 1})
    apply_op("TestAttrType", [_const(1)], {"flag": (True,)} | {"flag": False})
    with pytest.raises(InvalidArgumentError, match="flag must be a bool, got 0"):
        apply_op("TestAttrType", [_const(1)], {"flag": 0})


@pytest.mark.parametrize("good,bad", [
    ((1, "a", None), (True, "a", None)),
    (((1, 2), ("x",)), ((1, 2.0), ("x",))),
    ((1, 2), [1, 2]),
])
def test_tuple_attrs_are_keyed_on_their_elements_types(test_op, good, bad):
    def infer(inputs, attrs):
        def plain(v):
            return type(v) is tuple and all(
                type(e) in (int, str, type(None)) or plain(e) for e in v)
        if not plain(attrs["spec"]):
            raise TypeError(f"TestSpec: spec must hold ints and strings, got {attrs['spec']!r}")
        return [TensorType(dtypes.int32, inputs[0].shape)]
    test_op("TestSpec", infer, lambda x, spec: x, kernel_attrs=("spec",))
    for _ in range(2):
        apply_op("TestSpec", [_const(1)], {"spec": good})
    with pytest.raises(InvalidArgumentError, match="spec must hold ints and strings"):
        apply_op("TestSpec", [_const(1)], {"spec": bad})


def test_inference_asking_more_than_a_probe_offers_runs_uncached(test_op):
    calls = []

    def infer(inputs, attrs):
        calls.append(inputs[0].ndim)  # Tensor.ndim: real tensors have it, probes do not
        return [TensorType(dtypes.int32, inputs[0].shape)]
    test_op("TestNdim", infer, lambda x: x)
    for _ in range(3):
        assert int(apply_op("TestNdim", [_const(4)])) == 4
    assert calls == [0, 0, 0]  # the real inference ran every time


def test_unhashable_attrs_and_ops_without_kernels_take_the_reference_path(test_op):
    test_op("TestArrayAttr", lambda inputs, attrs: [TensorType(dtypes.int32, TensorShape([2]))],
            lambda value: value, kernel_attrs=("value",))
    for v in ([1, 2], [3, 4]):
        out = apply_op("TestArrayAttr", [], {"value": np.array(v, np.int32)})
        assert out.numpy().tolist() == v
    test_op("TestNoKernel", lambda inputs, attrs: [TensorType(dtypes.int32, TensorShape([]))],
            None)
    for _ in range(2):
        with pytest.raises(NotFoundError, match="TestNoKernel cannot run eagerly"):
            apply_op("TestNoKernel", [_const(1)])


def test_ops_with_zero_or_several_outputs(test_op):
    test_op("TestNoOutput", lambda inputs, attrs: [], lambda x: None)
    test_op("TestTwoOutputs", lambda inputs, attrs: [TensorType(dtypes.int32, TensorShape([])),
                                                     TensorType(dtypes.bool_, TensorShape([]))],
            lambda x: (x, np.bool_(x > 0)))
    for _ in range(2):
        assert apply_op("TestNoOutput", [_const(1)]) is None
        a, b = apply_op("TestTwoOutputs", [_const(3)])
        assert (a.dtype, b.dtype) == (dtypes.int32, dtypes.bool_) and bool(b)


def test_the_cache_stays_bounded(monkeypatch):
    monkeypatch.setattr(eager, "_CACHE_LIMIT", 8)
    for n in range(1, 30):
        rt.tanh(rt.constant(np.ones(n, np.float32)))
        assert len(eager._CACHE) <= 8
    assert rt.tanh(rt.constant(np.zeros(3, np.float32))).numpy().tolist() == [0, 0, 0]


def test_eager_ops_restore_the_error_state_on_hits_and_on_kernel_errors():
    x = rt.constant([1.0, 0.0])
    with np.errstate(divide="raise", invalid="warn"):
        before = np.geterr()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for _ in range(2):
                assert np.isinf((x / 0.0).numpy()[0])
        assert np.geterr() == before
        with pytest.raises(InvalidArgumentError):
            rt.gather(x, 5)
        assert np.geterr() == before
        with pytest.raises(FloatingPointError):
            np.float32(1.0) / np.float32(0.0)


def test_silenced_is_reentrant_and_keeps_the_function_name():
    @registry.silenced
    def outer():
        inner_state = registry.silenced(np.geterr)()
        return np.geterr(), inner_state
    with np.errstate(all="raise"):
        state, inner_state = outer()
        assert set(state.values()) == set(inner_state.values()) == {"ignore"}
        assert set(np.geterr().values()) == {"raise"}
    assert outer.__name__ == "outer"


def test_leaked_symbolic_tensors_are_still_reported_eagerly():
    leaked = []

    @Function
    def f(x):
        leaked.append(x + 1)
        return x
    f(rt.constant(1))
    with pytest.raises(Exception, match="escaped the function"):
        rt.tanh(leaked[0])


def test_an_op_with_a_new_key_on_every_call_stops_filling_the_cache(monkeypatch):
    """Random ops under a global seed get new seed attrs on every call."""
    monkeypatch.setattr(eager, "_OP_LIMIT", 5)
    rt.random.set_seed(1)
    try:
        values = [rt.random.uniform([2]).numpy().tolist() for _ in range(20)]
    finally:
        rt.random.set_seed(None)
    assert len({tuple(v) for v in values}) == 20
    assert len(eager._CACHE) <= 5 + 1  # (a miss may store two entries: the values it read)


def _outcome(run):
    """(dtype name, value) of a run, or the first line of its error."""
    try:
        out = run()
    except Exception as e:  # noqa: BLE001
        return type(e).__name__, str(e).split("\n")[0]
    return out.dtype.name, np.asarray(out.numpy()).dtype, np.asarray(out.numpy()).tolist()


_SHAPES = st.lists(st.integers(1, 3), min_size=0, max_size=3).map(tuple)
_DTYPES = st.sampled_from([dtypes.float32, dtypes.float64, dtypes.int32, dtypes.bool_])


@settings(max_examples=60, deadline=None)
@given(op=st.sampled_from(["AddV2", "Mul", "Maximum", "Greater", "MatMul", "LogicalAnd"]),
       a=st.tuples(_DTYPES, _SHAPES), b=st.tuples(_DTYPES, _SHAPES))
def test_hits_and_misses_agree_with_the_reference_path(op, a, b):
    def make():
        return [EagerTensor(np.ones(s, d.numpy_dtype), d) for d, s in (a, b)]
    attrs = {"transpose_a": False, "transpose_b": False} if op == "MatMul" else {}
    want = _outcome(lambda: _uncached(op, make(), attrs))
    for _ in range(2):
        assert _outcome(lambda: apply_op(op, make(), dict(attrs))) == want
