"""``tf.device`` and ``tf.DeviceSpec``: device scopes on a CPU-only runtime.

Every op runs on numpy in this process, i.e. on the one device
``/job:localhost/replica:0/task:0/device:CPU:0``. A device string is still
parsed as TensorFlow's ``DeviceSpec.from_string`` parses it (unknown
attributes and two device types are ValueErrors), and scopes nest by
merging, as TensorFlow's do. Placement follows TensorFlow's soft placement:
with it on (the default) a missing device such as ``/GPU:0`` or ``/CPU:5``
falls back to the CPU silently; with ``tf.config.set_soft_device_placement
(False)``, or for a job other than ``localhost`` (never soft), entering the
scope raises the InvalidArgumentError TensorFlow raises for the ops in it.
Like TensorFlow's eager ``tf.device``, the scope is not a decorator.
"""
from __future__ import annotations

import threading

from graph.errors import InvalidArgumentError

__all__ = ["device", "DeviceSpec"]

_VALID_TYPES = frozenset({"CPU", "GPU", "TPU"})
_HOST = "/job:localhost/replica:0/task:0/device:CPU:0"


class DeviceSpec:
    """``tf.DeviceSpec``: the (job, replica, task, device_type, device_index) of a device."""

    __slots__ = ("job", "replica", "task", "device_type", "device_index")

    def __init__(self, job=None, replica=None, task=None, device_type=None, device_index=None):
        self.job = None if job is None else str(job)
        self.replica = None if replica is None else int(replica)
        self.task = None if task is None else int(task)
        self.device_type = None if device_type is None else str(device_type)
        if self.device_type is not None and self.device_type.upper() in _VALID_TYPES:
            self.device_type = self.device_type.upper()
        self.device_index = None if device_index is None else int(device_index)

    @classmethod
    def from_string(cls, spec: str) -> "DeviceSpec":
        """Parses ``/job:j/replica:r/task:t/device:TYPE:i`` and its short forms (``gpu:0``)."""
        fields: dict = {}
        for part in spec.split("/"):
            y = part.split(":")
            if y == [""]:
                continue
            if len(y) == 2 and y[0] in ("job", "replica", "task"):
                fields[y[0]] = y[1]
            elif len(y) in (1, 2) and y[0].upper() in _VALID_TYPES or len(y) == 3 and y[0] == "device":
                if "device_type" in fields:
                    raise ValueError("Multiple device types are not allowed while parsing the "
                                     f"device spec: {spec}.")
                kind, index = (y[0].upper(), y[1:]) if y[0] != "device" else (y[1], y[2:])
                fields["device_type"] = kind
                if index and index[0] != "*":
                    fields["device_index"] = int(index[0])
            elif y[0] != "":
                raise ValueError(f"Unknown attribute '{y[0]}' is encountered while parsing the "
                                 f"device spec: '{spec}'.")
        return cls(**fields)

    def to_string(self) -> str:
        out = ""
        if self.job is not None:
            out += f"/job:{self.job}"
        if self.replica is not None:
            out += f"/replica:{self.replica}"
        if self.task is not None:
            out += f"/task:{self.task}"
        if self.device_type is not None:
            index = "*" if self.device_index is None else self.device_index
            out += f"/device:{self.device_type}:{index}"
        return out

    def make_merged_spec(self, dev: "DeviceSpec") -> "DeviceSpec":
        """This spec with the fields ``dev`` sets overriding it (an inner scope over an outer)."""
        return DeviceSpec(**{k: getattr(dev, k) if getattr(dev, k) is not None else getattr(self, k)
                             for k in self.__slots__})

    def replace(self, **kwargs) -> "DeviceSpec":
        fields = {k: getattr(self, k) for k in self.__slots__}
        fields.update(kwargs)
        return DeviceSpec(**fields)

    def __eq__(self, other) -> bool:
        return isinstance(other, DeviceSpec) and self.to_string() == other.to_string()

    def __hash__(self) -> int:
        return hash(self.to_string())

    def __repr__(self) -> str:
        return (f"<DeviceSpec(job={self.job}, replica={self.replica}, task={self.task}, "
                f"device_type={self.device_type}, device_index={self.device_index})>")


_scopes = threading.local()


def current_device() -> str:
    """The merged device string of the enclosing ``tf.device`` scopes ("" outside any)."""
    stack = getattr(_scopes, "stack", None)
    return stack[-1].to_string() if stack else ""


def _check_placeable(spec: DeviceSpec) -> None:
    from runtime import config  # config imports nothing from here; kept local to stay light
    if spec.job not in (None, "localhost") or spec.replica not in (None, 0) \
            or spec.task not in (None, 0):
        full = DeviceSpec("localhost", 0, 0, "CPU", 0).make_merged_spec(spec).to_string()
        raise InvalidArgumentError(message=f"{full} unknown device.")
    if spec.device_index is not None and spec.device_index < 0:
        full = DeviceSpec("localhost", 0, 0).make_merged_spec(spec).to_string()
        raise InvalidArgumentError(message=f"Malformed device specification '{full}'")
    on_host = spec.device_type in (None, "CPU") and spec.device_index in (None, 0)
    if not on_host and not config.get_soft_device_placement():
        full = DeviceSpec("localhost", 0, 0).make_merged_spec(spec).to_string()
        raise InvalidArgumentError(
            message=f"Could not satisfy device specification '{full}'. enable_soft_placement=0. "
                    f"Supported device types [CPU]. All available devices [{_HOST}].")


class _DeviceScope:
    """What ``tf.device(name)`` returns: a context manager pushing the merged spec."""

    __slots__ = ("_spec",)

    def __init__(self, spec: DeviceSpec | None):
        self._spec = spec

    def __enter__(self):
        stack = _scopes.__dict__.setdefault("stack", [])
        if self._spec is None:  # tf.device(None) / "": clears the enclosing placement
            merged = DeviceSpec()
        else:
            merged = stack[-1].make_merged_spec(self._spec) if stack else self._spec
            _check_placeable(merged)
        stack.append(merged)
        return self

    def __exit__(self, *exc) -> bool:
        _scopes.stack.pop()
        return False


def device(device_name) -> _DeviceScope:
    """``tf.device``: a scope placing the ops created in it (all run on the host CPU here)."""
    if callable(device_name):
        raise RuntimeError("tf.device does not support functions.")
    if device_name is None or device_name == "":
        return _DeviceScope(None)
    if isinstance(device_name, DeviceSpec):
        return _DeviceScope(device_name)
    if not isinstance(device_name, str):
        raise TypeError(f"tf.device expects a device string or DeviceSpec, got "
                        f"{type(device_name).__name__}: {device_name!r}")
    return _DeviceScope(DeviceSpec.from_string(device_name))
