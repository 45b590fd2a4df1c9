"""Comparing a framework's result with the float64 reference, and the tolerances to do it with.

Tolerances come from floating-point error analysis, not from trial and error. For expressions
built from sums and products (matmul, add, mul, sum, ...) `error_bound` runs the classical
a-priori bound alongside the reference: |fl(x) - x| <= gamma_n * m, where m is the same
expression evaluated on absolute values (sub as add), n counts the roundings on the longest path
(the reduction length K for a matmul) and gamma_n = n*u / (1 - n*u) for the dtype's unit roundoff
u. Any summation order satisfies it, so a framework that fails it computed something else (a
TF32 matmul, a float16 accumulator, a wrong element). Other ops use a few ulp of the expected
value. A spec's own `tolerance` adds to either.

NaN and infinity positions are compared exactly, never through nan_to_num; integers and booleans
compare exactly.
"""
from dataclasses import dataclass, field

import numpy as np

from adapters.bfloat16 import bfloat16_values
from adapters.reference.collectives import Collectives
from suites.judging.bound import Bound
from suites.judging.bound_rules import RULES
from suites.judging.running_error import Arithmetic
from suites.programs import expr

# Binary formats: explicit mantissa bits and the exponent of the smallest normal number.
MANTISSA = {"float16": 10, "bfloat16": 7, "float32": 23, "float64": 52}
MIN_EXP = {"float16": -14, "bfloat16": -126, "float32": -126, "float64": -1022}
# A complex dtype is a pair of floats: its real and imaginary components' dtype
COMPONENT = {"complex64": "float32", "complex128": "float64"}
DEFAULT_ULPS = 4  # allowed error, in units of the expected value's ulp, for ops without a bound


def is_float(dtype: str) -> bool:
    return dtype in MANTISSA


def is_complex(dtype: str) -> bool:
    return dtype in COMPONENT


def is_inexact(dtype: str) -> bool:
    """A float or complex dtype: values rounded, judged within an error bound (integers and bools exactly)."""
    return is_float(dtype) or is_complex(dtype)


def widened(x) -> np.ndarray:
    """Values as the judge computes with them: float64, complex128 for complex ones."""
    x = np.asarray(x)
    return x.astype(np.complex128 if x.dtype.kind == "c" else np.float64)


def as_pairs(x) -> np.ndarray:
    """A complex array as float64 (real, imaginary) pairs along a new last axis, NumPy's and torch's
    view_as_real: a complex result is judged component by component, with the float judge's checks
    (NaN and infinity positions, signed zeros, the allowed error)."""
    x = np.asarray(x)
    return np.stack([x.real, x.imag], axis=-1).astype(np.float64)


def unit_roundoff(dtype: str) -> float:
    """u of a float dtype (of a complex one: of its components')."""
    return 2.0 ** -(MANTISSA[COMPONENT.get(dtype, dtype)] + 1)


def tiny(dtype: str) -> float:
    """The smallest normal number: the most a flush-to-zero can lose on one operation."""
    return 2.0 ** MIN_EXP[COMPONENT.get(dtype, dtype)]


def ulp(x, dtype: str):
    """Spacing of `dtype` numbers at |x| (float64 array; a complex dtype's: its components' at the modulus)."""
    dtype = COMPONENT.get(dtype, dtype)
    x = np.abs(np.asarray(x)).astype(np.float64)
    x = np.where(np.isfinite(x), x, 0.0)  # NaN and inf have no spacing; they compare by position
    with np.errstate(divide="ignore"):
        exponent = np.floor(np.log2(np.where(x > 0, x, 1.0)))
    exponent = np.maximum(np.where(x > 0, exponent, MIN_EXP[dtype]), MIN_EXP[dtype])
    return np.ldexp(1.0, (exponent - MANTISSA[dtype]).astype(int))


def cast(values, dtype: str) -> np.ndarray:
    """Exact values converted to an integer (or bool) dtype as C, NumPy and every framework
    convert them: integers wrap around modulo 2**bits (int8 100 + 100 is -56), floats truncate
    toward zero. Float dtypes: the values as they are (the error bound judges them)."""
    values = np.asarray(values)
    if is_inexact(dtype):
        return values
    with np.errstate(invalid="ignore"):
        return (np.trunc(values).astype(np.int64) if values.dtype.kind == "f" else values).astype(dtype)


