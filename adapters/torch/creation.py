"""The torch adapter's Array API creation functions (vocabulary/creation.py), as torch's users call
them: torch.arange, torch.linspace (it always includes its end: no endpoint), torch.eye (no
diagonal offset), torch.full, torch.full_like, torch.ones, torch.zeros, torch.empty and their
_like forms, torch.meshgrid, whose indexing is 'ij' where a call leaves it out
(TORCH_MESHGRID_IJ), torch.asarray of Python values (from_python) and torch.from_dlpack; and its
data type functions (vocabulary/dtypes.py): torch.finfo, torch.iinfo, torch.can_cast of x's dtype and
torch.result_type, their answers made tensors (torch has no isdtype: its dtypes'
is_floating_point and is_signed are other questions)."""

from adapters.base import Unsupported


class TorchCreation:
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def arange(self, start, stop=None, step=1, dtype="int64"):
        if stop is None:
            return self.torch.arange(start, dtype=getattr(self.torch, dtype))
        return self.torch.arange(start, stop, step, dtype=getattr(self.torch, dtype))

    def linspace(self, start, stop, num, endpoint=True, dtype="float64"):
        if not endpoint:
            raise Unsupported("torch.linspace has no endpoint: its last value is always end")
        return self.torch.linspace(start, stop, num, dtype=getattr(self.torch, dtype))

    def eye(self, n_rows, n_cols=None, k=0, dtype="float64"):
        if k:
            raise Unsupported("torch.eye has no diagonal offset: ones on the main diagonal only")
        if n_cols is None:
            return self.torch.eye(n_rows, dtype=getattr(self.torch, dtype))
        return self.torch.eye(n_rows, n_cols, dtype=getattr(self.torch, dtype))

    def full(self, shape, fill_value, dtype="float64"):
        return self.torch.full(tuple(shape), fill_value, dtype=getattr(self.torch, dtype))

    def full_like(self, x, fill_value):
        return self.torch.full_like(x, fill_value)

    def meshgrid(self, x, y, indexing="ij"):
        return self.torch.meshgrid(x, y, indexing=indexing)

    def ones(self, shape, dtype="float64"):
        return self.torch.ones(shape, dtype=getattr(self.torch, dtype))

    def zeros(self, shape, dtype="float64"):
        return self.torch.zeros(shape, dtype=getattr(self.torch, dtype))

    def empty(self, shape, dtype="float64"):
        return self.torch.empty(shape, dtype=getattr(self.torch, dtype))

    def ones_like(self, x):
        return self.torch.ones_like(x)

    def zeros_like(self, x):
        return self.torch.zeros_like(x)

    def empty_like(self, x):
        return self.torch.empty_like(x)

    def from_python(self, obj, dtype=None):
        return self.torch.asarray(obj, dtype=None if dtype is None else getattr(self.torch, dtype))

    def from_dlpack(self, x):
        return self.torch.from_dlpack(x)

    def finfo(self, dtype="float64"):
        info, typed = self.torch.finfo(getattr(self.torch, dtype)), getattr(self.torch, dtype)
        return self.torch.tensor([info.bits, info.eps, info.max, info.min, info.smallest_normal], dtype=typed)

    def iinfo(self, dtype="int64"):
        info, typed = self.torch.iinfo(getattr(self.torch, dtype)), getattr(self.torch, dtype)
        return self.torch.tensor([info.bits, info.max, info.min], dtype=typed)

    def can_cast(self, x, to):
        return self.torch.tensor(self.torch.can_cast(x.dtype, getattr(self.torch, to)))

    def result_type(self, x, y):
        return x.to(self.torch.result_type(x, y))
