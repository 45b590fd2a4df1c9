"""The engine's Array API statistical and utility functions beyond sum, mean, max and min
(vocabulary/statistics.py): prod, var, std, all, any, cumprod and diff, on engine/ops.py's tape.
The products' gradients take no division (prefix and suffix products), so a zero element gets the
derivative the other elements give it."""
import numpy as np

from engine.ops import _axes, _restore, cast, concat, div, mean, mul, sqrt, sub, sum, tensor
from engine.tensor import Tensor


def prod(x, axis=None, keepdims=False):
    """NumPy's prod (an integer or bool x gives int64 or uint64). The gradient of each element is
    the product of the others, taken as exclusive prefix and suffix products along the reduced
    elements, so a zero among them needs no division."""
    x = tensor(x)
    axes = _axes(axis, x.ndim)
    out = np.prod(x.data, axis=axes, keepdims=keepdims)

    def backward(g):
        kept = [a for a in range(x.ndim) if a not in axes]
        flat = np.transpose(x.data, kept + list(axes)).reshape([x.shape[a] for a in kept] + [-1])
        ones = np.ones_like(flat[..., :1])
        before = np.cumprod(np.concatenate([ones, flat[..., :-1]], axis=-1), axis=-1)
        after = np.flip(np.cumprod(np.concatenate([ones, np.flip(flat, -1)[..., :-1]], axis=-1), axis=-1), -1)
        others = np.transpose((before * after).reshape([x.shape[a] for a in kept + list(axes)]),
                              np.argsort(kept + list(axes)))
        return (_restore(g, axes, keepdims) * others,)

    return Tensor.record(out, (x,), backward, "prod")


def var(x, axis=None, correction=None, keepdims=False):
    """The standard's variance (correction None is its 0), two passes, from the tape's own ops: mean,
    the deviations squared, their sum over M - correction, NaN where that is 0 or less. An integer
    x is taken as float64."""
    x = tensor(x)
    x = cast(x, "float64") if x.dtype.kind in "biu" else x
    axes = _axes(axis, x.ndim)
    count = int(np.prod([x.shape[a] for a in axes])) - (0 if correction is None else correction)
    deviations = sub(x, mean(x, axes, True))
    if count <= 0:
        return Tensor(np.full_like(np.sum(x.data, axis=axes, keepdims=keepdims), np.nan))
    return div(sum(mul(deviations, deviations), axes, keepdims), np.asarray(count, x.dtype))


def std(x, axis=None, correction=None, keepdims=False):
    return sqrt(var(x, axis, correction, keepdims))


def all(x, axis=None, keepdims=False):
    x = tensor(x)
    return Tensor(np.all(x.data, axis=_axes(axis, x.ndim), keepdims=keepdims))


def any(x, axis=None, keepdims=False):
    x = tensor(x)
    return Tensor(np.any(x.data, axis=_axes(axis, x.ndim), keepdims=keepdims))


def count_nonzero(x, axis=None, keepdims=False):
    x = tensor(x)
    return Tensor(np.asarray(np.count_nonzero(x.data, axis=_axes(axis, x.ndim), keepdims=keepdims), np.int64))


def cumprod(x, axis):
    """NumPy's cumprod (its dtype prod's). The gradient of x_k is the product of the elements
    before it times S_k = g_k + x_(k+1) S_(k+1), the sum of the later outputs' gradients over x_k:
    no division, so a zero element has the gradient the other elements give it."""
    x = tensor(x)
    out = np.cumprod(x.data, axis=axis)

    def backward(g):
        xs, gs = np.moveaxis(x.data, axis, -1), np.moveaxis(g, axis, -1)
        before = np.cumprod(np.concatenate([np.ones_like(xs[..., :1]), xs[..., :-1]], axis=-1), axis=-1)
        later = np.zeros_like(gs)
        for k in reversed(range(xs.shape[-1])):
            later[..., k] = gs[..., k] + (xs[..., k + 1] * later[..., k + 1] if k + 1 < xs.shape[-1] else 0)
        return (np.moveaxis(before * later, -1, axis),)

    return Tensor.record(out, (x,), backward, "cumprod")


def diff(x, axis=-1, n=1, prepend=None, append=None):
    """NumPy's diff: prepend and append joined by concat, then n first differences, each a tape
    op (a bool x gives !=, which has no derivative)."""
    x = tensor(x)
    x = concat([part for part in (prepend, x, append) if part is not None], axis)
    for _ in range(n):
        x = _difference(x, axis)
    return x


def _difference(z, axis):
    """z[1:] - z[:-1] along axis; the gradient of z_i is g_(i-1) - g_i (zero past either end)."""
    length = z.shape[axis]
    if not length:
        return z
    later, earlier = np.take(z.data, np.arange(1, length), axis), np.take(z.data, np.arange(length - 1), axis)
    if z.dtype == np.bool_:
        return Tensor(np.not_equal(later, earlier))

    def backward(g):
        pad = [(0, 0)] * g.ndim
        pad[axis % g.ndim] = (1, 0)
        ahead = np.pad(g, pad)
        pad[axis % g.ndim] = (0, 1)
        return (ahead - np.pad(g, pad),)

    return Tensor.record(later - earlier, (z,), backward, "diff")
