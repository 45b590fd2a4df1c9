"""The Python Array API standard's elementwise math (2024.12, "Element-wise Functions") beyond the
basics of vocabulary/__init__.py: the trigonometric and hyperbolic families, the exponential and
logarithmic ones, division's floor and remainder, the tests of a float's class and sign, and the
comparisons, logical and bitwise operations (LOGIC_OPS); and a complex number's conjugate and
components (conj, real, imag: the ops whose complex dtypes are judged, docs/array-api.md).

Each op is the standard's function of the same name. Its semantics are the standard's text,
special cases included: for a real-valued x, the standard lists what each special value must give
(NaN, the signed zeros, the infinities, the domain's edges), and specs/math.yaml holds every listed
case as a named example. The standard's functions are documented at
https://data-apis.org/array-api/2024.12/API_specification/elementwise_functions.html.
"""
from vocabulary.records import Op, binary, unary

STANDARD = "https://data-apis.org/array-api/2024.12/API_specification/generated/array_api."
BROADCAST = "Elementwise, NumPy broadcasting, the operands' promoted dtype."
DOMAIN = "Outside its domain the result is NaN; the standard's special cases hold (specs/math.yaml)."


def _unary(name, semantics, **flags):
    return Op(name, "x", "elementwise math", f"{semantics} {DOMAIN} ({STANDARD}{name}.html)", unary, **flags)


def _binary(name, semantics, **flags):
    return Op(name, "x1, x2", "elementwise math", f"{semantics} {BROADCAST} ({STANDARD}{name}.html)", binary,
              **flags)


def _component(name, semantics):
    """A function of a complex number's components (conj, real, imag): judged in the complex dtypes too."""
    return Op(name, "x", "elementwise math", f"{semantics} ({STANDARD}{name}.html)", unary, complex_dtypes=True)


def _test(name, semantics):
    """A test of each element (isnan, signbit...): a bool result, without a derivative."""
    return Op(name, "x", "elementwise math", f"{semantics} A bool tensor of x's shape ({STANDARD}{name}.html)",
              unary, zero_derivative=True)


ELEMENTWISE_OPS = [
    _unary("sin", "Sine of x in radians."),
    _unary("cos", "Cosine of x in radians."),
    _unary("tan", "Tangent of x in radians."),
    _unary("asin", "Principal arcsine, in [-pi/2, pi/2]; domain [-1, 1]."),
    _unary("acos", "Principal arccosine, in [0, pi]; domain [-1, 1]."),
    _unary("atan", "Principal arctangent, in [-pi/2, pi/2]."),
    _binary("atan2", "The angle of the point (x2, x1) in radians, in [-pi, pi]: the arctangent of x1 / x2 in "
                     "the quadrant of the signs of x1 and x2 (the signs of zeros count); x1 is the y "
                     "coordinate, as in C's atan2(y, x)."),
    _unary("sinh", "Hyperbolic sine."),
    _unary("cosh", "Hyperbolic cosine."),
    _unary("asinh", "Inverse hyperbolic sine."),
    _unary("acosh", "Inverse hyperbolic cosine, >= 0; domain [1, inf]."),
    _unary("atanh", "Inverse hyperbolic tangent; domain [-1, 1], +-inf at +-1."),
    _unary("expm1", "exp(x) - 1, accurate where x is near 0 (no cancellation)."),
    _unary("log1p", "log(1 + x), accurate where x is near 0; domain [-1, inf]."),
    _unary("log2", "Base-2 logarithm."),
    _unary("log10", "Base-10 logarithm."),
    _unary("reciprocal", "1 / x (the standard's reciprocal, 2024.12)."),
    _binary("logaddexp", "log(exp(x1) + exp(x2)), without overflow where either is large."),
    _binary("hypot", "sqrt(x1 ** 2 + x2 ** 2) without overflow or underflow in the squares."),
    _binary("copysign", "The magnitude of x1 with the sign of x2 (a zero's sign counts)."),
    _binary("nextafter", "The next float after x1 in the direction of x2, in the operands' dtype (x2 where "
                         "they are equal).", zero_derivative=True),
    _binary("floor_divide", "floor(x1 / x2) as the standard states it: the quotient rounded toward -inf; for "
                            "integers, Python's //. An integer division by zero is the standard's unspecified "
                            "case. Models write it x1 // x2.", number_operands=True, zero_derivative=True),
    _binary("remainder", "x1 - floor_divide(x1, x2) * x2: the remainder with x2's sign (Python's %, "
                         "numpy.remainder; not C's fmod, which takes x1's). Models write it x1 % x2.",
            number_operands=True),
    _component("conj", "The complex conjugate a - bj of each element a + bj of x: its imaginary component "
                       "negated, a zero's sign too (conj(1 + 0j) is 1 - 0j, conj(nan + infj) nan - infj), in x's "
                       "dtype; a real x is its own conjugate (2024.12 takes every numeric dtype)."),
    _component("real", "The real component a of each element a + bj of x, in the floating dtype of x's precision "
                       "(complex64: float32, complex128: float64), NaN, infinities and signed zeros as they are; a "
                       "real floating x as it is (2024.12 takes real dtypes too)."),
    _component("imag", "The imaginary component b of each element a + bj of x, in the floating dtype of x's "
                       "precision (complex64: float32, complex128: float64), NaN, infinities and signed zeros as "
                       "they are; x must be complex (2024.12 leaves real dtypes out)."),
    _test("isnan", "True where x is NaN."),
    _test("isinf", "True where x is +inf or -inf."),
    _test("isfinite", "True where x is neither NaN nor infinite."),
    _test("signbit", "True where x's sign bit is set: -0 and negative values (and a NaN with its sign bit "
                     "set)."),
]


