"""The vocabulary's layer records (vocabulary/__init__.py explains the vocabulary): the fused layers,
each in PyTorch's names and layouts, as torch.nn.functional and torch.nn call them."""
import numpy as np

from vocabulary.records import INDEX, REDUCTION, Index, Op, along_axis, mha_sample, rnn_sample, unary, values

MULTIHEAD = "query, key, value, params, num_heads, key_padding_mask=None, batch_first=True"
POOL = ("torch.nn.functional's pooling on x [N, C, H, W]: kernel and stride (None: the kernel) an int or a "
        "pair; padding an int or a pair (both sides), 'valid' (none) or 'same' (TensorFlow's SAME: ceil(L / "
        "stride) outputs, the odd padding element at the end); ceil_mode rounds the output length up (a last "
        "window must start inside x or its left padding).")

RNN_MODE = ("no dropout here, so its values are the same in either mode; a framework's reverse pass may not be "
            "(cuDNN's refuses inference mode).")

LAYER_OPS = [
    Op("lstm", "x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=True, training=True", "layers",
       "torch.nn.LSTM. x [B, T, I] (batch_first) or [T, B, I]; h0, c0 [D*L, B, H] indexed layer * D + "
       "direction (None: zeros); params: a dict in PyTorch's names and layouts (weight_ih_l0 [4H, I], "
       "weight_hh_l0 [4H, H], bias_ih_l0 and bias_hh_l0 [4H], '_reverse' for the reverse direction; gate order "
       "i, f, g, o). training: the layer's mode as its users set it (module.train() or .eval(), Keras' training=, "
       f"Paddle's layer.train() or .eval(); flax's RNN has none): {RNN_MODE} Returns (output [B, T, D*H] or "
       "[T, B, D*H], h_n, c_n [D*L, B, H]).",
       rnn_sample("lstm"), parts=("output", "h_n", "c_n")),
    Op("gru", "x, h0, params, num_layers=1, bidirectional=False, batch_first=True, reset_after=True, training=True",
       "layers",
       "torch.nn.GRU, laid out and stacked as lstm (params weight_ih_l0 [3H, I], weight_hh_l0 [3H, H], bias_ih_l0 "
       "and bias_hh_l0 [3H]; gate blocks r, z, n): r = sigmoid(W_ir x + b_ir + W_hr h + b_hr), z likewise, n = "
       "tanh(W_in x + b_in + r * (W_hn h + b_hn)), h' = (1 - z) n + z h. reset_after=False resets before the "
       "matmul, n = tanh(W_in x + b_in + W_hn (r * h) + b_hn) (Keras' reset_after=False; torch and flax have "
       "only the first). Keras orders the gate blocks z, r, h. training as lstm's. Returns (output, h_n).",
       rnn_sample("gru"), parts=("output", "h_n")),
    Op("linear", "x, weight, bias=None", "layers", "torch.nn.functional.linear: x @ weight.T + bias; x [..., in], "
       "weight [out, in] (PyTorch's layout; Dense kernels are its transpose), bias [out] or None.",
       lambda d: ([values(d, (2, 3)), values(d, (4, 3)), values(d, (4,))], {}), bound="linear"),
    Op("gelu", "x, approximate='none'", "layers", "x * Phi(x), Phi the standard normal CDF (approximate='none', "
       "erf); approximate='tanh': 0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3))). torch.nn.functional.gelu "
       "and tf.nn.gelu default to the exact form, jax.nn.gelu and keras.ops.gelu to tanh (documented).", unary),
    Op("layer_norm", "x, weight=None, bias=None, eps=1e-5", "layers", "torch.nn.functional.layer_norm over the "
       "last axis: (x - mean) / sqrt(var + eps) * weight + bias, var the biased variance (divided by n); weight "
       "and bias [D] or None. eps defaults differ: torch 1e-5, flax 1e-6, Keras 1e-3 (documented).",
       lambda d: ([values(d), values(d, (3,)), values(d, (3,))], {"eps": 1e-5})),
    Op("batch_norm", "x, running_mean=None, running_var=None, weight=None, bias=None, training=False, eps=1e-5",
       "layers", "torch.nn.functional.batch_norm on x [N, C, *] (channels on axis 1): (x - mean) / sqrt(var + eps) "
       "* weight + bias per channel; training: the batch's mean and biased variance over every axis but 1; "
       "otherwise running_mean and running_var [C] (required). weight, bias [C] or None. eps defaults: torch and "
       "flax 1e-5, Keras 1e-3 (documented). batch_norm_stats is the running statistics' update.",
       lambda d: ([values(d, (2, 3, 2)), values(d, (3,)), values(d, (3,))], {"eps": 1e-5})),
    Op("batch_norm_stats", "x, running_mean, running_var, momentum=0.1", "layers", "The running statistics after "
       "one training step of batch_norm (torch's in-place update): (1 - momentum) * running + momentum * batch "
       "per channel, the batch variance unbiased (divided by n - 1, n = x.size / C) as torch's. flax and Keras "
       "write momentum as the old value's weight (0.99 by default: 0.01 here) and keep the biased variance "
       "(documented). Returns (running_mean, running_var).",
       lambda d: ([values(d, (2, 3, 2)), values(d, (3,)), values(d, (3,))], {}), parts=("running_mean", "running_var")),
    Op("norm", "x, axis=None, keepdims=False", "layers", "The Euclidean (2-)norm sqrt(sum x^2) over axis (None: "
       "every axis; torch.linalg.vector_norm). At x = 0 it has no derivative: the reference's finite "
       "differences give 0 there, as torch does; others give NaN (documented). " + REDUCTION, along_axis),
    Op("normalize", "x, axis=-1, eps=1e-12", "layers", "torch.nn.functional.normalize (p=2): x / max(||x||, eps) "
       "along axis. Defaults differ: torch's dim is 1, tf.math.l2_normalize's axis None and its epsilon bounds "
       "the squared norm, Keras' epsilon is 1e-7 (documented).", along_axis),
    Op("embedding", "indices, weight, padding_idx=None", "layers", "torch.nn.functional.embedding: weight[indices], "
       "rows of the table weight [V, D] looked up by an integer tensor of any shape; out [*indices.shape, D]. "
       "padding_idx (negative: counted from the end): that row's look-ups give no gradient (the row stays "
       "as a padding vector); its value is looked up as any other. torch only: flax's Embed, Keras' Embedding "
       "(mask_zero makes a mask, not this) and tf.nn.embedding_lookup have none.",
       lambda d: ([INDEX, values(d, (3, 4))], {})),
    Op("cross_entropy", "logits, target, reduction='mean', label_smoothing=0.0, ignore_index=None", "layers",
       "torch.nn.functional.cross_entropy on logits [N, C]: -sum_c q_c log_softmax(logits)_c per row, q the "
       "target: class indices [N] (an integer tensor: q one-hot) or probabilities [N, C] (a float tensor); "
       "label_smoothing e mixes q with the uniform: (1 - e) q + e / C. ignore_index: rows whose class is it "
       "count for nothing (the mean divides by the rows kept). reduction: 'mean' over rows, 'sum' or 'none' ([N]).",
       lambda d: ([values(d, (2, 3)), np.array([2, 0]).view(Index)], {})),
    Op("dot_product_attention", "q, k, v, mask=None, bias=None, causal=False, scale=None", "layers",
       "torch.nn.functional.scaled_dot_product_attention: softmax(q k^T * scale + bias, masked) v, q [B, N, Tq, "
       "D], k [B, N, Tk, D], v [B, N, Tk, Dv] (batch, heads, time, features: PyTorch's layout; JAX and Keras "
       "take [B, T, N, D]). scale None: 1 / sqrt(D). mask: bool, broadcast to [B, N, Tq, Tk], True where a "
       "query attends to a key; bias: float, added to the scores; causal: query i attends to keys j <= i "
       "(the top-left triangle). A query that attends to no key gets 0 (softmax over nothing, as "
       "masked_softmax); frameworks differ there (documented).",
       lambda d: ([values(d, (1, 2, 3, 4)), values(d, (1, 2, 3, 4)), values(d, (1, 2, 3, 4))], {})),
    Op("multi_head_attention", MULTIHEAD, "layers",
       "torch.nn.MultiheadAttention(E, num_heads) called with need_weights=False: query [B, T, E], key and value "
       "[B, S, E] ([T, B, E] where batch_first is false); params in its names: in_proj_weight [3E, E] (the q, k, v "
       "projections stacked), in_proj_bias [3E], out_proj.weight [E, E], out_proj.bias [E]. Each of num_heads "
       "heads attends over E / num_heads features with scale 1 / sqrt(E / num_heads); the heads are concatenated "
       "and projected. key_padding_mask: bool [B, S], True where a key is padding (torch's convention, the "
       "opposite of dot_product_attention's mask). A query with no key to attend to gets 0 before the output "
       "projection (as dot_product_attention); frameworks differ there (documented). Returns [B, T, E].",
       mha_sample),
    Op("multi_head_attention_weights", MULTIHEAD, "layers",
       "multi_head_attention by the path that also returns the attention weights (torch: need_weights=True, "
       "average_attn_weights=False; Keras: return_attention_scores; flax: sow_weights): (output, weights [B, "
       "num_heads, T, S]), the softmax weights of each head.", mha_sample, parts=("output", "weights")),
    Op("max_pool2d", "x, kernel, stride=None, padding=0, ceil_mode=False", "layers",
       POOL + " The largest value of each window (padding never wins).",
       lambda d: ([values(d, (1, 2, 4, 4)), 2], {"stride": 2}), bound="selection"),
    Op("avg_pool2d", "x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True", "layers",
       POOL + " The mean of each window, divided by the window's size with its padding (count_include_pad) or "
       "by its elements inside x (count_include_pad=False, and always with 'same', as TensorFlow's SAME does); "
       "a ceil_mode window that hangs past the padding counts only up to it (torch's rule).",
       lambda d: ([values(d, (1, 2, 4, 4)), 2], {"stride": 2})),
    Op("max_pool1d", "x, kernel, stride=None, padding=0, ceil_mode=False", "layers",
       "max_pool2d over a height of 1: x [N, C, L], kernel, stride and padding ints.",
       lambda d: ([values(d, (1, 2, 5)), 2], {"stride": 2}), bound="selection"),
    Op("avg_pool1d", "x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True", "layers",
       "avg_pool2d over a height of 1: x [N, C, L], kernel, stride and padding ints.",
       lambda d: ([values(d, (1, 2, 5)), 2], {"stride": 2})),
    Op("conv1d", "x, w, b=None, stride=1, padding=0, dilation=1, groups=1", "layers",
       "torch.nn.functional.conv1d: x [N, C, L], w [O, C/groups, k], b [O] or None. padding: an int (both "
       "sides), 'valid' (none) or 'same' (d (k - 1) in all, the odd one at the end; stride 1 only).",
       lambda d: ([values(d, (1, 2, 5)), values(d, (3, 2, 2))], {}), bound="conv"),
    Op("conv2d", "x, w, b=None, stride=1, padding=0, dilation=1, groups=1", "layers",
       "torch.nn.functional.conv2d: x [N, C, H, W], w [O, C/groups, kh, kw], b [O] or None. stride, padding "
       "and dilation: an int or a pair; padding also 'valid' or 'same' as conv1d's.",
       lambda d: ([values(d, (1, 2, 4, 4)), values(d, (3, 2, 2, 2))], {}), bound="conv"),
]
