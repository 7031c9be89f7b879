"""TensorFlow's "Advanced automatic differentiation" guide, run with ``import autograph as tf``.

Each test is a part of the guide's code as the guide writes it (prints included); the
expected text is what TensorFlow 2.21 prints for it, recorded as a literal.
Random values are not printed (shapes are).
"""
import os  # noqa: F401
import shutil  # noqa: F401
import tempfile  # noqa: F401

import numpy as np  # noqa: F401

import autograph as tf


def expect(text: str) -> str:
    return text[1:]


def test_controlling_gradient_recording(out):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
      x_sq = x * x
      with t.stop_recording():
        y_sq = y * y
      z = x_sq + y_sq
    grad = t.gradient(z, {'x': x, 'y': y})
    print('dz/dx:', grad['x'])
    print('dz/dy:', grad['y'])
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    reset = True
    with tf.GradientTape() as t:
      y_sq = y * y
      if reset:
        t.reset()
      z = x * x + y_sq
    grad = t.gradient(z, {'x': x, 'y': y})
    print('dz/dx:', grad['x'])
    print('dz/dy:', grad['y'])
    assert out() == expect(r'''
dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)
dz/dy: None
dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)
dz/dy: None
''')


def test_stop_gradient_and_custom_gradients(out):
    x = tf.Variable(2.0)
    y = tf.Variable(3.0)
    with tf.GradientTape() as t:
      y_sq = y**2
      z = x**2 + tf.stop_gradient(y_sq)
    grad = t.gradient(z, {'x': x, 'y': y})
    print('dz/dx:', grad['x'])
    print('dz/dy:', grad['y'])
    @tf.custom_gradient
    def clip_gradients(y):
      def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
      return y, backward
    v = tf.Variable(2.0)
    with tf.GradientTape() as t:
      output = clip_gradients(v * v)
    print(t.gradient(output, v))
    assert out() == expect(r'''
dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)
dz/dy: None
tf.Tensor(2.0, shape=(), dtype=float32)
''')


def test_custom_gradients_in_saved_models(out):
    @tf.custom_gradient
    def clip_gradients(y):
      def backward(dy):
        return tf.clip_by_norm(dy, 0.5)
      return y, backward
    class MyModule(tf.Module):
      @tf.function(input_signature=[tf.TensorSpec(None)])
      def call_custom_grad(self, x):
        return clip_gradients(x)
    model = MyModule()
    d = tempfile.mkdtemp()
    tf.saved_model.save(
        model,
        os.path.join(d, 'saved_model'),
        options=tf.saved_model.SaveOptions(experimental_custom_gradients=True))
    v = tf.Variable(2.0)
    loaded = tf.saved_model.load(os.path.join(d, 'saved_model'))
    with tf.GradientTape() as t:
      output = loaded.call_custom_grad(v * v)
    print(t.gradient(output, v))
    shutil.rmtree(d)
    assert out() == expect(r'''
tf.Tensor(2.0, shape=(), dtype=float32)
''')


def test_multiple_tapes_and_higher_order(out):
    x0 = tf.constant(0.0)
    x1 = tf.constant(0.0)
    with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
      tape0.watch(x0)
      tape1.watch(x1)
      y0 = tf.math.sin(x0)
      y1 = tf.nn.sigmoid(x1)
      y = y0 + y1
      ys = tf.reduce_sum(y)
    print(tape0.gradient(ys, x0).numpy())
    print(tape1.gradient(ys, x1).numpy())
    x = tf.Variable(1.0)
    with tf.GradientTape() as t2:
      with tf.GradientTape() as t1:
        y = x * x * x
      dy_dx = t1.gradient(y, x)
    d2y_dx2 = t2.gradient(dy_dx, x)
    print('dy_dx:', dy_dx.numpy())
    print('d2y_dx2:', d2y_dx2.numpy())
    assert out() == expect(r'''
1.0
0.25
dy_dx: 3.0
d2y_dx2: 6.0
''')


def test_forward_accumulator(out):
    primal = tf.constant(1.1)
    with tf.autodiff.ForwardAccumulator(primal, tf.constant(1.)) as outer:
      with tf.autodiff.ForwardAccumulator(primal, tf.constant(1.)) as inner:
        primal_out = primal ** tf.constant(3.5)
      inner_jvp = inner.jvp(primal_out)
      print(inner_jvp)
    outer_jvp = outer.jvp(inner_jvp)
    print(outer_jvp)
    assert out() == expect(r'''
tf.Tensor(4.4417057, shape=(), dtype=float32)
tf.Tensor(10.094786, shape=(), dtype=float32)
''')


