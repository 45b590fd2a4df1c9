"""Two torch adapters whose mixed mode is wrong and whose eager mode is right, for
tests/test_mixed.py. One never turns its policy on: its mixed mode computes in float32 and returns
float32, as a port that forgot the autocast context would. The other's mixed matmul accumulates
in bfloat16, each product added to a bfloat16 sum and rounded, where torch's CPU kernels
accumulate in float32 and round once."""
from adapters.mixed import with_policy
from adapters.torch import TorchAdapter


class PolicyIgnored(TorchAdapter):
    name = "policy-ignored"

    def mixed(self, fn):
        return self.stage(fn)


class Bfloat16Accumulating(TorchAdapter):
    name = "bfloat16-accumulating"
    policy = None  # bfloat16 while the mixed mode runs

    def mixed(self, fn):
        return with_policy(self, "bfloat16", fn)

    def matmul(self, a, b):
        if self.policy is None:
            return super().matmul(a, b)
        vector_a, vector_b = a.ndim == 1, b.ndim == 1
        a, b = (a[None] if vector_a else a).bfloat16(), (b[:, None] if vector_b else b).bfloat16()
        total = (a[..., :, :1] * b[..., :1, :]).bfloat16()
        for k in range(1, a.shape[-1]):
            total = (total + a[..., :, k:k + 1] * b[..., k:k + 1, :]).bfloat16()
        return total.squeeze(-2) if vector_a else total.squeeze(-1) if vector_b else total
