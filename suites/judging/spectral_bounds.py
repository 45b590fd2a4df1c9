"""The error bounds of eigenvalues and singular values (the linear algebra extension's eigvalsh,
svdvals and the matrix norms of singular values, matrix_norm's 2, -2 and 'nuc', and pinv's
pseudo-inverse of the singular values past its cutoff): what LAPACK's
syevd and gesdd, Eigen's and XLA's eigensolvers and SVDs may make of them. matrix_norm's other
ords are sums of magnitudes, with the sum-product bounds of vector_norm ('fro') and of a sum of
|x| (+-1, +-inf: a largest or smallest sum errs by at most the largest sum's bound).

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
from suites.judging.linalg_bounds import FAMILIES as LINALG_FAMILIES

LAPACK_RATIO = 500  # TESTING/sep.in's theoretical limit of the residual ratio, in ulp = 2u


def frobenius(a: np.ndarray) -> np.ndarray:
    """Of each matrix, scaled (vector_norm's): a sum of squares underflows for entries below 1e-154;
    an empty matrix's is 0."""
    return REFERENCE.vector_norm(np.asarray(a, dtype=np.float64), (-2, -1), False, 2)


def values_error(x, arithmetic) -> np.ndarray:
    """The bound on each eigenvalue or singular value of each matrix of x (the module's
    docstring), one per matrix of x's stack."""
    n = max(x.value.shape[-2:], default=0)
    backward = 2 * LAPACK_RATIO * n * arithmetic.u * frobenius(x.value)
    return backward + np.sqrt(2) * arithmetic.gamma(x.n) * frobenius(x.magnitude)


def _spectral(name):
    """eigvalsh(x) or svdvals(x): the reference's values, each with its matrix's bound."""
    def family(op):
        def rule(x):
            value = getattr(REFERENCE, name)(x.value)
            return Bound(value, np.abs(value), 0, lambda arithmetic: np.broadcast_to(
                values_error(x, arithmetic)[..., None], np.shape(value)))
        return rule
    return family


def _matrix_norm(op):
    """matrix_norm(x, keepdims, ord): 'fro' is vector_norm's over both axes; +-1 and +-inf a column's
    or a row's sum of |x| (its length in roundings), whose error the largest sum of the magnitudes
    bounds for the smallest sum too; +-2 a singular value, with its bound; 'nuc' the sum of K of them,
    K bounds and K roundings of the sum."""
    def rule(x, keepdims=False, ord="fro"):
        if ord == "fro":
            return LINALG_FAMILIES["vector_norm"](op)(x, (-2, -1), keepdims, 2)
        value = REFERENCE.matrix_norm(x.value, keepdims, ord)
        if ord not in ("nuc", 2, -2):
            terms = max(np.shape(x.value)[-2 if abs(ord) == 1 else -1], 1)
            return Bound(value, REFERENCE.matrix_norm(x.magnitude, keepdims, abs(ord)), x.n + terms)
        k = min(np.shape(x.value)[-2:])

        def running(arithmetic):
            error = values_error(x, arithmetic)
            if ord == "nuc":
                error = k * error + arithmetic.gamma(k) * np.reshape(np.abs(value), np.shape(error))
            return np.reshape(error, np.shape(value))
        return Bound(value, np.abs(value), 0, running)
    return rule


def _pinv(op):
    """pinv(x, rtol): Wedin's theorem (Stewart and Sun, Matrix Perturbation Theory, III.3.8): for A
    and B of one rank, ||B^+ - A^+||_2 <= mu ||A^+||_2 ||B^+||_2 ||B - A||_2, mu 1 for a square
    invertible A, sqrt 2 for one of full rank, (1 + sqrt 5) / 2 else. A_r, the reference's A with
    its singular values past the cutoff dropped, has the reference's value for its pseudo-inverse,
    r = rank(A_r). The framework's is that of B: its SVD of A + E (||E||_2 <= the backward bound of
    values_error) with the same values dropped where it keeps r of them, so ||B - A_r||_2 <= 2
    (||E||_2 + s_r+1) by Weyl, and ||B^+||_2 <= 1 / (s_r - ||E||_2). Each entry errs by at most the
    2-norm; beyond s_r <= ||E||_2 the dtype cannot tell the rank, and the bound is infinite. A
    framework that keeps another count of values (another cutoff) errs by 1 / s at least."""
    def rule(x, rtol=None):
        value = REFERENCE.pinv(x.value, rtol)
        if not np.size(value):
            return Bound(value, np.abs(value), 0)
        m, n = np.shape(x.value)[-2:]
        s = np.linalg.svd(x.value, compute_uv=False).reshape(-1, min(m, n))
        ranks = np.reshape(REFERENCE.matrix_rank(x.value, rtol), -1)

        def running(arithmetic):
            backward = np.reshape(values_error(x, arithmetic), -1)
            error = [_wedin(values, rank, e, m, n) for values, rank, e in zip(s, ranks, backward)]
            error = np.reshape(error, np.shape(value)[:-2] + (1, 1))
            return np.broadcast_to(error, np.shape(value)) + arithmetic.u * np.abs(value)
        return Bound(value, np.abs(value), 0, running)
    return rule


def _wedin(s, rank, e, m, n) -> float:
    """_pinv's bound for one M x N matrix of singular values s, rank r kept, backward error e."""
    if rank == 0:  # a zero matrix (its values exactly 0): every SVD keeps none, and its pinv is 0
        return 0.0
    mu = 1.0 if rank == m == n else np.sqrt(2) if rank == min(m, n) else (1 + np.sqrt(5)) / 2
    tail, last = (s[rank] if rank < len(s) else 0.0), s[rank - 1]
    return mu / last / (last - e) * 2 * (e + tail) if last > e else np.inf


FAMILIES = {"eigvalsh": _spectral("eigvalsh"), "svdvals": _spectral("svdvals"), "matrix_norm": _matrix_norm,
            "pinv": _pinv}