def round_to(x, dtype: str) -> np.ndarray:
    """x rounded to the nearest `dtype` number, returned as float64 (complex128, or as ints / bools)."""
    x = np.asarray(x)
    if is_complex(dtype):  # each component rounded once, as the complex dtype's cast rounds it
        return x.astype(dtype).astype(np.complex128)
    if dtype == "bfloat16":
        return bfloat16_values(x)
    if is_float(dtype):
        return x.astype(dtype).astype(np.float64)
    return x.astype(dtype)


def written(values, dtype: str) -> np.ndarray:
    """Values a spec writes (an example's input, an expected or observed value) in `dtype`, as
    round_to gives them; integers exactly: NumPy makes a list that holds a value past int64's range
    float64 (2 ** 64 - 1 becomes 2 ** 64), so such a list is read as uint64. YAML has no complex
    numbers: a complex dtype's values are strings as Python's complex() reads them ("1+2j",
    "-0-0j", "nan+infj"), or real numbers."""
    if is_complex(dtype):
        return round_to(np.vectorize(_complex_number, otypes=[np.complex128])(np.asarray(values, dtype=object)), dtype)
    if is_float(dtype):
        return round_to(np.asarray(values, dtype=np.float64), dtype)
    numbers = [v for v in np.asarray(values, dtype=object).flat if isinstance(v, int)]
    past_int64 = any(v > np.iinfo(np.int64).max for v in numbers)
    if past_int64 and any(v < 0 for v in numbers):
        raise ValueError(f"the values {values} hold numbers past int64's range and negative ones: no dtype holds both")
    return round_to(np.asarray(values, dtype=np.uint64 if past_int64 else None), dtype)


def _complex_number(value) -> complex:
    """A value a spec writes for a complex dtype: a number, or a string as Python's complex() reads it."""
    try:
        return complex(value)
    except ValueError:
        raise ValueError(f"{value!r} is not a complex number as Python's complex() reads it (say '1+2j', "
                         f"'-0-0j', 'nan+infj')") from None


def overflowed(expected, dtype: str) -> np.ndarray:
    """Float64 reference values with those beyond `dtype`'s range as the infinities they round to
    (exp(89) is +inf in float32: IEEE 754 rounds an overflow to infinity); the others as they are."""
    expected = np.asarray(expected)
    if not is_float(dtype) or expected.dtype.kind != "f":
        return expected
    with np.errstate(over="ignore", invalid="ignore"):
        rounded = round_to(expected, dtype)
    return np.where(np.isinf(rounded) & np.isfinite(expected), rounded, expected)


class _Unbounded(Exception):
    """A rule's op, with these options, is outside the sum-product family."""


def sum_product_bound(tree, inputs: dict, behaviour=None, rounded=(), moved=None):
    """The Bound of `tree` on these float64 inputs, or None when it leaves the sum-product ops
    (an op without a rule, or a rule that returns None for the options given). The inputs named
    in `rounded` count one rounding each already: the framework may have used them unrounded.
    Those in `moved` (name -> how far each element may have moved: a quantisation's step) have
    their magnitudes widened by it: every rule's magnitude (but NOT_MAJORANTS') is a sum of
    products of its operands', so the tree's widened magnitude less its own bounds what the
    moves change (|f(x + d) - f(x)| <= M(|x| + |d|) - M(|x|) for such a polynomial M).
    With a documented behaviour (adapters/behaviours.py), its op's values and magnitudes are
    the model's of the operands' (bias_add: the same sum, broadcast another way), its roundings
    the op's own; with a framework's defaults, the op's rule with the parameters filled in."""
    if not expr.ops_in(tree) <= RULES.keys():
        return None

    def apply(op, args, kwargs):
        operands = [b for a in (*args, *kwargs.values()) for b in (a if isinstance(a, (list, tuple)) else [a])]
        if any(isinstance(b, Bound) and b.running is not None for b in operands):
            raise _Unbounded  # a running analysis' error has no magnitude to carry on: no bound
        if behaviour is not None and op == behaviour.op and behaviour.fill is not None:
            return RULES[op](*args, **behaviour.fill([getattr(a, "value", a) for a in args], kwargs))
        bound = RULES[op](*args, **kwargs)
        if bound is None:  # a rule that holds for some of its op's options only (scatter_reduce's sums)
            raise _Unbounded
        if behaviour is None or op != behaviour.op:
            return bound
        parts = [(a.value, a.magnitude) if isinstance(a, Bound) else (a, a) for a in args]
        return Bound(behaviour.model(*(v for v, _ in parts), **kwargs),
                     behaviour.model(*(m for _, m in parts), **kwargs), bound.n)

    def constant(c):
        c = np.float64(c)
        return Bound(c, np.abs(c), 0)

    moved = moved or {}
    env = {k: Bound(v, np.abs(v) + moved.get(k, 0.0), int(k in rounded)) for k, v in inputs.items()}
    try:
        return expr.evaluate(tree, env, apply, constant)
    except _Unbounded:
        return None



