"""A GradientTape answers only inside the life TensorFlow gives it: after its ``with`` block
started, once unless persistent; entering a used tape again starts afresh."""
import pytest

import autograph as tf

ONCE = "A non-persistent GradientTape can only be used to compute one set of gradients"


@pytest.mark.parametrize("persistent", [False, True])
def test_a_tape_never_entered_has_nothing_to_answer(persistent):
    # TensorFlow 2.21 raises this RuntimeError (before: a gradient of None / zeros).
    tape = tf.GradientTape(persistent=persistent)
    with pytest.raises(RuntimeError, match=ONCE):
        tape.gradient(tf.constant(1.0), tf.Variable(1.0),
                      unconnected_gradients=tf.UnconnectedGradients.ZERO)
    with pytest.raises(RuntimeError, match=ONCE):
        tape.jacobian(tf.constant([1.0]), tf.Variable([1.0]))


def test_entering_a_used_tape_again_records_a_new_computation():
    x = tf.Variable(2.0)
    tape = tf.GradientTape()
    with tape:
        y = x * x
    assert float(tape.gradient(y, x)) == 4.0
    with pytest.raises(RuntimeError, match=ONCE):
        tape.gradient(y, x)
    with tape:  # TensorFlow 2.21: 12.0 (the first recording is gone)
        y = x * x * x
    assert float(tape.gradient(y, x)) == 12.0


def test_a_persistent_tape_keeps_its_recording_across_entries():
    x = tf.Variable(3.0)
    tape = tf.GradientTape(persistent=True)
    with tape:
        y = x * x
    with tape:
        z = y * 2.0
    assert float(tape.gradient(z, x)) == 12.0 and float(tape.gradient(y, x)) == 6.0


def test_a_tape_in_a_function_watches_what_tensorflow_watches():
    # TensorFlow 2.21 gives (None, 6.0, [2., 2.], None, None): a tensor is watched when asked,
    # or computed inside the tape from watched tensors or variables (before: every symbolic
    # tensor counted as watched, and watching a captured eager tensor gave None).
    import numpy as np
    w = tf.ones([2])

    @tf.function
    def grads(x):
        with tf.GradientTape() as t:
            y = x * x
        unwatched_argument = t.gradient(y, x)
        with tf.GradientTape() as t:
            t.watch(x)
            y = x * x
        watched_argument = t.gradient(y, x)
        with tf.GradientTape() as t:
            t.watch(w)
            y = tf.reduce_sum(w * w)
        watched_capture = t.gradient(y, w)
        with tf.GradientTape() as t:
            y = tf.reduce_sum(w * w)
        unwatched_capture = t.gradient(y, w)
        z = x * 2
        with tf.GradientTape() as t:
            y = z * z
        made_before_the_tape = t.gradient(y, z)
        with tf.GradientTape() as t:
            t.watch(x)
            z = x * 2
            y = z * z
        made_from_watched = t.gradient(y, z)
        return (unwatched_argument, watched_argument, watched_capture, unwatched_capture,
                made_before_the_tape, made_from_watched)

    got = grads(tf.constant(3.0))
    assert got[0] is None and got[3] is None and got[4] is None
    assert float(got[1]) == 6.0 and float(got[5]) == 12.0
    assert np.array_equal(got[2].numpy(), [2.0, 2.0])
