"""The Paddle adapter's Array API creation functions (vocabulary/creation.py), as Paddle's users
call them: paddle.arange, paddle.linspace (no endpoint), paddle.eye (no diagonal offset),
paddle.full, paddle.full_like, paddle.ones, paddle.zeros, paddle.empty and their _like forms,
paddle.to_tensor of Python values (from_python), paddle.from_dlpack,
and paddle.meshgrid, which indexes as 'ij' and has no other
(PADDLE_MESHGRID_IJ); and its data type functions (vocabulary/dtypes.py): paddle.finfo and
paddle.iinfo, their numbers made tensors (Paddle has no can_cast, result_type or isdtype)."""

from adapters.base import Unsupported


class PaddleCreation:
    """A mixin of PaddleAdapter (self.paddle is the paddle module)."""

    def arange(self, start, stop=None, step=1, dtype="int64"):
        return self.paddle.arange(start, stop, step, dtype=dtype)

    def linspace(self, start, stop, num, endpoint=True, dtype="float64"):
        if not endpoint:
            raise Unsupported("paddle.linspace has no endpoint: its last value is always stop")
        return self.paddle.linspace(start, stop, num, dtype=dtype)

    def eye(self, n_rows, n_cols=None, k=0, dtype="float64"):
        if k:
            raise Unsupported("paddle.eye has no diagonal offset: ones on the main diagonal only")
        return self.paddle.eye(n_rows, n_cols, dtype=dtype)

    def full(self, shape, fill_value, dtype="float64"):
        return self.paddle.full(list(shape), fill_value, dtype=dtype)

    def full_like(self, x, fill_value):
        return self.paddle.full_like(x, fill_value)

    def meshgrid(self, x, y, indexing="ij"):
        if indexing != "ij":
            raise Unsupported("paddle.meshgrid indexes as 'ij' only: it has no indexing argument")
        return tuple(self.paddle.meshgrid(x, y))

    def ones(self, shape, dtype="float64"):
        return self.paddle.ones(shape, dtype=dtype)

    def zeros(self, shape, dtype="float64"):
        return self.paddle.zeros(shape, dtype=dtype)

    def empty(self, shape, dtype="float64"):
        return self.paddle.empty(shape, dtype=dtype)

    def ones_like(self, x):
        return self.paddle.ones_like(x)

    def zeros_like(self, x):
        return self.paddle.zeros_like(x)

    def empty_like(self, x):
        return self.paddle.empty_like(x)

    def from_python(self, obj, dtype=None):
        return self.paddle.to_tensor(obj, dtype=dtype)

    def from_dlpack(self, x):
        return self.paddle.from_dlpack(x)

    def finfo(self, dtype="float64"):
        info = self.paddle.finfo(getattr(self.paddle, dtype))
        return self.paddle.to_tensor([info.bits, info.eps, info.max, info.min, info.smallest_normal], dtype=dtype)

    def iinfo(self, dtype="int64"):
        info = self.paddle.iinfo(getattr(self.paddle, dtype))
        return self.paddle.to_tensor([info.bits, info.max, info.min], dtype=dtype)
