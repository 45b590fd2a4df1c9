"""The engine's ops. Elementwise primitives are one table line each: the NumPy forward and the
gradients given (g, out, *inputs); broadcasting is undone in one place (unbroadcast). The other
ops define their backward next to their forward. Every function takes Tensors, NumPy arrays or
Python numbers and returns a Tensor of the inputs' dtype."""
import warnings

import numpy as np

from engine.tensor import Tensor


def tensor(x, like: Tensor | None = None) -> Tensor:
    """x as a Tensor; a Python number is weakly typed, as NumPy 2 takes it (NEP 50): it takes
    `like`'s dtype where that holds its kind (2 * float32 stays float32), else NumPy's default
    (int32 + 1.5 is float64)."""
    if isinstance(x, Tensor):
        return x
    if like is not None and not isinstance(x, np.ndarray):
        return Tensor(np.asarray(x, dtype=np.result_type(like.dtype, x)))
    return Tensor(x)


def unbroadcast(g: np.ndarray, shape) -> np.ndarray:
    """Sum a broadcast gradient back to `shape`: over added leading axes and expanded size-1 axes."""
    if g.shape == tuple(shape):
        return g
    g = g.sum(axis=tuple(range(g.ndim - len(shape))))
    expanded = tuple(i for i, n in enumerate(shape) if n == 1 and g.shape[i] != 1)
    return g.sum(axis=expanded, keepdims=True) if expanded else g


def _elementwise(name, forward, gradients):
    def op(*args):
        like = next((a for a in args if isinstance(a, Tensor)), None)
        tensors = [tensor(a, like) for a in args]
        datas = [t.data for t in tensors]
        out = forward(*datas)

        def backward(g):
            return tuple(None if gi is None else unbroadcast(np.broadcast_to(gi, out.shape), t.shape)
                         for gi, t in zip(gradients(g, out, *datas), tensors))

        return Tensor.record(out, tensors, backward, name)

    op.__name__ = name
    return op


def _safe_log(a):
    """log(a) where a > 0, else 0: d(a**b)/db at a <= 0, as jax defines it."""
    return np.log(np.where(a > 0, a, 1))


def logistic(x: np.ndarray) -> np.ndarray:
    """1 / (1 + exp(-x)) on a NumPy array, without overflow and with full relative accuracy for
    large negative x (exp of -|x| only); keeps the dtype."""
    e = np.exp(-np.abs(x))
    r = 1 / (1 + e)
    return np.where(x >= 0, r, e * r)


def _share(wins, ties, g):
    """Gradient share in maximum/minimum: 1 where the input wins, 1/2 on a tie (as torch and jax)."""
    return g * np.where(ties, 0.5, wins).astype(g.dtype)


add = _elementwise("add", np.add, lambda g, out, a, b: (g, g))
sub = _elementwise("sub", np.subtract, lambda g, out, a, b: (g, -g))
mul = _elementwise("mul", np.multiply, lambda g, out, a, b: (g * b, g * a))
div = _elementwise("div", np.divide, lambda g, out, a, b: (g / b, -g * out / b))
pow = _elementwise("pow", np.power, lambda g, out, a, b: (g * b * np.power(a, b - 1), g * out * _safe_log(a)))
maximum = _elementwise("maximum", np.maximum,
                       lambda g, out, a, b: (_share(a > b, a == b, g), _share(b > a, a == b, g)))
minimum = _elementwise("minimum", np.minimum,
                       lambda g, out, a, b: (_share(a < b, a == b, g), _share(b < a, a == b, g)))


def _no_derivative(g, out, *inputs):
    """Steps, tests, comparisons, logic and bits: bool, integer or piecewise-constant results."""
    return (None,) * len(inputs)


