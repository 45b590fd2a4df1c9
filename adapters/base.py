"""The adapter interface every framework keeps (see the README's "Adding an adapter").

An adapter translates the vocabulary below into one framework's own idiomatic API. It may convert
layouts, dtypes, argument order and index formats; it never re-implements an op's math, because
the suite tests the framework, not the adapter. Every vocabulary method exists here and raises
`Unsupported`, so a framework that cannot express an op is recorded as "unsupported", never as a
pass. Subclasses import their framework lazily (in ``__init__``) so that a missing framework costs
nothing until it is asked for.
"""
import contextlib
import importlib.util

import numpy as np


class Unsupported(Exception):
    """The framework cannot express this op (or dtype, or device); the reason says which."""


DTYPES = ("float16", "bfloat16", "float32", "float64", "int32", "int64", "bool")
FLOATS = ("float16", "bfloat16", "float32", "float64")


def dtypes_except(*names) -> tuple:
    """Every dtype but these, in DTYPES order: the usual shape of a dtype declaration."""
    return tuple(d for d in DTYPES if d not in names)

# Tensor ops that specs and expressions may call, in the order of ../ARCHITECTURE.md.
OPS = (
    "matmul", "mm", "add", "sub", "mul", "div", "maximum", "minimum", "pow",
    "neg", "exp", "log", "tanh", "sigmoid", "relu", "abs", "sqrt", "square", "round", "sign",
    "sum", "mean", "max", "reshape", "transpose", "concat", "stack", "softmax", "log_softmax",
    "where", "sequence_mask", "causal_mask", "segment_mask", "masked_fill", "masked_softmax",
    "pad", "pad_sequences", "gather", "scatter", "scatter_add", "one_hot", "argmin", "stop_gradient",
    "lstm", "conv1d", "conv2d",
)


