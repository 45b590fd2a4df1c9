"""The torch adapter's Array API reductions beyond sum, mean and max (vocabulary/statistics.py), as
torch's users call them: torch.min as torch.max is called (torch.amin where torch.min takes no
such arguments), torch.prod, torch.var and torch.std with torch's own correction default (1) where
a spec leaves it out, torch.all and torch.any, torch.cumprod and torch.diff."""
from adapters.base import FLOATS, Unsupported, axes_tuple

# Measured with `python -m suites coverage --adapter torch --check`: var and std take floats only
TORCH_STATISTICS_DTYPES = dict.fromkeys(("var", "std"), FLOATS)


def _dims(x, axis):
    """axis=None reduces every dim; name them, since amax and amin have no dim=None."""
    if axis is None:
        return tuple(range(x.dim()))
    return axes_tuple(axis)


class TorchStatistics:
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def min(self, x, axis=None, keepdims=False):
        if axis is None and not keepdims:
            return self.torch.min(x)
        if isinstance(axis, int):
            return self.torch.min(x, dim=axis, keepdim=keepdims).values
        return self.torch.amin(x, dim=_dims(x, axis), keepdim=keepdims)

    def prod(self, x, axis=None, keepdims=False):
        """torch.prod(x) over everything, torch.prod(x, dim, keepdim) over one axis; torch.prod
        takes no tuple of dims and no keepdim over everything, and raises as torch does there."""
        if axis is None and not keepdims:
            return self.torch.prod(x)
        return self.torch.prod(x, dim=axes_tuple(axis), keepdim=keepdims)

    def var(self, x, axis=None, correction=None, keepdims=False):
        kwargs = {} if correction is None else {"correction": correction}
        return self.torch.var(x, dim=None if axis is None else _dims(x, axis), keepdim=keepdims, **kwargs)

    def std(self, x, axis=None, correction=None, keepdims=False):
        kwargs = {} if correction is None else {"correction": correction}
        return self.torch.std(x, dim=None if axis is None else _dims(x, axis), keepdim=keepdims, **kwargs)

    def all(self, x, axis=None, keepdims=False):
        return self.torch.all(x, dim=_dims(x, axis), keepdim=keepdims)

    def any(self, x, axis=None, keepdims=False):
        return self.torch.any(x, dim=_dims(x, axis), keepdim=keepdims)

    def count_nonzero(self, x, axis=None, keepdims=False):
        if keepdims:
            raise Unsupported("torch.count_nonzero takes no keepdim")
        return self.torch.count_nonzero(x, dim=_dims(x, axis) if axis is not None else None)

    def cumprod(self, x, axis):
        return self.torch.cumprod(x, dim=axis)

    def diff(self, x, axis=-1, n=1, prepend=None, append=None):
        return self.torch.diff(x, n=n, dim=axis, prepend=prepend, append=append)
