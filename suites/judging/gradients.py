"""Gradients by central finite differences of the float64 reference: the oracle for autodiff.

Small inputs get the full Jacobian (one reverse pass per output element against one pair of
evaluations per input element); larger ones a random-direction check in the manner of jax's
check_grads: <vjp(c), v> against <c, (f(x + h v) - f(x - h v)) / 2h>. The differences run in
float64 on the reference, so the step is float64's, h = cbrt(eps) * max(1, |x|); the
tolerance is the adapter dtype's (suites/judging/compare.py) plus an estimate of the difference
quotient's own error: rounding of f (its noise, measured on a tiny grid as ECnoise does, over
h), rounding of x + h (eps * (|x| + h) / h times the derivative's magnitude) and truncation (the
change from h to h/2). Where that estimate is no smaller than the quotient itself the step
resolved nothing (a pole or a kink within h of x: d(1/a)/da at a = 4.7e-38 is -4.5e74, the
quotient at h = 6e-6 is 1.1e11, an error estimate of 3e27 that admits any finite gradient), and
inputs below 1 in magnitude are tried at the step relative to them alone (refined).

The magnitude of a sum-product expression's derivative comes from forward differences of its
magnitude expression at |x| (magnitude_jacobian): its coefficients are all positive, so the
forward difference bounds the derivative from above, and |x| keeps clear of abs's kink at 0.
"""
import functools

import numpy as np

EPS = np.finfo(np.float64).eps
FULL_JACOBIAN_LIMIT = 64  # inputs x outputs elements up to which the whole Jacobian is compared
NOISE_GRID = 12  # points of the grid whose 6th differences measure f's rounding noise
NOISE_SPACING = 1e-7  # the grid's spacing, relative: far below the step, far above an ulp
NOISE_FACTOR = 8  # rounding error of a difference quotient at step h/2, in noise levels / h
RESOLVED = 0.5  # a quotient resolves the derivative where its error estimate is below this share of it


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

    @functools.cache
    def rounding(scale=None):
        return np.maximum(_rounding(f, inputs, {name: np.ones_like(x)}, out, scale),
                          _rounding(f, inputs, {name: _alternating(x)}, out, scale))

    for i in range(x.size):
        d, e = refined(lambda step: _directional(f, inputs, name, _basis(x, i), step), h[i], rounding,
                       abs(x.flat[i]))
        jac[:, i], err[:, i] = d.ravel(), e.ravel()
    return jac, err


def refined(quotient, h: float, rounding, scale: float):
    """(quotient(h / 2), its error estimate) at step h, where that estimate is below RESOLVED of
    the quotient (per output, the largest of each); else, for inputs of magnitude `scale` below 1,
    at the step relative to it alone, cbrt(eps) * scale (a pole at 0, as 1/a's, varies on the
    scale of |a|), its noise measured on that scale too, where that resolves more: the step of
    the smaller share. Where h passes the inputs' magnitude it swamps them (solve(a, b) with a's
    entries near 1e-10 moved by 6e-6 is solve of the step), and its two quotients may agree on a
    wrong value (1e12 for 1e20): there the relative step wins wherever it resolves a change (a
    product of three 1e-113s underflows to 0 at it, where h sees the derivative). rounding(scale)
    is f's rounding (_rounding) measured on a scale (None: 1). A quotient 0 at both steps (f does
    not move) is checked at the relative step too, where the step swamps the inputs: solve(a + h v,
    b + h w) with a's entries near 1e-37 is solve(h v, h w), the same on either side, and the
    derivative is not 0."""
    first = _quotient(quotient, h, rounding())
    still = not np.any(first[0])
    swamped = 0 < scale < h  # the step passes the inputs themselves: what it measures is not f near x
    if (first[2] < RESOLVED and not still and not swamped) or not 0 < scale < 1:
        return first[:2]
    small = np.cbrt(EPS) * scale
    if still and not np.any(quotient(small)) and not np.any(quotient(small / 2)):
        return first[:2]
    second = _quotient(quotient, small, rounding(scale))
    if swamped and not still:  # unless f underflows at that scale, where the relative step sees no change
        better = second[2] < RESOLVED and bool(np.any(second[0]))
    else:
        better = second[2] < RESOLVED if still else second[2] < first[2]
    return (second if better else first)[:2]


