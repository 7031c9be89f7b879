"""tf.saved_model.save / load: objects, functions, variables, signatures, damaged files.

Signature input/output names and the error types are TensorFlow 2.21's for the
same module (recorded in a side venv as literals).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import autograph as tf
from runtime.saved_model.format import SavedModelFormatError


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(2.)
        self.sub = tf.Module()
        self.sub.w = tf.Variable([1., 2.])
        self.sub.count = tf.Variable(0, trainable=False)
        self.layers = [tf.Module(), {"b": tf.Variable(0.5)}]
        self.layers[0].k = tf.Variable([[1., 0.], [0., 1.]])

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def scaled(self, x):
        self.sub.count.assign_add(1)
        return x * self.scale + self.layers[1]["b"]

    @tf.function
    def mix(self, x, square=False):
        y = tf.reshape(tf.matmul(self.layers[0].k, tf.reshape(x, [2, 1])), [2])
        if square:
            y = y * y
        return {"sum": y + self.sub.w, "x": x}

    @tf.function(input_signature=[tf.TensorSpec([], tf.float32, name="inp")])
    def pair(self, x):
        return x, x * 2.


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    net = Net()
    net.mix(tf.constant([1., 2.]))
    net.mix(tf.constant([1., 2.]), square=True)
    directory = str(tmp_path_factory.mktemp("export") / "net")
    tf.saved_model.save(net, directory, signatures={"serving_default": net.scaled,
                                                    "pair": net.pair})
    return net, directory


def test_loads_in_a_fresh_process_without_the_source(exported, tmp_path):
    net, directory = exported
    script = textwrap.dedent(f"""
        import json
        import autograph as tf
        m = tf.saved_model.load({directory!r})
        out = {{
            "scaled": m.scaled(tf.constant([1., 3.])).numpy().tolist(),
            "mix": m.mix(tf.constant([1., 2.]))["sum"].numpy().tolist(),
            "mix_sq": m.mix(tf.constant([1., 2.]), square=True)["sum"].numpy().tolist(),
            "sig": m.signatures["serving_default"](x=tf.constant([0.5]))["output_0"]
                .numpy().tolist(),
            "count": int(m.sub.count.numpy()),
            "k": m.layers[0].k.numpy().tolist(),
            "b": float(m.layers[1]["b"].numpy()),
            "type": type(m).__name__,
        }}
        print(json.dumps(out))
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True,
                          text=True, timeout=120, env=dict(os.environ, PYTHONPATH=""))
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["scaled"] == net.scaled(tf.constant([1., 3.])).numpy().tolist() == [2.5, 6.5]
    assert out["mix"] == net.mix(tf.constant([1., 2.]))["sum"].numpy().tolist()
    assert out["mix_sq"] == net.mix(tf.constant([1., 2.]), square=True)["sum"].numpy().tolist()
    assert out["sig"] == [1.5]
    assert out["count"] == 2  # the saved value 0, then the two calls in that process
    assert out["k"] == [[1., 0.], [0., 1.]] and out["b"] == 0.5
    assert out["type"] == "_UserObject"


def test_signatures_are_named_as_tensorflow_names_them(exported):
    _, directory = exported
    m = tf.saved_model.load(directory)
    assert sorted(m.signatures) == ["pair", "serving_default"]
    serving = m.signatures["serving_default"]
    assert serving.structured_input_signature == (
        (), {"x": tf.TensorSpec([None], tf.float32, name="x")})
    assert list(serving.structured_outputs) == ["output_0"]
    result = serving(x=tf.constant([1., 2.]))
    np.testing.assert_array_equal(result["output_0"].numpy(), [2.5, 4.5])
    np.testing.assert_array_equal(serving(tf.constant([1.]))["output_0"].numpy(), [2.5])
    pair = m.signatures["pair"](inp=tf.constant(3.))
    assert sorted(pair) == ["output_0", "output_1"]
    assert pair["output_0"].numpy() == 3.0 and pair["output_1"].numpy() == 6.0
    with pytest.raises(TypeError, match="unexpected keyword argument 'y'"):
        serving(y=tf.constant([1.]))


def test_functions_accept_only_the_saved_signatures(exported):
    _, directory = exported
    m = tf.saved_model.load(directory)
    with pytest.raises(TypeError):  # TensorFlow: TypeError (input_signature mismatch)
        m.scaled(tf.constant([[1.]]))
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        m.mix(tf.constant([1., 2., 3.]))
    with pytest.raises(ValueError, match="Could not find matching concrete function"):
        m.mix(tf.constant([1., 2.]), square=3)
    assert m.mix(tf.constant([1., 2.]))["x"].dtype == tf.float32


