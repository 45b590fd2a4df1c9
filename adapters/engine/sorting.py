"""The engine adapter's sorting, searching and set functions: engine/sorting.py's."""


class EngineSorting:
    """A mixin of EngineAdapter (self.sorting is engine.sorting)."""

    def sort(self, x, axis=-1, descending=False):
        return self.sorting.sort(x, axis, descending)

    def argsort(self, x, axis=-1, descending=False):
        return self.sorting.argsort(x, axis, descending)

    def searchsorted(self, x1, x2, side="left"):
        return self.sorting.searchsorted(x1, x2, side)

    def topk(self, x, k):
        return self.sorting.topk(x, k)

    def topk_indices(self, x, k):
        return self.sorting.topk_indices(x, k)

    def unique(self, x):
        return self.sorting.unique(x)

    def unique_values(self, x):
        return self.sorting.unique_values(x)

    def unique_counts(self, x):
        return self.sorting.unique_counts(x)

    def unique_inverse(self, x):
        return self.sorting.unique_inverse(x)

    def unique_all(self, x):
        return self.sorting.unique_all(x)

    def nonzero(self, x):
        return self.sorting.nonzero(x)
