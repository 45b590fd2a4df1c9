"""Error bounds for the linear algebra extension's functions of LU (det, slogdet, inv, solve): what
LU factorisation with partial pivoting, the method of LAPACK's getrf, Eigen's PartialPivLU and
XLA's LU, may make of them in a dtype (Higham, Accuracy and Stability of Numerical Algorithms,
chapters 9 and 14). Their errors grow with the matrix's conditioning, which no sum-product
magnitude carries, so each is a running bound: the absolute error for one dtype's unit roundoff.

The computed factors satisfy L U = P (A + dA) with |dA| <= gamma_k P^T |L| |U| (k the order),
and the solves that follow (A + dA) x = b with |dA| <= gamma_3k P^T |L| |U| (theorems 9.3, 9.4);
the factors here are the float64 reference's, for the framework's are not at hand. An input
that carries roundings (x.n of them, its magnitude x.magnitude) moves A by gamma_n x.magnitude
more. With W the sum of the two, a perturbed solve's error e satisfies e <= |A^-1| (W (|x| + e)
+ db), so e <= (I - |A^-1| W)^-1 |A^-1| (W |x| + db) wherever |A^-1| W has an infinity norm
below 1 (its Neumann series is nonnegative): no first-order step is dropped. Beyond that the
dtype cannot tell the matrix from a singular one, and the bound is infinite.

A determinant is the product of U's diagonal: det(A + dA) = det(A) det(I + E), E = A^-1 dA, and
|det(I + E) - 1| <= exp(sum |E|) - 1 (the nuclear norm of E is at most the sum of its entries'
magnitudes), then k roundings of the product. Det being multilinear, |det(A + dA) - det(A)| <=
per(|A| + |dA|) - per(|A|) too, which needs no inverse: that holds for a singular matrix, whose
determinant is 0 and computes as a rounding residue. Each bound holds; the smaller is taken.
"""
import itertools

import numpy as np

from suites.judging.bound import REFERENCE, Bound

PERMANENT_LIMIT = 8  # orders up to which the permanent's bound is computed (k! terms)


def _lu(matrix: np.ndarray):
    """(rows, L, U) of one matrix by partial pivoting in float64: A[rows] = L U. A zero column
    below the pivot is left as it is (a singular matrix factors too)."""
    k = matrix.shape[-1]
    u, lower, rows = matrix.astype(np.float64), np.eye(k), np.arange(k)
    for j in range(k):
        p = j + int(np.argmax(np.abs(u[j:, j])))
        u[[j, p]], rows[[j, p]] = u[[p, j]], rows[[p, j]]
        lower[[j, p], :j] = lower[[p, j], :j]
        if u[j, j] != 0:
            lower[j + 1:, j] = u[j + 1:, j] / u[j, j]
            u[j + 1:] -= np.outer(lower[j + 1:, j], u[j])
    return rows, lower, np.triu(u)


def _factored(a: np.ndarray):
    """Of each matrix of a, from one factorisation: P^T |L| |U|, the magnitude the factors' backward
    error is bounded by, in a's own row order; and U's diagonal, the pivots."""
    batch = a.reshape(-1, *a.shape[-2:]).astype(np.float64)
    magnitude, pivots = np.empty_like(batch), np.empty(batch.shape[:2])
    for m, matrix in enumerate(batch):
        rows, lower, upper = _lu(matrix)
        magnitude[m][rows] = np.abs(lower) @ np.abs(upper)
        pivots[m] = np.diag(upper)
    return magnitude.reshape(a.shape), pivots.reshape(a.shape[:-1])


def _inverse_or_none(a: np.ndarray):
    try:
        return np.linalg.inv(a)
    except np.linalg.LinAlgError:
        return None


def _perturbation(x, roundings: int, arithmetic, magnitude=None) -> np.ndarray:
    """W: how far the factorisation (`roundings` of them) and the input's own roundings may move A;
    magnitude: _factored(x.value)'s first part where the caller has it."""
    if magnitude is None:
        magnitude = _factored(x.value)[0]
    return arithmetic.gamma(roundings) * magnitude + arithmetic.gamma(x.n) * x.magnitude


def _solved(inverse, w, r) -> np.ndarray:
    """(I - |A^-1| W)^-1 r per matrix, infinite where |A^-1| W's infinity norm reaches 1."""
    g = np.abs(inverse) @ w
    if not np.all(np.isfinite(g)) or np.max(np.sum(g, axis=-1), initial=0.0) >= 1:
        return np.full(np.shape(r), np.inf)
    return np.linalg.solve(np.eye(g.shape[-1]) - g, r)


def _solve(op):
    """solve(x1, x2): the perturbed solve's error (the module's docstring); a 1-D x2 is one column
    (the standard's rule)."""
    def rule(x1, x2):
        value = REFERENCE.solve(x1.value, x2.value)

        def running(arithmetic):
            vector = np.ndim(x2.value) == 1
            column = (lambda v: v[..., None]) if vector else (lambda v: v)
            inverse = _inverse_or_none(x1.value)
            if inverse is None:
                return np.full(np.shape(value), np.inf)
            k = x1.value.shape[-1]
            w = _perturbation(x1, 3 * k, arithmetic)
            db = arithmetic.gamma(x2.n) * column(x2.magnitude)
            r = np.abs(inverse) @ (w @ np.abs(column(value)) + db)
            e = _solved(inverse, w, r)
            return e[..., 0] if vector else e
        return Bound(value, np.abs(value), 0, running)
    return rule


