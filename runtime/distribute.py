"""``tf.distribute``: the default (single-device) strategy, and nothing that needs several.

Code written for distribution strategies runs unchanged on one device with
TensorFlow's default strategy: ``get_strategy()`` outside any ``scope()``,
whose ``run(fn, args)`` just calls ``fn``, ``num_replicas_in_sync`` is 1 and
``reduce`` of a (per-replica = plain) value is the value itself (or its
reduction along ``axis``). ``OneDeviceStrategy`` is the same on a named
device, and so are ``MirroredStrategy`` and its kin on their default (this
machine's one) device, as in TensorFlow on a one-CPU machine. Strategies over
several devices or workers (``MirroredStrategy(["/cpu:0", "/cpu:1"])``,
``TPUStrategy``...) raise NotImplementedError when created: this runtime
runs every op on the one CPU.
"""
from __future__ import annotations

import enum
import threading
import types

__all__ = ["CentralStorageStrategy", "InputContext", "InputOptions", "MirroredStrategy",
           "MultiWorkerMirroredStrategy", "OneDeviceStrategy", "ParameterServerStrategy",
           "ReduceOp", "ReplicaContext", "Strategy", "StrategyExtended", "TPUStrategy",
           "experimental", "get_replica_context", "get_strategy", "has_strategy", "in_cross_replica_context"]


class ReduceOp(enum.Enum):
    """How values of several replicas combine (``tf.distribute.ReduceOp.SUM``)."""

    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation) -> "ReduceOp":
        name = getattr(aggregation, "name", str(aggregation)).upper()
        if name in ("SUM", "MEAN"):
            return ReduceOp(name)
        raise ValueError(f"Could not convert from `tf.VariableAggregation` {aggregation} to "
                         "`tf.distribute.ReduceOp` type")


class _Local(threading.local):
    def __init__(self):
        self.stack: list[Strategy] = []  # strategies whose scope() is entered
        self.replica: list[Strategy] = []  # strategies running a replica function (run)


_local = _Local()


class InputContext:
    """What ``distribute_datasets_from_function`` tells the input function (one pipeline)."""

    def __init__(self, num_input_pipelines: int = 1, input_pipeline_id: int = 0,
                 num_replicas_in_sync: int = 1):
        self.num_input_pipelines = num_input_pipelines
        self.input_pipeline_id = input_pipeline_id
        self.num_replicas_in_sync = num_replicas_in_sync

    def get_per_replica_batch_size(self, global_batch_size: int) -> int:
        if global_batch_size % self.num_replicas_in_sync:
            raise ValueError(f"The `global_batch_size` {global_batch_size} is not divisible by "
                             f"`num_replicas_in_sync` {self.num_replicas_in_sync}")
        return global_batch_size // self.num_replicas_in_sync


class InputOptions:
    def __init__(self, experimental_fetch_to_device=None, experimental_replication_mode=None,
                 experimental_place_dataset_on_device=False,
                 experimental_per_replica_buffer_size=1):
        self.experimental_fetch_to_device = experimental_fetch_to_device
        self.experimental_replication_mode = experimental_replication_mode
        self.experimental_place_dataset_on_device = experimental_place_dataset_on_device
        self.experimental_per_replica_buffer_size = experimental_per_replica_buffer_size


class _Scope:
    """``strategy.scope()``: makes ``strategy`` the current one inside the block."""

    __slots__ = ("_strategy",)

    def __init__(self, strategy):
        self._strategy = strategy

    def __enter__(self):
        stack = _local.stack
        if stack and stack[-1] is not self._strategy and \
                not isinstance(stack[-1], _DefaultStrategy) and \
                not isinstance(self._strategy, _DefaultStrategy):
            raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: "
                               f"{self._strategy!r} is not {stack[-1]!r}")
        stack.append(self._strategy)
        return self._strategy

    def __exit__(self, *exc):
        _local.stack.pop()
        return False


class StrategyExtended:
    """``strategy.extended``: the few details single-device code reads."""

    def __init__(self, strategy, device: str):
        self._strategy = strategy
        self._device = device

    @property
    def parameter_devices(self) -> tuple:
        return (self._device,)

    @property
    def worker_devices(self) -> tuple:
        return (self._device,)

    @property
    def experimental_require_static_shapes(self) -> bool:
        return False

    @property
    def should_checkpoint(self) -> bool:
        return True

    def variable_created_in_scope(self, v) -> bool:
        return True

    def colocate_vars_with(self, colocate_with_variable):
        import contextlib
        return contextlib.nullcontext()


class Strategy:
    """A distribution strategy on one device: every method is the single-replica case."""

    def __init__(self, device: str = "/device:CPU:0"):
        self._device = device
        self._extended = StrategyExtended(self, device)

    @property
    def extended(self) -> StrategyExtended:
        return self._extended

    @property
    def num_replicas_in_sync(self) -> int:
        return 1

    @property
    def cluster_resolver(self):
        return None

    def scope(self) -> _Scope:
        return _Scope(self)

    def run(self, fn, args=(), kwargs=None, options=None):
        """Calls ``fn(*args, **kwargs)`` on the one replica and returns its result."""
        _local.replica.append(self)
        try:
            return fn(*args, **(kwargs or {}))
        finally:
            _local.replica.pop()

    def reduce(self, reduce_op, value, axis=None):
        """Combines the replicas' values (one here); with ``axis``, reduces along it too."""
        op = ReduceOp(reduce_op.upper()) if isinstance(reduce_op, str) else ReduceOp(reduce_op)
        if axis is None:
            return value
        from runtime.ops import math_ops
        if op is ReduceOp.SUM:
            return math_ops.reduce_sum(value, axis=axis)
        return math_ops.reduce_mean(value, axis=axis)

    def experimental_distribute_dataset(self, dataset, options=None):
        return dataset

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        return dataset_fn(InputContext())

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_local_results(self, value) -> tuple:
        return (value,)

    def gather(self, value, axis):
        return value

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} on {self._device}>"


