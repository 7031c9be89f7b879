"""``tf.train.CheckpointManager``: numbered checkpoints in a directory, the newest N kept.

The list of checkpoints lives in the directory's ``checkpoint`` state file
(TensorFlow's format), so a new manager on the same directory continues
where the last one stopped.
"""
from __future__ import annotations

import os
import time

import numpy as np

from runtime import context
from runtime.train import checkpoint_io


class CheckpointManager:
    """Saves ``checkpoint`` as ``directory/checkpoint_name-N`` and deletes old ones."""

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name: str = "ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None):
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, got "
                             f"{max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is "
                             "not None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_every = keep_checkpoint_every_n_hours
        self._prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._init_fn = init_fn
        self._last_checkpoint_step = None
        state = checkpoint_io.read_state(self._directory)
        self._latest = None
        self._kept: list[tuple[str, float]] = []
        self._last_preserved = time.time()
        if state is not None:
            self._latest = state["latest"]
            stamps = state["timestamps"] or [self._last_preserved] * len(state["all"])
            self._kept = [(p, t) for p, t in zip(state["all"], stamps)
                          if os.path.exists(p + checkpoint_io.INDEX_SUFFIX)]
            if state["last_preserved"] is not None:
                self._last_preserved = state["last_preserved"]

    @property
    def directory(self) -> str:
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    @property
    def latest_checkpoint(self):
        """The newest checkpoint's prefix, or None."""
        return self._latest

    @property
    def checkpoints(self) -> list[str]:
        """The prefixes kept, oldest first."""
        return [p for p, _ in self._kept]

    def restore_or_initialize(self):
        """Restores the latest checkpoint, else runs ``init_fn``; returns the path or None."""
        if self._latest is not None:
            self._checkpoint.restore(self._latest)
            if self._step_counter is not None and self._checkpoint_interval is not None:
                self._last_checkpoint_step = int(self._step_counter.numpy())
            return self._latest
        if self._init_fn is not None:
            self._init_fn()
        return None

    def save(self, checkpoint_number=None, check_interval: bool = True, options=None):
        """Saves a numbered checkpoint (None when ``checkpoint_interval`` says not yet)."""
        if self._checkpoint_interval is not None and check_interval:
            step = int(np.asarray(self._step_counter.numpy()))
            if (self._last_checkpoint_step is not None
                    and step < self._last_checkpoint_step + self._checkpoint_interval):
                return None
            self._last_checkpoint_step = step
        with context.init_scope():
            counter = self._checkpoint.save_counter.assign_add(np.int64(1))
        number = int(counter.numpy()) if checkpoint_number is None else int(
            np.asarray(getattr(checkpoint_number, "numpy", lambda: checkpoint_number)()))
        path = self._checkpoint.write(f"{self._prefix}-{number}")
        now = time.time()
        self._kept = [(p, t) for p, t in self._kept if p != path] + [(path, now)]
        self._sweep()
        self._latest = path
        checkpoint_io.write_state(self._directory, path, self.checkpoints,
                                  [t for _, t in self._kept], self._last_preserved)
        return path

    def _sweep(self) -> None:
        if self._max_to_keep is None:
            return
        while len(self._kept) > self._max_to_keep:
            path, stamp = self._kept.pop(0)
            if (self._keep_every is not None
                    and stamp - self._last_preserved > self._keep_every * 3600):
                self._last_preserved = stamp
                continue
            checkpoint_io.remove(path)