greater = _elementwise("greater", np.greater, _no_derivative)  # a mask: no gradient
neg = _elementwise("neg", np.negative, lambda g, out, x: (-g,))
exp = _elementwise("exp", np.exp, lambda g, out, x: (g * out,))
log = _elementwise("log", np.log, lambda g, out, x: (g / x,))
tanh = _elementwise("tanh", np.tanh, lambda g, out, x: (g * (1 - out * out),))
sigmoid = _elementwise("sigmoid", logistic, lambda g, out, x: (g * out * (1 - out),))
relu = _elementwise("relu", lambda x: np.maximum(x, np.zeros((), x.dtype)), lambda g, out, x: (g * (x > 0),))
abs = _elementwise("abs", np.abs, lambda g, out, x: (g * np.sign(x),))
sqrt = _elementwise("sqrt", np.sqrt, lambda g, out, x: (g / (2 * out),))
square = _elementwise("square", np.square, lambda g, out, x: (2 * g * x,))
round = _elementwise("round", np.round, _no_derivative)  # piecewise constant: zero gradient
# a tie (x - round(x) = +-1/2) moved away from zero: x +- 1/2 is exact there
round_half_away = _elementwise("round_half_away", lambda x: np.where(
    np.abs(x - np.round(x)) == 0.5, x + np.copysign(0.5, x), np.round(x)), _no_derivative)
sign = _elementwise("sign", np.sign, _no_derivative)
floor = _elementwise("floor", np.floor, _no_derivative)  # piecewise constant, as round
ceil = _elementwise("ceil", np.ceil, _no_derivative)
trunc = _elementwise("trunc", np.trunc, _no_derivative)

# -- the Array API standard's elementwise math (vocabulary/elementwise.py): NumPy's functions, whose
# special cases are C99's and the standard's; the derivatives are calculus'.
sin = _elementwise("sin", np.sin, lambda g, out, x: (g * np.cos(x),))
cos = _elementwise("cos", np.cos, lambda g, out, x: (-g * np.sin(x),))
tan = _elementwise("tan", np.tan, lambda g, out, x: (g * (1 + out * out),))
asin = _elementwise("asin", np.arcsin, lambda g, out, x: (g / np.sqrt(1 - x * x),))
acos = _elementwise("acos", np.arccos, lambda g, out, x: (-g / np.sqrt(1 - x * x),))
atan = _elementwise("atan", np.arctan, lambda g, out, x: (g / (1 + x * x),))
atan2 = _elementwise("atan2", np.arctan2, lambda g, out, y, x: (g * x / (x * x + y * y), -g * y / (x * x + y * y)))
sinh = _elementwise("sinh", np.sinh, lambda g, out, x: (g * np.cosh(x),))
cosh = _elementwise("cosh", np.cosh, lambda g, out, x: (g * np.sinh(x),))
asinh = _elementwise("asinh", np.arcsinh, lambda g, out, x: (g / np.sqrt(x * x + 1),))
acosh = _elementwise("acosh", np.arccosh, lambda g, out, x: (g / np.sqrt(x * x - 1),))
atanh = _elementwise("atanh", np.arctanh, lambda g, out, x: (g / (1 - x * x),))
# exp(x), not out + 1, which cancels below 0 (d/dx at -4 in float32: 14 ulp; torch's and jax's do)
expm1 = _elementwise("expm1", np.expm1, lambda g, out, x: (g * np.exp(x),))
log1p = _elementwise("log1p", np.log1p, lambda g, out, x: (g / (1 + x),))
log2 = _elementwise("log2", np.log2, lambda g, out, x: (g / (x * np.log(2)),))
log10 = _elementwise("log10", np.log10, lambda g, out, x: (g / (x * np.log(10)),))
reciprocal = _elementwise("reciprocal", np.reciprocal, lambda g, out, x: (-g * out * out,))
# the logistic of the difference, not exp(a - out), which carries out's rounding (logaddexp(30, 32)
# in float32: 25 ulp)
logaddexp = _elementwise("logaddexp", np.logaddexp,
                         lambda g, out, a, b: (g * logistic(a - b), g * logistic(b - a)))
