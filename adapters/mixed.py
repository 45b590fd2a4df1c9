"""The mixed mode on the adapters' side (docs/mixed-precision.md): a framework's mixed-precision
policy as its users turn it on over float32 parameters and inputs, and the behaviours in which a
policy computes an op in another dtype than torch.autocast does (the reference, vocabulary.AUTOCAST).

torch.autocast reaches every op its lists name; Keras' dtype policy and flax's `dtype` reach the
layers built with them (a Keras layer, a flax Module) and no op (keras.ops and jax.numpy follow
their inputs); paddle.amp.auto_cast makes no effect on CPU.
"""
from adapters.behaviours import REFERENCE, Behaviour
from vocabulary import AUTOCAST, MIXED_OPS

MIXED_BFLOAT16 = "mixed_bfloat16"  # Keras' policy name


def with_policy(adapter, policy: str, fn):
    """fn with `adapter.policy` set while it runs: the layers the adapter builds meanwhile take it
    (Keras' layers their dtype=, flax's Modules their dtype=)."""
    def run(*args, **kwargs):
        adapter.policy = policy
        try:
            return fn(*args, **kwargs)
        finally:
            adapter.policy = None
    return run


def computed_in(dtype: str, ops, note: str, source: str) -> tuple:
    """Behaviours of the mixed mode: the framework's policy computes `ops` in `dtype`, a class of
    vocabulary.AUTOCAST or "float32-rounded" (Behaviour.autocast), where torch.autocast computes
    them otherwise. Ops outside the mode (MIXED_OPS) and ops torch computes alike are left out."""
    return tuple(Behaviour(op, getattr(REFERENCE, op), note, source, regime="precision", mode="mixed", autocast=dtype)
                 for op in sorted(ops) if op in MIXED_OPS and AUTOCAST.get(op, "float32") != dtype)


# The ops torch.autocast lowers that a policy over layers does not reach: keras.ops and jax.numpy
# follow their float32 inputs
NOT_LAYERS = {"matmul", "mm", "bmm", "conv1d", "conv2d", "dot_product_attention"}


def dense_rounded(dense: str, source: str) -> tuple:
    """The Dense layer of a policy over layers (Keras', flax's): x W rounded before the bias."""
    return computed_in(
        "bfloat16-steps", {"linear"},
        f"{dense} computes x W rounded to bfloat16 before the bias is added in bfloat16, bf16(bf16(x W) + b) (bit "
        "for bit on 512 elements: adapters/jax/repro/dense_bfloat16_bias.py), where torch.autocast's linear (addmm) "
        "rounds once, bf16(x W + b): up to half a bfloat16 ulp of x W off, 50 ulps of a result that cancels", source)


KERAS_MIXED = dense_rounded(
    "Keras' Dense under mixed_bfloat16", "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/core/dense.py"
) + computed_in(
    "bfloat16", {"layer_norm", "batch_norm", "embedding", "gru"},
    "Keras' mixed_bfloat16 policy computes every layer in bfloat16 and returns bfloat16: LayerNormalization, "
    "BatchNormalization, Embedding and GRU too, where torch.autocast leaves layer_norm, batch_norm and "
    "embedding in their float32 inputs' dtype and GRU in float32",
    "https://keras.io/api/mixed_precision/policy/") + computed_in(
    "float32", NOT_LAYERS,
    "Keras' dtype policy reaches its layers only: keras.ops (matmul, einsum, conv, dot_product_attention) follow "
    "their float32 inputs, where torch.autocast computes them in bfloat16",
    "https://keras.io/api/mixed_precision/policy/")

FLAX_MIXED = dense_rounded(
    "flax.linen.Dense(dtype=bfloat16)", "https://github.com/google/flax/blob/v0.12.8/flax/linen/linear.py"
) + computed_in(
    "float32-rounded", {"layer_norm", "batch_norm"},
    "flax's LayerNorm and BatchNorm with dtype=bfloat16 normalise the float32 input in float32 (statistics, "
    "x - mean, scale, bias: flax.linen.normalization._normalize) and round the result to bfloat16, where "
    "torch.autocast leaves layer_norm and batch_norm in float32 and Keras rounds the input first",
    "https://github.com/google/flax/blob/v0.12.8/flax/linen/normalization.py") + computed_in(
    "bfloat16", {"embedding"},
    "flax's Embed with dtype=bfloat16 returns the table's rows in bfloat16, where torch.autocast leaves embedding "
    "in its float32 table's dtype",
    "https://flax.readthedocs.io/en/latest/guides/training_techniques/use_mixed_precision.html") + computed_in(
    "float32", NOT_LAYERS,
    "jax has no autocast: jax.numpy and jax.nn (matmul, einsum, conv, dot_product_attention) follow their float32 "
    "inputs, and flax's dtype reaches the Modules built with it, where torch.autocast computes these in bfloat16",
    "https://flax.readthedocs.io/en/latest/guides/training_techniques/use_mixed_precision.html")

PADDLE_MIXED = computed_in(
    "float32", AUTOCAST, "paddle.amp.auto_cast(dtype='bfloat16') makes no effect on CPU (UserWarning: 'amp_guard can "
    "only be enabled on CUDAPlace, XPUPlace, and CustomPlace, current place is Place(cpu), so it makes no effect'): "
    "every op follows its float32 inputs, where torch.autocast computes linear, matmul and conv in bfloat16",
    "https://github.com/PaddlePaddle/Paddle/blob/v3.3.1/python/paddle/amp/auto_cast.py")
