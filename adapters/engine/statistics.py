"""The engine adapter's Array API statistical and utility functions beyond sum, mean and max
(vocabulary/statistics.py): engine/ops.py's min, engine/statistics.py's others."""


class EngineStatistics:
    """A mixin of EngineAdapter (self.ops is engine.ops, self.statistics engine.statistics)."""

    def min(self, x, axis=None, keepdims=False):
        return self.ops.min(x, axis, keepdims)

    def prod(self, x, axis=None, keepdims=False):
        return self.statistics.prod(x, axis, keepdims)

    def var(self, x, axis=None, correction=None, keepdims=False):
        return self.statistics.var(x, axis, correction, keepdims)

    def std(self, x, axis=None, correction=None, keepdims=False):
        return self.statistics.std(x, axis, correction, keepdims)

    def all(self, x, axis=None, keepdims=False):
        return self.statistics.all(x, axis, keepdims)

    def any(self, x, axis=None, keepdims=False):
        return self.statistics.any(x, axis, keepdims)

    def count_nonzero(self, x, axis=None, keepdims=False):
        return self.statistics.count_nonzero(x, axis, keepdims)

    def cumprod(self, x, axis):
        return self.statistics.cumprod(x, axis)

    def diff(self, x, axis=-1, n=1, prepend=None, append=None):
        return self.statistics.diff(x, axis, n, prepend, append)
