"""``tf.keras.InputSpec``: what a layer accepts (dtype, rank bounds, shape, sizes of given
axes), and ``assert_input_compatibility``, which checks inputs against it with Keras 3's
messages. A layer sets ``self.input_spec`` (one spec, or one per input) and its call checks
the inputs first."""
from __future__ import annotations

from graph.dtypes import as_dtype
from runtime import nest


def _shape(x) -> tuple:
    shape = x.shape
    if hasattr(shape, "as_list"):
        return tuple(shape.as_list()) if shape.rank is not None else ()
    return tuple(shape)


class InputSpec:
    """The expected dtype, shape or rank (``ndim``, ``min_ndim``, ``max_ndim``) and fixed
    axis sizes (``axes={-1: 8}``) of one input."""

    def __init__(self, dtype=None, shape=None, ndim=None, max_ndim=None, min_ndim=None,
                 axes=None, allow_last_axis_squeeze=False, name=None, optional=False):
        self.dtype = as_dtype(dtype).name if dtype is not None else None
        if shape is not None:
            self.shape = tuple(None if d is None else int(d) for d in shape)
            self.ndim = len(shape)
        else:
            self.ndim, self.shape = ndim, None
        self.max_ndim, self.min_ndim, self.name = max_ndim, min_ndim, name
        self.optional, self.allow_last_axis_squeeze = optional, allow_last_axis_squeeze
        try:
            axes = axes or {}
            self.axes = {int(k): axes[k] for k in axes}
        except (ValueError, TypeError):
            raise TypeError(f"Argument `axes` must be a dict with integer keys. "
                            f"Received: axes={axes}") from None
        if self.axes and (self.ndim is not None or self.max_ndim is not None):
            max_dim = (self.ndim if self.ndim else self.max_ndim) - 1
            if max(self.axes) > max_dim:
                raise ValueError(f"Axis {max(self.axes)} is greater than the maximum allowed "
                                 f"value: {max_dim}")

    def __repr__(self):
        parts = [f"{k}={v}" for k, v in (("dtype", self.dtype), ("shape", self.shape),
                                         ("ndim", self.ndim), ("max_ndim", self.max_ndim),
                                         ("min_ndim", self.min_ndim), ("axes", self.axes)) if v]
        return f"InputSpec({', '.join(parts)})"

    def get_config(self):
        return {"dtype": self.dtype, "shape": self.shape, "ndim": self.ndim,
                "max_ndim": self.max_ndim, "min_ndim": self.min_ndim, "axes": self.axes,
                "optional": self.optional}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def assert_input_compatibility(input_spec, inputs, layer_name) -> None:
    """Raises ValueError (Keras 3's messages) when ``inputs`` do not fit ``input_spec``."""
    if not input_spec:
        return
    specs = nest.flatten(input_spec)
    if isinstance(inputs, dict):
        names = [spec.name for spec in specs]
        if all(names):
            for name in names:
                if name not in inputs:
                    raise ValueError(f'Missing data for input "{name}". You passed a data '
                                     f"dictionary with keys {list(inputs.keys())}. Expected "
                                     f"the following keys: {names}")
            inputs = [inputs[name] for name in names]
    inputs = nest.flatten(inputs)
    if len(inputs) != len(specs):
        raise ValueError(f'Layer "{layer_name}" expects {len(specs)} input(s), but it received '
                         f"{len(inputs)} input tensors. Inputs received: {inputs}")
    for index, (x, spec) in enumerate(zip(inputs, specs)):
        if spec is None or (x is None and spec.optional):
            continue
        if not hasattr(x, "shape"):
            raise ValueError(f"Inputs to a layer should be tensors. Got '{x}' (of type "
                             f"{type(x)}) as input for layer '{layer_name}'.")
        shape, prefix = _shape(x), (f"Input {index} with name '{spec.name}' of layer "
                                    f"'{layer_name}' is incompatible with the layer: ")
        ndim = len(shape)
        if spec.ndim is not None and not spec.allow_last_axis_squeeze and ndim != spec.ndim:
            raise ValueError(f"{prefix}expected ndim={spec.ndim}, found ndim={ndim}. Full "
                             f"shape received: {shape}")
        if spec.max_ndim is not None and ndim > spec.max_ndim:
            raise ValueError(f"{prefix}expected max_ndim={spec.max_ndim}, found ndim={ndim}")
        if spec.min_ndim is not None and ndim < spec.min_ndim:
            raise ValueError(f"{prefix}expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
                             f"Full shape received: {shape}")
        if spec.dtype is not None and as_dtype(x.dtype).name != spec.dtype:
            raise ValueError(f"{prefix}expected dtype={spec.dtype}, found "
                             f"dtype={as_dtype(x.dtype).name}")
        for axis, value in spec.axes.items():
            if value is not None and shape[axis] not in {value, None}:
                raise ValueError(f"{prefix}expected axis {axis} of input shape to have value "
                                 f"{value}, but received input with shape {shape}")
        if spec.shape is not None:
            spec_shape = spec.shape
            if spec.allow_last_axis_squeeze:
                shape = shape[:-1] if shape and shape[-1] == 1 else shape
                spec_shape = spec_shape[:-1] if spec_shape and spec_shape[-1] == 1 else \
                    spec_shape
            for expected, dim in zip(spec_shape, shape):
                if expected is not None and dim is not None and expected != dim:
                    raise ValueError(f"{prefix}expected shape={spec.shape}, found "
                                     f"shape={shape}")
