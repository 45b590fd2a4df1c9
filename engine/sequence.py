"""Masks and padding for sequence models. Masks are plain boolean arrays (they carry no
gradient); masked_fill, masked_softmax, pad and pad_sequences are on the tape."""
import numpy as np

from engine.ops import softmax, tensor, transpose, where
from engine.tensor import Tensor


def sequence_mask(lengths, max_len):
    """bool [B, max_len], True at the valid steps: arange(max_len)[None, :] < lengths[:, None]."""
    lengths = np.asarray(tensor(lengths).data)
    return Tensor(np.arange(max_len)[None, :] < lengths[:, None])


def causal_mask(size):
    """bool [size, size], the lower triangle (diagonal included) True: step i sees steps <= i."""
    return Tensor(np.tril(np.ones((size, size), dtype=bool)))


def segment_mask(segment_ids):
    """bool [B, T, T], True where positions i and j share a segment id other than 0 (padding)."""
    seg = np.asarray(tensor(segment_ids).data)
    return Tensor((seg[:, :, None] == seg[:, None, :]) & (seg[:, :, None] != 0))


def masked_fill(x, mask, value):
    """`value` where mask is True, x elsewhere; no gradient reaches the filled positions."""
    x = tensor(x)
    return where(tensor(mask).data, np.asarray(value, dtype=x.dtype), x)


def masked_softmax(x, mask, axis=-1):
    """Softmax over the positions where mask is True. A row with no True position gives zeros
    (and zero gradient) rather than NaN: the engine's choice, recorded in the masking spec."""
    x = tensor(x)
    mask = np.broadcast_to(tensor(mask).data.astype(bool), x.shape)
    lowest = np.asarray(np.finfo(x.dtype).min, dtype=x.dtype)
    probs = softmax(where(mask, x, lowest), axis=axis)
    return where(mask & mask.any(axis=axis, keepdims=True), probs, np.zeros((), x.dtype))


PAD_MODES = {"constant": "constant", "reflect": "reflect", "replicate": "edge", "edge": "edge",
             "symmetric": "symmetric"}


def pad(x, pad_width, mode="constant", value=0):
    """np.pad semantics, pad_width as [(before, after)] per axis. The gradient sends every padded
    element's gradient back to the element it copies (none for constant padding)."""
    x = tensor(x)
    if mode not in PAD_MODES:
        raise ValueError(f"pad mode must be one of {', '.join(PAD_MODES)}. Received: {mode!r}")
    pad_width = [tuple(int(v) for v in w) for w in pad_width]
    if len(pad_width) != x.ndim or any(v < 0 for w in pad_width for v in w):
        raise ValueError(f"pad_width needs one non-negative (before, after) per axis. Received: {pad_width}")
    np_mode = PAD_MODES[mode]
    if np_mode == "constant":  # the gradient is the interior of g
        inner = tuple(slice(before, before + n) for (before, _), n in zip(pad_width, x.shape))
        out = np.pad(x.data, pad_width, constant_values=value)
        return Tensor.record(out, (x,), lambda g: (g[inner],), "pad")
    # where each output element comes from, as a flat index into x
    source = np.pad(np.arange(x.size).reshape(x.shape), pad_width, mode=np_mode)

    def backward(g):
        return (np.bincount(source.ravel(), weights=g.ravel(), minlength=x.size).astype(g.dtype).reshape(x.shape),)

    return Tensor.record(np.pad(x.data, pad_width, mode=np_mode), (x,), backward, "pad")


def pad_sequences(seqs, value=0, side="post", max_len=None, truncate="post", batch_first=True):
    """A list of [T_i, ...] sequences as one [B, T, ...] batch ([T, B, ...] unless batch_first);
    T = max_len or the longest. side / truncate: "post" pads / cuts at the end (PyTorch's
    pad_sequence), "pre" at the front (Keras' pad_sequences default)."""
    if side not in ("post", "pre") or truncate not in ("post", "pre"):
        raise ValueError(f"side and truncate take 'post' or 'pre'. Received: {side!r}, {truncate!r}")
    seqs = [tensor(s) for s in seqs]
    length = max_len if max_len is not None else max((len(s.data) for s in seqs), default=0)
    trailing = seqs[0].shape[1:] if seqs else ()
    dtype = seqs[0].dtype if seqs else np.float32
    out = np.full((len(seqs), length, *trailing), value, dtype=dtype)
    placed = []  # (row, output slice, input slice) per sequence
    for row, s in enumerate(seqs):
        n = min(len(s.data), length)
        kept = slice(0, n) if truncate == "post" else slice(len(s.data) - n, len(s.data))
        at = slice(0, n) if side == "post" else slice(length - n, length)
        out[row, at] = s.data[kept]
        placed.append((row, at, kept))

    def backward(g):
        grads = []
        for (row, at, kept), s in zip(placed, seqs):
            gs = np.zeros(s.shape, g.dtype)
            gs[kept] = g[row, at]
            grads.append(gs)
        return tuple(grads)

    padded = Tensor.record(out, seqs, backward, "pad_sequences")
    return padded if batch_first else transpose(padded, (1, 0, *range(2, out.ndim)))
