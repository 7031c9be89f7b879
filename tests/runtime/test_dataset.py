"""tf.data: eager iteration, staged loops over every dataset kind, iterators as state."""
import numpy as np
import pytest

import runtime as rt
from graph import Graph, compile_graph
from graph.errors import InvalidArgumentError, OutOfRangeError
from runtime import context
from runtime.data import Dataset
from tests.staging import staged, trace

D = Dataset


def _values(ds):
    return [np.asarray(v).tolist() for v in ds.as_numpy_iterator()]


# Each kind of dataset, and what iterating it gives in plain Python.
KINDS = {
    "slices": (lambda: D.from_tensor_slices([3, 1, 4, 1, 5]), [3, 1, 4, 1, 5]),
    "tensors": (lambda: D.from_tensors(7), [7]),
    "range": (lambda: D.range(2, 9, 3), [2, 5, 8]),
    "generator": (lambda: D.from_generator(lambda: iter([4, 5, 6]), rt.int32), [4, 5, 6]),
    "signature": (lambda: D.from_generator(lambda: ([i] * 2 for i in range(3)),
                                           output_signature=rt.TensorSpec([2], rt.int64)),
                  [[0, 0], [1, 1], [2, 2]]),
    "map": (lambda: D.range(4).map(lambda x: x * x + 1), [1, 2, 5, 10]),
    "filter": (lambda: D.range(7).filter(lambda x: x % 2 == 0), [0, 2, 4, 6]),
    "batch": (lambda: D.range(5).batch(2), [[0, 1], [2, 3], [4]]),
    "batch_drop": (lambda: D.range(5).batch(2, drop_remainder=True), [[0, 1], [2, 3]]),
    "take": (lambda: D.range(10).take(3), [0, 1, 2]),
    "skip": (lambda: D.range(5).skip(3), [3, 4]),
    "repeat": (lambda: D.range(2).repeat(3), [0, 1] * 3),
    "prefetch": (lambda: D.range(3).prefetch(2), [0, 1, 2]),
    "concatenate": (lambda: D.range(2).concatenate(D.range(5, 7)), [0, 1, 5, 6]),
    "zip_sum": (lambda: D.zip((D.range(3), D.range(10, 20))).map(lambda a, b: a + b),
                [10, 12, 14]),
    "enumerate": (lambda: D.from_tensor_slices([5, 6]).enumerate(1)
                  .map(lambda i, x: rt.cast(i, rt.int32) * x), [5, 12]),
    "shuffle": (lambda: D.range(6).shuffle(6, seed=3), None),
}


@pytest.mark.parametrize("kind", sorted(KINDS))
def test_eager_iteration(kind):
    make, expected = KINDS[kind]
    got = _values(make())
    if expected is None:  # shuffle: a permutation, the same one for the same seed
        assert sorted(got) == list(range(6)) and got == _values(make())
    else:
        assert got == expected


def _run_for(ds, body, state, names, extra_test=None):
    """What converted code does for ``for x in ds``: state through get/set closures."""
    box = list(state)

    def get_state():
        return tuple(box)

    def set_state(values):
        box[:] = list(values)
    ds._autograph_for_stmt(extra_test and (lambda: extra_test(box)), lambda x: body(box, x),
                           get_state, set_state, names, {})
    return tuple(box)


def _total(make, stop_above=None):
    """sum of the flattened elements, stopping (break) after an element above ``stop_above``;
    odd elements are skipped (continue)."""
    def f(_):
        def body(box, x):
            total, done = box
            flat = rt.reduce_sum(rt.cast(x, rt.int64))
            skip = rt.equal(flat % 2, 1)
            box[0] = rt.cond(skip, lambda: total, lambda: total + flat)
            if stop_above is not None:
                box[1] = rt.greater(flat, stop_above)
        extra = None if stop_above is None else (lambda box: rt.logical_not(box[1]))
        total, _ = _run_for(make(), body, [rt.constant(0, rt.int64), rt.constant(False)],
                            ("total", "done"), extra)
        return total
    return f


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("stop_above", [None, 4])
def test_staged_loop_equals_eager_loop(kind, stop_above):
    fn = _total(KINDS[kind][0], stop_above)
    eager = fn(None).numpy()
    expected = 0
    for v in _values(KINDS[kind][0]()):
        s = int(np.sum(v))
        if s % 2 == 0:
            expected += s
        if stop_above is not None and s > stop_above:
            break
    assert eager == expected
    assert staged(fn, np.int32(0)) == eager


def test_loop_graph_does_not_grow_with_the_data():
    def count_nodes(n):
        def f(_):
            ds = D.from_tensor_slices(np.arange(n))
            return _run_for(ds, lambda box, x: box.__setitem__(0, box[0] + x),
                            [rt.constant(0, rt.int64)], ("s",))[0]
        graph, _, _ = trace(f, np.int32(0))
        return len(graph.nodes) + sum(len(g.nodes) for g in graph.library.values())
    assert count_nodes(3) == count_nodes(300)


