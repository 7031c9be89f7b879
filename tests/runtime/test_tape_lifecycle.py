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