hypot = _elementwise("hypot", np.hypot, lambda g, out, a, b: (g * a / out, g * b / out))
# |x1| with x2's sign: d/dx1 is +-1 (-1 where the signs differ), d/dx2 is 0 (a step at zero)
copysign = _elementwise("copysign", np.copysign, lambda g, out, a, b: (
    np.where(np.signbit(a) != np.signbit(b), -g, g), np.zeros_like(g)))


nextafter = _elementwise("nextafter", np.nextafter, _no_derivative)
floor_divide = _elementwise("floor_divide", np.floor_divide, _no_derivative)
remainder = _elementwise("remainder", np.remainder, lambda g, out, a, b: (g, -g * np.floor_divide(a, b)))
# a complex number's conjugate and components, with torch's conjugate Wirtinger cotangents (a real x's
# conjugate and real part are x itself: a cotangent passes through)
conj = _elementwise("conj", np.conjugate, lambda g, out, x: (np.conjugate(g),))
real = _elementwise("real", np.real, lambda g, out, x: (g,))
imag = _elementwise("imag", np.imag, lambda g, out, x: (g * 1j,))
isnan = _elementwise("isnan", np.isnan, _no_derivative)
isinf = _elementwise("isinf", np.isinf, _no_derivative)
isfinite = _elementwise("isfinite", np.isfinite, _no_derivative)
signbit = _elementwise("signbit", np.signbit, _no_derivative)
equal = _elementwise("equal", np.equal, _no_derivative)
not_equal = _elementwise("not_equal", np.not_equal, _no_derivative)
less = _elementwise("less", np.less, _no_derivative)
less_equal = _elementwise("less_equal", np.less_equal, _no_derivative)
greater_equal = _elementwise("greater_equal", np.greater_equal, _no_derivative)
logical_and = _elementwise("logical_and", np.logical_and, _no_derivative)
logical_or = _elementwise("logical_or", np.logical_or, _no_derivative)
logical_xor = _elementwise("logical_xor", np.logical_xor, _no_derivative)
logical_not = _elementwise("logical_not", np.logical_not, _no_derivative)
bitwise_and = _elementwise("bitwise_and", np.bitwise_and, _no_derivative)
bitwise_or = _elementwise("bitwise_or", np.bitwise_or, _no_derivative)
bitwise_xor = _elementwise("bitwise_xor", np.bitwise_xor, _no_derivative)
bitwise_invert = _elementwise("bitwise_invert", np.invert, _no_derivative)
bitwise_left_shift = _elementwise("bitwise_left_shift", np.left_shift, _no_derivative)
bitwise_right_shift = _elementwise("bitwise_right_shift", np.right_shift, _no_derivative)
positive = _elementwise("positive", np.positive, lambda g, out, x: (g,))


def cast(x, dtype):
    """x.astype(dtype), as NumPy casts (on x86 a float an integer cannot hold gives the integer
    indefinite value); the gradient to a float dtype is the cotangent cast back, and an integer
    or bool result has none (no gradient, as TensorFlow's tape)."""
    x = tensor(x)
    with np.errstate(invalid="ignore", over="ignore"):
        out = x.data.astype(dtype)
    if out.dtype.kind != "f":
        return Tensor(out)
    return Tensor.record(out, (x,), lambda g: (g.astype(x.dtype),), "cast")


# -- reductions ---------------------------------------------------------------------------------

def _axes(axis, ndim) -> tuple:
    if axis is None:
        return tuple(range(ndim))
    axes = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    return tuple(sorted(a % ndim for a in axes)) if ndim else ()


def _restore(g, axes, keepdims):
    """A reduced gradient with the reduced axes put back (size 1), ready to broadcast."""
    return g if keepdims else np.expand_dims(g, axes)


def sum(x, axis=None, keepdims=False):
    x = tensor(x)
    axes = _axes(axis, x.ndim)
    out = np.sum(x.data, axis=axes, keepdims=keepdims)
    return Tensor.record(out, (x,), lambda g: (np.broadcast_to(_restore(g, axes, keepdims), x.shape),), "sum")


