"""Why a deserialized jax.export runs slower than jax.jit of the same function in Parity's
benchmarks (docs/exporting.md): Exported.call, called eagerly, pays a per-call cost that grows
with the number of inputs (0.26 to 0.34 ms with 5 inputs, 0.73 to 1.1 ms with 41, against 0.03
to 0.15 ms jitted; jax 0.10.2, 2 CPUs), while jax.jit(exported.call) caches it as jax.jit(f)
does. A model whose weights are inputs (the transformer's dozens) pays it on every call; the
compute itself is the same XLA module."""
import time

import jax
import jax.numpy as jnp
import numpy as np


def median_ms(g, args, n=200):
    g(*args).block_until_ready()
    times = []
    for _ in range(n):
        start = time.perf_counter()
        g(*args).block_until_ready()
        times.append(time.perf_counter() - start)
    return np.median(times) * 1e3


def f(x, *weights):
    for w in weights:
        x = jnp.tanh(x @ w)
    return x


rng = np.random.default_rng(0)
for count in (4, 40):
    args = [jnp.asarray(rng.standard_normal((4, 16)), jnp.float32)]
    args += [jnp.asarray(rng.standard_normal((16, 16)), jnp.float32) for _ in range(count)]
    shapes = [jax.ShapeDtypeStruct(a.shape, a.dtype) for a in args]
    restored = jax.export.deserialize(jax.export.export(jax.jit(f))(*shapes).serialize())
    print(f"{count + 1} inputs: jax.jit(f) {median_ms(jax.jit(f), args):.2f} ms, "
          f"exported.call {median_ms(restored.call, args):.2f} ms, "
          f"jax.jit(exported.call) {median_ms(jax.jit(restored.call), args):.2f} ms")