def gamma(n: int, dtype: str) -> float:
    """gamma_n of the dtype's arithmetic (running_error.Arithmetic.gamma), for callers that hold a dtype."""
    return arithmetic(dtype).gamma(n)


def error_bound(tree, inputs: dict, dtype: str, behaviour=None, rounded=(), quantised=()):
    """The allowed absolute error per element of `tree` evaluated in `dtype` on these (float64,
    exactly representable) inputs, or None when the tree leaves the sum-product ops; the inputs
    named in `rounded` may have been used before their rounding to `dtype` (sum_product_bound),
    those named in `quantised` after their quantisation to int8 (quantisation_steps)."""
    if quantised and expr.ops_in(tree) & NOT_MAJORANTS:
        return None
    bound = sum_product_bound(tree, inputs, behaviour, rounded) if is_float(dtype) else None
    if bound is None or quantised and bound.running is not None:
        return None
    if bound.running is not None:
        # and the reference's own float64 rounding, as tight as the framework's, and one smallest
        # normal: where the reference rounds a result to 0, the framework's may be a subnormal
        return bound.running(arithmetic(dtype)) + bound.running(arithmetic("float64")) + tiny(dtype)
    change = 0.0  # what the quantisation's moves may change
    if quantised:
        widened = sum_product_bound(tree, inputs, behaviour, rounded, quantisation_steps(inputs, quantised))
        bound, change = widened, widened.magnitude - bound.magnitude
    return _times_magnitude(gamma(bound.n, dtype), bound.magnitude) + bound.n * tiny(dtype) + change


# Int8 quantisation (a runtime's weights quantised per channel, its activations per tensor or per
# row, as LiteRT's dynamic-range kernels do): symmetric, to -127..127, a value moves by at most
# half a step, max|x| / 254 of its channel, row or tensor; asymmetric, to -128..127 with a zero
# point, by (max - min) / 510 <= max|x| / 255. So by max|x| / 254 of the whole tensor at most.
INT8_STEPS = 254
# The rules whose magnitude is no majorant of their op's change (a max of magnitudes: maximum(-10,
# 0) moves by 1 where b does, its magnitude max(10, 0) does not): no quantisation bound through them.
NOT_MAJORANTS = {"maximum", "minimum", "max_pool1d", "max_pool2d"}


def quantisation_steps(inputs: dict, quantised) -> dict:
    """How far quantisation may move each element of the inputs named: max|x| / INT8_STEPS."""
    return {k: np.max(np.abs(inputs[k]), initial=0.0) / INT8_STEPS for k in quantised}


def arithmetic(dtype: str) -> Arithmetic:
    """A running error analysis' rounding in `dtype` (suites/judging/running_error.py)."""
    return Arithmetic(unit_roundoff(dtype), tiny(dtype))


def collective_bound(name: str, params: dict, shards: np.ndarray, dtype: str):
    """Reductions over N ranks add N terms in an order of the runtime's choosing (ring, tree):
    gamma_N times the same reduction of |shards| (the mean's division one rounding more). Data
    movement and max must be exact."""
    if not is_float(dtype):
        return None
    op = params.get("op", "sum")
    if name not in ("all_reduce", "reduce_scatter", "cross_replica_reduce") or op == "max":
        return np.float64(0.0)
    n = len(shards)
    if params.get("axis") is not None and name == "cross_replica_reduce":
        n *= shards.shape[1 + params["axis"] % (shards.ndim - 1)]  # the entries along the axis too
    magnitude = np.stack(getattr(Collectives, name)(list(np.abs(shards)), **params))
    return _times_magnitude(gamma(n + (op == "mean"), dtype), magnitude) + n * tiny(dtype)


