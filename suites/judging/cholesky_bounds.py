"""The error bound of the Cholesky factor (the linear algebra extension's cholesky): what LAPACK's
potrf, Eigen's LLT and XLA's Cholesky may make of it in a dtype. Like LU's (inverse_bounds.py) it
grows with the matrix's conditioning, which no sum-product magnitude carries: a running bound.

Backward error (Higham, Accuracy and Stability of Numerical Algorithms, theorem 10.3): the computed
factor satisfies L L^T = A + E with |E| <= gamma_(k+1) |L| |L^T| (k the order), the reference's
factor standing for the framework's as LU's do; an input that carries roundings moves A by
gamma_n x.magnitude more. W, the sum, bounds |E| elementwise.

Forward error, rigorous (the argument of Sun's normwise bound; Higham, chapter 10): the factor
of A + E is L (I + G), G lower triangular, where G + G^T + G G^T = M = L^-1 E L^-T. With Phi the
lower triangle at half its diagonal, G = Phi(M) - Phi(G G^T), and ||Phi(S)||_F <= ||S||_F / sqrt 2 for a symmetric S, so
g = ||G||_F satisfies g <= (m + g^2) / sqrt 2, m = ||M||_F <= || |L^-1| W |L^-T| ||_F. On the
branch that starts at 0 (E scaled up from nothing), g <= (1 - sqrt(1 - 2 m)) / sqrt 2 while
m < 1/2; past it the dtype cannot tell the matrix from an indefinite one, and the bound is
infinite. The factor's error L G is, element (i, j), at most ||L[i, :]||_2 ||G[:, j]||_2 <=
||L[i, :]||_2 g (Cauchy-Schwarz), and 0 above the diagonal: a triangle of exact zeros.
"""
import numpy as np

from suites.judging.bound import REFERENCE, Bound


def _t(x):
    return np.swapaxes(x, -1, -2)


def factor_error(lower: np.ndarray, w: np.ndarray) -> np.ndarray:
    """The bound on each element of the Cholesky factor `lower` (a stack) of A when A moves by at
    most w elementwise (the module's docstring): lower triangular, infinite where m reaches 1/2."""
    a = np.abs(lower)
    inverse = np.abs(np.linalg.inv(lower))
    m = np.sqrt(np.sum((inverse @ w @ _t(inverse)) ** 2, axis=(-2, -1)))
    with np.errstate(invalid="ignore"):
        g = np.where(m < 0.5, np.sqrt(2) * m / (1 + np.sqrt(np.maximum(1 - 2 * m, 0))), np.inf)  # no cancellation
    rows = np.sqrt(np.sum(a ** 2, axis=-1))
    return np.tril(np.broadcast_to(rows[..., :, None] * g[..., None, None], a.shape))


def _cholesky(op):
    """cholesky(x, upper): the factor's forward error from its backward error (the module's docstring);
    the upper factor is the lower one's transpose, its error too."""
    def rule(x, upper=False):
        value = REFERENCE.cholesky(x.value, upper)

        def running(arithmetic):
            if not np.size(x.value):
                return np.zeros(np.shape(value))
            lower = _t(value) if upper else value
            a = np.abs(lower)
            w = arithmetic.gamma(x.value.shape[-1] + 1) * a @ _t(a) + arithmetic.gamma(x.n) * x.magnitude
            error = factor_error(lower, w)
            return _t(error) if upper else error
        return Bound(value, np.abs(value), 0, running)
    return rule


FAMILIES = {"cholesky": _cholesky}