def _quotient(quotient, h: float, rounding):
    """(quotient(h / 2), its error estimate, the estimate's share of it): 0 where both quotients
    are 0 (f does not move within h: relu below 0, a mask), inf where the quotient is 0 or NaN.
    An element whose quotients overflow to one infinity at both steps is resolved as it (-1/a^2
    at a = 1e-202 is -1e404 in float64), with no error."""
    d1, d2 = quotient(h), quotient(h / 2)
    overflowed = np.isinf(d2) & (d1 == d2)
    with np.errstate(invalid="ignore"):
        err = np.where(overflowed, 0.0, np.abs(d1 - d2) + rounding / h)
    if not np.any(d1) and not np.any(d2):
        return d2, err, 0.0
    magnitude = float(np.abs(np.where(overflowed, 0.0, d2)).max(initial=0))
    largest = float(err.max(initial=0))
    share = largest / magnitude if magnitude else (0.0 if largest == 0 and np.all(overflowed | (d2 == 0)) else np.inf)
    return d2, err, share if np.isfinite(share) else np.inf  # NaN: x - h left f's domain (log at 1e-38)


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
    measured = rounding

    def rounding(scale=None):
        if scale is None and measured is not None:
            return measured
        return _rounding(f, inputs, directions, np.asarray(f(inputs)), scale)

    scales = [float(np.abs(inputs[n]).max(initial=0)) for n in directions]
    swamped = any(0 < s < 1 for s in scales) and (max(scales) >= 1 or any(0 < s < h for s in scales))
    if swamped and len(scales) > 1:  # one input alone is refined's to size (and _summed would call this again)
        return _summed(f, inputs, directions, measured)
    return refined(lambda step: _directional_many(f, inputs, directions, step), h, rounding, max(scales))


def _summed(f, inputs: dict, directions: dict, rounding):
    """The directional derivative as the sum of each input's own: where one input lies below 1 in
    magnitude and another reaches it, one step along all is sized by the larger (step) and may swamp
    the smaller, whose relative step (refined) is then out of reach: solve(a, b) with a near 1e-37
    and b of 1s gave -1.4e11 for d/da's -7e73, its error estimate (4e41) no warning. Likewise where
    every input lies below 1 but the step passes one of them (a near 1e-10, b of 0.5)."""
    parts = [directional(f, inputs, {n: v}, rounding) for n, v in directions.items()]
    return sum(d for d, _ in parts), sum(e for _, e in parts)


def rounding_of(f, inputs: dict, directions: dict) -> np.ndarray:
    """What rounding adds to a difference quotient of f near `inputs`, times its step (_rounding):
    f's noise is f's, whichever input moves, so one measurement serves directions of each input."""
    return _rounding(f, inputs, directions, np.asarray(f(inputs)))


def noise(f, inputs: dict, directions: dict, scale: float | None = None) -> np.ndarray:
    """The rounding noise of f's float64 evaluation near `inputs`, per output element, measured
    as Moré and Wild's ECnoise does ("Estimating computational noise", SIAM J. Sci. Comput. 33,
    2011): on a grid x + k delta v, delta far below the step and far above an ulp, the 6th
    differences of f are its rounding errors, not its curvature; for independent errors of
    deviation sigma they have variance C(12, 6) sigma^2. The largest of the grid's six, so that
    one small draw does not make the noise look small. (Where f is affine in x its errors can line
    up along the grid and vanish from the differences: _rounding keeps a floor.) The grid's
    spacing is relative to `scale`, by default the inputs' magnitude and at least 1."""
    if scale is None:
        scale = max(max(1.0, float(np.abs(inputs[n]).max(initial=0))) for n in directions)
    length = max(float(np.abs(v).max(initial=0)) for v in directions.values()) or 1.0
    delta = NOISE_SPACING * scale / length
    values = [_within_domain(f, {n: x + k * delta * directions[n] if n in directions else x
                                 for n, x in inputs.items()}) for k in range(NOISE_GRID)]
    shape = next((np.shape(v) for v in values if v is not None), ())
    values = np.array([np.full(shape, np.nan) if v is None else v for v in values])
    sixth = np.abs(np.diff(values, n=6, axis=0))
    return np.where(np.isfinite(sixth), sixth, 0.0).max(axis=0) / np.sqrt(924)


def _within_domain(f, point):
    """f at a grid point, None where the point left f's domain: a matrix whose tiny entries the
    grid's spacing rounded to a singular one (NumPy raises), as log's NaN below 0, shows no noise."""
    try:
        return np.asarray(f(point), dtype=np.float64)
    except np.linalg.LinAlgError:
        return None


def _rounding(f, inputs, directions, out, scale=None) -> np.ndarray:
    """What rounding adds to a central difference quotient at step h, times h: the measured noise
    of f (scaled by NOISE_FACTOR), and never less than 4 ulp of the largest |f|. |f| alone is not
    enough: f = a - b rounds with the magnitude of a and b, whatever a - b is."""
    floor = 4 * EPS * np.abs(out[np.isfinite(out)]).max(initial=0)
    return np.maximum(NOISE_FACTOR * noise(f, inputs, directions, scale), floor)


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
    with np.errstate(over="ignore"):  # a derivative past float64's range: _quotient resolves it as infinity
        return (np.asarray(f(plus), dtype=np.float64) - np.asarray(f(minus), dtype=np.float64)) / (2 * h)