def _times_magnitude(g: float, magnitude):
    """gamma_n |terms|, where gamma may be inf (n u >= 1: bfloat16 sums of 256 terms have no
    bound) and a zero magnitude means every term was 0, so nothing was rounded; gamma_0, no
    rounding at all, is 0 whatever the magnitude (a max pool's window may hold an infinity)."""
    with np.errstate(invalid="ignore"):
        return np.where((np.asarray(magnitude) == 0) | (g == 0), 0.0, g * np.asarray(magnitude))


def allowed_error(expected, dtype: str, bound=None, tolerance=None):
    """Per-element allowed absolute error: the bound (or the spec's `ulp`, default DEFAULT_ULPS, ulp
    of the expected value, and the smallest normal number: a subnormal result may be flushed to
    zero, as XLA and TensorFlow do on CPU) plus the spec's own rtol / atol. For a complex dtype the
    same of its components' dtype, at the expected value's modulus: a complex result's error is
    bounded relative to its modulus, not to each component (a product's small real part may carry
    an error of the size of |a||b| u), and compare allows it on either component."""
    if is_complex(dtype):  # where the modulus is NaN or infinite, at the finite component's magnitude
        pairs = np.abs(as_pairs(expected))
        modulus = np.where(np.isfinite(pairs).all(axis=-1), np.abs(expected),
                           np.max(np.where(np.isfinite(pairs), pairs, 0.0), axis=-1, initial=0.0))
        return allowed_error(modulus, COMPONENT[dtype], bound, tolerance)
    if not is_float(dtype):
        return np.zeros_like(expected, dtype=np.float64)
    tolerance = tolerance or {}
    base = bound if bound is not None else tolerance.get("ulp", DEFAULT_ULPS) * ulp(expected, dtype) + tiny(dtype)
    with np.errstate(invalid="ignore"):  # at inf / NaN the allowed error is moot: positions compare
        return base + tolerance.get("atol", 0.0) + tolerance.get("rtol", 0.0) * np.abs(expected)


# ---------------------------------------------------------------------------------------------

@dataclass
class Comparison:
    ok: bool
    reason: str = ""
    max_abs_err: float | None = None
    max_rel_err: float | None = None
    ulp: float | None = None
    worst: tuple | None = None  # index of the worst element
    expected_at: float | None = None
    actual_at: float | None = None
    allowed_at: float | None = None
    around: dict | None = None  # a failure's neighbourhood along the last axis: index, expected, actual
    # a result of several parts (a model's layers): each part's errors (suites/judging/judge.py)
    parts: list | None = None
    # the allowed error per element, kept in memory (not recorded): a compiled result's
    # agreement with the eager one is judged by it (suites/judging/modes.py)
    allowed: object = field(default=None, repr=False)

    def summary(self) -> str:
        parts = [self.reason] if self.reason else []
        if self.max_abs_err is not None:
            parts.append(f"max_abs_err={self.max_abs_err:.3g}"
                         + (f" max_rel_err={self.max_rel_err:.3g}" if self.max_rel_err is not None else "")
                         + (f" ulp={self.ulp:.3g}" if self.ulp is not None else ""))
        if self.worst is not None:
            parts.append(f"worst element at {self.worst}: expected {self.expected_at!r}, got {self.actual_at!r}"
                         + (f", allowed error {self.allowed_at:.3g}" if self.allowed_at is not None else ""))
        return "; ".join(parts)


def layout(expected, actual, dtype: str, actual_dtype: str | None = None) -> Comparison:
    """Shape, then dtype: what is checked of values the framework may choose (a spec's `unspecified`)."""
    if np.shape(actual) != np.shape(expected):
        return Comparison(False, f"shape {np.shape(actual)}, expected {np.shape(expected)}")
    if actual_dtype is not None and actual_dtype != dtype:
        return Comparison(False, f"dtype {actual_dtype}, expected {dtype}")
    return Comparison(True)


