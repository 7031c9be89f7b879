"""tf.pad, tf.newaxis, tf.dtypes, tf.config devices, tf.distribute, and list auto-packing casts."""
import numpy as np
import pytest

import autograph as tf
from graph import Graph
from graph.errors import InvalidArgumentError
from graph.shapes import TensorShape
from runtime import context
from runtime.ops import array_ops
from runtime.tensor import SymbolicTensor
from tests.runtime.test_gradients import MODES, check_gradients, rand
from tests.staging import assert_same, trace

rng = np.random.default_rng(3)


def i32(*shape):
    return rng.integers(-9, 9, shape).astype(np.int32)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def node_ops(graph):
    return {n.name: n.op for n in graph.nodes}


# -- tf.pad ----------------------------------------------------------------------------------

PADDINGS = [[[1, 2], [0, 3]], [[0, 0], [2, 1]], [[1, 1], [1, 1]]]


@pytest.mark.parametrize("paddings", PADDINGS, ids=str)
@pytest.mark.parametrize("mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad_matches_numpy_eagerly_and_staged(mode, paddings):
    x = i32(4, 5)
    got = assert_same(lambda x: tf.pad(x, paddings, mode=mode), x)
    np.testing.assert_array_equal(got, np.pad(x, paddings, mode=mode.lower()))
    assert got.dtype == np.int32


@pytest.mark.parametrize("value", [7, -1.5, True])
def test_pad_constant_values_take_the_tensor_dtype(value):
    x = f32(2, 3)
    got = assert_same(lambda x: tf.pad(x, [[1, 0], [0, 2]], constant_values=value), x)
    np.testing.assert_array_equal(got, np.pad(x, [[1, 0], [0, 2]], constant_values=value))
    assert got.dtype == np.float32


def test_pad_constant_value_may_be_a_tensor_and_the_mode_any_case():
    x, v = i32(2, 2), np.int32(4)
    got = assert_same(lambda x, v: tf.pad(x, [[1, 1], [1, 1]], "constant", constant_values=v), x, v)
    np.testing.assert_array_equal(got, np.pad(x, 1, constant_values=4))
    got = assert_same(lambda x: tf.pad(x, [[1, 1], [1, 1]], mode="reflect"), i32(3, 3))
    assert got.shape == (5, 5)


def test_pad_of_strings_bools_and_rank_3():
    s = np.array([[b"a", b"b"]], dtype=object)
    got = tf.pad(tf.constant(s), [[1, 0], [0, 1]]).numpy()
    assert got.tolist() == [[b"", b"", b""], [b"a", b"b", b""]]
    b = tf.pad(tf.constant([True]), [[1, 1]], constant_values=True).numpy()
    assert b.tolist() == [True, True, True]
    x = f32(2, 3, 4)
    np.testing.assert_array_equal(tf.pad(x, [[0, 1], [1, 0], [2, 2]], "SYMMETRIC").numpy(),
                                  np.pad(x, [[0, 1], [1, 0], [2, 2]], mode="symmetric"))


def test_pad_node_names_follow_tensorflow():
    def f(x):
        return (tf.pad(x, [[1, 1]]), tf.pad(x, [[1, 1]], constant_values=2),
                tf.pad(x, [[1, 1]], "REFLECT"), tf.pad(x, [[0, 1]], name="mine"))
    g, _, _ = trace(f, i32(3))
    ops = node_ops(g)
    assert ops["Pad"] == "Pad" and ops["Pad/paddings"] == "Const"
    assert ops["PadV2"] == "PadV2" and ops["PadV2/constant_values"] == "Const"
    assert ops["MirrorPad"] == "MirrorPad" and g.get_node("MirrorPad").attrs["mode"] == "REFLECT"
    assert ops["mine"] == "Pad"


def test_pad_keeps_unknown_dimensions_unknown():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        return tf.pad(x, [[1, 2], [0, 1]])
    graph = f.get_concrete_function().graph
    assert graph.outputs[0].shape == TensorShape([None, 4])
    assert f(tf.zeros([2, 3])).shape == (5, 4)


def test_pad_with_paddings_known_only_at_run_time():
    def f(x, p):
        return tf.pad(x, p)
    g, result, _ = trace(f, i32(2, 3), np.array([[1, 0], [0, 2]], np.int32))
    assert result.shape == TensorShape([None, None])
    got = assert_same(f, i32(2, 3), np.array([[1, 0], [0, 2]], np.int32))
    assert got.shape == (3, 5)


def test_pad_of_unknown_rank_gets_its_rank_from_the_paddings():
    g = Graph("g")
    with context.building(g):
        x = SymbolicTensor(g.add_node("Placeholder", attrs={"dtype": tf.float32,
                                                            "shape": TensorShape(None)}).output(0))
        assert tf.pad(x, [[1, 1], [0, 2]]).shape == TensorShape([None, None])


def test_pad_errors():
    with pytest.raises(ValueError, match='one of "CONSTANT", "REFLECT", or "SYMMETRIC"'):
        tf.pad(tf.constant([1]), [[1, 1]], mode="WRAP")
    with pytest.raises(InvalidArgumentError, match="Paddings must be non-negative"):
        tf.pad(tf.constant([1, 2]), [[-1, 1]])
    with pytest.raises(InvalidArgumentError, match="first dimension of paddings must be the rank"):
        tf.pad(tf.constant([1, 2]), [[1, 1], [1, 1]])
    with pytest.raises(InvalidArgumentError, match="paddings must be less than the dimension"):
        tf.pad(tf.constant([1, 2]), [[2, 0]], "REFLECT")
    assert tf.pad(tf.constant([1, 2]), [[2, 0]], "SYMMETRIC").numpy().tolist() == [2, 1, 1, 2]
    with pytest.raises(InvalidArgumentError, match="paddings must be less than the dimension"):
        tf.pad(tf.constant([1, 2]), [[3, 0]], "SYMMETRIC")
    with pytest.raises(TypeError):
        tf.pad(tf.constant([1, 2]), [[1, 1]], constant_values=1.5)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("pad_mode", ["CONSTANT", "REFLECT", "SYMMETRIC"])
def test_pad_gradient(pad_mode, mode):
    check_gradients(lambda x: tf.pad(x, [[1, 2], [2, 1]], mode=pad_mode), rand(3, 4), mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_pad_v2_gradient_flows_to_the_input_only(mode):
    check_gradients(lambda x: tf.pad(x, [[0, 2], [1, 0]], constant_values=3.0), rand(2, 3),
                    mode=mode)
    x = tf.constant(rand(2))
    v = tf.constant(1.0, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch([x, v])
        y = tf.reduce_sum(tf.pad(x, [[1, 1]], constant_values=v))
    gx, gv = tape.gradient(y, [x, v])
    assert gx.numpy().tolist() == [1.0, 1.0] and gv is None


def test_pad_gradient_with_paddings_computed_in_the_graph():
    @tf.function
    def f(x, p):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.pad(x, p) * tf.range(1.0, 7.0, dtype=tf.float64))
        return tape.gradient(y, x)
    got = f(tf.constant([1.0, 2.0, 3.0], tf.float64), tf.constant([[2, 1]]))
    assert got.numpy().tolist() == [3.0, 4.0, 5.0]


def test_mirror_pad_second_derivative():
    x = tf.constant(rand(4))
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.pad(x, [[2, 1]], "REFLECT") ** 2)
        g = inner.gradient(y, x)
        z = tf.reduce_sum(g * tf.constant([1.0, 2.0, 3.0, 4.0], tf.float64))
    gg = outer.gradient(z, x)
    # y = sum(m_i x_i^2) with multiplicities m; dz/dx = 2 m w
    m = np.array([1, 2, 3, 1.0])  # [x2, x1, x0, x1, x2, x3, x2]
    np.testing.assert_allclose(gg.numpy(), 2 * m * [1, 2, 3, 4])


# -- tf.newaxis ------------------------------------------------------------------------------

def test_newaxis_is_none_and_inserts_dimensions():
    assert tf.newaxis is None
    n = i32(3)
    got = assert_same(lambda n: n[:, tf.newaxis] - n[tf.newaxis, :], n)
    np.testing.assert_array_equal(got, n[:, None] - n[None, :])
    x = f32(2, 3)
    for key in [np.s_[tf.newaxis, ...], np.s_[..., tf.newaxis], np.s_[0, tf.newaxis, 1:],
                np.s_[tf.newaxis, 1, tf.newaxis]]:
        got = assert_same(lambda x: x[key], x)
        np.testing.assert_array_equal(got, x[key])


def test_newaxis_keeps_unknown_dimensions_in_a_function():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32)])
    def f(n):
        return n[:, tf.newaxis] - n[tf.newaxis, :]
    assert f.get_concrete_function().graph.outputs[0].shape == TensorShape([None, None])
    assert f(tf.constant([1, 2])).numpy().tolist() == [[0, -1], [1, 0]]


