"""Tensor and the tape: each result records its parents and a closure that maps the result's
gradient to its parents' gradients; backward() walks the recorded graph in reverse topological
order (found iteratively, so a 10,000-op chain is fine) and frees it afterwards."""
import contextlib

import numpy as np

_grad_enabled = True


@contextlib.contextmanager
def no_grad():
    """Ops inside record nothing, as torch.no_grad()."""
    global _grad_enabled
    previous, _grad_enabled = _grad_enabled, False
    try:
        yield
    finally:
        _grad_enabled = previous


class Tensor:
    __slots__ = ("data", "grad", "requires_grad", "_parents", "_backward", "op")
    __array_priority__ = 100  # numpy_scalar * Tensor goes to Tensor.__rmul__

    def __init__(self, data, requires_grad: bool = False, dtype=None):
        self.data = np.asarray(data.data if isinstance(data, Tensor) else data, dtype=dtype)
        if requires_grad and self.data.dtype.kind != "f":
            raise TypeError(f"only floating-point tensors can require gradients. Received: {self.data.dtype}")
        self.grad = None
        self.requires_grad = requires_grad
        self._parents = ()
        self._backward = None
        self.op = "leaf"

    # -- views of the data ----------------------------------------------------------------
    @property
    def shape(self):
        return self.data.shape

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def ndim(self):
        return self.data.ndim

    @property
    def size(self):
        return self.data.size

    def __dlpack__(self, **kwargs):
        """The DLPack protocol (the Array API's interchange): the array's own, views' strides
        and offsets as NumPy exports them."""
        return self.data.__dlpack__(**kwargs)

    def __dlpack_device__(self):
        return self.data.__dlpack_device__()

    def numpy(self) -> np.ndarray:
        return self.data

    def __repr__(self):
        return f"Tensor({self.data!r}, requires_grad={self.requires_grad})"

    def detach(self) -> "Tensor":
        return Tensor(self.data)

    # -- the tape -------------------------------------------------------------------------
    @staticmethod
    def record(data, parents, backward, op: str) -> "Tensor":
        """The result of an op: it joins the tape when grad mode is on and a parent needs grad.
        `backward(g)` returns one gradient (or None) per parent, in the parents' shapes."""
        out = Tensor(data)
        if _grad_enabled and any(p.requires_grad for p in parents):
            out.requires_grad = True
            out._parents = tuple(parents)
            out._backward = backward
            out.op = op
        return out

    def backward(self, cotangent=None) -> None:
        """Accumulate d(self)/d(leaf) weighted by `cotangent` into every leaf's .grad."""
        if not self.requires_grad:
            raise RuntimeError("backward() on a tensor that does not require grad")
        if cotangent is None:
            if self.size != 1:
                raise RuntimeError(f"backward() needs a cotangent for a non-scalar of shape {self.shape}")
            cotangent = np.ones_like(self.data)
        grads = {id(self): np.asarray(cotangent.data if isinstance(cotangent, Tensor) else cotangent,
                                      dtype=self.dtype).reshape(self.shape)}
        for node in reversed(_topological_order(self)):
            g = grads.pop(id(node), None)
            if g is None:
                continue
            if node._backward is None:  # a leaf
                node.grad = g.copy() if node.grad is None else node.grad + g
                continue
            for parent, pg in zip(node._parents, node._backward(g)):
                if pg is None or not parent.requires_grad:
                    continue
                pg = np.asarray(pg, dtype=parent.dtype)
                grads[id(parent)] = pg if id(parent) not in grads else grads[id(parent)] + pg
            node._parents, node._backward = (), None  # free the graph, as PyTorch does

    # Arithmetic operators (a + b, a @ b, ...) are attached by engine/ops.py, where the ops live.


def _topological_order(root) -> list:
    """Parents before children, by an explicit-stack depth-first search (no recursion limit)."""
    order, visited = [], set()
    stack = [(root, False)]
    while stack:
        node, expanded = stack.pop()
        if expanded:
            order.append(node)
            continue
        if id(node) in visited:
            continue
        visited.add(id(node))
        stack.append((node, True))
        stack.extend((p, False) for p in node._parents if p.requires_grad and id(p) not in visited)
    return order