def compare(expected, actual, dtype: str, allowed=None, actual_dtype: str | None = None,
            signed_zeros: bool = False) -> Comparison:
    """Shape, then dtype, then NaN/inf positions (and with `signed_zeros`, the sign of each zero
    expected where a zero came: a documented -0 is not +0), then values within `allowed`."""
    expected = np.asarray(expected)
    actual = np.asarray(actual)
    shaped = layout(expected, actual, dtype, actual_dtype)
    if not shaped.ok:
        return shaped
    if is_complex(dtype):  # component by component: a worst element's index ends with 0 (real) or 1 (imaginary)
        per_element = None if allowed is None else np.broadcast_to(allowed, expected.shape)
        result = compare(as_pairs(expected), as_pairs(actual), COMPONENT[dtype],
                         None if per_element is None else per_element[..., None], signed_zeros=signed_zeros)
        result.allowed = per_element  # per element, as a compiled result's agreement reads it (modes.py)
        return result
    if not is_float(dtype):
        return _compare_exact(expected, actual)
    e = expected.astype(np.float64)
    a = actual.astype(np.float64)
    checks = (("NaN", np.isnan), ("+inf", np.isposinf), ("-inf", np.isneginf))
    if signed_zeros:  # where both are zeros: a sign bit is -0's only mark
        checks += (("-0", lambda v: (e == 0) & (a == 0) & np.signbit(v)),)
    for name, mask in checks:
        differ = mask(e) != mask(a)
        if differ.any():
            i = _first(differ)
            return Comparison(False, f"{name} positions differ", worst=i,
                              expected_at=e[i].item(), actual_at=a[i].item(), around=neighbourhood(e, a, i))
    finite = np.isfinite(e)
    if not finite.any():
        return Comparison(True)
    allowed = np.broadcast_to(np.zeros(()) if allowed is None else allowed, e.shape)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        err = np.where(finite, np.abs(a - e), 0.0)
        # relative error and ulp mean something only where the value exceeds the error the judge
        # allows on it: at a zero, or a finite-difference gradient's noise, they read inf and 1e279
        scaled = finite & (np.abs(e) > allowed) & (e != 0)
        rel = np.where(scaled, err / np.where(scaled, np.abs(e), 1.0), 0.0)
        ulps = np.where(scaled, err / ulp(e, dtype), 0.0)
        excess = np.where(finite, err / np.where(allowed > 0, allowed, np.finfo(np.float64).tiny), 0.0)
    i = np.unravel_index(np.argmax(excess), e.shape) if e.size else ()
    i = tuple(int(j) for j in i)
    ok = bool(np.all((err <= allowed) | ~finite))
    return Comparison(
        ok, "" if ok else "values differ beyond the allowed error",
        max_abs_err=float(err.max()), max_rel_err=float(rel.max()) if scaled.any() else None,
        ulp=float(ulps.max()) if scaled.any() else None, worst=i,
        expected_at=e[i].item(), actual_at=a[i].item(), allowed_at=float(allowed[i]),
        around=None if ok else neighbourhood(e, a, i), allowed=allowed)


def _compare_exact(expected, actual) -> Comparison:
    differ = expected != actual
    if not differ.any():
        return Comparison(True, max_abs_err=0.0, max_rel_err=0.0)
    i = _first(differ)
    err = np.abs(expected.astype(np.float64) - actual.astype(np.float64))
    return Comparison(False, f"{int(differ.sum())} of {differ.size} elements differ", max_abs_err=float(err.max()),
                      max_rel_err=float((err / np.maximum(np.abs(expected), 1)).max()),
                      worst=i, expected_at=expected[i].item(), actual_at=actual[i].item(),
                      around=neighbourhood(expected, actual, i))


def neighbourhood(expected, actual, index: tuple, width: int = 3) -> dict:
    """The elements next to `index` along the last axis (width on each side), for a failure card:
    the index of the first one shown, and the expected and actual values there."""
    if not index:
        return {"start": [], "expected": [expected.item()], "actual": [actual.item()]}
    *lead, last = index
    lo, hi = max(last - width, 0), min(last + width + 1, expected.shape[-1])
    row = (*lead, slice(lo, hi))
    return {"start": [*lead, lo], "expected": expected[row].tolist(), "actual": actual[row].tolist()}


def _first(mask) -> tuple:
    return tuple(int(j) for j in np.argwhere(mask)[0]) if mask.ndim else ()


def worst(results: list) -> Comparison:
    """The first failing comparison, else the one with the largest relative error."""
    failing = [r for r in results if not r.ok]
    return failing[0] if failing else max(results, key=lambda r: r.max_rel_err or 0.0)
