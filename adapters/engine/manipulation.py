"""The engine adapter's Array API manipulation functions (vocabulary/manipulation.py):
engine/manipulation.py's."""


class EngineManipulation:
    """A mixin of EngineAdapter (self.manipulation is engine.manipulation)."""

    def flip(self, x, axis=None):
        return self.manipulation.flip(x, axis)

    def roll(self, x, shift, axis=None):
        return self.manipulation.roll(x, shift, axis)

    def squeeze(self, x, axis):
        return self.manipulation.squeeze(x, axis)

    def expand_dims(self, x, axis=0):
        return self.manipulation.expand_dims(x, axis)

    def moveaxis(self, x, source, destination):
        return self.manipulation.moveaxis(x, source, destination)

    def broadcast_to(self, x, shape):
        return self.manipulation.broadcast_to(x, shape)

    def broadcast_arrays(self, xs):
        return self.manipulation.broadcast_arrays(xs)

    def tile(self, x, repetitions):
        return self.manipulation.tile(x, repetitions)

    def repeat(self, x, repeats, axis=None):
        return self.manipulation.repeat(x, repeats, axis)

    def unstack(self, x, axis=0):
        return self.manipulation.unstack(x, axis)
