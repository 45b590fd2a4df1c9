"""The sum-product error bound's rules for the linear algebra extension's functions (vecdot, trace,
outer, cross, matrix_power, vector_norm): as suites/judging/bound_rules.py's, each carries (value,
magnitude, roundings) through its op."""
import math

import numpy as np

from suites.judging.bound import REFERENCE, Bound


def _vecdot(op):
    """vecdot: each output sums K products along the axis (K its length, at least 1), as a
    contraction does."""
    def rule(x1, x2, axis=-1):
        terms = max(np.shape(x1.value)[axis], 1)
        return Bound(REFERENCE.vecdot(x1.value, x2.value, axis), REFERENCE.vecdot(x1.magnitude, x2.magnitude, axis),
                     x1.n + x2.n + terms + 1)
    return rule


def _trace(op):
    """trace: each output sums the K elements of a diagonal (K at least 1), as a reduction does."""
    def rule(x, offset=0):
        terms = max(np.size(REFERENCE.diagonal(x.value, offset)) // max(np.size(REFERENCE.trace(x.value)), 1), 1)
        return Bound(REFERENCE.trace(x.value, offset), REFERENCE.trace(x.magnitude, offset), x.n + terms)
    return rule


def _outer(op):
    """outer: one product per element."""
    def rule(x1, x2):
        return Bound(REFERENCE.outer(x1.value, x2.value), REFERENCE.outer(x1.magnitude, x2.magnitude), x1.n + x2.n + 1)
    return rule


def _cross(op):
    """cross: each element is a difference of two products, a_j b_k - a_k b_j, of magnitude
    |a_j||b_k| + |a_k||b_j|; two roundings on top of the operands' own."""
    def rule(x1, x2, axis=-1):
        a, b = (np.moveaxis(m, axis, -1) for m in np.broadcast_arrays(x1.magnitude, x2.magnitude))
        magnitude = np.roll(a, -1, -1) * np.roll(b, -2, -1) + np.roll(a, -2, -1) * np.roll(b, -1, -1)
        return Bound(REFERENCE.cross(x1.value, x2.value, axis), np.moveaxis(magnitude, -1, axis), x1.n + x2.n + 2)
    return rule


def _matrix_power(op):
    """matrix_power with n >= 0: a product of n k x k matrices in any order (repeated squaring
    or not) is within gamma((n - 1) k) of |X|^n (Higham, ch. 3.5), and each factor carries its
    own n roundings; the identity (n = 0) is exact. A negative n inverts: no sum-product bound."""
    def rule(x, n):
        if n < 0:
            return None
        k = np.shape(x.value)[-1]
        return Bound(REFERENCE.matrix_power(x.value, n), REFERENCE.matrix_power(x.magnitude, n),
                     max(n - 1, 0) * k + n * x.n)
    return rule


def _vector_norm(op):
    """vector_norm: +-inf picks an element, exact; 0 counts, one rounding (a count past the
    dtype's integers); a real p sums K positive powers (K - 1 roundings, and two a power: its own,
    and a scaling division), then takes the 1/p-th root, which divides the sum's relative error by
    |p|, then its own and a scaling product's. Every ord but 0 is homogeneous of degree 1 and
    grows with each |x_i|: inputs that carry relative errors alone (rounded, not computed: their
    magnitudes are their values) move it by the same relative error. A computed input's error
    moves a norm (p >= 1, inf) by at most the norm of the magnitudes' (the triangle inequality);
    p < 1 is no norm, and a count may flip: those have no bound over a computed input."""
    def rule(x, axis=None, keepdims=False, ord=2):
        value = REFERENCE.vector_norm(x.value, axis, keepdims, ord)
        relative = not x.n or np.array_equal(x.magnitude, np.abs(x.value))
        if x.n and (ord == 0 or (-np.inf < ord < 1 and not relative)):
            return None
        magnitude = np.abs(value) if relative else REFERENCE.vector_norm(x.magnitude, axis, keepdims, abs(ord))
        if ord in (np.inf, -np.inf, 0):
            return Bound(value, magnitude, x.n + (ord == 0))
        terms = x.value.size // max(np.size(value), 1)
        return Bound(value, magnitude, x.n + math.ceil((terms + 3) / abs(ord)) + 2)
    return rule


FAMILIES = {"vecdot": _vecdot, "trace": _trace, "outer": _outer, "cross": _cross, "matrix_power": _matrix_power,
            "vector_norm": _vector_norm}
