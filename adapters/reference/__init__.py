"""The float64 NumPy oracle, written for clarity from each op's documented semantics.

The suite evaluates every spec here on float64 copies of the inputs to get the expected values.
As an adapter under test it runs NumPy itself at the requested dtype, so "reference" is also the
NumPy column of a comparison. It has no autodiff: gradients are checked against central finite
differences of this oracle instead (suites/judging/gradients.py).
"""
import warnings

import numpy as np

from adapters.base import (
    BITWISE_OPS,
    FLOATS,
    INTEGERS,
    Adapter,
    Unsupported,
    axes_tuple,
    dtypes_except,
    given,
    lift_1d,
    stacked_rnn,
)
from adapters.reference.collectives import Collectives
from adapters.reference.creation import CreationReference
from adapters.reference.dtypes import DtypeReference
from adapters.reference.elementwise import COMPONENT_DTYPES, ElementwiseReference
from adapters.reference.fft import FftReference
from adapters.reference.idioms import IdiomReference
from adapters.reference.indexing import IndexingReference
from adapters.reference.initializers import InitializerReference
from adapters.reference.layers import LayerReference
from adapters.reference.linalg import LinalgReference
from adapters.reference.manipulation import ManipulationReference
from adapters.reference.matrices import MatrixReference
from adapters.reference.optimizers import OptimizerReference
from vocabulary import PAD_MODES
from vocabulary.fft import FREQUENCY_OPS
from vocabulary.linalg import FACTORED_OPS
from vocabulary.params import rnn_suffix


