"""The parameters a layer op reads, by PyTorch's names: torch.nn.LSTM's and GRU's
(weight_ih_l0, ..., '_reverse' for the reverse direction) and torch.nn.MultiheadAttention's; the
specs draw them and every adapter converts them to its framework's."""

RECURRENT_GATES = {"lstm": 4, "gru": 3}  # the gate blocks stacked in a recurrent layer's weights

MULTIHEAD_OPS = ("multi_head_attention", "multi_head_attention_weights")  # its two paths, one op each


def attention_param_shapes(embed_dim: int) -> dict:
    """torch.nn.MultiheadAttention's parameters (kdim = vdim = embed_dim), name -> shape."""
    e = embed_dim
    return {"in_proj_weight": (3 * e, e), "in_proj_bias": (3 * e,), "out_proj.weight": (e, e), "out_proj.bias": (e,)}


def rnn_suffix(layer: int, direction: int) -> str:
    """PyTorch's recurrent parameter suffix (LSTM and GRU): weight_ih_l0, weight_ih_l0_reverse, ..."""
    return f"_l{layer}" + ("_reverse" if direction else "")


def rnn_param_shapes(input_size: int, hidden: int, num_layers: int = 1, bidirectional: bool = False,
                     op: str = "lstm") -> dict:
    """torch.nn.LSTM's (or GRU's) parameters, name -> shape, in its order: layer l reads layer
    l - 1's outputs, both directions side by side (D * hidden features)."""
    directions = 2 if bidirectional else 1
    rows = RECURRENT_GATES[op] * hidden
    shapes = {}
    for layer in range(num_layers):
        size = input_size if layer == 0 else hidden * directions
        for d in range(directions):
            suffix = rnn_suffix(layer, d)
            shapes.update({f"weight_ih{suffix}": (rows, size), f"weight_hh{suffix}": (rows, hidden),
                           f"bias_ih{suffix}": (rows,), f"bias_hh{suffix}": (rows,)})
    return shapes
