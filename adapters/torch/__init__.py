"""PyTorch: torch.* ops, torch.autograd for gradients, cpu and cuda devices; collectives with
torch.distributed, one process per rank (gloo on CPU, NCCL on GPU)."""
from adapters import workers
from adapters.backends import autograd_vjp, fresh_dynamo
from adapters.base import (
    DTYPES,
    FLOATS,
    INFO_DTYPES,
    WIDE_UNSIGNED,
    Adapter,
    Unsupported,
    dtypes_except,
    lacking,
    no_rounding_mode,
    own_code,
)
from adapters.behaviours import (
    TORCH_ALL_GATHER_CONCATENATES,
    TORCH_GRU_TIME_MAJOR,
    TORCH_LOG_SOFTMAX_IMPLICIT_DIM,
    TORCH_LSTM_TIME_MAJOR,
    TORCH_MASKED_FILL_SOFTMAX,
    TORCH_MESHGRID_IJ,
    TORCH_PAD_SEQUENCE_TIME_MAJOR,
    TORCH_SOFTMAX_IMPLICIT_DIM,
    TORCH_STD_BESSEL,
    TORCH_VAR_BESSEL,
)
from adapters.layer_behaviours import TORCH_MULTIHEAD_TIME_MAJOR, TORCH_MULTIHEAD_WEIGHTS_NAN, TORCH_NORMALIZE_DIM_ONE
from adapters.operators import PythonOperators
from adapters.torch.collectives import IN_PLACE, OUT_OF_PLACE, TORCH_COLLECTIVES, TORCH_GRADIENTS, collective_rank
from adapters.torch.creation import TorchCreation
from adapters.torch.elementwise import TORCH_ELEMENTWISE_DTYPES, TorchElementwise
from adapters.torch.export import TorchExport
from adapters.torch.fft import TorchFft
from adapters.torch.idioms import TorchIdioms
from adapters.torch.initializers import TORCH_INITIALIZER_DTYPES, TorchInitializers
from adapters.torch.layers import TorchLayers
from adapters.torch.linalg import TorchLinalg
from adapters.torch.manipulation import TorchManipulation
from adapters.torch.matrices import TorchMatrices
from adapters.torch.optimizers import TORCH_COMPILED_ADAGRAD, TorchOptimizers
from adapters.torch.statistics import TORCH_STATISTICS_DTYPES, TorchStatistics, _dims
from vocabulary.fft import FREQUENCY_OPS
from vocabulary.linalg import FACTORED_OPS
from vocabulary.optimizers import OPTIMIZERS_AND_CLIPPING
from vocabulary.params import MULTIHEAD_OPS

# torch's uint16, uint32 and uint64 are "shell dtypes" with limited eager support (the tensor attributes'
# docs): these ops have no CPU kernel in them ("add_stub" not implemented for 'UInt16', torch 2.13).
TORCH_NO_WIDE_UNSIGNED = (
    "matmul", "mm", "bmm", "einsum", "tensordot", "dot", "add", "sub", "maximum", "minimum", "pow", "greater", "clip",
    "neg", "relu", "abs", "square", "sign", "floor_divide", "remainder", "less", "less_equal", "greater_equal",
    "logical_and", "logical_or", "logical_xor", "logical_not", "bitwise_invert", "bitwise_left_shift",
    "bitwise_right_shift", "topk", "topk_indices", "max", "min", "diff", "searchsorted", "nonzero", "argmin", "argmax",
    "tril", "triu", "trace", "cross", "matrix_power", "arange", "linspace", "eye", "sequence_mask", "masked_fill",
    "gather", "scatter", "scatter_add", "scatter_reduce", "index_set", "index_add", "linear", "max_pool2d", "conv1d",
    "conv2d")

