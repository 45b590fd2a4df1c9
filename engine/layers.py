"""The functional layers models are built from: linear, gelu, layer_norm, batch_norm, embedding,
cross_entropy and dot_product_attention, with PyTorch's semantics and argument layouts.

GELU and the standardisation under layer and batch norm are single primitives with their own
backward (as PyTorch's kernels are: the backward keeps x-hat, not every intermediate); the others
compose the engine's differentiable ops.
"""
import math

import numpy as np

from engine import linalg, ops, special, subscript
from engine.sequence import masked_softmax
from engine.tensor import Tensor

_TANH_C = math.sqrt(2 / math.pi)


def linear(x, weight, bias=None):
    """x @ weight.T + bias, weight [out, in] (torch.nn.functional.linear)."""
    y = ops.matmul(x, ops.transpose(weight, (1, 0)))
    return y if bias is None else y + bias


def gelu(x, approximate="none"):
    """x Phi(x), Phi the normal CDF (erfc(-x / sqrt 2) / 2, in float64: 1 + erf would cancel for
    x < 0); approximate='tanh': x s(2 z), s the logistic, the same as 0.5 x (1 + tanh z) without
    its cancellation. The derivative is Phi(x) + x phi(x), or s + 2 x s (1 - s) z'."""
    x = ops.tensor(x)
    wide = x.data.astype(np.float64)
    if approximate == "tanh":
        s = ops.logistic(2 * _TANH_C * (wide + 0.044715 * wide ** 3))
        out = wide * s
        slope = s + 2 * wide * s * (1 - s) * _TANH_C * (1 + 3 * 0.044715 * wide ** 2)
    elif approximate == "none":  # erfc per element for a float64 result; vectorised, to 1e-10, for narrower ones
        erfc = special.exact_erfc if x.dtype == np.float64 else special.erfc
        cdf = erfc(wide / -math.sqrt(2))
        cdf *= 0.5
        out = wide * cdf
        slope = np.asarray(wide * wide)  # cdf + x exp(-x^2 / 2) / sqrt(2 pi), in place (0-d too: an array)
        slope *= -0.5
        np.exp(slope, out=slope)
        slope *= wide
        slope *= 1 / math.sqrt(2 * math.pi)
        slope += cdf
    else:
        raise ValueError(f"gelu: approximate takes 'none' or 'tanh'. Received: {approximate!r}")
    return Tensor.record(out.astype(x.dtype), (x,), lambda g: ((g * slope).astype(x.dtype),), "gelu")


def standardized(x, axes: tuple, eps):
    """(x - mean) / sqrt(var + eps) over `axes`, var biased, computed two-pass (the mean first) as
    PyTorch does; one primitive, whose backward keeps x-hat and 1 / std only:
    dx = (g - mean(g) - x-hat mean(g x-hat)) / std."""
    x = ops.tensor(x)
    mean = x.data.mean(axis=axes, keepdims=True)
    centred = x.data - mean
    rstd = 1 / np.sqrt(np.mean(centred * centred, axis=axes, keepdims=True) + np.asarray(eps, x.dtype))
    xhat = (centred * rstd).astype(x.dtype)

    def backward(g):
        return (rstd * (g - g.mean(axis=axes, keepdims=True) - xhat * (g * xhat).mean(axis=axes, keepdims=True)),)

    return Tensor.record(xhat, (x,), backward, "standardized")


def _affine(xhat, weight, bias, shape):
    """xhat * weight + bias, each given as a vector laid out to `shape` (None: left out)."""
    out = xhat if weight is None else xhat * ops.reshape(weight, shape)
    return out if bias is None else out + ops.reshape(bias, shape)


def layer_norm(x, weight=None, bias=None, eps=1e-5):
    """(x - mean) / sqrt(var + eps) * weight + bias over the last axis, var biased (divided by n)."""
    x = ops.tensor(x)
    return _affine(standardized(x, (-1,), eps), weight, bias, (x.shape[-1],))


