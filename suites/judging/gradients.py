"""Gradients by central finite differences of the float64 reference: the oracle for autodiff.

Small inputs get the full Jacobian (one reverse pass per output element against one pair of
evaluations per input element); larger ones a random-direction check in the manner of jax's
check_grads: <vjp(c), v> against <c, (f(x + h v) - f(x - h v)) / 2h>. The differences run in
float64 on the reference, so the step is float64's, h = cbrt(eps) * max(1, |x|); the
tolerance is the adapter dtype's (suites/judging/compare.py) plus an estimate of the difference
quotient's own error: rounding of f (its noise, measured on a tiny grid as ECnoise does, over
h), rounding of x + h (eps * (|x| + h) / h times the derivative's magnitude) and truncation (the
change from h to h/2).

The magnitude of a sum-product expression's derivative comes from forward differences of its
magnitude expression at |x| (magnitude_jacobian): its coefficients are all positive, so the
forward difference bounds the derivative from above, and |x| keeps clear of abs's kink at 0.
"""
import numpy as np

EPS = np.finfo(np.float64).eps
FULL_JACOBIAN_LIMIT = 64  # inputs x outputs elements up to which the whole Jacobian is compared
NOISE_GRID = 12  # points of the grid whose 6th differences measure f's rounding noise
NOISE_SPACING = 1e-7  # the grid's spacing, relative: far below the step, far above an ulp
NOISE_FACTOR = 8  # rounding error of a difference quotient at step h/2, in noise levels / h


def step(x: np.ndarray) -> np.ndarray:
    return np.cbrt(EPS) * np.maximum(1.0, np.abs(x))


def jacobian(f, inputs: dict, name: str):
    """(J, err): J[o, i] = d f(inputs)[o] / d inputs[name][i] and an error estimate per entry."""
    x = inputs[name]
    out = np.asarray(f(inputs))
    jac = np.zeros((out.size, x.size))
    err = np.zeros_like(jac)
    h = step(x).ravel()
    # f's noise along every element at once, and along alternating signs: along ones alone a
    # function invariant to a common shift (softmax, cross-entropy, normalisation) shows none
    rounding = np.maximum(_rounding(f, inputs, {name: np.ones_like(x)}, out),
                          _rounding(f, inputs, {name: _alternating(x)}, out)).ravel()
    for i in range(x.size):
        d1 = _directional(f, inputs, name, _basis(x, i), h[i])
        d2 = _directional(f, inputs, name, _basis(x, i), h[i] / 2)
        jac[:, i] = d2.ravel()
        err[:, i] = np.abs(d1 - d2).ravel() + rounding / h[i]
    return jac, err


def input_rounding(x: np.ndarray) -> np.ndarray:
    """Per element of x: the relative error that rounding x +- h adds to a difference quotient."""
    h = step(x)
    return EPS * (np.abs(x) + h) / h


def at_magnitudes(inputs: dict) -> dict:
    """The inputs where a magnitude expression is evaluated: |x| of each float input; integer
    inputs as they are, for they index (x[i] with i = -1 counts from the end: |i| = 1 is another
    row, or none), and their magnitudes are taken by the expression itself where they are values."""
    return {k: np.abs(v) if np.asarray(v).dtype.kind in "fc" else v for k, v in inputs.items()}


def magnitude_jacobian(m, inputs: dict, name: str) -> np.ndarray:
    """Forward-difference Jacobian of the magnitude expression `m` at |inputs|, w.r.t. `name`."""
    at = at_magnitudes(inputs)
    base = np.asarray(m(at)).ravel()
    h = step(at[name]).ravel()
    cols = [(np.asarray(m({**at, name: at[name] + h[i] * _basis(at[name], i)})).ravel() - base) / h[i]
            for i in range(at[name].size)]
    return np.array(cols).T.reshape(base.size, at[name].size)


def magnitude_directional(m, inputs: dict, directions: dict) -> np.ndarray:
    """Forward difference of the magnitude expression at |inputs| along |directions|."""
    at = at_magnitudes(inputs)
    h = min(step(at[n]).min() for n in directions)
    moved = {k: (v + h * np.abs(directions[k]) if k in directions else v) for k, v in at.items()}
    return (np.asarray(m(moved)) - np.asarray(m(at))) / h


def directional(f, inputs: dict, directions: dict, rounding=None):
    """(derivative of f along `directions`, its error estimate), both arrays of f's shape;
    `rounding` is f's rounding (as rounding_of measures it) where the caller measured it once."""
    h = min(step(inputs[n]).min() for n in directions)
    d1 = _directional_many(f, inputs, directions, h)
    d2 = _directional_many(f, inputs, directions, h / 2)
    rounding = rounding_of(f, inputs, directions) if rounding is None else rounding
    return d2, np.abs(d1 - d2) + rounding / h


def rounding_of(f, inputs: dict, directions: dict) -> np.ndarray:
    """What rounding adds to a difference quotient of f near `inputs`, times its step (_rounding):
    f's noise is f's, whichever input moves, so one measurement serves directions of each input."""
    return _rounding(f, inputs, directions, np.asarray(f(inputs)))


def noise(f, inputs: dict, directions: dict) -> np.ndarray:
    """The rounding noise of f's float64 evaluation near `inputs`, per output element, measured
    as Moré and Wild's ECnoise does ("Estimating computational noise", SIAM J. Sci. Comput. 33,
    2011): on a grid x + k delta v, delta far below the step and far above an ulp, the 6th
    differences of f are its rounding errors, not its curvature; for independent errors of
    deviation sigma they have variance C(12, 6) sigma^2. The largest of the grid's six, so that
    one small draw does not make the noise look small. (Where f is affine in x its errors can line
    up along the grid and vanish from the differences: _rounding keeps a floor.)"""
    scale = max(max(1.0, float(np.abs(inputs[n]).max(initial=0))) for n in directions)
    length = max(float(np.abs(v).max(initial=0)) for v in directions.values()) or 1.0
    delta = NOISE_SPACING * scale / length
    values = np.array([np.asarray(f({n: x + k * delta * directions[n] if n in directions else x
                                     for n, x in inputs.items()}), dtype=np.float64) for k in range(NOISE_GRID)])
    sixth = np.abs(np.diff(values, n=6, axis=0))
    return np.where(np.isfinite(sixth), sixth, 0.0).max(axis=0) / np.sqrt(924)


def _rounding(f, inputs, directions, out) -> np.ndarray:
    """What rounding adds to a central difference quotient at step h, times h: the measured noise
    of f (scaled by NOISE_FACTOR), and never less than 4 ulp of the largest |f|. |f| alone is not
    enough: f = a - b rounds with the magnitude of a and b, whatever a - b is."""
    floor = 4 * EPS * np.abs(out[np.isfinite(out)]).max(initial=0)
    return np.maximum(NOISE_FACTOR * noise(f, inputs, directions), floor)


def _alternating(x):
    return np.where(np.arange(x.size) % 2, -1.0, 1.0).reshape(x.shape)


def _basis(x, i):
    e = np.zeros(x.size)
    e[i] = 1.0
    return e.reshape(x.shape)


def _directional(f, inputs, name, v, h):
    return _directional_many(f, inputs, {name: v}, h)


def _directional_many(f, inputs, directions, h):
    plus = {k: (x + h * directions[k] if k in directions else x) for k, x in inputs.items()}
    minus = {k: (x - h * directions[k] if k in directions else x) for k, x in inputs.items()}
    return (np.asarray(f(plus), dtype=np.float64) - np.asarray(f(minus), dtype=np.float64)) / (2 * h)
