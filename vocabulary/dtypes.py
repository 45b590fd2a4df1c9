"""The Python Array API standard's data type functions (2024.12) beside astype (the op `cast`):
finfo, iinfo, can_cast, result_type and isdtype. Each op is the standard's function of the same
name, its semantics the standard's text: https://data-apis.org/array-api/2024.12/API_specification/data_type_functions.html

A dtype, a Python bool and a Python number are no tensors, and Parity judges tensors: each op
returns what the framework's function gave as the smallest tensor that holds it losslessly, in
the framework's own constructor. finfo's and iinfo's numbers are numbers of the dtype they
describe (the largest finite value is one by definition), so their tensor is of that dtype;
can_cast's and isdtype's answers are 0-d bools; result_type's dtype is carried by x converted to
it, as users write xp.astype(x, xp.result_type(x, y)), so the judge checks the dtype and x's
values (every conversion the standard's table makes is exact).

Where the standard's type promotion table has no entry (mixed kinds; uint64 with a signed
integer), can_cast is False, as the standard's own array-api-strict computes it (promote the two;
castable when the result is `to`; not promotable is not castable); float16 and bfloat16, which the
standard leaves out, promote as NumPy and ml_dtypes do: with each other to float32.
"""
from vocabulary.records import Op, values

PAGE = "https://data-apis.org/array-api/2024.12/API_specification/generated/array_api."
GROUP = "data types"
KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric")

DTYPE_OPS = [
    Op("finfo", "dtype='float64'", GROUP, f"The machine limits of a real floating dtype: [bits, eps, max, min, "
       f"smallest_normal] as a tensor of that dtype (each is one of its numbers): its width in bits, the gap "
       f"between 1 and the next number (2 ** (1 - p), p the significand's bits with the implicit one), the largest "
       f"finite number ((2 - eps) * 2 ** emax), its negative, and the smallest positive normal number "
       f"(2 ** (1 - emax)). ({PAGE}finfo.html)", lambda d: ([], {"dtype": d}), dtype_param=True, describes_dtype=True,
       bound="constant"),
    Op("iinfo", "dtype='int64'", GROUP, f"The machine limits of an integer dtype: [bits, max, min] as a tensor of "
       f"that dtype: its width in bits, its largest and its smallest value (2 ** (bits - 1) - 1 and -2 ** (bits "
       f"- 1) signed; 2 ** bits - 1 and 0 unsigned). ({PAGE}iinfo.html)", lambda d: ([], {"dtype": d}),
       dtype_param=True, describes_dtype=True),
    Op("can_cast", "x, to", GROUP, f"Whether x's dtype can be cast to `to` (a dtype name) by the standard's type "
       f"promotion rules, as a 0-d bool: True where result_type(x's dtype, to) is `to`, False where it is another "
       f"dtype or where the table promotes the two to nothing (mixed kinds: bool, integers and floats never cast "
       f"into one another; uint64 into a signed integer). ({PAGE}can_cast.html)",
       lambda d: ([values(d)], {"to": d}), zero_derivative=True, describes_dtype=True),
    Op("result_type", "x, y", GROUP, f"x converted to result_type(x, y), the dtype the standard's type promotion "
       f"table gives x's and y's (y a tensor or a Python number, weakly typed: x's dtype where it is of x's kind), "
       f"as users write astype(x, result_type(x, y)): the dtype is what is judged, the values are x's. "
       f"({PAGE}result_type.html)", lambda d: ([values(d), values(d)], {}), bound="structural"),
    Op("isdtype", "x, kind", GROUP, f"Whether x's dtype is of `kind`, as a 0-d bool: kind a dtype name, one of the "
       f"standard's kinds ({', '.join(repr(k) for k in KINDS)}; 'integral' is both integer kinds, 'numeric' every "
       f"dtype but bool), or a tuple of them (any). float16 and bfloat16 are 'real floating', as NumPy and jax "
       f"count them. ({PAGE}isdtype.html)", lambda d: ([values(d)], {"kind": "numeric"}), zero_derivative=True,
       describes_dtype=True),
]
