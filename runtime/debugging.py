"""``tf.debugging``: run-time assertions and the NaN/Inf checks that also work in graphs.

``enable_check_numerics()`` makes every op that produces a float NaN or Inf
raise InvalidArgumentError naming the op and the user's line: eagerly at once,
and, for functions traced while it is on, when the graph runs (a check node
is recorded after each float op). It works through one hook in
``runtime.ops.core.apply_op``: ``NUMERIC_CHECKS`` is empty when the checks are
off, so the hook costs one truthiness test per op.
"""
from __future__ import annotations

import sys

import numpy as np

from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from runtime import context
from runtime.ops import math_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.logging_ops import (Assert, assert_equal, assert_greater,  # noqa: F401
                                     assert_greater_equal, assert_less, assert_less_equal,
                                     assert_negative, assert_non_negative, assert_non_positive,
                                     assert_none_equal, assert_positive)
from runtime.ops.core import NUMERIC_CHECKS  # apply_op calls check(op, result); empty when off
from runtime.ops.special_ops import is_finite
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, Tensor

assert_not_equal = assert_none_equal



def _bad_kind(value: np.ndarray) -> str | None:
    if np.isnan(value).any():
        return "NaN"
    if np.isinf(value).any():
        return "Inf"
    return None


def check_numerics(tensor, message, name=None):
    """``tf.debugging.check_numerics``: ``tensor`` itself, or InvalidArgumentError on NaN/Inf."""
    x = convert_to_tensor(tensor)
    if not x.dtype.is_floating:
        raise TypeError(f"check_numerics takes a float tensor, got {x.dtype.name}")
    if isinstance(x, EagerTensor):
        kind = _bad_kind(x.numpy())
        if kind is not None:
            raise InvalidArgumentError(message=f"{message} : Tensor had {kind} values")
        return x
    Assert(math_ops.reduce_all(is_finite(x)), [f"{message} : Tensor had NaN or Inf values"],
           name=name or "CheckNumerics")
    return x


def assert_all_finite(t, msg, name=None):
    return check_numerics(t, msg, name=name)


class _NumericCheck:
    """The hook ``apply_op`` calls while the checks are on; re-entry (its own ops) is skipped."""

    def __init__(self):
        self.active = False

    def __call__(self, op: str, result) -> None:
        if self.active or result is None:
            return
        outputs = result if isinstance(result, tuple) else (result,)
        self.active = True
        try:
            for i, t in enumerate(outputs):
                if t.dtype.is_floating:
                    self._check(op, i, len(outputs), t)
        finally:
            self.active = False

    @staticmethod
    def _message(op: str, i: int, n: int, t, where: str) -> str:
        return (f"\n\n!!! Detected Infinity or NaN in output {i} of "
                f"{'eagerly-executing' if isinstance(t, EagerTensor) else 'graph'} op \"{op}\" "
                f"(# of outputs: {n}) !!!\n  dtype: {t.dtype!r}\n  shape: {t.shape}\n"
                f"  created at {where}")

    def _check(self, op, i, n, t) -> None:
        where = current_origin()
        if isinstance(t, EagerTensor):
            if _bad_kind(np.asarray(t.numpy())) is not None:
                raise InvalidArgumentError(message=self._message(op, i, n, t, where))
            return
        if context.current_graph() is not None:
            Assert(math_ops.reduce_all(is_finite(t)), [self._message(op, i, n, t, where)],
                   name="CheckNumerics")


# The per-op hooks that are on; ``NUMERIC_CHECKS`` (what apply_op calls) holds one callable
# running them all, or nothing when none is on.
_HOOKS: dict = {}


def _install(key: str, hook) -> None:
    if hook is None:
        _HOOKS.pop(key, None)
    else:
        _HOOKS.setdefault(key, hook)
    hooks = list(_HOOKS.values())
    NUMERIC_CHECKS.clear()
    if len(hooks) == 1:
        NUMERIC_CHECKS.append(hooks[0])
    elif hooks:
        def run_all(op, result):
            for h in hooks:
                h(op, result)
        NUMERIC_CHECKS.append(run_all)