class _DefaultStrategy(Strategy):
    """What ``get_strategy()`` gives outside any ``scope()``."""


class OneDeviceStrategy(Strategy):
    """``tf.distribute.OneDeviceStrategy(device)``: all work on the one ``device``."""

    def __init__(self, device):
        super().__init__(_canonical_device(device))


def _canonical_device(device: str, strategy: str = "OneDeviceStrategy") -> str:
    d = str(device).lstrip("/").lower()
    for prefix in ("job:localhost/replica:0/task:0/", "device:"):
        d = d[len(prefix):] if d.startswith(prefix) else d
    kind, _, index = d.partition(":")
    if kind != "cpu" or index not in ("", "0"):
        raise NotImplementedError(f"{strategy}({device!r}): this runtime has one "
                                  "device, /device:CPU:0")
    return "/job:localhost/replica:0/task:0/device:CPU:0"


def _unsupported(name: str) -> NotImplementedError:
    return NotImplementedError(
        f"tf.distribute.{name} is not supported on more than one device: this runtime runs "
        "every op on one CPU device and has no multi-device or multi-worker execution. Use "
        f"tf.distribute.{name}() without devices, tf.distribute.get_strategy() or "
        "tf.distribute.OneDeviceStrategy('/cpu:0'), which run the same code on one device.")


def _multi_device(name: str):
    def __init__(self, *args, **kwargs):
        raise _unsupported(name)
    return type(name, (Strategy,), {"__init__": __init__, "__doc__":
                                    f"``tf.distribute.{name}``: not supported (raises)."})


class MirroredStrategy(Strategy):
    """``tf.distribute.MirroredStrategy(devices=None)``: one replica per device, which on this
    one-device runtime is the single-replica strategy (as TensorFlow on a one-CPU machine).
    Naming more than one device raises."""

    def __init__(self, devices=None, cross_device_ops=None):
        devices = list(devices) if devices is not None else ["/device:CPU:0"]
        if len(devices) != 1:
            raise _unsupported(type(self).__name__)
        super().__init__(_canonical_device(devices[0], type(self).__name__))


class MultiWorkerMirroredStrategy(Strategy):
    """``tf.distribute.MultiWorkerMirroredStrategy()`` with no cluster: one worker, one
    replica. A cluster (``cluster_resolver``) raises."""

    def __init__(self, cluster_resolver=None, communication_options=None):
        if cluster_resolver is not None:
            raise _unsupported(type(self).__name__)
        super().__init__(_canonical_device("/device:CPU:0"))


class CentralStorageStrategy(MirroredStrategy):
    """``tf.distribute.experimental.CentralStorageStrategy``: variables and compute on the
    one device."""

    def __init__(self, compute_devices=None, parameter_device=None):
        super().__init__(compute_devices)
ParameterServerStrategy = _multi_device("ParameterServerStrategy")
TPUStrategy = _multi_device("TPUStrategy")

_DEFAULT = _DefaultStrategy()


class ReplicaContext:
    """``tf.distribute.get_replica_context()``: replica 0 of 1."""

    def __init__(self, strategy: Strategy):
        self._strategy = strategy

    @property
    def strategy(self) -> Strategy:
        return self._strategy

    @property
    def num_replicas_in_sync(self) -> int:
        return 1

    @property
    def replica_id_in_sync_group(self):
        from runtime.ops.core import constant
        return constant(0)

    def all_reduce(self, reduce_op, value, options=None):
        return value

    def merge_call(self, merge_fn, args=(), kwargs=None):
        return merge_fn(self._strategy, *args, **(kwargs or {}))


def get_strategy() -> Strategy:
    """The strategy whose ``scope()`` is entered, else the default single-device one."""
    return _local.stack[-1] if _local.stack else _DEFAULT


def has_strategy() -> bool:
    """Whether a (non-default) strategy's ``scope()`` is entered."""
    return bool(_local.stack) and not isinstance(_local.stack[-1], _DefaultStrategy)


def in_cross_replica_context() -> bool:
    """True inside a non-default ``scope()`` but outside ``run``, as in TensorFlow."""
    return has_strategy() and not _local.replica


def get_replica_context():
    """The replica context (None in a cross-replica context, as in TensorFlow)."""
    if in_cross_replica_context():
        return None
    return ReplicaContext(_local.replica[-1] if _local.replica else get_strategy())


# ``tf.distribute.experimental``: where TensorFlow keeps these strategies' older names.
experimental = types.SimpleNamespace(
    CentralStorageStrategy=CentralStorageStrategy,
    MultiWorkerMirroredStrategy=MultiWorkerMirroredStrategy,
    ParameterServerStrategy=ParameterServerStrategy, TPUStrategy=TPUStrategy)
