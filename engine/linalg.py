"""The engine's Array API linear algebra functions (vocabulary/linalg.py) on engine/ops.py's tape:
diagonal and trace (the gradient puts the cotangent back on the diagonal taken), outer (each
operand's gradient is the cotangent contracted with the other), cross (the gradient of a x b is
b x g for a and g x a for b, summed back over the broadcast) and matrix_power (the product rule
over the n factors; a negative power goes through the inverse, d(X^-1) = -X^-1 dX X^-1) and
vector_norm (torch's gradients: sign(x) |x|^(p-1) / norm^(p-1), 0 where the norm is 0; for ord
+-inf the cotangent split among the elements whose |x| is the norm; none for ord 0); det, slogdet,
inv and solve by NumPy's LAPACK (det and slogdet by the LU factors' pivots, as LAPACK's getrf finds
them), their gradients torch's: det's g det(X) X^-T, slogdet's g X^-T (its sign has none), inv's
-X^-T g X^-T, solve's A^-T g for B and minus that times X^T for A (summed back over a broadcast
stack); cholesky by NumPy's, its gradient torch's (Murray's), symmetric as the symmetric x it asks;
eigvalsh and svdvals by NumPy's, their gradients V diag(g) V^T and U diag(g) V^T (each eigenvalue's
and singular value's derivative, defined where they are distinct, nonzero for singular values);
matrix_norm composed of them on the tape: vector_norm over both axes ('fro'), the largest or smallest
column or row sum of |x| (+-1, +-inf), the largest, smallest or summed singular values (+-2, 'nuc');
matrix_rank and pinv by NumPy's SVD and the standard's cutoff, pinv's gradient Golub and Pereyra's;
eigh, svd and qr by NumPy's, their factors without gradients (each vector's sign is the implementation's)."""
import numpy as np

from engine import ops
from engine.ops import tensor, unbroadcast
from engine.tensor import Tensor


def _diagonal_index(shape, offset):
    """The (rows, columns) of the offset-th diagonal of matrices of this shape's last two axes."""
    rows, cols = shape[-2], shape[-1]
    length = max(0, min(rows + min(offset, 0), cols - max(offset, 0)))
    i = np.arange(length)
    return i - min(offset, 0), i + max(offset, 0)


def _on_diagonal(g, shape, offset):
    """A zero tensor of this shape with g (of the diagonal's shape) on the offset-th diagonal."""
    out = np.zeros(shape, g.dtype)
    rows, cols = _diagonal_index(shape, offset)
    out[..., rows, cols] = g
    return out


def diagonal(x, offset=0):
    x = tensor(x)
    rows, cols = _diagonal_index(x.shape, offset)
    return Tensor.record(x.data[..., rows, cols], (x,), lambda g: (_on_diagonal(g, x.shape, offset),), "diagonal")


def trace(x, offset=0):
    """np.trace's dtypes: a signed integer x gives int64, an unsigned one uint64."""
    x = tensor(x)
    rows, cols = _diagonal_index(x.shape, offset)
    value = np.asarray(np.trace(x.data, offset, -2, -1))
    return Tensor.record(value, (x,), lambda g: (_on_diagonal(np.expand_dims(g, -1) * np.ones(len(rows), g.dtype),
                                                              x.shape, offset),), "trace")


def outer(x1, x2):
    x1, x2 = tensor(x1), tensor(x2)
    return Tensor.record(np.outer(x1.data, x2.data), (x1, x2), lambda g: (g @ x2.data, x1.data @ g), "outer")


def cross(x1, x2, axis=-1):
    x1, x2 = tensor(x1), tensor(x2)

    def backward(g):
        return (unbroadcast(np.cross(x2.data, g, axis=axis), x1.shape),
                unbroadcast(np.cross(g, x1.data, axis=axis), x2.shape))
    return Tensor.record(np.cross(x1.data, x2.data, axis=axis), (x1, x2), backward, "cross")


def _power_gradient(base, n, g):
    """The gradient of base^n (n >= 1) at base: sum over k of (base^k)^T g (base^(n-1-k))^T."""
    powers = [np.broadcast_to(np.eye(base.shape[-1], dtype=base.dtype), base.shape)]
    for _ in range(n - 1):
        powers.append(powers[-1] @ base)
    return sum(np.swapaxes(powers[k], -1, -2) @ g @ np.swapaxes(powers[n - 1 - k], -1, -2) for k in range(n))


