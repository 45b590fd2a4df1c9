"""Keras 3: keras.ops (and keras.layers where Keras' idiom is a layer), on the backend that
KERAS_BACKEND selects (tensorflow, jax or torch; read once, when keras is first imported).
Gradients use the backend's own autodiff (tf.GradientTape, jax.vjp, torch.autograd), as Keras 3
documents for custom training loops. Keras has no collective ops: collectives are unsupported.

Written with docs/adding-an-adapter.md, as the guide's proof.
"""
import contextlib
import importlib
import json
import os
import pathlib

from adapters import mixed
from adapters.backends import autograd_vjp, fresh_dynamo, jax_vjp, refuse_corrupting_matmul, tape_vjp
from adapters.base import (
    DTYPES,
    Adapter,
    Unsupported,
    given,
    no_rounding_mode,
    own_code,
)
from adapters.behaviours import (
    KERAS_MASKED_SOFTMAX,
    KERAS_PAD_SEQUENCES_DEFAULTS,
    KERAS_TENSORFLOW_BIAS_ADD,
    KERAS_TENSORFLOW_CORRELATE,
    KERAS_TORCH_CORRELATE,
)
from adapters.keras import initializers as keras_initializers
from adapters.keras import rnn as keras_rnn
from adapters.keras.creation import KerasCreation
from adapters.keras.dtypes import BACKEND_DTYPES
from adapters.keras.elementwise import KerasElementwise
from adapters.keras.export import KerasExport
from adapters.keras.idioms import KerasIdioms
from adapters.keras.layers import KerasLayers, refuse_in_trace, unweighted
from adapters.keras.linalg import KerasLinalg
from adapters.keras.manipulation import KerasManipulation
from adapters.keras.matrices import KerasMatrices
from adapters.keras.optimizers import (
    KERAS_CLIP_GRAD_NORM,
    KERAS_L2_REGULARIZER,
    KERAS_OPTIMIZERS,
    KerasOptimizers,
)
from adapters.keras.statistics import KerasStatistics
from adapters.layer_behaviours import (
    KERAS_ATTENTION_MEAN_OF_V,
    KERAS_BATCH_NORM_EPS,
    KERAS_BATCH_NORM_STATS,
    KERAS_GELU_TANH,
    KERAS_LAYER_NORM_EPS,
    KERAS_MULTIHEAD_MEAN_OF_V,
    KERAS_NORMALIZE_EPSILON,
    KERAS_TENSORFLOW_ATTENTION,
    KERAS_TENSORFLOW_GELU,
    KERAS_TENSORFLOW_MULTIHEAD,
)
from vocabulary import PAD_MODES

KERAS_BEHAVIOURS = (KERAS_MASKED_SOFTMAX, KERAS_PAD_SEQUENCES_DEFAULTS, KERAS_LAYER_NORM_EPS, KERAS_NORMALIZE_EPSILON,
                    KERAS_BATCH_NORM_EPS, KERAS_BATCH_NORM_STATS, *KERAS_OPTIMIZERS, KERAS_CLIP_GRAD_NORM,
                    KERAS_L2_REGULARIZER, *mixed.KERAS_MIXED, *keras_initializers.KERAS_INITIALIZERS,
                    *keras_initializers.KERAS_LAYER_DEFAULTS)
# in modelled()'s order: the mean of V (a special value) before the float32 scale with it (a precision)
BACKEND_BEHAVIOURS = {"tensorflow": (KERAS_TENSORFLOW_BIAS_ADD, KERAS_ATTENTION_MEAN_OF_V, KERAS_TENSORFLOW_ATTENTION,
                                     KERAS_TENSORFLOW_GELU, KERAS_MULTIHEAD_MEAN_OF_V, *KERAS_TENSORFLOW_MULTIHEAD,
                                     KERAS_TENSORFLOW_CORRELATE, *KERAS_BEHAVIOURS),
                      "jax": (KERAS_ATTENTION_MEAN_OF_V, KERAS_GELU_TANH, KERAS_MULTIHEAD_MEAN_OF_V, *KERAS_BEHAVIOURS),
                      "torch": (KERAS_ATTENTION_MEAN_OF_V, KERAS_GELU_TANH, KERAS_MULTIHEAD_MEAN_OF_V,
                                KERAS_TORCH_CORRELATE, *KERAS_BEHAVIOURS, *keras_initializers.KERAS_TORCH_INITIALIZERS)}


def configured_backend() -> str:
    """The backend keras will load, found as Keras finds it (KERAS_BACKEND, then keras.json)."""
    if os.environ.get("KERAS_BACKEND"):
        return os.environ["KERAS_BACKEND"]
    config = pathlib.Path(os.environ.get("KERAS_HOME", pathlib.Path.home() / ".keras")) / "keras.json"
    try:
        return json.loads(config.read_text()).get("backend", "tensorflow")
    except (OSError, ValueError):
        return "tensorflow"


