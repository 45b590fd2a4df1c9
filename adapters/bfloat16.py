"""bfloat16 numbers for the adapters and the judge that compute with NumPy, which has no bfloat16
(ml_dtypes' registers one only where jax or TensorFlow ran): float64 values rounded once to the
nearest bfloat16 number, as the reference's oracle and compare.round_to need them."""
import numpy as np


def _float32_rounded_to_odd(x) -> np.ndarray:
    """x as float32 rounded toward zero, its last bit set where that was inexact ("round to odd"):
    rounding that to a format of 8 fraction bits fewer gives what rounding x once would, where
    float64 to float32 to bfloat16 rounds twice (1 + 2 ** -8 + 2 ** -30 is a tie in float32, and
    ties to 1 in bfloat16, not up to 1 + 2 ** -7)."""
    wide = np.array(x, dtype=np.float64, ndmin=1)
    with np.errstate(over="ignore", invalid="ignore"):
        narrow = wide.astype(np.float32)
        finite = np.isfinite(wide)
        away = finite & (np.abs(narrow.astype(np.float64)) > np.abs(wide))  # float32's overflow to inf too
        narrow = np.where(away, np.nextafter(narrow, np.float32(0)), narrow).astype(np.float32)
        inexact = finite & (narrow.astype(np.float64) != wide)
    return (narrow.view(np.uint32) | inexact.astype(np.uint32)).view(np.float32).reshape(np.shape(x))


def bfloat16_values(x) -> np.ndarray:
    """x rounded once to the nearest bfloat16 number, ties to even, as float64: round-to-nearest-even
    on the top 16 bits of x as a float32 rounded to odd (NumPy has no bfloat16 to round to)."""
    bits = _float32_rounded_to_odd(x).view(np.uint32).astype(np.uint64)
    bits = ((bits + 0x7FFF + ((bits >> 16) & 1)) & 0xFFFF0000).astype(np.uint32)
    return bits.view(np.float32).astype(np.float64)
