"""TensorFlow's "Introduction to gradients and automatic differentiation" guide, run with ``import autograph as tf``.

Each test is a part of the guide's code as the guide writes it (prints included); the
expected text is what TensorFlow 2.21 prints for it, recorded as a literal.
Random values are not printed (shapes are); the sigmoid gradient's last float digits
differ (Eigen's logistic), so it is compared closely.
"""
import os  # noqa: F401
import shutil  # noqa: F401
import tempfile  # noqa: F401

import numpy as np  # noqa: F401

import autograph as tf


def expect(text: str) -> str:
    return text[1:]


def test_gradient_tapes(out):
    x = tf.Variable(3.0)
    with tf.GradientTape() as tape:
      y = x**2
    dy_dx = tape.gradient(y, x)
    print(dy_dx.numpy())
    w = tf.Variable(tf.random.normal((3, 2)), name='w')
    b = tf.Variable(tf.zeros(2, dtype=tf.float32), name='b')
    x = [[1., 2., 3.]]
    with tf.GradientTape(persistent=True) as tape:
      y = x @ w + b
      loss = tf.reduce_mean(y**2)
    [dl_dw, dl_db] = tape.gradient(loss, [w, b])
    print(w.shape)
    print(dl_dw.shape)
    my_vars = {'w': w, 'b': b}
    grad = tape.gradient(loss, my_vars)
    print(grad['b'].shape, grad['b'].dtype)
    assert out() == expect(r'''
6.0
(3, 2)
(3, 2)
(2,) <dtype: 'float32'>
''')


def test_controlling_what_the_tape_watches(out):
    x0 = tf.Variable(3.0, name='x0')
    x1 = tf.Variable(3.0, name='x1', trainable=False)
    x2 = tf.Variable(2.0, name='x2') + 1.0
    x3 = tf.constant(3.0, name='x3')
    with tf.GradientTape() as tape:
      y = (x0**2) + (x1**2) + (x2**2)
    grad = tape.gradient(y, [x0, x1, x2, x3])
    for g in grad:
      print(g)
    print([var.name for var in tape.watched_variables()])
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
      tape.watch(x)
      y = x**2
    dy_dx = tape.gradient(y, x)
    print(dy_dx.numpy())
    x0 = tf.Variable(0.0)
    x1 = tf.Variable(10.0)
    with tf.GradientTape(watch_accessed_variables=False) as tape:
      tape.watch(x1)
      y0 = tf.math.sin(x0)
      y1 = tf.nn.softplus(x1)
      y = y0 + y1
      ys = tf.reduce_sum(y)
    grad = tape.gradient(ys, {'x0': x0, 'x1': x1})
    print('dy/dx0:', grad['x0'])
    print('dy/dx1:', grad['x1'].numpy())
    assert out() == expect(r'''
tf.Tensor(6.0, shape=(), dtype=float32)
None
None
None
['x0:0']
6.0
dy/dx0: None
dy/dx1: 0.9999546
''')


def test_intermediate_results_and_persistence(out):
    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
      tape.watch(x)
      y = x * x
      z = y * y
    print(tape.gradient(z, y).numpy())
    x = tf.constant([1, 3.0])
    with tf.GradientTape(persistent=True) as tape:
      tape.watch(x)
      y = x * x
      z = y * y
    print(tape.gradient(z, x).numpy())
    print(tape.gradient(y, x).numpy())
    del tape
    assert out() == expect(r'''
18.0
[  4. 108.]
[2. 6.]
''')


def test_gradients_of_non_scalar_targets(out):
    x = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
      y0 = x**2
      y1 = 1 / x
    print(tape.gradient(y0, x).numpy())
    print(tape.gradient(y1, x).numpy())
    x = tf.Variable(2.0)
    with tf.GradientTape() as tape:
      y0 = x**2
      y1 = 1 / x
    print(tape.gradient({'y0': y0, 'y1': y1}, x).numpy())
    x = tf.Variable(2.)
    with tf.GradientTape() as tape:
      y = x * [3., 4.]
    print(tape.gradient(y, x).numpy())
    x = tf.linspace(-10.0, 10.0, 200+1)
    with tf.GradientTape() as tape:
      tape.watch(x)
      y = tf.nn.sigmoid(x)
    dy_dx = tape.gradient(y, x)
    np.testing.assert_allclose(dy_dx[:3].numpy(), [4.5395798e-05, 5.0169660e-05, 5.5445442e-05],
                               rtol=1e-6)
    print(dy_dx.shape, dy_dx[100])
    assert out() == expect(r'''
4.0
-0.25
3.75
7.0
(201,) tf.Tensor(0.25, shape=(), dtype=float32)
''')


