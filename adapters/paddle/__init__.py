"""PaddlePaddle: paddle.* ops as Paddle's users call them (dygraph, its default), paddle.grad for
gradients, paddle.jit.to_static for the compiled mode (how Paddle's users deploy a function), on
CPU.

PaddlePaddle 3.3.1 dies (SIGSEGV) when it is imported after TensorFlow in one process
(adapters/paddle/repro/import_after_tensorflow.py); imported first, both run. A run that selects
paddle imports it before any other framework (conftest.py, `import_first`); where TensorFlow is
already loaded the adapter refuses with that reason rather than take the process down."""
import sys
import warnings

from adapters import AdapterError, workers
from adapters.base import (
    ALL_DTYPES,
    DTYPES,
    FLOATS,
    WIDE_UNSIGNED,
    Adapter,
    Unsupported,
    dtypes_except,
    no_rounding_mode,
    own_code,
)
from adapters.behaviours import (
    PADDLE_ALL_GATHER_CONCATENATES,
    PADDLE_MASKED_FILL_SOFTMAX,
    PADDLE_MESHGRID_IJ,
    PADDLE_STD_UNBIASED,
    PADDLE_VAR_UNBIASED,
)
from adapters.layer_behaviours import PADDLE_ATTENTION_NAN, PADDLE_MULTIHEAD_MEAN_OF_V, PADDLE_NORMALIZE_AXIS_ONE
from adapters.mixed import PADDLE_MIXED
from adapters.operators import PythonOperators
from adapters.paddle.collectives import IN_PLACE, PADDLE_COLLECTIVES, collective_rank
from adapters.paddle.creation import PaddleCreation
from adapters.paddle.elementwise import PADDLE_ELEMENTWISE_DTYPES, PaddleElementwise
from adapters.paddle.fft import PaddleFft
from adapters.paddle.idioms import PaddleIdioms
from adapters.paddle.initializers import (
    PADDLE_INITIALIZER_DTYPES,
    PADDLE_INITIALIZERS,
    PADDLE_LAYER_DEFAULTS,
    PaddleInitializers,
)
from adapters.paddle.layers import PaddleLayers
from adapters.paddle.linalg import PADDLE_LINALG_DTYPES, PaddleLinalg
from adapters.paddle.manipulation import PADDLE_MANIPULATION_DTYPES, PaddleManipulation
from adapters.paddle.matrices import PADDLE_MATRIX_DTYPES, PaddleMatrices
from adapters.paddle.optimizers import PADDLE_CLIP_GRAD_NORM, PADDLE_OPTIMIZERS, PaddleOptimizers
from adapters.paddle.statistics import PADDLE_STATISTICS_DTYPES, PaddleStatistics
from vocabulary import SET_OPS
from vocabulary.fft import FREQUENCY_OPS

FLOATS_INTS = ("float32", "float64", "int32", "int64")


def uint16_as_bfloat16(declared: dict) -> dict:
    """The declarations as Paddle's dtypes make them: paddle.to_tensor refuses uint32 and uint64, and paddle.uint16
    is paddle.bfloat16 (a NumPy uint16 array's bits become bfloat16 numbers: [1, 16256] is [9.2e-41, 1.0]), so
    an op runs in "uint16" exactly where it runs in bfloat16, and gives bfloat16 (specs/integers.yaml)."""
    def runs(dtype, dtypes):
        return dtype in dtypes and dtype not in WIDE_UNSIGNED or dtype == "uint16" and "bfloat16" in dtypes

    return {op: tuple(d for d in ALL_DTYPES if runs(d, dtypes)) for op, dtypes in declared.items()}


P2P_TIMEOUT = 10  # seconds a ppermute may take before it counts as hung: gloo itself waits 30
AFTER_TENSORFLOW = ("PaddlePaddle 3.3.1 segfaults when imported after TensorFlow in one process "
                    "(adapters/paddle/repro/import_after_tensorflow.py): run paddle in a process of its own "
                    "(tox -e paddle) or select it with --adapter, which imports it first")

# Paddle's own noise, silenced where this adapter registers (which every process that may import
# paddle does first): importing paddle warns that ccache, which only builds C++ extensions, is
# missing; and inside to_static Paddle's own functions ask a static tensor for its `place` (the
# adapter never does), which warns on every compiled call (120 lines in a CI slice).
warnings.filterwarnings("ignore", message="No ccache found", category=UserWarning)
warnings.filterwarnings("ignore", message="Tensor do not have 'place' interface", category=UserWarning)


