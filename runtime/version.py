"""``tf.version``: this project's version under TensorFlow's names.

``VERSION`` is the project's own (``tf.__version__``), not a TensorFlow release; the
graph-def versions are the saved-graph format version (``graph.serialize``), which
reads only its own version.
"""
from graph import __version__ as VERSION  # noqa: F401,N812
from graph.serialize import FORMAT_VERSION as GRAPH_DEF_VERSION  # noqa: F401

GIT_VERSION = "unknown"
COMPILER_VERSION = "numpy"  # kernels are numpy code: no compiled core
GRAPH_DEF_VERSION_MIN_CONSUMER = GRAPH_DEF_VERSION
GRAPH_DEF_VERSION_MIN_PRODUCER = GRAPH_DEF_VERSION
