"""Parity's in-house engine: a NumPy tape-based reverse-mode autodiff library.

    from engine import Tensor, no_grad
    import engine.ops as E

    w = Tensor(np.ones((3, 2), np.float32), requires_grad=True)
    loss = E.sum(E.square(E.matmul(x, w)))
    loss.backward()            # w.grad now holds d loss / d w, accumulated like PyTorch's .grad

It imports NumPy only. Dtypes are kept: float32 stays float32 through every op and gradient.
"""
from engine import ops, subscript  # noqa: F401  (subscript: x[key] on Tensors)
from engine.tensor import Tensor, no_grad

__all__ = ["Tensor", "no_grad", "ops"]
