"""The reference's data type functions (vocabulary/dtypes.py), from the standard's text rather than
NumPy's (whose can_cast allows casts between kinds that the standard's promotion rules do not):
the type promotion table (https://data-apis.org/array-api/2024.12/API_specification/type_promotion.html)
as its rules read, finfo's numbers from each binary format's significand width and largest
exponent (IEEE 754-2019, table 3.5; bfloat16 float32's exponent with 8 significand bits), iinfo's
from the width, and isdtype's kinds as the standard lists them."""
import math

import numpy as np

from adapters.base import FLOATS, numpy_dtype

SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
# bits, significand bits p (the implicit one counted), largest exponent emax
FORMATS = {"float16": (16, 11, 15), "bfloat16": (16, 8, 127), "float32": (32, 24, 127), "float64": (64, 53, 1023)}
KIND_MEMBERS = {"bool": ("bool",), "signed integer": SIGNED, "unsigned integer": UNSIGNED,
                "integral": SIGNED + UNSIGNED, "real floating": FLOATS, "complex floating": (),
                "numeric": SIGNED + UNSIGNED + FLOATS}


def bits(dtype: str) -> int:
    """A real dtype's width: int16's and uint16's 16."""
    return FORMATS[dtype][0] if dtype in FORMATS else int(dtype.removeprefix("u").removeprefix("int"))


def promoted(a: str, b: str) -> str | None:
    """The standard's table: bool with bool; integers of one signedness to the wider; an unsigned and a
    signed one to the smallest signed integer that holds both (uint64 and a signed one: none); floats
    to the wider, float16 and bfloat16 to float32 (neither holds the other: NumPy's and ml_dtypes'
    rule for the dtypes the standard leaves out). Mixed kinds: None, no promotion."""
    if a == b:
        return a
    if a in FLOATS and b in FLOATS:
        return "float32" if {a, b} == {"float16", "bfloat16"} else max(a, b, key=bits)
    if a in SIGNED + UNSIGNED and b in SIGNED + UNSIGNED:
        if (a in SIGNED) == (b in SIGNED):
            return max(a, b, key=bits)
        signed, unsigned = (a, b) if a in SIGNED else (b, a)
        width = max(bits(signed), 2 * bits(unsigned))
        return f"int{width}" if width <= 64 else None
    return None


class DtypeReference:
    """A mixin of ReferenceAdapter. As the oracle it computes in a wide dtype (float64; int64 or
    uint64), and `described` is the dtype under test, which its result describes."""

    def finfo(self, dtype="float64", described=None):
        width, p, emax = FORMATS[described or dtype]
        eps = math.ldexp(1.0, 1 - p)
        largest = math.ldexp(2.0 - eps, emax)
        return np.array([width, eps, largest, -largest, math.ldexp(1.0, 1 - emax)]).astype(numpy_dtype(dtype))

    def iinfo(self, dtype="int64", described=None):
        described = described or dtype
        if described not in SIGNED + UNSIGNED:
            raise ValueError(f"iinfo: {described} is not an integer dtype")
        width = bits(described)
        top, bottom = (2 ** (width - 1) - 1, -2 ** (width - 1)) if described in SIGNED else (2 ** width - 1, 0)
        return np.array([width, top, bottom], dtype=np.dtype(dtype))

    def can_cast(self, x, to, described=None):
        return np.asarray(promoted(described or np.asarray(x).dtype.name, to) == to)

    def result_type(self, x, y):
        """x in the table's dtype of x's and y's; a Python number takes x's (the standard's rule for
        a scalar of a kind x's dtype holds). As the oracle, whose operands are widened, x as it is:
        the spec's result_dtype says the dtype, and the values are x's."""
        x = np.asarray(x)
        other = x.dtype.name if isinstance(y, (bool, int, float)) else np.asarray(y).dtype.name
        dtype = promoted(x.dtype.name, other)
        return x if dtype is None else x.astype(numpy_dtype(dtype))

    def isdtype(self, x, kind, described=None):
        dtype = described or np.asarray(x).dtype.name
        kinds = kind if isinstance(kind, (tuple, list)) else (kind,)
        return np.asarray(any(dtype == k or dtype in KIND_MEMBERS.get(k, ()) for k in kinds))
