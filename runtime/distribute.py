"""``tf.distribute``: the default (single-device) strategy, and replicas on logical CPUs.

Code written for distribution strategies runs unchanged on one device with
TensorFlow's default strategy: ``get_strategy()`` outside any ``scope()``,
whose ``run(fn, args)`` just calls ``fn``, ``num_replicas_in_sync`` is 1 and
``reduce`` of a (per-replica = plain) value is the value itself (or its
reduction along ``axis``). ``OneDeviceStrategy`` is the same on a named
device, and so is ``MirroredStrategy`` on this machine's one CPU.

When ``tf.config.set_logical_device_configuration`` splits the CPU into N
logical CPUs, ``MirroredStrategy()`` has N replicas, as in TensorFlow:
``run`` calls the function once per replica (one after the other) and gives
``PerReplica`` values, ``reduce`` combines them, and a distributed dataset
splits each batch between the replicas (TensorFlow's rebatching). What needs
replicas to talk while they run (``all_reduce``, ``merge_call``, optimizer
updates) is refused with N > 1. Multi-worker and TPU strategies raise.
"""
from __future__ import annotations

import enum
import threading
import types

from runtime import context, nest
from runtime.ops.core import convert_to_tensor
from runtime.tensor import Tensor

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
        self.replica: list = []  # (strategy, replica id) of the replica functions running


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
        return self._strategy._devices

    @property
    def worker_devices(self) -> tuple:
        return self._strategy._devices

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
    """A distribution strategy: one replica per device of ``devices`` (one by default)."""

    def __init__(self, device: str = "/device:CPU:0", devices: tuple = ()):
        self._device = device
        self._devices = tuple(devices) or (device,)
        self._extended = StrategyExtended(self, device)

    @property
    def extended(self) -> StrategyExtended:
        return self._extended

    @property
    def num_replicas_in_sync(self) -> int:
        return len(self._devices)

    @property
    def cluster_resolver(self):
        return None

    def scope(self) -> _Scope:
        return _Scope(self)

    def run(self, fn, args=(), kwargs=None, options=None):
        """Calls ``fn(*args, **kwargs)`` once per replica, each with its part of the
        ``PerReplica`` arguments; one replica's result as it is, several as ``PerReplica``
        (a Python value every replica returned equal is returned once, as in TensorFlow)."""
        kwargs = kwargs or {}
        n = self.num_replicas_in_sync
        results = []
        for i in range(n):
            _local.replica.append((self, i))
            try:
                results.append(fn(*_replica_part(args, i), **_replica_part(kwargs, i)))
            finally:
                _local.replica.pop()
        if n == 1:
            return results[0]
        return nest.map_structure(lambda *values: _regroup(values), *results)

    def reduce(self, reduce_op, value, axis=None):
        """Combines the replicas' values; with ``axis``, reduces along it too (MEAN over
        every element of every replica)."""
        from runtime.ops import array_ops, math_ops
        op = ReduceOp(reduce_op.upper()) if isinstance(reduce_op, str) else ReduceOp(reduce_op)
        if not isinstance(value, PerReplica):
            if self.num_replicas_in_sync > 1 and op is ReduceOp.SUM:
                raise ValueError(f"A non-DistributedValues value {convert_to_tensor(value)!s} "
                                 f"cannot be reduced with the given reduce op {op}.")
            value = PerReplica((value,))
        parts = [convert_to_tensor(v) for v in value.values]
        if axis is None:
            total = parts[0] if len(parts) == 1 else math_ops.add_n(parts)
            return total if op is ReduceOp.SUM else math_ops.truediv(total, len(parts)) \
                if total.dtype.is_floating else math_ops.floordiv(total, len(parts))
        sums = [math_ops.reduce_sum(v, axis=axis) for v in parts]
        total = sums[0] if len(sums) == 1 else math_ops.add_n(sums)
        if op is ReduceOp.SUM:
            return total
        counts = [math_ops.reduce_prod(array_ops.gather(array_ops.shape(v), axis))
                  for v in parts]
        count = counts[0] if len(counts) == 1 else math_ops.add_n(counts)
        return math_ops.divide(total, math_ops.cast(count, total.dtype))

    def experimental_distribute_dataset(self, dataset, options=None):
        """The dataset itself with one replica; else each batch split between the replicas."""
        if self.num_replicas_in_sync == 1:
            return dataset
        return DistributedDataset(dataset, self.num_replicas_in_sync, split=True)

    def distribute_datasets_from_function(self, dataset_fn, options=None):
        """``dataset_fn``'s dataset (one input pipeline); with several replicas each takes
        the next element in turn."""
        n = self.num_replicas_in_sync
        dataset = dataset_fn(InputContext(num_replicas_in_sync=n))
        return dataset if n == 1 else DistributedDataset(dataset, n, split=False)

    experimental_distribute_datasets_from_function = distribute_datasets_from_function

    def experimental_local_results(self, value) -> tuple:
        return value.values if isinstance(value, PerReplica) else (value,)

    def gather(self, value, axis):
        """The replicas' values concatenated along ``axis``."""
        if not isinstance(value, PerReplica):
            return value
        from runtime.ops import array_ops
        return array_ops.concat([convert_to_tensor(v) for v in value.values], axis)

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


