"""``tf.autodiff``: reverse mode (GradientTape) and forward mode (ForwardAccumulator)."""
from runtime.gradients.forward import ForwardAccumulator  # noqa: F401
from runtime.gradients.tape import GradientTape  # noqa: F401