def _channels(x):
    """batch norm's reduced axes of x [N, C, *] and the shape that lays a [C] vector on axis 1."""
    return (0, *range(2, x.ndim)), (1, -1) + (1,) * (x.ndim - 2)


def batch_norm(x, running_mean=None, running_var=None, weight=None, bias=None, training=False, eps=1e-5):
    """torch.nn.functional.batch_norm's output on x [N, C, *]: standardised per channel by the
    batch's statistics (training) or the running ones; the running statistics' update is
    batch_norm_stats (the engine updates no state in place)."""
    x = ops.tensor(x)
    axes, shape = _channels(x)
    if training:
        xhat = standardized(x, axes, eps)
    elif running_mean is None or running_var is None:
        raise ValueError("batch_norm: inference (training=False) normalises by running_mean and running_var")
    else:
        std = ops.sqrt(ops.reshape(running_var, shape) + np.asarray(eps, x.dtype))
        xhat = (x - ops.reshape(running_mean, shape)) / std
    return _affine(xhat, weight, bias, shape)


def batch_norm_stats(x, running_mean, running_var, momentum=0.1):
    """(1 - momentum) * running + momentum * batch per channel, the batch variance unbiased, as
    torch's training step leaves its buffers: statistics, not on the tape."""
    x, running_mean, running_var = (ops.tensor(v).data for v in (x, running_mean, running_var))
    axes, _ = _channels(x)
    m = np.asarray(momentum, x.dtype)
    batch_var = x.var(axis=axes, ddof=1).astype(x.dtype)
    return (Tensor((1 - m) * running_mean + m * x.mean(axis=axes).astype(x.dtype)),
            Tensor((1 - m) * running_var + m * batch_var))


def norm(x, axis=None, keepdims=False):
    """sqrt(sum x^2) over axis: vector_norm's ord 2 (engine/linalg.py; its gradient x / norm, and 0
    where the norm is 0, as torch's vector_norm: the subgradient of least norm)."""
    return linalg.vector_norm(x, axis, keepdims, 2)


def normalize(x, axis=-1, eps=1e-12):
    """x / max(||x||, eps) along axis (torch.nn.functional.normalize)."""
    x = ops.tensor(x)
    return x / ops.maximum(norm(x, axis, keepdims=True), np.asarray(eps, x.dtype))


def embedding(indices, weight, padding_idx=None):
    """weight[indices]; the gradient adds every look-up's cotangent into its row, except the
    padding_idx row's (negative: from the end), which gets none."""
    indices = np.asarray(ops.tensor(indices).data)
    weight = ops.tensor(weight)
    rows = weight.shape[0]
    if indices.size and (indices.min() < 0 or indices.max() >= rows):
        raise IndexError(f"embedding: indices must lie in [0, {rows})")
    if padding_idx is None:
        return subscript.index(weight, indices)
    if not -rows <= padding_idx < rows:
        raise ValueError(f"embedding: padding_idx must lie in [-{rows}, {rows}). Received: {padding_idx}")
    padding = indices == padding_idx % rows
    return ops.where(padding[..., None], ops.stop_gradient(weight)[indices], subscript.index(weight, indices))


