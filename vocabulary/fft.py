"""The Python Array API standard's fft extension's helper functions (2024.12): fftfreq, rfftfreq,
fftshift and ifftshift, the ones of real values (the transforms take complex dtypes, which Parity
does not run yet). Each op is the standard's function of the same name, its semantics the
standard's text: https://data-apis.org/array-api/2024.12/extensions/fourier_transform_functions.html

fftfreq and rfftfreq take no tensor: their result's dtype is a parameter (the runner passes the
dtype under test), n and d Python numbers, as users write them. fftshift and ifftshift move
values only; they differ where an axis' length is odd (fftshift rolls by n // 2, ifftshift by
-(n // 2)), which is the regime the specs run.
"""
from vocabulary.records import Op, values

PAGE = "https://data-apis.org/array-api/2024.12/extensions/generated/array_api.fft."
GROUP = "fft"

FFT_OPS = [
    Op("fftfreq", "n, d=1.0, dtype='float64'", GROUP, f"The discrete Fourier transform's sample frequencies "
       f"for a window of length n and sample spacing d: [0, 1, ..., n/2 - 1, -n/2, ..., -1] / (d n) for an even "
       f"n, [0, 1, ..., (n - 1)/2, -(n - 1)/2, ..., -1] / (d n) for an odd one; worked out exactly from the "
       f"Python numbers given, then rounded to dtype (a real floating dtype). ({PAGE}fftfreq.html)",
       lambda d: ([8], {"d": 0.1, "dtype": d}), dtype_param=True, bound="fftfreq"),
    Op("rfftfreq", "n, d=1.0, dtype='float64'", GROUP, f"The sample frequencies of rfft's result for a window "
       f"of length n and sample spacing d: [0, 1, ..., n // 2] / (d n), n // 2 + 1 of them; worked out exactly "
       f"from the Python numbers given, then rounded to dtype (a real floating dtype). ({PAGE}rfftfreq.html)",
       lambda d: ([8], {"d": 0.1, "dtype": d}), dtype_param=True, bound="fftfreq"),
    Op("fftshift", "x, axes=None", GROUP, f"x with the zero-frequency component moved to the middle: each axis "
       f"named (an int or a tuple; None: every axis) rolled by its length // 2, so that fftfreq's result "
       f"shifted runs from the most negative frequency up. ({PAGE}fftshift.html)",
       lambda d: ([values(d, (2, 3))], {}), bound="structural"),
    Op("ifftshift", "x, axes=None", GROUP, f"fftshift's inverse: each axis named (an int or a tuple; None: every "
       f"axis) rolled by -(its length // 2); it differs from fftshift where a length is odd. "
       f"({PAGE}ifftshift.html)", lambda d: ([values(d, (2, 3))], {}), bound="structural"),
]

FREQUENCY_OPS = ("fftfreq", "rfftfreq")  # a real floating dtype only (the standard's dtype parameter)
