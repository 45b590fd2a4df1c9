"""Deliberately wrong adapters, one per spec area, for tests/test_wrong_adapter.py. Each is the
engine with one plausible bug: the suite must catch every one."""
import numpy as np

from adapters.engine import EngineAdapter


class UnmaskedSoftmax(EngineAdapter):
    """masking: forgets the mask."""
    name = "unmasked-softmax"

    def masked_softmax(self, x, mask, axis=-1):
        return self.ops.softmax(x, axis)


class SwappedPadding(EngineAdapter):
    """padding: pads at the other end."""
    name = "swapped-padding"

    def pad_sequences(self, seqs, value=0, side="post", max_len=None, truncate="post", batch_first=True):
        return super().pad_sequences(seqs, value, "pre" if side == "post" else "post", max_len, truncate, batch_first)


class OverwritingScatterAdd(EngineAdapter):
    """scatter: scatter_add that overwrites duplicates instead of adding them."""
    name = "overwriting-scatter-add"

    def scatter_add(self, x, axis, index, src):
        return self.indexing.scatter(x, axis, index, self.ops.add(self.indexing.gather(x, axis, index), src))


class LeakyStopGradient(EngineAdapter):
    """ste: stop_gradient that lets the gradient through."""
    name = "leaky-stop-gradient"

    def stop_gradient(self, x):
        return x


class DoubledGradient(EngineAdapter):
    """autograd: every gradient twice too large."""
    name = "doubled-gradient"

    def grad(self, fn, args, wrt, cotangent):
        value, grads = super().grad(fn, args, wrt, cotangent)
        return value, {n: self.ops.mul(g, 2) for n, g in grads.items()}


class SwappedGates(EngineAdapter):
    """lstm: a weight conversion that takes PyTorch's gate order as f, i, g, o."""
    name = "swapped-gates"

    def lstm(self, x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=True):
        def swap(w):
            n = w.shape[0] // 4
            i, f, g, o = (self.subscript.index(w, slice(q * n, (q + 1) * n)) for q in range(4))
            return self.ops.concat([f, i, g, o], 0)

        return super().lstm(x, h0, c0, {k: swap(v) for k, v in params.items()}, num_layers, bidirectional, batch_first)


class FlippedKernel(EngineAdapter):
    """conv: true convolution (the kernel flipped) instead of cross-correlation."""
    name = "flipped-kernel"

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        flipped = self.subscript.index(w, (Ellipsis, slice(None, None, -1)))
        return super().conv1d(x, flipped, b, stride, padding, dilation, groups)


class LocalPsumGradient(EngineAdapter):
    """collectives: psum's gradient left on each rank (every rank's input gradient is its own
    cotangent, not the sum over ranks): the identity backward that all_reduce gradients have been
    written with by mistake."""
    name = "local-psum-gradient"

    def collective_grad(self, name, shards, cotangents, device="cpu", **params):
        return [c.copy() for c in cotangents]


class CastingScalars(EngineAdapter):
    """promotion: a Python number takes the tensor's dtype, whatever its kind (int32 + 1.5 as
    int32 + 1: the engine's own bug until NEP 50's weak scalars)."""
    name = "casting-scalars"

    def add(self, a, b):
        if not hasattr(b, "data"):
            b = self.ops.tensor(a.data.dtype.type(b))
        return self.ops.add(a, b)


class AccumulatingScatter(EngineAdapter):
    """scatter: duplicate writes to one index add up (scatter_add where scatter was asked for),
    which no order of the writes gives."""
    name = "accumulating-scatter"

    def scatter(self, x, axis, index, src):
        return self.indexing.scatter_add(self.indexing.scatter(x, axis, index, 0.0), axis, index, src)


class InvertedPermutation(EngineAdapter):
    """reductions: transpose by the inverse permutation, which is right for every swap (a swap is
    its own inverse) and wrong for rotations such as (1, 2, 0)."""
    name = "inverted-permutation"

    def transpose(self, x, axes):
        inverse = sorted(range(len(axes)), key=lambda d: axes[d] % len(axes))
        return super().transpose(x, inverse)