def test_python_list_state_becomes_a_staged_list():
    def f(_):
        acc, = _run_for(D.range(4), lambda box, x: box.__setitem__(
            0, __import__("runtime.tensor_array").tensor_array.list_append(box[0], x * 10)),
            [[]], ("acc",))
        return rt.convert_to_tensor(acc)
    np.testing.assert_array_equal(staged(f, np.int32(0)), [0, 10, 20, 30])


def test_map_captures_outer_tensors_and_traces_once():
    calls = []

    def f(scale):
        def times(x):
            calls.append(1)
            return rt.cast(x, rt.float32) * scale
        ds = D.range(3).map(times)
        return _run_for(ds, lambda box, x: box.__setitem__(0, box[0] + x),
                        [rt.constant(0.0)], ("s",))[0]
    assert staged(f, np.float32(2.0)) == 6.0
    assert len(calls) == 1


# -- iterators are state ------------------------------------------------------------------

def test_iterator_created_eagerly_advances_on_every_graph_run():
    it = iter(D.from_tensor_slices([1, 2, 3]))
    graph = Graph("consume")
    with context.building(graph):
        graph.outputs = [next(it)._output]
    for backend in ("codegen", "interpret"):
        plan = compile_graph(graph, backend=backend)
        assert plan()[0] == 1 and plan()[0] == 2
        assert next(it).numpy() == 3  # eager and staged share one position
        with pytest.raises(OutOfRangeError, match="End of sequence"):
            plan()
        it = iter(D.from_tensor_slices([1, 2, 3]))
        graph = Graph("consume")
        with context.building(graph):
            graph.outputs = [next(it)._output]


def test_iterator_created_in_a_graph_restarts_on_every_run():
    def f(_):
        it = iter(D.range(5))
        next(it)
        return next(it)
    graph, _, feeds = trace(f, np.int32(0))
    plan = compile_graph(graph)
    assert plan(*feeds)[0] == 1 and plan(*feeds)[0] == 1


def test_eager_iterator_protocol():
    it = iter(D.range(2))
    assert [int(v) for v in it] == [0, 1]
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(OutOfRangeError):
        it.get_next()


# -- errors -----------------------------------------------------------------------------------

def test_generator_errors_say_what_was_expected():
    bad_shape = D.from_generator(lambda: iter([[1, 2, 3]]),
                                 output_signature=rt.TensorSpec([2], rt.int32))
    with pytest.raises(InvalidArgumentError, match="shape \\(3,\\) where an element of shape "
                                                   "\\(2,\\) was expected"):
        list(bad_shape)
    bad_type = D.from_generator(lambda: iter([1.5]), rt.int32)
    with pytest.raises(InvalidArgumentError, match="float value 1.5 where int32 was declared"):
        list(bad_type)
    bad_structure = D.from_generator(lambda: iter([1]), (rt.int32, rt.int32))
    with pytest.raises(TypeError, match="expected structure was \\(tf.int32, tf.int32\\)"):
        list(bad_structure)
    with pytest.raises(TypeError, match="`output_types` argument can not be None"):
        D.from_generator(lambda: iter([1]))


def test_construction_errors():
    with pytest.raises(InvalidArgumentError, match="Dimensions 2 and 3 are not compatible"):
        D.from_tensor_slices(([1, 2], [1, 2, 3]))
    with pytest.raises(ValueError, match="rank >= 1"):
        D.from_tensor_slices(5)
    with pytest.raises(ValueError, match="`predicate` must return a `tf.bool` scalar"):
        D.range(3).filter(lambda x: x)
    with pytest.raises(InvalidArgumentError, match="Cannot batch tensors with different shapes"):
        list(D.from_generator(lambda: iter([[1], [1, 2]]), rt.int32).batch(2))
    with pytest.raises(TypeError, match="only supports `len` in eager mode"):
        with context.building(Graph("g")):
            len(D.range(3))
    assert len(D.range(3).batch(2)) == 2
    with pytest.raises(TypeError, match="infinite"):
        len(D.range(3).repeat())


def test_repr_and_element_spec():
    ds = D.from_generator(lambda: [(1, 1)], (rt.int32, rt.int32))
    assert repr(ds) == ("<_FlatMapDataset element_spec=(TensorSpec(shape=<unknown>, "
                        "dtype=tf.int32, name=None), TensorSpec(shape=<unknown>, "
                        "dtype=tf.int32, name=None))>")
    assert D.range(4).batch(2, drop_remainder=True).element_spec == rt.TensorSpec([2], rt.int64)
    spec = D.from_tensor_slices({"a": [1.0, 2.0], "b": [[1], [2]]}).element_spec
    assert spec == {"a": rt.TensorSpec([], rt.float32), "b": rt.TensorSpec([1], rt.int32)}


