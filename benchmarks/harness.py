"""Shared timing harness: alternating runs, medians, one table for every benchmark.

Each ``bench_*.py`` module calls ``compare`` (ours against hand-written numpy,
measured alternately in the same process), ``absolute`` (a time with a
fixed budget, such as conversion in milliseconds), ``once`` (single calls of
something that happens once per object, such as a first call or a retrace)
or ``memory`` (peak bytes under tracemalloc, ours against numpy or a budget). Results accumulate in
``RESULTS``; ``python -m benchmarks`` prints them as one table.
"""
from __future__ import annotations

import gc
import statistics
import time
from dataclasses import dataclass
from typing import Callable

QUICK = False  # set by ``python -m benchmarks --quick``: fewer repeats


@dataclass(frozen=True)
class Result:
    group: str
    name: str
    ours: float            # seconds per unit (median)
    floor: float | None    # seconds per unit of the hand-written version, None for absolute
    unit: str              # what one unit is: "op", "iter", "call"...
    target: float          # ratio target (compare) or seconds budget (absolute)
    quantity: str = "time"  # "time" (seconds) or "bytes" (peak memory)

    @property
    def ratio(self) -> float:
        """ours / floor for comparisons; ours / budget for absolute timings."""
        return self.ours / (self.floor if self.floor is not None else self.target)

    @property
    def ok(self) -> bool:
        return self.ours <= self.target * self.floor if self.floor is not None \
            else self.ours <= self.target


RESULTS: list[Result] = []
_group = ["executor"]


def set_group(name: str) -> None:
    """Labels the results that follow (``python -m benchmarks`` sets it per module)."""
    _group[0] = name


def _time(fn: Callable[[], object], number: int) -> float:
    start = time.perf_counter()
    for _ in range(number):
        fn()
    return (time.perf_counter() - start) / number


def _calibrate(fn: Callable[[], object], budget: float = 0.02) -> int:
    """Calls per sample so that one sample takes about ``budget`` seconds."""
    fn()
    number = 1
    while True:
        t = _time(fn, number) * number
        if t >= budget / 4 or number >= 1 << 20:
            return max(1, int(number * budget / max(t, 1e-9)))
        number *= 4


def compare(name: str, ours: Callable[[], object], floor: Callable[[], object], *,
            units: int = 1, unit: str = "call", target: float = 1.1,
            repeats: int = 21) -> Result:
    """Times ``ours`` against ``floor`` alternately; records and returns the medians."""
    if QUICK:
        repeats = min(repeats, 5)
    number = min(_calibrate(ours), _calibrate(floor))
    a, b = [], []
    gc_was = gc.isenabled()
    gc.disable()
    try:
        for i in range(repeats):
            pair = [(ours, a), (floor, b)]
            if i % 2:
                pair.reverse()  # alternate which one runs first
            for fn, samples in pair:
                samples.append(_time(fn, number))
    finally:
        if gc_was:
            gc.enable()
    result = Result(_group[0], name, statistics.median(a) / units, statistics.median(b) / units,
                    unit, target)
    RESULTS.append(result)
    return result


def absolute(name: str, fn: Callable[[], object], budget: float, *, unit: str = "call",
             repeats: int = 21, number: int | None = None) -> Result:
    """Times ``fn`` alone against a budget in seconds per call."""
    if QUICK:
        repeats = min(repeats, 5)
    number = number or _calibrate(fn)
    samples = [_time(fn, number) for _ in range(repeats)]
    result = Result(_group[0], name, statistics.median(samples), None, unit, budget)
    RESULTS.append(result)
    return result


def once(name: str, fn: Callable[[], object], budget: float, *, setup=None,
         unit: str = "call", repeats: int = 21) -> Result:
    """Times single calls of ``fn`` (each after a fresh, untimed ``setup()``) against a budget.

    For work that only happens once per object — a first call, a retrace —
    so it cannot be batched: each sample is one call on a freshly set-up state.
    """
    if QUICK:
        repeats = min(repeats, 5)
    samples = []
    gc_was = gc.isenabled()
    try:
        for _ in range(repeats + 1):  # the first sample warms imports and caches of the harness
            state = setup() if setup is not None else None
            gc.collect()
            gc.disable()
            start = time.perf_counter()
            fn() if setup is None else fn(state)
            samples.append(time.perf_counter() - start)
            if gc_was:
                gc.enable()
    finally:
        if gc_was:
            gc.enable()
    result = Result(_group[0], name, statistics.median(samples[1:]), None, unit, budget)
    RESULTS.append(result)
    return result


def memory(name: str, ours: Callable[[], object], floor: Callable[[], object] | None, *,
           target: float, unit: str = "call") -> Result:
    """Peak bytes allocated while running ``ours`` against ``floor`` (tracemalloc).

    With a ``floor`` the row is a ratio (``target`` is the allowed ratio); without,
    ``target`` is a budget in bytes. Each is run once to warm up, then measured
    once, alternating is unnecessary: allocation is deterministic.
    """
    import tracemalloc

    def peak(fn) -> int:
        fn()
        gc.collect()
        tracemalloc.start()
        try:
            base = tracemalloc.get_traced_memory()[0]
            tracemalloc.reset_peak()
            fn()
            return max(tracemalloc.get_traced_memory()[1] - base, 1)
        finally:
            tracemalloc.stop()
    result = Result(_group[0], name, float(peak(ours)),
                    float(peak(floor)) if floor is not None else None, unit, target, "bytes")
    RESULTS.append(result)
    return result


def _fmt_bytes(n: float) -> str:
    for scale, suffix in ((1 << 20, "MiB"), (1 << 10, "KiB")):
        if n >= scale:
            return f"{n / scale:.2f} {suffix}"
    return f"{n:.0f} B"


def _fmt(seconds: float) -> str:
    if seconds >= 1:
        return f"{seconds:.3f} s"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.3f} ms"
    if seconds >= 1e-6:
        return f"{seconds * 1e6:.3f} us"
    return f"{seconds * 1e9:.1f} ns"


def table(results: list[Result] | None = None) -> str:
    """The report: one row per workload, then the geometric mean of the ratios."""
    results = RESULTS if results is None else results
    header = ("group", "workload", "ours", "numpy", "ratio", "target", "ok")
    rows = []
    for r in results:
        fmt = _fmt_bytes if r.quantity == "bytes" else _fmt
        floor = fmt(r.floor) + "/" + r.unit if r.floor is not None else "-"
        target = f"<= {r.target:g}x" if r.floor is not None else f"<= {fmt(r.target)}"
        rows.append((r.group, r.name, fmt(r.ours) + "/" + r.unit, floor, f"{r.ratio:.3f}",
                     target, "yes" if r.ok else "NO"))
    widths = [max(len(str(x)) for x in col) for col in zip(header, *rows)] if rows else \
        [len(h) for h in header]
    line = lambda cells: "  ".join(str(c).ljust(w) for c, w in zip(cells, widths)).rstrip()
    out = [line(header), line("-" * w for w in widths)]
    out += [line(r) for r in rows]
    if results:
        import math
        geo = math.exp(sum(math.log(r.ratio) for r in results) / len(results))
        met = sum(r.ok for r in results)
        out.append(f"geometric mean of ratios: {geo:.3f}  ({met}/{len(results)} targets met)")
    return "\n".join(out)
