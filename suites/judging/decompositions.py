"""The properties that judge the linear algebra extension's decompositions, eigh, svd and qr,
whose factors the standard fixes only up to signs (each eigenvector's, each pair of singular
vectors', each row of R with its column of Q) and, for a repeated eigenvalue or singular value,
up to a basis of its space: no two frameworks need agree on them element by element (numpy and
jax give the first eigenvector of [[2, 1, 0], [1, 2, 1], [0, 1, 2]] as [-0.5, 0.71, -0.5], torch and
TensorFlow its negative). So a spec of them leaves the values `unspecified` and lists the property
of its op, which checks what defines the decomposition of the matrix A the op was given:

- its values: the eigenvalues and singular values against the float64 reference's, within B
  below (Weyl: each value moves by at most ||E||_2), the reference's own added;
- its residual, column by column: ||A v_i - w_i v_i||_2 (eigh), ||A v_i - s_i u_i||_2 and
  ||A^T u_i - s_i v_i||_2 (svd, s_i = 0 past K: full_matrices' extra vectors span the null
  spaces), ||a_j - Q r_j||_2 (qr), each at most B = 1000 n u ||A||_F + n tiny (n = max(M, N)):
  the factors are exact for A + E with ||E||_2 <= B, the modelled backward error of
  spectral_bounds (LAPACK's test suite's residual ratio, 500 n ulp; its QR tests hold Householder
  QR to 30 M ulp) and n of the dtype's smallest normal number for what underflows, times the
  columns' norms, 1 + the orthonormality bound;
- orthonormality: every entry of V^T V - I (U^T U - I, Vh Vh^T - I, Q^T Q - I) at most 1000 n u,
  LAPACK's test of |I - V^T V| / (n ulp) at the same threshold;
- structure: R upper triangular, exactly (zeros below its diagonal, as geqrf leaves them).

A is the op's argument as the float64 reference computes it, rounded once to the dtype: exactly
what the framework was given for x, and for x + x^T, whose one addition rounds as the framework's.
The residuals are computed in float64 from the framework's factors, their own rounding added
(gamma_n in float64 of the products' magnitudes, and n smallest normals for underflow).

matrix_rank's ranks are the standard's counts of singular values past a cutoff, whose values
within B of the cutoff no framework can place: its property accepts every count that A's values,
moved by B, allow.
"""
import numpy as np

from suites.judging import compare
from suites.judging.spectral_bounds import LAPACK_RATIO, frobenius
from suites.programs import expr


def _t(a):
    return np.swapaxes(a, -1, -2)


def _argument(ctx, inputs) -> np.ndarray:
    """The matrix (stack) the decomposition was given, in float64 (the module's docstring)."""
    call = ctx.program.tree
    node = call.args[0] if call.args else dict(call.kwargs)["x"]
    return compare.round_to(np.asarray(ctx.oracle_parts(inputs, tree=node), dtype=np.float64), ctx.dtype)


def _misplaced(ctx, op) -> str | None:
    """Why the property cannot judge this spec: it applies to an expression that is one call of its
    op (whose parts are that op's factors), never silently to anything else."""
    call = ctx.program.tree
    if isinstance(call, expr.Call) and call.op == op:
        return None
    return f"applies to a spec whose expression is one {op} call, not {ctx.spec.expression!r}"