def _inv(op):
    """inv(x): the columns of A^-1 solve A X = I (torch, jax, TensorFlow), |X^ - X| <= (I - |X| W)^-1
    |X| W |X|; LAPACK's getri (U^-1, then X L = U^-1) satisfies the left-hand form, |X W| (I - W
    |X|)^-1: the larger of the two holds either way."""
    def rule(x):
        value = REFERENCE.inv(x.value)

        def running(arithmetic):
            k = x.value.shape[-1]
            w = _perturbation(x, 3 * k, arithmetic)
            a = np.abs(value)
            right = _solved(value, w, a @ w @ a)
            left_t = _solved(np.swapaxes(value, -1, -2), np.swapaxes(w, -1, -2), np.swapaxes(a @ w @ a, -1, -2))
            return np.maximum(right, np.swapaxes(left_t, -1, -2))
        return Bound(value, np.abs(value), 0, running)
    return rule


def permanent_growth(a: np.ndarray, w: np.ndarray) -> float:
    """per(a + w) - per(a) for nonnegative matrices, summed over the permutations term by term, each
    term prod(a + w) - prod(a) >= 0 computed without cancellation (prod(a) expm1(sum log1p(w / a))
    where no a is 0): Ryser's alternating sum, or per(a + w) less per(a), would lose it entirely
    where w is a rounding's size. Where prod(a) underflows (entries of 1e-277 and 1e-186 in one
    term) or its growth overflows, the term is taken in logarithms: exp(sum log a + log expm1(s))."""
    k = a.shape[-1]
    sigma = np.array(list(itertools.permutations(range(k))), dtype=np.intp).reshape(-1, k)
    picked_a, picked_w = a[np.arange(k), sigma], w[np.arange(k), sigma]
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        product, s = np.prod(picked_a, axis=-1), np.sum(np.log1p(picked_w / picked_a), axis=-1)
        grown = np.expm1(s)
        logged = np.exp(np.sum(np.log(picked_a), axis=-1) + s + np.log(-np.expm1(-s)))  # log expm1(s), s >= 0
        relative = np.where((product > 0) & np.isfinite(grown), product * grown, logged)
        terms = np.where(np.all(picked_a > 0, axis=-1), relative, np.prod(picked_a + picked_w, axis=-1))
    return float(np.sum(terms))


def _det_moves(x, arithmetic, magnitude=None):
    """Per matrix of x (k x k, k > 0), how far the factorisation may move its determinant: relative
    to |det| by the inverse's bound (inf for a singular matrix), and absolutely by the permanent's
    (inf past PERMANENT_LIMIT); the module's docstring."""
    k, shape = x.value.shape[-1], x.value.shape[:-2]
    w = _perturbation(x, k, arithmetic, magnitude)
    relative, absolute = [], []
    for a, wi in zip(x.value.reshape(-1, k, k), w.reshape(-1, k, k)):
        inverse = _inverse_or_none(a)
        relative.append(np.expm1(np.sum(np.abs(inverse) @ wi)) if inverse is not None else np.inf)
        absolute.append(permanent_growth(np.abs(a), wi) if k <= PERMANENT_LIMIT else np.inf)
    return np.array(relative).reshape(shape), np.array(absolute).reshape(shape)


def _det(op):
    """det(x): the smaller of the inverse's and the permanent's perturbation bounds (the module's
    docstring), then k roundings of the diagonal's product."""
    def rule(x):
        value = REFERENCE.det(x.value)

        def running(arithmetic):
            if not np.size(x.value):  # the empty product, 1, exactly (or no matrices at all)
                return np.zeros(np.shape(value))
            relative, absolute = _det_moves(x, arithmetic)
            with np.errstate(invalid="ignore"):  # 0 * inf, where the other branch is taken
                moved = np.minimum(np.where(np.isfinite(relative), np.abs(np.linalg.det(x.value)) * relative, np.inf),
                                   absolute)
            return moved + arithmetic.gamma(x.value.shape[-1]) * (np.abs(value) + moved)
        return Bound(value, np.abs(value), 0, running)
    return rule


def _slogdet(op):
    """slogdet(x), its parts flat: the framework's pivots are those of A + dA, whose determinant
    is within r |det| of det(A) (r the smaller of _det_moves' bounds relative to |det|). Where r < 1
    the sign is exact and logabsdet moves by -log(1 - r) at most, then by each pivot's logarithm's
    rounding and the k - 1 of their sum: gamma_(k+2) sum |log|u_jj|| (the reference's pivots for
    the framework's). Where r reaches 1 the dtype cannot tell det from 0: either is allowed."""
    def rule(x):
        sign, logabsdet = REFERENCE.slogdet(x.value)

        def running(arithmetic):
            if not np.size(x.value):
                return np.zeros(2 * np.size(sign))
            k = x.value.shape[-1]
            magnitude, pivots = _factored(x.value)
            relative, absolute = _det_moves(x, arithmetic, magnitude)
            with np.errstate(divide="ignore", invalid="ignore"):  # a zero pivot: a singular matrix, r not below 1
                r = np.minimum(relative, absolute / np.abs(np.linalg.det(x.value)))
                logs = np.sum(np.abs(np.log(np.abs(pivots))), axis=-1)
            reach = r < 1  # False for NaN too (0 / 0: a singular matrix)
            log_error = np.where(reach, -np.log1p(-np.where(reach, r, 0)), np.inf) + arithmetic.gamma(k + 2) * logs
            return np.concatenate([np.where(reach, 0.0, 2.0).ravel(), np.ravel(log_error)])
        return Bound((sign, logabsdet), (np.abs(sign), np.abs(logabsdet)), 0, running)
    return rule


FAMILIES = {"solve": _solve, "inv": _inv, "det": _det, "slogdet": _slogdet}