def test_variables_assignable_gradients_and_resave(exported, tmp_path):
    net, directory = exported
    m = tf.saved_model.load(directory)
    grads = []
    for obj in (net, m):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(obj.mix(tf.constant([1., 2.]), square=True)["sum"])
        grads.append([g.numpy() for g in tape.gradient(y, [obj.sub.w, obj.layers[0].k])])
    np.testing.assert_allclose(grads[1][0], [1., 1.])
    np.testing.assert_allclose(grads[1][1], [[2., 4.], [4., 8.]])
    for a, b in zip(*grads):
        np.testing.assert_allclose(a, b)
    m.scale.assign(10.)
    np.testing.assert_array_equal(m.scaled(tf.constant([1.])).numpy(), [10.5])

    @tf.function
    def outer(x):  # a restored function called from another function is inlined
        return m.scaled(x) * 2.
    np.testing.assert_array_equal(outer(tf.constant([1.])).numpy(), [21.])

    again = str(tmp_path / "again")
    tf.saved_model.save(m, again)
    m2 = tf.saved_model.load(again)
    assert sorted(m2.signatures) == ["pair", "serving_default"]
    np.testing.assert_array_equal(m2.scaled(tf.constant([1.])).numpy(), [10.5])
    np.testing.assert_array_equal(m2.mix(tf.constant([1., 0.]), square=True)["sum"].numpy(),
                                  [2., 2.])
    # a checkpoint of the loaded object, and restoring a SavedModel's variables by path
    m.scale.assign(0.)
    tf.train.Checkpoint(m).restore(again).assert_nontrivial_match()
    assert m.scale.numpy() == 10.0


