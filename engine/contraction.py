"""Contractions on the tape: einsum, and tensordot, dot, bmm, correlate and convolve written with it.
The gradient of one operand is the einsum of the output's gradient with the other operands, to
that operand's letters; a letter that only that operand has (summed within it) is broadcast back."""
import numpy as np

from engine.ops import concat, matmul, mul, tensor
from engine.subscript import index
from engine.tensor import Tensor


def einsum(xs, equation: str):
    """numpy.einsum with an explicit output; a letter appears once per operand, no ellipsis."""
    tensors = [tensor(x) for x in xs]
    inputs, output = equation.replace(" ", "").split("->")
    subs = inputs.split(",")
    out = np.einsum(equation, *(t.data for t in tensors))

    def backward(g):
        return tuple(_operand_gradient(g, output, subs, tensors, i) for i in range(len(tensors)))

    return Tensor.record(out, tuple(tensors), backward, "einsum")


def _operand_gradient(g, output, subs, tensors, i):
    others = [j for j in range(len(subs)) if j != i]
    elsewhere = set(output).union(*(subs[j] for j in others))
    kept = "".join(letter for letter in subs[i] if letter in elsewhere)
    spec = ",".join([output] + [subs[j] for j in others]) + "->" + kept
    grad = np.einsum(spec, g, *(tensors[j].data for j in others))
    shape = tensors[i].shape
    expanded = grad.reshape([n if letter in elsewhere else 1 for letter, n in zip(subs[i], shape)])
    return np.broadcast_to(expanded, shape).astype(g.dtype)


def tensordot(a, b, axes):
    """numpy.tensordot as an einsum: a's summed axes meet b's, a's others then b's."""
    a, b = tensor(a), tensor(b)
    if isinstance(axes, int):
        axes = (list(range(a.ndim - axes, a.ndim)), list(range(axes)))
    left, right = [i % a.ndim for i in axes[0]], [i % b.ndim for i in axes[1]]
    letters = iter("abcdefghijklmnopqrstuvwxyz")
    sub_a = [next(letters) for _ in range(a.ndim)]
    sub_b = [next(letters) for _ in range(b.ndim)]
    for i, j in zip(left, right):
        sub_b[j] = sub_a[i]
    out = [sub_a[i] for i in range(a.ndim) if i not in left] + [sub_b[j] for j in range(b.ndim) if j not in right]
    return einsum([a, b], f"{''.join(sub_a)},{''.join(sub_b)}->{''.join(out)}")


def bmm(a, b):
    """Strict (b, n, m) x (b, m, p); no broadcasting."""
    a, b = tensor(a), tensor(b)
    if a.ndim != 3 or b.ndim != 3 or a.shape[0] != b.shape[0] or a.shape[2] != b.shape[1]:
        raise ValueError(f"bmm needs (b, n, m) x (b, m, p). Received: {a.shape} x {b.shape}")
    return matmul(a, b)


def dot(a, b):
    """numpy.dot: a 0-D operand multiplies; otherwise a's last axis against b's second-to-last
    (its only one if 1-D)."""
    a, b = tensor(a), tensor(b)
    if a.ndim == 0 or b.ndim == 0:
        return mul(a, b)
    return tensordot(a, b, ([a.ndim - 1], [max(b.ndim - 2, 0)]))


def correlate(a, v, mode="valid"):
    """numpy.correlate: computed with the longer operand first, the result reversed if v was the
    longer (numpy's rule)."""
    a, v = _sequences("correlate", a, v)
    if v.size > a.size:
        return index(_correlate_longer_first(v, a, mode), slice(None, None, -1))
    return _correlate_longer_first(a, v, mode)


def convolve(a, v, mode="full"):
    """numpy.convolve: the longer operand correlated with the shorter one reversed."""
    a, v = _sequences("convolve", a, v)
    longer, shorter = (v, a) if v.size > a.size else (a, v)
    return _correlate_longer_first(longer, index(shorter, slice(None, None, -1)), mode)


def _sequences(op: str, a, v) -> tuple:
    """correlate's and convolve's operands as tensors: two non-empty 1-D ones (numpy refuses the rest)."""
    a, v = tensor(a), tensor(v)
    if a.ndim != 1 or v.ndim != 1 or not a.size or not v.size:
        raise ValueError(f"{op} needs two non-empty 1-D operands. Received: {a.shape} and {v.shape}")
    return a, v


def _correlate_longer_first(a, v, mode):
    """c[k] = sum_n a_padded[k + n] v[n], a padded with len(v) - 1 zeros each side ('full'); 'same'
    and 'valid' are the outputs that start len(v) // 2 and len(v) - 1 positions in."""
    n, m = a.size, v.size
    starts = {"full": (0, n + m - 1), "same": (m - 1 - m // 2, n), "valid": (m - 1, n - m + 1)}
    if mode not in starts:
        raise ValueError(f"mode must be 'valid', 'same' or 'full'. Received: {mode!r}")
    start, length = starts[mode]
    zeros = np.zeros(m - 1, a.dtype)
    padded = concat([zeros, a, zeros], 0)
    windows = index(padded, (start + np.arange(length))[:, None] + np.arange(m))
    return einsum([windows, v], "kn,n->k")