class TorchAdapter(TorchLayers, TorchOptimizers, TorchInitializers, TorchIdioms, TorchElementwise, TorchStatistics,
                   TorchManipulation, TorchMatrices, TorchLinalg, TorchCreation, TorchFft, TorchExport, PythonOperators,
                   Adapter):
    name = "torch"
    module = "torch"
    dtypes = lacking({"*": DTYPES, "scatter_nd": (), "correlate": (), "convolve": (), "l2_penalty": (),
              **dict.fromkeys(("matmul", "mm", "sub", "pow", "neg", "relu", "abs", "round", "argmin", "argmax",
                               "conv1d", "conv2d", "linear", "floor", "ceil", "trunc", "topk", "topk_indices", "bmm",
                               "einsum", "tensordot", "dot", "trace", "cross", "matrix_power", "arange", "linspace"),
                              dtypes_except("bool")),
              **dict.fromkeys(("mean", "vecdot", "softmax", "log_softmax", "masked_softmax", "lstm", "gru", "gelu",
                               "layer_norm", "cross_entropy", "dot_product_attention", "max_pool1d", "norm",
                               "vector_norm", "matrix_norm", "normalize", "batch_norm", "batch_norm_stats",
                               *MULTIHEAD_OPS, *FREQUENCY_OPS, *OPTIMIZERS_AND_CLIPPING),
                              FLOATS),
              "max_pool2d": dtypes_except("bool"), "searchsorted": dtypes_except("bool"),
              **dict.fromkeys(("avg_pool2d", "avg_pool1d"), FLOATS + ("int64",)),
              "one_hot": ("int64",),  # F.one_hot takes int64 indices only
              **dict.fromkeys(FACTORED_OPS, ("float32", "float64")),  # "lu_cpu", "cholesky_cpu": no 'Half'
              **TORCH_INITIALIZER_DTYPES, **TORCH_ELEMENTWISE_DTYPES, **TORCH_STATISTICS_DTYPES, **INFO_DTYPES},
                     WIDE_UNSIGNED, TORCH_NO_WIDE_UNSIGNED)
    behaviours = (TORCH_MASKED_FILL_SOFTMAX, TORCH_SOFTMAX_IMPLICIT_DIM, TORCH_LOG_SOFTMAX_IMPLICIT_DIM,
                  TORCH_PAD_SEQUENCE_TIME_MAJOR, TORCH_LSTM_TIME_MAJOR, TORCH_GRU_TIME_MAJOR,
                  TORCH_ALL_GATHER_CONCATENATES, TORCH_NORMALIZE_DIM_ONE, *TORCH_MULTIHEAD_TIME_MAJOR,
                  TORCH_MULTIHEAD_WEIGHTS_NAN, TORCH_COMPILED_ADAGRAD, TORCH_VAR_BESSEL, TORCH_STD_BESSEL,
                  TORCH_MESHGRID_IJ)

    def __init__(self):
        import torch

        self.torch = torch
        # float32 means float32: no TF32 in cuBLAS/cuDNN matmuls and convolutions.
        torch.backends.cuda.matmul.allow_tf32 = False
        torch.backends.cudnn.allow_tf32 = False
        torch.set_float32_matmul_precision("highest")

    def version(self):
        return self.torch.__version__

    def devices(self):
        cuda = self.torch.cuda
        return ["cpu"] + [f"cuda:{i}" for i in range(cuda.device_count())] if cuda.is_available() else ["cpu"]

    def device_scope(self, device):
        return self.torch.device(device)  # factories (masks, zeros) are made on this device

    def asarray(self, x, dtype, device):
        return self.torch.as_tensor(x, device=device).to(getattr(self.torch, dtype))

    def to_numpy(self, x):
        # a lazy conjugate or negation (torch.conj's view, its imag) resolved: numpy() refuses those bits
        x = x.detach().cpu().resolve_conj().resolve_neg()
        return (x.float() if x.dtype == self.torch.bfloat16 else x).numpy()  # NumPy has no bfloat16

    def dtype_of(self, x):
        return str(x.dtype).removeprefix("torch.")

    def sync(self, x):
        if x.is_cuda:
            self.torch.cuda.synchronize(x.device)

    def matmul(self, a, b):
        return self.torch.matmul(a, b)

    def mm(self, a, b):
        return self.torch.mm(a, b)

    def maximum(self, a, b):
        return self.torch.maximum(a, b)

    def minimum(self, a, b):
        return self.torch.minimum(a, b)

    def clip(self, x, lo, hi):
        return self.torch.clamp(x, lo, hi)

    def neg(self, x):
        return self.torch.neg(x)

    def exp(self, x):
        return self.torch.exp(x)

    def log(self, x):
        return self.torch.log(x)

    def tanh(self, x):
        return self.torch.tanh(x)

    def sigmoid(self, x):
        return self.torch.sigmoid(x)

    def relu(self, x):
        return self.torch.relu(x)

    def abs(self, x):
        return self.torch.abs(x)

    def sqrt(self, x):
        return self.torch.sqrt(x)

    def square(self, x):
        return self.torch.square(x)

    def round(self, x, half="even"):
        return self.torch.round(x) if half == "even" else no_rounding_mode("torch.round")

    def sign(self, x):
        return self.torch.sign(x)

    def sum(self, x, axis=None, keepdims=False):
        return self.torch.sum(x, dim=_dims(x, axis), keepdim=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        return self.torch.mean(x, dim=_dims(x, axis), keepdim=keepdims)

    def max(self, x, axis=None, keepdims=False):
        """As users write it: torch.max(x) over everything, torch.max(x, dim) over one axis (its
        values; its gradient goes to the one index it returns, where amax's shares a tie), and
        torch.amax where torch.max takes no such arguments (several axes; keepdim over all)."""
        if axis is None and not keepdims:
            return self.torch.max(x)
        if isinstance(axis, int):
            return self.torch.max(x, dim=axis, keepdim=keepdims).values
        return self.torch.amax(x, dim=_dims(x, axis), keepdim=keepdims)

    def reshape(self, x, shape):
        return self.torch.reshape(x, tuple(shape))

    def transpose(self, x, axes):
        return self.torch.permute(x, tuple(axes))

    def concat(self, xs, axis):
        return self.torch.cat(list(xs), dim=axis)

    def stack(self, xs, axis):
        return self.torch.stack(list(xs), dim=axis)

    # Defaults are torch's own (vocabulary/__init__.py: a parameter a spec leaves out): softmax
    # without dim picks one, pad_sequence and LSTM are time-major.
    def softmax(self, x, axis=None):
        return self.torch.nn.functional.softmax(x, dim=axis)

    def log_softmax(self, x, axis=None):
        return self.torch.nn.functional.log_softmax(x, dim=axis)

    def where(self, cond, x, y):
        return self.torch.where(cond, x, y)

    def sequence_mask(self, lengths, max_len):
        return self.torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None]

    def causal_mask(self, size):
        return self.torch.tril(self.torch.ones(size, size)).bool()

    def segment_mask(self, segment_ids):
        return (segment_ids[:, :, None] == segment_ids[:, None, :]) & (segment_ids != 0)[:, :, None]

    def masked_fill(self, x, mask, value):
        return x.masked_fill(mask, value)

    def masked_softmax(self, x, mask, axis=-1):
        # the PyTorch idiom: -inf at masked positions, then softmax (a fully masked row gives NaN)
        return x.masked_fill(~mask, float("-inf")).softmax(dim=axis)

    def pad(self, x, pad_width, mode="constant", value=0):
        # F.pad lists (before, after) from the last axis backwards
        flat = [int(v) for before_after in reversed(pad_width) for v in before_after]
        if mode == "constant":
            return self.torch.nn.functional.pad(x, flat, value=value)
        if mode not in ("reflect", "replicate"):
            raise Unsupported(f"torch.nn.functional.pad has no {mode!r} mode")
        # the widths of the axes from the first padded one to the last, as a user writes them; torch
        # then decides which ranks a non-constant mode takes (an unbatched or a batched input: one
        # or two axes before the padded ones, else NotImplementedError)
        padded = [d for d, w in enumerate(pad_width) if any(w)]
        first = min(padded, default=max(x.dim() - 1, 0))  # nothing padded: the last axis, by (0, 0)
        return self.torch.nn.functional.pad(x, flat[:2 * (x.dim() - first)], mode=mode)

    def pad_sequences(self, seqs, value=0, side="post", max_len=None, truncate="post", batch_first=False):
        if max_len is not None:
            raise Unsupported("torch.nn.utils.rnn.pad_sequence has no max_len or truncation")
        return self.torch.nn.utils.rnn.pad_sequence(list(seqs), batch_first=batch_first, padding_value=value,
                                                    padding_side="left" if side == "pre" else "right")

    def gather(self, x, axis, index):
        return self.torch.gather(x, axis, index)

    def scatter(self, x, axis, index, src):
        if isinstance(src, (int, float)):
            return x.scatter(axis, index, value=src)
        return x.scatter(axis, index, src)

    def scatter_add(self, x, axis, index, src):
        return x.scatter_add(axis, index, src)

    def one_hot(self, indices, num_classes, dtype="int64"):
        return self.torch.nn.functional.one_hot(indices, num_classes).to(getattr(self.torch, dtype))

    def stop_gradient(self, x):
        return x.detach()

    def lstm(self, x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=False, training=True):
        torch = self.torch
        input_size, hidden = params["weight_ih_l0"].shape[1], params["weight_hh_l0"].shape[1]
        # a weightless ("meta") torch.nn.LSTM run with the given weights; gradients reach them
        module = torch.nn.LSTM(input_size, hidden, num_layers, bidirectional=bidirectional, batch_first=batch_first,
                               device="meta", dtype=x.dtype).train(training)
        state = None if h0 is None else (h0, c0)  # None: torch's zero initial state
        out, (h, c) = torch.func.functional_call(module, params, (x, state))
        return out, h, c

    def gru(self, x, h0, params, num_layers=1, bidirectional=False, batch_first=False, reset_after=True,
            training=True):
        if not reset_after:
            raise Unsupported("torch.nn.GRU applies the reset gate after the recurrent matmul only (reset_after)")
        input_size, hidden = params["weight_ih_l0"].shape[1], params["weight_hh_l0"].shape[1]
        module = self.torch.nn.GRU(input_size, hidden, num_layers, bidirectional=bidirectional,
                                   batch_first=batch_first, device="meta", dtype=x.dtype).train(training)
        return self.torch.func.functional_call(module, params, (x, h0))  # h0 None: zeros

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        return self.torch.nn.functional.conv1d(x, w, b, stride, padding, dilation, groups)

    def conv2d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        return self.torch.nn.functional.conv2d(x, w, b, stride, padding, dilation, groups)

    def collective_supported(self, name, params):
        if name not in TORCH_COLLECTIVES:
            raise Unsupported(f"torch.distributed has no collective {name!r}")

    def collective(self, name, shards, device="cpu", **params):
        self.collective_supported(name, params)
        return self._pool(len(shards), device).call(name, shards, params)

    def collective_grad(self, name, shards, cotangents, device="cpu", replicated=False, **params):
        # replicated or not, each rank's reverse pass runs from its own copy's cotangent
        if name not in TORCH_GRADIENTS:
            raise Unsupported(f"torch.distributed.nn.functional has no differentiable {name}")
        return self._pool(len(shards), device).call(name, shards, params, cotangents=cotangents)

    def time_collective(self, name, shards, rounds, device="cpu", placement="out-of-place", **params):
        self.collective_supported(name, params)
        if name not in (IN_PLACE if placement == "in-place" else OUT_OF_PLACE):
            raise Unsupported(f"torch.distributed's {name} has no {placement} form")
        return workers.slowest(self._pool(len(shards), device).call(name, shards, params, rounds=rounds,
                                                                         placement=placement))

    def collective_rank(self, rank, processes, announce, device="cpu", **launch):
        return collective_rank(rank, processes, announce, device=device, **launch)

    def _pool(self, world, device):
        if device != "cpu" and world > self.torch.cuda.device_count():
            raise Unsupported(f"{world} ranks need {world} GPUs; {self.torch.cuda.device_count()} visible")
        return workers.pool("adapters.torch.collectives", world, world, {"device": device})

    def compile(self, fn):
        return self.torch.compile(own_code(fn))

    def fresh_compiler(self):
        fresh_dynamo()

    def mixed(self, fn):
        """fn under torch.autocast("cpu", dtype=torch.bfloat16), as torch's CPU mixed precision runs."""
        torch = self.torch

        def autocast(*args, **kwargs):
            with torch.autocast("cpu", dtype=torch.bfloat16):
                return fn(*args, **kwargs)
        return autocast

    def compile_grad(self, fn, wrt):
        # torch.compile traces the forward; autograd runs the backward graph it compiled with it
        # (tracing torch.autograd.grad itself is a graph break)
        compiled = self.torch.compile(own_code(fn))
        return lambda args, cotangent: self.grad(compiled, args, wrt, cotangent)

    def set_threads(self, threads):
        self.torch.set_num_threads(threads)

    def deterministic(self):
        self.torch.use_deterministic_algorithms(True)
        return "torch.use_deterministic_algorithms(True)"

    def framework_timer(self, fn, min_run_time=1.0):
        from torch.utils import benchmark

        timer = benchmark.Timer(stmt="fn()", globals={"fn": fn}, num_threads=self.torch.get_num_threads())
        return timer.blocked_autorange(min_run_time=min_run_time).median

    def reset_peak_memory(self, device):
        if device != "cpu":
            self.torch.cuda.reset_peak_memory_stats(device)

    def peak_memory(self, device):
        return None if device == "cpu" else self.torch.cuda.max_memory_allocated(device)

    def grad(self, fn, args, wrt, cotangent):
        return autograd_vjp(fn, args, wrt, cotangent)
