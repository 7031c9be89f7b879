"""``tf.config``: process-wide switches that change how Functions run.

``run_functions_eagerly(True)`` makes every Function call its original
Python function instead of tracing and running a graph: the debugging
switch the guides describe. It is read on every Function call, so it takes
effect at once, for Functions created before and after it is set.
"""
from __future__ import annotations

import functools


class _Flags:
    __slots__ = ("run_eagerly",)

    def __init__(self):
        self.run_eagerly = False


FLAGS = _Flags()


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Runs every ``tf.function`` as plain Python (True) or as graphs again (False)."""
    FLAGS.run_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether ``run_functions_eagerly(True)`` is in force."""
    return FLAGS.run_eagerly


# TensorFlow 2.2's name for the same switch.
experimental_run_functions_eagerly = run_functions_eagerly


# -- devices -----------------------------------------------------------------------------
#
# This runtime runs every op on numpy in the host process: one CPU device and no
# accelerator, which is what TensorFlow reports on a CPU-only machine. The calls
# below answer as TensorFlow does there, so configuration code written for GPUs
# (``for gpu in tf.config.list_physical_devices('GPU'): ...``) runs unchanged.

import collections as _collections
import threading as _threading
from types import SimpleNamespace as _Namespace

PhysicalDevice = _collections.namedtuple("PhysicalDevice", ["name", "device_type"])
LogicalDevice = _collections.namedtuple("LogicalDevice", ["name", "device_type"])
LogicalDeviceConfiguration = _collections.namedtuple(
    "LogicalDeviceConfiguration", ["memory_limit", "experimental_priority",
                                   "experimental_device_ordinal"], defaults=(None, None, 0))

_CPU = PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")
_CPU_LOGICAL = LogicalDevice(name="/device:CPU:0", device_type="CPU")


class _DeviceState:
    def __init__(self):
        self.lock = _threading.Lock()
        self.visible = [_CPU]
        self.soft_placement = True
        self.device_policy = None
        self.deterministic = False
        self.intra_op_threads = 0
        self.inter_op_threads = 0
        self.jit = False
        self.optimizer_options: dict = {}
        self.cpu_logical: list | None = None  # set_logical_device_configuration of the CPU


_DEVICES = _DeviceState()


def _matches(device: PhysicalDevice | LogicalDevice, device_type) -> bool:
    return device_type is None or device_type == device.device_type  # 'cpu' matches none, as in TF


def list_physical_devices(device_type=None) -> list:
    """``[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]`` (or []), and
    the GPUs JAX sees (where ``jit_compile=True`` functions run)."""
    return [d for d in (_CPU, *_jax_gpus()) if _matches(d, device_type)]


@functools.lru_cache(maxsize=None)
def _jax_gpus() -> tuple:
    """GPUs JAX sees; () without JAX or without a GPU plugin for it (then JAX is not
    imported: the default path never imports it)."""
    import importlib.util
    if importlib.util.find_spec("jax") is None or importlib.util.find_spec("jax_plugins") is None:
        return ()
    import jax
    try:
        n = len(jax.devices("gpu"))
    except RuntimeError:
        return ()
    return tuple(PhysicalDevice(name=f"/physical_device:GPU:{i}", device_type="GPU")
                 for i in range(n))


def list_logical_devices(device_type=None) -> list:
    """``[LogicalDevice(name='/device:CPU:0', device_type='CPU')]`` (or []); one per logical
    CPU after ``set_logical_device_configuration`` split it."""
    if _CPU not in _DEVICES.visible or not _matches(_CPU_LOGICAL, device_type):
        return []
    n = len(_DEVICES.cpu_logical or [None])
    return [LogicalDevice(name=f"/device:CPU:{i}", device_type="CPU") for i in range(n)]


def get_visible_devices(device_type=None) -> list:
    return [d for d in _DEVICES.visible if _matches(d, device_type)]


def set_visible_devices(devices, device_type=None) -> None:
    """Accepts the CPU (the one device); hiding it is refused, as TensorFlow refuses it."""
    if isinstance(devices, PhysicalDevice):
        devices = [devices]
    devices = list(devices)
    for d in devices:
        if d not in (_CPU,):
            raise ValueError(f"Unrecognized device: {d!r}")
    if device_type is not None and str(device_type).upper() != "CPU":
        return  # no device of that type exists: nothing changes
    if _CPU not in devices:
        raise ValueError("Unable to hide the CPU device: TensorFlow needs one CPU device")
    _DEVICES.visible = [_CPU]


