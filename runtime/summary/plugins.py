"""The typed summaries (``scalar``, ``histogram``, ``text``, ``image``, ``audio``).

TensorBoard defines these on ``tf.summary.write``; each is the same composition of ops here
(so they stage in a function as they run eagerly), with the ``SummaryMetadata`` naming the
TensorBoard plugin that reads the tensor. Histogram, image and audio tensors are computed
only when the summary records (a callable passed to ``write``).
"""
from __future__ import annotations

from graph import dtypes
from graph.ops import records
from graph.ops.summary import _int_field
from runtime import debugging
from runtime.image.convert import convert_image_dtype
from runtime.ops import array_ops, math_ops
from runtime.ops.control_flow import cond
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.gradients.tape import stop_gradient
from runtime.ops.functional_ops import map_fn
from runtime.ops.string_ops import as_string
from runtime.summary.core import summary_scope, write
from runtime.tensor_spec import TensorSpec

DEFAULT_BUCKET_COUNT = 30
_WAV = 11  # AudioPluginData.Encoding.WAV


def _metadata(plugin: str, description, content: bytes = b"") -> bytes:
    """A serialized ``SummaryMetadata`` for ``plugin`` (its plugin data's version is 0)."""
    message = {"plugin_data": {"plugin_name": [plugin.encode()]}}
    if content:
        message["plugin_data"]["content"] = [content]
    if description:
        message["summary_description"] = [description.encode()]
    return records.encode(message, "tensorboard.SummaryMetadata")


def scalar(name, data, step=None, description=None):
    """``tf.summary.scalar``: a real scalar, written as float32."""
    metadata = _metadata("scalars", description)
    with summary_scope(name, "scalar_summary", values=[data, step]) as (tag, _):
        debugging.assert_scalar(data)
        return write(tag=tag, tensor=math_ops.cast(data, dtypes.float32), step=step,
                     metadata=metadata)


def text(name, data, step=None, description=None):
    """``tf.summary.text``: a string tensor of any shape."""
    metadata = _metadata("text", description)
    with summary_scope(name, "text_summary", values=[data, step]) as (tag, _):
        debugging.assert_type(data, dtypes.string)
        return write(tag=tag, tensor=data, step=step, metadata=metadata)


def histogram(name, data, step=None, buckets=None, description=None):
    """``tf.summary.histogram``: ``buckets`` (30) equal-width buckets over ``data``'s range, as
    a float64 ``[buckets, 3]`` tensor of (left edge, right edge, count)."""
    data = stop_gradient(data)
    metadata = _metadata("histograms", description)
    with summary_scope(name, "histogram_summary", values=[data, buckets, step]) as (tag, _):
        return write(tag=tag, tensor=lambda: _buckets(data, buckets), step=step,
                     metadata=metadata)


def _buckets(data, bucket_count=None):
    """TensorBoard's bucketing: values at ``floor((x - min) / width)``, the last bucket
    closed; all-equal data puts its count in the last of ``bucket_count`` zero-width buckets;
    no data (or no buckets) gives zeros."""
    if bucket_count is None:
        bucket_count = DEFAULT_BUCKET_COUNT
    bucket_count = convert_to_tensor(bucket_count)
    debugging.assert_scalar(bucket_count)
    debugging.assert_type(bucket_count, dtypes.int32)
    bucket_count = math_ops.maximum(0, bucket_count)
    data = math_ops.cast(array_ops.reshape(data, [-1]), dtypes.float64)
    data_size = array_ops.size(data)
    is_empty = math_ops.logical_or(math_ops.equal(data_size, 0),
                                   math_ops.less_equal(bucket_count, 0))

    def when_empty():
        return array_ops.zeros(array_ops.stack([bucket_count, 3]), dtype=dtypes.float64)

    def when_nonempty():
        min_, max_ = math_ops.reduce_min(data), math_ops.reduce_max(data)
        range_ = max_ - min_

        def when_multiple_values():
            bucket_width = range_ / math_ops.cast(bucket_count, dtypes.float64)
            indices = math_ops.cast(math_ops.floor((data - min_) / bucket_width), dtypes.int32)
            clamped = math_ops.minimum(indices, bucket_count - 1)
            counts = math_ops.reduce_sum(
                array_ops.one_hot(clamped, depth=bucket_count, dtype=dtypes.float64), axis=0)
            edges = array_ops.linspace(min_, max_, bucket_count + 1)
            edges = array_ops.concat([edges[:-1], array_ops.reshape(max_, [1])], 0)
            return array_ops.transpose(array_ops.stack([edges[:-1], edges[1:], counts]))

        def when_single_value():
            edges = array_ops.fill(array_ops.reshape(bucket_count, [1]), max_)
            zeroes = array_ops.fill(array_ops.reshape(bucket_count, [1]), 0)
            counts = math_ops.cast(array_ops.concat(
                [zeroes[:-1], array_ops.reshape(data_size, [1])], 0)[:bucket_count],
                dtypes.float64)
            return array_ops.transpose(array_ops.stack([edges, edges, counts]))

        return cond(math_ops.equal(range_, 0), when_single_value, when_multiple_values)

    return cond(is_empty, when_empty, when_nonempty)


def image(name, data, step=None, max_outputs=3, description=None):
    """``tf.summary.image``: the first ``max_outputs`` of a ``[k, height, width, channels]``
    batch (channels 1-4; floats in [0, 1] or integers) as PNGs, after ``[width, height]``."""
    metadata = _metadata("images", description)
    with summary_scope(name, "image_summary", values=[data, max_outputs, step]) as (tag, _):

        def encoded():
            debugging.assert_rank(data, 4)
            debugging.assert_non_negative(max_outputs)
            images = convert_image_dtype(data, dtypes.uint8, saturate=True)
            pngs = apply_op("EncodePng", [images[:max_outputs]], {"compression": -1},
                            name="EncodePng")
            shape = array_ops.shape(images)
            dimensions = array_ops.stack([as_string(shape[2], name="width"),
                                          as_string(shape[1], name="height")])
            return array_ops.concat([dimensions, pngs], 0)

        return write(tag=tag, tensor=encoded, step=step, metadata=metadata)


def audio(name, data, sample_rate, step=None, max_outputs=3, encoding=None, description=None):
    """``tf.summary.audio``: the first ``max_outputs`` clips of a ``[k, frames, channels]``
    float batch (values in [-1, 1]) as 16-bit WAV files, each beside an empty label."""
    if encoding is None:
        encoding = "wav"
    if encoding != "wav":
        raise ValueError(f"Unknown encoding: {encoding!r}")
    metadata = _metadata("audio", description, _int_field(2, _WAV))
    inputs = [data, sample_rate, max_outputs, step]
    with summary_scope(name, "audio_summary", values=inputs) as (tag, _):

        def encoded():
            debugging.assert_rank(data, 3)
            debugging.assert_non_negative(max_outputs)
            clips = convert_to_tensor(data)[:max_outputs]
            rate = convert_to_tensor(sample_rate, dtype=dtypes.int32)
            wavs = map_fn(lambda clip: apply_op("EncodeWav", [clip, rate], name="EncodeWav"),
                          clips, fn_output_signature=TensorSpec([], dtypes.string))
            labels = array_ops.fill(array_ops.shape(clips)[:1], "")
            return array_ops.transpose(array_ops.stack([wavs, labels]))

        return write(tag=tag, tensor=encoded, step=step, metadata=metadata)
