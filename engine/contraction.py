"""Contractions on the tape: einsum (and tensordot and bmm written with it). The gradient of one
operand is the einsum of the output's gradient with the other operands, to that operand's
letters; a letter that only that operand has (summed within it) is broadcast back."""
import numpy as np

from engine.ops import matmul, tensor
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