def test_jacobians(out):
    x = tf.linspace(-10.0, 10.0, 200+1)
    delta = tf.Variable(0.0)
    with tf.GradientTape() as tape:
      y = tf.nn.sigmoid(x+delta)
    dy_dx = tape.jacobian(y, delta)
    print(y.shape)
    print(dy_dx.shape)
    x = tf.random.normal([7, 5])
    w = tf.Variable(tf.random.normal([5, 10]))
    b = tf.Variable(tf.zeros([10]))
    with tf.GradientTape(persistent=True) as tape:
      y = tf.nn.relu(x @ w + b)
    j = tape.jacobian(y, w)
    print(j.shape)
    print(y.shape)
    print(w.shape)
    grad = tape.gradient(y, w)
    print(grad.shape)
    print(bool(tf.reduce_max(abs(tf.reduce_sum(j, axis=[0, 1]) - grad)) < 1e-5))
    assert out() == expect(r'''
(201,)
(201,)
(7, 10, 5, 10)
(7, 10)
(5, 10)
(5, 10)
True
''')


def test_hessian_of_a_sum_of_cubes(out):
    x = tf.constant([[1., 2.], [3., 4.]])
    with tf.GradientTape() as t2:
      t2.watch(x)
      with tf.GradientTape() as t1:
        t1.watch(x)
        y = tf.reduce_sum(x ** 3)
      g = t1.gradient(y, x)
    h = t2.jacobian(g, x)
    print(h.shape)
    n_params = tf.reduce_prod(x.shape)
    print(n_params)
    h_mat = tf.reshape(h, [n_params, n_params])
    print(h_mat)
    print(tf.linalg.eigh(h_mat)[0])
    assert out() == expect(r'''
(2, 2, 2, 2)
tf.Tensor(4, shape=(), dtype=int32)
tf.Tensor(
[[ 6.  0.  0.  0.]
 [ 0. 12.  0.  0.]
 [ 0.  0. 18.  0.]
 [ 0.  0.  0. 24.]], shape=(4, 4), dtype=float32)
tf.Tensor([ 6. 12. 18. 24.], shape=(4,), dtype=float32)
''')


def test_batch_jacobian(out):
    x = tf.constant([[1., 2.], [3., 4.]])
    with tf.GradientTape(persistent=True) as tape:
      tape.watch(x)
      y = x * x
    j = tape.batch_jacobian(y, x)
    print(j.shape)
    j_sum = tf.reduce_sum(tape.jacobian(y, x), axis=2)
    print(j_sum.shape)
    print(j)
    assert out() == expect(r'''
(2, 2, 2)
(2, 2, 2)
tf.Tensor(
[[[2. 0.]
  [0. 4.]]

 [[6. 0.]
  [0. 8.]]], shape=(2, 2, 2), dtype=float32)
''')


def test_batch_jacobian_of_layers(out):
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.elu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.elu)
    with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
      tape.watch(x)
      y = layer1(x)
      y = layer2(y)
    print(y.shape)
    j = tape.jacobian(y, x)
    print(j.shape)
    j_sum = tf.reduce_sum(j, axis=2)
    print(j_sum.shape)
    j_select = tf.einsum('bxby->bxy', j)
    print(j_select.shape)
    jb = tape.batch_jacobian(y, x)
    print(jb.shape)
    error = tf.reduce_max(abs(jb - j_sum))
    assert error < 1e-3
    assert out() == expect(r'''
(7, 6)
(7, 6, 7, 5)
(7, 6, 5)
(7, 6, 5)
(7, 6, 5)
''')


def test_newtons_method_step(out):
    x = tf.random.normal([7, 5])
    layer1 = tf.keras.layers.Dense(8, activation=tf.nn.relu)
    layer2 = tf.keras.layers.Dense(6, activation=tf.nn.relu)
    with tf.GradientTape() as t2:
      with tf.GradientTape() as t1:
        x = layer1(x)
        x = layer2(x)
        loss = tf.reduce_mean(x**2)
      g = t1.gradient(loss, layer1.kernel)
    h = t2.jacobian(g, layer1.kernel)
    print(f'layer.kernel.shape: {layer1.kernel.shape}')
    print(f'h.shape: {h.shape}')
    n_params = tf.reduce_prod(layer1.kernel.shape)
    g_vec = tf.reshape(g, [n_params, 1])
    h_mat = tf.reshape(h, [n_params, n_params])
    eps = 1e-3
    eye_eps = tf.eye(h_mat.shape[0])*eps
    update = tf.linalg.solve(h_mat + eye_eps, g_vec)
    _ = layer1.kernel.assign_sub(tf.reshape(update, layer1.kernel.shape))
    print(update.shape)
    assert out() == expect(r'''
layer.kernel.shape: (5, 8)
h.shape: (5, 8, 5, 8)
(40, 1)
''')