def mean(x, axis=None, keepdims=False):
    x = tensor(x)
    axes = _axes(axis, x.ndim)
    count = int(np.prod([x.shape[a] for a in axes]))
    with warnings.catch_warnings():  # over nothing: NaN, silently, as the frameworks give it
        warnings.filterwarnings("ignore", "Mean of empty slice", RuntimeWarning)
        out = np.mean(x.data, axis=axes, keepdims=keepdims)
    return Tensor.record(out, (x,), lambda g: (np.broadcast_to(_restore(g, axes, keepdims) / count, x.shape),),
                         "mean")


def _extremum(reduce, name):
    """max and min: the gradient is shared evenly between tied extrema, as torch.amax and jnp.max do."""
    def op(x, axis=None, keepdims=False):
        x = tensor(x)
        axes = _axes(axis, x.ndim)
        out = reduce(x.data, axis=axes, keepdims=keepdims)

        def backward(g):
            winners = x.data == _restore(out, axes, keepdims)
            share = winners / np.sum(winners, axis=axes, keepdims=True)
            return (_restore(g, axes, keepdims) * share.astype(g.dtype),)

        return Tensor.record(out, (x,), backward, name)

    op.__name__ = name
    return op


max = _extremum(np.max, "max")
min = _extremum(np.min, "min")


def cumsum(x, axis):
    """Prefix sums along axis in x's dtype; the gradient is the suffix sum of g."""
    x = tensor(x)
    out = np.cumsum(x.data, axis=axis, dtype=x.dtype)
    return Tensor.record(out, (x,), lambda g: (np.flip(np.cumsum(np.flip(g, axis), axis=axis), axis),), "cumsum")


# -- linear algebra -----------------------------------------------------------------------------

def matmul(a, b):
    """NumPy matmul semantics; the backward promotes 1-D operands the same way and unbroadcasts."""
    a, b = tensor(a), tensor(b)
    out = np.matmul(a.data, b.data)

    def backward(g):
        left = a.data[None, :] if a.ndim == 1 else a.data
        right = b.data[:, None] if b.ndim == 1 else b.data
        g = g[..., None] if b.ndim == 1 else g  # put the removed axes back
        g = np.expand_dims(g, -2) if a.ndim == 1 else g
        return _matmul_grad(g, right, left.shape, "left").reshape(a.shape), \
            _matmul_grad(g, left, right.shape, "right").reshape(b.shape)

    return Tensor.record(out, (a, b), backward, "matmul")


def _matmul_grad(g, other, shape, side):
    """The gradient of one matmul operand of `shape`. An operand without batch axes (x @ W) gets
    the batch folded into one contraction, instead of a per-batch product summed afterwards
    (which would allocate batch x its size)."""
    if len(shape) == 2 and g.ndim > 2:
        if side == "left":  # sum_b g_b @ other_b^T, with g [..., m, n] and other [..., k, n]
            g2 = np.moveaxis(np.broadcast_to(g, np.broadcast_shapes(g.shape[:-2], other.shape[:-2]) + g.shape[-2:]),
                             -2, 0)
            o2 = np.broadcast_to(other, g2.shape[1:-1] + other.shape[-2:])
            return np.matmul(g2.reshape(shape[0], -1), np.swapaxes(o2, -1, -2).reshape(-1, shape[1]))
        o2 = np.broadcast_to(other, g.shape[:-2] + other.shape[-2:])  # sum_b other_b^T @ g_b
        return np.matmul(o2.reshape(-1, shape[0]).T, g.reshape(-1, shape[1]))
    if side == "left":
        return unbroadcast(np.matmul(g, np.swapaxes(other, -1, -2)), shape)
    return unbroadcast(np.matmul(np.swapaxes(other, -1, -2), g), shape)


