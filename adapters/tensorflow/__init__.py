"""TensorFlow: tf.* ops (tf.experimental.numpy where TF documents NumPy semantics), tf.GradientTape
for gradients, cpu and gpu devices. Ops are placed by a tf.device scope, not by their inputs.
Collectives run in a worker process under tf.distribute.MirroredStrategy over world_size logical
devices, through the replica context; across processes under MultiWorkerMirroredStrategy, where
TF's collective ops (reduce_scatter, all_to_all, broadcast) run too."""
import os

from adapters import workers
from adapters.backends import TF_CONV_DTYPES, TF_MATMUL_DTYPES, refuse_corrupting_matmul, tape_vjp
from adapters.base import (
    DTYPES,
    FLOATS,
    INFO_DTYPES,
    INTEGERS,
    WIDE_UNSIGNED,
    Adapter,
    Unsupported,
    as_tuple,
    conv_padding,
    dtypes_except,
    given,
    lift_1d,
    no_rounding_mode,
)
from adapters.behaviours import KERAS_MASKED_SOFTMAX, TENSORFLOW_BOOL_MUL, TF_ALL_GATHER_CONCATENATES
from adapters.indexing import index_coordinates, leading_block
from adapters.initializers import Initializers
from adapters.keras import initializers as keras_initializers
from adapters.keras import optimizers as keras_optimizers
from adapters.keras import rnn as keras_rnn
from adapters.layer_behaviours import TF_GELU_FLOAT32_CONSTANTS, TF_L2_NORMALIZE, TF_PER_EXAMPLE_LOSS
from adapters.operators import PythonOperators
from adapters.tensorflow.collectives import COLLECTIVE_OPS, TF_COLLECTIVES, collective_rank
from adapters.tensorflow.creation import TensorFlowCreation
from adapters.tensorflow.elementwise import TENSORFLOW_ELEMENTWISE_DTYPES, TensorFlowElementwise
from adapters.tensorflow.export import TensorFlowExport
from adapters.tensorflow.fft import TensorFlowFft
from adapters.tensorflow.idioms import TensorFlowIdioms
from adapters.tensorflow.layers import TensorFlowLayers
from adapters.tensorflow.linalg import TensorFlowLinalg
from adapters.tensorflow.manipulation import TensorFlowManipulation
from adapters.tensorflow.matrices import TensorFlowMatrices
from adapters.tensorflow.optimizers import TF_CLIP_GRAD_NORM, TensorFlowOptimizers
from adapters.tensorflow.statistics import TENSORFLOW_STATISTICS_DTYPES, TensorFlowStatistics
from vocabulary.params import MULTIHEAD_OPS

# What tf.function(jit_compile=True) raises for an op that XLA has no kernel for (RaggedTensorToTensor,
# say): the compiler's own refusal, so the program is unsupported in the compiled mode
XLA_REFUSES = "Detected unsupported operations when trying to compile graph"