class Adapter:
    """Base class: defaults for every method; a subclass overrides what its framework has."""

    name: str = ""
    module: str = ""  # the framework's import name, for available()
    # The dtypes each implemented op supports: op -> tuple of dtype names, "*" for every op not
    # named. `python -m suites coverage` prints it; its --check (tests/test_coverage.py) runs a
    # sample per op and dtype and fails on a dtype that works undeclared or is declared and fails.
    dtypes: dict = {}

    @classmethod
    def available(cls) -> bool:
        """True when the framework can be imported (checked without importing it)."""
        return not cls.module or importlib.util.find_spec(cls.module) is not None

    def unsupported(self, what: str):
        raise Unsupported(f"{self.name} does not implement {what}")

    # -- arrays and devices -------------------------------------------------------------------
    def version(self) -> str:
        return "unknown"

    def devices(self) -> list[str]:
        return ["cpu"]

    def device_scope(self, device: str):
        """Context in which ops run on `device` (TensorFlow places ops by context, not by input)."""
        return contextlib.nullcontext()

    def asarray(self, x, dtype: str, device: str):
        self.unsupported("asarray")

    def to_numpy(self, x):
        """A NumPy array of x's values; bfloat16 comes back as float32 (exact)."""
        self.unsupported("to_numpy")

    def dtype_of(self, x) -> str:
        """x's dtype as a NumPy dtype name (bfloat16 included)."""
        self.unsupported("dtype_of")

    def sync(self, x) -> None:
        """Block until x is computed (benchmarks time the work, not its dispatch)."""

    def stage(self, fn):
        """fn as the framework's users run a whole function in conformance checks: as it is for
        eager frameworks; JAX returns jax.jit(fn), one compilation per case instead of one per
        primitive and shape (eager JAX compiles each primitive anew for every shape it meets)."""
        return fn

    def compile(self, fn):
        """fn compiled by the framework's compiler (torch.compile, jax.jit, tf.function with XLA),
        for the benchmarks' compiled mode; calls take and return the adapter's tensors."""
        self.unsupported("compile")

    def compile_grad(self, fn, wrt: list):
        """A compiled reverse pass, (args, cotangent) -> (value, gradients), as the framework's
        users compile a training step: here the whole step (jax.jit, tf.function); torch compiles
        the forward and lets autograd run the backward that torch.compile made for it."""
        return self.compile(lambda args, cotangent: self.grad(fn, args, wrt, cotangent))

    def set_threads(self, threads: int) -> None:
        """Use `threads` threads for intra-op work where the framework has a call for it (the
        benchmark harness also pins the process to that many CPUs before any framework loads)."""

    def framework_timer(self, fn, min_run_time: float = 1.0) -> float:
        """Median seconds per call of fn by the framework's own benchmark timer (the harness
        self-check compares ours with it)."""
        self.unsupported("a benchmark timer")

    def reset_peak_memory(self, device: str) -> None:
        """Start a new peak-memory window on a GPU device (CPU peaks are the process's RSS)."""

    def peak_memory(self, device: str) -> int | None:
        """Bytes the framework allocated at most on a GPU device since reset_peak_memory; None
        where it cannot tell (and on CPU)."""
        return None

    # -- linear algebra -----------------------------------------------------------------------
    def matmul(self, a, b):
        """NumPy matmul semantics: 1-D operands promoted and the added axis removed, batch broadcast."""
        self.unsupported("matmul")

    def mm(self, a, b):
        """Strict matrix product: (n, m) x (m, p) -> (n, p); no broadcasting, no 1-D operands."""
        self.unsupported("mm")

    # -- elementwise, broadcasting ------------------------------------------------------------
    def add(self, a, b):
        self.unsupported("add")

    def sub(self, a, b):
        self.unsupported("sub")

    def mul(self, a, b):
        self.unsupported("mul")

    def div(self, a, b):
        self.unsupported("div")

    def maximum(self, a, b):
        self.unsupported("maximum")

    def minimum(self, a, b):
        self.unsupported("minimum")

    def pow(self, a, b):
        self.unsupported("pow")

    def neg(self, x):
        self.unsupported("neg")

    def exp(self, x):
        self.unsupported("exp")

    def log(self, x):
        self.unsupported("log")

    def tanh(self, x):
        self.unsupported("tanh")

    def sigmoid(self, x):
        self.unsupported("sigmoid")

    def relu(self, x):
        self.unsupported("relu")

    def abs(self, x):
        self.unsupported("abs")

    def sqrt(self, x):
        self.unsupported("sqrt")

    def square(self, x):
        self.unsupported("square")

    def round(self, x):
        """Round half to even, as NumPy."""
        self.unsupported("round")

    def sign(self, x):
        self.unsupported("sign")

    # -- reductions and shapes ----------------------------------------------------------------
    def sum(self, x, axis=None, keepdims=False):
        self.unsupported("sum")

    def mean(self, x, axis=None, keepdims=False):
        self.unsupported("mean")

    def max(self, x, axis=None, keepdims=False):
        self.unsupported("max")

    def reshape(self, x, shape):
        self.unsupported("reshape")

    def transpose(self, x, axes):
        self.unsupported("transpose")

    def concat(self, xs, axis):
        self.unsupported("concat")

    def stack(self, xs, axis):
        self.unsupported("stack")

    def softmax(self, x, axis=-1):
        self.unsupported("softmax")

    def log_softmax(self, x, axis=-1):
        self.unsupported("log_softmax")

    def where(self, cond, x, y):
        self.unsupported("where")

    # -- masking and padding ------------------------------------------------------------------
    def sequence_mask(self, lengths, max_len):
        """bool [B, max_len], True at valid steps."""
        self.unsupported("sequence_mask")

    def causal_mask(self, size):
        """bool [size, size], lower triangle (diagonal included) True."""
        self.unsupported("causal_mask")

    def segment_mask(self, segment_ids):
        """bool [B, T, T], True where both positions share a nonzero segment id."""
        self.unsupported("segment_mask")

    def masked_fill(self, x, mask, value):
        self.unsupported("masked_fill")

    def masked_softmax(self, x, mask, axis=-1):
        self.unsupported("masked_softmax")

    def pad(self, x, pad_width, mode="constant", value=0):
        self.unsupported("pad")

    def pad_sequences(self, seqs, value=0, side="post", max_len=None, truncate="post"):
        self.unsupported("pad_sequences")

    # -- indexing -----------------------------------------------------------------------------
    def gather(self, x, axis, index):
        """torch.gather: out[i][j] = x[i][index[i][j]] (axis 1); index has x's rank and covers the
        first index.shape[d] entries of every other axis d."""
        self.unsupported("gather")

    def scatter(self, x, axis, index, src):
        """torch.Tensor.scatter, out of place: out[i][index[i][j]] = src[i][j] (axis 1); src may be a number."""
        self.unsupported("scatter")

    def scatter_add(self, x, axis, index, src):
        self.unsupported("scatter_add")

    def one_hot(self, indices, num_classes, dtype="int64"):
        """[..., num_classes] with a 1 at each index, in `dtype` (the suite passes the dtype under test)."""
        self.unsupported("one_hot")

    def argmin(self, x, axis):
        """int64 index of the smallest value along axis (the first one on ties)."""
        self.unsupported("argmin")

    # -- autodiff -----------------------------------------------------------------------------
    def stop_gradient(self, x):
        self.unsupported("stop_gradient")

    def grad(self, fn, args: dict, wrt: list, cotangent):
        """Reverse mode: (fn(**args), {name: cotangent-weighted gradient for each name in wrt})."""
        self.unsupported("grad")

    # -- layers -------------------------------------------------------------------------------
    def lstm(self, x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=True):
        self.unsupported("lstm")

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        self.unsupported("conv1d")

    def conv2d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        self.unsupported("conv2d")

    # -- collectives --------------------------------------------------------------------------
    def collective(self, name, shards, device="cpu", **params):
        """Run collective `name` on len(shards) real workers or devices of kind `device`, shard r
        on rank r; returns the NumPy outputs in rank order."""
        self.unsupported(f"collective {name}")

    def collective_grad(self, name, shards, cotangents, device="cpu", **params):
        """The reverse pass of collective `name` through the framework's own autodiff: rank r's
        output cotangent is cotangents[r]; returns each rank's input gradient, in rank order."""
        self.unsupported(f"the gradient of collective {name}")

    def time_collective(self, name, shards, rounds: int, device="cpu", **params) -> list:
        """Seconds per call of collective `name`, measured `rounds` times inside the workers
        after a warm-up, the device synced in the timed region; per round the slowest rank's."""
        self.unsupported(f"timing collective {name}")


