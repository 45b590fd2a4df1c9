"""The functional layers models are built from: linear, gelu, layer_norm, embedding,
cross_entropy and dot_product_attention, with PyTorch's semantics and argument layouts.

GELU and layer norm are single primitives with their own backward (as PyTorch's kernels are: the
backward keeps x, not every intermediate); the others compose the engine's differentiable ops.
"""
import math

import numpy as np

from engine import ops
from engine.sequence import masked_softmax
from engine.tensor import Tensor

_erfc = np.vectorize(math.erfc, otypes=[np.float64])  # NumPy has no erfc; math.erfc is accurate to ~1 ulp
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
    elif approximate == "none":
        cdf = 0.5 * _erfc(-wide / math.sqrt(2))
        out = wide * cdf
        slope = cdf + wide * np.exp(-0.5 * wide * wide) / math.sqrt(2 * math.pi)
    else:
        raise ValueError(f"gelu: approximate takes 'none' or 'tanh'. Received: {approximate!r}")
    return Tensor.record(out.astype(x.dtype), (x,), lambda g: ((g * slope).astype(x.dtype),), "gelu")


def layer_norm(x, weight=None, bias=None, eps=1e-5):
    """(x - mean) / sqrt(var + eps) * weight + bias over the last axis, var biased (divided by
    n), computed two-pass (the mean first), as PyTorch does."""
    x = ops.tensor(x)
    mean = x.data.mean(axis=-1, keepdims=True)
    centred = x.data - mean
    rstd = 1 / np.sqrt(np.mean(centred * centred, axis=-1, keepdims=True) + np.asarray(eps, x.dtype))
    xhat = centred * rstd
    w = None if weight is None else ops.tensor(weight)
    b = None if bias is None else ops.tensor(bias)
    out = xhat if w is None else xhat * w.data
    out = out if b is None else out + b.data
    leading = tuple(range(x.ndim - 1))

    def backward(g):
        dxhat = g if w is None else g * w.data
        dx = rstd * (dxhat - dxhat.mean(axis=-1, keepdims=True)
                     - xhat * (dxhat * xhat).mean(axis=-1, keepdims=True))
        grads = [dx]
        if w is not None:
            grads.append(np.sum(g * xhat, axis=leading))
        if b is not None:
            grads.append(np.sum(g, axis=leading))
        return tuple(grads)

    parents = tuple(t for t in (x, w, b) if t is not None)
    return Tensor.record(out.astype(x.dtype), parents, backward, "layer_norm")


def norm(x, axis=None, keepdims=False):
    """sqrt(sum x^2) over axis; the gradient x / norm, and 0 where the norm is 0 (as torch's
    vector_norm: the subgradient of least norm)."""
    x = ops.tensor(x)
    axes = tuple(range(x.ndim)) if axis is None else tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    largest = np.max(np.abs(x.data), axis=axes, keepdims=True)  # scaled: tiny squares would underflow
    safe = np.where(largest > 0, largest, 1)
    total = largest * np.sqrt(np.sum(np.square(x.data / safe), axis=axes, keepdims=True))

    def backward(g):
        g = g if keepdims else np.expand_dims(g, tuple(a % x.ndim for a in axes))
        with np.errstate(invalid="ignore", divide="ignore"):
            return (np.where(total == 0, 0, g * x.data / total).astype(x.dtype),)

    out = total if keepdims else np.squeeze(total, axis=axes)
    return Tensor.record(out, (x,), backward, "norm")


def normalize(x, axis=-1, eps=1e-12):
    """x / max(||x||, eps) along axis (torch.nn.functional.normalize)."""
    x = ops.tensor(x)
    return x / ops.maximum(norm(x, axis, keepdims=True), np.asarray(eps, x.dtype))


def embedding(indices, weight):
    """weight[indices]; the gradient adds every look-up's cotangent into its row."""
    indices = np.asarray(ops.tensor(indices).data)
    weight = ops.tensor(weight)
    if indices.size and (indices.min() < 0 or indices.max() >= weight.shape[0]):
        raise IndexError(f"embedding: indices must lie in [0, {weight.shape[0]})")
    return ops.index(weight, indices)


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


def dot_product_attention(q, k, v, mask=None, bias=None, causal=False, scale=None):
    """softmax(q k^T * scale + bias) v on [B, N, T, D] tensors, over the keys a query may attend
    to (mask True, and j <= i where causal); a query with no such key gets 0 (masked_softmax)."""
    q, k, v = ops.tensor(q), ops.tensor(k), ops.tensor(v)
    scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    scores = ops.matmul(q, ops.transpose(k, (0, 1, 3, 2))) * np.asarray(scale, q.dtype)
    if bias is not None:
        scores = scores + bias
    allowed = None if mask is None else np.asarray(ops.tensor(mask).data, bool)
    if causal:
        triangle = np.tril(np.ones(scores.shape[-2:], bool))
        allowed = triangle if allowed is None else allowed & triangle
    weights = ops.softmax(scores, -1) if allowed is None else masked_softmax(scores, allowed, -1)
    return ops.matmul(weights, v)
