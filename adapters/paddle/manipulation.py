"""The Paddle adapter's Array API manipulation functions (vocabulary/manipulation.py), as Paddle's
users call them: paddle.flip (every axis named where the spec says None: it has no default),
paddle.roll, paddle.squeeze, paddle.unsqueeze, paddle.moveaxis, paddle.broadcast_to,
paddle.broadcast_tensors, paddle.tile, paddle.repeat_interleave (a tensor of counts where the spec
gives one per element) and paddle.unstack."""
from adapters.base import DTYPES, dtypes_except

# Measured with `python -m suites coverage --adapter paddle --check` (Paddle's CPU kernels)
PADDLE_MANIPULATION_DTYPES = {**dict.fromkeys(("flip", "roll"), ("float32", "float64", "int32", "int64", "bool")),
                              **dict.fromkeys(("squeeze", "expand_dims", "moveaxis", "broadcast_to"), DTYPES),
                              "broadcast_arrays": ("float16", "float32", "float64", "int32", "int64", "bool"),
                              "tile": dtypes_except("bfloat16"),
                              "repeat": ("bfloat16", "float32", "float64", "int32", "int64"),
                              "unstack": ("float32", "float64", "int32", "int64")}


def _axes(axis):
    """Several axes as Paddle's manipulation functions document them: a list."""
    return list(axis) if isinstance(axis, (list, tuple)) else axis


class PaddleManipulation:
    """A mixin of PaddleAdapter (self.paddle is the paddle module)."""

    def flip(self, x, axis=None):
        return self.paddle.flip(x, axis=list(range(x.ndim)) if axis is None else _axes(axis))

    def roll(self, x, shift, axis=None):
        return self.paddle.roll(x, _axes(shift), axis=_axes(axis))

    def squeeze(self, x, axis):
        return self.paddle.squeeze(x, axis=_axes(axis))

    def expand_dims(self, x, axis=0):
        return self.paddle.unsqueeze(x, axis)

    def moveaxis(self, x, source, destination):
        return self.paddle.moveaxis(x, _axes(source), _axes(destination))

    def broadcast_to(self, x, shape):
        return self.paddle.broadcast_to(x, list(shape))

    def broadcast_arrays(self, xs):
        return tuple(self.paddle.broadcast_tensors(list(xs)))

    def tile(self, x, repetitions):
        return self.paddle.tile(x, list(repetitions))

    def repeat(self, x, repeats, axis=None):
        counts = repeats if isinstance(repeats, int) else self.paddle.to_tensor(list(repeats))
        return self.paddle.repeat_interleave(x, counts, axis=axis)

    def unstack(self, x, axis=0):
        return tuple(self.paddle.unstack(x, axis=axis))
