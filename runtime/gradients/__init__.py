"""Reverse-mode automatic differentiation: ``GradientTape``, ``stop_gradient``.

Importing the package registers the gradient functions of the op library.
"""
from runtime.gradients import (array_grads, control_flow_grads, function_grads,  # noqa: F401
                               list_grads, math_grads, while_grads)
from runtime.gradients import complex_grads, linalg_grads, nn_grads, special_grads  # noqa: F401
from runtime.gradients import sparse_grads, spectral_grads  # noqa: F401
from runtime.gradients.backprop import NoGradientError  # noqa: F401
from runtime.gradients.registry import NotDifferentiable, RegisterGradient  # noqa: F401
from runtime.gradients.tape import GradientTape, UnconnectedGradients, stop_gradient  # noqa: F401