class TensorFlowAdapter(TensorFlowLayers, TensorFlowIdioms, TensorFlowElementwise, TensorFlowStatistics,
                        TensorFlowManipulation, TensorFlowMatrices, TensorFlowLinalg, TensorFlowCreation,
                        TensorFlowFft, PythonOperators, TensorFlowOptimizers, Initializers, TensorFlowExport, Adapter):
    name = "tensorflow"
    module = "tensorflow"
    behaviours = (KERAS_MASKED_SOFTMAX,  # masked_softmax is tf.keras.layers.Softmax(mask=)
                  TF_ALL_GATHER_CONCATENATES, TENSORFLOW_BOOL_MUL, TF_PER_EXAMPLE_LOSS,
                  TF_GELU_FLOAT32_CONSTANTS, TF_L2_NORMALIZE, *keras_optimizers.KERAS_OPTIMIZERS, TF_CLIP_GRAD_NORM,
                  *keras_initializers.KERAS_INITIALIZERS, *keras_initializers.KERAS_LAYER_DEFAULTS)
    # iinfo from a tf.DType's min, max and size, which a float dtype has too (not its bfloat16)
    dtypes = {"*": DTYPES, **INFO_DTYPES, "iinfo": INTEGERS + ("float16", "float32", "float64"),
              **dict.fromkeys(("add", "sub", "div", "maximum", "minimum", "relu", "square", "round", "sum",
                               "mean", "max", "segment_mask", "scatter_add", "greater", "clip", "sort", "argsort",
                               "topk", "topk_indices", "tril", "triu", "trace", "cross", "full", "full_like"),
                              dtypes_except("bool")),
              "arange": FLOATS + ("int32", "int64"), "linspace": FLOATS,
              "vecdot": (), "matrix_power": (), "nonzero": dtypes_except("float16"),  # no float16 WhereOp on CPU
              # MatrixDeterminant, LogMatrixDeterminant, MatrixSolve, Cholesky, SelfAdjointEigV2, Svd: no float16 CPU
              # kernel; MatrixInverse and Qr have
              **dict.fromkeys(("det", "slogdet", "solve", "cholesky", "eigvalsh", "svdvals", "matrix_rank", "pinv",
                               "eigh", "svd"),
                              ("float32", "float64")),
              **dict.fromkeys(("inv", "qr"), ("float16", "float32", "float64")),
              **keras_optimizers.OPTIMIZER_DTYPES["tensorflow"],  # tf.keras' optimizers and initializers
              **keras_initializers.KERAS_INITIALIZER_DTYPES["tensorflow"], **TENSORFLOW_ELEMENTWISE_DTYPES,
              **TENSORFLOW_STATISTICS_DTYPES,
              **dict.fromkeys(("matmul", "mm", "dot", "outer", "einsum", "tensordot", "linear"), TF_MATMUL_DTYPES),
              **dict.fromkeys(("pow", "neg", "abs", "sign", "matrix_norm"),
                              dtypes_except("uint8", *WIDE_UNSIGNED, "bool")),
              **dict.fromkeys(("exp", "log", "tanh", "sigmoid", "sqrt", "softmax", "log_softmax", "floor", "ceil",
                               "clip_grad_norm", "l2_penalty"), FLOATS),
              **dict.fromkeys(("trunc", "bmm", "correlate", "convolve"), ()),
              **dict.fromkeys(("scatter_reduce", "index_add"), dtypes_except("bool")),
              "masked_softmax": dtypes_except("int8"),  # Keras reads an int8 dtype as a quantisation policy
              "one_hot": ("int8", "uint8", "int32", "int64"),
              **dict.fromkeys(("lstm", "gru"), ("float16", "float32", "float64")),
              **dict.fromkeys(("conv1d", "conv2d"), TF_CONV_DTYPES),
              "cumsum": dtypes_except("bool"), **dict.fromkeys(("tile", "repeat"), dtypes_except("uint16")),
              **dict.fromkeys(("gelu", "layer_norm", "cross_entropy", "norm", "vector_norm", "normalize", "batch_norm"),
                              FLOATS),
              # unsupported: tf.nn has no attention op and keeps no running statistics
              **dict.fromkeys(("dot_product_attention", "batch_norm_stats", *MULTIHEAD_OPS), ()),
              **dict.fromkeys(("max_pool2d", "max_pool1d"), dtypes_except("uint32", "uint64", "bool")),
              **dict.fromkeys(("avg_pool2d", "avg_pool1d"), FLOATS)}

    def __init__(self):
        os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")  # keep oneDNN/absl start-up chatter out of reports
        import tensorflow as tf

        tf.config.experimental.enable_tensor_float_32_execution(False)  # float32 means float32
        self.tf = tf

    def version(self):
        return self.tf.__version__

    def devices(self):
        return ["cpu"] + [f"gpu:{i}" for i, _ in enumerate(self.tf.config.list_physical_devices("GPU"))]

    def device_scope(self, device):
        return self.tf.device(device.upper())

    def asarray(self, x, dtype, device):
        with self.device_scope(device):
            return self.tf.cast(self.tf.constant(x), getattr(self.tf, dtype))

    def to_numpy(self, x):
        tf = self.tf
        return (tf.cast(x, tf.float32) if x.dtype == tf.bfloat16 else x).numpy()  # NumPy has no bfloat16

    def dtype_of(self, x):
        return x.dtype.name

    def sync(self, x):
        x.numpy()  # the only documented way to wait for an eager result

    def matmul(self, a, b):
        refuse_corrupting_matmul(self.tf, a, b)
        # tf.linalg.matmul wants rank >= 2; TF's NumPy-semantics matmul promotes 1-D operands.
        return self.tf.experimental.numpy.matmul(a, b)

    def mm(self, a, b):
        refuse_corrupting_matmul(self.tf, a, b)
        return self.tf.linalg.matmul(a, b)

    def maximum(self, a, b):
        return self.tf.maximum(a, b)

    def minimum(self, a, b):
        return self.tf.minimum(a, b)

    def clip(self, x, lo, hi):
        return self.tf.clip_by_value(x, lo, hi)

    def neg(self, x):
        return self.tf.negative(x)

    def exp(self, x):
        return self.tf.exp(x)

    def log(self, x):
        return self.tf.math.log(x)

    def tanh(self, x):
        return self.tf.tanh(x)

    def sigmoid(self, x):
        return self.tf.sigmoid(x)

    def relu(self, x):
        return self.tf.nn.relu(x)

    def abs(self, x):
        return self.tf.abs(x)

    def sqrt(self, x):
        return self.tf.sqrt(x)

    def square(self, x):
        return self.tf.square(x)

    def round(self, x, half="even"):
        return self.tf.round(x) if half == "even" else no_rounding_mode("tf.round")  # banker's rounding, as NumPy

    def sign(self, x):
        return self.tf.sign(x)

    def sum(self, x, axis=None, keepdims=False):
        return self.tf.reduce_sum(x, axis=axis, keepdims=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        return self.tf.reduce_mean(x, axis=axis, keepdims=keepdims)

    def max(self, x, axis=None, keepdims=False):
        return self.tf.reduce_max(x, axis=axis, keepdims=keepdims)

    def reshape(self, x, shape):
        return self.tf.reshape(x, list(shape))

    def transpose(self, x, axes):
        return self.tf.transpose(x, list(axes))

    def concat(self, xs, axis):
        return self.tf.concat(list(xs), axis=axis)

    def stack(self, xs, axis):
        return self.tf.stack(list(xs), axis=axis)

    def softmax(self, x, axis=-1):
        return self.tf.nn.softmax(x, axis=axis)

    def log_softmax(self, x, axis=-1):
        return self.tf.nn.log_softmax(x, axis=axis)

    def where(self, cond, x, y):
        return self.tf.where(cond, x, y)

    def sequence_mask(self, lengths, max_len):
        return self.tf.sequence_mask(lengths, max_len)

    def causal_mask(self, size):
        return self.tf.cast(self.tf.linalg.band_part(self.tf.ones((size, size)), -1, 0), self.tf.bool)

    def segment_mask(self, segment_ids):
        tf = self.tf
        return tf.equal(segment_ids[:, :, None], segment_ids[:, None, :]) & tf.not_equal(segment_ids, 0)[:, :, None]

    def masked_fill(self, x, mask, value):
        return self.tf.where(mask, self.tf.cast(value, x.dtype), x)

    def masked_softmax(self, x, mask, axis=-1):
        self._keras_is_tensorflow()
        # a Keras layer computes in its own dtype (float32 by default) whatever the input's
        return self.tf.keras.layers.Softmax(axis=axis, dtype=x.dtype.name)(x, mask=mask)

    def initialize(self, name, x, seed, params):
        self._keras_is_tensorflow()
        return keras_initializers.run(self.tf.keras, name, x, seed, params)

    def layer_parameters(self, layer, w, seed):
        self._keras_is_tensorflow()
        return keras_initializers.layer_parameters(self.tf.keras, layer, w, seed)

    def _keras_is_tensorflow(self):
        """tf.keras is Keras 3, whose backend KERAS_BACKEND fixes for the whole process."""
        backend = self.tf.keras.backend.backend()
        if backend != "tensorflow":
            raise Unsupported(f"tf.keras runs on the {backend} backend here (KERAS_BACKEND): run the tensorflow "
                              "adapter in a process without it")

    def pad(self, x, pad_width, mode="constant", value=0):
        modes = {"constant": "CONSTANT", "reflect": "REFLECT", "symmetric": "SYMMETRIC"}
        if mode not in modes:
            raise Unsupported(f"tf.pad has no {mode!r} mode")
        return self.tf.pad(x, [list(w) for w in pad_width], mode=modes[mode], constant_values=value)

    def pad_sequences(self, seqs, value=0, side="post", max_len=None, truncate="post", batch_first=True):
        tf = self.tf
        if side == "post" and truncate == "post":  # a RaggedTensor pads at the end, and cuts there too
            ragged = tf.RaggedTensor.from_row_lengths(tf.concat(list(seqs), 0), [s.shape[0] for s in seqs])
            out = ragged.to_tensor(default_value=tf.cast(value, seqs[0].dtype),
                                   shape=[len(seqs), max_len] + list(seqs[0].shape[1:]))
        else:  # Keras' NumPy utility for "pre": it returns values, not a differentiable tensor
            if tf.inside_function():
                raise Unsupported("keras.utils.pad_sequences works on NumPy arrays: a compiled trace has none")
            out = tf.constant(tf.keras.utils.pad_sequences(
                [s.numpy() for s in seqs], maxlen=max_len, dtype=seqs[0].dtype.name, padding=side,
                truncating=truncate, value=value))
        return out if batch_first else tf.experimental.numpy.swapaxes(out, 0, 1)

    def _coordinates(self, index, axis):
        """tf.tensor_scatter_nd_* and gather_nd take [..., rank] coordinates."""
        tf, index = self.tf, self.tf.cast(index, self.tf.int64)
        return index_coordinates(index, axis, lambda parts: tf.stack(parts, axis=-1),
                                 lambda grid: tf.broadcast_to(tf.constant(grid, tf.int64), tf.shape(index)))

    def gather(self, x, axis, index):
        return self.tf.gather_nd(x, self._coordinates(index, axis))

    def scatter(self, x, axis, index, src):
        tf = self.tf
        src = tf.fill(index.shape, tf.cast(src, x.dtype)) if isinstance(src, (int, float)) else \
            src[leading_block(index.shape)]
        return tf.tensor_scatter_nd_update(x, self._coordinates(index, axis), src)

    def scatter_add(self, x, axis, index, src):
        return self.tf.tensor_scatter_nd_add(x, self._coordinates(index, axis), src[leading_block(index.shape)])

    def one_hot(self, indices, num_classes, dtype="int64"):
        return self.tf.one_hot(indices, num_classes, dtype=getattr(self.tf, dtype))

    def stop_gradient(self, x):
        return self.tf.stop_gradient(x)

    def lstm(self, x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=True, training=True):
        self._keras_is_tensorflow()  # tf.keras is Keras 3: its LSTM layer, on the TensorFlow backend
        return keras_rnn.run("LSTM", x, None if h0 is None else (h0, c0), params, num_layers, bidirectional,
                             batch_first, x.dtype.name, training)

    def gru(self, x, h0, params, num_layers=1, bidirectional=False, batch_first=True, reset_after=None,
            training=True):
        self._keras_is_tensorflow()  # tf.keras.layers.GRU: Keras 3 on the TensorFlow backend
        return keras_rnn.run("GRU", x, None if h0 is None else (h0,), params, num_layers, bidirectional, batch_first,
                             x.dtype.name, training, **given(reset_after=reset_after))

    def conv2d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        tf = self.tf
        pads = conv_padding(padding, 2)
        pads = pads if isinstance(pads, str) else [[0, 0], *map(list, pads), [0, 0]]
        # NCHW / OIHW in, NHWC / HWIO for tf.nn.conv2d (groups follow from the channel counts)
        out = tf.nn.conv2d(tf.transpose(x, [0, 2, 3, 1]), tf.transpose(w, [2, 3, 1, 0]), as_tuple(stride, 2),
                           pads, dilations=as_tuple(dilation, 2))
        out = tf.transpose(out, [0, 3, 1, 2])
        return out if b is None else out + tf.reshape(b, [1, -1, 1, 1])

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        # tf.nn.conv1d takes no explicit padding: run conv2d over a height of 1
        out = self.conv2d(x[:, :, None], w[:, :, None], b, lift_1d(stride, 1), lift_1d(padding, 0),
                          lift_1d(dilation, 1), groups)
        return out[:, :, 0]

    def collective_supported(self, name, params):
        if name not in (*TF_COLLECTIVES, *COLLECTIVE_OPS, "cross_replica_reduce"):
            raise Unsupported(f"tf.distribute has no {name}: neither its replica context (all_reduce, all_gather) "
                              "nor TF's collective ops (reduce_scatter, all_to_all, broadcast)")
        if params.get("op", "sum") not in ("sum", "mean"):
            raise Unsupported("tf.distribute.ReduceOp has SUM and MEAN only")

    def _one_process(self, name, params):
        """What MirroredStrategy runs: TF's collective ops wait for their timeout under it (the
        collective executor they need is MultiWorkerMirroredStrategy's; seen with TF 2.21)."""
        self.collective_supported(name, params)
        if name in COLLECTIVE_OPS:
            raise Unsupported(f"TF's collective op for {name} runs across processes (MultiWorkerMirroredStrategy: "
                              "python -m suites.multihost --adapter tensorflow); under MirroredStrategy it times out")

    def collective(self, name, shards, device="cpu", **params):
        self._one_process(name, params)
        return self._pool(len(shards), device).call(name, shards, params)

    def collective_grad(self, name, shards, cotangents, device="cpu", replicated=False, **params):
        # replicated or not, each replica's tape runs from its own copy's cotangent
        self._one_process(name, params)
        if name == "cross_replica_reduce":
            raise Unsupported("Strategy.reduce is a cross-replica call: no replica's tape records it")
        return self._pool(len(shards), device).call(name, shards, params, cotangents=cotangents)

    def time_collective(self, name, shards, rounds, device="cpu", placement="out-of-place", **params):
        self._one_process(name, params)
        if placement == "in-place":
            raise Unsupported("tf.distribute's collectives return new tensors: none runs in-place")
        if name == "cross_replica_reduce":
            raise Unsupported("Strategy.reduce is not timed: it returns to the host, not to the replicas")
        return workers.slowest(self._pool(len(shards), device).call(name, shards, params, rounds=rounds))

    def collective_rank(self, rank, processes, announce, device="cpu", **launch):
        return collective_rank(rank, processes, announce, device=device, **launch)

    def _pool(self, world, device):
        return workers.pool("adapters.tensorflow.collectives", world, 1, {"device": device})

    def compile(self, fn):
        compiled = self.tf.function(fn, jit_compile=True)

        def call(*args, **kwargs):
            try:
                return compiled(*args, **kwargs)
            except self.tf.errors.InvalidArgumentError as exc:  # XLA has no kernel for an op of the program
                if XLA_REFUSES not in str(exc):
                    raise
                # the op XLA refuses, after the graph's generated name: "... on XLA_CPU_JIT: RaggedTensorToTensor (...)"
                refused = str(exc).splitlines()[0].split("] on ", 1)[-1]
                raise Unsupported(f"tf.function(jit_compile=True): XLA refuses {refused[:200]}") from exc

        return call

    def set_threads(self, threads):
        self.tf.config.threading.set_intra_op_parallelism_threads(threads)
        self.tf.config.threading.set_inter_op_parallelism_threads(threads)

    def deterministic(self):
        self.tf.config.experimental.enable_op_determinism()
        return "tf.config.experimental.enable_op_determinism()"

    def reset_peak_memory(self, device):
        if device != "cpu":
            self.tf.config.experimental.reset_memory_stats(device.upper())

    def peak_memory(self, device):
        return None if device == "cpu" else self.tf.config.experimental.get_memory_info(device.upper())["peak"]

    def grad(self, fn, args, wrt, cotangent):
        return tape_vjp(fn, args, wrt, cotangent)