class ReflectedIndex(EngineAdapter):
    """scatter: gather that lets a negative index count from the end (NumPy's indexing) where
    the vocabulary says it is an error."""
    name = "reflected-index"

    def gather(self, x, axis, index):
        size = x.shape[axis]
        return super().gather(x, axis, self.ops.tensor(index.data % size))


class BufferedIndexAdd(EngineAdapter):
    """indexing: index_add written as x[key] += v, which adds a repeated index once (NumPy's and
    torch's augmented assignment), where every repeat must add."""
    name = "buffered-index-add"

    def index_add(self, x, key, values):
        return self.subscript.index_set(x, key, self.ops.add(self.subscript.index(x, key), values))


class AccumulatingIndexSet(EngineAdapter):
    """indexing: index_set whose repeated writes add up, which no order of the writes gives."""
    name = "accumulating-index-set"

    def index_set(self, x, key, values):
        return self.subscript.index_add(self.subscript.index_set(x, key, 0), key, values)


class SelfIncludingScatterReduce(EngineAdapter):
    """scatter: scatter_reduce that ignores include_self=False (jax's and TensorFlow's only form)."""
    name = "self-including-scatter-reduce"

    def scatter_reduce(self, x, axis, index, src, reduce, include_self=True):
        return super().scatter_reduce(x, axis, index, src, reduce, include_self=True)


class EpsilonInsideTheRoot(EngineAdapter):
    """optimizers: Adam's epsilon inside the square root, sqrt(v_hat + eps) for sqrt(v_hat) + eps."""
    name = "epsilon-inside-the-root"

    def optimizer_class(self, op):
        from engine import optim

        class Adam(optim.Adam):
            def denominator(self, v, correction, eps):
                return np.sqrt(v / correction + eps)

        return Adam if op == "adam" else super().optimizer_class(op)


class PerParameterClipping(EngineAdapter):
    """optimizers: norm clipping by each parameter's own norm where the global norm is asked (a
    port of Keras' clipnorm for its global_clipnorm)."""
    name = "per-parameter-clipping"

    def clip_norms(self, grads, max_norm, per_parameter, convention):
        return super().clip_norms(grads, max_norm, True, convention)


class FanOutForFanIn(EngineAdapter):
    """initializers: kaiming initialisation that counts fan_out where fan_in is asked (a kernel's
    axes read the other way round)."""
    name = "fan-out-for-fan-in"

    def initialize(self, name, x, seed, params):
        if name.startswith("kaiming") and params.get("mode", "fan_in") == "fan_in":
            params = {**params, "mode": "fan_out"}
        return super().initialize(name, x, seed, params)


class SwappedShift(EngineAdapter):
    """fft: fftshift rolled by -(n // 2), ifftshift's shift, which agrees with the right one
    wherever every length is even (a port that reads the two as the same roll)."""
    name = "swapped-shift"

    def fftshift(self, x, axes=None):
        return super().ifftshift(x, axes)


class MergedNans(EngineAdapter):
    """sets: unique_values as numpy.unique computes it (equal_nan=True: every NaN one value), the
    older call a port reaches for, where the standard keeps each NaN apart."""
    name = "merged-nans"

    def unique_values(self, x):
        return super().unique(x)


class LastOccurrences(EngineAdapter):
    """sets: unique_all's indices at each value's last occurrence (a dict of positions overwritten
    as x is scanned), which agrees wherever no value repeats."""
    name = "last-occurrences"

    def unique_all(self, x):
        values, _, inverse, counts = super().unique_all(x)
        flat = inverse.data.ravel()
        last = [np.flatnonzero(flat == i)[-1] for i in range(values.data.size)]
        return values, self.engine.Tensor(np.array(last, dtype=np.int64)), inverse, counts


