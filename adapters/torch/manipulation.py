"""The torch adapter's Array API manipulation functions (vocabulary/manipulation.py), as torch's
users call them: torch.flip (every dim named where the spec says None: torch.flip has no default),
torch.roll, torch.squeeze (a tuple of dims since torch 2.0), torch.unsqueeze, torch.movedim,
torch.broadcast_to, torch.broadcast_tensors, torch.tile, torch.repeat_interleave (a tensor of
counts where the spec gives one per element) and torch.unbind."""
from adapters.base import axes_tuple


class TorchManipulation:
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def flip(self, x, axis=None):
        dims = tuple(range(x.dim())) if axis is None else axes_tuple(axis)
        return self.torch.flip(x, dims=dims if isinstance(dims, tuple) else (dims,))

    def roll(self, x, shift, axis=None):
        return self.torch.roll(x, shifts=axes_tuple(shift), dims=axes_tuple(axis))

    def squeeze(self, x, axis):
        return self.torch.squeeze(x, dim=axes_tuple(axis))

    def expand_dims(self, x, axis=0):
        return self.torch.unsqueeze(x, axis)

    def moveaxis(self, x, source, destination):
        return self.torch.movedim(x, axes_tuple(source), axes_tuple(destination))

    def broadcast_to(self, x, shape):
        return self.torch.broadcast_to(x, tuple(shape))

    def broadcast_arrays(self, xs):
        return self.torch.broadcast_tensors(*xs)

    def tile(self, x, repetitions):
        return self.torch.tile(x, tuple(repetitions))

    def repeat(self, x, repeats, axis=None):
        counts = repeats if isinstance(repeats, int) else self.torch.tensor(repeats, device=x.device)
        return self.torch.repeat_interleave(x, counts, dim=axis)

    def unstack(self, x, axis=0):
        return self.torch.unbind(x, dim=axis)
