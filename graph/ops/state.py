"""Variable reads and assignments: stateful ops keyed by a resource id.

A node names its variable by the ``resource`` attr (an int id into
``graph.resources``), never by a Python object, so a saved graph still
knows which state it touches. Every node also carries the variable's
``dtype`` and ``shape`` so that inference can check an assignment while the
graph is built, and the kernel checks it again against run-time shapes.

The assign ops have no outputs, as in TensorFlow; whoever wants the new
value records a ``ReadVariableOp`` after the assignment. The executor keeps
stateful ops in creation order, so reads and assigns run in program order.
"""
from __future__ import annotations

import numpy as np

from graph import resources
from graph.dtypes import bool_
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.registry import register_op
from graph.shapes import TensorShape


def _read_infer(inputs, attrs):
    expect_arity("ReadVariableOp", inputs, 0)
    return [TensorType(attrs["dtype"], attrs["shape"])]


def _read(resource):
    # A copy: a caller mutating the array it got back must not change the variable.
    return np.array(resources.read(resource), copy=True)


def check_assign(op: str, value_dtype, value_shape: TensorShape, attrs) -> None:
    """Raises when a value of this dtype/shape cannot be assigned to the variable."""
    dtype, shape = attrs["dtype"], attrs["shape"]
    if value_dtype != dtype:
        raise InvalidArgumentError(
            message=f"{op}: cannot assign a {value_dtype.name} value to a variable of dtype "
                    f"{dtype.name} (resource {attrs['resource']}). Convert it with "
                    f"tf.cast(value, tf.{dtype.name}).")
    if not TensorShape(shape).is_compatible_with(value_shape):
        raise InvalidArgumentError(
            message=f"{op}: cannot assign a value of shape {value_shape} to a variable of shape "
                    f"{shape} (resource {attrs['resource']}): the shapes are incompatible. "
                    "Create the variable with shape=tf.TensorShape(None) to allow any shape.")


def _assign_infer_for(op: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        check_assign(op, inputs[0].dtype, inputs[0].shape, attrs)
        if op != "AssignVariableOp" and not attrs["dtype"].is_numeric:
            raise InvalidArgumentError(
                message=f"{op} needs a numeric variable, got dtype {attrs['dtype'].name}")
        return []
    return infer


def _checked(op: str, value, resource, dtype, shape) -> np.ndarray:
    value = np.asarray(value)
    attrs = {"dtype": dtype, "shape": shape, "resource": resource}
    check_assign(op, dtype, TensorShape(value.shape), attrs)  # run-time shape
    if value.dtype != dtype.numpy_dtype:
        raise InvalidArgumentError(
            message=f"{op}: value of numpy dtype {value.dtype} for a {dtype.name} variable")
    return value


def _assign(value, resource, dtype, shape):
    resources.write(resource, _checked("AssignVariableOp", value, resource, dtype, shape).copy())
    return ()


def _update(op: str, ufunc):
    def kernel(value, resource, dtype, shape):
        value = _checked(op, value, resource, dtype, shape)
        old = np.asarray(resources.read(resource))
        if old.shape != value.shape:
            raise InvalidArgumentError(
                message=f"{op}: the variable holds shape {list(old.shape)} but the update has "
                        f"shape {list(value.shape)}")
        # A new array: earlier reads of the variable keep the value they saw.
        resources.write(resource, np.asarray(ufunc(old, value), dtype=dtype.numpy_dtype))
        return ()
    return kernel


_ATTRS = ("resource", "dtype", "shape")

register_op("ReadVariableOp", _read_infer, _read, kernel_attrs=("resource",),
            stateful=True)


def _is_initialized_infer(inputs, attrs):
    expect_arity("VarIsInitializedOp", inputs, 0)
    return [TensorType(bool_, TensorShape([]))]


def _is_initialized(resource):
    """Whether the variable holds a value: one whose initial value is computed by the
    function that created it has none until that function first runs."""
    return np.bool_(resources.exists(resource))


register_op("VarIsInitializedOp", _is_initialized_infer, _is_initialized,
            kernel_attrs=("resource",), stateful=True)
register_op("AssignVariableOp", _assign_infer_for("AssignVariableOp"), _assign,
            kernel_attrs=_ATTRS, stateful=True)
register_op("AssignAddVariableOp", _assign_infer_for("AssignAddVariableOp"),
            _update("AssignAddVariableOp", np.add), kernel_attrs=_ATTRS, stateful=True)
register_op("AssignSubVariableOp", _assign_infer_for("AssignSubVariableOp"),
            _update("AssignSubVariableOp", np.subtract), kernel_attrs=_ATTRS, stateful=True)