def index_grids(index_shape, axis) -> list:
    """For scatter/gather written as an N-d index (jax .at[], tf.tensor_scatter_nd_*): the
    position of every index element along each axis other than `axis` (None at `axis`), as
    NumPy arrays broadcastable to index_shape."""
    axis = axis % len(index_shape)
    grids = np.indices(index_shape, sparse=True)
    return [None if d == axis else grids[d] for d in range(len(index_shape))]


def leading_block(index_shape) -> tuple:
    """The slice of src (or of x) that an index of this shape covers: its leading block."""
    return tuple(slice(0, n) for n in index_shape)


def conv_padding(padding, spatial: int):
    """A conv padding argument as XLA and TensorFlow take it: "SAME" / "VALID", or
    [(before, after)] per spatial axis for an int or a tuple (PyTorch's symmetric padding)."""
    if isinstance(padding, str):
        return padding.upper()
    pads = (padding,) * spatial if isinstance(padding, int) else tuple(padding)
    return [(int(p), int(p)) for p in pads]


def as_tuple(value, spatial: int) -> tuple:
    """stride / dilation: an int for every spatial axis, or one per axis."""
    return (int(value),) * spatial if isinstance(value, int) else tuple(int(v) for v in value)


def lift_1d(value, fill: int):
    """A conv1d parameter as conv2d's over a height of 1: (fill, value); "same" / "valid" stay."""
    return value if isinstance(value, str) else (fill, as_tuple(value, 1)[0])


def lstm_suffix(layer: int, direction: int) -> str:
    """PyTorch's LSTM parameter suffix: weight_ih_l0, weight_ih_l0_reverse, ..."""
    return f"_l{layer}" + ("_reverse" if direction else "")


def stacked_lstm(seq, num_layers: int, bidirectional: bool, direction, concat):
    """torch.nn.LSTM's stacking, which every LSTM adapter shares: layer l + 1 reads layer l's
    outputs with both directions side by side (`concat`), and h_n, c_n list the final states in
    the order layer * D + direction. `direction(seq, layer, d, k)` runs one direction of one
    layer (k its index into h0, c0) and returns (out, h, c), out in forward time order.
    Returns the last layer's outputs and the lists h_n, c_n."""
    directions = 2 if bidirectional else 1
    h_n, c_n = [], []
    for layer in range(num_layers):
        outputs = []
        for d in range(directions):
            out, h, c = direction(seq, layer, d, layer * directions + d)
            outputs.append(out)
            h_n.append(h)
            c_n.append(c)
        seq = outputs[0] if directions == 1 else concat(outputs)
    return seq, h_n, c_n


def lstm_param_shapes(input_size: int, hidden: int, num_layers: int = 1, bidirectional: bool = False) -> dict:
    """torch.nn.LSTM's parameters, name -> shape, in its order: layer l reads layer l - 1's
    outputs, both directions side by side (D * hidden features)."""
    directions = 2 if bidirectional else 1
    shapes = {}
    for layer in range(num_layers):
        size = input_size if layer == 0 else hidden * directions
        for d in range(directions):
            suffix = lstm_suffix(layer, d)
            shapes.update({f"weight_ih{suffix}": (4 * hidden, size), f"weight_hh{suffix}": (4 * hidden, hidden),
                           f"bias_ih{suffix}": (4 * hidden,), f"bias_hh{suffix}": (4 * hidden,)})
    return shapes