def mm(a, b):
    """Strict (n, m) x (m, p); no broadcasting, no 1-D operands."""
    a, b = tensor(a), tensor(b)
    if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
        raise ValueError(f"mm needs (n, m) x (m, p). Received: {a.shape} x {b.shape}")
    return matmul(a, b)


# -- shapes -------------------------------------------------------------------------------------

def reshape(x, shape):
    x = tensor(x)
    return Tensor.record(np.reshape(x.data, tuple(shape)), (x,), lambda g: (g.reshape(x.shape),), "reshape")


def transpose(x, axes):
    x = tensor(x)
    axes = tuple(a % x.ndim for a in axes)  # the backward's argsort needs them non-negative
    return Tensor.record(np.transpose(x.data, axes), (x,), lambda g: (np.transpose(g, np.argsort(axes)),),
                         "transpose")


def concat(xs, axis):
    xs = [tensor(x) for x in xs]
    out = np.concatenate([x.data for x in xs], axis=axis)
    bounds = np.cumsum([x.shape[axis] for x in xs])[:-1]
    return Tensor.record(out, xs, lambda g: tuple(np.split(g, bounds, axis=axis)), "concat")


def stack(xs, axis):
    xs = [tensor(x) for x in xs]
    out = np.stack([x.data for x in xs], axis=axis)
    return Tensor.record(out, xs, lambda g: tuple(np.moveaxis(g, axis, 0)), "stack")


# -- softmax and selection ----------------------------------------------------------------------

def softmax(x, axis=-1):
    """exp(x - max) / sum: the max shift keeps large logits finite. Computed in place, one buffer
    forward and one backward (attention's scores are the largest tensors of a transformer)."""
    x = tensor(x)
    shifted = x.data - np.max(x.data, axis=axis, keepdims=True)
    out = np.exp(shifted, out=shifted) if shifted.dtype.kind == "f" else np.exp(shifted)  # integers give floats
    out /= np.sum(out, axis=axis, keepdims=True)

    def backward(g):  # out * (g - <g, out>) = g out - out <g, out>
        grad = g * out
        grad -= out * np.sum(grad, axis=axis, keepdims=True)
        return (grad,)

    return Tensor.record(out, (x,), backward, "softmax")


def log_softmax(x, axis=-1):
    x = tensor(x)
    shifted = x.data - np.max(x.data, axis=axis, keepdims=True)
    out = shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))
    return Tensor.record(out, (x,), lambda g: (g - np.exp(out) * np.sum(g, axis=axis, keepdims=True),),
                         "log_softmax")


def where(cond, x, y):
    cond = tensor(cond).data.astype(bool)
    like = x if isinstance(x, Tensor) else y if isinstance(y, Tensor) else None
    x, y = tensor(x, like), tensor(y, like)
    out = np.where(cond, x.data, y.data)

    def backward(g):
        zero = np.zeros((), g.dtype)
        return unbroadcast(np.where(cond, g, zero), x.shape), unbroadcast(np.where(cond, zero, g), y.shape)

    return Tensor.record(out, (x, y), backward, "where")


def stop_gradient(x):
    """The value, cut from the tape: no gradient flows back through it."""
    return tensor(x).detach()


# Python operators on Tensors.
Tensor.__add__ = lambda self, other: add(self, other)
Tensor.__radd__ = lambda self, other: add(other, self)
Tensor.__sub__ = lambda self, other: sub(self, other)
Tensor.__rsub__ = lambda self, other: sub(other, self)
Tensor.__mul__ = lambda self, other: mul(self, other)
Tensor.__rmul__ = lambda self, other: mul(other, self)
Tensor.__truediv__ = lambda self, other: div(self, other)
Tensor.__rtruediv__ = lambda self, other: div(other, self)
Tensor.__pow__ = lambda self, other: pow(self, other)
Tensor.__matmul__ = lambda self, other: matmul(self, other)
Tensor.__neg__ = lambda self: neg(self)