def test_control_flow(out):
    x = tf.constant(1.0)
    v0 = tf.Variable(2.0)
    v1 = tf.Variable(2.0)
    with tf.GradientTape(persistent=True) as tape:
      tape.watch(x)
      if x > 0.0:
        result = v0
      else:
        result = v1**2
    dv0, dv1 = tape.gradient(result, [v0, v1])
    print(dv0)
    print(dv1)
    dx = tape.gradient(result, x)
    print(dx)
    assert out() == expect(r'''
tf.Tensor(1.0, shape=(), dtype=float32)
None
None
''')


def test_calculated_results_in_numpy(out):
    x = tf.Variable([[1.0, 2.0], [3.0, 4.0]], dtype=tf.float32)
    with tf.GradientTape() as tape:
      x2 = x**2
      y = np.mean(x2, axis=0)
      y = tf.reduce_mean(y, axis=0)
    print(tape.gradient(y, x))
    assert out() == expect(r'''
None
''')


def test_cases_where_gradient_returns_none(out):
    x = tf.Variable(2.)
    y = tf.Variable(3.)
    with tf.GradientTape() as tape:
      z = y * y
    dy_dx = tape.gradient(z, x)
    print(dy_dx)
    x = tf.Variable(2.0)
    for epoch in range(2):
      with tf.GradientTape() as tape:
        y = x+1
      print(type(x).__name__, ":", tape.gradient(y, x))
      x = x + 1
    x = tf.constant(10)
    with tf.GradientTape() as g:
      g.watch(x)
      y = x * x
    print(g.gradient(y, x))
    x0 = tf.Variable(3.0)
    x1 = tf.Variable(0.0)
    with tf.GradientTape() as tape:
      x1.assign_add(x0)
      y = x1**2
    print(tape.gradient(y, x0))
    image = tf.Variable([[[0.5, 0.0, 0.0]]])
    delta = tf.Variable(0.1)
    with tf.GradientTape() as tape:
      new_image = tf.image.adjust_contrast(image, delta)
    try:
      print(tape.gradient(new_image, [image, delta]))
      assert False
    except LookupError as e:
      print(f'{type(e).__name__}: {e}')
    assert out() == expect(r'''
None
ResourceVariable : tf.Tensor(1.0, shape=(), dtype=float32)
EagerTensor : None
None
None
LookupError: gradient registry has no entry for: AdjustContrastv2
''')


def test_zeros_instead_of_none(out):
    x = tf.Variable([2., 2.])
    y = tf.Variable(3.)
    with tf.GradientTape() as tape:
      z = y**2
    print(tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))
    assert out() == expect(r'''
tf.Tensor([0. 0.], shape=(2,), dtype=float32)
''')


def test_adjust_contrast(out):
    img = tf.constant([[[0.5, 0.0, 0.0], [0.1, 0.9, 0.3]], [[0.2, 0.4, 0.6], [1.0, 0.0, 0.5]]])
    print(tf.image.adjust_contrast(img, 2.0))
    print(tf.image.adjust_contrast(tf.cast(img * 255, tf.uint8), 2.0))
    print(tf.image.adjust_contrast(tf.cast(img, tf.float64), 0.5).dtype)
    for bad in ([1., 2.], tf.cast(img, tf.float16)):
      try:
        tf.image.adjust_contrast(bad, 2.0)
      except (tf.errors.InvalidArgumentError, tf.errors.NotFoundError) as e:
        print(type(e).__name__)
    assert out() == expect(r'''
tf.Tensor(
[[[ 0.55       -0.325      -0.35000002]
  [-0.25        1.4749999   0.25      ]]

 [[-0.04999998  0.47500002  0.85      ]
  [ 1.55       -0.325       0.65      ]]], shape=(2, 2, 3), dtype=float32)
tf.Tensor(
[[[139   0   0]
  [  0 255  63]]

 [[  0 121 217]
  [255   0 165]]], shape=(2, 2, 3), dtype=uint8)
<dtype: 'float64'>
InvalidArgumentError
NotFoundError
''')


def test_watching_an_integer_tensor_warns(caplog):
    x = tf.constant(10)
    with tf.GradientTape() as g:
        g.watch(x)
        y = x * x
    assert g.gradient(y, x) is None
    assert [(r.name, r.levelname, r.getMessage()) for r in caplog.records] == [
        ("tensorflow", "WARNING", "The dtype of the watched tensor must be floating (e.g. "
                                  "tf.float32), got tf.int32")]  # TensorFlow's words
