"""The sum-product error bound's rules, one per vocabulary op whose record names a `bound` family:
each carries (value, magnitude, roundings) through its op (suites/judging/compare.py explains the bound
and applies it)."""
import functools
import math

import numpy as np

from adapters.reference.optimizers import norm_clipped
from adapters.reference.optimizers import steps as optimizer_steps
from suites.judging import cholesky_bounds, creation_bounds, inverse_bounds, linalg_bounds, spectral_bounds
from suites.judging.bound import REFERENCE, Bound
from suites.judging.running_error import Tracked
from vocabulary import VOCABULARY


def _sum(op):
    """add, sub: one rounding; the magnitudes add."""
    def rule(a, b):
        return Bound(getattr(REFERENCE, op)(a.value, b.value), a.magnitude + b.magnitude, max(a.n, b.n) + 1)
    return rule


def _product(op):
    def rule(a, b):
        return Bound(getattr(REFERENCE, op)(a.value, b.value), a.magnitude * b.magnitude, a.n + b.n + 1)
    return rule


def _square(op):
    def rule(a):
        return Bound(getattr(REFERENCE, op)(a.value), a.magnitude ** 2, 2 * a.n + 1)
    return rule


def _exact(op):
    """neg, abs, maximum, minimum: no rounding of their own, the inputs' error passes through."""
    def rule(*xs):
        magnitude = functools.reduce(np.maximum, [x.magnitude for x in xs])
        return Bound(getattr(REFERENCE, op)(*(x.value for x in xs)), magnitude, max(x.n for x in xs))
    return rule


def _matmul(op):
    def rule(a, b):
        k = a.value.shape[-1] if a.value.ndim else 1
        return Bound(getattr(REFERENCE, op)(a.value, b.value), getattr(REFERENCE, op)(a.magnitude, b.magnitude),
                     a.n + b.n + max(k, 1))
    return rule


def _reduction(op):
    def rule(a, axis=None, keepdims=False):
        value = getattr(REFERENCE, op)(a.value, axis, keepdims)
        count = a.value.size // max(np.size(value), 1)
        return Bound(value, getattr(REFERENCE, op)(a.magnitude, axis, keepdims), a.n + count + (op == "mean"))
    return rule


def _prod(op):
    """A product of the M elements reduced: M - 1 roundings on top of each element's own; the
    magnitude is the product of theirs."""
    def rule(a, axis=None, keepdims=False):
        value = REFERENCE.prod(a.value, axis, keepdims)
        count = a.value.size // max(np.size(value), 1)
        return Bound(value, REFERENCE.prod(a.magnitude, axis, keepdims), count * a.n + max(count - 1, 0))
    return rule


def _variance(op):
    """var and std over the M elements reduced, with c = correction: S = sum((x - mean)^2), then
    S / (M - c). The error analysis of Chan, Golub and LeVeque (Algorithms for computing the sample
    variance, 1983) in first order: the two-pass algorithm and Welford's updates are within
    gamma(2M + 4) (S + sqrt(S) ||x||) of S, and the mean's own error e (gamma(M + 1) mean|x|)
    reaches S only as M e^2 (the deviations sum to zero); the textbook one-pass sum(x^2) -
    M mean^2, whose error grows as ||x||^2, is not (data far from 0: 10^4 + [1, 2, 3, 4] in
    float32). std's square root by the running analysis' sqrt, as its error is not linear in
    var's near 0. The inputs' own errors (n roundings) count as extra roundings of both."""
    def rule(a, axis=None, correction=None, keepdims=False):
        var = REFERENCE.var(a.value, axis, correction, keepdims)
        count = a.value.size // max(np.size(var), 1)
        spread = REFERENCE.var(a.value, axis, 0, keepdims) * count  # S
        norm = np.sqrt(REFERENCE.sum(np.square(a.magnitude), axis, keepdims))
        mean = REFERENCE.mean(np.abs(a.magnitude), axis, keepdims)
        divisor = max(count - (correction or 0), 1)

        def errors(arithmetic):
            of_spread = arithmetic.gamma(2 * count + 4 + 2 * a.n) * (spread + np.sqrt(spread) * norm) + \
                count * (arithmetic.gamma(count + 1 + a.n) * mean) ** 2
            bound = of_spread / divisor + arithmetic.rounding(var) + (count + 4) * arithmetic.tiny
            return bound if op == "var" else Tracked(var, bound, arithmetic).sqrt().error
        return _running(var if op == "var" else np.sqrt(var), errors)
    return rule


def _structural(op):
    def rule(a, *args, **kwargs):
        return Bound(getattr(REFERENCE, op)(a.value, *args, **kwargs), getattr(REFERENCE, op)(a.magnitude, *args,
                                                                                            **kwargs), a.n)
    return rule


def _selection(op):
    """max_pool1d, max_pool2d: each output is one of its window's values, unrounded, so it moves
    by at most the largest error in its window: the op on the magnitudes, the window's largest."""
    def rule(x, *params, **options):
        return Bound(getattr(REFERENCE, op)(x.value, *params, **options),
                     getattr(REFERENCE, op)(x.magnitude, *params, **options), x.n)
    return rule


