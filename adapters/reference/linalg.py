"""The reference's Array API linear algebra functions (vocabulary/linalg.py): NumPy's, whose
functions the standard follows (np.diagonal and np.trace over the last two axes, np.outer,
np.cross, which broadcasts, np.linalg.matrix_power, det, slogdet, inv and solve, whose 1-D x2 is one vector
and whose stacks broadcast, as the standard's, cholesky, eigvalsh, svd's singular values, matrix_norm, eigh,
svd and qr) and the standard's vector_norm, scaled, matrix_rank and pinv."""
import math
from fractions import Fraction

import numpy as np

from adapters.base import Unsupported, axes_tuple


class LinalgReference:
    """A mixin of ReferenceAdapter."""

    def diagonal(self, x, offset=0):
        return np.diagonal(x, offset, -2, -1).copy()

    def trace(self, x, offset=0):
        """np.trace: a signed integer x gives int64, an unsigned one uint64 (the standard's dtype None)."""
        return np.asarray(np.trace(x, offset, -2, -1))

    def outer(self, x1, x2):
        return np.outer(x1, x2)

    def cross(self, x1, x2, axis=-1):
        return np.cross(x1, x2, axis=axis)

    def matrix_power(self, x, n):
        return np.linalg.matrix_power(x, n)

    def vector_norm(self, x, axis=None, keepdims=False, ord=2):
        """The standard's cases: max |x| (ord inf), min |x| (-inf), the count of nonzeros (0), else
        (sum |x|^p)^(1/p) computed as m (sum (|x| / m)^p)^(1/p), m the largest |x| for p >= 1 and
        the smallest for p < 0, so that no power overflows or underflows (LAPACK's nrm2 scales
        alike): m = 0 gives 0 and m = inf gives inf, as the sums would; 0 < p < 1 unscaled."""
        axis, a = axes_tuple(axis), np.abs(x)
        if ord in (np.inf, -np.inf):
            out = (np.max if ord > 0 else np.min)(a, axis=axis, keepdims=True)
        elif ord == 0:
            out = np.sum(a != 0, axis=axis, keepdims=True).astype(x.dtype)
        elif 0 < ord < 1:  # unscaled: no power overflows, and the sum is at most the norm where it is 1 or more
            with np.errstate(over="ignore"):
                out = np.sum(a ** ord, axis=axis, keepdims=True) ** (1 / ord)
        else:
            # the empty sum's identity: an empty vector's norm is 0 (p > 0) or 0^(1/p) = inf (p < 0), NumPy's
            m = np.max(a, axis=axis, keepdims=True, initial=0.0) if ord > 0 else np.min(
                a, axis=axis, keepdims=True, initial=np.inf)
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                scaled = m * np.sum((a / m) ** ord, axis=axis, keepdims=True) ** (1 / ord)
            out = np.where((m == 0) | np.isinf(m), m, scaled)
        return out if keepdims else np.squeeze(out, axis=axis)

    def det(self, x):
        """Exact, then rounded once: NumPy's det is sign * exp(log|det|), whose error grows with
        |log|det|| (125 ulp of float64 for a determinant of 1e-55). Matrices with a NaN or an
        infinity go to NumPy's."""
        x, dtype = _floating(x, "det")
        if not np.all(np.isfinite(x)) or not x.size:  # an empty stack, or 0 x 0 matrices (det 1)
            return np.asarray(np.linalg.det(x)).astype(dtype)
        flat = [exact_det(m) for m in x.reshape(-1, *x.shape[-2:])]
        return np.array(flat, dtype=np.float64).reshape(x.shape[:-2]).astype(dtype)

    def slogdet(self, x):
        """(sign, log|det|) of the exact determinant (exact_det's elimination), the logarithm taken
        of its binary exponent and mantissa apart, so that a determinant past float64's range has
        one. Matrices with a NaN or an infinity go to NumPy's."""
        x, dtype = _floating(x, "slogdet")
        if not np.all(np.isfinite(x)) or not x.size:
            sign, logabsdet = np.linalg.slogdet(x)
            return np.asarray(sign).astype(dtype), np.asarray(logabsdet).astype(dtype)
        dets = [exact_determinant(m) for m in x.reshape(-1, *x.shape[-2:])]
        sign = np.array([float((d > 0) - (d < 0)) for d in dets]).reshape(x.shape[:-2])
        logabsdet = np.array([log_abs(d) for d in dets]).reshape(x.shape[:-2])
        return sign.astype(dtype), logabsdet.astype(dtype)

    def inv(self, x):
        x, dtype = _floating(x, "inv")
        return np.linalg.inv(x).astype(dtype)

    def solve(self, x1, x2):
        """NumPy 2's solve is the standard's: x2 of one dimension is a vector, any other a stack of
        matrices whose stack broadcasts against x1's. A singular x1 raises LinAlgError."""
        (x1, dtype), (x2, _) = _floating(x1, "solve"), _floating(x2, "solve")
        return np.linalg.solve(x1, x2).astype(dtype)

    def cholesky(self, x, upper=False):
        """NumPy's (LAPACK's potrf), which reads x's lower triangle only: a matrix that is not
        positive definite raises LinAlgError."""
        x, dtype = _floating(x, "cholesky")
        return np.linalg.cholesky(x, upper=upper).astype(dtype)

    def eigvalsh(self, x):
        """NumPy's (LAPACK's syevd), which reads x's lower triangle only: ascending eigenvalues."""
        x, dtype = _floating(x, "eigvalsh")
        return np.linalg.eigvalsh(x).astype(dtype)

    def svdvals(self, x):
        """NumPy's svd without vectors (LAPACK's gesdd): descending singular values, min(M, N) of them."""
        x, dtype = _floating(x, "svdvals")
        return np.linalg.svd(x, compute_uv=False).astype(dtype)

    def eigh(self, x):
        """NumPy's (LAPACK's syevd, x's lower triangle): ascending eigenvalues, eigenvectors as columns."""
        x, dtype = _floating(x, "eigh")
        return tuple(part.astype(dtype) for part in np.linalg.eigh(x))

    def svd(self, x, full_matrices=True):
        """NumPy's (LAPACK's gesdd): U, S, Vh with x = U diag(S) Vh, Vh the right vectors as rows."""
        x, dtype = _floating(x, "svd")
        return tuple(part.astype(dtype) for part in np.linalg.svd(x, full_matrices=full_matrices))

    def qr(self, x, mode="reduced"):
        """NumPy's (LAPACK's geqrf and orgqr), stacks included."""
        x, dtype = _floating(x, "qr")
        return tuple(part.astype(dtype) for part in np.linalg.qr(x, mode=mode))

    def matrix_norm(self, x, keepdims=False, ord="fro"):
        """NumPy 2's, the standard's: sums of |x| or the singular values (gesdd); 'fro' is vector_norm's
        over both axes, scaled (NumPy's sums the squares unscaled: 0 for entries of 1e-217)."""
        x, dtype = _floating(x, "matrix_norm")
        if ord == "fro":
            return self.vector_norm(x, (-2, -1), keepdims, 2).astype(dtype)
        return np.asarray(np.linalg.matrix_norm(x, keepdims=keepdims, ord=ord)).astype(dtype)

    def matrix_rank(self, x, rtol=None):
        """The standard's: the singular values (gesdd) above rtol times the largest, rtol None being
        max(M, N) eps of x's dtype (the float64 oracle's eps is float64's: a spec's cases keep their
        singular values off the cutoffs); an empty matrix's rank is 0."""
        wide, _ = _floating(x, "matrix_rank")
        s = np.linalg.svd(wide, compute_uv=False)
        return np.sum(s > _cutoff(x, s, rtol), axis=-1).astype(np.int64)

    def pinv(self, x, rtol=None):
        """The standard's: V diag(1 / s) U^T over the singular values above the cutoff (matrix_rank's),
        the others' terms dropped (NumPy's pinv with that rtol, its reduced SVD's)."""
        wide, dtype = _floating(x, "pinv")
        if not wide.size:
            return np.zeros(wide.shape[:-2] + wide.shape[:-3:-1], dtype=dtype)
        u, s, vh = np.linalg.svd(wide, full_matrices=False)
        kept = s > _cutoff(x, s, rtol)
        inverse = np.divide(1.0, s, out=np.zeros_like(s), where=kept)
        return (np.swapaxes(vh, -1, -2) * inverse[..., None, :] @ np.swapaxes(u, -1, -2)).astype(dtype)


