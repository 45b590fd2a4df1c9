"""flax.linen.Dense(dtype=bfloat16) over float32 params rounds x W to bfloat16 before it adds the
bias: bf16(bf16(x W) + b), bit for bit, where torch.autocast's linear rounds once, bf16(x W + b)
(addmm accumulates the bias with the product in float32). Keras' Dense under mixed_bfloat16 does
as flax does. Run: python adapters/jax/repro/dense_bfloat16_bias.py"""
import flax.linen as nn
import jax.numpy as jnp
import ml_dtypes
import numpy as np
import torch

rng = np.random.default_rng(0)
x, w, b = (rng.standard_normal(s).astype(np.float32) for s in ((64, 16), (16, 8), (8,)))


def bf16(a):
    return np.asarray(a, np.float64).astype(ml_dtypes.bfloat16).astype(np.float64)


once = bf16(bf16(x) @ bf16(w) + bf16(b))
twice = bf16(bf16(bf16(x) @ bf16(w)) + bf16(b))
flax_out = np.asarray(nn.Dense(8, dtype=jnp.bfloat16).apply({"params": {"kernel": w, "bias": b}}, x), np.float64)
with torch.autocast("cpu", dtype=torch.bfloat16):
    torch_out = torch.nn.functional.linear(torch.tensor(x), torch.tensor(w.T), torch.tensor(b)).double().numpy()
print(f"flax: {np.mean(flax_out == twice):.0%} of elements are bf16(bf16(x W) + b), {np.mean(flax_out == once):.0%} "
      f"bf16(x W + b); torch: {np.mean(torch_out == once):.0%} and {np.mean(torch_out == twice):.0%}")
