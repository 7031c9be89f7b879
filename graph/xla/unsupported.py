"""What XLA cannot compile, and why: the reasons the "Detected unsupported operations" error gives.

XLA compiles programs whose shapes are all known when they are compiled and
which run without the host. Ops outside that stay on the numpy backend and
are reported by name (with the user's line) before anything runs. Ops on
strings need no entry: any string tensor is reported as such.
"""
from __future__ import annotations

from graph.xla.lowering import cannot_compile

cannot_compile("its output's shape depends on the input's values (XLA needs static shapes)",
               "Unique", "UniqueWithCounts", "Where", "NonMaxSuppressionV3")
cannot_compile("its output is a sparse tensor whose number of values depends on the input's "
               "values (XLA needs static shapes)", "CTCGreedyDecoder", "CTCBeamSearchDecoder",
               "DenseToDenseSetOperation", "DenseToSparseSetOperation")
cannot_compile("datasets and iterators run on the host, outside the compiled program",
               "DatasetToSingleElement", "DatasetCardinality",
               family=lambda op: op.endswith("Dataset") or op.endswith("DatasetV2")
               or op.startswith("Iterator"))
cannot_compile("ragged tensors have row lengths known only at run time",
               family=lambda op: op.startswith("Ragged"))
cannot_compile("sparse tensors have a number of values known only at run time", "SetSize",
               family=lambda op: op.startswith("Sparse"))
cannot_compile("file and serialization ops run on the host", "ReadFile", "WriteFile",
               "DecodeRaw", "SerializeTensor", "ParseTensor", "DecodeCSV", "DecodeWav",
               "EncodeBase64", "DecodeBase64")
cannot_compile("summary writers and their encoders run on the host", "WriteSummary",
               "WriteRawProtoSummary", "FlushSummaryWriter", "CloseSummaryWriter", "EncodeWav")
cannot_compile("parsing and lookup tables run on the host", "ParseExampleV2",
               "ParseSingleSequenceExample", family=lambda op: op.startswith("LookupTable"))
cannot_compile("it reads the host's clock", "Timestamp")
cannot_compile("a variable whose initial value the function computes is initialized on the "
               "host, on the function's first call", "VarIsInitializedOp")
cannot_compile("TensorFlow's range samplers draw unique candidates by rejection on the host "
               "(TensorFlow's XLA has no kernel for them either)",
               "UniformCandidateSampler", "LogUniformCandidateSampler")
cannot_compile("its pool-adjacent-violators fit merges blocks one after another on the host "
               "(TensorFlow's XLA has no kernel for it either)", "IsotonicRegression")
cannot_compile("py_function calls back into Python, which a compiled program cannot do",
               "EagerPyFunc")
cannot_compile("no lowering: its FarmHash fingerprints are computed by the host kernel "
               "(TensorFlow's XLA compiles it)", "Fingerprint")