class _Judged:
    """A's bounds in the judged dtype's arithmetic, and the float64 evaluation's rounding."""

    def __init__(self, ctx, a):
        self.a = a
        self.n = max(a.shape[-2:], default=0)
        self.arithmetic = compare.arithmetic(ctx.judged)
        self.orthonormal = 2 * LAPACK_RATIO * self.n * self.arithmetic.u
        # one per matrix of the stack; n smallest normals more: a solver in the dtype may flush what
        # underflows (XLA's CPU kernels flush subnormals), which the relative model does not cover
        self.backward = self.orthonormal * frobenius(a) + self.n * self.arithmetic.tiny
        self.float64 = compare.arithmetic("float64")

    def evaluation(self, magnitude) -> np.ndarray:
        """The float64 rounding of a product of n terms whose magnitudes sum to `magnitude`."""
        return self.float64.gamma(self.n + 1) * magnitude + self.n * self.float64.tiny

    def columns(self, residual, magnitude, what) -> str | None:
        """Each column's 2-norm of `residual` within B (1 + the orthonormality bound) plus its
        evaluation's rounding; what was seen where it is not."""
        norms = np.sqrt(np.sum(residual ** 2, axis=-2))
        allowed = (self.backward[..., None] * (1 + self.orthonormal)
                   + np.sqrt(np.sum(self.evaluation(magnitude) ** 2, axis=-2)))
        return _worst(norms, allowed, what)

    def orthonormality(self, product, magnitude, what) -> str | None:
        """Every entry of product - I within the orthonormality bound plus its evaluation's."""
        excess = np.abs(product - np.eye(product.shape[-1]))
        return _worst(excess, self.orthonormal + self.evaluation(magnitude), what)

    def values(self, actual, reference, what) -> str | None:
        """Each value within B (Weyl), the reference's own float64 B added."""
        bound = self.backward * (1 + self.float64.u / self.arithmetic.u)
        return _worst(np.abs(actual - reference), np.broadcast_to(bound[..., None], np.shape(actual)), what)


def _worst(error, allowed, what) -> str | None:
    """None where error <= allowed everywhere (NaN fails), else the worst excess in one line."""
    error, allowed = np.asarray(error, dtype=np.float64), np.broadcast_to(allowed, np.shape(error))
    bad = ~(error <= allowed)
    if not bad.any():
        return None
    at = np.unravel_index(np.argmax(np.where(bad, np.nan_to_num(error / allowed, nan=np.inf), 0)), error.shape)
    return f"{what} {error[at]:.3g} at {tuple(int(i) for i in at)}, allowed {allowed[at]:.3g}"


def _padded(a, columns) -> np.ndarray:
    """a with zero columns appended up to `columns` (full_matrices' vectors past K, whose s_i is 0)."""
    out = np.zeros(a.shape[:-1] + (columns,))
    out[..., :a.shape[-1]] = a
    return out


def _checks(*found) -> str | None:
    return next((f for f in found if f), None)


def eigh_decomposes(ctx, inputs, parts):
    """eigh: ascending eigenvalues within the bound of the reference's, A V = V diag(w) column by
    column and V^T V = I (the module's docstring)."""
    if misplaced := _misplaced(ctx, "eigh"):
        return misplaced
    a = _argument(ctx, inputs)
    w, v = (np.asarray(p, dtype=np.float64) for p in parts)
    judged = _Judged(ctx, a)
    return _checks(
        judged.values(w, np.linalg.eigvalsh(a), "an eigenvalue's error"),
        judged.columns(a @ v - v * w[..., None, :], np.abs(a) @ np.abs(v) + np.abs(v * w[..., None, :]),
                       "||A v - w v||"),
        judged.orthonormality(_t(v) @ v, _t(np.abs(v)) @ np.abs(v), "V^T V - I"))