class KerasAdapter(KerasLayers, KerasIdioms, KerasElementwise, KerasStatistics, KerasManipulation, KerasMatrices,
                   KerasLinalg, KerasCreation, KerasOptimizers, KerasExport, keras_initializers.KerasInitializers,
                   Adapter):
    # One name per backend (keras-tensorflow, keras-jax, keras-torch): frameworks differ by
    # backend, and so do the spec's documented differences and the report's columns.
    name = f"keras-{configured_backend()}"
    module = "keras"
    dtypes = BACKEND_DTYPES.get(configured_backend(), {"*": DTYPES})  # what works depends on the backend
    behaviours = BACKEND_BEHAVIOURS.get(configured_backend(), ())

    def __init__(self):
        import keras

        self.keras, self.ops = keras, keras.ops
        self.backend = keras.backend.backend()
        if self.name != f"keras-{self.backend}":
            raise RuntimeError(f"keras loaded the {self.backend} backend, not the one its configuration names "
                               f"({self.name}): set KERAS_BACKEND before anything imports keras")
        if self.backend == "jax":
            import jax

            jax.config.update("jax_enable_x64", True)  # float64 and int64 are dtypes under test
        self.dtypes = BACKEND_DTYPES.get(self.backend, self.dtypes)  # keras' own answer, if it differs

    def version(self):  # Keras' and its backend's: an upgrade of either changes what this adapter runs
        return f"{self.keras.__version__} ({self.backend} {importlib.import_module(self.backend).__version__} backend)"

    def environment(self):
        return {"KERAS_BACKEND": self.backend}

    def devices(self):
        if self.backend == "torch":  # keras.distribution is None on the torch backend
            import torch

            count = torch.cuda.device_count()
        else:
            try:
                count = len(self.keras.distribution.list_devices("gpu"))
            except (RuntimeError, ValueError):
                count = 0
        return ["cpu"] + [f"gpu:{i}" for i in range(count)]

    def device_scope(self, device):
        if device == "cpu" and self.devices() == ["cpu"]:
            # where the CPU is the only device, no scope is the same placement; and under
            # keras.device the torch backend cannot build an LSTM layer (it makes a Parameter of
            # an integer variable: "Only Tensors of floating point ... can require gradients")
            return contextlib.nullcontext()
        return self.keras.device(device if ":" in device else f"{device}:0")

    def asarray(self, x, dtype, device):
        return self.ops.convert_to_tensor(x, dtype=dtype)

    def to_numpy(self, x):
        if self.dtype_of(x) == "bfloat16":  # NumPy has no bfloat16; float32 holds every value exactly
            x = self.ops.cast(x, "float32")
        return self.ops.convert_to_numpy(x)

    def dtype_of(self, x):
        return self.keras.backend.standardize_dtype(x.dtype)

    def sync(self, x):
        self.to_numpy(x)  # waits for the value on every backend (a 0-d bfloat16 one cast first, as to_numpy does)

    def deterministic(self):
        """The backend's own switch (Keras' reproducibility recipe, keras.io
        keras_recipes/reproducibility_recipes, names TensorFlow's): jax has none for the CPU."""
        if self.backend == "tensorflow":
            _tf().config.experimental.enable_op_determinism()
            return "tf.config.experimental.enable_op_determinism()"
        if self.backend == "torch":
            import torch

            torch.use_deterministic_algorithms(True)
            return "torch.use_deterministic_algorithms(True)"
        return None

    def compile(self, fn):
        """fn compiled as Model.compile(jit_compile=True) compiles a step on the backend (the
        backends' trainers): jax.jit, tf.function(jit_compile=True), torch.compile. (The trainer
        adds reduce_retracing=True, which makes the shapes of a retrace None; a case's shapes are
        its own here, as a model's are.)"""
        if self.backend == "jax":
            import jax

            return jax.jit(fn)
        if self.backend == "tensorflow":
            return _tf().function(fn, jit_compile=True)
        import torch

        return torch.compile(own_code(fn))

    def fresh_compiler(self):
        if self.backend == "torch":  # jax.jit and tf.function cache per function object
            fresh_dynamo()

    def matmul(self, a, b):
        if self.backend == "tensorflow":
            refuse_corrupting_matmul(_tf(), a, b)  # keras.ops.matmul is tf.matmul there
        return self.ops.matmul(a, b)

    def mm(self, a, b):
        if a.ndim != 2 or b.ndim != 2:
            raise Unsupported("keras.ops has no strictly 2-D matmul (keras.ops.matmul broadcasts)")
        return self.matmul(a, b)

    def add(self, a, b):
        return self.ops.add(a, b)

    def sub(self, a, b):
        return self.ops.subtract(a, b)

    def mul(self, a, b):
        return self.ops.multiply(a, b)

    def div(self, a, b):
        return self.ops.divide(a, b)

    def maximum(self, a, b):
        return self.ops.maximum(a, b)

    def minimum(self, a, b):
        return self.ops.minimum(a, b)

    def pow(self, a, b):
        return self.ops.power(a, b)

    def greater(self, a, b):
        return self.ops.greater(a, b)

    def clip(self, x, lo, hi):
        return self.ops.clip(x, lo, hi)

    def neg(self, x):
        return self.ops.negative(x)

    def exp(self, x):
        return self.ops.exp(x)

    def log(self, x):
        return self.ops.log(x)

    def tanh(self, x):
        return self.ops.tanh(x)

    def sigmoid(self, x):
        return self.ops.sigmoid(x)

    def relu(self, x):
        return self.ops.relu(x)

    def abs(self, x):
        return self.ops.absolute(x)

    def sqrt(self, x):
        return self.ops.sqrt(x)

    def square(self, x):
        return self.ops.square(x)

    def round(self, x, half="even"):
        return self.ops.round(x) if half == "even" else no_rounding_mode("keras.ops.round")

    def sign(self, x):
        return self.ops.sign(x)

    def sum(self, x, axis=None, keepdims=False):
        return self.ops.sum(x, axis=axis, keepdims=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        return self.ops.mean(x, axis=axis, keepdims=keepdims)

    def max(self, x, axis=None, keepdims=False):
        return self.ops.max(x, axis=axis, keepdims=keepdims)

    def reshape(self, x, shape):
        return self.ops.reshape(x, tuple(shape))

    def transpose(self, x, axes):
        return self.ops.transpose(x, tuple(axes))

    def concat(self, xs, axis):
        return self.ops.concatenate(list(xs), axis=axis)

    def stack(self, xs, axis):
        return self.ops.stack(list(xs), axis=axis)

    def softmax(self, x, axis=-1):
        return self.ops.softmax(x, axis=axis)

    def log_softmax(self, x, axis=-1):
        return self.ops.log_softmax(x, axis=axis)

    def where(self, cond, x, y):
        return self.ops.where(cond, x, y)

    def sequence_mask(self, lengths, max_len):
        ops = self.ops
        return ops.less(ops.arange(max_len)[None, :], ops.expand_dims(lengths, -1))

    def causal_mask(self, size):
        return self.ops.cast(self.ops.tril(self.ops.ones((size, size))), "bool")

    def segment_mask(self, segment_ids):
        ops = self.ops
        same = ops.equal(ops.expand_dims(segment_ids, 2), ops.expand_dims(segment_ids, 1))
        return ops.logical_and(same, ops.expand_dims(ops.not_equal(segment_ids, 0), 2))

    def masked_fill(self, x, mask, value):
        return self.ops.where(mask, self.ops.cast(value, x.dtype), x)

    def masked_softmax(self, x, mask, axis=-1):
        # Keras' idiom is the Softmax layer's mask argument; the layer computes in its own dtype
        return unweighted("Softmax", self.layer_dtype(x), axis=axis)(x, mask=mask)

    def pad(self, x, pad_width, mode="constant", value=0):
        if mode not in PAD_MODES:
            raise Unsupported(f"keras.ops.pad has no {mode!r} mode")
        return self.ops.pad(x, [list(w) for w in pad_width], mode=PAD_MODES[mode],
                            constant_values=value if mode == "constant" else None)

    def pad_sequences(self, seqs, value=0, side="pre", max_len=None, truncate="pre", batch_first=True):
        # Keras' own utility, with its own defaults ("pre", and dtype int32: it is never passed, as
        # a user calling it with float sequences does not); a NumPy preprocessing function: what a
        # backend's autodiff makes of its result (no gradient, or an error) is the backend's answer
        refuse_in_trace("keras.utils.pad_sequences", "works on NumPy arrays: a compiled trace has none to give it")
        out = self.keras.utils.pad_sequences([self.to_numpy(s) for s in seqs], maxlen=max_len, padding=side,
                                             truncating=truncate, value=value)
        return self.ops.convert_to_tensor(out if batch_first else out.swapaxes(0, 1))

    def one_hot(self, indices, num_classes, dtype="int64"):
        return self.ops.one_hot(indices, num_classes, dtype=dtype)

    def stop_gradient(self, x):
        return self.ops.stop_gradient(x)

    def lstm(self, x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=True, training=True):
        return keras_rnn.run("LSTM", x, None if h0 is None else (h0, c0), params, num_layers, bidirectional,
                             batch_first, self.layer_dtype(x), training)

    def gru(self, x, h0, params, num_layers=1, bidirectional=False, batch_first=True, reset_after=None,
            training=True):
        return keras_rnn.run("GRU", x, None if h0 is None else (h0,), params, num_layers, bidirectional, batch_first,
                             self.layer_dtype(x), training, **given(reset_after=reset_after))

    def grad(self, fn, args, wrt, cotangent):
        # the backend's own autodiff, as the framework's own adapter runs it
        vjp = {"tensorflow": tape_vjp, "jax": jax_vjp, "torch": autograd_vjp}[self.backend]
        return vjp(fn, args, wrt, cotangent)


def _tf():
    import tensorflow as tf

    return tf
