"""Engine adapters that refuse matmul inputs, for tests/test_unsupported.py: one refuses some
shapes (as the tensorflow adapter refuses the shapes that corrupt oneDNN's heap), one all."""
from adapters.base import Unsupported
from adapters.engine import EngineAdapter


class RefusesVectors(EngineAdapter):
    name = "refuses-vectors"

    def matmul(self, a, b):
        if a.ndim == 1:  # the ci profile's first example is (1,) @ (1,)
            raise Unsupported("a vector left operand is refused")
        return super().matmul(a, b)


class RefusesMatmul(EngineAdapter):
    name = "refuses-matmul"

    def matmul(self, a, b):
        raise Unsupported("no matmul here")
