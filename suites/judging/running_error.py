"""Running error analysis (Higham, Accuracy and Stability of Numerical Algorithms, 3.3): a float64
value and a bound on the absolute error that computing it in a narrower dtype makes, carried
through every operation to first order, for one dtype's `Arithmetic`: its unit roundoff u and its
smallest normal number (a result below it may be flushed to zero, as XLA and TensorFlow do on CPU,
or lose its low bits as a subnormal).

The optimizers' bound (suites/judging/bound_rules.py) runs the reference's algorithms
(adapters/reference/optimizers.py) on these numbers. A sum-product bound would not do there: an
optimizer divides by a square root of its running averages and subtracts nearly equal numbers
(1 - beta2^t at t = 1 is 1 - 0.999; centered RMSprop's v - mean^2), where the error is
relative to what cancels, and the parameters take the error of every step before.

Each operation's result is rounded once (|error| <= u |result|, and up to one smallest normal
where the result is not zero) on top of what its operands carry. A hyperparameter is rounded to
the dtype (0.9 is not a float32), an integer is exact; the inputs (parameter and gradients,
drawn exactly representable) are exact.

The errors are absolute, not in units of u, because a square root's is not linear in its
operand's: at 0 (centered RMSprop's v - mean^2 where both underflow) the first-order d / (2 sqrt(x))
is infinite, and sqrt(d) holds.
"""
from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Arithmetic:
    """The dtype the analysis rounds to: its unit roundoff and smallest normal number."""
    u: float
    tiny: float

    def gamma(self, n) -> float:
        """gamma_n = n u / (1 - n u): the relative error bound of n roundings (Higham, ch. 3),
        infinite where n u reaches 1."""
        nu = n * self.u
        return nu / (1 - nu) if nu < 1 else np.inf

    def exact(self, x) -> "Tracked":
        return Tracked(x, np.zeros(np.shape(x)), self)

    def number(self, c) -> "Tracked":
        """A number the framework holds in the dtype under test: c rounded once, where an integer
        (1, 0, a step count) is exact."""
        if isinstance(c, Tracked):
            return c
        c = np.asarray(c, dtype=np.float64)
        return Tracked(c, np.where(c == np.round(c), 0.0, self.u * np.abs(c)), self)

    def rounding(self, value) -> np.ndarray:
        """The most one rounding of `value` to the dtype moves it: u |value|, and a smallest normal
        where it is not 0 (a flush to zero, a subnormal's lost bits)."""
        return self.u * np.abs(value) + self.tiny * (np.asarray(value) != 0)

    def rounded(self, value, carried) -> "Tracked":
        """The result `value`, whose operands' errors reach it as `carried`, once rounded."""
        value = np.asarray(value, dtype=np.float64)
        return Tracked(value, carried + self.rounding(value), self)


class Tracked:
    __array_priority__ = 200  # ndarray * Tracked goes to Tracked.__rmul__
    __slots__ = ("value", "error", "arithmetic")

    def __init__(self, value, error, arithmetic: Arithmetic):
        self.value = np.asarray(value, dtype=np.float64)
        self.error = np.asarray(error, dtype=np.float64)
        self.arithmetic = arithmetic

    def __add__(self, other):
        other = self.arithmetic.number(other)
        return self.arithmetic.rounded(self.value + other.value, self.error + other.error)

    __radd__ = __add__

    def __sub__(self, other):
        other = self.arithmetic.number(other)
        return self.arithmetic.rounded(self.value - other.value, self.error + other.error)

    def __rsub__(self, other):
        return self.arithmetic.number(other) - self

    def __neg__(self):
        return Tracked(-self.value, self.error, self.arithmetic)

    def __mul__(self, other):
        other = self.arithmetic.number(other)
        return self.arithmetic.rounded(self.value * other.value,
                                       np.abs(self.value) * other.error + np.abs(other.value) * self.error)

    __rmul__ = __mul__

    def __truediv__(self, other):
        """An exact zero divisor gives an exact infinity (max_norm / ||0||, which min(., 1) drops)."""
        other = self.arithmetic.number(other)
        exact = (other.value == 0) & (other.error == 0)
        with np.errstate(divide="ignore", invalid="ignore"):
            value = self.value / other.value
            carried = np.where(exact, 0.0, (self.error + np.abs(value) * other.error) / np.abs(other.value))
            result = self.arithmetic.rounded(value, carried)
        result.error = np.where(exact, 0.0, result.error)
        return result

    def __rtruediv__(self, other):
        return self.arithmetic.number(other) / self

    def __pow__(self, t: int):
        """x^t for a step count t: t times x's relative error, and up to t roundings (a
        framework may keep beta^t as a product it updates every step, as Paddle does)."""
        value = self.value ** t
        with np.errstate(divide="ignore", invalid="ignore"):
            carried = np.where(self.error == 0, 0.0, t * np.abs(value) * self.error / np.abs(self.value))
        return Tracked(value, carried + t * self.arithmetic.rounding(value), self.arithmetic)

    def sqrt(self):
        """sqrt(x + d) - sqrt(x) = d / (2 sqrt(x)) to first order, and never more than sqrt(d)
        (sqrt is subadditive): the first order is infinite at 0. One rounding."""
        value = np.sqrt(self.value)
        with np.errstate(divide="ignore", invalid="ignore"):
            carried = np.where(self.error == 0, 0.0, np.minimum(self.error / (2 * value), np.sqrt(self.error)))
        return self.arithmetic.rounded(value, carried)

    def maximum(self, other):
        """No rounding: the larger operand, with the larger of the two errors (near a tie the
        computed choice may be the other one, off by no more than its own error)."""
        other = self.arithmetic.number(other)
        return Tracked(np.maximum(self.value, other.value), np.maximum(self.error, other.error), self.arithmetic)

    def minimum(self, other):
        other = self.arithmetic.number(other)
        return Tracked(np.minimum(self.value, other.value), np.maximum(self.error, other.error), self.arithmetic)

    def sum(self):
        """The sum of every element: each of the n - 1 additions rounds a partial sum, at most
        the sum of the magnitudes (the classical bound, in any order of addition); a sum of
        exact zeros is exact."""
        n, magnitude = max(self.value.size - 1, 0), np.abs(self.value).sum()
        return Tracked(self.value.sum(), self.error.sum() + n * self.arithmetic.rounding(magnitude), self.arithmetic)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """np.sqrt, np.maximum and np.minimum, as the algorithms write them, and arithmetic with a NumPy
        number or array on the left."""
        if method != "__call__" or ufunc not in _UFUNCS:
            return NotImplemented
        first, *rest = inputs
        return getattr(self.arithmetic.number(first), _UFUNCS[ufunc])(*rest)


_UFUNCS = {np.sqrt: "sqrt", np.maximum: "maximum", np.minimum: "minimum", np.add: "__add__", np.subtract: "__sub__",
           np.multiply: "__mul__", np.true_divide: "__truediv__"}
