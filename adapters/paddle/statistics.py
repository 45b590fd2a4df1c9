"""The Paddle adapter's Array API reductions beyond sum, mean and max (vocabulary/statistics.py):
paddle.min, paddle.prod, paddle.var and paddle.std (whose `unbiased`, True by default, is the
correction 1 or 0: a spec's other corrections are unsupported), paddle.all and paddle.any,
paddle.cumprod and paddle.diff."""
from adapters.base import DTYPES, Unsupported

# Measured with `python -m suites coverage --adapter paddle --check` (PaddleAdapter's default is float32 and
# float64): Paddle's CPU kernels
PADDLE_STATISTICS_DTYPES = {**dict.fromkeys(("min", "prod", "var", "std", "cumprod"),
                                           ("float32", "float64", "int32", "int64")),
                            **dict.fromkeys(("all", "any"), ("float32", "float64", "int32", "int64", "bool")),
                            "diff": ("bfloat16", "float32", "float64", "int16", "int32", "int64", "bool"),
                            "count_nonzero": DTYPES, "searchsorted": ("float32", "float64", "int32", "int64")}


class PaddleStatistics:
    """A mixin of PaddleAdapter (self.paddle is the paddle module)."""

    def min(self, x, axis=None, keepdims=False):
        return self.paddle.min(x, axis=axis, keepdim=keepdims)

    def prod(self, x, axis=None, keepdims=False):
        return self.paddle.prod(x, axis=axis, keepdim=keepdims)

    def var(self, x, axis=None, correction=None, keepdims=False):
        return self.paddle.var(x, axis=axis, keepdim=keepdims, **_unbiased(correction))

    def std(self, x, axis=None, correction=None, keepdims=False):
        return self.paddle.std(x, axis=axis, keepdim=keepdims, **_unbiased(correction))

    def all(self, x, axis=None, keepdims=False):
        return self.paddle.all(x, axis=axis, keepdim=keepdims)

    def any(self, x, axis=None, keepdims=False):
        return self.paddle.any(x, axis=axis, keepdim=keepdims)

    def count_nonzero(self, x, axis=None, keepdims=False):
        return self.paddle.count_nonzero(x, axis=axis, keepdim=keepdims)

    def cumprod(self, x, axis):
        return self.paddle.cumprod(x, dim=axis)

    def diff(self, x, axis=-1, n=1, prepend=None, append=None):
        return self.paddle.diff(x, n=n, axis=axis, prepend=prepend, append=append)


def _unbiased(correction) -> dict:
    """paddle.var's `unbiased` for the standard's correction: left out where the spec leaves it."""
    if correction is None:
        return {}
    if correction not in (0, 1):
        raise Unsupported(f"paddle.var and paddle.std take unbiased=True or False, not correction={correction}")
    return {"unbiased": bool(correction)}
