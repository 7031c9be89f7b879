"""Placeholder, Const, Identity and NoOp: the ops every graph has."""
from __future__ import annotations

from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.registry import register_op


def _placeholder_infer(inputs, attrs):
    return [TensorType(attrs["dtype"], attrs["shape"])]


def _const_infer(inputs, attrs):
    return [TensorType(attrs["dtype"], attrs["value"].shape)]


def _identity_infer(inputs, attrs):
    expect_arity("Identity", inputs, 1)
    return [TensorType(inputs[0].dtype, inputs[0].shape)]


def _identity(x):
    return x


def _no_op():
    return ()


register_op("Placeholder", _placeholder_infer)
register_op("Const", _const_infer)
register_op("Identity", _identity_infer, _identity)
register_op("NoOp", lambda inputs, attrs: [], _no_op)
