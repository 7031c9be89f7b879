"""The append path of TensorList writes against the general kernel and the interpreter.

``AppendVector`` (graph/ops/list_vectors.py) shares one Python list along a
lineage of list values; ``append_kernel`` is what generated code calls for
``TensorListSetItem``. Both must give exactly what the persistent trie and
the general kernel give, for every write pattern, and every older value
must keep reading its own contents.
"""
from __future__ import annotations

import sys
import threading

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import runtime as rt
from graph import compile_graph
from graph import dtypes
from graph.errors import InvalidArgumentError
from graph.ops import tensor_array as ta_ops
from graph.ops.list_vectors import AppendVector, PersistentVector
from graph.shapes import TensorShape
from runtime.tensor_array import TensorArray
from tests.graph.test_executor import run_all
from tests.staging import trace


# -- the store --------------------------------------------------------------------

# An operation on an earlier version: ("set", version, index, value) or ("resize", version, n).
_op = st.one_of(
    st.tuples(st.just("set"), st.integers(0, 30), st.integers(0, 40), st.integers()),
    st.tuples(st.just("append"), st.integers(0, 30), st.integers()),
    st.tuples(st.just("resize"), st.integers(0, 30), st.integers(0, 40)),
)


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 5), st.lists(_op, max_size=40))
def test_append_vector_equals_a_list_model_for_every_version(size, ops):
    versions = [(AppendVector([], 0, size), [None] * size)]
    for op in ops:
        vec, model = versions[op[1] % len(versions)]
        if op[0] == "resize":
            n = op[2]
            vec, model = vec.resized(n), (model + [None] * n)[:n]
        else:
            i = len(model) if op[0] == "append" else op[2]  # "append" is the in-order write
            value = op[-1]
            vec = vec.set(i, value)
            model = model + [None] * (i + 1 - len(model))
            model[i] = value
        versions.append((vec, model))
    for vec, model in versions:  # nothing later changed what an earlier version reads
        assert vec.size == len(model)
        assert vec.to_list() == model
        assert [vec.get(k) for k in range(len(model))] == model


def test_in_order_writes_share_one_list_and_a_divergent_write_copies_once():
    base = AppendVector([], 0, 0)
    a = base.set(0, "a").set(1, "b")
    assert a.buf is base.buf and a.to_list() == ["a", "b"]
    b = base.set(0, "x")  # base's list already runs past it: this version leaves the pattern
    assert isinstance(b, PersistentVector) and b.to_list() == ["x"]
    assert a.to_list() == ["a", "b"] and base.to_list() == []
    assert base.persistent() is base.persistent()  # copied once, shared by later writes