def enable_check_numerics(stack_height_limit=30, path_length_limit=50) -> None:
    """Every later op producing NaN or Inf raises, naming the op and its line."""
    _install("numerics", _NumericCheck())


def disable_check_numerics() -> None:
    _install("numerics", None)


def _log_placement(op: str, result) -> None:
    if isinstance(result, EagerTensor) or (isinstance(result, tuple) and result
                                           and isinstance(result[0], EagerTensor)):
        print(f"{op}: ({op}): /job:localhost/replica:0/task:0/device:CPU:0", file=sys.stderr)


def set_log_device_placement(enabled: bool) -> None:
    """Logs (to stderr) the device of each op run eagerly from now on: always the CPU."""
    _install("placement", _log_placement if enabled else None)


def get_log_device_placement() -> bool:
    """Whether ``set_log_device_placement(True)`` is in force."""
    return "placement" in _HOOKS


# -- static and dtype assertions -------------------------------------------------------------

def _prefix(message) -> str:
    return f"{message}  " if message else ""


def assert_type(tensor, tf_type, message=None, name=None):
    """TypeError unless ``tensor`` has dtype ``tf_type`` (checked statically, as in TF)."""
    t = convert_to_tensor(tensor)
    if t.dtype != as_dtype(tf_type):  # (TensorFlow names a graph tensor, "tensor" eagerly)
        label = "tensor" if isinstance(t, EagerTensor) else t.name
        raise TypeError(f"{_rank_prefix(message)}{label} must be of type "
                        f"{as_dtype(tf_type)!r}; got {t.dtype!r}")


def assert_rank(x, rank, message=None, name=None):
    """ValueError when the static rank differs; a run-time check when it is unknown."""
    t = convert_to_tensor(x)
    rank = int(rank)
    if t.shape.rank is not None:
        if t.shape.rank != rank:
            raise ValueError(f"{_rank_prefix(message)}Tensor {_label(t)} must have rank "
                             f"{rank}.  Received rank {t.shape.rank}, shape {t.shape}")
        return None
    from runtime.ops import array_ops
    return assert_equal(array_ops.rank(t), rank, message=message, name=name or "assert_rank")


def _rank_prefix(message) -> str:
    return f"{message}.  " if message else ""


def assert_rank_at_least(x, rank, message=None, name=None):
    """ValueError when the static rank is below ``rank``; a run-time check when unknown."""
    t = convert_to_tensor(x)
    rank = int(rank)
    if t.shape.rank is not None:
        if t.shape.rank < rank:
            raise ValueError(f"{_rank_prefix(message)}Tensor {_label(t)} must have rank at least "
                             f"{rank}.  Received rank {t.shape.rank}, shape {t.shape}")
        return None
    from runtime.ops import array_ops
    return assert_greater_equal(array_ops.rank(t), rank, message=message,
                                name=name or "assert_rank_at_least")


def assert_rank_in(x, ranks, message=None, name=None):
    """ValueError when the static rank is none of ``ranks`` (checked when it is known)."""
    t = convert_to_tensor(x)
    ranks = tuple(int(r) for r in ranks)
    if t.shape.rank is not None and t.shape.rank not in ranks:
        raise ValueError(f"{_rank_prefix(message)}Tensor {_label(t)} must have rank in {ranks}.  "
                         f"Received rank {t.shape.rank}, shape {t.shape}")
    return None


def assert_same_float_dtype(tensors=None, dtype=None):
    """The common floating dtype of ``tensors`` (and ``dtype``); ValueError if they differ or
    are not floating (float32 when there is nothing to check)."""
    want = as_dtype(dtype) if dtype is not None else None
    first = None
    for t in tensors or []:
        if want is None:
            want, first = t.dtype, t
        elif t.dtype != want:
            extra = f" as {first!s}" if first is not None else ""
            raise ValueError(f"{t!s}, type=<dtype: '{t.dtype.name}'>, must be of the same type "
                             f"(<dtype: '{want.name}'>){extra}.")
    if want is None:
        return as_dtype("float32")
    if not want.is_floating:
        raise ValueError(f"Expected floating point type, got <dtype: '{want.name}'>.")
    return want


