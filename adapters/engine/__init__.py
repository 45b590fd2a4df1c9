"""Parity's in-house engine (engine/): NumPy arrays on the tape, reverse mode by Tensor.backward."""
import functools

import numpy as np

from adapters import workers
from adapters.base import BITWISE_OPS, COMPLEX, FLOATS, INTEGERS, Adapter, Unsupported, dtypes_except
from adapters.behaviours import ENGINE_MASKED_SOFTMAX
from adapters.engine.creation import EngineCreation
from adapters.engine.elementwise import EngineElementwise
from adapters.engine.fft import EngineFft
from adapters.engine.initializers import EngineInitializers
from adapters.engine.linalg import EngineLinalg
from adapters.engine.manipulation import EngineManipulation
from adapters.engine.matrices import EngineMatrices
from adapters.engine.optimizers import EngineOptimizers
from adapters.engine.sorting import EngineSorting
from adapters.engine.statistics import EngineStatistics
from vocabulary.fft import FREQUENCY_OPS
from vocabulary.linalg import FACTORED_OPS
from vocabulary.optimizers import OPTIMIZERS_AND_CLIPPING
from vocabulary.params import MULTIHEAD_OPS


class EngineAdapter(EngineOptimizers, EngineInitializers, EngineElementwise, EngineStatistics, EngineSorting,
                    EngineManipulation, EngineMatrices, EngineLinalg, EngineCreation, EngineFft, Adapter):
    name = "engine"
    module = "numpy"  # the engine lives in this repository and needs NumPy only
    behaviours = (ENGINE_MASKED_SOFTMAX,)
    dtypes = {"*": dtypes_except("bfloat16"),
              # NumPy's: real and imag of any dtype (a real x's imaginary part is 0)
              **dict.fromkeys(("conj", "real", "imag"), dtypes_except("bfloat16") + COMPLEX),
              **dict.fromkeys(("sub", "neg", "sigmoid", "sign", "positive", "cross", "softmax", "log_softmax",
                               "cross_entropy", "dot_product_attention", "gru", "batch_norm", *MULTIHEAD_OPS),
                              dtypes_except("bfloat16", "bool")),
              **dict.fromkeys(("masked_softmax", "lstm", *OPTIMIZERS_AND_CLIPPING), ("float16", "float32", "float64")),
              **dict.fromkeys(BITWISE_OPS, dtypes_except(*FLOATS)),
              **dict.fromkeys((*FACTORED_OPS, "matrix_norm"), ("float32", "float64")),  # NumPy's LAPACK: no float16
              **dict.fromkeys((*FREQUENCY_OPS, "finfo"), ("float16", "float32", "float64")), "iinfo": INTEGERS}

    def __init__(self):
        import engine
        from engine import (
            collectives,
            contraction,
            creation,
            dtypes,
            fft,
            indexing,
            layers,
            linalg,
            manipulation,
            matrices,
            nn,
            ops,
            pooling,
            scatter_reduce,
            sequence,
            sorting,
            statistics,
            subscript,
        )

        self.engine, self.ops, self.sequence, self.indexing, self.nn = engine, ops, sequence, indexing, nn
        self.layers, self.pooling, self.sorting = layers, pooling, sorting
        self.collectives, self.contraction = collectives, contraction
        self.subscript, self.scatter_reductions, self.statistics = subscript, scatter_reduce, statistics
        self.manipulation, self.matrices, self.linalg, self.creation = manipulation, matrices, linalg, creation
        self.fft, self.dtype_functions = fft, dtypes

    def version(self):
        return f"in-house (numpy {np.__version__})"

    def set_threads(self, threads):
        from engine import parallel

        parallel.set_num_threads(threads)  # the engine's own loops; NumPy's BLAS has its variable

    def prepare_for_speed(self):
        keep_freed_memory()  # as docs/engine.md sets a training process up: malloc keeps freed arrays

    def asarray(self, x, dtype, device):
        if dtype == "bfloat16":
            raise Unsupported("the engine computes with NumPy, which has no bfloat16")
        return self.engine.Tensor(np.asarray(x, dtype=dtype))

    def to_numpy(self, x):
        return x.numpy()

    def dtype_of(self, x):
        return x.dtype.name

    def correlate(self, a, v, mode="valid"):
        return self.contraction.correlate(a, v, mode)

    def convolve(self, a, v, mode="full"):
        return self.contraction.convolve(a, v, mode)

    def add(self, a, b):
        return self.ops.add(a, b)

    def sub(self, a, b):
        return self.ops.sub(a, b)

    def mul(self, a, b):
        return self.ops.mul(a, b)

    def div(self, a, b):
        return self.ops.div(a, b)

    def maximum(self, a, b):
        return self.ops.maximum(a, b)

    def minimum(self, a, b):
        return self.ops.minimum(a, b)

    def pow(self, a, b):
        return self.ops.pow(a, b)

    def greater(self, a, b):
        return self.ops.greater(a, b)

    def clip(self, x, lo, hi):
        return self.ops.minimum(self.ops.maximum(x, lo), hi)

    def neg(self, x):
        return self.ops.neg(x)

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
        return self.ops.abs(x)

    def sqrt(self, x):
        return self.ops.sqrt(x)

    def square(self, x):
        return self.ops.square(x)

    def round(self, x, half="even"):
        return self.ops.round(x) if half == "even" else self.ops.round_half_away(x)

    def sign(self, x):
        return self.ops.sign(x)

    def sum(self, x, axis=None, keepdims=False):
        return self.ops.sum(x, axis, keepdims)

    def mean(self, x, axis=None, keepdims=False):
        return self.ops.mean(x, axis, keepdims)

    def max(self, x, axis=None, keepdims=False):
        return self.ops.max(x, axis, keepdims)

    def reshape(self, x, shape):
        return self.ops.reshape(x, shape)

    def transpose(self, x, axes):
        return self.ops.transpose(x, axes)

    def concat(self, xs, axis):
        return self.ops.concat(xs, axis)

    def stack(self, xs, axis):
        return self.ops.stack(xs, axis)

    def softmax(self, x, axis=-1):
        return self.ops.softmax(x, axis)

    def log_softmax(self, x, axis=-1):
        return self.ops.log_softmax(x, axis)

    def where(self, cond, x, y):
        return self.ops.where(cond, x, y)

    def sequence_mask(self, lengths, max_len):
        return self.sequence.sequence_mask(lengths, max_len)

    def causal_mask(self, size):
        return self.sequence.causal_mask(size)

    def segment_mask(self, segment_ids):
        return self.sequence.segment_mask(segment_ids)

    def masked_fill(self, x, mask, value):
        return self.sequence.masked_fill(x, mask, value)

    def masked_softmax(self, x, mask, axis=-1):
        return self.sequence.masked_softmax(x, mask, axis)

    def pad(self, x, pad_width, mode="constant", value=0):
        return self.sequence.pad(x, pad_width, mode, value)

    def pad_sequences(self, seqs, value=0, side="post", max_len=None, truncate="post", batch_first=True):
        return self.sequence.pad_sequences(seqs, value, side, max_len, truncate, batch_first)

    def gather(self, x, axis, index):
        return self.indexing.gather(x, axis, index)

    def scatter(self, x, axis, index, src):
        return self.indexing.scatter(x, axis, index, src)

    def scatter_add(self, x, axis, index, src):
        return self.indexing.scatter_add(x, axis, index, src)

    def scatter_reduce(self, x, axis, index, src, reduce, include_self=True):
        return self.scatter_reductions.scatter_reduce(x, axis, index, src, reduce, include_self)

    def scatter_nd(self, indices, updates, shape):
        return self.scatter_reductions.scatter_nd(indices, updates, shape)

    def index(self, x, key):
        return self.subscript.index(x, key)

    def index_set(self, x, key, values):
        return self.subscript.index_set(x, key, values)

    def index_add(self, x, key, values):
        return self.subscript.index_add(x, key, values)

    def one_hot(self, indices, num_classes, dtype="int64"):
        return self.indexing.one_hot(indices, num_classes, dtype)

    def stop_gradient(self, x):
        return self.ops.stop_gradient(x)

    def floor(self, x):
        return self.ops.floor(x)

    def ceil(self, x):
        return self.ops.ceil(x)

    def trunc(self, x):
        return self.ops.trunc(x)

    def cast(self, x, dtype):
        return self.ops.cast(x, dtype)

    def lstm(self, x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=True, training=True):
        return self.nn.lstm(x, h0, c0, params, num_layers, bidirectional, batch_first)  # engine.nn has no modes

    def gru(self, x, h0, params, num_layers=1, bidirectional=False, batch_first=True, reset_after=True,
            training=True):
        return self.nn.gru(x, h0, params, num_layers, bidirectional, batch_first, reset_after)

    def max_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self.pooling.max_pool2d(x, kernel, stride, padding, ceil_mode)

    def avg_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self.pooling.avg_pool2d(x, kernel, stride, padding, ceil_mode, count_include_pad)

    def max_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self.pooling.max_pool1d(x, kernel, stride, padding, ceil_mode)

    def avg_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self.pooling.avg_pool1d(x, kernel, stride, padding, ceil_mode, count_include_pad)

    def cumsum(self, x, axis):
        return self.ops.cumsum(x, axis)

    def linear(self, x, weight, bias=None):
        return self.layers.linear(x, weight, bias)

    def gelu(self, x, approximate="none"):
        return self.layers.gelu(x, approximate)

    def layer_norm(self, x, weight=None, bias=None, eps=1e-5):
        return self.layers.layer_norm(x, weight, bias, eps)

    def batch_norm(self, x, running_mean=None, running_var=None, weight=None, bias=None, training=False, eps=1e-5):
        return self.layers.batch_norm(x, running_mean, running_var, weight, bias, training, eps)

    def batch_norm_stats(self, x, running_mean, running_var, momentum=0.1):
        return self.layers.batch_norm_stats(x, running_mean, running_var, momentum)

    def norm(self, x, axis=None, keepdims=False):
        return self.layers.norm(x, axis, keepdims)

    def normalize(self, x, axis=-1, eps=1e-12):
        return self.layers.normalize(x, axis, eps)

    def embedding(self, indices, weight, padding_idx=None):
        return self.layers.embedding(indices, weight, padding_idx)

    def cross_entropy(self, logits, target, reduction="mean", label_smoothing=0.0, ignore_index=None):
        return self.layers.cross_entropy(logits, target, reduction, label_smoothing, ignore_index)

    def multi_head_attention(self, query, key, value, params, num_heads, key_padding_mask=None, batch_first=True):
        return self.layers.multi_head_attention(query, key, value, params, num_heads, key_padding_mask, batch_first)

    def multi_head_attention_weights(self, query, key, value, params, num_heads, key_padding_mask=None,
                                     batch_first=True):
        return self.layers.multi_head_attention_weights(query, key, value, params, num_heads, key_padding_mask,
                                                        batch_first)

    def dot_product_attention(self, q, k, v, mask=None, bias=None, causal=False, scale=None):
        return self.layers.dot_product_attention(q, k, v, mask, bias, causal, scale)

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        return self.nn.conv1d(x, w, b, stride, padding, dilation, groups)

    def conv2d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        return self.nn.conv2d(x, w, b, stride, padding, dilation, groups)

    def collective(self, name, shards, device="cpu", **params):
        """The simulated mesh: one process, shard d on "device" d (the engine has one device kind)."""
        if name not in self.collectives.COLLECTIVES:
            raise Unsupported(f"the engine's simulated mesh has no collective {name!r}")
        outputs = self.collectives.COLLECTIVES[name]([self.engine.Tensor(s) for s in shards], **params)
        return [o.numpy() for o in outputs]

    def collective_grad(self, name, shards, cotangents, device="cpu", replicated=False, **params):
        """The tape's reverse pass through the simulated mesh: sum_r <output_r, cotangent_r>;
        a replicated result is one value, its cotangent counted once (on rank 0's copy)."""
        if name not in self.collectives.COLLECTIVES:
            raise Unsupported(f"the engine's simulated mesh has no collective {name!r}")
        leaves = [self.engine.Tensor(s, requires_grad=True) for s in shards]
        outputs = self.collectives.COLLECTIVES[name](leaves, **params)
        ops = self.ops
        products = [ops.sum(ops.mul(o, self.engine.Tensor(c))) for o, c in zip(outputs[:1] if replicated else outputs,
                                                                                cotangents)]
        functools.reduce(ops.add, products).backward()
        return [np.zeros_like(s) if leaf.grad is None else np.asarray(leaf.grad) for leaf, s in zip(leaves, shards)]

    def time_collective(self, name, shards, rounds, device="cpu", placement="out-of-place", **params):
        if name not in self.collectives.COLLECTIVES:
            raise Unsupported(f"the engine's simulated mesh has no collective {name!r}")
        if placement == "in-place":
            raise Unsupported("the engine's tensors are immutable: its collectives make new ones")
        tensors = [self.engine.Tensor(s) for s in shards]
        return workers.time_rounds(lambda: self.collectives.COLLECTIVES[name](tensors, **params), rounds)

    def grad(self, fn, args, wrt, cotangent):
        leaves = {n: self.engine.Tensor(args[n].data, requires_grad=True) for n in wrt}
        value = fn(**{**args, **leaves})
        value.backward(cotangent.data)
        # a leaf the value does not depend on gets no .grad: "no gradient", as the engine says it
        return value.detach(), {n: None if t.grad is None else self.engine.Tensor(t.grad) for n, t in leaves.items()}


M_TRIM_THRESHOLD = -1  # glibc's mallopt parameters (malloc.h)
M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD_MAX = 32 * 2**20  # glibc's largest mmap threshold on 64-bit machines


def keep_freed_memory(keep_bytes: int = 2**30) -> bool:
    """Arrays up to 32 MiB from malloc's heap, and up to `keep_bytes` of freed memory kept there
    rather than returned to the kernel, for the whole process. Every training step allocates the
    same large arrays again (attention's scores and their gradients), and glibc serves arrays
    above its mmap threshold with fresh pages the kernel must zero, then returns them on free:
    a third of the engine's attention forward + backward (docs/engine.md). True where it took
    effect (glibc); False elsewhere, where nothing changes. Here, not in engine/, which imports
    NumPy alone."""
    import ctypes
    import ctypes.util

    try:
        mallopt = ctypes.CDLL(ctypes.util.find_library("c")).mallopt
    except (OSError, AttributeError, TypeError):
        return False
    mallopt.argtypes, mallopt.restype = (ctypes.c_int, ctypes.c_int), ctypes.c_int
    return bool(mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD_MAX)) and bool(mallopt(M_TRIM_THRESHOLD, keep_bytes))
