"""tf.experimental.ExtensionType: fields, conversion, immutability, Spec, and staging.

Reprs, messages and results recorded from TensorFlow 2.21 (/tmp/tfcheck_ext/et1.py, et2.py).
"""
import typing

import numpy as np
import pytest

import autograph as tf


class MaskedTensor(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor

    def __validate__(self):
        assert self.mask.dtype.is_bool, "mask.dtype must be bool"

    def with_values(self, values):
        return MaskedTensor(values, self.mask)


class Point(tf.experimental.ExtensionType):
    name: str
    shape: tf.TensorShape
    t: tf.Tensor
    opts: typing.Tuple[int, ...] = ()
    m: typing.Mapping[str, tf.Tensor] = {}
    r: typing.Optional[tf.RaggedTensor] = None
    x: float = 1.0


class Pair(tf.experimental.ExtensionType):
    n: int
    t: typing.Union[tf.Tensor, int] = 0


class Nested(tf.experimental.ExtensionType):
    a: Pair
    t: typing.Tuple[tf.Tensor, ...]


def mt():
    return MaskedTensor([1, 2, 3], [True, False, True])


def test_repr_spec_and_fields_as_tensorflow():
    m = mt()
    assert repr(m) == (
        "MaskedTensor(values=<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], "
        "dtype=int32)>, mask=<tf.Tensor: shape=(3,), dtype=bool, numpy=array([ True, False,  "
        "True])>)")
    assert repr(m._type_spec) == (
        "MaskedTensor.Spec(values=TensorSpec(shape=(3,), dtype=tf.int32, name=None), "
        "mask=TensorSpec(shape=(3,), dtype=tf.bool, name=None))")
    assert [f.name for f in MaskedTensor._tf_extension_type_fields()] == ["values", "mask"]
    assert issubclass(MaskedTensor.Spec, tf.experimental.ExtensionTypeSpec)
    assert MaskedTensor.Spec.__qualname__ == "MaskedTensor.Spec"
    assert m._type_spec.value_type is MaskedTensor


def test_field_conversion_and_python_fields():
    p = Point("a", [2, None], tf.constant([1., 2.]), (1, 2), {"k": tf.constant(1)},
              tf.ragged.constant([[1], [2, 3]]))
    assert repr(p).startswith("P") and "shape=TensorShape([2, None])" in repr(p)
    assert "m=ImmutableDict({'k': <tf.Tensor: shape=(), dtype=int32, numpy=1>})" in repr(p)
    assert "r=<tf.RaggedTensor [[1], [2, 3]]>, x=1.0)" in repr(p)
    assert repr(p._type_spec) == (
        "Point.Spec(name='a', shape=TensorShape([2, None]), t=TensorSpec(shape=(2,), "
        "dtype=tf.float32, name=None), opts=(1, 2), m={'k': TensorSpec(shape=(), dtype=tf.int32, "
        "name=None)}, r=RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64), x=1.0)")
    assert isinstance(p.shape, tf.TensorShape) and isinstance(p.opts, tuple)
    with pytest.raises(TypeError):
        p.m["k"] = 2
    assert repr(Pair(3, 2.5).t) == "<tf.Tensor: shape=(), dtype=float32, numpy=2.5>"
    assert Pair(True).n is True  # bool is an int, as in TensorFlow
    n = Nested(Pair(1), (1, 2.0))
    assert repr(n._type_spec) == (
        "Nested.Spec(a=Pair.Spec(n=1, t=TensorSpec(shape=(), dtype=tf.int32, name=None)), "
        "t=(TensorSpec(shape=(), dtype=tf.int32, name=None), TensorSpec(shape=(), "
        "dtype=tf.float32, name=None)))")


@pytest.mark.parametrize("make, error, message", [
    (lambda: MaskedTensor([1, 2, 3]), TypeError, "missing a required argument: 'mask'"),
    (lambda: MaskedTensor([1, 2, 3], [1, 0, 1]), AssertionError, "mask.dtype must be bool"),
    (lambda: Point(1, [2], 1.), TypeError, "name: expected 'str', got 'int'"),
    (lambda: Point("a", [2], 1., x=1), TypeError, "x: expected 'float', got 'int'"),
    (lambda: Nested(1, ()), TypeError, "a: expected 'Pair', got 'int'"),
])
def test_errors_as_tensorflow(make, error, message):
    with pytest.raises(error, match=message):
        make()


def test_unsupported_annotation():
    with pytest.raises(TypeError, match="In field 'x': Unsupported type annotation 'list'"):
        class Bad(tf.experimental.ExtensionType):
            x: list


def test_immutable_unhashable_custom_init_and_spec_methods():
    m = mt()
    with pytest.raises(AttributeError, match="Cannot mutate attribute `values` outside the "
                                             "custom constructor of ExtensionType."):
        m.values = 5
    with pytest.raises(TypeError, match="unhashable type: 'MaskedTensor'"):
        hash(m)

    class Doubled(tf.experimental.ExtensionType):
        x: tf.Tensor

        def __init__(self, v):
            self.x = tf.constant(v) * 2

        class Spec:
            @property
            def rank(self):
                return self.x.shape.rank

    d = Doubled(3)
    assert int(d.x) == 6 and Doubled([[1]])._type_spec.rank == 2
    with pytest.raises(AttributeError):
        d.x = 1


def test_eq_and_ne():
    assert bool(mt() == mt()) and isinstance(mt() == mt(), tf.Tensor)
    assert not bool(mt() == MaskedTensor([1, 2, 4], [True, False, True]))
    assert (mt() == MaskedTensor([1, 2], [True, False])) is False  # another spec
    assert (Pair(3, 1) == Pair(4, 1)) is False
    assert bool(mt() != MaskedTensor([1, 2, 4], [True, False, True]))

    @tf.function(input_signature=[MaskedTensor.Spec(tf.TensorSpec([None], tf.int32),
                                                    tf.TensorSpec([None], tf.bool))] * 2)
    def eq(a, b):
        return a == b
    assert bool(eq(mt(), mt()))
    assert not bool(eq(mt(), MaskedTensor([1, 2], [True, False])))


def test_nest():
    m = mt()
    assert tf.nest.flatten(m)[0] is m
    flat = tf.nest.flatten({"a": m, "b": 2}, expand_composites=True)
    assert [np.asarray(v).tolist() for v in flat] == [[1, 2, 3], [True, False, True], 2]
    doubled = tf.nest.map_structure(lambda t: t * 2 if t.dtype == tf.int32 else t, m,
                                    expand_composites=True)
    assert isinstance(doubled, MaskedTensor) and doubled.values.numpy().tolist() == [2, 4, 6]
    spec = MaskedTensor.Spec(values=tf.TensorSpec([None], tf.int32),
                             mask=tf.TensorSpec([None], tf.bool))
    assert repr(tf.nest.flatten(spec, expand_composites=True)) == (
        "[TensorSpec(shape=(None,), dtype=tf.int32, name=None), TensorSpec(shape=(None,), "
        "dtype=tf.bool, name=None)]")
    tf.nest.assert_same_structure(m, MaskedTensor([1], [True]), expand_composites=True)
    with pytest.raises(ValueError):
        tf.nest.assert_same_structure(m, Pair(1), expand_composites=True)


def test_function_argument_retraces_only_on_spec_change():
    traces = []

    @tf.function
    def f(m):
        traces.append(1)
        return m.with_values(m.values * 2)

    out = f(mt())
    assert isinstance(out, MaskedTensor) and out.values.numpy().tolist() == [2, 4, 6]
    f(MaskedTensor([4, 5, 6], [True, True, False]))
    assert len(traces) == 1
    f(MaskedTensor([4, 5], [True, True]))
    assert len(traces) == 2
    cf = f.get_concrete_function(mt())
    assert repr(cf.structured_input_signature) == (
        "((MaskedTensor.Spec(values=TensorSpec(shape=(3,), dtype=tf.int32, name=None), "
        "mask=TensorSpec(shape=(3,), dtype=tf.bool, name=None)),), {})")

    @tf.function
    def g(p):
        traces.append(2)
        return p.t * p.x
    g(Point("a", [1], [1.0]))
    g(Point("a", [1], [2.0]))
    assert traces.count(2) == 1
    assert g(Point("a", [1], [2.0], x=3.0)).numpy().tolist() == [6.0]  # a Python field
    assert traces.count(2) == 2


def test_input_signature_and_nested_composites():
    spec = MaskedTensor.Spec(values=tf.TensorSpec([None], tf.int32),
                             mask=tf.TensorSpec([None], tf.bool))
    assert repr(spec.values) == "TensorSpec(shape=(None,), dtype=tf.int32, name=None)"
    g = tf.function(lambda m: m.values, input_signature=[spec])
    assert g(mt()).numpy().tolist() == [1, 2, 3]
    assert g(MaskedTensor([1], [True])).numpy().tolist() == [1]

    @tf.function
    def h(p):
        return Point(p.name, p.shape, p.t + 1.0, p.opts, {"k": p.m["k"] * 10}, p.r * 2)
    p = Point("a", [2], [1., 2.], (1,), {"k": 3}, tf.ragged.constant([[1], [2, 3]]))
    out = h(p)
    assert out.t.numpy().tolist() == [2.0, 3.0] and int(out.m["k"]) == 30
    assert out.r.to_list() == [[2], [4, 6]] and out.opts == (1,)


def test_cond_while_and_autograph_loop():
    @tf.function
    def f(m, flag):
        if flag:
            r = m.with_values(m.values + 1)
        else:
            r = m
        i = 0
        while i < 3:
            r = r.with_values(r.values * 2)
            i += 1
        return r

    assert f(mt(), tf.constant(True)).values.numpy().tolist() == [16, 24, 32]
    assert f(mt(), tf.constant(False)).values.numpy().tolist() == [8, 16, 24]
    out = tf.while_loop(lambda i, m: i < 3, lambda i, m: (i + 1, m.with_values(m.values + 1)),
                        (tf.constant(0), mt()))
    assert out[1].values.numpy().tolist() == [4, 5, 6]


def test_tf_function_method():
    class Scaled(tf.experimental.ExtensionType):
        x: tf.Tensor

        @tf.function
        def doubled(self):
            return Scaled(self.x * 2)

    assert repr(Scaled(1).doubled()) == "Scaled(x=<tf.Tensor: shape=(), dtype=int32, numpy=2>)"
    assert repr(Scaled(1.0).doubled()) == \
        "Scaled(x=<tf.Tensor: shape=(), dtype=float32, numpy=2.0>)"


def test_gradient_through_fields():
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as tape:
        m = MaskedTensor(x * 3.0, [True, False])
        y = tf.reduce_sum(m.values * m.values)
    assert tape.gradient(y, x).numpy().tolist() == [18.0, 36.0]


def test_dispatch_decorators():
    @tf.experimental.dispatch_for_api(tf.math.add)
    def masked_add(x: MaskedTensor, y: MaskedTensor, name=None):
        return MaskedTensor(x.values + y.values, x.mask & y.mask)

    @tf.experimental.dispatch_for_unary_elementwise_apis(MaskedTensor)
    def unary(api_func, x):
        return MaskedTensor(api_func(x.values), x.mask)

    @tf.experimental.dispatch_for_binary_elementwise_apis(
        typing.Union[MaskedTensor, tf.Tensor], typing.Union[MaskedTensor, tf.Tensor])
    def binary(api_func, x, y):
        xv = x.values if isinstance(x, MaskedTensor) else x
        yv = y.values if isinstance(y, MaskedTensor) else y
        return MaskedTensor(api_func(xv, yv), x.mask if isinstance(x, MaskedTensor) else y.mask)

    try:
        m = MaskedTensor([1, 2], [True, False])
        with pytest.raises(ValueError, match="Multiple dispatch targets"):
            tf.add(m, m)  # masked_add and binary both match, as in TensorFlow
        tf.experimental.unregister_dispatch_for(binary)
        assert tf.add(m, m).values.numpy().tolist() == [2, 4]
        assert tf.abs(MaskedTensor([-1, 2], [True, True])).values.numpy().tolist() == [1, 2]
        cast = tf.cast(MaskedTensor([-1, 2], [True, True]), tf.float32)
        assert cast.values.dtype == tf.float32 and cast.values.numpy().tolist() == [-1.0, 2.0]
        assert tf.function(lambda a: tf.math.negative(a))(m).values.numpy().tolist() == [-1, -2]
        with pytest.raises(ValueError, match="does not support dispatch"):
            tf.experimental.dispatch_for_api(print)
        with pytest.raises(ValueError, match=r"Dispatch function's signature \(a: .*\) does not "
                                             r"match API's signature \(x, y, name=None\)\."):
            @tf.experimental.dispatch_for_api(tf.math.add)
            def bad(a: MaskedTensor, b: MaskedTensor):
                return a
    finally:
        for target in (masked_add, unary, binary):
            try:
                tf.experimental.unregister_dispatch_for(target)
            except ValueError:
                pass
    with pytest.raises(ValueError, match="unsupported type"):  # TensorFlow's ValueError
        tf.abs(MaskedTensor([-1, 2], [True, True]))


def test_gradient_through_a_function_argument():
    @tf.function
    def f(m):
        return tf.reduce_sum(tf.where(m.mask, m.values * m.values, 0.0))
    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        y = f(MaskedTensor(x * 1.0, [True, False, True]))
    assert tape.gradient(y, x).numpy().tolist() == [2.0, 0.0, 6.0]