def test_concurrent_appends_to_one_version_never_see_each_other():
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    try:
        base = AppendVector(list(range(3)), 3, 3)
        results: dict[int, object] = {}

        def write(k):
            for _ in range(200):
                results[k] = base.set(3, k)
                assert results[k].to_list() == [0, 1, 2, k]
        threads = [threading.Thread(target=write, args=(k,)) for k in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        for k, vec in results.items():
            assert vec.to_list() == [0, 1, 2, k]
    finally:
        sys.setswitchinterval(old)


# -- the generated-code kernel against the general one ------------------------------------

def _outcome(fn, *args):
    try:
        value = fn(*args)
    except InvalidArgumentError as e:
        return ("error", e.message)
    return ("ok", value)


def _contents(lst):
    return [None if v is None else np.asarray(v).tolist() for v in lst.items.to_list()], \
        lst.size, lst.element_dtype, lst.element_shape


@settings(max_examples=150, deadline=None)
@given(size=st.integers(0, 4), resizable=st.booleans(), grow=st.booleans(),
       list_shape=st.sampled_from([[2], [None], [3], None]),
       item_shape=st.sampled_from([[2], [None], [3]]),
       writes=st.lists(st.tuples(st.integers(0, 10), st.integers(-1, 7)), max_size=14))
def test_append_kernel_equals_the_general_kernel(size, resizable, grow, list_shape, item_shape,
                                                 writes):
    """Writes of 2-element items on random earlier versions, at mostly in-order indices."""
    fast = ta_ops.append_kernel(dtypes.float32, grow, TensorShape(item_shape))
    start = ta_ops._reserve(np.int32(size), dtypes.float32, TensorShape(list_shape), resizable)
    fast_versions, slow_versions = [start], [start]
    for k, (which, index) in enumerate(writes):
        which %= len(fast_versions)
        a, b = fast_versions[which], slow_versions[which]
        index = a.size if index == 7 else index  # 7 stands for "the next index"
        length = item_shape[0] or 2 + k % 2  # the runtime shape matches the static one
        item = np.full([length], k, np.float32)
        got = _outcome(fast, a, np.int32(index), item)
        want = _outcome(ta_ops._set_item, b, np.int32(index), item, dtypes.float32, grow)
        assert got[0] == want[0]
        if got[0] == "error":
            assert got[1] == want[1]
            continue
        fast_versions.append(got[1])
        slow_versions.append(want[1])
    for a, b in zip(fast_versions, slow_versions):
        assert _contents(a) == _contents(b)


def test_append_kernel_checks_a_proven_shape_against_each_new_list():
    fast = ta_ops.append_kernel(dtypes.float32, False, TensorShape([2]))
    ok = ta_ops._reserve(np.int32(2), dtypes.float32, TensorShape([2]), False)
    assert fast(ok, np.int32(0), np.zeros(2, np.float32)).size == 2
    bad = ta_ops._reserve(np.int32(2), dtypes.float32, TensorShape([3]), False)
    with pytest.raises(InvalidArgumentError, match="value shape is \\(2,\\) which is incompat"):
        fast(bad, np.int32(0), np.zeros(2, np.float32))
    with pytest.raises(InvalidArgumentError, match="not resizeable and size is: 2"):
        fast(ok.with_item(0, 1).with_item(1, 2), np.int32(2), np.zeros(2, np.float32))


# -- staged programs: codegen (append kernel) == interpreter (general kernel) ---------------

def _loop_writes(x, n, dynamic):
    ta = TensorArray(rt.float32, size=0 if dynamic else n, dynamic_size=dynamic)

    def body(i, s, ta):
        s = s * 0.5 + x[i % 3]
        return i + 1, s, ta.write(i, s)
    _, _, ta = rt.while_loop(lambda i, s, ta: i < n, body, [0, x[0] * 0.0, ta])
    return ta.stack(), ta.size()


def _reverse_writes(x, n):
    ta = TensorArray(rt.float32, size=n)
    _, ta = rt.while_loop(lambda i, ta: i < n,
                          lambda i, ta: (i + 1, ta.write(n - 1 - i, x[i % 3])), [0, ta])
    return ta.stack()


def _writes_from_an_outer_list(x, n):
    """Every iteration writes index 1 of the same list captured from outside the loop."""
    outer = TensorArray(rt.float32, size=2).write(0, x[0])

    def body(i, acc):
        mine = outer.write(1, x[i % 3] * rt.cast(i, rt.float32))
        return i + 1, acc + mine.stack()
    _, acc = rt.while_loop(lambda i, acc: i < n, body, [0, rt.zeros([2, 4])])
    return acc, outer.stack()


def _old_flows_keep_their_contents(x):
    ta = TensorArray(rt.float32, size=0, dynamic_size=True).write(0, x[0])
    one, two = ta.write(1, x[1]), ta.write(1, x[2])
    return ta.stack(), one.stack(), two.stack(), one.write(2, x[0]).stack()


def _overwrite_in_a_loop(x, n):
    ta = TensorArray(rt.float32, size=2, clear_after_read=False)

    def body(i, ta):
        return i + 1, ta.write(i % 2, ta.read((i + 1) % 2) + x[i % 3])
    _, ta = rt.while_loop(lambda i, ta: i < n, body, [0, ta.write(1, x[1])])
    return ta.stack()


@pytest.mark.parametrize("fn, args", [
    (_loop_writes, (np.int32(9), False)), (_loop_writes, (np.int32(9), True)),
    (_loop_writes, (np.int32(0), True)), (_reverse_writes, (np.int32(7),)),
    (_writes_from_an_outer_list, (np.int32(5),)), (_old_flows_keep_their_contents, ()),
    (_overwrite_in_a_loop, (np.int32(6),)),
], ids=lambda v: getattr(v, "__name__", None))
def test_staged_write_patterns_agree_with_the_interpreter(fn, args):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    graph, _, feeds = trace(fn, x, *args)
    first = run_all(graph, feeds)
    again = run_all(graph, feeds)  # a second run of the same plans starts from fresh lists
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)


def test_old_flows_read_their_own_elements():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    graph, _, feeds = trace(_old_flows_keep_their_contents, x)
    base, one, two, three = compile_graph(graph)(*feeds)
    np.testing.assert_array_equal(base, x[:1])
    np.testing.assert_array_equal(one, x[:2])
    np.testing.assert_array_equal(two, x[[0, 2]])
    np.testing.assert_array_equal(three, x[[0, 1, 0]])


def test_generated_code_calls_the_append_kernel_without_keywords():
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    graph, _, _ = trace(_loop_writes, x, np.int32(4), False)
    source = compile_graph(graph).source
    writes = [line for line in source.splitlines() if "resize_if_index" in line]
    assert not writes, source


def test_a_write_out_of_range_in_a_staged_loop_names_the_error_on_both_back_ends():
    def f(n):
        ta = TensorArray(rt.int32, size=3)
        _, ta = rt.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, i)),
                              [0, ta])
        return ta.stack()
    graph, _, _ = trace(f, np.int32(5))
    for backend in ("codegen", "interpret"):
        plan = compile_graph(graph, backend=backend)
        np.testing.assert_array_equal(plan(np.int32(3))[0], [0, 1, 2])
        with pytest.raises(InvalidArgumentError, match="write to index 3 but array is not "
                                                       "resizeable and size is: 3"):
            plan(np.int32(5))


