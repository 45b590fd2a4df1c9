"""An adapter that ships its own documented difference (tests/test_shipped_differences.py): its
matmul refuses 1-D operands, as shipping.differences.yaml beside this file documents."""
from adapters.reference import ReferenceAdapter


class Shipping(ReferenceAdapter):
    name = "shipping"

    def matmul(self, a, b):
        if a.ndim == 1 or b.ndim == 1:
            raise ValueError("shipping's matmul takes matrices only")
        return super().matmul(a, b)