def _cutoff(x, s, rtol) -> np.ndarray:
    """rtol (None: max(M, N) eps of x's dtype) times each matrix's largest singular value, as a
    column against s."""
    if rtol is None:
        rtol = max(x.shape[-2:]) * np.finfo(x.dtype).eps
    return np.asarray(rtol, dtype=np.float64)[..., None] * np.max(s, axis=-1, initial=0.0)[..., None]


def exact_determinant(m: np.ndarray) -> Fraction:
    """The determinant of a finite float matrix in rational arithmetic (Gaussian elimination on
    Fractions, which hold every float exactly)."""
    rows = [[Fraction(float(v)) for v in row] for row in m]
    det = Fraction(1)
    for j in range(len(rows)):
        pivot = next((i for i in range(j, len(rows)) if rows[i][j] != 0), None)
        if pivot is None:
            return Fraction(0)
        if pivot != j:
            rows[j], rows[pivot], det = rows[pivot], rows[j], -det
        det *= rows[j][j]
        for i in range(j + 1, len(rows)):
            factor = rows[i][j] / rows[j][j]
            rows[i] = [a - factor * b for a, b in zip(rows[i], rows[j])]
    return det


def exact_det(m: np.ndarray) -> float:
    """exact_determinant rounded to float64 once; +-inf past its range."""
    det = exact_determinant(m)
    try:
        return float(det)
    except OverflowError:
        return float("inf") if det > 0 else float("-inf")


def log_abs(d: Fraction) -> float:
    """log|d|, -inf for 0: |d| = m 2^e with m in (1/2, 2) rounded once, log m + e log 2 (a few
    float64 ulp of the result), wherever d lies."""
    if d == 0:
        return float("-inf")
    n, q = abs(d.numerator), d.denominator
    e = n.bit_length() - q.bit_length()
    m = Fraction(n, q * 2 ** e) if e >= 0 else Fraction(n * 2 ** -e, q)
    return math.log(float(m)) + e * math.log(2)


def _floating(x, op):
    """x in float64 (NumPy's LAPACK has no float16) and its dtype; the standard's det, slogdet, inv,
    solve, cholesky, eigvalsh, svdvals, matrix_norm, matrix_rank, pinv, eigh, svd and qr take real
    floating arrays only."""
    if x.dtype.kind != "f":
        raise Unsupported(f"the standard's {op} takes a real floating array, not {x.dtype}")
    return x.astype(np.float64), x.dtype