def matrix_power(x, n):
    x = tensor(x)

    def backward(g):
        if n == 0:
            return (np.zeros_like(g),)
        if n > 0:
            return (_power_gradient(x.data, n, g),)
        inverse = np.linalg.inv(x.data)
        inverse_t = np.swapaxes(inverse, -1, -2)
        return (-inverse_t @ _power_gradient(inverse, -n, g) @ inverse_t,)
    return Tensor.record(np.linalg.matrix_power(x.data, n), (x,), backward, "matrix_power")


def _norm_kept(a, axes, ord):
    """The norm of a = |x| over axes, kept: max or min for ord +-inf, the nonzero count for 0,
    else m (sum (a / m)^p)^(1/p) with m the largest a (p >= 1) or the smallest (p < 0), so that no
    power overflows or underflows (LAPACK's nrm2 scales alike); m = 0 or inf is the norm itself.
    0 < p < 1 goes unscaled: a power of it overflows nothing, and the sum is at most the norm
    where it is 1 or more, where the scaled sum's 1/p-th power may overflow (N^(1/p) of N equal
    elements) though the norm does not."""
    if ord == 0:
        return np.sum(a != 0, axis=axes, keepdims=True).astype(a.dtype)
    if 0 < ord < 1:  # unscaled: (sum (a / m)^p)^(1/p) may overflow where the norm does not
        with np.errstate(over="ignore"):
            return np.sum(a ** ord, axis=axes, keepdims=True) ** (1 / ord)
    if ord in (np.inf, -np.inf):  # no identity: an empty vector raises, as NumPy's and torch's
        return (np.max if ord > 0 else np.min)(a, axis=axes, keepdims=True)
    # the empty sum's identity: an empty vector's norm is 0 (p > 0) or inf (p < 0), the reference's
    m = np.max(a, axis=axes, keepdims=True, initial=0.0) if ord > 0 else np.min(a, axis=axes, keepdims=True,
                                                                                initial=np.inf)
    safe = np.where((m == 0) | np.isinf(m), 1, m)
    with np.errstate(divide="ignore", over="ignore"):
        return np.where(safe == m, m * np.sum((a / safe) ** ord, axis=axes, keepdims=True) ** (1 / ord), m)


def _norm_gradient(x, out, ord, axes, g):
    """torch's linalg_vector_norm_backward (torch/csrc/autograd/FunctionsManual.cpp), with out and g
    kept: none for ord 0; for +-inf g split among the elements whose |x| is the norm; else
    sign(x) |x|^(p-1) g / out^(p-1), 0 where the norm is 0."""
    if ord == 0:
        return np.zeros_like(x)
    if ord in (np.inf, -np.inf):
        ties = np.abs(x) == out
        return np.sign(x) * ties * g / np.sum(ties, axis=axes, keepdims=True)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        return np.where(out == 0, 0, np.sign(x) * np.abs(x) ** (ord - 1) * g / out ** (ord - 1))


def vector_norm(x, axis=None, keepdims=False, ord=2):
    x = tensor(x)
    axes = tuple(range(x.ndim)) if axis is None else tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    kept = _norm_kept(np.abs(x.data), axes, ord)

    def backward(g):
        g = g if keepdims else np.expand_dims(g, tuple(a % x.ndim for a in axes))
        return (_norm_gradient(x.data, kept, ord, axes, g).astype(x.dtype),)
    return Tensor.record(kept if keepdims else np.squeeze(kept, axis=axes), (x,), backward, "vector_norm")


def _t(x):
    return np.swapaxes(x, -1, -2)


def _floating(*xs):
    """The tensors, which must be float32 or float64: NumPy's LAPACK, which computes these, has no
    float16, and the standard takes real floating matrices only."""
    xs = [tensor(x) for x in xs]
    for x in xs:
        if x.dtype not in (np.float32, np.float64):
            raise TypeError(f"the engine's factorisations take float32 or float64 tensors, not {x.dtype}")
    return xs


