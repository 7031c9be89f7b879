"""``tf.linalg``: TensorFlow's linear-algebra ops."""
from runtime.ops.array_ops import eye  # noqa: F401
from runtime.ops.linalg_ops import (adjoint, band_part, cholesky, cholesky_solve,  # noqa: F401
                                    cross, det, diag, diag_part, eig, eigh, eigvals, eigvalsh,
                                    einsum, expm,
                                    global_norm, inv, logdet, lstsq, matrix_transpose, matvec,
                                    norm, pinv, qr, set_diag, slogdet, solve, svd, tensordot,
                                    trace, triangular_solve)
from runtime.ops.math_ops import matmul  # noqa: F401
from runtime.ops.linalg_extra import (l2_normalize, lu, lu_matrix_inverse,  # noqa: F401
                                      lu_reconstruct, lu_solve, matrix_rank, normalize, sqrtm,
                                      tensor_diag, tensor_diag_part, tridiagonal_matmul,
                                      tridiagonal_solve)