# -- tf.dtypes ---------------------------------------------------------------------------------

def test_dtypes_namespace():
    assert tf.dtypes.int32 is tf.int32 and tf.dtypes.float32 is tf.float32
    assert tf.dtypes.bool is tf.bool and tf.dtypes.string is tf.string
    assert tf.dtypes.double is tf.float64 and tf.dtypes.half is tf.float16
    assert tf.dtypes.as_dtype("int64") is tf.int64 and tf.dtypes.as_dtype(np.float64) is tf.float64
    assert isinstance(tf.int8, tf.dtypes.DType) and tf.dtypes.DType is tf.DType
    assert tf.dtypes.cast(tf.constant(1.7), tf.dtypes.int32).numpy() == 1


# -- tf.config ---------------------------------------------------------------------------------

def test_one_cpu_device_and_no_gpu():
    cpu = tf.config.list_physical_devices("CPU")
    assert cpu == [tf.config.PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")]
    assert repr(cpu[0]) == "PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')"
    assert tf.config.list_physical_devices() == cpu
    assert tf.config.list_physical_devices("GPU") == []
    assert tf.config.experimental.list_physical_devices("gpu") == []
    assert tf.config.list_logical_devices("CPU")[0].name == "/device:CPU:0"
    assert tf.config.get_visible_devices() == cpu
    tf.config.set_visible_devices(cpu)
    tf.config.set_visible_devices([], "GPU")  # hiding GPUs: there are none
    with pytest.raises(ValueError):
        tf.config.set_visible_devices([])


def test_gpu_configuration_code_runs_on_a_cpu_only_machine():
    for gpu in tf.config.list_physical_devices("GPU"):
        tf.config.experimental.set_memory_growth(gpu, True)
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(ValueError, match="non-GPU"):  # as TensorFlow on a CPU
        tf.config.experimental.set_memory_growth(cpu, True)
    assert tf.config.experimental.get_device_details(cpu) == {}


def test_switches_are_recorded():
    tf.config.experimental.enable_op_determinism()
    assert tf.config.is_op_determinism_enabled()
    tf.config.experimental.disable_op_determinism()
    assert not tf.config.is_op_determinism_enabled()
    assert tf.config.get_soft_device_placement() is True
    tf.config.threading.set_intra_op_parallelism_threads(2)
    assert tf.config.threading.get_intra_op_parallelism_threads() == 2
    tf.config.threading.set_intra_op_parallelism_threads(0)
    assert tf.config.optimizer.get_jit() is False


# -- tf.distribute ---------------------------------------------------------------------------------

def test_default_strategy_runs_the_function_on_one_replica():
    strategy = tf.distribute.get_strategy()
    assert strategy.num_replicas_in_sync == 1
    assert not tf.distribute.has_strategy()
    with strategy.scope() as s:
        assert s is strategy and tf.distribute.get_strategy() is strategy
        v = tf.Variable(2.0)
    assert strategy.run(lambda a, b: a * b + v, args=(tf.constant(3.0), 4.0)).numpy() == 14.0
    assert strategy.run(lambda a=1: a, kwargs={"a": 5}) == 5
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert strategy.reduce(tf.distribute.ReduceOp.SUM, x, axis=None) is x
    assert strategy.reduce("SUM", x, axis=0).numpy().tolist() == [4.0, 6.0]
    assert strategy.reduce(tf.distribute.ReduceOp.MEAN, x, axis=1).numpy().tolist() == [1.5, 3.5]
    assert strategy.experimental_local_results(x) == (x,)
    ds = tf.data.Dataset.range(3)
    assert strategy.experimental_distribute_dataset(ds) is ds
    assert tf.distribute.get_replica_context().num_replicas_in_sync == 1


def test_default_strategy_inside_a_function():
    strategy = tf.distribute.get_strategy()

    @tf.function
    def step(x):
        per_replica = strategy.run(lambda t: t * 2, args=(x,))
        return strategy.reduce(tf.distribute.ReduceOp.SUM, per_replica, axis=None)
    assert step(tf.constant(3)).numpy() == 6


def test_one_device_strategy_scope_makes_it_current():
    strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
    with strategy.scope():
        assert tf.distribute.has_strategy() and tf.distribute.get_strategy() is strategy
        assert tf.distribute.in_cross_replica_context()
        assert strategy.run(lambda: tf.distribute.in_cross_replica_context()) is False
    assert tf.distribute.get_strategy() is not strategy
    with pytest.raises(NotImplementedError, match="one device"):
        tf.distribute.OneDeviceStrategy("/gpu:0")


@pytest.mark.parametrize("name", ["TPUStrategy", "ParameterServerStrategy"])
def test_multi_device_strategies_are_not_implemented(name):
    cls = getattr(tf.distribute, name)
    assert issubclass(cls, tf.distribute.Strategy)
    with pytest.raises(NotImplementedError, match=f"tf.distribute.{name} is not supported"):
        cls()


@pytest.mark.parametrize("name", ["MirroredStrategy", "MultiWorkerMirroredStrategy",
                                  "CentralStorageStrategy"])
def test_mirrored_strategies_on_the_one_device_are_one_replica(name):
    # TensorFlow 2.21 on a one-CPU machine: 1 replica on .../device:CPU:0, `run` gives the
    # replica's plain tensor (before: NotImplementedError at construction).
    strategy = getattr(tf.distribute, name)()
    cpu = "/job:localhost/replica:0/task:0/device:CPU:0"
    assert strategy.num_replicas_in_sync == 1 and strategy.extended.worker_devices == (cpu,)
    with strategy.scope():
        v = tf.Variable(1.0)
    result = strategy.run(lambda x: x * 2 + v, args=(tf.constant(3.0),))
    assert float(strategy.reduce("SUM", result, axis=None)) == 7.0


def test_mirrored_strategy_over_several_devices_is_not_implemented():
    assert tf.distribute.MirroredStrategy(["/cpu:0"]).num_replicas_in_sync == 1
    with pytest.raises(NotImplementedError, match="more than one device"):
        tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    with pytest.raises(NotImplementedError, match="one device"):
        tf.distribute.MirroredStrategy(["/gpu:0"])


# -- lists holding tensors of another dtype (auto-packing casts) --------------------------------

def test_concat_packs_a_list_holding_an_int64_tensor_in_the_values_dtype():
    v, i = np.array([0, 0], np.int32), np.int64(5)
    got = assert_same(lambda v, i: tf.concat((v, [i]), 0), v, i)
    assert got.dtype == np.int32 and got.tolist() == [0, 0, 5]
    got = assert_same(lambda m, i: tf.concat((m, [[i]]), 1), np.array([[0, 0]], np.int32), i)
    assert got.dtype == np.int32 and got.tolist() == [[0, 0, 5]]


def test_loop_over_an_int64_dataset_grows_an_int32_vector():
    @tf.function
    def f(ds):
        v = tf.constant([0, 0])
        for i in ds:
            tf.autograph.experimental.set_loop_options(
                shape_invariants=[(v, tf.TensorShape([None]))])
            v = tf.concat((v, [i]), 0)
        return v
    out = f(tf.data.Dataset.range(3))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [0, 0, 0, 1, 2]


def test_a_required_or_hinted_dtype_casts_the_tensors_of_a_list():
    i = tf.constant(3, tf.int64)
    packed = tf.convert_to_tensor([i, 1], dtype=tf.int32)
    assert packed.dtype == tf.int32 and packed.numpy().tolist() == [3, 1]
    assert (tf.constant([1, 2]) + [i, i]).dtype == tf.int32
    assert tf.stack([tf.constant([1.5]), [i]]).dtype == tf.float32
    assert array_ops.stack_nested([[i], [2]], dtype=tf.float64).numpy().tolist() == [[3.0], [2.0]]


def test_tensors_of_different_dtypes_without_a_dtype_stay_an_error():
    with pytest.raises((TypeError, InvalidArgumentError)):
        tf.convert_to_tensor([tf.constant(1), tf.constant(2, tf.int64)])
    with pytest.raises(TypeError, match="Cannot convert a list containing a tensor of dtype"):
        array_ops.stack_nested([tf.constant(1), [tf.constant(2, tf.int64)]])
