"""Ops that only gradients need: StopGradient, StridedSliceGrad, UnsortedSegmentSum.

They live in the graph layer (not in runtime/gradients) so that a saved
graph holding a gradient still loads in a process that never imported the
runtime. Names follow TensorFlow; ``StridedSliceGrad`` takes our
``StridedSlice`` spec attr instead of TensorFlow's begin/end/strides masks.
"""
from __future__ import annotations

import numpy as np

from graph.ir import TensorType
from graph.ops.array import _check_int_input, _error, _ints, _shape_value
from graph.ops.indexing import numpy_key, slice_spec_items
from graph.registry import register_op
from graph.shapes import TensorShape


def _stop_gradient_infer(inputs, attrs):
    if len(inputs) != 1:
        raise _error(f"StopGradient takes 1 input, got {len(inputs)}")
    return [TensorType(inputs[0].dtype, inputs[0].shape)]


# -- StridedSliceGrad: scatter dy back into zeros of the sliced input's shape ------------

def _shape_from(op: str, shape_in) -> TensorShape:
    _check_int_input(op, shape_in, "shape", rank=1)
    dims = _shape_value(shape_in)
    if dims is not None:
        return TensorShape(dims)
    n = shape_in.shape.as_tuple()[0] if shape_in.shape.rank == 1 else None
    return TensorShape(None if n is None else [None] * n)


def _strided_slice_grad_infer(inputs, attrs):
    if len(inputs) < 2:
        raise _error("StridedSliceGrad takes the input's shape, dy and the slice bounds")
    slice_spec_items(attrs["spec"])
    return [TensorType(inputs[1].dtype, _shape_from("StridedSliceGrad", inputs[0]))]


def _strided_slice_grad(shape, dy, *bounds, spec):
    dy = np.asarray(dy)
    out = np.zeros(tuple(int(d) for d in np.asarray(shape)), dtype=dy.dtype)
    key = numpy_key(spec, bounds, out.shape)
    out[key] = dy.reshape(out[key].shape)
    return out


# -- UnsortedSegmentSum: rows of data added into num_segments rows -----------------------

def _segment_sum_infer(inputs, attrs):
    if len(inputs) != 3:
        raise _error(f"UnsortedSegmentSum takes 3 inputs, got {len(inputs)}")
    data, ids, num = inputs
    _check_int_input("UnsortedSegmentSum", ids, "segment_ids")
    _check_int_input("UnsortedSegmentSum", num, "num_segments", rank=0)
    n = _ints(num)
    count = n[0] if n else None
    if data.shape.rank is None or ids.shape.rank is None:
        return [TensorType(data.dtype, TensorShape(None))]
    tail = data.shape.as_tuple()[ids.shape.rank:]
    return [TensorType(data.dtype, TensorShape([count, *tail]))]


def _segment_sum(data, segment_ids, num_segments):
    data, ids = np.asarray(data), np.asarray(segment_ids)
    n = int(num_segments)
    if np.any((ids < 0) | (ids >= n)):
        bad = int(ids[(ids < 0) | (ids >= n)][0])
        raise _error(f"UnsortedSegmentSum: segment id {bad} is not in [0, {n})")
    out = np.zeros((n,) + data.shape[ids.ndim:], dtype=data.dtype)
    np.add.at(out, ids.reshape(-1), data.reshape((-1,) + data.shape[ids.ndim:]))
    return out


register_op("StopGradient", _stop_gradient_infer, lambda x: x)
register_op("StridedSliceGrad", _strided_slice_grad_infer, _strided_slice_grad,
            kernel_attrs=("spec",))
register_op("UnsortedSegmentSum", _segment_sum_infer, _segment_sum)