def svd_decomposes(ctx, inputs, parts):
    """svd: descending singular values within the bound of the reference's, A v_i = s_i u_i and
    A^T u_i = s_i v_i for every column (0 past K), U^T U = I and Vh Vh^T = I."""
    if misplaced := _misplaced(ctx, "svd"):
        return misplaced
    a = _argument(ctx, inputs)
    u, s, vh = (np.asarray(p, dtype=np.float64) for p in parts)
    v, k = _t(vh), s.shape[-1]
    us, vs = u[..., :k] * s[..., None, :], v[..., :k] * s[..., None, :]  # s_i u_i and s_i v_i, i < K
    judged = _Judged(ctx, a)
    return _checks(
        judged.values(s, np.linalg.svd(a, compute_uv=False), "a singular value's error"),
        judged.columns(a @ v - _padded(us, v.shape[-1]), np.abs(a) @ np.abs(v) + _padded(np.abs(us), v.shape[-1]),
                       "||A v - s u||"),
        judged.columns(_t(a) @ u - _padded(vs, u.shape[-1]),
                       np.abs(_t(a)) @ np.abs(u) + _padded(np.abs(vs), u.shape[-1]), "||A^T u - s v||"),
        judged.orthonormality(_t(u) @ u, _t(np.abs(u)) @ np.abs(u), "U^T U - I"),
        judged.orthonormality(vh @ v, np.abs(vh) @ np.abs(v), "Vh Vh^T - I"))


def qr_decomposes(ctx, inputs, parts):
    """qr: R upper triangular exactly, A = Q R column by column and Q^T Q = I."""
    if misplaced := _misplaced(ctx, "qr"):
        return misplaced
    a = _argument(ctx, inputs)
    q, r = (np.asarray(p, dtype=np.float64) for p in parts)
    below = np.tril(np.ones(r.shape[-2:], dtype=bool), -1)
    if np.any(r[..., below] != 0):
        return f"R is not upper triangular: {np.abs(r[..., below]).max():.3g} below its diagonal"
    judged = _Judged(ctx, a)
    return _checks(
        judged.columns(a - q @ r, np.abs(a) + np.abs(q) @ np.abs(r), "||a_j - Q r_j||"),
        judged.orthonormality(_t(q) @ q, _t(np.abs(q)) @ np.abs(q), "Q^T Q - I"))


def matrix_rank_counts(ctx, inputs, parts):
    """matrix_rank: each rank a count of singular values past the cutoff that A's could give once
    moved by B (Weyl): at least those with s_i - B > rtol (s_1 + B), at most those with s_i + B >
    rtol (s_1 - B), rtol the call's (None: max(M, N) eps of the judged dtype, the standard's
    default). B carries no smallest normals for a zero matrix, whose values every SVD gives as 0:
    rank 0. Wide, as B is: it holds every rank a matrix's values leave within B of the cutoff."""
    if misplaced := _misplaced(ctx, "matrix_rank"):
        return misplaced
    a = _argument(ctx, inputs)
    judged = _Judged(ctx, a)
    rtol = dict(ctx.program.tree.kwargs).get("rtol")
    m, n = a.shape[-2:]
    rtol = 2 * judged.arithmetic.u * max(m, n) if rtol is None else float(ctx.oracle_parts(inputs, tree=rtol))
    s = np.linalg.svd(a, compute_uv=False) if a.size else np.zeros(a.shape[:-2] + (0,))
    moved = np.where(frobenius(a) > 0, judged.backward * (1 + judged.float64.u / judged.arithmetic.u), 0)[..., None]
    first = np.max(s, axis=-1, initial=0.0)[..., None]
    least = np.sum(s - moved > rtol * (first + moved), axis=-1)
    most = np.sum(s + moved > rtol * np.maximum(first - moved, 0), axis=-1)
    rank = np.asarray(parts[0])
    outside = (rank < least) | (rank > most)
    if not outside.any():
        return None
    at = tuple(int(i) for i in np.argwhere(outside)[0])
    return f"rank {rank[at]} at {at}, where A's singular values allow {least[at]} to {most[at]}"


# name -> (check, where it applies): suites/judging/properties.py's PROPERTIES takes them
PROPERTIES = {
    "eigh-decomposes": (eigh_decomposes, lambda ctx: True),
    "svd-decomposes": (svd_decomposes, lambda ctx: True),
    "qr-decomposes": (qr_decomposes, lambda ctx: True),
    "matrix-rank-counts": (matrix_rank_counts, lambda ctx: True),
}
