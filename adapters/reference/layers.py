"""The float64 oracle's layers: the ops models are built from, from their documented semantics.

A mixin of adapters.reference.ReferenceAdapter (one oracle; this file keeps reference.py short).
Every function is the textbook formula, written for clarity, on NumPy arrays.
"""
import itertools
import math

import numpy as np

from adapters.base import as_tuple, axes_tuple, stacked_rnn
from vocabulary.params import rnn_suffix

# NumPy has no erf; math's are good to about 1 ulp, erfc in the tail too (1 + erf(x) cancels there)
erf = np.vectorize(math.erf, otypes=[np.float64])
erfc = np.vectorize(math.erfc, otypes=[np.float64])


def _batch_axes(x):
    """batch norm's axes of x [N, C, *]: every axis but the channels', and a function that lays
    a per-channel vector [C] along axis 1."""
    return (0, *range(2, x.ndim)), lambda v: np.reshape(v, (1, -1) + (1,) * (x.ndim - 2))


class LayerReference:
    """Layer ops of the reference; `self` also has the elementwise and softmax ops."""

    def linear(self, x, weight, bias=None):
        """torch.nn.functional.linear: y = x W^T + b, W [out, in]."""
        out = np.einsum("...i,oi->...o", x, weight)
        return out if bias is None else out + bias

    def gelu(self, x, approximate="none"):
        """GELU (Hendrycks and Gimpel): x Phi(x) = x (1 + erf(x / sqrt 2)) / 2; approximate='tanh' is
        their tanh approximation, 0.5 x (1 + tanh(z)), z = sqrt(2 / pi) (x + 0.044715 x^3). Computed
        as x erfc(-x / sqrt 2) / 2 and x / (1 + exp(-2 z)), the same functions without the
        cancellation of 1 + erf and 1 + tanh for x < 0 (which would blur the finite differences)."""
        if approximate == "tanh":
            inner = math.sqrt(2 / math.pi) * (x + 0.044715 * x ** 3)
            with np.errstate(over="ignore"):
                return (x / (1 + np.exp(-2 * inner))).astype(x.dtype)
        if approximate != "none":
            raise ValueError(f"approximate takes 'none' or 'tanh'. Received: {approximate!r}")
        return (0.5 * x * erfc(-x / math.sqrt(2))).astype(x.dtype)

    def gru(self, x, h0, params, num_layers=1, bidirectional=False, batch_first=True, reset_after=True,
            training=True):
        """torch.nn.GRU, step by step (the same in either mode: no dropout): with W_ih x_t + b_ih and
        W_hh h + b_hh split into blocks r, z, n: r = sigmoid(i_r + h_r), z = sigmoid(i_z + h_z), n =
        tanh(i_n + r * h_n), h = (1 - z) n + z h. reset_after=False (Keras' other convention, Cho et
        al.'s original) resets the state before the matmul: n = tanh(i_n + W_hn (r * h) + b_hn).
        Stacked and indexed as lstm."""
        seq = np.swapaxes(x, 0, 1) if batch_first else x  # [T, B, I]
        hidden = params["weight_hh_l0"].shape[1]
        if h0 is None:  # "Defaults to zeros if not provided"
            h0 = np.zeros(((2 if bidirectional else 1) * num_layers, seq.shape[1], hidden), seq.dtype)

        def direction(seq, layer, d, k):
            w_ih, w_hh, b_ih, b_hh = (params[f"{name}{rnn_suffix(layer, d)}"] for name in
                                      ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))
            h = h0[k]
            out = np.zeros(seq.shape[:2] + (hidden,), dtype=seq.dtype)
            for t in (reversed(range(len(seq))) if d else range(len(seq))):
                i_r, i_z, i_n = np.split(seq[t] @ w_ih.T + b_ih, 3, axis=-1)
                h_r, h_z, h_n = np.split(h @ w_hh.T + b_hh, 3, axis=-1)
                r, z = self.sigmoid(i_r + h_r), self.sigmoid(i_z + h_z)
                if not reset_after:
                    h_n = (r * h) @ w_hh[2 * hidden:].T + b_hh[2 * hidden:]
                    r = 1
                h = (1 - z) * np.tanh(i_n + r * h_n) + z * h
                out[t] = h
            return out, h

        seq, h_n = stacked_rnn(seq, num_layers, bidirectional, direction, lambda outs: np.concatenate(outs, axis=-1))
        return (np.swapaxes(seq, 0, 1) if batch_first else seq), np.stack(h_n)

    def batch_norm(self, x, running_mean=None, running_var=None, weight=None, bias=None, training=False,
                   eps=1e-5):
        """(x - E[x]) / sqrt(Var[x] + eps) * gamma + beta per channel (axis 1); in training the
        batch's mean and biased variance over the other axes, else the running ones
        (torch.nn.BatchNorm2d's docs)."""
        axes, channel = _batch_axes(x)
        if training:
            mean = np.mean(x, axis=axes, keepdims=True)
            var = np.mean((x - mean) ** 2, axis=axes, keepdims=True)
        elif running_mean is None or running_var is None:
            raise ValueError("batch_norm: inference (training=False) normalises by running_mean and running_var")
        else:
            mean, var = channel(running_mean), channel(running_var)
        out = (x - mean) / np.sqrt(var + eps)
        out = out if weight is None else out * channel(weight)
        return out if bias is None else out + channel(bias)

    def batch_norm_stats(self, x, running_mean, running_var, momentum=0.1):
        """The running statistics after a training step: (1 - momentum) running + momentum batch,
        the batch variance unbiased ("calculated via the unbiased estimator", torch's docs)."""
        axes, _ = _batch_axes(x)
        n = x.size // x.shape[1]
        mean = np.mean(x, axis=axes, keepdims=True)
        var = np.sum((x - mean) ** 2, axis=axes) / (n - 1)
        return ((1 - momentum) * running_mean + momentum * mean.reshape(-1),
                (1 - momentum) * running_var + momentum * var)

    def cumsum(self, x, axis):
        """numpy.cumsum along axis, in x's dtype."""
        return np.cumsum(x, axis=axis, dtype=x.dtype)

    def layer_norm(self, x, weight=None, bias=None, eps=1e-5):
        """(x - E[x]) / sqrt(Var[x] + eps) * weight + bias over the last axis; Var is the biased
        variance, E[(x - E[x])^2] (torch.nn.LayerNorm's docs)."""
        mean = np.mean(x, axis=-1, keepdims=True)
        var = np.mean((x - mean) ** 2, axis=-1, keepdims=True)
        out = (x - mean) / np.sqrt(var + eps)
        out = out if weight is None else out * weight
        return out if bias is None else out + bias

    def norm(self, x, axis=None, keepdims=False):
        """sqrt(sum x^2) over axis, computed as m sqrt(sum (x / m)^2) with m = max |x| so that
        squares of tiny (or huge) values neither underflow nor overflow (as LAPACK's nrm2)."""
        axis = axes_tuple(axis)
        m = np.max(np.abs(x), axis=axis, keepdims=True)
        with np.errstate(invalid="ignore", divide="ignore"):
            scaled = np.where(m > 0, x / np.where(m > 0, m, 1), 0)
        out = m * np.sqrt(np.sum(np.square(scaled), axis=axis, keepdims=True))
        return out if keepdims else np.squeeze(out, axis=axis)

    def normalize(self, x, axis=-1, eps=1e-12):
        """x / max(||x||_2, eps) along axis (torch.nn.functional.normalize's docs)."""
        return x / np.maximum(self.norm(x, axis, keepdims=True), eps)

    def embedding(self, indices, weight, padding_idx=None):
        """weight[indices]: row i of the table for index i. padding_idx changes no value: it is
        a statement about the gradient, which the specs check against documented values."""
        indices = np.asarray(indices)
        if indices.size and (indices.min() < 0 or indices.max() >= len(weight)):
            raise IndexError(f"embedding: indices must lie in [0, {len(weight)})")
        return weight[indices]

    def cross_entropy(self, logits, target, reduction="mean", label_smoothing=0.0, ignore_index=None):
        """torch.nn.functional.cross_entropy's docs: l_n = -sum_c q_nc log softmax(x_n)_c, q the
        (smoothed) target distribution; rows of an ignored class weigh 0 and the mean divides by
        the rows kept."""
        logits, target = np.asarray(logits), np.asarray(target)
        classes = logits.shape[1]
        logp = self.log_softmax(logits, axis=1)
        if target.dtype.kind in "iu":
            kept = np.ones(target.shape, bool) if ignore_index is None else target != ignore_index
            q = (np.where(kept, target, 0)[:, None] == np.arange(classes)).astype(logits.dtype)
        else:
            kept, q = np.ones(target.shape[:1], bool), target
        q = (1 - label_smoothing) * q + label_smoothing / classes
        losses = np.where(kept, -np.sum(q * logp, axis=1), 0)
        if reduction == "none":
            return losses
        if reduction == "sum":
            return np.sum(losses)
        if reduction != "mean":
            raise ValueError(f"reduction takes 'mean', 'sum' or 'none'. Received: {reduction!r}")
        with np.errstate(invalid="ignore", divide="ignore"):  # every row ignored: 0 / 0, NaN as torch
            return np.sum(losses) / logits.dtype.type(np.sum(kept))

    def dot_product_attention(self, q, k, v, mask=None, bias=None, causal=False, scale=None):
        """softmax(q k^T * scale + bias) v over the keys each query may attend to (mask, and the
        causal triangle j <= i); a query that may attend to none gets 0, as masked_softmax."""
        if q.ndim != 4 or k.ndim != 4 or v.ndim != 4:
            raise ValueError(f"dot_product_attention takes [B, N, T, D] tensors. Received: {q.shape}, {k.shape}, "
                             f"{v.shape}")
        scale = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
        scores = np.einsum("bnid,bnjd->bnij", q, k) * scale
        if bias is not None:
            scores = scores + bias
        allowed = attention_allowed(scores.shape, mask, causal)
        return np.einsum("bnij,bnjd->bnid", self.masked_softmax(scores, allowed), v)


    def multi_head_attention(self, query, key, value, params, num_heads, key_padding_mask=None, batch_first=True):
        """torch.nn.MultiheadAttention's output (multi_head_attention_weights' first part)."""
        return self.multi_head_attention_weights(query, key, value, params, num_heads, key_padding_mask,
                                                 batch_first)[0]

    def multi_head_attention_weights(self, query, key, value, params, num_heads, key_padding_mask=None,
                                     batch_first=True):
        """Attention(Q W_q^T + b_q, K W_k^T + b_k, V W_v^T + b_v) per head of E / num_heads
        features, the heads concatenated and projected by out_proj (Vaswani et al., section 3.2.2,
        as torch.nn.MultiheadAttention's docs write it); keys where key_padding_mask is True left
        out of every query's softmax (masked_softmax: a query left with none gets 0)."""
        if not batch_first:
            query, key, value = (np.swapaxes(t, 0, 1) for t in (query, key, value))
        embed = query.shape[-1]
        if embed % num_heads:
            raise ValueError(f"multi_head_attention: embed_dim {embed} is not divisible by num_heads {num_heads}")
        w_q, w_k, w_v = np.split(params["in_proj_weight"], 3)
        b_q, b_k, b_v = np.split(params["in_proj_bias"], 3)

        def heads(x, w, b):  # [B, L, E] -> [B, N, L, E / N]
            y = self.linear(x, w, b)
            return np.swapaxes(y.reshape(*y.shape[:2], num_heads, embed // num_heads), 1, 2)

        q, k, v = heads(query, w_q, b_q), heads(key, w_k, b_k), heads(value, w_v, b_v)
        scores = np.einsum("bnid,bnjd->bnij", q, k) * self.attention_scale(embed // num_heads)
        kept = True if key_padding_mask is None else ~np.asarray(key_padding_mask, bool)[:, None, None, :]
        weights = self.masked_softmax(scores, np.broadcast_to(kept, scores.shape))
        joined = np.swapaxes(np.einsum("bnij,bnjd->bnid", weights, v), 1, 2).reshape(query.shape[:2] + (embed,))
        out = self.linear(joined, params["out_proj.weight"], params["out_proj.bias"])
        return (out if batch_first else np.swapaxes(out, 0, 1)), weights

    def attention_scale(self, head_dim: int) -> float:
        """Multi-head attention's score scale, 1 / sqrt(head_dim): a method of its own, so that a
        behaviour's model (adapters/behaviours.py) can round it as a framework does."""
        return 1 / math.sqrt(head_dim)

    def max_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        """The largest value of each window, over its elements inside x."""
        return _pool(x, kernel, stride, padding, ceil_mode, lambda window, size: np.max(window, axis=(-2, -1)))

    def avg_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        """The sum of each window's elements inside x over the window's size (with its padding,
        up to the padded edge) or over their count."""
        def mean(window, padded_size):
            count = padded_size if count_include_pad and padding != "same" else window.shape[-2] * window.shape[-1]
            return np.sum(window, axis=(-2, -1)) / count
        return _pool(x, kernel, stride, padding, ceil_mode, mean)

    def max_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self.max_pool2d(x[:, :, None], *_lifted(kernel, stride, padding), ceil_mode)[:, :, 0]

    def avg_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self.avg_pool2d(x[:, :, None], *_lifted(kernel, stride, padding), ceil_mode,
                               count_include_pad)[:, :, 0]


def pool_windows(length: int, kernel: int, stride: int, padding, ceil_mode: bool) -> list:
    """One spatial axis of a pooling: per output, (start, end) of its window inside x and the
    size of the window up to the padded edge. torch's rule for int padding (floor or ceil of
    (L + 2p - k) / s, + 1; with ceil_mode a last window must start before L + p); TensorFlow's
    SAME for 'same' (ceil(L / s) windows, padding split with the odd element at the end)."""
    if padding == "same":
        count = -(-length // stride)
        before = max((count - 1) * stride + kernel - length, 0) // 2
        padded_end = length + kernel  # SAME counts no padding: the size is moot
    else:
        before = 0 if padding == "valid" else int(padding)
        span = length + 2 * before - kernel
        if span < 0:
            raise ValueError(f"pooling: kernel {kernel} is larger than the padded input {length + 2 * before}")
        count = (-(-span // stride) if ceil_mode else span // stride) + 1
        if ceil_mode and (count - 1) * stride >= length + before:
            count -= 1
        padded_end = length + before
    windows = []
    for o in range(count):
        start = o * stride - before
        windows.append((max(start, 0), min(start + kernel, length), min(start + kernel, padded_end) - start))
    return windows


def _pool(x, kernel, stride, padding, ceil_mode, reduce):
    """reduce(windows [N, C, h, w], padded_size) over every window position of x [N, C, H, W]."""
    kernel = as_tuple(kernel, 2)
    stride = kernel if stride is None else as_tuple(stride, 2)
    pads = (padding, padding) if isinstance(padding, (int, str)) else tuple(padding)
    rows, cols = (pool_windows(x.shape[2 + d], kernel[d], stride[d], pads[d], ceil_mode) for d in range(2))
    out = np.zeros(x.shape[:2] + (len(rows), len(cols)), x.dtype)
    for (i, (r0, r1, rsize)), (j, (c0, c1, csize)) in itertools.product(enumerate(rows), enumerate(cols)):
        out[:, :, i, j] = reduce(x[:, :, r0:r1, c0:c1], rsize * csize)
    return out


def _lifted(kernel, stride, padding) -> tuple:
    """A 1-d pooling's kernel, stride and padding over a height of 1."""
    return ((1, kernel), None if stride is None else (1, stride),
            padding if isinstance(padding, str) else (0, padding))


def attention_allowed(shape, mask, causal) -> np.ndarray:
    """bool scores-shaped [..., Tq, Tk]: where a query may attend to a key (mask and the causal
    top-left triangle j <= i)."""
    allowed = np.ones(shape, bool)
    if mask is not None:
        allowed = allowed & np.asarray(mask, bool)
    return allowed & np.tril(np.ones(shape[-2:], bool)) if causal else allowed
