"""The TensorFlow adapter's Array API linear algebra functions (vocabulary/linalg.py), as
TensorFlow's users call them: tf.linalg.diag_part (its k is the offset), tf.linalg.trace at
offset 0 and otherwise the sum of diag_part's, tf.tensordot(x1, x2, axes=0) for outer (TensorFlow
has no tf.outer), tf.linalg.cross for vectors along the last axis and tf.experimental.numpy.cross
for another axis (tf.linalg.cross has none), and tf.norm for vector_norm (its ord and axis as given:
with two axes tf.norm computes a matrix norm). TensorFlow has no integer matrix power
(tf.linalg has none; users multiply): unsupported. tf.linalg.det, slogdet, inv and solve
(its rhs a stack of matrices of x1's very stack shape: TensorFlow neither broadcasts it nor takes a
vector) as they are; tf.linalg.cholesky, whose upper factor users take as the lower one's adjoint;
tf.linalg.eigvalsh, and tf.linalg.svd(compute_uv=False) for svdvals (TensorFlow has no svdvals); tf.norm over
the last two axes for matrix_norm, whose matrix ords are 'fro', 1, 2 and inf (it raises for the others);
tf.linalg.eigh, tf.linalg.svd (which returns (s, u, v): its users reorder it and take v's adjoint for the standard's
Vh) and tf.linalg.qr (full_matrices for mode 'complete'); tf.linalg.matrix_rank (its tol is absolute: no
rtol) and tf.linalg.pinv (rcond, the standard's rtol)."""
from adapters.base import Unsupported, axes_tuple


class TensorFlowLinalg:
    """A mixin of TensorFlowAdapter (self.tf is the tensorflow module)."""

    def diagonal(self, x, offset=0):
        return self.tf.linalg.diag_part(x, k=offset)

    def trace(self, x, offset=0):
        if offset == 0:
            return self.tf.linalg.trace(x)
        return self.tf.reduce_sum(self.tf.linalg.diag_part(x, k=offset), axis=-1)

    def outer(self, x1, x2):
        return self.tf.tensordot(x1, x2, axes=0)

    def cross(self, x1, x2, axis=-1):
        if axis == -1:
            return self.tf.linalg.cross(x1, x2)
        return self.tf.experimental.numpy.cross(x1, x2, axis=axis)

    def matrix_power(self, x, n):
        raise Unsupported("TensorFlow has no matrix power")

    def vector_norm(self, x, axis=None, keepdims=False, ord=2):
        return self.tf.norm(x, ord=ord, axis=axes_tuple(axis), keepdims=keepdims)

    def det(self, x):
        return self.tf.linalg.det(x)

    def slogdet(self, x):
        return tuple(self.tf.linalg.slogdet(x))  # (sign, log_abs_determinant)

    def inv(self, x):
        return self.tf.linalg.inv(x)

    def solve(self, x1, x2):
        return self.tf.linalg.solve(x1, x2)

    def cholesky(self, x, upper=False):
        """tf.linalg.cholesky has no upper: its users take the factor's adjoint."""
        lower = self.tf.linalg.cholesky(x)
        return self.tf.linalg.adjoint(lower) if upper else lower

    def eigvalsh(self, x):
        return self.tf.linalg.eigvalsh(x)

    def svdvals(self, x):
        return self.tf.linalg.svd(x, compute_uv=False)

    def matrix_rank(self, x, rtol=None):
        if rtol is not None:
            raise Unsupported("tf.linalg.matrix_rank takes an absolute tol, not the standard's rtol")
        return self.tf.linalg.matrix_rank(x)

    def pinv(self, x, rtol=None):
        return self.tf.linalg.pinv(x, rcond=rtol)

    def matrix_norm(self, x, keepdims=False, ord="fro"):
        return self.tf.norm(x, ord=ord, axis=[-2, -1], keepdims=keepdims)

    def eigh(self, x):
        return tuple(self.tf.linalg.eigh(x))  # (e, v)

    def svd(self, x, full_matrices=True):
        """tf.linalg.svd returns (s, u, v) with x = u diag(s) v^H: its users take v's adjoint for Vh."""
        s, u, v = self.tf.linalg.svd(x, full_matrices=full_matrices)
        return u, s, self.tf.linalg.adjoint(v)

    def qr(self, x, mode="reduced"):
        return tuple(self.tf.linalg.qr(x, full_matrices=mode == "complete"))  # (q, r)
