"""``tf.data.Options``: the option tree a dataset carries (``with_options`` / ``options()``).

Every option is accepted, type-checked and kept as TensorFlow keeps it (None: unset), and
options merge as TensorFlow merges them: a dataset's options are its inputs' merged with its
own, later values winning. None of them changes what a pipeline computes here (elements are
produced in order, on the calling thread), which is what TensorFlow's options allow.
"""
from __future__ import annotations

import enum


class AutoShardPolicy(enum.IntEnum):
    """``tf.data.experimental.AutoShardPolicy``."""
    OFF = -1
    AUTO = 0
    FILE = 1
    DATA = 2
    HINT = 3


class ExternalStatePolicy(enum.Enum):
    """``tf.data.experimental.ExternalStatePolicy``."""
    WARN = 0
    IGNORE = 1
    FAIL = 2


class AutotuneAlgorithm(enum.Enum):
    """``tf.data.experimental.AutotuneAlgorithm``."""
    DEFAULT = 0
    HILL_CLIMB = 1
    GRADIENT_DESCENT = 2
    MAX_PARALLELISM = 3
    STAGE_BASED = 4


class _OptionsBase:
    """Options with declared properties (``_OPTIONS``: name -> (type, default)); a group
    option (another ``_OptionsBase`` type) is created with its parent."""

    _OPTIONS: dict = {}
    _ALIASES: dict = {}

    def __init__(self):
        values = {}
        for name, (kind, default) in self._OPTIONS.items():
            values[name] = kind() if _is_group(kind) else default
        object.__setattr__(self, "_values", values)

    def __getattr__(self, name):
        name = self._ALIASES.get(name, name)
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute "
                                 f"'{name}'") from None

    def __setattr__(self, name, value):
        name = self._ALIASES.get(name, name)
        if name not in self._OPTIONS:
            raise AttributeError(f"Cannot set the property {name} on {type(self).__name__}.")
        kind = self._OPTIONS[name][0]
        if value is not None and not _is_group(kind) and not isinstance(value, kind):
            raise TypeError(f'Property "{name}" must be of type {kind}, got: {value!r} '
                            f"(type: {type(value)})")
        self._values[name] = value

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self._OPTIONS) | set(self._ALIASES))

    def __eq__(self, other):
        return type(self) is type(other) and self._values == other._values

    def __ne__(self, other):
        return not self == other

    __hash__ = None

    def _merged(self, other):
        """A copy of ``self`` with every option ``other`` sets (later wins)."""
        out = type(self)()
        for name, (kind, _) in self._OPTIONS.items():
            mine, theirs = self._values[name], other._values[name]
            out._values[name] = mine._merged(theirs) if _is_group(kind) else \
                (mine if theirs is None else theirs)
        return out


def _is_group(kind) -> bool:
    return isinstance(kind, type) and issubclass(kind, _OptionsBase)


class AutotuneOptions(_OptionsBase):
    _OPTIONS = {"autotune_algorithm": (AutotuneAlgorithm, None), "cpu_budget": (int, None),
                "enabled": (bool, None), "initial_parallelism": (int, None),
                "min_parallelism": (int, None), "ram_budget": (int, None)}


class OptimizationOptions(_OptionsBase):
    _OPTIONS = {name: (bool, None) for name in (
        "apply_default_optimizations", "filter_fusion", "filter_parallelization",
        "inject_prefetch", "map_and_batch_fusion", "map_and_filter_fusion", "map_fusion",
        "map_parallelization", "noop_elimination", "parallel_batch", "seq_interleave_prefetch",
        "shuffle_and_repeat_fusion")}


class DistributeOptions(_OptionsBase):
    _OPTIONS = {"auto_shard_policy": (AutoShardPolicy, AutoShardPolicy.AUTO),
                "num_devices": (int, None)}


class ThreadingOptions(_OptionsBase):
    _OPTIONS = {"max_intra_op_parallelism": (int, None), "private_threadpool_size": (int, None)}


class ServiceOptions(_OptionsBase):
    _OPTIONS = {"pinned": (bool, None)}


class Options(_OptionsBase):
    """``tf.data.Options``."""

    _OPTIONS = {"autotune": (AutotuneOptions, None), "dataset_name": (str, None),
                "deterministic": (bool, None),
                "experimental_distribute": (DistributeOptions, None),
                "experimental_external_state_policy": (ExternalStatePolicy, None),
                "experimental_optimization": (OptimizationOptions, None),
                "experimental_service": (ServiceOptions, None),
                "experimental_slack": (bool, None),
                "experimental_symbolic_checkpoint": (bool, None),
                "experimental_warm_start": (bool, None), "framework_type": (list, None),
                "threading": (ThreadingOptions, None)}
    _ALIASES = {"experimental_deterministic": "deterministic",
                "experimental_threading": "threading"}

    def merge(self, options):
        """These options with every option ``options`` sets."""
        return self._merged(options)