def _lu_pivots(a: np.ndarray):
    """(the sign of the row swaps, the pivots) of a's matrices as LAPACK's getrf finds them, in a's
    dtype: elimination with partial pivoting, the pivots in their order along the last axis."""
    u = np.array(a, copy=True)
    k = u.shape[-1]
    swaps, pivots = np.ones(u.shape[:-2], u.dtype), np.empty(u.shape[:-1], u.dtype)
    for j in range(k):
        pivot = j + np.argmax(np.abs(u[..., j:, j]), axis=-1)
        rows_j, rows_p = np.take_along_axis(u, np.full(pivot.shape + (1, 1), j), -2), \
            np.take_along_axis(u, pivot[..., None, None], -2)
        np.put_along_axis(u, pivot[..., None, None], rows_j, -2)
        np.put_along_axis(u, np.full(pivot.shape + (1, 1), j), rows_p, -2)
        swaps = np.where(pivot != j, -swaps, swaps)
        pivots[..., j] = u[..., j, j]
        with np.errstate(divide="ignore", invalid="ignore"):
            factors = np.where(u[..., j, j, None] != 0, u[..., j + 1:, j] / u[..., j, j, None], 0)
        u[..., j + 1:, :] -= factors[..., None] * u[..., j, None, :]
    return swaps, pivots


def _lu_det(a: np.ndarray) -> np.ndarray:
    """The determinants of a's matrices as LAPACK's getrf finds them: the product of the pivots and
    a sign per swap (NumPy's own det is sign * exp(log|det|), whose error grows with |log|det||)."""
    swaps, pivots = _lu_pivots(a)
    det = swaps
    for j in range(pivots.shape[-1]):
        det = det * pivots[..., j]
    return det


def det(x):
    x, = _floating(x)
    value = np.asarray(_lu_det(x.data))
    return Tensor.record(value, (x,), lambda g: ((g * value)[..., None, None] * _t(np.linalg.inv(x.data)),), "det")


def slogdet(x):
    """(sign, log|det|) from the pivots: the sign a constant (its derivative 0 almost everywhere),
    log|det| a sum of the pivots' logarithms, torch's gradient g X^-T."""
    x, = _floating(x)
    swaps, pivots = _lu_pivots(x.data)
    sign = np.asarray(swaps * np.prod(np.sign(pivots), axis=-1))
    with np.errstate(divide="ignore"):
        logabsdet = np.asarray(np.sum(np.log(np.abs(pivots)), axis=-1))
    return tensor(sign), Tensor.record(logabsdet, (x,), lambda g: (g[..., None, None] * _t(np.linalg.inv(x.data)),),
                                       "slogdet")


def inv(x):
    x, = _floating(x)
    value = np.linalg.inv(x.data)
    return Tensor.record(value, (x,), lambda g: (-_t(value) @ g @ _t(value),), "inv")


def solve(x1, x2):
    """NumPy 2's solve, the standard's: a 1-D x2 is one vector, any other a stack of matrices."""
    x1, x2 = _floating(x1, x2)
    value = np.linalg.solve(x1.data, x2.data)
    vector = x2.ndim == 1

    def backward(g):
        column = (lambda v: v[..., None]) if vector else (lambda v: v)
        gb = np.linalg.solve(_t(x1.data), column(g))
        ga = -gb @ _t(column(value))
        return unbroadcast(ga, x1.shape), unbroadcast(gb[..., 0] if vector else gb, x2.shape)
    return Tensor.record(value, (x1, x2), backward, "solve")


def cholesky(x, upper=False):
    """L with L L^T = x (upper: L^T). The gradient L^-T Phi L^-1, Phi the symmetric matrix whose lower
    triangle is tril(L^T g_L) with half its diagonal (I. Murray, arXiv 1602.07527, torch's
    cholesky_backward): the derivative along symmetric directions, as the standard's x is symmetric."""
    x, = _floating(x)
    lower = np.linalg.cholesky(x.data)

    def backward(g):
        product = np.tril(_t(lower) @ (_t(g) if upper else g))
        phi = (product + _t(np.tril(product, -1))) / 2
        left = np.linalg.solve(_t(lower), phi)  # L^-T Phi
        return (_t(np.linalg.solve(_t(lower), _t(left))),)  # (L^-T Phi) L^-1
    return Tensor.record(_t(lower) if upper else lower, (x,), backward, "cholesky")


def eigvalsh(x):
    """The ascending eigenvalues w of the symmetric x (NumPy's, which reads its lower triangle). The
    gradient V diag(g) V^T: dw_i = v_i^T dX v_i for a simple eigenvalue, symmetric as torch's."""
    x, = _floating(x)
    w, v = np.linalg.eigh(x.data)
    return Tensor.record(w, (x,), lambda g: ((v * g[..., None, :]) @ _t(v),), "eigvalsh")