class ColumnMajorNonzero(EngineAdapter):
    """searching: nonzero's indices in column-major order (a port from a Fortran-ordered library,
    or np.nonzero of the transpose with its tuple swapped back), which agrees with the row-major
    order wherever the non-zeros lie on one row or one column."""
    name = "column-major-nonzero"

    def nonzero(self, x):
        if x.data.ndim < 2:
            return super().nonzero(x)
        return tuple(reversed(super().nonzero(self.engine.Tensor(x.data.T))))


class LowerForUpper(EngineAdapter):
    """linalg: cholesky's upper factor as the lower one (a port from tf.linalg.cholesky, which has
    no upper, that drops the flag), which agrees wherever the factor is diagonal."""
    name = "lower-for-upper"

    def cholesky(self, x, upper=False):
        return super().cholesky(x, False)


class SingularForEigen(EngineAdapter):
    """linalg: eigvalsh as the singular values, ascending (a port that takes |eigenvalue| for the
    eigenvalue), which agrees for positive semidefinite matrices."""
    name = "singular-for-eigen"

    def eigvalsh(self, x):
        return super().svdvals(x)[..., ::-1]


class VForVh(EngineAdapter):
    """linalg: svd's third factor as V, not Vh (a port from tf.linalg.svd, which returns v with
    x = u diag(s) v^H, that forgets the adjoint), which agrees wherever V is symmetric (diagonal
    matrices)."""
    name = "v-for-vh"

    def svd(self, x, full_matrices=True):
        u, s, vh = super().svd(x, full_matrices)
        return u, s, self.engine.Tensor(np.swapaxes(vh.data, -1, -2))


class AbsoluteRtol(EngineAdapter):
    """linalg: matrix_rank's rtol taken as an absolute cutoff (jnp.linalg.matrix_rank's given rtol),
    which agrees wherever the largest singular value is 1 or no value lies between the two."""
    name = "absolute-rtol"

    def matrix_rank(self, x, rtol=None):
        if rtol is None:
            return super().matrix_rank(x)
        s = np.linalg.svd(x.data, compute_uv=False)
        return self.engine.Tensor(np.sum(s > rtol, axis=-1))


class SameKindCasts(EngineAdapter):
    """dtypes: can_cast by NumPy's same_kind casting (its ufuncs' default), which casts float32 to
    float16 and int64 to int8 where the standard's promotion rules only widen: it agrees wherever
    `to` is the wider dtype."""
    name = "same-kind-casts"

    def can_cast(self, x, to):
        return self.engine.Tensor(np.array(np.can_cast(x.data.dtype, to, casting="same_kind")))


class ThroughFloat32(EngineAdapter):
    """asarray: from_python that makes Python floats float32 first (a framework's default float
    dtype) and casts to the dtype asked for after, rounding twice: right in float32 and wherever a
    value is not within float32's last bits of a float16 midpoint."""
    name = "through-float32"

    def from_python(self, obj, dtype=None):
        values = np.asarray(obj)
        if values.dtype.kind == "f" and dtype is not None:
            return self.engine.Tensor(values.astype(np.float32).astype(dtype))
        return super().from_python(obj, dtype)


class DenseDlpack(EngineAdapter):
    """dlpack: from_dlpack that reads x's elements densely from the start of the memory x views,
    ignoring the view's offset and strides (a consumer that takes every tensor for a compact one):
    right for every tensor that owns its memory, 0-d and empty ones included, and for the engine's
    slices, which copy; wrong for its transposes and broadcasts, which are NumPy's views."""
    name = "dense-dlpack"

    def from_dlpack(self, x):
        view = x.data
        memory = view if view.base is None else view.base
        return self.engine.Tensor(np.asarray(memory).reshape(-1)[:view.size].reshape(view.shape))


class ArithmeticConj(EngineAdapter):
    """complex: conj computed as complex arithmetic, real(x) - 1j * imag(x), rather than by negating
    the imaginary component: right for every finite number off the real axis, wrong for a zero's
    sign (1 + 0j gives 1 + 0j, not 1 - 0j: 1j * 0 is +0) and for the infinities (1j * inf has a NaN
    real part)."""
    name = "arithmetic-conj"

    def conj(self, x):
        return self.engine.Tensor(x.data.real - 1j * x.data.imag)