class PaddleAdapter(PaddleLayers, PaddleOptimizers, PaddleInitializers, PaddleIdioms, PaddleElementwise,
                    PaddleStatistics, PaddleManipulation, PaddleMatrices, PaddleLinalg, PaddleCreation, PaddleFft,
                    PythonOperators, Adapter):
    name = "paddle"
    module = "paddle"
    import_first = True
    compiled_declared_only = ("inside paddle.jit.to_static a kernel Paddle lacks may kill the process (bfloat16 matmul "
                              "and linear: SIGSEGV, adapters/paddle/repro/to_static_matmul_bfloat16.py) where eager "
                              "raises")
    behaviours = (PADDLE_MASKED_FILL_SOFTMAX, PADDLE_ALL_GATHER_CONCATENATES, PADDLE_NORMALIZE_AXIS_ONE,
                  PADDLE_ATTENTION_NAN, *PADDLE_MULTIHEAD_MEAN_OF_V, *PADDLE_OPTIMIZERS, PADDLE_CLIP_GRAD_NORM,
                  *PADDLE_INITIALIZERS, *PADDLE_LAYER_DEFAULTS, *PADDLE_MIXED, PADDLE_VAR_UNBIASED, PADDLE_STD_UNBIASED,
                  PADDLE_MESHGRID_IJ)
    # What Paddle's CPU kernels take (python -m suites coverage --adapter paddle --check): float32 and
    # float64 nearly everywhere, few float16 and bfloat16 kernels on CPU.
    dtypes = {**uint16_as_bfloat16({"*": ("float32", "float64"), "correlate": (), "convolve": (), "l2_penalty": (),
              "one_hot": ("int32", "int64"), **PADDLE_ELEMENTWISE_DTYPES, **PADDLE_STATISTICS_DTYPES,
              **PADDLE_MANIPULATION_DTYPES,
              "sgd": ("bfloat16", "float32", "float64"),
              **dict.fromkeys(("matmul", "mm", "tensordot", "dot", "clip", "abs", "square", "round", "trunc",
                               "unique", *SET_OPS, "max", "sequence_mask", "linear",
                               "dot_product_attention"), FLOATS_INTS),
              **dict.fromkeys(("add", "div"), dtypes_except("float16", "bfloat16")),
              **dict.fromkeys(("maximum", "minimum", "pow"), ("bfloat16", *FLOATS_INTS)),
              **dict.fromkeys(("sub", "pad", "pad_sequences"), ("bfloat16", *FLOATS_INTS, "int16")),
              "mul": ("bfloat16", *FLOATS_INTS, "bool"), "nonzero": ("bfloat16", *FLOATS_INTS, "int16", "bool"),
              **dict.fromkeys(("greater", "neg", "cast", "sum", "reshape", "transpose", "concat", "stack",
                               "segment_mask", "masked_fill", "index", "index_set", "index_add", "stop_gradient",
                               "full", "full_like", "ones", "zeros", "empty", "ones_like", "zeros_like",
                               "empty_like", "from_python", "from_dlpack"),
                              DTYPES),
              **dict.fromkeys(("exp", "topk", "topk_indices", "eye"), ("float16", *FLOATS_INTS)),
              **dict.fromkeys(("arange", "linspace", "meshgrid", *FREQUENCY_OPS), FLOATS_INTS),
              **dict.fromkeys(("fftshift", "ifftshift"), (*FLOATS_INTS, "bool")),
              "log": ("float16", "bfloat16", *FLOATS_INTS),
              **dict.fromkeys(("tanh", "sigmoid", "sqrt", "sign", "cumsum"),
                              dtypes_except("float16", "bfloat16", "bool")),
              **dict.fromkeys(("floor", "ceil"), dtypes_except("bool")),
              **dict.fromkeys(("sort", "argsort"), dtypes_except("int8", "bool")),
              **dict.fromkeys(("mean", "where"), (*FLOATS_INTS, "bool")),
              **dict.fromkeys(("argmin", "gather", "scatter", "scatter_add", "scatter_reduce"),
                              ("float32", "float64", "uint8", "int16", "int32", "int64")),
              "scatter_nd": ("float32", "float64", "uint8", "int32", "int64"),
              "embedding": ("float16", "bfloat16", "float32", "float64", "int8"),
              **dict.fromkeys(("max_pool2d", "avg_pool2d", "max_pool1d", "avg_pool1d"),
                              ("float16", "float32", "float64")),
              **PADDLE_INITIALIZER_DTYPES, **PADDLE_MATRIX_DTYPES, **PADDLE_LINALG_DTYPES}),
              # paddle.iinfo takes paddle.uint16 as the integer its name says (65535), though its tensors are
              # bfloat16's; paddle.finfo refuses it
              "finfo": FLOATS, "iinfo": ("int8", "uint8", "int16", "uint16", "int32", "int64")}

    def __init__(self):
        if "paddle" not in sys.modules and "tensorflow" in sys.modules:
            raise AdapterError(AFTER_TENSORFLOW)
        import paddle

        self.paddle = paddle
        self.F = paddle.nn.functional
        paddle.set_device("cpu")
        # Paddle's C++ handlers of fatal signals print a stack with malloc: after a heap corruption
        # they deadlock instead of letting the process die (Parity's faulthandler records the stack)
        paddle.disable_signal_handler()

    def version(self):
        return self.paddle.__version__

    def asarray(self, x, dtype, device):
        paddle = self.paddle
        if dtype == "bfloat16":  # NumPy has no bfloat16: through float32, rounded by Paddle's cast
            return paddle.to_tensor(x, dtype="float32").astype("bfloat16")
        return paddle.to_tensor(x, dtype=dtype)

    def to_numpy(self, x):
        if x.dtype == self.paddle.bfloat16:
            x = x.astype("float32")
        return x.numpy()

    def dtype_of(self, x):
        return str(x.dtype).removeprefix("paddle.")

    def matmul(self, a, b):
        return self.paddle.matmul(a, b)

    def mm(self, a, b):
        return self.paddle.mm(a, b)

    def maximum(self, a, b):
        return self.paddle.maximum(a, b)

    def minimum(self, a, b):
        return self.paddle.minimum(a, b)

    def clip(self, x, lo, hi):
        return self.paddle.clip(x, lo, hi)

    def neg(self, x):
        return self.paddle.neg(x)

    def exp(self, x):
        return self.paddle.exp(x)

    def log(self, x):
        return self.paddle.log(x)

    def tanh(self, x):
        return self.paddle.tanh(x)

    def sigmoid(self, x):
        return self.F.sigmoid(x)

    def relu(self, x):
        return self.F.relu(x)

    def abs(self, x):
        return self.paddle.abs(x)

    def sqrt(self, x):
        return self.paddle.sqrt(x)

    def square(self, x):
        return self.paddle.square(x)

    def round(self, x, half="even"):
        return self.paddle.round(x) if half == "even" else no_rounding_mode("paddle.round")

    def sign(self, x):
        return self.paddle.sign(x)

    def sum(self, x, axis=None, keepdims=False):
        return self.paddle.sum(x, axis=axis, keepdim=keepdims)

    def mean(self, x, axis=None, keepdims=False):
        return self.paddle.mean(x, axis=axis, keepdim=keepdims)

    def max(self, x, axis=None, keepdims=False):
        return self.paddle.max(x, axis=axis, keepdim=keepdims)

    def reshape(self, x, shape):
        return self.paddle.reshape(x, list(shape))

    def transpose(self, x, axes):
        return self.paddle.transpose(x, list(axes))

    def concat(self, xs, axis):
        return self.paddle.concat(list(xs), axis=axis)

    def stack(self, xs, axis):
        return self.paddle.stack(list(xs), axis=axis)

    # Defaults are Paddle's own (a parameter a spec leaves out): softmax's axis is -1.
    def softmax(self, x, axis=None):
        return self.F.softmax(x) if axis is None else self.F.softmax(x, axis=axis)

    def log_softmax(self, x, axis=None):
        return self.F.log_softmax(x) if axis is None else self.F.log_softmax(x, axis=axis)

    def where(self, cond, x, y):
        return self.paddle.where(cond, x, y)

    def sequence_mask(self, lengths, max_len):
        return self.F.sequence_mask(lengths, max_len).astype("bool")

    def causal_mask(self, size):
        return self.paddle.tril(self.paddle.ones([size, size])).astype("bool")

    def segment_mask(self, segment_ids):
        return (segment_ids[:, :, None] == segment_ids[:, None, :]) & (segment_ids != 0)[:, :, None]

    def masked_fill(self, x, mask, value):
        return self.paddle.masked_fill(x, mask, value)

    def masked_softmax(self, x, mask, axis=-1):
        # the idiom Paddle's attention code writes: -inf at masked positions, then softmax
        return self.F.softmax(self.paddle.masked_fill(x, ~mask, float("-inf")), axis=axis)

    def stop_gradient(self, x):
        return x.detach()

    def compile(self, fn):
        fn = own_code(fn)

        def program(env):  # Parity's programs take one dict of tensors
            return fn(env)

        return self._to_static(program)

    def mixed(self, fn):
        """fn under paddle.amp.auto_cast(dtype="bfloat16"), Paddle's mixed precision (on CPU it
        warns that it makes no effect: PADDLE_MIXED)."""
        paddle = self.paddle

        def auto_cast(*args, **kwargs):
            with paddle.amp.auto_cast(dtype="bfloat16"):
                return fn(*args, **kwargs)
        return auto_cast

    def compile_grad(self, fn, wrt):
        # to_static traces the forward; paddle.grad runs the backward program it built with it
        fn = own_code(fn)

        def program(env):
            return fn(**env)

        compiled = self._to_static(program)
        return lambda args, cotangent: self.grad(lambda **env: compiled(env), args, wrt, cotangent)

    def _to_static(self, program):
        """A named function as Paddle's users deploy one: paddle.jit.to_static with full_graph=True
        (the AST translation to a static program). Paddle's default, SOT (bytecode simulation),
        raises InnerError on a dataclass instance's method (repro/to_static_dataclass_method.py),
        which Parity's programs call; full_graph=True of a lambda raises IndexError
        (repro/to_static_lambda.py)."""
        return self.paddle.jit.to_static(program, full_graph=True)

    def collective_supported(self, name, params):
        if name not in PADDLE_COLLECTIVES:
            raise Unsupported(f"paddle.distributed has no collective {name!r}")

    def collective(self, name, shards, device="cpu", **params):
        self.collective_supported(name, params)
        return self._collective_call(name, shards, params)

    def collective_grad(self, name, shards, cotangents, device="cpu", replicated=False, **params):
        self.collective_supported(name, params)
        return self._collective_call(name, shards, params, cotangents=cotangents)

    def time_collective(self, name, shards, rounds, device="cpu", placement="out-of-place", **params):
        self.collective_supported(name, params)
        if (name in IN_PLACE) != (placement == "in-place"):
            raise Unsupported(f"paddle.distributed's {name} has no {placement} form")
        return workers.slowest(self._collective_call(name, shards, params, rounds=rounds))

    def collective_rank(self, rank, processes, announce, device="cpu", **launch):
        return collective_rank(rank, processes, announce, device=device, **launch)

    def _collective_call(self, name, shards, params, **call):
        """The call on one rank per process; a collective the process group refuses in Paddle's
        own words (gloo's "does not support ... (Unimplemented)": the worker raises Unsupported)
        is unsupported with them. gloo tags a point-to-point send by its rank's count of past ones
        and closes its pairs after a timeout (every later call fails "Application timeout caused
        pair closure"), so the ranks are started afresh after each ppermute (collectives advance
        every rank's count alike) and after a timeout; a ppermute that has not answered in
        P2P_TIMEOUT s is hung (a healthy one takes ms)."""
        pool = workers.pool("adapters.paddle.collectives", len(shards), len(shards), {"device": "cpu"})
        if name == "ppermute":
            call["timeout"] = P2P_TIMEOUT
        try:
            return pool.call(name, shards, params, **call)
        except workers.WorkerError as error:
            if f"raised {Unsupported.__name__}" in str(error):
                raise Unsupported(str(error)) from error
            if "timeout" in str(error).lower():
                pool.close()
            raise
        finally:
            if name == "ppermute":
                pool.close()

    def grad(self, fn, args, wrt, cotangent):
        """(fn(**args), gradients) by paddle.grad with grad_outputs; an input the output does not
        depend on gets None (allow_unused): "no gradient", as Paddle says it."""
        paddle = self.paddle
        leaves = {n: args[n].detach() for n in wrt}
        for leaf in leaves.values():
            leaf.stop_gradient = False
        value = fn(**{**args, **leaves})
        grads = paddle.grad([value], list(leaves.values()), grad_outputs=[cotangent.astype(value.dtype)],
                            allow_unused=True)
        return value.detach(), dict(zip(wrt, grads))
