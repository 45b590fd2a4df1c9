"""What an adapter and Keras on the same backend both run: each backend's reverse pass (jax.vjp,
tf.GradientTape, torch.autograd.grad), torch's compiler reset and TensorFlow's guard against the
matmuls that corrupt its heap. Each imports its framework when called, so that this module, which
the torch, jax, tensorflow and keras packages import, imports none of them."""
import os

import numpy as np

from adapters.base import Unsupported

# TensorFlow's kernels, which Keras' ops on its backend reach as well: MatMul, BatchMatMulV2 and Einsum have no
# 8- or 16-bit integer CPU kernel, nor an unsigned one; Conv2D runs floats and int32
TF_MATMUL_DTYPES = ("float16", "bfloat16", "float32", "float64", "int32", "int64")
TF_CONV_DTYPES = ("float16", "bfloat16", "float32", "float64", "int32")


def jax_vjp(fn, args, wrt, cotangent):
    """(fn(**args), gradients) by jax.vjp: what the jax adapter and Keras on the jax backend run."""
    import jax

    def of(*values):
        return fn(**{**args, **dict(zip(wrt, values))})

    value, pullback = jax.vjp(of, *(args[n] for n in wrt))
    # the cotangent takes the value's dtype, as a user's would: a value in another dtype than the
    # inputs (Keras' float64 as float32) is the value check's finding, not a reason to skip this one
    grads = pullback(cotangent.astype(value.dtype))
    # an integer input's gradient is float0, jax's zero of a space with no directions (jax.grad's
    # allow_int): zeros in the input's dtype, which the judges can read
    return value, {n: np.zeros(g.shape, args[n].dtype) if g.dtype == jax.dtypes.float0 else g
                   for n, g in zip(wrt, grads)}


def tape_vjp(fn, args, wrt, cotangent):
    """(fn(**args), gradients) by tf.GradientTape with output_gradients: what the tensorflow adapter
    and Keras on the tensorflow backend run. Gathers and ragged ops give IndexedSlices: the dense
    gradient is the same value. An unconnected input, or one reached only through an op without
    a registered gradient (round, floor, casts), gets None, tape.gradient's default: "no
    gradient", as TensorFlow says it, not zeros."""
    import tensorflow as tf

    with tf.GradientTape() as tape:
        for n in wrt:
            tape.watch(args[n])
        value = fn(**args)
    # the cotangent in the value's dtype, as a user's (see jax_vjp)
    grads = tape.gradient(value, [args[n] for n in wrt], output_gradients=tf.cast(cotangent, value.dtype))
    return value, {n: None if g is None else tf.convert_to_tensor(g) for n, g in zip(wrt, grads)}


def refuse_corrupting_matmul(tf, a, b) -> None:
    """Unsupported for the matmuls that corrupt the heap in TF 2.21's oneDNN CPU kernel (the crash
    comes later, anywhere in the process: a NumPy call of the next case, say): a rank-4 lhs whose
    last batch axis is 1 against a lower-rank rhs that broadcasts to 1 there too. Measured (1000
    calls each, 2026-11-26): (5, 1, 5, 2) @ (2, 5) and @ (1, 2, 5) abort or segfault, as the
    upstream issue's (13, 1, 3, 4) @ (4, 16) and (9, 1, 2, 3) @ (3, 3); (2, 1, 3, 4) @ (5, 4, 2),
    (5, 1, 5, 2) @ (3, 2, 5), (1, 5, 5, 2) @ (2, 5), (5, 3, 5, 2) @ (2, 5) and the rank-5
    (2, 3, 1, 3, 4) @ (4, 2), (3, 1, 1, 5, 2) @ (2, 5) run cleanly (the NumPy-checked ones with
    correct values), so the framework answers those; TF_ENABLE_ONEDNN_OPTS=0 avoids it."""
    if not tf.__version__.startswith("2.21.") or os.environ.get("TF_ENABLE_ONEDNN_OPTS") == "0":
        return
    rhs_batch_is_one = b.shape.rank < 3 or b.shape[0] == 1  # (the rhs's axis under the lhs's axis 1)
    if "CPU" in a.device and a.shape.rank == 4 and b.shape.rank < 4 and a.shape[1] == 1 and rhs_batch_is_one:
        raise Unsupported(f"tf.matmul {tuple(a.shape)} @ {tuple(b.shape)} corrupts the heap under oneDNN on CPU "
                          "in TF 2.21 (https://github.com/tensorflow/tensorflow/issues/117700, fixed by PR "
                          "#120199 after 2.21.0)")


def fresh_dynamo():
    """torch._dynamo.reset(): "as if you had started a fresh process". torch.compile caches a
    frame's graphs on its code object, at most 8 (torch._dynamo.config.recompile_limit), and past
    that runs the frame eagerly, silently but for a logged warning. A graph break makes the frames
    above it frames of their own (Parity's Context.evaluate, Keras' layer code): every item of a
    process runs them, so without a reset the ninth item to break the graph there ran eagerly
    in the compiled mode (tests/test_modes.py). An item's top frame is its own code (own_code),
    which no other item reuses; inductor's on-disk cache, which a reset keeps, serves the rest."""
    import torch

    torch._dynamo.reset()


def autograd_vjp(fn, args, wrt, cotangent):
    """(fn(**args), gradients) by torch.autograd.grad with grad_outputs: what the torch adapter and
    Keras on the torch backend both run. An input the output does not depend on gets None from
    autograd (allow_unused): "no gradient", as torch says it, not zeros."""
    import torch

    leaves = {n: args[n].detach().requires_grad_(True) for n in wrt}
    value = fn(**{**args, **leaves})
    grads = torch.autograd.grad(value, list(leaves.values()), grad_outputs=cotangent.to(value.dtype),
                                allow_unused=True)  # the cotangent in the value's dtype (see jax_vjp)
    return value.detach(), dict(zip(wrt, grads))
