"""``tf.train.get_checkpoint_state``, ``checkpoints_iterator`` and ``CheckpointOptions``:
what evaluation loops use to find and wait for checkpoints a trainer writes."""
from __future__ import annotations

import time

from runtime.train.checkpoint_io import latest_checkpoint, read_state


class CheckpointState:
    """The ``checkpoint`` state file's content (TensorFlow's ``CheckpointState`` proto)."""

    def __init__(self, state: dict):
        self.model_checkpoint_path = state["latest"] or ""
        self.all_model_checkpoint_paths = list(state["all"])
        self.all_model_checkpoint_timestamps = list(state["timestamps"])
        self.last_preserved_timestamp = state["last_preserved"] or 0.0

    def __str__(self) -> str:
        lines = [f'model_checkpoint_path: "{self.model_checkpoint_path}"']
        lines += [f'all_model_checkpoint_paths: "{p}"' for p in self.all_model_checkpoint_paths]
        lines += [f"all_model_checkpoint_timestamps: {t!r}"
                  for t in self.all_model_checkpoint_timestamps]
        lines.append(f"last_preserved_timestamp: {self.last_preserved_timestamp!r}")
        return "\n".join(lines) + "\n"


def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The state of ``checkpoint_dir`` (paths made absolute), or None without a state file."""
    state = read_state(str(checkpoint_dir))
    return None if state is None else CheckpointState(state)


def _wait_for_new_checkpoint(checkpoint_dir, last, seconds_to_sleep, timeout):
    stop = None if timeout is None else time.time() + timeout
    while True:
        path = latest_checkpoint(checkpoint_dir)
        if path is not None and path != last:
            return path
        if stop is not None and time.time() + seconds_to_sleep > stop:
            return None
        time.sleep(seconds_to_sleep)


def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yields each new latest checkpoint of ``checkpoint_dir``, polling once a second; stops
    after ``timeout`` seconds without one unless ``timeout_fn()`` returns False."""
    last = None
    while True:
        path = _wait_for_new_checkpoint(checkpoint_dir, last, 1, timeout)
        if path is None:
            if timeout_fn is None or timeout_fn():
                return
            continue
        start, last = time.time(), path
        yield path
        remaining = start + min_interval_secs - time.time()
        if remaining > 0:
            time.sleep(remaining)


class CheckpointOptions:
    """Options of ``Checkpoint.write/read`` (single-host CPU: all of them change nothing)."""

    def __init__(self, experimental_io_device=None, experimental_enable_async_checkpoint=False,
                 experimental_write_callbacks=None, enable_async=False,
                 experimental_skip_slot_variables=False, experimental_sharding_callback=None):
        self.experimental_io_device = experimental_io_device
        self.experimental_enable_async_checkpoint = experimental_enable_async_checkpoint
        self.experimental_write_callbacks = experimental_write_callbacks
        self.enable_async = enable_async
        self.experimental_skip_slot_variables = experimental_skip_slot_variables
        self.experimental_sharding_callback = experimental_sharding_callback