def svdvals(x):
    """The descending singular values s of x (NumPy's). The gradient U diag(g) V^T, the thin factors:
    ds_i = u_i^T dX v_i for a simple nonzero singular value."""
    x, = _floating(x)
    u, s, vt = np.linalg.svd(x.data, full_matrices=False)
    return Tensor.record(s, (x,), lambda g: ((u * g[..., None, :]) @ vt,), "svdvals")


def _cutoff(x, s, rtol):
    """The standard's: rtol (None: max(M, N) eps of x's dtype) times each largest singular value."""
    if rtol is None:
        rtol = max(x.shape[-2:]) * np.finfo(x.dtype).eps
    return np.asarray(rtol)[..., None] * np.max(s, axis=-1, initial=0)[..., None]


def matrix_rank(x, rtol=None):
    """How many singular values (NumPy's) exceed the cutoff: an integer, with no gradient."""
    x, = _floating(x)
    s = np.linalg.svd(x.data, compute_uv=False) if x.size else np.zeros(x.shape[:-2] + (0,), x.dtype)
    return tensor(np.sum(s > _cutoff(x, s, rtol), axis=-1).astype(np.int64))


def pinv(x, rtol=None):
    """V diag(1 / s) U^T over the singular values above the cutoff (NumPy's SVD). The gradient where
    the rank is constant (Golub and Pereyra, SIAM J. Numer. Anal. 10 (1973), torch's pinv_backward):
    dX = -X dA X + X X^T dA^T (I - A X) + (I - X A) dA^T X^T X, whose adjoint for a cotangent G is
    -X^T G X^T + (I - A X) G^T X X^T + X^T X G^T (I - X A)."""
    x, = _floating(x)
    m, n = x.shape[-2:]
    if not x.size:
        value = np.zeros(x.shape[:-2] + (n, m), x.dtype)
    else:
        u, s, vt = np.linalg.svd(x.data, full_matrices=False)
        inverse = np.divide(1, s, out=np.zeros_like(s), where=s > _cutoff(x, s, rtol))
        value = (_t(vt) * inverse[..., None, :]) @ _t(u)

    def backward(g):
        a, p = x.data, value
        left, right = np.eye(m) - a @ p, np.eye(n) - p @ a
        return (-_t(p) @ g @ _t(p) + left @ _t(g) @ p @ _t(p) + _t(p) @ p @ _t(g) @ right,)
    return Tensor.record(value, (x,), backward, "pinv")


def _no_gradient(op):
    """The backward of a decomposition whose factors' gradients the engine does not compute: they
    depend on each vector's sign, which the standard leaves to the implementation, and no spec
    judges them yet; eigvalsh's and svdvals' gradients are the gauge-free ones."""
    def backward(g):
        raise NotImplementedError(f"the engine computes {op}'s factors, not their gradients: differentiate "
                                  f"eigvalsh or svdvals, whose gradients do not depend on the vectors' signs")
    return backward


def _factors(values, x, op):
    """Each factor of a decomposition of x, on the tape with _no_gradient's backward."""
    return tuple(Tensor.record(v, (x,), _no_gradient(op), op) for v in values)


def eigh(x):
    """NumPy's eigenvalues (ascending) and eigenvectors (columns) of the symmetric x's lower triangle."""
    x, = _floating(x)
    return _factors(np.linalg.eigh(x.data), x, "eigh")


def svd(x, full_matrices=True):
    """NumPy's U, S, Vh (x = U diag(S) Vh)."""
    x, = _floating(x)
    return _factors(np.linalg.svd(x.data, full_matrices=full_matrices), x, "svd")


def qr(x, mode="reduced"):
    """NumPy's Q and R (x = Q R), LAPACK's Householder QR."""
    x, = _floating(x)
    return _factors(np.linalg.qr(x.data, mode=mode), x, "qr")


def matrix_norm(x, keepdims=False, ord="fro"):
    """The standard's matrix norms of x's last two axes, each from the ops above (so their gradients
    are theirs: a tie among column sums, or of singular values, shares the cotangent)."""
    x, = _floating(x)
    if ord == "fro":
        return vector_norm(x, (-2, -1), keepdims, 2)
    if ord in ("nuc", 2, -2):
        values = svdvals(x)
        out = ops.sum(values, -1) if ord == "nuc" else (ops.max if ord == 2 else ops.min)(values, -1)
    else:
        sums = ops.sum(ops.abs(x), -2 if abs(ord) == 1 else -1)
        out = (ops.max if ord > 0 else ops.min)(sums, -1)
    return ops.reshape(out, (*out.shape, 1, 1)) if keepdims else out
