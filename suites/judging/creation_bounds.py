"""The sum-product error bound's rules for the creation functions whose values are computed
(arange, linspace, and the fft extension's fftfreq and rfftfreq) and for constants (finfo's
numbers, from_python's): as suites/judging/bound_rules.py's, each carries (value, magnitude,
roundings) through its op. A framework computes these values in the dtype it returns, from
either end (torch's linspace fills its second half back from stop), so arange's and linspace's
errors are absolute, a few roundings of the endpoints' and the step's sizes, not relative to the
value: a value near 0 between -1000 and 1000 is as far off as one near 1000. A frequency is one
product, so its error is relative."""
import numpy as np

from suites.judging.bound import REFERENCE, Bound


def _number(bound) -> float:
    return float(np.asarray(bound.value))


def _arange(op):
    """out[i] = start + i * step: a product and a sum (two roundings), of magnitude |start| + i |step|
    (a framework that added the step up instead would round once per step taken: a finding)."""
    def rule(start, stop=None, step=None, **_):
        first, last, by = (0.0, _number(start), 1.0) if stop is None else (
            _number(start), _number(stop), 1.0 if step is None else _number(step))
        value = REFERENCE.arange(first, last, by, dtype="float64")
        i = np.arange(value.size)
        return Bound(value, abs(first) + i * abs(by), 2)
    return rule


def _linspace(op):
    """start + i (stop - start) / d, or stop - (num - 1 - i) (stop - start) / d from the other
    end: four roundings (the difference, the division, the product, the sum) of magnitudes at
    most |start| + |stop| each, so 2 (|start| + |stop|) bounds every term's size."""
    def rule(start, stop, num, endpoint=True, **_):
        value = REFERENCE.linspace(_number(start), _number(stop), int(np.asarray(getattr(num, "value", num))),
                                   endpoint, dtype="float64")
        size = 2 * (abs(_number(start)) + abs(_number(stop)))
        return Bound(value, np.full(value.shape, size), 4)
    return rule


def _fftfreq(op):
    """fftfreq's and rfftfreq's k / (d n): d n, its reciprocal (or the quotient, jnp's k / (d n)) and
    the product k * (1 / (d n)), three roundings of the value's own size (relative: one product of
    an exact integer, so a frequency near 0 is near 0 exactly)."""
    def rule(n, d=None, **_):
        count, spacing = (np.asarray(getattr(a, "value", a)) for a in (n, 1.0 if d is None else d))
        value = getattr(REFERENCE, op)(int(count), float(spacing), dtype="float64")
        return Bound(value, np.abs(value), 3)
    return rule


def _constant(op):
    """finfo: numbers of the format itself, each of which its dtype holds; from_python: Python
    numbers, each rounded to the dtype once, which the expected value is already. No error of the
    op's own (a framework's eps a rounding away from 2 ** (1 - p) is a wrong eps, and a number
    rounded twice, through float32 to float16, may be one ulp off)."""
    def rule(*args, **kwargs):
        value = np.asarray(getattr(REFERENCE, op)(*(getattr(a, "value", a) for a in args), **kwargs), np.float64)
        return Bound(value, np.abs(value), 0)
    return rule


FAMILIES = {"arange": _arange, "linspace": _linspace, "fftfreq": _fftfreq, "constant": _constant}
