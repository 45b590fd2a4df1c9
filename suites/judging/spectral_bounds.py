"""The error bounds of eigenvalues and singular values (the linear algebra extension's eigvalsh and
svdvals): what LAPACK's syevd and gesdd, Eigen's and XLA's eigensolvers and SVDs may make of them.

Perturbation (Weyl): the eigenvalues of symmetric A and A + E, each in ascending order, differ by
at most ||E||_2; the singular values of any A and A + E, each in descending order, too (Golub and
Van Loan, Matrix Computations, corollaries 8.1.6 and 8.6.2).

Backward error: the solvers reduce A by orthogonal transformations (Householder tridiagonalisation
or bidiagonalisation, then QR, divide and conquer or Jacobi rotations), and the values computed are
exactly those of A + E with ||E||_2 <= p(n) u ||A||_2, p(n) "a modestly growing function of n"
that LAPACK does not state (LAPACK Users' Guide, sections 4.7 and 4.9). Parity takes LAPACK's own
test suite's: its drivers pass where ||A - U W U^T|| / (n ulp ||A||) stays below a threshold whose
theoretical limit is 500 (TESTING/sep.in: "theoretical limit ~500, empirically reached limit
~170"; its SVD drivers are held to 50, TESTING/svd.in), ulp = 2u. So ||E||_2 <= 1000 n u ||A||_F,
n = max(M, N), the Frobenius norm standing for ||A||_2 (an upper bound) -- a modelled bound,
not a theorem, the only kind a decomposition's unstated constant allows. An input that carries
roundings moves A by W = gamma_n x.magnitude elementwise more, at most sqrt(2) ||W||_F in the
2-norm once a solver reads one triangle of it (a symmetric matrix made of it). Each matrix's bound
holds for each of its values.

What it cannot see: 500 n ulp of ||A||_F is wide. It fails float64 values computed in float32 at any
size, and float32 values of half-precision inputs of a few rows only (tests/test_spectral_bounds.py);
a half-precision computation of a larger matrix passes as float32.
"""
import numpy as np

from suites.judging.bound import REFERENCE, Bound

LAPACK_RATIO = 500  # TESTING/sep.in's theoretical limit of the residual ratio, in ulp = 2u


def _frobenius(a: np.ndarray) -> np.ndarray:
    return np.sqrt(np.sum(np.asarray(a, dtype=np.float64) ** 2, axis=(-2, -1)))


def values_error(x, arithmetic) -> np.ndarray:
    """The bound on each eigenvalue or singular value of each matrix of x (the module's
    docstring), one per matrix of x's stack."""
    n = max(x.value.shape[-2:], default=0)
    backward = 2 * LAPACK_RATIO * n * arithmetic.u * _frobenius(x.value)
    return backward + np.sqrt(2) * arithmetic.gamma(x.n) * _frobenius(x.magnitude)


def _spectral(name):
    """eigvalsh(x) or svdvals(x): the reference's values, each with its matrix's bound."""
    def family(op):
        def rule(x):
            value = getattr(REFERENCE, name)(x.value)
            return Bound(value, np.abs(value), 0, lambda arithmetic: np.broadcast_to(
                values_error(x, arithmetic)[..., None], np.shape(value)))
        return rule
    return family


FAMILIES = {"eigvalsh": _spectral("eigvalsh"), "svdvals": _spectral("svdvals")}
