"""JAX: jax.numpy / jax.lax ops, jax.vjp for gradients, cpu and gpu devices; collectives with
jax.shard_map over world_size devices in a worker process (XLA's host device count on CPU).

Two configurations, one per process (x64 is a global switch, read when arrays are made): `jax`
turns x64 on, so that float64 and int64 are dtypes under test; with PARITY_JAX_X64=0 the adapter
is `jax-32`, JAX as it runs by default, where float64 and int64 inputs silently become float32
and int32 (documented for every spec in jax-32.differences.yaml)."""
import pathlib
import warnings

import numpy as np

from adapters import workers
from adapters.backends import jax_vjp
from adapters.base import (
    ALL_DTYPES,
    BITWISE_OPS,
    DTYPES,
    FLOATS,
    INFO_DTYPES,
    Adapter,
    Unsupported,
    as_tuple,
    axes_tuple,
    conv_padding,
    dtypes_except,
)
from adapters.indexing import index_grids, leading_block
from adapters.initializers import INITIALIZER_DTYPES
from adapters.jax.collectives import JAX_COLLECTIVES, collective_rank
from adapters.jax.creation import JaxCreation
from adapters.jax.elementwise import JaxElementwise
from adapters.jax.export import JaxExport
from adapters.jax.fft import JaxFft
from adapters.jax.idioms import JaxIdioms
from adapters.jax.initializers import FLAX_LAYER_DEFAULTS, JAX_INITIALIZERS, JaxInitializers
from adapters.jax.layers import JaxLayers
from adapters.jax.linalg import JaxLinalg
from adapters.jax.manipulation import JaxManipulation
from adapters.jax.matrices import JaxMatrices
from adapters.jax.optimizers import OPTAX_CLIP_GRAD_NORM, OPTAX_OPTIMIZERS, JaxOptimizers
from adapters.jax.precision import X64
from adapters.jax.statistics import JaxStatistics
from adapters.layer_behaviours import (
    FLAX_BATCH_NORM_STATS,
    FLAX_LAYER_NORM_EPS,
    FLAX_MULTIHEAD_MEAN_OF_V,
    JAX_ATTENTION_MEAN_OF_V,
    JAX_AVG_POOL_SAME_COUNTS_PADDING,
    JAX_GELU_TANH,
    JAX_POOL_STRIDE_ONE,
    OPTAX_PER_EXAMPLE_LOSS,
)
from adapters.mixed import FLAX_MIXED
from vocabulary import PAD_MODES
from vocabulary.linalg import DECOMPOSITION_OPS
from vocabulary.params import MULTIHEAD_OPS

if not X64:
    # JAX warns on every float64 or int64 array it truncates: the jax-32 default itself, which is
    # a documented difference on every spec (jax-32.differences.yaml) and shows in the report, so
    # its 700 warnings a CI slice say nothing the records do not
    warnings.filterwarnings("ignore", message="Explicitly requested dtype .* is not available", category=UserWarning)


