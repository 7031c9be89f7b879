"""``tf.autodiff.ForwardAccumulator``: Jacobian-vector products (forward mode).

Forward mode is computed from reverse mode, by the double-vjp identity: the
gradient ``u -> J^T u`` is linear in ``u``, so differentiating it with
respect to ``u`` against the tangent ``t`` gives ``J t``. The accumulator
records what runs in its block on a persistent tape; ``jvp(y)`` takes the
gradient of ``y`` for a watched dummy ``u`` under a second tape and
differentiates that. Since every op records on every active tape, products
nest with GradientTapes both ways (Hessian-vector products).
"""
from __future__ import annotations

from runtime import nest
from runtime.gradients.tape import GradientTape, UnconnectedGradients, _unconnected
from runtime.ops import array_ops
from runtime.ops.core import convert_to_tensor


class ForwardAccumulator:
    """``with ForwardAccumulator(primals, tangents) as acc: y = f(x)``; ``acc.jvp(y)``."""

    def __init__(self, primals, tangents):
        self._primals = nest.flatten(primals)
        self._tangents = [convert_to_tensor(t) for t in nest.flatten(tangents)]
        if len(self._primals) != len(self._tangents):
            raise ValueError(f"ForwardAccumulator: {len(self._primals)} primals but "
                             f"{len(self._tangents)} tangents; give one tangent per primal")
        for p, t in zip(self._primals, self._tangents):
            if p.dtype != t.dtype or not p.shape.is_compatible_with(t.shape):
                raise ValueError(f"ForwardAccumulator: a tangent must match its primal's dtype "
                                 f"and shape: got {t.dtype.name}{t.shape} for "
                                 f"{p.dtype.name}{p.shape}")
        self._tape = GradientTape(persistent=True, watch_accessed_variables=False)

    def __enter__(self) -> "ForwardAccumulator":
        self._tape.__enter__()
        self._tape.watch(self._primals)
        return self

    def __exit__(self, *exc) -> None:
        self._tape.__exit__(*exc)

    def jvp(self, primals, unconnected_gradients=UnconnectedGradients.NONE):
        """The Jacobian-vector product of each tensor in ``primals`` (a structure)."""
        unconnected = _unconnected(unconnected_gradients)
        return nest.map_structure(lambda y: self._jvp(convert_to_tensor(y), unconnected),
                                  primals)

    def _jvp(self, y, unconnected):
        if not (y.dtype.is_floating or y.dtype.is_complex):
            return None
        u = array_ops.zeros_like(y)
        with GradientTape(persistent=True) as outer:
            outer.watch(u)
            vjps = self._tape.gradient(y, self._primals, output_gradients=u)
        pairs = [(g, t) for g, t in zip(vjps, self._tangents) if g is not None]
        result = None
        if pairs:
            result = outer.gradient([g for g, _ in pairs], u,
                                    output_gradients=[t for _, t in pairs])
        if result is None and unconnected is UnconnectedGradients.ZERO:
            result = array_ops.zeros_like(y)
        return result

