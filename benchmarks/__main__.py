"""Runs every ``benchmarks/bench_*.py`` that has a ``main()`` and prints one table.

Usage: ``python -m benchmarks [--quick] [NAME ...]`` where NAME selects
modules by substring (``executor``, ``function``, ``conversion``).
"""
from __future__ import annotations

import importlib
import pkgutil
import sys
import traceback

import benchmarks
from benchmarks import harness


def main(argv: list[str]) -> int:
    harness.QUICK = "--quick" in argv
    wanted = [a for a in argv if not a.startswith("-")]
    names = sorted(m.name for m in pkgutil.iter_modules(benchmarks.__path__)
                   if m.name.startswith("bench_"))
    failed = []
    for name in names:
        if wanted and not any(w in name for w in wanted):
            continue
        module = importlib.import_module(f"benchmarks.{name}")
        if not callable(getattr(module, "main", None)):
            continue
        harness.set_group(name[len("bench_"):])
        print(f"running {name} ...", file=sys.stderr, flush=True)
        try:
            module.main()
        except Exception:  # one broken module must not hide the others' numbers
            traceback.print_exc()
            failed.append(name)
    print(harness.table())
    if failed:
        print(f"benchmark modules that failed: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
