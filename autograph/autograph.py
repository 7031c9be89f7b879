"""``tf.autograph``: the converter's public names under TensorFlow's spelling."""
from types import SimpleNamespace as _Namespace

from autograph.converter.options import Feature
from autograph.impl.ag_logging import set_verbosity, trace  # noqa: F401
from autograph.impl.api import convert, do_not_convert, to_code, to_graph  # noqa: F401


def set_loop_options(parallel_iterations=None, swap_memory=None, maximum_iterations=None,
                     shape_invariants=None) -> None:
    """Loop options for the enclosing loop; a no-op when the loop runs in Python."""
    return None


experimental = _Namespace(do_not_convert=do_not_convert, set_loop_options=set_loop_options,
                          Feature=Feature)