def _logical_cpu(device: str, logical: list):
    """``device``'s full name if it is one of the ``logical`` CPUs, else None."""
    d = str(device).lstrip("/").lower()
    for prefix in ("job:localhost/replica:0/task:0/", "device:"):
        d = d[len(prefix):] if d.startswith(prefix) else d
    kind, _, index = d.partition(":")
    name = f"/device:CPU:{index or 0}"
    if kind != "cpu" or name not in logical:
        return None
    return f"/job:localhost/replica:0/task:0/device:CPU:{index or 0}"


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
    """``tf.distribute.MirroredStrategy(devices=None)``: one replica per device (every logical
    CPU by default: one, unless ``tf.config.set_logical_device_configuration`` split it)."""

    def __init__(self, devices=None, cross_device_ops=None):
        from runtime import config
        logical = [d.name for d in config.list_logical_devices("CPU")]
        devices = list(devices) if devices is not None else logical
        names = []
        for d in devices:
            name = _logical_cpu(d, logical)
            if name is None:
                raise _unsupported(type(self).__name__)
            names.append(name)
        super().__init__(names[0], tuple(names))


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
    """``tf.distribute.get_replica_context()``: replica ``replica_id`` of the strategy's."""

    def __init__(self, strategy: Strategy, replica_id: int = 0):
        self._strategy = strategy
        self._replica_id = replica_id

    @property
    def strategy(self) -> Strategy:
        return self._strategy

    @property
    def num_replicas_in_sync(self) -> int:
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        from runtime.ops.core import constant
        return constant(self._replica_id)

    def all_reduce(self, reduce_op, value, options=None):
        self._single("all_reduce")
        return value

    def merge_call(self, merge_fn, args=(), kwargs=None):
        self._single("merge_call")
        return merge_fn(self._strategy, *args, **(kwargs or {}))

    def _single(self, what: str) -> None:
        if self._strategy.num_replicas_in_sync > 1:
            raise NotImplementedError(
                f"ReplicaContext.{what} with {self._strategy.num_replicas_in_sync} replicas: "
                "replicas run one after the other here, so they cannot exchange values while "
                "they run. Return the values from strategy.run and combine them with "
                "strategy.reduce instead.")


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
    if _local.replica:
        return ReplicaContext(*_local.replica[-1])
    return ReplicaContext(get_strategy())


def check_single_replica_write(variable_name: str) -> None:
    """Refuses a variable update inside ``strategy.run`` with several replicas: they run one
    after the other here, so each would apply it again (TensorFlow aggregates them)."""
    if _local.replica and _local.replica[-1][0].num_replicas_in_sync > 1:
        raise NotImplementedError(
            f"Updating {variable_name} inside strategy.run with "
            f"{_local.replica[-1][0].num_replicas_in_sync} replicas is not supported: replicas "
            "run one after the other here and would each apply the update. Return the values "
            "from strategy.run, combine them with strategy.reduce, and update the variable "
            "outside run.")


# -- values of several replicas ---------------------------------------------------------------

class PerReplica:
    """One value per replica (``strategy.run``'s results, a distributed dataset's elements)."""

    def __init__(self, values):
        self.values = tuple(values)

    @property
    def _values(self) -> tuple:
        return self.values

    def _text(self, show) -> str:
        lines = "".join(f"  {i}: {show(v)}{',' if i + 1 < len(self.values) else ''}\n"
                        for i, v in enumerate(self.values))
        return f"PerReplica:{{\n{lines}}}"

    def __repr__(self) -> str:
        return self._text(repr)

    def __str__(self) -> str:
        return self._text(str)


