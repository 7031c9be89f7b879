"""Numpy gradient functions for the ops an eager tape meets most: its fast path.

An eager tape's gradient runs each gradient op through ``apply_op``, whose
shape inference and tensor wrapping cost far more than the arithmetic of a
small tensor. When nothing records the gradient computation itself (no
outer tape, no graph being built), ``backprop`` calls these instead: the
same rules as math_grads.py, written on the numpy values of the record.
Ops missing here take the ordinary path, so this table only has to be right,
not complete. A nested tape still gets differentiable gradient ops: with a
tape recording, the fast path is off.

Complex values follow TensorFlow's convention, ``g * conj(f'(z))`` (``_c``).

Each function takes the record, the numpy gradients of its outputs (None for
none) and which inputs need a gradient, and returns numpy values (or None);
``backprop`` casts them to each input's exact dtype.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

NUMPY_GRADIENTS: dict[str, Callable] = {}


def _register(*ops: str):
    def register(fn: Callable) -> Callable:
        for op in ops:
            NUMPY_GRADIENTS[op] = fn
        return fn
    return register


def _unbroadcast(g, shape: tuple):
    """``g`` (the gradient of a broadcast result) summed back to ``shape``."""
    gs = np.shape(g)
    if gs == shape:
        return g
    lead = len(gs) - len(shape)
    axes = tuple(range(lead)) + tuple(lead + i for i, d in enumerate(shape)
                                      if d == 1 and gs[lead + i] != 1)
    if axes:
        g = np.sum(g, axis=axes, keepdims=True)
    return np.reshape(g, shape)


def _c(v):
    """conj(v) of a complex value; a real value as it is (no copy)."""
    return np.conj(v) if np.iscomplexobj(v) else v


def _values(record):
    return [t._value for t in record.inputs]


def _binary(record, gx, gy, needed):
    x, y = _values(record)
    return [_unbroadcast(gx(), np.shape(x)) if needed[0] else None,
            _unbroadcast(gy(), np.shape(y)) if needed[1] else None]


@_register("AddV2")
def _add(record, grads, needed):
    g = grads[0]
    return _binary(record, lambda: g, lambda: g, needed)


@_register("Sub")
def _sub(record, grads, needed):
    g = grads[0]
    return _binary(record, lambda: g, lambda: -g, needed)


@_register("Mul")
def _mul(record, grads, needed):
    g = grads[0]
    x, y = _values(record)
    return _binary(record, lambda: g * _c(y), lambda: g * _c(x), needed)


@_register("RealDiv")
def _div(record, grads, needed):
    g = grads[0]
    x, y = _values(record)
    return _binary(record, lambda: g / _c(y), lambda: -g * _c(x / y / y), needed)


@_register("MatMul")
def _matmul(record, grads, needed):
    g = grads[0]
    a, b = (_c(v) for v in _values(record))
    if record.attrs.get("transpose_a"):
        if record.attrs.get("transpose_b"):
            rules = (lambda: b.T @ g.T, lambda: g.T @ a.T)
        else:
            rules = (lambda: b @ g.T, lambda: a @ g)
    elif record.attrs.get("transpose_b"):
        rules = (lambda: g @ b, lambda: g.T @ a)
    else:
        rules = (lambda: g @ b.T, lambda: a.T @ g)
    return [rule() if need else None for rule, need in zip(rules, needed)]


@_register("Neg")
def _neg(record, grads, needed):
    return [-grads[0]]


@_register("Identity", "ReadVariableOp")
def _identity(record, grads, needed):
    return [grads[0]] * len(record.inputs)


@_register("Tanh")
def _tanh(record, grads, needed):
    y = record.outputs[0]._value
    return [grads[0] * _c(1 - y * y)]


@_register("Sigmoid")
def _sigmoid(record, grads, needed):
    y = record.outputs[0]._value
    return [grads[0] * _c(y * (1 - y))]


@_register("Exp")
def _exp(record, grads, needed):
    return [grads[0] * _c(record.outputs[0]._value)]


@_register("Log")
def _log(record, grads, needed):
    return [grads[0] / _c(record.inputs[0]._value)]


@_register("Square")
def _square(record, grads, needed):
    return [grads[0] * (_c(record.inputs[0]._value) * 2)]


@_register("Relu")
def _relu(record, grads, needed):
    return [grads[0] * (record.outputs[0]._value > 0)]


def _reduced_back(g, x, attrs):
    """A reduction's gradient broadcast back over the reduced axes of ``x``."""
    shape = np.shape(x)
    axis = attrs.get("axis")
    if not attrs.get("keep_dims", False):
        axes = range(len(shape)) if axis is None else [a % len(shape) for a in axis]
        kept = list(shape)
        for a in axes:
            kept[a] = 1
        g = np.reshape(g, kept)
    return np.array(np.broadcast_to(g, shape))


@_register("Sum")
def _sum(record, grads, needed):
    x = record.inputs[0]._value
    return [_reduced_back(grads[0], x, record.attrs)]


@_register("Mean")
def _mean(record, grads, needed):
    x, y = record.inputs[0]._value, record.outputs[0]._value
    count = max(np.size(x), 1) // max(np.size(y), 1)
    return [_reduced_back(grads[0], x, record.attrs) / count]
