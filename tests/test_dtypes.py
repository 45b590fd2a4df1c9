"""The reference's data type functions (adapters/reference/dtypes.py), written from the standard's
text, held to independent sources: NumPy 2, which follows the standard's promotion table wherever
it has an entry, NumPy's finfo and iinfo, and bfloat16's definition as float32's upper 16 bits."""
import itertools

import numpy as np
import pytest

from adapters.reference import ReferenceAdapter
from adapters.reference.dtypes import FLOATS, SIGNED, UNSIGNED, promoted

REF = ReferenceAdapter()
NUMPY = ("bool", *SIGNED, *UNSIGNED, "float16", "float32", "float64")
KINDS = ("bool", "signed integer", "unsigned integer", "integral", "real floating", "complex floating", "numeric")


def kind(dtype: str) -> str:
    return "bool" if dtype == "bool" else "float" if dtype in FLOATS else "integer"


@pytest.mark.parametrize("a, b", list(itertools.product(NUMPY, NUMPY)))
def test_the_table_is_numpys_where_the_standard_has_an_entry(a, b):
    mixed_kinds = kind(a) != kind(b)
    no_entry = {a, b} & {"uint64"} and {a, b} & set(SIGNED)
    if mixed_kinds or no_entry:
        assert promoted(a, b) is None
    else:
        assert promoted(a, b) == np.result_type(a, b).name


@pytest.mark.parametrize("a, b", list(itertools.product(NUMPY, NUMPY)))
def test_can_cast_is_numpys_within_a_kind_and_false_between_kinds(a, b):
    answer = bool(REF.can_cast(np.zeros(1), b, described=a))
    assert answer == (np.can_cast(a, b) if kind(a) == kind(b) else False)


def test_half_precision_promotes_to_float32_and_casts_to_neither():
    assert promoted("float16", "bfloat16") == promoted("bfloat16", "float16") == "float32"
    assert not REF.can_cast(np.zeros(1), "bfloat16", described="float16")
    assert REF.can_cast(np.zeros(1), "float32", described="bfloat16")


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_finfo_is_numpys(dtype):
    info = np.finfo(dtype)
    assert REF.finfo(dtype).tolist() == [info.bits, info.eps, info.max, info.min, info.smallest_normal]


def test_bfloat16s_finfo_is_float32s_upper_half():
    def float32_of_bits(bits):
        return float(np.array([bits], np.uint32).view(np.float32)[0])
    bits, eps, largest, smallest, normal = REF.finfo(described="bfloat16").tolist()
    assert bits == 16 and eps == 2.0 ** -7
    assert largest == float32_of_bits(0x7F7F0000) == -smallest  # exponent 254, the 7 fraction bits set
    assert normal == float32_of_bits(0x00800000) == np.finfo(np.float32).smallest_normal


@pytest.mark.parametrize("dtype", [*SIGNED, *UNSIGNED])
def test_iinfo_is_numpys_and_of_its_dtype(dtype):
    info, out = np.iinfo(dtype), REF.iinfo(dtype)
    assert out.dtype == np.dtype(dtype) and out.tolist() == [info.bits, info.max, info.min]


@pytest.mark.parametrize("dtype, kinds", list(itertools.product(NUMPY, [*KINDS, ("integral", "bool")])))
def test_isdtype_is_numpys(dtype, kinds):
    assert bool(REF.isdtype(np.zeros(1), kinds, described=dtype)) == np.isdtype(np.dtype(dtype), kinds)