class ReferenceAdapter(LayerReference, ManipulationReference, MatrixReference, LinalgReference, CreationReference,
                       DtypeReference, FftReference, OptimizerReference, InitializerReference, IdiomReference,
                       IndexingReference, ElementwiseReference, Adapter):
    name = "reference"
    module = "numpy"
    differentiates = False  # gradients are checked against its finite differences, not computed by it
    dtypes = {"*": dtypes_except("bfloat16"),  # NumPy has no bfloat16
              **COMPONENT_DTYPES,
              **dict.fromkeys(("sub", "neg", "sigmoid", "sign", "positive", "cross", "softmax", "log_softmax", "lstm",
                               "gru", "cross_entropy", "gelu", "batch_norm"), dtypes_except("bfloat16", "bool")),
              **dict.fromkeys(BITWISE_OPS, dtypes_except(*FLOATS)),
              **dict.fromkeys((*FACTORED_OPS, "matrix_norm"), ("float16", "float32", "float64")),  # in float64
              **dict.fromkeys((*FREQUENCY_OPS, "finfo"), ("float16", "float32", "float64")),
              "iinfo": INTEGERS}

    def version(self):
        return np.__version__

    def asarray(self, x, dtype, device):
        if dtype == "bfloat16":
            raise Unsupported("NumPy has no bfloat16 dtype")
        return np.asarray(x, dtype=dtype)

    def to_numpy(self, x):
        # an initializer's result is its law (adapters/reference/initializers.py): a sample of it
        return x.draw() if hasattr(x, "draw") else np.asarray(x)

    def dtype_of(self, x):
        return x.dtype if hasattr(x, "draw") else np.asarray(x).dtype.name

    def matmul(self, a, b):
        """numpy.matmul docs: a 1-D first operand is promoted to (1, n) and a 1-D second operand
        to (n, 1), the added axis is removed afterwards; leading (batch) axes broadcast."""
        if a.ndim == 0 or b.ndim == 0:
            raise ValueError("matmul: scalar operands are not allowed")
        left = a[None, :] if a.ndim == 1 else a
        right = b[:, None] if b.ndim == 1 else b
        if left.shape[-1] != right.shape[-2]:
            raise ValueError(f"matmul: contracted dimensions differ: {a.shape} x {b.shape}")
        batch = np.broadcast_shapes(left.shape[:-2], right.shape[:-2])
        left = np.broadcast_to(left, batch + left.shape[-2:])
        right = np.broadcast_to(right, batch + right.shape[-2:])
        out = np.einsum("...ij,...jk->...ik", left, right)
        if a.ndim == 1:
            out = out[..., 0, :]
        if b.ndim == 1:
            out = out[..., 0]
        return out

    def mm(self, a, b):
        """torch.mm docs: (n, m) x (m, p) -> (n, p); strictly 2-D, no broadcasting."""
        if a.ndim != 2 or b.ndim != 2 or a.shape[1] != b.shape[0]:
            raise ValueError(f"mm: needs (n, m) x (m, p). Received: {a.shape} x {b.shape}")
        return np.einsum("ij,jk->ik", a, b)

    def bmm(self, a, b):
        """torch.bmm docs: (b, n, m) x (b, m, p) -> (b, n, p); strictly 3-D, no broadcasting."""
        if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
            raise ValueError(f"bmm: needs (b, n, m) x (b, m, p). Received: {a.shape} x {b.shape}")
        return np.einsum("bij,bjk->bik", a, b)

    def einsum(self, xs, equation):
        """numpy.einsum with an explicit output (Parity's contract: '->' written out)."""
        if "->" not in equation or "." in equation:
            raise ValueError(f"einsum: the equation needs an explicit output and no ellipsis. Received: {equation!r}")
        return np.einsum(equation, *xs)

    def tensordot(self, a, b, axes):
        return np.tensordot(a, b, axes=axes if isinstance(axes, int) else [list(axes[0]), list(axes[1])])

    def dot(self, a, b):
        return np.dot(a, b)

    def add(self, a, b):
        return np.add(a, b)

    def sub(self, a, b):
        return np.subtract(a, b)

    def mul(self, a, b):
        return np.multiply(a, b)

    def div(self, a, b):
        return np.divide(a, b)

    def maximum(self, a, b):
        """IEEE 754-2019 maximum: NaN propagates, and -0 < +0 (numpy.maximum returns its second
        operand where both are zeros): a + b is that on zeros (+0 unless both are -0)."""
        return _on_float_zeros(np.maximum(a, b), a, b, lambda: np.add(a, b))

    def minimum(self, a, b):
        """IEEE 754-2019 minimum: on zeros -(-a + -b), -0 unless both are +0 (Python's operators: a
        Python number stays one, weakly typed, where np.negative would make it a float64)."""
        return _on_float_zeros(np.minimum(a, b), a, b, lambda: -((-a) + (-b)))

    def pow(self, a, b):
        return np.power(a, b)

    def greater(self, a, b):
        return np.greater(a, b)

    def clip(self, x, lo, hi):
        return np.minimum(np.maximum(x, lo), hi)

    def neg(self, x):
        return np.negative(x)

    def exp(self, x):
        return np.exp(x)

    def log(self, x):
        return np.log(x)

    def tanh(self, x):
        return np.tanh(x)

    def sigmoid(self, x):
        return 1 / (1 + np.exp(-x))

    def relu(self, x):
        return np.maximum(x, np.zeros((), x.dtype))

    def abs(self, x):
        return np.abs(x)

    def sqrt(self, x):
        return np.sqrt(x)

    def square(self, x):
        return np.square(x)

    def round(self, x, half="even"):
        if half == "even":
            return np.round(x)
        whole = np.trunc(x)  # x - whole is exact: away from zero where that is half or more
        return whole + np.sign(x) * (np.abs(x - whole) >= 0.5)

    def sign(self, x):
        return np.sign(x)

    def sum(self, x, axis=None, keepdims=False):
        return np.sum(x, axis=axes_tuple(axis), keepdims=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        with warnings.catch_warnings():  # the mean of nothing is 0 / 0, NaN, as documented: NumPy also warns
            warnings.filterwarnings("ignore", "Mean of empty slice", RuntimeWarning)
            return np.mean(x, axis=axes_tuple(axis), keepdims=keepdims)

    def max(self, x, axis=None, keepdims=False):
        return np.max(x, axis=axes_tuple(axis), keepdims=keepdims)

    def min(self, x, axis=None, keepdims=False):
        return np.min(x, axis=axes_tuple(axis), keepdims=keepdims)

    def prod(self, x, axis=None, keepdims=False):
        """NumPy's prod: an empty product is 1, a signed integer or bool x gives int64 and an
        unsigned one uint64, as the standard asks."""
        return np.prod(x, axis=axes_tuple(axis), keepdims=keepdims)

    def var(self, x, axis=None, correction=None, keepdims=False):
        """The standard's variance: correction None is its default, 0. Where M - correction <= 0 (M
        the elements reduced, the same for every output) the result is NaN, as the standard
        states; NumPy's var clips its divisor at 0 and gives inf or NaN there."""
        axis, correction = axes_tuple(axis), 0 if correction is None else correction
        axes = range(np.ndim(x)) if axis is None else np.atleast_1d(axis)
        count = int(np.prod([np.shape(x)[a] for a in axes]))
        with warnings.catch_warnings():  # a divisor of 0 or less: NaN below, silently
            warnings.simplefilter("ignore", RuntimeWarning)
            out = np.var(x, axis=axis, ddof=correction, keepdims=keepdims)
        return np.full_like(out, np.nan) if count - correction <= 0 else out

    def std(self, x, axis=None, correction=None, keepdims=False):
        return np.sqrt(self.var(x, axis, correction, keepdims))

    def all(self, x, axis=None, keepdims=False):
        return np.all(x, axis=axes_tuple(axis), keepdims=keepdims)

    def any(self, x, axis=None, keepdims=False):
        return np.any(x, axis=axes_tuple(axis), keepdims=keepdims)

    def count_nonzero(self, x, axis=None, keepdims=False):
        return np.asarray(np.count_nonzero(x, axis=axes_tuple(axis), keepdims=keepdims), dtype=np.int64)

    def cumprod(self, x, axis):
        """NumPy's cumprod, whose dtype is prod's (a signed integer or bool x gives int64)."""
        return np.cumprod(x, axis=axis)

    def diff(self, x, axis=-1, n=1, prepend=None, append=None):
        """NumPy's diff (prepend and append joined along axis first; a bool x gives !=)."""
        return np.diff(x, n=n, axis=axis, **given(prepend=prepend, append=append))

    def reshape(self, x, shape):
        return np.reshape(x, shape)

    def transpose(self, x, axes):
        return np.transpose(x, axes)

    def concat(self, xs, axis):
        return np.concatenate(xs, axis=axis)

    def stack(self, xs, axis):
        return np.stack(xs, axis=axis)

    def softmax(self, x, axis=-1):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)

    def log_softmax(self, x, axis=-1):
        shifted = x - np.max(x, axis=axis, keepdims=True)
        return shifted - np.log(np.sum(np.exp(shifted), axis=axis, keepdims=True))

    def where(self, cond, x, y):
        return np.where(cond, x, y)

    def sequence_mask(self, lengths, max_len):
        return np.arange(max_len)[None, :] < np.asarray(lengths)[:, None]

    def causal_mask(self, size):
        return np.tril(np.ones((size, size), dtype=bool))

    def segment_mask(self, segment_ids):
        seg = np.asarray(segment_ids)
        return (seg[:, :, None] == seg[:, None, :]) & (seg[:, :, None] != 0)

    def masked_fill(self, x, mask, value):
        return np.where(mask, np.asarray(value, dtype=x.dtype), x)

    def masked_softmax(self, x, mask, axis=-1):
        """Softmax over the True positions; masked positions get 0, and so does every position of a
        row with no True position (softmax over nothing): the convention of jax.nn.softmax(where=)
        and Keras' Softmax(mask=). The textbook formula over the kept positions, IEEE arithmetic
        throughout: a kept NaN or +inf makes the kept positions NaN (inf - inf), and so do kept
        positions that are all -inf (-inf - (-inf)); jax.nn.softmax(where=) does exactly this."""
        mask = np.broadcast_to(np.asarray(mask, dtype=bool), x.shape)
        top = np.max(np.where(mask, x, -np.inf), axis=axis, keepdims=True)
        kept = mask.any(axis=axis, keepdims=True)
        with np.errstate(invalid="ignore"):
            e = np.where(mask, np.exp(x - np.where(kept, top, 0)), 0)
            total = np.sum(e, axis=axis, keepdims=True)
            return np.where(mask & kept, e / np.where(kept, total, 1), 0).astype(x.dtype)

    def pad(self, x, pad_width, mode="constant", value=0):
        """numpy.pad; pad_width [(before, after)] per axis, non-negative."""
        if mode not in PAD_MODES:
            raise ValueError(f"pad mode must be one of {', '.join(PAD_MODES)}. Received: {mode!r}")
        kwargs = {"constant_values": value} if mode == "constant" else {}
        return np.pad(x, [tuple(w) for w in pad_width], mode=PAD_MODES[mode], **kwargs)

    def pad_sequences(self, seqs, value=0, side="post", max_len=None, truncate="post", batch_first=True):
        """[T_i, ...] sequences -> [B, T, ...] ([T, B, ...] unless batch_first): T = max_len or the
        longest; "pre" pads / truncates at the front, "post" at the end."""
        length = max(len(s) for s in seqs) if max_len is None else max_len
        out = np.full((len(seqs), length, *np.shape(seqs[0])[1:]), value, dtype=np.asarray(seqs[0]).dtype)
        for row, s in enumerate(seqs):
            kept = s[:length] if truncate == "post" else s[max(len(s) - length, 0):]
            if side == "post":
                out[row, :len(kept)] = kept
            else:
                out[row, length - len(kept):] = kept
        return out if batch_first else np.swapaxes(out, 0, 1)

    def one_hot(self, indices, num_classes, dtype="int64"):
        indices = np.asarray(indices)
        if indices.size and (indices.min() < 0 or indices.max() >= num_classes):
            raise IndexError(f"one_hot: indices must lie in [0, {num_classes})")
        return (indices[..., None] == np.arange(num_classes)).astype(dtype)

    def stop_gradient(self, x):
        return x

    def lstm(self, x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=True, training=True):
        """torch.nn.LSTM, step by step (the same in either mode: no dropout): i, f, g, o = split(W_ih
        x_t + b_ih + W_hh h + b_hh, 4); c = sigmoid(f) c + sigmoid(i) tanh(g); h = sigmoid(o)
        tanh(c). The reverse direction runs from the last step to the first; layer l + 1 reads layer
        l's outputs, both directions side by side. h0, c0 [D*L, B, H] (None: zeros) are indexed
        layer * D + direction."""
        seq = np.swapaxes(x, 0, 1) if batch_first else x  # [T, B, I]
        directions = 2 if bidirectional else 1
        if h0 is None:  # "Defaults to zeros if not provided"
            h0 = c0 = np.zeros((num_layers * directions, seq.shape[1], params["weight_hh_l0"].shape[1]), seq.dtype)

        def direction(seq, layer, d, k):
            w_ih, w_hh, b_ih, b_hh = (params[f"{name}{rnn_suffix(layer, d)}"] for name in
                                      ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))
            h, c = h0[k], c0[k]
            out = np.zeros(seq.shape[:2] + (w_hh.shape[1],), dtype=seq.dtype)
            for t in (reversed(range(len(seq))) if d else range(len(seq))):
                i, f, g, o = np.split(seq[t] @ w_ih.T + b_ih + h @ w_hh.T + b_hh, 4, axis=-1)
                c = self.sigmoid(f) * c + self.sigmoid(i) * np.tanh(g)
                h = self.sigmoid(o) * np.tanh(c)
                out[t] = h
            return out, h, c

        seq, h_n, c_n = stacked_rnn(seq, num_layers, bidirectional, direction,
                                     lambda outs: np.concatenate(outs, axis=-1))
        return (np.swapaxes(seq, 0, 1) if batch_first else seq), np.stack(h_n), np.stack(c_n)

    def collective(self, name, shards, device="cpu", **params):
        if not hasattr(Collectives, name):
            raise Unsupported(f"the reference defines no collective {name!r}")
        return [np.asarray(o) for o in getattr(Collectives, name)([np.asarray(s) for s in shards], **params)]

    def conv2d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        """torch.nn.functional.conv2d, x [N, C, H, W], w [O, C/G, kh, kw]:
        out[n, o, i, j] = b[o] + sum_{c, p, q} w[o, c, p, q] xpad[n, g C/G + c, i s + p d, j s + q d]
        with g = o // (O/G). padding: an int or pair (both sides), "valid" (none) or "same"
        (d (k - 1) in all, the odd one at the end; stride 1 only, as PyTorch)."""
        stride, dilation = _pair(stride), _pair(dilation)
        out_channels, group_in, kh, kw = w.shape
        if x.ndim != 4 or x.shape[1] != group_in * groups or out_channels % groups:
            raise ValueError(f"conv2d: x {x.shape} and w {w.shape} do not fit {groups} groups")
        if padding == "same" and stride != (1, 1):
            raise ValueError("conv2d: padding='same' needs stride 1")
        if padding == "same":
            pads = [(d * (k - 1) // 2, d * (k - 1) - d * (k - 1) // 2) for k, d in zip((kh, kw), dilation)]
        elif padding == "valid":
            pads = [(0, 0), (0, 0)]
        else:
            pads = [(p, p) for p in _pair(padding)]
        xp = np.pad(x, [(0, 0), (0, 0), *pads])
        oh = (xp.shape[2] - dilation[0] * (kh - 1) - 1) // stride[0] + 1
        ow = (xp.shape[3] - dilation[1] * (kw - 1) - 1) // stride[1] + 1
        if oh <= 0 or ow <= 0:
            raise ValueError(f"conv2d: the dilated kernel does not fit the padded input {xp.shape[2:]}")
        batch = x.shape[0]
        out = np.zeros((batch, groups, out_channels // groups, oh, ow), dtype=np.result_type(x, w))
        for p in range(kh):  # one kernel offset at a time: every output sees xpad at i s + p d
            for q in range(kw):
                rows = slice(p * dilation[0], p * dilation[0] + stride[0] * (oh - 1) + 1, stride[0])
                cols = slice(q * dilation[1], q * dilation[1] + stride[1] * (ow - 1) + 1, stride[1])
                patch = xp[:, :, rows, cols].reshape(batch, groups, group_in, oh * ow)
                kernel = w[:, :, p, q].reshape(groups, out_channels // groups, group_in)
                out += np.matmul(kernel, patch).reshape(out.shape)  # BLAS: einsum's loop took 7x as long
        out = out.reshape(batch, out_channels, oh, ow)
        return out if b is None else out + b[None, :, None, None]

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        """torch.nn.functional.conv1d: conv2d over a height of 1 (x [N, C, L], w [O, C/G, k])."""
        if x.ndim != 3 or w.ndim != 3:
            raise ValueError(f"conv1d needs x [N, C, L] and w [O, C/G, k]. Received: {x.shape}, {w.shape}")
        out = self.conv2d(x[:, :, None], w[:, :, None], b, lift_1d(stride, 1), lift_1d(padding, 0),
                          lift_1d(dilation, 1), groups)
        return out[:, :, 0]

    def grad(self, fn, args, wrt, cotangent):
        raise Unsupported("the reference has no autodiff: it is the finite-difference oracle")


def _pair(v) -> tuple:
    return (v, v) if isinstance(v, int) else tuple(v)


def _on_float_zeros(out, a, b, signed):
    """out, with `signed()` where a float result comes from two zeros (whose sign IEEE 754 orders)."""
    out = np.asarray(out)
    if out.dtype.kind != "f":
        return out
    return np.where((np.asarray(a) == 0) & (np.asarray(b) == 0), signed(), out)
