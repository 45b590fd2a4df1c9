"""erfc for GELU, which NumPy lacks: math.erfc per element where a float64 result needs its last
bits, and a vectorised one, to 1e-10 relative (under a thousandth of a float32 ulp), for results
of float32 and narrower: 9 to 19 ms for half a million elements, where math.erfc per element
takes 75 (measured here).

The vectorised one is Taylor's series of erfc about the nearest of the centres c = k / 64 in
[0, 4], whose derivatives are known in closed form: d^n/dz^n erfc(z) = (-1)^n 2 / sqrt(pi)
H_(n-1)(z) exp(-z^2), H the physicists' Hermite polynomials (H_0 = 1, H_1 = 2z, H_(n+1) =
2z H_n - 2n H_(n-1)). With |z - c| <= 1/128 five terms leave under 1e-10 relative (6.1e-11,
measured against math.erfc on grids of [-30, 30]; tests/test_engine_layers.py holds it). Beyond
4, Laplace's continued fraction erfc(z) = exp(-z^2) / sqrt(pi) / (z + (1/2) / (z + 1 / (z + (3/2)
/ (z + ...)))), 60 terms from the back. erfc(-z) = 2 - erfc(z).
"""
import math

import numpy as np

STEP = 1 / 64
TERMS = 5
FAR = 4.0  # where the continued fraction takes over
FRACTION_TERMS = 60


def _taylor_table() -> np.ndarray:
    """[TERMS + 1, centres]: row n holds erfc's n-th Taylor coefficient at each centre."""
    rows = []
    for c in np.arange(0, FAR + STEP, STEP):
        c = float(c)
        hermite = [1.0, 2 * c]
        for n in range(1, TERMS):
            hermite.append(2 * c * hermite[n] - 2 * n * hermite[n - 1])
        scale = 2 / math.sqrt(math.pi) * math.exp(-c * c)
        rows.append([math.erfc(c)] + [(-1) ** n * scale * hermite[n - 1] / math.factorial(n)
                                      for n in range(1, TERMS + 1)])
    return np.ascontiguousarray(np.array(rows).T)


TABLE = _taylor_table()
exact_erfc = np.vectorize(math.erfc, otypes=[np.float64])  # math.erfc is accurate to about 1 ulp


def erfc(z: np.ndarray) -> np.ndarray:
    """erfc of a float64 array to 1e-10 relative (6e-14 beyond |z| = 4)."""
    a = np.abs(z)
    near = a < FAR
    out = _series(a) if near.all() else np.empty_like(a)
    if not near.all():
        out[near] = _series(a[near])
        out[~near] = _continued_fraction(a[~near])
    return np.where(z < 0, 2 - out, out)


def _series(a: np.ndarray) -> np.ndarray:
    k = np.rint(a / STEP).astype(np.intp)
    h = a - k * STEP
    acc = TABLE[TERMS].take(k)
    for n in range(TERMS - 1, -1, -1):  # Horner, in place
        acc *= h
        acc += TABLE[n].take(k)
    return acc


def _continued_fraction(a: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore", invalid="ignore"):  # inf and NaN come through as erfc's
        fraction = np.zeros_like(a)
        for j in range(FRACTION_TERMS, 0, -1):
            fraction = (j / 2) / (a + fraction)
        return np.where(np.isinf(a), 0.0, np.exp(-a * a) / math.sqrt(math.pi) / (a + fraction))
