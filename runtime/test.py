"""``tf.test``: what programs use of TensorFlow's test module: ``compute_gradient`` (a
theoretical and a numeric Jacobian, for gradient checks), the device queries
(no GPU here) and a ``TestCase`` with TensorFlow's array assertions."""
from __future__ import annotations

import unittest

import numpy as np

from runtime import nest
from runtime.ops.core import convert_to_tensor

__all__ = ["TestCase", "compute_gradient", "gpu_device_name", "is_built_with_cuda",
           "is_built_with_gpu_support", "is_gpu_available", "main"]


def _call(f, xs: list):
    return convert_to_tensor(f(*[convert_to_tensor(x) for x in xs]))


def _theoretical_jacobian(f, xs: list, param: int, y) -> np.ndarray:
    """Row r: the gradient of ``y.flat[r]`` with respect to ``xs[param]``, flattened."""
    from runtime.gradients.tape import GradientTape
    from runtime.gradients.util import dense
    x = xs[param]
    y_size, x_size = int(np.prod(y.shape.as_list())), int(np.prod(x.shape.as_list()))
    jacobian = np.zeros((y_size, x_size), dtype=x.dtype.numpy_dtype)
    seed = np.zeros(y_size, dtype=y.dtype.numpy_dtype)
    for row in range(y_size):
        seed[row] = 1
        with GradientTape() as tape:
            tape.watch(x)
            out = _call(f, xs)
        grad = tape.gradient(out, x, output_gradients=convert_to_tensor(
            seed.reshape(y.shape.as_list())))
        if grad is not None:
            jacobian[row] = np.asarray(dense(grad).numpy()).ravel()
        seed[row] = 0
    return jacobian


def _numeric_jacobian(f, xs: list, param: int, y, delta: float) -> np.ndarray:
    """Column c: the central difference of ``y`` moving ``xs[param].flat[c]`` by ``delta``."""
    values = [np.array(x.numpy()) for x in xs]
    flat = values[param].reshape(-1)  # a view: moving it moves the argument
    y_size = int(np.prod(y.shape.as_list()))
    jacobian = np.zeros((y_size, flat.size), dtype=values[param].dtype)
    scale = np.asarray(2 * delta, dtype=y.dtype.numpy_dtype)
    for col in range(flat.size):
        original = flat[col]
        flat[col] = original + delta
        y_pos = _call(f, values).numpy()
        flat[col] = original - delta
        y_neg = _call(f, values).numpy()
        flat[col] = original
        jacobian[:, col] = ((y_pos - y_neg) / scale).ravel()
    return jacobian


def compute_gradient(f, x, delta=None):
    """``tf.test.compute_gradient``: ``(theoretical, numeric)``, each a tuple with, per
    argument of ``f``, the Jacobian of ``f(*x)`` as a ``[y_size, x_size]`` numpy array."""
    if not isinstance(x, (list, tuple)):
        raise ValueError("`x` must be a list or tuple of values convertible to a Tensor "
                         f"(arguments to `f`), not a {type(x)}")
    delta = 1.0 / 1024 if delta is None else delta  # exact in binary: less rounding noise
    xs = [convert_to_tensor(v) for v in x]
    for v in xs:
        if v.dtype.is_complex:
            raise TypeError("tf.test.compute_gradient: complex arguments are not supported "
                            "here; pass the real and imaginary parts as separate arguments")
    y = _call(f, xs)
    theoretical = tuple(_theoretical_jacobian(f, xs, i, y) for i in range(len(xs)))
    numeric = tuple(_numeric_jacobian(f, xs, i, y, delta) for i in range(len(xs)))
    return theoretical, numeric


def is_gpu_available(cuda_only: bool = False, min_cuda_compute_capability=None) -> bool:
    """There is no GPU: everything runs on numpy."""
    return False


def gpu_device_name() -> str:
    return ""


def is_built_with_cuda() -> bool:
    return False


def is_built_with_gpu_support() -> bool:
    return False


class TestCase(unittest.TestCase):
    """``tf.test.TestCase``: unittest with TensorFlow's array assertions."""

    def evaluate(self, tensors):
        """Tensors (in any structure) as numpy values."""
        return nest.map_structure(
            lambda t: t.numpy() if hasattr(t, "numpy") else t, tensors)

    def _value(self, a):
        return np.asarray(self.evaluate(a))

    def assertAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        np.testing.assert_allclose(self._value(a), self._value(b), rtol=rtol, atol=atol,
                                   err_msg=msg or "")

    def assertAllEqual(self, a, b, msg=None):
        a, b = self._value(a), self._value(b)
        self.assertEqual(a.shape, b.shape, msg)
        np.testing.assert_array_equal(a, b, err_msg=msg or "")

    def assertNotAllClose(self, a, b, rtol=1e-6, atol=1e-6, msg=None):
        if np.allclose(self._value(a), self._value(b), rtol=rtol, atol=atol):
            raise self.failureException(msg or "The two values are close at all elements")

    def assertAllGreater(self, a, comparison_target):
        self.assertGreater(np.min(self._value(a)), comparison_target)

    def assertAllLess(self, a, comparison_target):
        self.assertLess(np.max(self._value(a)), comparison_target)

    def assertAllInRange(self, target, lower_bound, upper_bound):
        value = self._value(target)
        self.assertTrue(np.all((value >= lower_bound) & (value <= upper_bound)),
                        f"{value} not in [{lower_bound}, {upper_bound}]")

    def assertShapeEqual(self, a, b, msg=None):
        self.assertEqual(list(np.shape(self._value(a))), list(b.shape), msg)

    def assertDTypeEqual(self, target, expected_dtype):
        from graph.dtypes import as_dtype
        self.assertEqual(as_dtype(target.dtype), as_dtype(expected_dtype))


def main(argv=None):
    """Runs the TestCases of ``__main__`` (``tf.test.main()``)."""
    unittest.main(argv=argv)
