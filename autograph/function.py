"""``tf.function``: the public decorator, wiring autograph's converter into runtime.Function.

Usable as ``@tf.function``, ``@tf.function(...)`` and ``tf.function(f, ...)``.
The runtime never imports autograph, so the converter travels to it as a
callable; it is looked up lazily, and a Function is built without one when
``autograph=False`` or while the converter is not available.
"""
from __future__ import annotations

import functools
import warnings

from runtime.function import Function


def _converter(autograph_options):
    """autograph.impl.api.convert with tf.function's conversion options, or None when it
    cannot be imported (yet)."""
    try:
        from autograph.converter.options import ConversionOptions, features
        from autograph.errors import SourceUnavailableError
        from autograph.impl.api import as_tf_function_error, convert
    except ImportError:
        return None
    wanted = features(autograph_options)  # (checked now: a wrong option fails here)

    def converter(fn):
        try:  # (options made when converting: strict mode is an environment variable)
            converted = convert(fn, options=ConversionOptions.of_tf_function(wanted))
        except SourceUnavailableError as e:  # (exec, eval): as TensorFlow, run it as written
            warnings.warn(f"AutoGraph could not transform {fn!r} and will run it as-is. "
                          f"Cause: {e}", stacklevel=2)
            return fn

        @functools.wraps(converted)
        def traced(*args, **kwargs):
            try:
                return converted(*args, **kwargs)
            except Exception as e:  # noqa: BLE001  (re-raised, as TensorFlow re-raises it)
                raised = as_tf_function_error(e)
                if raised is e:
                    raise
                raise raised from e
        return traced
    return converter


def function(func=None, input_signature=None, autograph: bool = True, jit_compile=None,
             reduce_retracing: bool = False, experimental_implements=None,
             experimental_autograph_options=None, experimental_relax_shapes=None,
             experimental_compile=None, experimental_follow_type_hints=None, name=None,
             optimize: bool = True):
    """Turns ``func`` into a Function that traces it into graphs (``tf.function``).

    ``jit_compile=True`` (or its old name ``experimental_compile``) compiles
    each trace with XLA through JAX (``graph/xla``; ``pip install
    autograph-staging[xla]``); by default graphs run on the numpy executor.
    ``experimental_relax_shapes`` is the old name of ``reduce_retracing``.
    ``optimize`` (not in TensorFlow, whose runtime optimizes graphs invisibly):
    run ``graph.passes.optimize`` on each traced graph before compiling it.
    ``concrete.graph`` always shows the graph as traced, as in TensorFlow;
    ``concrete.optimized_graph`` shows what actually runs.
    """
    if input_signature is not None and not isinstance(input_signature, (list, tuple)):
        raise TypeError(f"input_signature must be either a tuple or a list of tf.TensorSpec "
                        f"objects, got {type(input_signature).__name__}")
    if experimental_relax_shapes is not None:
        reduce_retracing = reduce_retracing or bool(experimental_relax_shapes)
    if jit_compile is None:
        jit_compile = experimental_compile

    converter = _converter(experimental_autograph_options) if autograph else None

    def decorate(fn):
        if isinstance(fn, Function):  # tf.function(tf.function(f)): keep the options given last
            fn = fn.python_function
        return Function(fn, name=name, input_signature=input_signature, converter=converter,
                        reduce_retracing=reduce_retracing, jit_compile=jit_compile,
                        optimize=optimize)

    if func is None:
        return decorate
    return decorate(func)
