"""``tf.keras.utils.Progbar``: the progress line custom training loops print, in Keras 3's
format (bold counter, green/white bar, ETA or elapsed time, time per step, then each metric:
averaged over steps unless it is stateful). Redrawn in place with backspaces and a carriage
return (Keras always finds a POSIX terminal dynamic); ``verbose=2`` prints one line at the end."""
from __future__ import annotations

import math
import sys
import time

import numpy as np

BOLD, END, GREEN, WHITE = "\x1b[1m", "\x1b[0m", "\33[32m", "\33[37m"


def _format_time(seconds: float, unit: str) -> str:
    if seconds >= 1 or seconds == 0:
        return f" {seconds:.0f}s/{unit}"
    if seconds >= 1e-3:
        return f" {seconds * 1000.0:.0f}ms/{unit}"
    return f" {seconds * 1000000.0:.0f}us/{unit}"


def _format_eta(eta: float) -> str:
    if eta > 3600:
        return "%d:%02d:%02d" % (eta // 3600, (eta % 3600) // 60, eta % 60)
    if eta > 60:
        return "%d:%02d" % (eta // 60, eta % 60)
    return "%ds" % eta


class Progbar:
    """A progress bar over ``target`` steps (None: unknown)."""

    def __init__(self, target, width=20, verbose=1, interval=0.05, stateful_metrics=None,
                 stateless_metrics=None, unit_name="step"):
        if stateful_metrics is not None and stateless_metrics is not None:
            raise ValueError(
                "Only one of `stateful_metrics` or `stateless_metrics` can be provided. "
                "`stateful_metrics` is used to make metrics stateless by default (with an "
                "exclusion list), while `stateless_metrics` is used to make metrics stateful "
                "by default (with an exclusion list).")
        self.target, self.width, self.verbose = target, width, verbose
        self.interval, self.unit_name = interval, unit_name
        self.stateful_metrics = None if stateless_metrics is not None \
            else set(stateful_metrics or ())
        self.stateless_metrics = None if stateless_metrics is None else set(stateless_metrics)
        self._seen_so_far = 0
        self._values: dict = {}  # name -> [weighted sum, weight]
        self._values_order: list = []
        self._start = time.time()
        self._last_update = 0
        self._time_after_first_step = None
        self._prev_total_width = 0

    def _averages(self, current, values, finalize) -> None:
        for k, v in values or []:
            if k not in self._values_order:
                self._values_order.append(k)
            stateless = (k not in self.stateful_metrics if self.stateful_metrics is not None
                         else k in self.stateless_metrics)
            if not stateless or finalize:
                self._values[k] = [v, 1]
                continue
            base = max(current - self._seen_so_far, 1)
            if k in self._values:
                self._values[k][0] += v * base
                self._values[k][1] += base
            else:
                self._values[k] = [v * base, base]

    def _average(self, k) -> float:
        total, count = self._values[k]
        if not isinstance(total, float):
            total = np.mean(total)
        return total / max(1, count)

    def _step_duration(self, current, now) -> float:
        if not current:
            return 0
        if self._time_after_first_step is not None and current > 1:
            per_unit = (now - self._time_after_first_step) / (current - 1)
        else:
            per_unit = (now - self._start) / current
        if current == 1:
            self._time_after_first_step = now
        return per_unit

    def update(self, current, values=None, finalize=None):
        """Shows step ``current`` with ``values``, a list of ``(name, value)`` pairs."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        self._averages(current, values, finalize)
        self._seen_so_far = current
        now = time.time()
        per_unit = self._step_duration(current, now)
        known = self.target is not None and self.target > 0
        if self.verbose == 1:
            if now - self._last_update < self.interval and not finalize:
                return
            self._draw(current, now, per_unit, known, finalize)
        elif self.verbose == 2 and finalize and known:
            digits = int(math.log10(self.target)) + 1
            info = f"%{digits}d/%d" % (current, self.target)
            info += f" - {now - self._start:.0f}s -{_format_time(per_unit, self.unit_name)}"
            for k in self._values_order:
                avg = self._average(k)
                info += f" - {k}: {avg:.4f}" if avg > 1e-3 else f" - {k}: {avg:.4e}"
            sys.stdout.write(info + "\n")
            sys.stdout.flush()
        self._last_update = now

    def _draw(self, current, now, per_unit, known, finalize) -> None:
        hidden = 0  # escape-code characters, which take no room on screen
        if known:
            digits = int(math.log10(self.target)) + 1
            bar = f"{BOLD}{f'%{digits}d/%d' % (current, self.target)}{END} "
            done = int(self.width * float(current) / self.target)
            hidden += 8
            if done > 0:
                bar += f"{GREEN}{'━' * done}{END}"
                hidden += 9
            bar += f"{WHITE}{'━' * (self.width - done)}{END}"
            hidden += 9
        else:
            bar = "%7d/Unknown" % current
        if known and not finalize:
            info = f" {BOLD}{_format_eta(per_unit * (self.target - current))}{END}"
        else:
            info = f" {BOLD}{now - self._start:.0f}s{END}"
        hidden += 8
        info += _format_time(per_unit, self.unit_name)
        for k in self._values_order:
            avg = self._average(k)
            info += f" - {k}: {avg:.4f}" if abs(avg) > 1e-3 else f" - {k}: {avg:.4e}"
        width = len(bar) + len(info) - hidden
        message = "\b" * self._prev_total_width + "\r" + bar + info
        if self._prev_total_width > width:
            message += " " * (self._prev_total_width - width)
        if finalize:
            message += "\n"
        sys.stdout.write(message)
        sys.stdout.flush()
        self._prev_total_width = width

    def add(self, n, values=None):
        """Advances by ``n`` steps."""
        self.update(self._seen_so_far + n, values)