def test_stack_of_elements_of_different_shapes_still_reports_them():
    lst = ta_ops._reserve(np.int32(0), dtypes.float32, TensorShape(None), True)
    lst = ta_ops._set_item(lst, 0, np.zeros(2, np.float32), dtypes.float32, True)
    lst = ta_ops._set_item(lst, 1, np.zeros(3, np.float32), dtypes.float32, True)
    with pytest.raises(InvalidArgumentError, match="elements have different shapes"):
        ta_ops._stack(lst, dtypes.float32, TensorShape(None))


def test_a_persistent_vector_grown_past_its_trie_reads_unset_slots_as_none():
    vec = PersistentVector().resized(40).set(0, "a")
    assert vec.get(32) is None and vec.get(0) == "a"
    assert [vec.get(k) for k in range(40)] == vec.to_list()


# -- writes in place: only when no one else can see the list -------------------------------

def _kernel(owned):
    return ta_ops.append_kernel(dtypes.float32, False, TensorShape([2]), owned)


def _written(kernel, n):
    """``lst = kernel(lst, i, item)`` as generated code writes it: the slot holds the only
    reference. The first write proves the element shape (the general kernel copies)."""
    lst = ta_ops._reserve(np.int32(n), dtypes.float32, TensorShape([2]), False)
    lst = kernel(lst, np.int32(0), np.zeros(2, np.float32))
    return lst


@pytest.mark.skipif(ta_ops._UNIQUE is None, reason="reference counts cannot prove ownership")
def test_an_owned_unshared_list_grows_in_place():
    kernel = _kernel(True)
    lst = _written(kernel, 3)
    before = id(lst)
    lst = kernel(lst, np.int32(1), np.ones(2, np.float32))
    assert id(lst) == before and lst.items.count == 2
    np.testing.assert_array_equal(ta_ops._stack(lst, dtypes.float32, TensorShape([2])),
                                  [[0, 0], [1, 1], [0, 0]])


@pytest.mark.parametrize("owned", [False, True])
def test_a_list_someone_else_holds_is_never_changed(owned):
    kernel = _kernel(owned)
    lst = _written(kernel, 3)
    kept = [lst]  # another holder: an older flow a plan still reads, a caller's tensor
    new = kernel(lst, np.int32(1), np.ones(2, np.float32))
    assert new is not lst and lst.items.count == 1 and new.items.count == 2
    del kept, lst
    store = new.items  # the store alone held elsewhere is enough to copy
    newer = kernel(new, np.int32(2), np.ones(2, np.float32))
    assert newer is not new and newer.items.count == 3
    assert store.count == 2 and new.items is store


def test_a_list_not_owned_by_the_writing_slot_is_never_changed():
    kernel = _kernel(False)
    lst = _written(kernel, 3)
    new = kernel(lst, np.int32(1), np.ones(2, np.float32))
    assert new is not lst and lst.items.count == 1


def _loop_from_a_list_read_afterwards(x, n):
    """The loop starts from a list the code reads again after the loop: its slot lives on,
    so the loop variable is a second holder of the same list."""
    ta = TensorArray(rt.float32, size=n + 1).write(0, x[0])
    _, grown = rt.while_loop(lambda i, t: i < n,
                             lambda i, t: (i + 1, t.write(i + 1, x[i % 3] + 1.0)), [0, ta])
    return ta.size(), ta.read(0), grown.stack()


def _list_read_after_its_write_in_the_body(x, n):
    ta = TensorArray(rt.float32, size=n, clear_after_read=False)

    def body(i, s, ta):
        new = ta.write(i, x[i % 3] * rt.cast(i, rt.float32))
        return i + 1, s + rt.cast(ta.size(), rt.float32) + new.read(i), new
    _, s, ta = rt.while_loop(lambda i, s, ta: i < n, body, [0, x[0] * 0.0, ta])
    return s, ta.stack()


def _same_list_written_twice(x):
    ta = TensorArray(rt.float32, size=0, dynamic_size=True).write(0, x[0])
    a = ta.write(1, x[1])
    b = ta.write(1, x[2])
    return a.write(2, x[0]).stack(), b.write(2, x[1]).stack(), ta.stack()


@pytest.mark.parametrize("fn, args", [
    (_loop_from_a_list_read_afterwards, (np.int32(4),)),
    (_list_read_after_its_write_in_the_body, (np.int32(5),)),
    (_same_list_written_twice, ()),
], ids=lambda v: getattr(v, "__name__", None))
def test_in_place_writes_keep_every_other_reader_s_contents(fn, args):
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    graph, _, feeds = trace(fn, x, *args)
    first = run_all(graph, feeds)  # codegen (in place where it may) == the interpreter
    again = run_all(graph, feeds)
    for a, b in zip(first, again):
        np.testing.assert_array_equal(a, b)
    if fn is _loop_from_a_list_read_afterwards:
        size, head, grown = first
        assert size == 5 and np.array_equal(head, x[0]) and grown.shape == (5, 4)
    if fn is _same_list_written_twice:
        a, b, base = first
        np.testing.assert_array_equal(a, x[[0, 1, 0]])
        np.testing.assert_array_equal(b, x[[0, 2, 1]])
        np.testing.assert_array_equal(base, x[:1])
