"""torch.nn.MultiheadAttention's parameters (vocabulary/params.py) split into the per-head
kernels that flax and Keras take."""


def heads_split(params: dict, num_heads: int, xnp) -> dict:
    """torch.nn.MultiheadAttention's weights as flax's MultiHeadDotProductAttention (and Keras'
    MultiHeadAttention) DenseGeneral weights: the q, k, v rows of in_proj_weight [3E, E]
    transposed to kernels [E, N, E / N] and their biases [N, E / N]; out_proj.weight [E, E] to
    the "out" kernel [N, E / N, E]. `xnp` is the array namespace (jax.numpy, keras.ops)."""
    embed = params["out_proj.weight"].shape[0]
    head = embed // num_heads
    split = {}
    for part, name in enumerate(("query", "key", "value")):
        rows = slice(part * embed, (part + 1) * embed)
        split[name] = {"kernel": xnp.reshape(xnp.transpose(params["in_proj_weight"][rows]), (embed, num_heads, head)),
                       "bias": xnp.reshape(params["in_proj_bias"][rows], (num_heads, head))}
    split["out"] = {"kernel": xnp.reshape(xnp.transpose(params["out_proj.weight"]), (num_heads, head, embed)),
                    "bias": params["out_proj.bias"]}
    return split
