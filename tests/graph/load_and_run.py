"""Loads a saved graph and runs it, importing nothing but ``graph`` (and numpy).

Run as ``python -I load_and_run.py GRAPH_DIR [FEED.npy ...]`` by the fresh-process
test: it proves a saved graph needs no user code, no ``runtime`` and no
``autograph`` to run. Prints one JSON line: each back end's results as lists.
"""
import json
import sys

import numpy as np

import graph
from graph.executor import compile_graph
from graph.serialize import load


def _plain(value):
    value = np.asarray(value)
    if value.dtype == object:
        return {"dtype": "string", "value": np.vectorize(lambda b: b.hex(), otypes=[object])(
            value).tolist() if value.ndim else value[()].hex()}
    return {"dtype": str(value.dtype), "value": value.tolist()}


def main(argv):
    loaded = load(argv[1])
    feeds = [np.load(p, allow_pickle=False) for p in argv[2:]]
    feeds = [f[()] if f.ndim == 0 else f for f in feeds]
    results = {b: [_plain(v) for v in compile_graph(loaded, backend=b)(*feeds)]
               for b in ("codegen", "interpret")}
    foreign = sorted(m for m in sys.modules
                     if m.split(".")[0] in ("runtime", "autograph", "tests"))
    print(json.dumps({"graph": graph.__name__, "foreign_modules": foreign, "results": results}))


if __name__ == "__main__":
    main(sys.argv)
