"""Running error analysis (Higham, Accuracy and Stability of Numerical Algorithms, 3.3): a float64
value and a bound on the error that computing it in a narrower dtype makes, carried through every
operation to first order, in two parts: `error` in units of that dtype's unit roundoff u, and
`flushed` in units of its smallest normal number (a result below it may be flushed to zero, as
XLA and TensorFlow do on CPU, or lose its low bits as a subnormal).

The optimizers' bound (suites/judging/bound_rules.py) runs the reference's algorithms
(adapters/reference_optimizers.py) on these numbers. A sum-product bound would not do there: an
optimizer divides by a square root of its running averages and subtracts nearly equal numbers
(1 - beta2^t at t = 1 is 1 - 0.999; centered RMSprop's v - mean^2), where the error is
relative to what cancels, and the parameters take the error of every step before.

Each operation's result is rounded once (|error| <= u |result|, and up to one smallest normal
where the result is not zero) on top of what its operands carry. A hyperparameter is rounded to
the dtype (0.9 is not a float32), an integer is exact; the inputs (parameter and gradients,
drawn exactly representable) are exact.
"""
import numpy as np


def _rounding(x) -> np.ndarray:
    """The error, in u, of x once rounded to the dtype: none for integers (1, 0, a step count)."""
    x = np.asarray(x, dtype=np.float64)
    return np.where(x == np.round(x), 0.0, np.abs(x))


class Tracked:
    __array_priority__ = 200  # ndarray * Tracked goes to Tracked.__rmul__
    __slots__ = ("value", "error", "flushed")

    def __init__(self, value, error, flushed=0.0):
        self.value = np.asarray(value, dtype=np.float64)
        self.error = np.asarray(error, dtype=np.float64)
        self.flushed = np.asarray(flushed, dtype=np.float64)

    @classmethod
    def exact(cls, x) -> "Tracked":
        return cls(x, np.zeros(np.shape(x)))

    @classmethod
    def constant(cls, c) -> "Tracked":
        """A number the framework holds in the dtype under test: c rounded once."""
        return c if isinstance(c, Tracked) else cls(c, _rounding(c))

    @staticmethod
    def _rounded(value, carry) -> "Tracked":
        """The result `value` whose operands' errors reach it as carry(error of each) does, once rounded."""
        nonzero = np.asarray(value) != 0
        return Tracked(value, carry("error") + np.abs(value), carry("flushed") + nonzero)

    def __add__(self, other):
        other = Tracked.constant(other)
        return self._rounded(self.value + other.value, lambda part: getattr(self, part) + getattr(other, part))

    __radd__ = __add__

    def __sub__(self, other):
        other = Tracked.constant(other)
        return self._rounded(self.value - other.value, lambda part: getattr(self, part) + getattr(other, part))

    def __rsub__(self, other):
        return Tracked.constant(other) - self

    def __neg__(self):
        return Tracked(-self.value, self.error, self.flushed)

    def __mul__(self, other):
        other = Tracked.constant(other)
        return self._rounded(self.value * other.value, lambda part: np.abs(self.value) * getattr(other, part)
                             + np.abs(other.value) * getattr(self, part))

    __rmul__ = __mul__

    def __truediv__(self, other):
        """An exact zero divisor gives an exact infinity (max_norm / ||0||, which min(., 1) drops)."""
        other = Tracked.constant(other)
        exact = (other.value == 0) & (other.error == 0) & (other.flushed == 0)

        def carry(part):
            return np.where(exact, 0.0, (getattr(self, part) + np.abs(value) * getattr(other, part))
                            / np.abs(other.value))
        with np.errstate(divide="ignore", invalid="ignore"):
            value = self.value / other.value
            result = self._rounded(value, carry)
        result.error, result.flushed = (np.where(exact, 0.0, e) for e in (result.error, result.flushed))
        return result

    def __rtruediv__(self, other):
        return Tracked.constant(other) / self

    def __pow__(self, t: int):
        """x^t for a step count t: t times x's relative error, and up to t roundings (a
        framework may keep beta^t as a product it updates every step, as Paddle does)."""
        value = self.value ** t

        def carry(part):
            error = getattr(self, part)
            return np.where(error == 0, 0.0, t * np.abs(value) * error / np.abs(self.value))
        with np.errstate(divide="ignore", invalid="ignore"):
            return Tracked(value, carry("error") + t * np.abs(value), carry("flushed") + t * (value != 0))

    def sqrt(self):
        """sqrt(x + d) - sqrt(x) = d / (2 sqrt(x)) to first order, and one rounding."""
        value = np.sqrt(self.value)

        def carry(part):
            error = getattr(self, part)
            return np.where(error == 0, 0.0, error / (2 * value))
        with np.errstate(divide="ignore", invalid="ignore"):
            return self._rounded(value, carry)

    def maximum(self, other):
        """No rounding: the larger operand, with the larger of the two errors (near a tie the
        computed choice may be the other one, off by no more than its own error)."""
        other = Tracked.constant(other)
        return Tracked(np.maximum(self.value, other.value), np.maximum(self.error, other.error),
                       np.maximum(self.flushed, other.flushed))

    def minimum(self, other):
        other = Tracked.constant(other)
        return Tracked(np.minimum(self.value, other.value), np.maximum(self.error, other.error),
                       np.maximum(self.flushed, other.flushed))

    def sum(self):
        """The sum of every element: each of the n - 1 additions rounds a partial sum, at most
        the sum of the magnitudes (the classical bound, in any order of addition); a sum of
        exact zeros is exact."""
        n, magnitude = max(self.value.size - 1, 0), np.abs(self.value).sum()
        return Tracked(self.value.sum(), self.error.sum() + n * magnitude, self.flushed.sum() + n * (magnitude != 0))

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        """np.sqrt, np.maximum and np.minimum, as the algorithms write them, and arithmetic with a NumPy
        number or array on the left."""
        if method != "__call__" or ufunc not in _UFUNCS:
            return NotImplemented
        first, *rest = inputs
        return getattr(Tracked.constant(first), _UFUNCS[ufunc])(*rest)


_UFUNCS = {np.sqrt: "sqrt", np.maximum: "maximum", np.minimum: "minimum", np.add: "__add__", np.subtract: "__sub__",
           np.multiply: "__mul__", np.true_divide: "__truediv__"}