def _joined(op):
    def rule(xs, axis):
        return Bound(getattr(REFERENCE, op)([x.value for x in xs], axis),
                     getattr(REFERENCE, op)([x.magnitude for x in xs], axis), max(x.n for x in xs))
    return rule


def _scatter_add(op):
    """Every target adds up to index.size terms: the sum's rounding count."""
    def rule(x, axis, index, src):
        index = index.value
        return Bound(REFERENCE.scatter_add(x.value, axis, index, src.value),
                     REFERENCE.scatter_add(x.magnitude, axis, index, src.magnitude), max(x.n, src.n) + index.size)
    return rule


def _scatter_reduce(op):
    """Each target reduces up to index.size values and x's: a sum (sum, mean: and the division)
    rounds once per term, a product once per factor on top of its factors' own. amax and amin
    are no sum or product (None: the default tolerance judges them, as other selections)."""
    def rule(x, axis, index, src, reduce, include_self=True):
        if reduce not in ("sum", "mean", "prod"):
            return None
        index, n = index.value, max(x.n, src.n)
        roundings = {"sum": n + index.size, "mean": n + index.size + 1, "prod": (n + 1) * (index.size + 1)}[reduce]
        return Bound(REFERENCE.scatter_reduce(x.value, axis, index, src.value, reduce, include_self),
                     REFERENCE.scatter_reduce(x.magnitude, axis, index, src.magnitude, reduce, include_self),
                     roundings)
    return rule


def _scatter_nd(op):
    """Every target adds up to the number of coordinates: the sum's rounding count."""
    def rule(indices, updates, shape):
        indices = indices.value
        return Bound(REFERENCE.scatter_nd(indices, updates.value, shape),
                     REFERENCE.scatter_nd(indices, updates.magnitude, shape),
                     updates.n + int(np.prod(np.shape(indices)[:-1])))
    return rule


def _keyed(op):
    """index, index_set, index_add: no rounding of their own but the values' cast to x's dtype
    (one, where they are wider) and index_add's additions (a repeated index adds up to
    values.size terms)."""
    def rule(x, key, *rest):
        key = tuple(k.value if isinstance(k, Bound) else k for k in key)
        rest = [r if isinstance(r, Bound) else Bound(np.float64(r), np.abs(np.float64(r)), 0) for r in rest]
        n = max([x.n, *(r.n + 1 for r in rest)]) + (int(np.size(rest[0].value)) if op == "index_add" else 0)
        return Bound(getattr(REFERENCE, op)(x.value, key, *(r.value for r in rest)),
                     getattr(REFERENCE, op)(x.magnitude, key, *(r.magnitude for r in rest)), n)
    return rule


def _conv(op):
    """A convolution sums C/groups * kernel products per output, plus the bias."""
    def rule(x, w, b=None, **params):
        bias = (b.value, b.magnitude) if b is not None else (None, None)
        return Bound(getattr(REFERENCE, op)(x.value, w.value, bias[0], **params),
                     getattr(REFERENCE, op)(x.magnitude, w.magnitude, bias[1], **params),
                     x.n + w.n + w.value[0].size + (b is not None))
    return rule


def _linear(op):
    """x W^T + b: `in` products summed per output, plus the bias."""
    def rule(x, weight, bias=None):
        value_b, magnitude_b = (bias.value, bias.magnitude) if bias is not None else (None, None)
        return Bound(REFERENCE.linear(x.value, weight.value, value_b),
                     REFERENCE.linear(x.magnitude, weight.magnitude, magnitude_b),
                     x.n + weight.n + weight.value.shape[-1] + (bias is not None))
    return rule


def _cumsum(op):
    """A prefix sum: the last of its outputs adds every term along the axis."""
    def rule(a, axis):
        return Bound(REFERENCE.cumsum(a.value, axis), REFERENCE.cumsum(a.magnitude, axis),
                     a.n + (a.value.shape[axis] if a.value.ndim else 1))
    return rule


def _cumprod(op):
    """A prefix product: its last output multiplies every element along the axis."""
    def rule(a, axis):
        length = a.value.shape[axis] if a.value.ndim else 1
        return Bound(REFERENCE.cumprod(a.value, axis), REFERENCE.cumprod(a.magnitude, axis),
                     length * a.n + max(length - 1, 0))
    return rule


def _difference(op):
    """diff: n forward differences of x joined with prepend and append, each one subtraction (one
    rounding) whose operands' magnitudes add."""
    def rule(a, axis=-1, n=1, prepend=None, append=None):
        parts = [part for part in (prepend, a, append) if part is not None]
        value = REFERENCE.diff(a.value, axis, n, *(None if part is None else part.value for part in (prepend, append)))
        magnitude = np.concatenate([part.magnitude for part in parts], axis)
        for _ in range(n):
            length = magnitude.shape[axis]
            magnitude = np.take(magnitude, range(1, length), axis) + np.take(magnitude, range(max(length - 1, 0)), axis)
        return Bound(value, magnitude, max(part.n for part in parts) + n)
    return rule