class JaxAdapter(JaxLayers, JaxOptimizers, JaxInitializers, JaxIdioms, JaxElementwise, JaxStatistics,
                 JaxManipulation, JaxMatrices, JaxLinalg, JaxCreation, JaxFft, JaxExport, Adapter):
    name = "jax" if X64 else "jax-32"
    variant_of = None if X64 else "jax"
    module = "jax"
    process_devices = 2  # XLA host devices: a process holds several, as a GPU host holds its GPUs
    shared_modes = ("compiled", "exported")  # jax.jit compiles once per input signature (shapes, dtypes)
    dtypes = {"*": DTYPES, "scatter_nd": (), "l2_penalty": (), **INFO_DTYPES,
              **dict.fromkeys(("conj", "real", "imag"), ALL_DTYPES),  # jnp's imag of a real x: zeros
              # LAPACK's getrf, potrf, syevd, gesdd: no half
              **dict.fromkeys(("slogdet", "inv", "solve", "cholesky", "eigvalsh", "svdvals", "matrix_rank", "pinv",
                               *DECOMPOSITION_OPS),
                              dtypes_except("float16", "bfloat16")),
              **dict.fromkeys(("sub", "neg", "round", "sign", "softmax", "log_softmax", "scatter_add", "one_hot",
                               "index_add", "cross", "arange", "rfftfreq"), dtypes_except("bool")),
              **dict.fromkeys(("sigmoid", "lstm", "gru", "linear", "layer_norm", "embedding", "cross_entropy",
                               "batch_norm", "batch_norm_stats", *MULTIHEAD_OPS, "clip_grad_norm"), FLOATS),
              # 64-bit integer inputs: "preferred_element_type must not be narrower" (float32 logits); jax-32 has
              # 32-bit ones
              "dot_product_attention": dtypes_except("int64", "uint64") if X64 else DTYPES,
              "normalize": (),  # unsupported: jax has none
              **dict.fromkeys(("avg_pool2d", "avg_pool1d"), dtypes_except("bool")), **INITIALIZER_DTYPES,
              **dict.fromkeys(BITWISE_OPS, dtypes_except(*FLOATS))}
    behaviours = (JAX_ATTENTION_MEAN_OF_V, JAX_GELU_TANH, FLAX_LAYER_NORM_EPS, OPTAX_PER_EXAMPLE_LOSS,
                  JAX_AVG_POOL_SAME_COUNTS_PADDING, *JAX_POOL_STRIDE_ONE, FLAX_BATCH_NORM_STATS,
                  *FLAX_MULTIHEAD_MEAN_OF_V, *OPTAX_OPTIMIZERS, OPTAX_CLIP_GRAD_NORM, *JAX_INITIALIZERS,
                  *FLAX_LAYER_DEFAULTS, *FLAX_MIXED)

    def __init__(self):
        import jax

        if X64:
            jax.config.update("jax_enable_x64", True)  # float64 and int64 are dtypes under test
        elif jax.config.jax_enable_x64:
            raise RuntimeError("jax-32 runs JAX as it runs by default, but x64 is on (JAX_ENABLE_X64, or an adapter "
                               "that turned it on in this process: run jax-32 in a process of its own)")
        jax.config.update("jax_default_matmul_precision", "highest")  # no TF32 / bf16 passes on GPU
        import jax.numpy as jnp

        self.jax, self.jnp, self.lax = jax, jnp, jax.lax

    @classmethod
    def differences_file(cls):
        return super().differences_file() if X64 else pathlib.Path(__file__).with_name("jax-32.differences.yaml")

    def version(self):
        return self.jax.__version__ + ("" if X64 else " (32-bit default)")

    def environment(self):
        return {} if X64 else {"PARITY_JAX_X64": "0"}

    def devices(self):
        return ["cpu"] + [f"gpu:{d.id}" for d in self._gpus()]

    def _gpus(self):
        try:
            return self.jax.devices("gpu")
        except RuntimeError:  # no GPU backend in this jaxlib
            return []

    def _device(self, device):
        if device == "cpu":
            return self.jax.devices("cpu")[0]
        return self._gpus()[int(device.split(":")[1])]

    def asarray(self, x, dtype, device):
        return self.jax.device_put(self.jnp.asarray(x, dtype=dtype), self._device(device))

    def to_numpy(self, x):

        x = np.asarray(x)
        return x.astype(np.float32) if x.dtype.name == "bfloat16" else x  # ml_dtypes bfloat16 -> float32

    def dtype_of(self, x):
        return x.dtype.name

    def sync(self, x):
        x.block_until_ready()

    def compile(self, fn):
        # the compiled mode; the eager one (Adapter.stage) runs op by op, each primitive an XLA
        # computation of its own
        return self.jax.jit(fn)

    def matmul(self, a, b):
        return self.jnp.matmul(a, b)

    def mm(self, a, b):
        return self.lax.dot(a, b)  # lax.dot: matrix-matrix without batch dims (it also accepts vectors)

    def add(self, a, b):
        return self.jnp.add(a, b)

    def sub(self, a, b):
        return self.jnp.subtract(a, b)

    def mul(self, a, b):
        return self.jnp.multiply(a, b)

    def div(self, a, b):
        return self.jnp.divide(a, b)

    def maximum(self, a, b):
        return self.jnp.maximum(a, b)

    def minimum(self, a, b):
        return self.jnp.minimum(a, b)

    def pow(self, a, b):
        return self.jnp.power(a, b)

    def greater(self, a, b):
        return self.jnp.greater(a, b)

    def clip(self, x, lo, hi):
        return self.jnp.clip(x, lo, hi)

    def neg(self, x):
        return self.jnp.negative(x)

    def exp(self, x):
        return self.jnp.exp(x)

    def log(self, x):
        return self.jnp.log(x)

    def tanh(self, x):
        return self.jnp.tanh(x)

    def sigmoid(self, x):
        return self.jax.nn.sigmoid(x)

    def relu(self, x):
        return self.jax.nn.relu(x)

    def abs(self, x):
        return self.jnp.abs(x)

    def sqrt(self, x):
        return self.jnp.sqrt(x)

    def square(self, x):
        return self.jnp.square(x)

    def round(self, x, half=None):
        """jnp.round (half to even) as jax.numpy users call it; with `half`, jax.lax.round:
        'away' calls it with its default rounding_method (ROUND_AWAY_FROM_ZERO)."""
        if half is None:
            return self.jnp.round(x)
        if half == "away":
            return self.lax.round(x)
        return self.lax.round(x, self.lax.RoundingMethod.TO_NEAREST_EVEN)

    def sign(self, x):
        return self.jnp.sign(x)

    def sum(self, x, axis=None, keepdims=False):
        return self.jnp.sum(x, axis=axes_tuple(axis), keepdims=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        return self.jnp.mean(x, axis=axes_tuple(axis), keepdims=keepdims)

    def max(self, x, axis=None, keepdims=False):
        return self.jnp.max(x, axis=axes_tuple(axis), keepdims=keepdims)

    def reshape(self, x, shape):
        return self.jnp.reshape(x, tuple(shape))

    def transpose(self, x, axes):
        return self.jnp.transpose(x, tuple(axes))

    def concat(self, xs, axis):
        return self.jnp.concatenate(list(xs), axis=axis)

    def stack(self, xs, axis):
        return self.jnp.stack(list(xs), axis=axis)

    def softmax(self, x, axis=-1):
        return self.jax.nn.softmax(x, axis=axis)

    def log_softmax(self, x, axis=-1):
        return self.jax.nn.log_softmax(x, axis=axis)

    def where(self, cond, x, y):
        return self.jnp.where(cond, x, y)

    def sequence_mask(self, lengths, max_len):
        return self.jnp.arange(max_len)[None, :] < lengths[:, None]

    def causal_mask(self, size):
        return self.jnp.tril(self.jnp.ones((size, size), dtype=bool))

    def segment_mask(self, segment_ids):
        return (segment_ids[:, :, None] == segment_ids[:, None, :]) & (segment_ids != 0)[:, :, None]

    def masked_fill(self, x, mask, value):
        return self.jnp.where(mask, self.jnp.asarray(value, dtype=x.dtype), x)

    def masked_softmax(self, x, mask, axis=-1):
        return self.jax.nn.softmax(x, axis=axis, where=mask)

    def pad(self, x, pad_width, mode="constant", value=0):
        if mode not in PAD_MODES:
            raise Unsupported(f"jnp.pad has no {mode!r} mode")
        kwargs = {"constant_values": value} if mode == "constant" else {}
        return self.jnp.pad(x, [tuple(w) for w in pad_width], mode=PAD_MODES[mode], **kwargs)

    def pad_sequences(self, seqs, value=0, side="post", max_len=None, truncate="post", batch_first=True):
        # JAX has no pad_sequences: each sequence is cut to max_len and padded with jnp.pad
        length = max_len if max_len is not None else max(len(s) for s in seqs)
        rows = []
        for s in seqs:
            s = s[:length] if truncate == "post" else s[max(len(s) - length, 0):]
            width = (0, length - len(s)) if side == "post" else (length - len(s), 0)
            rows.append(self.jnp.pad(s, [width] + [(0, 0)] * (s.ndim - 1), constant_values=value))
        return self.jnp.stack(rows, axis=0 if batch_first else 1)

    def _coordinates(self, index, axis):
        return tuple(index if g is None else self.jnp.asarray(g) for g in index_grids(index.shape, axis))

    def gather(self, x, axis, index):
        # take_along_axis needs x's other axes no longer than index's: take their leading block
        block = tuple(slice(None) if d == axis % x.ndim else slice(0, n) for d, n in enumerate(index.shape))
        return self.jnp.take_along_axis(x[block], index, axis=axis)

    def scatter(self, x, axis, index, src):
        src = src if isinstance(src, (int, float)) else src[leading_block(index.shape)]
        return x.at[self._coordinates(index, axis)].set(src)

    def scatter_add(self, x, axis, index, src):
        return x.at[self._coordinates(index, axis)].add(src[leading_block(index.shape)])

    def one_hot(self, indices, num_classes, dtype="int64"):
        return self.jax.nn.one_hot(indices, num_classes, dtype=dtype)

    def stop_gradient(self, x):
        return self.lax.stop_gradient(x)

    def _conv(self, x, w, b, stride, padding, dilation, groups, layout):
        spatial = len(layout[0]) - 2
        out = self.lax.conv_general_dilated(x, w, as_tuple(stride, spatial), conv_padding(padding, spatial),
                                            rhs_dilation=as_tuple(dilation, spatial), dimension_numbers=layout,
                                            feature_group_count=groups)
        return out if b is None else out + b.reshape((1, -1) + (1,) * spatial)

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        return self._conv(x, w, b, stride, padding, dilation, groups, ("NCH", "OIH", "NCH"))

    def conv2d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        return self._conv(x, w, b, stride, padding, dilation, groups, ("NCHW", "OIHW", "NCHW"))

    def collective_supported(self, name, params):
        if name == "broadcast":
            raise Unsupported("jax.lax has no broadcast collective (a root's value reaches every device through "
                              "all_gather or ppermute, written by the user)")
        if name not in JAX_COLLECTIVES:
            raise Unsupported(f"jax.lax has no {name} collective")
        if name == "reduce_scatter" and params.get("op", "sum") != "sum":
            raise Unsupported("jax.lax.psum_scatter sums; there is no max or mean scatter")

    def collective(self, name, shards, device="cpu", **params):
        self.collective_supported(name, params)
        return self._pool(len(shards), device).call(name, shards, params)

    def collective_grad(self, name, shards, cotangents, device="cpu", replicated=False, **params):
        if name not in JAX_COLLECTIVES:
            raise Unsupported(f"jax.lax has no {name} collective")
        return self._pool(len(shards), device).call(name, shards, params, cotangents=cotangents,
                                                    replicated=replicated)

    def time_collective(self, name, shards, rounds, device="cpu", placement="out-of-place", **params):
        self.collective_supported(name, params)
        if placement == "in-place" and name not in ("all_reduce", "all_to_all", "ppermute"):
            raise Unsupported(f"jax runs a call in-place only by donating its input (jax.jit's donate_argnums) to "
                              f"an output of the same shape: {name}'s differs")
        return workers.slowest(self._pool(len(shards), device).call(name, shards, params, rounds=rounds,
                                                                    placement=placement))

    def collective_rank(self, rank, processes, announce, device="cpu", **launch):
        return collective_rank(rank, processes, announce, device=device, **launch)

    def _pool(self, world, device):
        return workers.pool("adapters.jax.collectives", world, 1, {"device": device})

    def reset_peak_memory(self, device):
        pass  # XLA keeps one peak per device for the process; it cannot be reset

    def peak_memory(self, device):
        if device == "cpu":
            return None
        return self._device(device).memory_stats().get("peak_bytes_in_use")

    def grad(self, fn, args, wrt, cotangent):
        return jax_vjp(fn, args, wrt, cotangent)

