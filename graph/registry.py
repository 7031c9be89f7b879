"""The op registry: per op type its type inference, numpy kernel and statefulness.

The executor reaches numpy only through this table, so another array
backend can later supply its own kernels beside these.

An op's ``infer(inputs, attrs)`` receives objects with ``.dtype``, ``.shape``
and ``.value`` (the constant value when known, else None) and returns the
list of output ``TensorType``s, raising ``InvalidArgumentError`` (or
ValueError/TypeError) with a readable message when the inputs do not fit.

An op's kernel is called as ``kernel(*input_values, **{a: attrs[a] for a in
kernel_attrs})`` and returns one value, or a tuple when the op has a number
of outputs other than one. Ops whose kernel needs per-node state (random
generators, sub-graphs) give ``build(node, compile_subgraph) -> callable``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import partial
from typing import Callable

import numpy as np

from graph.errors import NotFoundError


@dataclass(frozen=True, slots=True)
class OpDef:
    name: str
    infer: Callable
    kernel: Callable | None = None
    kernel_attrs: tuple[str, ...] = ()
    stateful: bool = False
    build: Callable | None = None
    function_attrs: tuple[str, ...] = ()  # attrs naming library sub-graphs

    def make_kernel(self, node, compile_subgraph) -> Callable:
        """The callable the executor runs for ``node``."""
        if self.build is not None:
            return self.build(node, compile_subgraph)
        if not self.kernel_attrs:
            return self.kernel
        return partial(self.kernel, **{a: node.attrs[a] for a in self.kernel_attrs})

    def run_eager(self, values, attrs):
        """Runs the kernel outside any graph (eager execution)."""
        if self.kernel is None:
            raise NotFoundError(message=f"Op {self.name} cannot run eagerly")
        return call_quietly(self.kernel, values, {a: attrs[a] for a in self.kernel_attrs})


def _quiet_context():
    """numpy 2's error-state context variable and a value of it ignoring every error.

    ``np.errstate`` builds a new error-state object on each entry (~0.7 µs
    as a decorator); the state for ``all="ignore"`` never changes, so it is
    made once here and set and reset directly (~0.2 µs). Returns None on a
    numpy without that variable (numpy 1), which keeps the public decorator.
    """
    if int(np.__version__.split(".")[0]) < 2:
        return None
    try:
        from numpy._core._ufunc_config import _extobj_contextvar as var
    except ImportError:
        return None
    with np.errstate(all="ignore"):
        quiet = var.get()
    return var, quiet


_QUIET = _quiet_context()


def silenced(fn: Callable) -> Callable:
    """``fn`` running under ``np.errstate(all="ignore")``, restored on return or error.

    TensorFlow's kernels are silent about division by zero, ``log(0)`` or
    integer wrap-around; the values (inf, nan, the wrapped integer) are the
    same either way, so graph plans and eager ops silence numpy's warnings.
    """
    if _QUIET is not None:
        var, quiet = _QUIET
        set_state, reset_state = var.set, var.reset

        def quietly(*args, **kwargs):  # a context variable: reentrant and thread-safe
            token = set_state(quiet)
            try:
                return fn(*args, **kwargs)
            finally:
                reset_state(token)
        return _named_like(quietly, fn)

    def run(*args, **kwargs):  # numpy 1's decorator shares one instance: make one per call
        with np.errstate(all="ignore"):
            return fn(*args, **kwargs)
    return _named_like(run, fn)


def _named_like(wrapper: Callable, fn: Callable) -> Callable:
    """``functools.wraps`` for the attributes callers read, at a fifth of its cost: every
    compiled plan is silenced once (update_wrapper's generic walk was ~2 µs of a retrace)."""
    wrapper.__wrapped__ = fn
    wrapper.__name__ = getattr(fn, "__name__", wrapper.__name__)
    wrapper.__qualname__ = getattr(fn, "__qualname__", wrapper.__qualname__)
    wrapper.__doc__ = getattr(fn, "__doc__", None)
    return wrapper


def _make_call_quietly() -> Callable:
    if _QUIET is None:
        return silenced(lambda kernel, values, kwargs: kernel(*values, **kwargs))
    var, quiet = _QUIET
    set_state, reset_state = var.set, var.reset

    def call_quietly(kernel, values, kwargs):
        token = set_state(quiet)
        try:
            return kernel(*values, **kwargs)
        finally:
            reset_state(token)
    return call_quietly


call_quietly = _make_call_quietly()
call_quietly.__doc__ = "``kernel(*values, **kwargs)`` with numpy's floating-point warnings silenced."


_REGISTRY: dict[str, OpDef] = {}


def register_op(name: str, infer: Callable, kernel: Callable | None = None, *,
                kernel_attrs=(), stateful: bool = False, build=None, function_attrs=()) -> OpDef:
    if name in _REGISTRY:
        raise ValueError(f"Op {name!r} is already registered")
    opdef = OpDef(name, infer, kernel, tuple(kernel_attrs), stateful, build, tuple(function_attrs))
    _REGISTRY[name] = opdef
    return opdef


def get_op(name: str) -> OpDef:
    try:
        return _REGISTRY[name]
    except KeyError:
        raise NotFoundError(message=f"Op type not registered: {name!r}. "
                                    "The graph uses an op this version does not know.") from None


def registered_ops() -> list[str]:
    return sorted(_REGISTRY)