def _contraction(op):
    """einsum, tensordot: each output sums K products of one element per operand, K the product of
    the contracted axes' lengths (at least 1): K - 1 additions and the products' roundings."""
    def rule(*args, **params):
        einsum = op == "einsum"
        operands, rest = (list(args[0]), args[1:]) if einsum else (list(args[:2]), args[2:])

        def reference(xs):
            return getattr(REFERENCE, op)(*((xs,) if einsum else xs), *rest, **params)

        values = [x.value for x in operands]
        terms = contracted_terms(op, values, *rest, **params)
        return Bound(reference(values), reference([x.magnitude for x in operands]),
                     sum(x.n for x in operands) + terms + len(operands) - 1)
    return rule


def _sliding(op):
    """correlate, convolve: each output sums at most min(M, N) products (the overlap)."""
    def rule(a, v, mode=None):
        params = {} if mode is None else {"mode": mode}
        return Bound(getattr(REFERENCE, op)(a.value, v.value, **params),
                     getattr(REFERENCE, op)(a.magnitude, v.magnitude, **params),
                     a.n + v.n + max(min(np.size(a.value), np.size(v.value)), 1))
    return rule


def contracted_terms(op: str, values: list, *rest, **params) -> int:
    """How many products an output element of einsum or tensordot sums."""
    if op == "einsum":
        equation = params.get("equation", rest[0] if rest else None)
        inputs, output = equation.replace(" ", "").split("->")
        sizes = {letter: n for sub, x in zip(inputs.split(","), values) for letter, n in zip(sub, np.shape(x))}
        return max(math.prod(n for letter, n in sizes.items() if letter not in output), 1)
    axes = params.get("axes", rest[0] if rest else 2)
    shape = np.shape(values[0])
    summed = range(len(shape) - axes, len(shape)) if isinstance(axes, int) else axes[0]
    return max(math.prod(shape[i] for i in summed), 1)


def _running(value, errors) -> Bound:
    """A running error analysis' Bound: `errors(arithmetic)` runs it in that arithmetic."""
    return Bound(value, np.zeros_like(value), 0, running=errors)


def _optimizer(op):
    """The parameter after each step, with the running error analysis of the algorithm's own
    operations (suites/judging/running_error.py)."""
    def rule(param, grads, **hyper):
        def tracked(arithmetic):
            return optimizer_steps(REFERENCE, op, arithmetic.exact(param.value),
                                   [arithmetic.exact(g) for g in grads.value], arithmetic.number, **hyper)
        value = getattr(REFERENCE, op)(param.value, grads.value, **hyper)
        if not len(value):  # no steps: nothing rounded
            return Bound(value, np.zeros_like(value), 0)
        return _running(value, lambda arithmetic: np.stack([t.error for t in tracked(arithmetic)]))
    return rule


def _clipping(op):
    """The clipped gradients, flat as the judge flattens the parts, with the running error
    analysis of the clipping's own operations, as the optimizers' rule carries it."""
    def rule(a, b, max_norm, per_parameter=False, max_norm_eps=1e-06):
        def flat(parts):
            return np.concatenate([np.ravel(p) for p in parts])

        def tracked(arithmetic):
            return norm_clipped([arithmetic.exact(a.value), arithmetic.exact(b.value)], arithmetic.number, max_norm,
                                per_parameter, max_norm_eps)
        return _running(flat(REFERENCE.clip_grad_norm(a.value, b.value, max_norm, per_parameter, max_norm_eps)),
                        lambda arithmetic: flat(t.error for t in tracked(arithmetic)))
    return rule


def _penalty(op):
    """weight_decay / 2 * sum(x^2): a rounding per square, the sum's, the product's with the
    decay (itself rounded to the dtype); the halving is exact."""
    def rule(x, weight_decay):
        return Bound(getattr(REFERENCE, op)(x.value, weight_decay), getattr(REFERENCE, op)(x.magnitude, weight_decay),
                     2 * x.n + 1 + max(x.value.size - 1, 0) + 2)
    return rule


# The rule families that a vocabulary record's `bound` names; each makes the rule of one op.
FAMILIES = {"sum": _sum, "product": _product, "square": _square, "exact": _exact, "selection": _selection,
            "matmul": _matmul, "reduction": _reduction, "structural": _structural, "joined": _joined,
            "scatter_add": _scatter_add, "conv": _conv, "linear": _linear, "cumsum": _cumsum,
            "contraction": _contraction, "keyed": _keyed, "scatter_nd": _scatter_nd,
            "scatter_reduce": _scatter_reduce, "sliding": _sliding, "optimizer": _optimizer,
            "clipping": _clipping, "penalty": _penalty, "prod": _prod, "variance": _variance,
            "cumprod": _cumprod, "difference": _difference, **linalg_bounds.FAMILIES,
            **creation_bounds.FAMILIES, **inverse_bounds.FAMILIES, **cholesky_bounds.FAMILIES,
            **spectral_bounds.FAMILIES}
RULES = {op.name: FAMILIES[op.bound](op.name) for op in VOCABULARY.values() if op.bound}