def cross_entropy(logits, target, reduction="mean", label_smoothing=0.0, ignore_index=None):
    """-sum_c q_c log_softmax(logits)_c per row of logits [N, C]; q one-hot of class indices [N]
    (integer target) or probabilities [N, C], mixed with the uniform by label_smoothing. Rows of
    class ignore_index weigh 0; the mean divides by the rows kept."""
    logits = ops.tensor(logits)
    target = ops.tensor(target)
    classes = logits.shape[1]
    if target.dtype.kind in "iu":
        labels = target.data
        kept = np.ones(labels.shape, bool) if ignore_index is None else labels != ignore_index
        q = (np.where(kept, labels, 0)[:, None] == np.arange(classes)).astype(logits.dtype)
        q = Tensor(q)
    else:
        kept, q = np.ones(target.shape[:1], bool), target
    if label_smoothing:
        q = q * (1 - label_smoothing) + label_smoothing / classes
    losses = ops.where(kept, -ops.sum(q * ops.log_softmax(logits, 1), axis=1), np.zeros((), logits.dtype))
    if reduction == "none":
        return losses
    if reduction == "sum":
        return ops.sum(losses)
    if reduction != "mean":
        raise ValueError(f"cross_entropy: reduction takes 'mean', 'sum' or 'none'. Received: {reduction!r}")
    with np.errstate(invalid="ignore", divide="ignore"):  # every row ignored: 0 / 0, NaN as torch
        return ops.sum(losses) / np.asarray(kept.sum(), logits.dtype)


def multi_head_attention_weights(query, key, value, params, num_heads, key_padding_mask=None, batch_first=True):
    """torch.nn.MultiheadAttention's computation with its parameter names: (output, the weights
    of each head [B, N, T, S]); keys where key_padding_mask is True are left out (a query left
    with none gets 0, masked_softmax)."""
    query, key, value = (ops.tensor(t) for t in (query, key, value))
    if not batch_first:
        query, key, value = (ops.transpose(t, (1, 0, 2)) for t in (query, key, value))
    embed = query.shape[-1]
    head = embed // num_heads
    w_in, b_in = ops.tensor(params["in_proj_weight"]), ops.tensor(params["in_proj_bias"])

    def heads(x, part):  # the part-th of the stacked q, k, v projections, [B, L, E] -> [B, N, L, E / N]
        rows = slice(part * embed, (part + 1) * embed)
        y = linear(x, w_in[rows], b_in[rows])
        return ops.transpose(ops.reshape(y, (*y.shape[:2], num_heads, head)), (0, 2, 1, 3))

    q, k, v = heads(query, 0), heads(key, 1), heads(value, 2)
    scores = ops.matmul(q, ops.transpose(k, (0, 1, 3, 2))) * np.asarray(1 / math.sqrt(head), q.dtype)
    if key_padding_mask is None:
        weights = ops.softmax(scores, -1)
    else:
        weights = masked_softmax(scores, ~np.asarray(ops.tensor(key_padding_mask).data, bool)[:, None, None, :], -1)
    joined = ops.reshape(ops.transpose(ops.matmul(weights, v), (0, 2, 1, 3)), (*query.shape[:2], embed))
    out = linear(joined, params["out_proj.weight"], params["out_proj.bias"])
    return (out if batch_first else ops.transpose(out, (1, 0, 2))), weights


def multi_head_attention(query, key, value, params, num_heads, key_padding_mask=None, batch_first=True):
    """torch.nn.MultiheadAttention's output (multi_head_attention_weights' first part)."""
    return multi_head_attention_weights(query, key, value, params, num_heads, key_padding_mask, batch_first)[0]


def dot_product_attention(q, k, v, mask=None, bias=None, causal=False, scale=None):
    """softmax(q k^T * scale + bias) v on [B, N, T, D] tensors, over the keys a query may attend
    to (mask True, and j <= i where causal); a query with no such key gets 0 (masked_softmax)."""
    q, k, v = ops.tensor(q), ops.tensor(k), ops.tensor(v)
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    # the scale applied to q (T x D numbers) rather than to the scores (T x S): one rounding either way
    scores = ops.matmul(q * np.asarray(scale, q.dtype), ops.transpose(k, (0, 1, 3, 2)))
    if bias is not None:
        scores = scores + bias
    allowed = None if mask is None else np.asarray(ops.tensor(mask).data, bool)
    if causal:
        triangle = np.tril(np.ones(scores.shape[-2:], bool))
        allowed = triangle if allowed is None else allowed & triangle
    weights = ops.softmax(scores, -1) if allowed is None else masked_softmax(scores, allowed, -1)
    return ops.matmul(weights, v)