@pytest.mark.filterwarnings("ignore:Found untraced function")
def test_save_refuses_what_cannot_be_loaded(tmp_path):
    class Py(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return tf.py_function(lambda a: a * 2, [x], tf.float32)
    with pytest.raises(ValueError, match="tf.py_function"):
        tf.saved_model.save(Py(), str(tmp_path / "py"))

    outside = tf.Variable(1.)

    class Untracked(tf.Module):
        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def f(self, x):
            return x * outside
    with pytest.raises(ValueError, match="'untracked' resource"):
        tf.saved_model.save(Untracked(), str(tmp_path / "u"))

    net = Net()
    with pytest.raises(ValueError, match="Only `tf.functions` with an input signature"):
        tf.saved_model.save(net, str(tmp_path / "s"), signatures=net.mix)

    # a refused save leaves the model already in the directory as it was
    tf.saved_model.save(net, str(tmp_path / "kept"))
    with pytest.raises(ValueError, match="tf.py_function"):
        tf.saved_model.save(Py(), str(tmp_path / "kept"))
    assert tf.saved_model.load(str(tmp_path / "kept")).scaled(tf.constant([1.])).numpy() == 2.5


def test_concrete_function_as_signature(tmp_path):
    net = Net()
    concrete = net.mix.get_concrete_function(tf.TensorSpec([2], tf.float32), square=True)
    tf.saved_model.save(net, str(tmp_path / "c"), signatures=concrete)
    m = tf.saved_model.load(str(tmp_path / "c"))
    sig = m.signatures["serving_default"]
    assert sig.structured_input_signature == ((), {"x": tf.TensorSpec([2], tf.float32, "x")})
    out = sig(x=tf.constant([1., 2.]))
    assert sorted(out) == ["sum", "x"]
    np.testing.assert_array_equal(out["sum"].numpy(), [2., 6.])
    np.testing.assert_array_equal(m.mix(tf.constant([1., 2.]), square=True)["sum"].numpy(),
                                  [2., 6.])


def test_default_signature_and_untraced_functions(tmp_path):
    class One(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = tf.Variable(1.)
            self.plain = tf.function(lambda x: x + 1.)

        @tf.function(input_signature=[tf.TensorSpec([2], tf.float32)])
        def f(self, x):
            return x + self.v

        @tf.function
        def never(self, x):
            return x

    one = One()
    one.plain(tf.constant(1.))
    with pytest.warns(UserWarning, match="untraced function 'never'"):
        tf.saved_model.save(one, str(tmp_path / "one"))
    m = tf.saved_model.load(str(tmp_path / "one"))
    assert list(m.signatures) == ["serving_default"]
    assert not hasattr(m, "never")
    assert m.plain(tf.constant(1.)).numpy() == 2.0
    np.testing.assert_array_equal(
        m.signatures["serving_default"](x=tf.constant([1., 2.]))["output_0"].numpy(), [2., 3.])


def test_missing_directory():
    with pytest.raises(OSError, match="SavedModel file does not exist"):
        tf.saved_model.load("/nonexistent/saved")


def _files(directory: str) -> list[str]:
    return sorted(os.path.relpath(os.path.join(b, f), directory)
                  for b, _, fs in os.walk(directory) for f in fs)


def test_every_file_damaged_is_named(exported, tmp_path):
    """Each file of the format, deleted, truncated or edited: an error naming it."""
    import shutil
    _, directory = exported
    files = _files(directory)
    assert {"saved_model.json", "variables/variables.index",
            "variables/variables.data-00000-of-00001", "functions/0/graph.json"} <= set(files)
    for i, rel in enumerate(files):
        for damage in ("delete", "truncate", "edit"):
            copy = str(tmp_path / f"c{i}{damage}")
            shutil.copytree(directory, copy)
            path = os.path.join(copy, rel)
            raw = open(path, "rb").read()
            if damage == "delete":
                os.remove(path)
            else:
                if damage == "truncate":
                    raw = raw[:len(raw) // 2]
                elif rel.endswith(".json") or rel.endswith(".index"):
                    raw = raw.replace(b'"', b"'", 1) if b"scaled" not in raw else \
                        raw.replace(b"scaled", b"scalec")
                else:
                    raw = raw[:-1] + bytes([raw[-1] ^ 1])
                with open(path, "wb") as f:
                    f.write(raw)
            expected = OSError if (rel == "saved_model.json" and damage == "delete") \
                else SavedModelFormatError
            with pytest.raises(expected) as info:
                tf.saved_model.load(copy)
            assert os.path.basename(rel) in str(info.value), (rel, damage, str(info.value))


def test_hand_edited_but_consistent_document_is_refused(exported, tmp_path):
    import shutil
    _, directory = exported
    copy = str(tmp_path / "edited")
    shutil.copytree(directory, copy)
    doc_file = os.path.join(copy, "saved_model.json")
    doc = json.load(open(doc_file))
    doc["signatures"]["renamed"] = doc["signatures"].pop("pair")
    json.dump(doc, open(doc_file, "w"))
    with pytest.raises(SavedModelFormatError, match="saved_model.json: the content does not "
                                                    "match its checksum"):
        tf.saved_model.load(copy)


def test_a_saved_call_method_makes_the_loaded_object_callable(tmp_path):
    class Layer(tf.Module):
        def __init__(self):
            super().__init__()
            self.weights = [tf.Variable([[1., 2.], [3., 4.]]), tf.Variable([0.5, 0.5])]

        @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
        def __call__(self, x):
            return tf.matmul(x, self.weights[0]) + self.weights[1]

    layer = Layer()
    tf.saved_model.save(layer, str(tmp_path / "layer"))
    m = tf.saved_model.load(str(tmp_path / "layer"))
    x = tf.constant([[1., 1.]])
    np.testing.assert_array_equal(m(x).numpy(), layer(x).numpy())
    np.testing.assert_array_equal(m.signatures["serving_default"](x=x)["output_0"].numpy(),
                                  [[4.5, 6.5]])
    assert [v.shape.as_list() for v in m.trainable_variables] == [[2, 2], [2]]
    plain = tf.Module()
    plain.v = tf.Variable(1.)
    tf.saved_model.save(plain, str(tmp_path / "plain"))
    with pytest.raises(TypeError, match="'_UserObject' object is not callable"):
        tf.saved_model.load(str(tmp_path / "plain"))(x)


class Flow(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable(3.)

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32)])
    def loop(self, n):
        s = tf.constant(0.)
        i = tf.constant(0)
        while i < n:
            if i % 2 == 0:
                s += self.v
            else:
                s -= 1.
            i += 1
        return s


def test_control_flow_gradients_eager_mode_and_resave(tmp_path):
    flow = Flow()
    tf.saved_model.save(flow, str(tmp_path / "a"))
    m = tf.saved_model.load(str(tmp_path / "a"))
    assert m.loop(tf.constant(5)).numpy() == flow.loop(tf.constant(5)).numpy() == 7.0
    with tf.GradientTape() as tape:
        y = m.loop(tf.constant(5))
    assert tape.gradient(y, m.v).numpy() == 3.0  # v is added at i = 0, 2, 4
    tf.config.run_functions_eagerly(True)
    try:
        assert m.loop(tf.constant(4)).numpy() == 4.0
    finally:
        tf.config.run_functions_eagerly(False)
    tf.saved_model.save(m, str(tmp_path / "b"))  # the bodies are the new trace's own
    assert tf.saved_model.load(str(tmp_path / "b")).loop(tf.constant(3)).numpy() == 5.0
