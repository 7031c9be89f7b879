"""What XLA cannot compile, and why: the reasons the "Detected unsupported operations" error gives.

XLA compiles programs whose shapes are all known when they are compiled and
which run without the host. Ops outside that stay on the numpy backend and
are reported by name (with the user's line) before anything runs.
"""
from __future__ import annotations

from graph.registry import registered_ops
from graph.xla.lowering import cannot_compile

_OPS = registered_ops()

cannot_compile("its output's shape depends on the input's values (XLA needs static shapes)",
               "Unique", "UniqueWithCounts", "Where")
cannot_compile("datasets and iterators run on the host, outside the compiled program",
               "DatasetToSingleElement",
               *(n for n in _OPS if n.endswith("Dataset") or n.startswith("Iterator")))
cannot_compile("ragged tensors have row lengths known only at run time",
               *(n for n in _OPS if n.startswith("Ragged")))
cannot_compile("sparse tensors have a number of values known only at run time",
               *(n for n in _OPS if n.startswith("Sparse")))
cannot_compile("file and serialization ops run on the host", "ReadFile", "WriteFile",
               "DecodeRaw", "SerializeTensor", "ParseTensor", "DecodeCSV")
cannot_compile("py_function calls back into Python, which a compiled program cannot do",
               "EagerPyFunc")