def _known_device(device) -> PhysicalDevice:
    if device not in (_CPU,):
        raise ValueError(f"Unrecognized device: {device!r}")
    return device


def set_memory_growth(device, enable: bool) -> None:
    """Memory growth is a GPU setting: for the CPU TensorFlow raises ValueError, as here."""
    _known_device(device)
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


def get_memory_growth(device):
    _known_device(device)
    raise ValueError("Cannot get memory growth on non-GPU and non-Pluggable devices")


def get_device_details(device) -> dict:
    """Details of a physical device: TensorFlow gives {} for a CPU."""
    _known_device(device)
    return {}


def get_memory_info(device: str) -> dict:
    raise ValueError(f"get_memory_info is not supported for device {device!r}: only GPU "
                     "devices report memory")


def reset_memory_stats(device: str) -> None:
    raise ValueError(f"reset_memory_stats is not supported for device {device!r}: only GPU "
                     "devices report memory")


def set_logical_device_configuration(device, logical_devices) -> None:
    """Splits the CPU into logical CPUs (``/device:CPU:0``, ``/device:CPU:1``...): a
    MirroredStrategy then has one replica per logical CPU (run one after the other here)."""
    _known_device(device)
    _DEVICES.cpu_logical = None if logical_devices is None else list(logical_devices)


def get_logical_device_configuration(device):
    _known_device(device)
    return None if _DEVICES.cpu_logical is None else list(_DEVICES.cpu_logical)


def enable_op_determinism() -> None:
    """Ops are deterministic here already (numpy kernels, seeded random ops): recorded only."""
    _DEVICES.deterministic = True


def disable_op_determinism() -> None:
    _DEVICES.deterministic = False


def is_op_determinism_enabled() -> bool:
    return _DEVICES.deterministic


def set_soft_device_placement(enabled: bool) -> None:
    _DEVICES.soft_placement = bool(enabled)


def get_soft_device_placement() -> bool:
    return _DEVICES.soft_placement


def set_device_policy(device_policy) -> None:
    if device_policy not in (None, "silent", "silent_for_int32", "warn", "explicit"):
        raise ValueError(f"Not a valid device policy: {device_policy!r}")
    _DEVICES.device_policy = device_policy


def get_device_policy():
    return _DEVICES.device_policy or "silent"


def _set_threads(attr: str, num_threads: int) -> None:
    setattr(_DEVICES, attr, int(num_threads))


threading = _Namespace(
    get_intra_op_parallelism_threads=lambda: _DEVICES.intra_op_threads,
    set_intra_op_parallelism_threads=lambda n: _set_threads("intra_op_threads", n),
    get_inter_op_parallelism_threads=lambda: _DEVICES.inter_op_threads,
    set_inter_op_parallelism_threads=lambda n: _set_threads("inter_op_threads", n),
)


def _set_jit(enabled) -> None:
    _DEVICES.jit = enabled


def _set_optimizer_experimental_options(options: dict) -> None:
    _DEVICES.optimizer_options.update(options)


optimizer = _Namespace(
    get_jit=lambda: _DEVICES.jit,
    set_jit=_set_jit,
    get_experimental_options=lambda: dict(_DEVICES.optimizer_options),
    set_experimental_options=_set_optimizer_experimental_options,
)

experimental = _Namespace(
    list_physical_devices=list_physical_devices,
    list_logical_devices=list_logical_devices,
    get_visible_devices=get_visible_devices,
    set_visible_devices=set_visible_devices,
    set_memory_growth=set_memory_growth,
    get_memory_growth=get_memory_growth,
    get_device_details=get_device_details,
    get_memory_info=get_memory_info,
    reset_memory_stats=reset_memory_stats,
    set_virtual_device_configuration=set_logical_device_configuration,
    get_virtual_device_configuration=get_logical_device_configuration,
    VirtualDeviceConfiguration=LogicalDeviceConfiguration,
    enable_op_determinism=enable_op_determinism,
    disable_op_determinism=disable_op_determinism,
    set_device_policy=set_device_policy,
    get_device_policy=get_device_policy,
)
