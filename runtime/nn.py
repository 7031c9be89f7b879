"""``tf.nn``: TensorFlow's neural-network ops."""
from runtime.ops.nn_ops import (  # noqa: F401
    atrous_conv2d, avg_pool, avg_pool1d, avg_pool2d, avg_pool3d, batch_normalization, bias_add,
    compute_average_loss, conv1d, conv1d_transpose, conv2d, conv2d_transpose, conv3d,
    conv3d_transpose, conv_transpose, convolution, crelu, depth_to_space, depthwise_conv2d,
    dropout, elu, embedding_lookup, gelu, in_top_k, l2_loss, l2_normalize, leaky_relu,
    log_poisson_loss, log_softmax, max_pool, max_pool1d, max_pool2d, max_pool3d, moments,
    normalize_moments, pool, relu, relu6, scale_regularization_loss, selu, separable_conv2d,
    sigmoid, sigmoid_cross_entropy_with_logits, silu, softmax, softmax_cross_entropy_with_logits,
    softplus, softsign, space_to_depth, sparse_softmax_cross_entropy_with_logits,
    sufficient_statistics, swish, tanh, top_k, weighted_cross_entropy_with_logits,
    weighted_moments, zero_fraction)
from runtime.ops.nn_extra import (  # noqa: F401
    approx_max_k, approx_min_k, batch_norm_with_global_normalization, collapse_repeated,
    ctc_beam_search_decoder, ctc_greedy_decoder, ctc_loss, dilation2d, embedding_lookup_sparse,
    erosion2d, fixed_unigram_candidate_sampler, isotonic_regression,
    local_response_normalization, lrn, max_pool_with_argmax, nce_loss, safe_embedding_lookup_sparse, sampled_softmax_loss)
from types import SimpleNamespace as _Namespace  # noqa: E402
from runtime.ops.nn_ops import stateless_dropout as _stateless_dropout  # noqa: E402
experimental = _Namespace(stateless_dropout=_stateless_dropout)  # tf.nn.experimental
from runtime.composite import dispatch_api as _dispatch_api  # noqa: E402
_dispatch_api(globals())  # RaggedTensor / SparseTensor arguments (runtime/composite.py)
