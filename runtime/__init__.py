"""The staging runtime: tensors, the op API, functional control flow, state.

What user code calls. Each op runs eagerly on numpy, or records a node when
a graph is being built. Never imports ``autograph``.
"""
import graph as _graph  # noqa: F401  (registers the op library)
from graph.dtypes import (DType, as_dtype, bool_ as bool, float16, float32, float64,  # noqa: F401
                          int8, int16, int32, int64, string, uint8, uint16, uint32, uint64,
                          complex64, complex128, resource, variant)
from graph.shapes import TensorShape  # noqa: F401
from runtime import errors, nest  # noqa: F401
from runtime.context import executing_eagerly, init_scope  # noqa: F401
from runtime.ops import operators as _operators  # noqa: F401
from runtime.ops.control_flow import public_cond as cond, while_loop  # noqa: F401
from runtime.ops.core import constant, convert_to_tensor  # noqa: F401
from runtime.ops.math_ops import (abs, add, add_n, argmax, argmin, cast, cos, divide,  # noqa: F401
                                  equal, exp, floor, floordiv, greater, greater_equal, less,
                                  less_equal, logical_and, logical_not, logical_or, matmul,
                                  maximum, minimum, multiply, negative, not_equal, pow, realdiv,
                                  reduce_all, reduce_any, reduce_max, reduce_mean, reduce_min,
                                  reduce_prod, reduce_sum, round, sigmoid, sign, sin, sqrt,
                                  square, subtract, tanh, truediv, where)
from runtime.ops.logging_ops import Assert, print_v2 as print  # noqa: F401
from runtime import audio, bitwise, debugging, math, random, strings  # noqa: F401
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor  # noqa: F401
from runtime.ops.array_ops import (argsort, bitcast, boolean_mask, broadcast_dynamic_shape,  # noqa: F401
                                   broadcast_static_shape, broadcast_to, clip_by_global_norm,
                                   clip_by_norm, clip_by_value, concat, ensure_shape,
                                   expand_dims, eye, fill, gather, gather_nd, identity,
                                   identity_n, linspace, meshgrid, one_hot, ones, ones_like, pad,
                                   range, rank, repeat, reshape, reverse, reverse_sequence, roll,
                                   scatter_nd, searchsorted, sequence_mask, shape, size, slice,
                                   sort, split, squeeze, stack, stack_nested,
                                   tensor_scatter_nd_add, tensor_scatter_nd_max,
                                   tensor_scatter_nd_min, tensor_scatter_nd_sub,
                                   tensor_scatter_nd_update, tile, transpose, unique,
                                   unique_with_counts, unstack, zeros, zeros_like)
from runtime.ops.array_ops import masked_strided_slice as strided_slice  # noqa: F401
from runtime.tensor_spec import TensorSpec  # noqa: F401
from runtime.tensor_array import TensorArray  # noqa: F401
from runtime import data  # noqa: F401
from runtime.variables import Variable  # noqa: F401
from runtime import config, distribute, dtypes  # noqa: F401
from runtime.name_scope import name_scope  # noqa: F401
from runtime.function import ConcreteFunction, Function  # noqa: F401
from runtime.module import Module  # noqa: F401
from runtime.py_function import numpy_function, py_function  # noqa: F401
from runtime.trace_type import types  # noqa: F401
from runtime.gradients import GradientTape, UnconnectedGradients, stop_gradient  # noqa: F401
from runtime.gradients.custom_gradient import (custom_gradient, grad_pass_through,  # noqa: F401
                                               recompute_grad)
# ``tf.gradients`` is the function (the name stands no longer for the package runtime.gradients).
from runtime.gradients.symbolic import gradients, hessians  # noqa: F401,E402
from runtime import autodiff  # noqa: F401
from runtime import keras  # noqa: F401
# tf.optimizers, tf.losses, tf.metrics, tf.initializers are Keras's modules under short names.
from runtime.keras import initializers, losses, metrics, optimizers  # noqa: F401
from runtime import image, io, linalg, nn, saved_model, signal, test, train  # noqa: F401
# The top-level aliases (tf.einsum, tf.cumsum, tf.map_fn, tf.device...): each module's __all__.
from runtime.ops.nn_ops import *  # noqa: F401,F403,E402
from runtime.ops.linalg_ops import *  # noqa: F401,F403,E402
from runtime.ops.complex_ops import *  # noqa: F401,F403,E402
from runtime.ops.special_ops import *  # noqa: F401,F403,E402
from runtime.ops.functional_ops import *  # noqa: F401,F403,E402
from runtime.device import *  # noqa: F401,F403,E402

newaxis = None  # ``x[:, tf.newaxis]``: inserts a dimension of size 1
from runtime import ragged, sparse  # noqa: F401  (tf.ragged, tf.sparse)
from runtime.ragged import RaggedTensor, RaggedTensorSpec  # noqa: F401
from runtime.sparse import SparseTensor, SparseTensorSpec  # noqa: F401
from runtime.sparse.sparse_ops import edit_distance  # noqa: F401,E402  (tf.edit_distance)
from runtime.tensor_spec import TypeSpec  # noqa: F401
from runtime.data.optional import OptionalSpec  # noqa: F401,E402
from runtime.composite import CompositeTensor, dispatch_api as _dispatch_api  # noqa: F401
from runtime import compat, sets, version  # noqa: F401,E402  (tf.compat, tf.sets, tf.version)
from runtime import lookup  # noqa: F401,E402  (tf.lookup)
from runtime.ops.control_ops import *  # noqa: F401,F403,E402
from runtime.ops.extra_ops import *  # noqa: F401,F403,E402
from runtime.ops.init_ops import *  # noqa: F401,F403,E402
from runtime.ops.type_ops import *  # noqa: F401,F403,E402
from runtime.ops.linalg_extra import *  # noqa: F401,F403,E402
from runtime.gradients import NotDifferentiable as no_gradient, RegisterGradient  # noqa: F401,E402
double, half = float64, float16
_dispatch_api(globals())  # tf.add, tf.reduce_sum... on RaggedTensor / SparseTensor arguments
from runtime import experimental  # noqa: F401,E402  (tf.experimental.ExtensionType...)
from runtime import summary  # noqa: F401,E402  (tf.summary)
