"""``tf.py_function``: Python code that runs every time the graph runs.

Eagerly the function is simply called. While tracing, one stateful
``EagerPyFunc`` node is recorded; its kernel calls the function with eager
tensors and converts what it returns to ``Tout``. The node holds the Python
callable, so a graph using it cannot be saved (see graph/ops/py_func.py).
"""
from __future__ import annotations

from graph import dtypes
from graph.dtypes import as_array, as_dtype
from graph.errors import InvalidArgumentError
from runtime import context
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import EagerTensor, Tensor


def _as_value(result, dtype):
    """A numpy value of exactly ``dtype`` (how kernels must return values)."""
    if isinstance(result, EagerTensor):
        if result.dtype != dtype:
            raise InvalidArgumentError(
                message=f"py_function: the function returned a {result.dtype.name} tensor where "
                        f"Tout says {dtype.name}; cast it (tf.cast) or fix Tout.")
        result = result.numpy()
    elif hasattr(result, "_as_tensor"):
        return _as_value(result._as_tensor(), dtype)
    try:
        arr = as_array(result, dtype)
    except (TypeError, ValueError) as e:
        raise InvalidArgumentError(
            message=f"py_function: cannot convert the returned value {result!r} to "
                    f"{dtype.name}: {e}") from None
    return arr[()] if arr.ndim == 0 and dtype is not dtypes.string else arr


def _wrap(func, in_dtypes, out_dtypes):
    def call(*values):
        with context.init_scope():  # the function runs eagerly, whatever is being built
            results = func(*[EagerTensor(v, d) for v, d in zip(values, in_dtypes)])
        if len(out_dtypes) == 1 and not isinstance(results, (list, tuple)):
            results = [results]
        results = [] if results is None and not out_dtypes else list(results)
        if len(results) != len(out_dtypes):
            raise InvalidArgumentError(
                message=f"py_function: the function returned {len(results)} values, but Tout "
                        f"lists {len(out_dtypes)}")
        return [_as_value(r, d) for r, d in zip(results, out_dtypes)]
    call.__name__ = getattr(func, "__name__", "py_function")
    call.user_function = func  # what the gradient runs again (runtime/gradients/function_grads)
    return call


def py_function(func=None, inp=None, Tout=None, name: str | None = None):
    """Wraps ``func`` so that it runs in Python each time the graph runs.

    ``Tout`` is one dtype (the result is one tensor) or a list of dtypes (a
    list of tensors); outputs have unknown shape, as in TensorFlow. Without
    ``func`` it is a decorator: ``@tf.py_function(Tout=tf.float32)``.
    """
    if func is None:
        return _decorator(py_function, Tout, name)
    if not callable(func):
        raise TypeError(f"py_function: func must be callable, got {func!r}")
    if Tout is None:
        out_dtypes, single = [], False
    else:
        single = not isinstance(Tout, (list, tuple))
        out_dtypes = [as_dtype(Tout)] if single else [as_dtype(t) for t in Tout]
    inputs = [convert_to_tensor(x) if not isinstance(x, Tensor) else x for x in (inp or [])]
    wrapped = _wrap(func, [t.dtype for t in inputs], out_dtypes)
    result = apply_op("EagerPyFunc", inputs, attrs={"func": wrapped, "Tout": out_dtypes},
                      name=name or "EagerPyFunc")
    if single:
        return result
    if result is None:
        return []
    return list(result) if isinstance(result, tuple) else [result]


eager_py_func = py_function


def numpy_function(func=None, inp=None, Tout=None, stateful: bool = True,
                   name: str | None = None):
    """``tf.numpy_function``: ``py_function`` whose ``func`` takes and returns numpy
    arrays (no tensors, so no gradient). Without ``func`` it is a decorator."""
    if func is None:
        return _decorator(numpy_function, Tout, name)
    if not callable(func):
        raise TypeError(f"numpy_function: func must be callable, got {func!r}")

    def on_arrays(*tensors):
        return func(*[t.numpy() for t in tensors])
    on_arrays.__name__ = getattr(func, "__name__", "numpy_function")
    on_arrays.on_arrays = True  # numpy values: no gradient flows through it
    return py_function(on_arrays, inp, Tout, name=name or "PyFunc")


def _decorator(wrapper, Tout, name):
    import functools

    def decorate(func):
        @functools.wraps(func)
        def call(*args):
            return wrapper(func, list(args), Tout, name=name)
        return call
    return decorate


def _py_function_grad(op, *grads):
    """The gradient of ``py_function``: its Python function run again on the same inputs under
    a GradientTape, in a py_function of its own when staged. (TensorFlow keeps the forward
    run's tape instead, so side effects of the function happen once more here.)"""
    call = op.attrs["func"]
    func = getattr(call, "user_function", None)
    floats = [i for i, t in enumerate(op.inputs) if t.dtype.is_floating or t.dtype.is_complex]
    if func is None or getattr(func, "on_arrays", False) or not floats:
        return [None] * len(op.inputs)
    seeds = [(k, g) for k, g in enumerate(grads) if g is not None]

    def backward(*values):
        from runtime.gradients.tape import GradientTape
        from runtime.gradients.util import dense
        from runtime.ops.array_ops import zeros_like
        inputs, upstream = list(values[:len(op.inputs)]), values[len(op.inputs):]
        with GradientTape() as tape:
            for i in floats:
                tape.watch(inputs[i])
            results = func(*inputs)
        if not isinstance(results, (list, tuple)):
            results = [results]
        targets = [convert_to_tensor(results[k]) for k, _ in seeds]
        found = tape.gradient(targets, [inputs[i] for i in floats],
                              output_gradients=list(upstream))
        return [zeros_like(inputs[i]) if g is None else dense(g) for i, g in zip(floats, found)]

    dtypes_out = [op.inputs[i].dtype for i in floats]
    values = list(op.inputs) + [g for _, g in seeds]
    if context.current_graph() is None and all(isinstance(v, EagerTensor) for v in values):
        with context.init_scope():
            got = backward(*values)
    else:
        got = py_function(backward, values, dtypes_out, name="EagerPyFuncGrad")
    result = [None] * len(op.inputs)
    for i, g in zip(floats, got):
        result[i] = g
    return result


def _register_gradient() -> None:
    from runtime.gradients.registry import RegisterGradient
    RegisterGradient("EagerPyFunc")(_py_function_grad)


_register_gradient()
