"""flax's mixed mode as if flax.linen.Dense came to round as torch.autocast's addmm does, once,
bf16(x W + b), where its documented policy rounds x W before the bias: a changed behaviour that
must no longer show as the policy (tests/test_mixed.py)."""
from adapters.jax import JaxAdapter


class RoundingOnceFlax(JaxAdapter):
    name = "flax-rounding-once"

    def linear(self, x, weight, bias=None):
        jnp = self.jnp
        if jnp.dtype(self.computed(x)) != jnp.bfloat16:
            return super().linear(x, weight, bias)
        def rounded(v):  # autocast's cast of an operand to bfloat16, then float32's accumulation
            return v.astype(jnp.bfloat16).astype(jnp.float32)

        out = rounded(x) @ rounded(weight).T
        return (out if bias is None else out + rounded(bias)).astype(jnp.bfloat16)