def assert_proper_iterable(values):
    """TypeError for a value that is not a proper iterable of values (a string, bytes, an
    array or a tensor), as TensorFlow's check."""
    if isinstance(values, (str, bytes, np.ndarray, Tensor)) or not hasattr(values, "__iter__"):
        raise TypeError(f'Expected argument "values" to be a "proper" iterable.  Found: '
                        f"{type(values)}")


def assert_scalar(tensor, message=None, name=None):
    t = convert_to_tensor(tensor)
    if t.shape.rank is not None and t.shape.rank != 0:
        raise ValueError(f"{_prefix(message)}Expected scalar shape, saw shape: {t.shape}.")
    return t


def _label(t) -> str:
    return t.name if hasattr(t, "name") and not isinstance(t, EagerTensor) else ""


def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Checks ``(tensor, dims)`` pairs; a dim is an int, or a name that must agree everywhere
    (``'N'``); ``None`` or ``'.'`` accepts any size. Static shapes are checked at once."""
    sizes: dict = {}
    for tensor, spec in shapes:
        t = convert_to_tensor(tensor)
        dims = list(spec) if not isinstance(spec, str) else [spec] if spec else []
        if t.shape.rank is None:
            continue
        if len(dims) != t.shape.rank:
            raise ValueError(f"{_prefix(message)}Specified by tensor {_label(t)} dimension 0. "
                             f"Tensor {_label(t)} must have rank {len(dims)}. Received rank "
                             f"{t.shape.rank}, shape {t.shape}")
        for i, (want, got) in enumerate(zip(dims, t.shape.as_tuple())):
            if want is None or want == "." or got is None:
                continue
            want = sizes.setdefault(want, got) if isinstance(want, str) else int(want)
            if want != got:
                raise ValueError(f"{_prefix(message)}Specified by tensor {_label(t)} dimension "
                                 f"{i}. Tensor {_label(t)} dimension {i} must have size {want}. "
                                 f"Received size {got}, shape {t.shape}")


def assert_near(x, y, rtol=None, atol=None, message=None, summarize=None, name=None):
    """``|x - y| <= atol + rtol * |y|`` element-wise; tolerances default to 10 eps of x's dtype."""
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)
    eps = float(np.finfo(x.dtype.numpy_dtype).eps) if x.dtype.is_floating else 0.0
    rtol = convert_to_tensor(10 * eps if rtol is None else rtol, dtype=x.dtype)
    atol = convert_to_tensor(10 * eps if atol is None else atol, dtype=x.dtype)
    diff = math_ops.abs(math_ops.subtract(x, y))
    tol = math_ops.add(atol, math_ops.multiply(rtol, math_ops.abs(y)))
    ok = math_ops.reduce_all(math_ops.less_equal(diff, tol))
    text = f"{_prefix(message)}x and y not equal to tolerance"
    if isinstance(ok, EagerTensor):
        if not ok.numpy():
            raise InvalidArgumentError(message=f"{text}: x = {x.numpy()}, y = {y.numpy()}\n"
                                               f"  at {current_origin()}")
        return None
    return Assert(ok, [text, "x =", x, "y =", y], summarize, name=name or "assert_near")


def assert_integer(x, message=None, name=None):
    t = convert_to_tensor(x)
    if not t.dtype.is_integer:
        raise TypeError(f"{_prefix(message)}Expected integer type for tensor {_label(t)}, got "
                        f"{t.dtype!r}")


def is_numeric_tensor(tensor) -> bool:
    """Whether ``tensor`` is a Tensor of a numeric dtype (Python values are not)."""
    return hasattr(tensor, "dtype") and not isinstance(tensor, np.ndarray) \
        and tensor.dtype.is_numeric