def test_reduce_eager_and_staged():
    f = lambda _: D.range(5).reduce(np.int64(0), lambda s, x: s + x)  # noqa: E731
    assert f(None).numpy() == 10 and staged(f, np.int32(0)) == 10


# -- through tf.function and the converter (the guide's examples) --------------------------

def _tf():
    import autograph
    return autograph


def test_guide_consume_next_examples(capsys):
    tf = _tf()

    @tf.function
    def buggy_consume_next(iterator):
        tf.print("Value:", next(iterator))

    iterator = iter([1, 2, 3])
    for _ in range(3):
        buggy_consume_next(iterator)

    @tf.function
    def good_consume_next(iterator):
        tf.print("Value:", next(iterator))

    iterator = iter(tf.data.Dataset.from_tensor_slices([1, 2, 3]))
    for _ in range(3):
        good_consume_next(iterator)
    captured = capsys.readouterr()  # tf.print writes to stderr, as in TensorFlow
    assert (captured.out + captured.err).split("\n") == [
        "Value: 1", "Value: 1", "Value: 1", "Value: 1", "Value: 2", "Value: 3", ""]


def test_guide_measure_graph_size():
    tf = _tf()

    @tf.function
    def train(dataset):
        loss = tf.constant(0)
        for x, y in dataset:
            loss += tf.abs(y - x)
        return loss

    def size(arg):
        return len(train.get_concrete_function(arg).graph.as_graph_def().node)
    small, big = [(1, 1)] * 3, [(1, 1)] * 10
    assert size(small) < size(big)
    gen = lambda data: tf.data.Dataset.from_generator(lambda: data, (tf.int32, tf.int32))  # noqa
    assert size(gen(small)) == size(gen(big))
    # (columns: `x, y = element` of one (2,) tensor is refused in a graph, as in TensorFlow)
    assert size(tf.data.Dataset.from_tensor_slices(tuple(map(list, zip(*small))))) == \
        size(tf.data.Dataset.from_tensor_slices(tuple(map(list, zip(*big)))))
    assert train(gen([(1, 4)] * 10)).numpy() == 30


def _loop_with_break_continue_return(ds):
    total = 0
    for x in ds:
        if x % 3 == 0:
            continue
        if x > 10:
            return total * 100
        if total > 30:
            break
        total += x
    return total


_STAGED = {}


def _staged_versions():
    if not _STAGED:
        tf = _tf()
        _STAGED["outer"] = tf.function(_loop_with_break_continue_return)
        _STAGED["inner"] = tf.function(lambda m: _loop_with_break_continue_return(
            tf.data.Dataset.range(m).map(lambda x: tf.cast(x, tf.int32))))
    return _STAGED


@pytest.mark.filterwarnings("ignore:.*retrac")  # a new tf.function per case
@pytest.mark.parametrize("n", [0, 5, 9, 12, 40])
def test_function_loop_over_dataset_with_break_continue_return(n):
    # break and continue are staged; a return inside a staged loop is refused, as in TensorFlow
    tf = _tf()
    fns = _staged_versions()
    with pytest.raises(NotImplementedError, match="return statement cannot be placed inside"):
        fns["outer"](tf.data.Dataset.range(n).map(lambda x: tf.cast(x, tf.int32)))
    assert _loop_with_break_continue_return(range(n)) == \
        tf.function(_loop_with_break_continue_return)(list(range(n)))  # a Python loop


def test_break_leaves_the_rest_of_a_shared_iterator_unconsumed():
    tf = _tf()

    @tf.function
    def take_two(it):
        total = tf.constant(0, tf.int64)
        n = 0
        for x in it:
            total += x
            n += 1
            if n >= 2:
                break
        return total

    it = iter(tf.data.Dataset.range(5))
    assert [take_two(it).numpy() for _ in range(4)] == [1, 5, 4, 0]


# -- a return inside a loop over a dataset is refused, as in TensorFlow ----------------------

def _first_above(ds, limit):
    total = tf_int64_zero()
    for x in ds:
        total += x
        if total > limit:
            return x * 10
    return -total


def _from_iterator(ds, limit):
    it = iter(ds)
    for x in it:
        if x * 2 > limit:
            return _tf().strings.as_string(x)
    return _tf().constant("none")


def tf_int64_zero():
    return _tf().constant(0, _tf().int64)


@pytest.mark.parametrize("fn", [_first_above, _from_iterator])
def test_return_in_dataset_loop_is_refused(fn):
    tf = _tf()
    f = tf.function(lambda n, limit: fn(Dataset.range(n), limit))
    with pytest.raises(NotImplementedError, match="return statement cannot be placed inside"):
        f(tf.constant(5, tf.int64), tf.constant(3, tf.int64))


def _falls_through(ds):
    for x in ds:  # the-loop
        if x > 2:
            return x


def test_return_inside_the_dataset_loop_only_is_an_error():
    tf = _tf()
    with pytest.raises(NotImplementedError, match="return statement cannot be placed inside"):
        tf.function(_falls_through)(Dataset.range(5))