def _compare(name, operator):
    """A comparison: a bool tensor, written with its Python operator in expressions."""
    return Op(name, "x1, x2", "comparisons, logic and bits",
              f"x1 {operator} x2: a bool tensor (without a derivative), by IEEE 754's comparisons: NaN is "
              f"unordered (every comparison with it is False, != True) and -0 equals +0. Written "
              f"`x1 {operator} x2` in expressions. "
              f"Elementwise, NumPy broadcasting ({STANDARD}{name}.html)", binary, number_operands=True,
              zero_derivative=True)


def _logical(name, semantics, sample=binary):
    return Op(name, "x1, x2" if sample is binary else "x", "comparisons, logic and bits",
              f"{semantics} A bool result; the standard asks for bool operands and lets a library take numbers, "
              f"zero (-0 included) as False and every other value (NaN included) as True ({STANDARD}{name}.html)",
              sample, zero_derivative=True)


def _bitwise(name, semantics, sample=binary):
    return Op(name, "x1, x2" if sample is binary else "x", "comparisons, logic and bits",
              f"{semantics} Integer operands in two's complement (and bool for and, or, xor and invert). "
              f"{BROADCAST} ({STANDARD}{name}.html)", sample,
              number_operands=True, zero_derivative=True)


LOGIC_OPS = [
    _compare("equal", "=="),
    _compare("not_equal", "!="),
    _compare("less", "<"),
    _compare("less_equal", "<="),
    _compare("greater_equal", ">="),
    _logical("logical_and", "x1 AND x2."),
    _logical("logical_or", "x1 OR x2."),
    _logical("logical_xor", "x1 XOR x2: True where exactly one is True."),
    _logical("logical_not", "NOT x.", sample=unary),
    _bitwise("bitwise_and", "x1 & x2, bit by bit."),
    _bitwise("bitwise_or", "x1 | x2, bit by bit."),
    _bitwise("bitwise_xor", "x1 ^ x2, bit by bit."),
    _bitwise("bitwise_invert", "~x: every bit flipped (-x - 1 for a signed integer, NOT for bool).", sample=unary),
    _bitwise("bitwise_left_shift", "x1 << x2: x2 (>= 0) zeros appended on the right, the bits past the dtype's "
                                   "width dropped (x1 * 2 ** x2 wrapped to the dtype); a shift by the width or more "
                                   "gives 0, which the standard leaves unstated: Parity expects the arithmetic."),
    _bitwise("bitwise_right_shift", "x1 >> x2: an arithmetic (sign-propagating) shift, floor(x1 / 2 ** x2); a "
                                    "shift by the width or more gives 0, or -1 for a negative x1 (the standard "
                                    "leaves it unstated: Parity expects the arithmetic)."),
    Op("positive", "x", "comparisons, logic and bits", f"+x: x unchanged, in its own dtype (-0 stays -0) "
       f"({STANDARD}positive.html)", unary, bound="exact"),
]
