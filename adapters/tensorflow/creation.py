"""The TensorFlow adapter's Array API creation functions (vocabulary/creation.py), as
TensorFlow's users call them: tf.range, tf.linspace of start and stop in the dtype asked for (it
takes its dtype from them; no endpoint), tf.eye (no diagonal offset), tf.fill of a value in the
dtype, tf.fill of x's shape for full_like (TensorFlow has ones_like and zeros_like, no full_like),
tf.meshgrid, tf.ones, tf.zeros, tf.ones_like and tf.zeros_like, tf.constant of Python values
(from_python), tf.experimental.dlpack's from_dlpack of to_dlpack's capsule, and TensorFlow's NumPy
API's empty and empty_like (tf.experimental.numpy: TensorFlow's own ops have no uninitialised tensor);
and its data type functions (vocabulary/dtypes.py): an integer tf.DType's own min, max and size
(TensorFlow's iinfo), and its NumPy API's finfo and result_type (TensorFlow has no others, no
can_cast and no isdtype), their answers made tensors."""

from adapters.base import Unsupported


class TensorFlowCreation:
    """A mixin of TensorFlowAdapter (self.tf is the tensorflow module)."""

    def arange(self, start, stop=None, step=1, dtype="int64"):
        return self.tf.range(start, stop, step, dtype=getattr(self.tf, dtype))

    def linspace(self, start, stop, num, endpoint=True, dtype="float64"):
        if not endpoint:
            raise Unsupported("tf.linspace has no endpoint: its last value is always stop")
        tf, typed = self.tf, getattr(self.tf, dtype)
        return tf.linspace(tf.constant(start, typed), tf.constant(stop, typed), num)

    def eye(self, n_rows, n_cols=None, k=0, dtype="float64"):
        if k:
            raise Unsupported("tf.eye has no diagonal offset: ones on the main diagonal only")
        return self.tf.eye(n_rows, n_cols, dtype=getattr(self.tf, dtype))

    def full(self, shape, fill_value, dtype="float64"):
        return self.tf.fill(tuple(shape), self.tf.constant(fill_value, getattr(self.tf, dtype)))

    def full_like(self, x, fill_value):
        return self.tf.fill(self.tf.shape(x), self.tf.constant(fill_value, x.dtype))

    def meshgrid(self, x, y, indexing="xy"):
        return tuple(self.tf.meshgrid(x, y, indexing=indexing))

    def ones(self, shape, dtype="float64"):
        return self.tf.ones(shape, dtype=getattr(self.tf, dtype))

    def zeros(self, shape, dtype="float64"):
        return self.tf.zeros(shape, dtype=getattr(self.tf, dtype))

    def empty(self, shape, dtype="float64"):
        return self.tf.experimental.numpy.empty(shape, dtype=getattr(self.tf, dtype))

    def ones_like(self, x):
        return self.tf.ones_like(x)

    def zeros_like(self, x):
        return self.tf.zeros_like(x)

    def empty_like(self, x):
        return self.tf.experimental.numpy.empty_like(x)

    def from_python(self, obj, dtype=None):
        return self.tf.constant(obj, dtype=None if dtype is None else getattr(self.tf, dtype))

    def from_dlpack(self, x):
        """TensorFlow's pair (its from_dlpack takes the capsule that to_dlpack makes, not a tensor)."""
        return self.tf.experimental.dlpack.from_dlpack(self.tf.experimental.dlpack.to_dlpack(x))

    def finfo(self, dtype="float64"):
        typed = getattr(self.tf, dtype)
        info = self.tf.experimental.numpy.finfo(typed)  # NumPy's finfo: its numbers NumPy (ml_dtypes) scalars
        return self.tf.constant([float(v) for v in (info.bits, info.eps, info.max, info.min, info.smallest_normal)],
                                dtype=typed)

    def iinfo(self, dtype="int64"):
        typed = getattr(self.tf, dtype)
        return self.tf.constant([typed.size * 8, typed.max, typed.min], dtype=typed)

    def result_type(self, x, y):
        return self.tf.cast(x, self.tf.experimental.numpy.result_type(x, y))
