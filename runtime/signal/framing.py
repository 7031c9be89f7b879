"""``tf.signal.frame`` and ``tf.signal.overlap_and_add``: cutting a signal into
(overlapping) frames and summing frames back into a signal, as a gather and a segment sum
(so both have gradients)."""
from __future__ import annotations

from graph import dtypes
from runtime.ops import array_ops as A, math_ops as M
from runtime.ops.core import convert_to_tensor
from runtime.ops.special_ops import unsorted_segment_sum
from runtime.tensor import Tensor


def _static_int(value):
    return value if isinstance(value, int) else None


def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1,
          name=None) -> Tensor:
    """``[..., num_frames, frame_length, ...]``: frames of ``frame_length`` samples every
    ``frame_step`` along ``axis`` (the last frames zero-padded with ``pad_end``)."""
    signal = convert_to_tensor(signal, name="signal")
    rank = signal.shape.rank
    if rank is None or rank < 1:
        raise ValueError(f"frame needs a signal of known rank >= 1, got {signal.shape}")
    axis = axis % rank
    length = signal.shape[axis]
    length = A.shape(signal)[axis] if length is None else length
    if pad_end:  # ceil(length / step) frames; pad so that the last one is complete
        frames = M.floordiv(M.add(length, frame_step - 1), frame_step) if \
            not isinstance(length, int) else -(-length // frame_step)
        needed = M.add(M.multiply(M.subtract(frames, 1), frame_step), frame_length)
        pad = M.maximum(M.subtract(needed, length), 0)
        paddings = A.stack([A.stack([0, pad if i == axis else 0]) for i in range(rank)]) \
            if not isinstance(length, int) else \
            [[0, max((frames - 1) * frame_step + frame_length - length, 0) if i == axis else 0]
             for i in range(rank)]
        signal = A.pad(signal, paddings, constant_values=pad_value)
    else:
        frames = M.add(M.floordiv(M.subtract(length, frame_length), frame_step), 1) if \
            not isinstance(length, int) else max(1 + (length - frame_length) // frame_step, 0)
        if not isinstance(frames, int):
            frames = M.maximum(frames, 0)
    starts = M.multiply(A.range_(frames), frame_step) if not isinstance(frames, int) else \
        convert_to_tensor([i * frame_step for i in range(frames)], dtype=dtypes.int32)
    indices = M.add(A.expand_dims(starts, 1), A.expand_dims(A.range_(frame_length), 0))
    return A.gather(signal, indices, axis=axis)


def overlap_and_add(signal, frame_step, name=None) -> Tensor:
    """Sums ``[..., frames, frame_length]`` frames placed ``frame_step`` apart:
    ``[..., (frames - 1) * frame_step + frame_length]``."""
    signal = convert_to_tensor(signal, name="signal")
    rank = signal.shape.rank
    if rank is None or rank < 2:
        raise ValueError(f"overlap_and_add needs a signal of rank >= 2, got {signal.shape}")
    if not isinstance(frame_step, int) or frame_step <= 0:
        raise ValueError(f"frame_step must be a positive integer, got {frame_step}")
    frames = signal.shape[-2] if signal.shape[-2] is not None else A.shape(signal)[-2]
    frame_length = signal.shape[-1] if signal.shape[-1] is not None else A.shape(signal)[-1]
    output_size = M.add(M.multiply(M.subtract(frames, 1), frame_step), frame_length)
    # Frames first, then a segment sum of every sample into its output position.
    perm = [rank - 2, rank - 1] + list(range(rank - 2))
    flat = A.reshape(A.transpose(signal, perm),
                     A.concat([[-1], A.shape(signal)[:-2]], axis=0))
    positions = M.add(A.expand_dims(M.multiply(A.range_(frames), frame_step), 1),
                      A.expand_dims(A.range_(frame_length), 0))
    summed = unsorted_segment_sum(flat, A.reshape(positions, [-1]), output_size)
    return A.transpose(summed, list(range(1, rank - 1)) + [0])