def _replica_part(structure, i: int):
    """``structure`` with each PerReplica replaced by replica ``i``'s value."""
    return nest.map_structure(lambda v: v.values[i] if isinstance(v, PerReplica) else v,
                              structure)


def _regroup(values: tuple):
    """The replicas' values of one output: a Python value they all share once, else
    PerReplica."""
    first = values[0]
    if not isinstance(first, Tensor) and all(v is first or v == first for v in values[1:]):
        return first
    return PerReplica(values)


def _split_batch(element, n: int) -> PerReplica:
    """A batch split between ``n`` replicas as TensorFlow rebatches it: each takes up to
    ``ceil(batch / n)`` rows in order (the last ones may get fewer, or none)."""
    from runtime.ops import array_ops, math_ops

    def part(t, i):
        t = convert_to_tensor(t)
        size = array_ops.shape(t)[0]
        chunk = math_ops.floordiv(math_ops.add(size, n - 1), n)
        start = math_ops.minimum(math_ops.multiply(chunk, i), size)
        stop = math_ops.minimum(math_ops.add(start, chunk), size)
        return t[start:stop]
    parts = [nest.map_structure(lambda t: part(t, i), element) for i in range(n)]
    return PerReplica(parts) if not isinstance(element, (tuple, list, dict)) else \
        nest.map_structure(lambda *vs: PerReplica(vs), *parts)


class DistributedDataset:
    """A dataset whose elements are PerReplica values: each batch split between the
    replicas (``experimental_distribute_dataset``), or ``n`` consecutive elements, one per
    replica (``distribute_datasets_from_function``)."""

    def __init__(self, dataset, n: int, split: bool):
        self._dataset, self._n, self._split = dataset, n, split

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __iter__(self) -> "DistributedIterator":
        return DistributedIterator(iter(self._dataset), self._n, self._split)

    def _autograph_for_stmt(self, extra_test, body, get_state, set_state, symbol_names, opts):
        iterator = self._dataset if self._split else iter(self._dataset)
        return _staged_for(iterator, self._n, self._split, extra_test, body, get_state,
                           set_state, symbol_names, opts)


class DistributedIterator:
    """``iter(distributed_dataset)``: ``next()`` gives the next PerReplica element."""

    def __init__(self, iterator, n: int, split: bool):
        self._iterator, self._n, self._split = iterator, n, split

    def __iter__(self) -> "DistributedIterator":
        return self

    def __next__(self):
        return self.get_next()

    def get_next(self):
        if self._split:
            return _split_batch(next(self._iterator), self._n)
        if not context.executing_eagerly():
            raise NotImplementedError(
                "Iterating a dataset of distribute_datasets_from_function with several replicas "
                "inside a tf.function is not supported: use experimental_distribute_dataset.")
        parts = [next(self._iterator)]
        for _ in range(self._n - 1):
            parts.append(next(self._iterator, None))
        parts = [p if p is not None else nest.map_structure(lambda t: t[:0], parts[0])
                 for p in parts]
        if isinstance(parts[0], (tuple, list, dict)):
            return nest.map_structure(lambda *vs: PerReplica(vs), *parts)
        return PerReplica(parts)

    def _autograph_for_stmt(self, extra_test, body, get_state, set_state, symbol_names, opts):
        return _staged_for(self._iterator, self._n, self._split, extra_test, body, get_state,
                           set_state, symbol_names, opts)


def _staged_for(iterable, n: int, split: bool, extra_test, body, get_state, set_state,
                symbol_names, opts):
    """A ``for`` over a distributed dataset: the underlying dataset's loop, each element split
    between the replicas before the body sees it."""
    if not split:
        if context.executing_eagerly():
            for element in DistributedIterator(iter(iterable), n, False):
                if extra_test is not None and not extra_test():
                    break
                body(element)
            return None
        raise NotImplementedError(
            "Iterating a dataset of distribute_datasets_from_function with several replicas "
            "inside a tf.function is not supported: use experimental_distribute_dataset.")
    return iterable._autograph_for_stmt(extra_test, lambda element: body(_split_batch(element, n)),
                                        get_state, set_state, symbol_names, opts)


# ``tf.distribute.experimental``: where TensorFlow keeps these strategies' older names.
experimental = types.SimpleNamespace(
    CentralStorageStrategy=CentralStorageStrategy,
    MultiWorkerMirroredStrategy=MultiWorkerMirroredStrategy,
    ParameterServerStrategy=ParameterServerStrategy, TPUStrategy=TPUStrategy)
