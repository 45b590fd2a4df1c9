"""Documented behaviours of an op on one adapter, wherever a spec calls it, modelled in NumPy.

A spec's `differences` document that spec's cases. Some differences belong to an op, whatever
expression calls it: keras.ops.add on TensorFlow becomes tf.nn.bias_add for operands that look
like a bias, in every spec that adds, on whatever inputs hypothesis draws. A Behaviour records
that once: the op, a NumPy model of what the framework computes (read from its source), a note
and the source. An adapter lists its behaviours in its class's `behaviours`. The layer ops' behaviours are in
adapters/layer_behaviours.py.

The judge (suites/judging/differences.py, `modelled`) uses the model, never trusts it: a case that fails
against the reference is judged again against the reference with the op replaced by the model;
it is "documented" only when it passes there, so a framework that differs in any other way still
fails. A fixed framework passes and the behaviour no longer shows; the spec example that pins it
(an `observed` value, or for a default `observed: {defaults: ...}`) then fails as "no longer
observed".
"""
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from adapters.reference import ReferenceAdapter

REFERENCE = ReferenceAdapter()

@dataclass(frozen=True)
class Behaviour:
    op: str  # the vocabulary op whose result the model replaces
    model: Callable  # NumPy arrays in (the op's args), the framework's result out
    note: str
    source: str
    regime: str = "semantics"  # the kind of difference (specs/schema.json, a difference's regime)
    result_dtype: str | None = None  # the dtype the framework's result has instead of the one under test
    # a framework's defaults: (args, kwargs) -> the kwargs it computes with (framework_default)
    fill: Callable | None = None
    mode: str | None = None  # the mode it shows in (a compiler's: "compiled"), None for every mode
    # the dtype a mixed-precision policy computes the op in, where it differs from torch.autocast's
    # (adapters/mixed.py): "bfloat16"; "bfloat16-steps" (several bfloat16 operations, each
    # rounded); "float32-rounded" (float32 from the unrounded inputs, the result rounded); or
    # "float32" (the op follows its float32 inputs)
    autocast: str | None = None

    def applies(self, ctx) -> bool:
        """Whether it may explain this context's program: its op is there, in its mode."""
        return self.op in ctx.program.ops() and self.mode in (None, ctx.mode)


def framework_default(op, defaults: dict, note, source, result_dtype=None, regime="default") -> Behaviour:
    """A framework's own defaults for parameters a spec leaves out (regime "default"): the
    reference's op with `defaults` filled in where the call gives none (a default may be a
    function of the op's first argument), its result in `result_dtype` if given. None stands for
    the parameter left out (the vocabulary's signatures default to None: `stride=None` written
    out is flax's strides=None, stride 1). A call that passes a value gets the reference's own
    result, so only an omission is explained."""
    # a collective's model takes the list of shards, as the reference's collective does
    reference = getattr(REFERENCE, op, None) or (lambda shards, **kw: REFERENCE.collective(op, shards, **kw))

    def fill(args, kwargs):
        return {**kwargs, **{k: v(args[0]) if callable(v) else v for k, v in defaults.items() if kwargs.get(k) is None}}

    def model(*args, **kwargs):
        result = reference(*args, **fill(args, kwargs))
        return result if result_dtype is None else np.asarray(result).astype(result_dtype)
    return Behaviour(op, model, note, source, regime, result_dtype, fill)


def bias_add(x1, x2):
    """keras.ops.add(x1, x2) on TensorFlow: where x2 squeezes to a vector as long as x1's axis 1
    or last axis (x1 of rank 2 or more), tf.nn.bias_add adds that vector along x1's last axis
    (NHWC) when it matches, else along axis 1 (NCHW), whatever x2's own layout or rank; the
    result has x1's shape. NumPy's broadcasting otherwise."""
    x1, x2 = np.asarray(x1), np.asarray(x2)
    squeezed = [d for d in x2.shape if d > 1]
    if len(squeezed) == 1 and x1.ndim > 1 and squeezed[0] in (x1.shape[1], x1.shape[-1]):
        bias = x2.reshape(-1)
        if x1.shape[-1] != squeezed[0]:
            bias = bias.reshape((-1,) + (1,) * (x1.ndim - 2))
        return x1 + bias
    return x1 + x2


KERAS_TENSORFLOW_BIAS_ADD = Behaviour(
    "add", bias_add,
    "keras.ops.add on the TensorFlow backend is tf.nn.bias_add whenever the second operand squeezes to "
    "a vector as long as the first's axis 1 or last axis: that vector is added along that axis whatever "
    "its own layout, and the result keeps the first operand's shape (a column added along the rows; "
    "a higher-rank second operand's axes lost)",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/tensorflow/numpy.py#L108")


def _keras_correlate(same_from_a: bool, squeeze: bool):
    """keras.ops.correlate on torch or TensorFlow: the full correlation (numpy's 'full', which
    needs no swap), then a slice of it. 'same': the middle max(M, N) outputs, or len(a) of them
    on torch (same_from_a), from (full length - that length) // 2; 'valid': the middle
    max - min + 1 on torch, TensorFlow's VALID conv1d of a by v (empty where v is the longer).
    torch squeezes the result (one output comes back 0-D)."""
    def model(a, v, mode="valid"):
        a, v = np.asarray(a), np.asarray(v)
        n, m = a.size, v.size
        full = REFERENCE.correlate(a, v, "full")
        if mode == "same":
            length = n if same_from_a else max(n, m)
            full = full[(n + m - 1 - length) // 2:][:length]
        elif mode == "valid":
            length = max(n, m) - min(n, m) + 1 if squeeze else max(n - m + 1, 0)
            full = full[min(n, m) - 1:][:length]
        return np.squeeze(full) if squeeze else full
    return model


KERAS_TORCH_CORRELATE = Behaviour(
    "correlate", _keras_correlate(same_from_a=True, squeeze=True),
    "keras.ops.correlate on torch slices the full correlation and squeezes it: a result of one element "
    "comes back 0-D (numpy: shape (1,)), and mode 'same' gives len(a) outputs where numpy gives the longer "
    "operand's length",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/torch/numpy.py#L2297")
KERAS_TENSORFLOW_CORRELATE = Behaviour(
    "correlate", _keras_correlate(same_from_a=False, squeeze=False),
    "keras.ops.correlate on TensorFlow: mode 'same' slices the full correlation from (full length - "
    "max(M, N)) // 2, one place early where v is longer by an odd count (numpy centres on the longer "
    "operand and reverses); mode 'valid' is conv1d(a, v, 'VALID'), empty where v is the longer (numpy "
    "swaps the operands)",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/tensorflow/numpy.py#L3738")


def truncated_logical_mul(a, b):
    """a * b on TensorFlow tensors where either is bool (tensor_math_operator_overrides'
    _mul_dispatch_factory): both cast to int32 (a float truncated toward zero), multiplied in
    int32 (wrapping), the product cast back to bool."""
    a, b = np.asarray(a), np.asarray(b)
    if np.bool_ not in (a.dtype.type, b.dtype.type):
        return a * b
    with np.errstate(invalid="ignore", over="ignore"):
        return (a.astype(np.int32) * b.astype(np.int32)) != 0


TENSORFLOW_BOOL_MUL = Behaviour(
    "mul", truncated_logical_mul,
    "TensorFlow's * with a bool tensor operand casts both operands to int32 (a float truncated toward "
    "zero), multiplies and casts the product to bool: mask * x is a bool tensor, False where x is in "
    "(-1, 1) (0.5 -> False, -2.0 -> True), where NumPy, torch and JAX give x's dtype and value",
    "https://github.com/tensorflow/tensorflow/blob/v2.21.0/tensorflow/python/ops/tensor_math_operator_overrides.py",
    "promotion", result_dtype="bool")


def masked_fill_softmax(x, mask, axis=-1):
    """x.masked_fill(~mask, -inf).softmax(axis), PyTorch's idiom for a masked softmax: softmax
    subtracts the row's max and divides by the row's sum over every position, so a fully
    masked row (all -inf) is NaN, and a kept NaN or +inf makes the whole row NaN, its masked
    positions included."""
    x = np.where(np.broadcast_to(np.asarray(mask, dtype=bool), np.shape(x)), x, -np.inf)
    with np.errstate(invalid="ignore", over="ignore"):
        e = np.exp(x - np.max(x, axis=axis, keepdims=True))
        return e / np.sum(e, axis=axis, keepdims=True)


TORCH_MASKED_FILL_SOFTMAX = Behaviour(
    "masked_softmax", masked_fill_softmax,
    "the PyTorch idiom x.masked_fill(~m, -inf).softmax(-1) normalises over every position: a fully "
    "masked row is NaN (softmax of all -inf), and a kept NaN or +inf makes the whole row NaN, masked "
    "positions included, where jax.nn.softmax(where=) keeps them 0",
    "https://pytorch.org/docs/stable/generated/torch.nn.functional.softmax.html", "special-value")


def filled_softmax(filler):
    """softmax(where(mask, x, filler)) with masked positions zeroed after: Keras' Softmax(mask=)
    (filler -1e9, -3e4 in float16) and the engine's masked_softmax (the dtype's lowest finite).
    Where every kept position is -inf, the finite filler is the row's max: the kept positions
    get exp(-inf) = 0, not the NaN of -inf - (-inf)."""
    def model(x, mask, axis=-1):
        mask = np.broadcast_to(np.asarray(mask, dtype=bool), np.shape(x))
        filled = np.where(mask, x, filler(np.asarray(x).dtype))
        with np.errstate(invalid="ignore", over="ignore"):
            e = np.exp(filled - np.max(filled, axis=axis, keepdims=True))
            return np.where(mask, e / np.sum(e, axis=axis, keepdims=True), 0)
    return model


KERAS_MASKED_SOFTMAX = Behaviour(
    "masked_softmax", filled_softmax(lambda dtype: -3e4 if dtype == np.float16 else -1e9),
    "Keras' Softmax(mask=) sets masked positions to -1e9 before the softmax and zeroes them after: "
    "where every kept position is -inf, -1e9 is the row's max and the row is 0, not NaN",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/activations/softmax.py", "special-value")
ENGINE_MASKED_SOFTMAX = Behaviour(
    "masked_softmax", filled_softmax(lambda dtype: np.finfo(dtype).min),
    "the engine's masked_softmax sets masked positions to the dtype's lowest finite value before the "
    "softmax and zeroes them after: where every kept position is -inf, the row is 0, not NaN",
    "engine/sequence.py (masked_softmax)", "special-value")


def _implicit_softmax_dim(x):
    """torch.nn.functional._get_softmax_dim: dim 0 for 0-, 1- and 3-d input, else 1."""
    return 0 if np.ndim(x) in (0, 1, 3) else 1


TORCH_SOFTMAX = "https://github.com/pytorch/pytorch/blob/v2.13.0/torch/nn/functional.py#L2124"
TORCH_SOFTMAX_IMPLICIT_DIM, TORCH_LOG_SOFTMAX_IMPLICIT_DIM = (framework_default(
    op, {"axis": _implicit_softmax_dim},
    f"torch.nn.functional.{op} without dim picks one (with a deprecation warning): dim 0 for 0-, 1- and 3-d "
    "input, else dim 1, not the last axis as jax.nn, tf.nn and keras.ops do: a [batch, time, classes] "
    "tensor is normalised over the batch", TORCH_SOFTMAX) for op in ("softmax", "log_softmax"))
TORCH_VAR_BESSEL, TORCH_STD_BESSEL = (framework_default(
    op, {"correction": 1},
    f"torch.{op} defaults to correction=1 (Bessel's: the sum of squared deviations over M - 1), where the "
    f"Array API standard, NumPy, jax.numpy, TensorFlow and Keras default to 0 (over M)",
    f"https://pytorch.org/docs/stable/generated/torch.{op}.html") for op in ("var", "std"))
PADDLE_VAR_UNBIASED, PADDLE_STD_UNBIASED = (framework_default(
    op, {"correction": 1},
    f"paddle.{op} defaults to unbiased=True (over M - 1), where the Array API standard, NumPy, jax.numpy, "
    f"TensorFlow and Keras default to the population's (over M)",
    f"https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/{op}_en.html") for op in ("var", "std"))
TORCH_PAD_SEQUENCE_TIME_MAJOR = framework_default(
    "pad_sequences", {"batch_first": False},
    "torch.nn.utils.rnn.pad_sequence defaults to batch_first=False: the batch is time-major [T, B, ...]",
    "https://pytorch.org/docs/stable/generated/torch.nn.utils.rnn.pad_sequence.html")
TORCH_LSTM_TIME_MAJOR = framework_default(
    "lstm", {"batch_first": False},
    "torch.nn.LSTM defaults to batch_first=False: input and output are read as [T, B, ...], so a "
    "batch-major [B, T, I] tensor runs its batch as time steps",
    "https://pytorch.org/docs/stable/generated/torch.nn.LSTM.html")
TORCH_GRU_TIME_MAJOR = framework_default(
    "gru", {"batch_first": False},
    "torch.nn.GRU defaults to batch_first=False, as torch.nn.LSTM does: a batch-major [B, T, I] tensor "
    "runs its batch as time steps",
    "https://pytorch.org/docs/stable/generated/torch.nn.GRU.html")
KERAS_PAD_SEQUENCES_DEFAULTS = framework_default(
    "pad_sequences", {"side": "pre", "truncate": "pre"},
    "keras.utils.pad_sequences defaults to padding='pre', truncating='pre' and dtype='int32': sequences "
    "are padded and cut at the front, and float values are truncated to int32",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/utils/sequence_utils.py#L12",
    result_dtype="int32")
TORCH_ALL_GATHER_CONCATENATES = framework_default(
    "all_gather", {"tiled": True},
    "torch.distributed.all_gather_into_tensor, torch's one-tensor all-gather, concatenates the ranks' "
    "tensors along dim 0 by default (an output sized as their stack is the other form it takes), where "
    "jax.lax.all_gather stacks them on a new axis (tiled=False): [1, 2] and [3, 4] give [1, 2, 3, 4]",
    "https://pytorch.org/docs/stable/distributed.html#torch.distributed.all_gather_into_tensor")
TF_ALL_GATHER_CONCATENATES = framework_default(
    "all_gather", {"tiled": True},
    "tf.distribute.ReplicaContext.all_gather concatenates the replicas' values along axis, its only "
    "form, where jax.lax.all_gather stacks them on a new axis by default (tiled=False)",
    "https://www.tensorflow.org/api_docs/python/tf/distribute/ReplicaContext#all_gather")
PADDLE_ALL_GATHER_CONCATENATES = framework_default(
    "all_gather", {"tiled": True},
    "paddle.distributed.all_gather fills a list with the ranks' tensors; a port joins them with paddle.concat "
    "along the axis (torch's and TF's layout), where jax.lax.all_gather stacks them on a new axis by default "
    "(tiled=False): [1, 2] and [3, 4] give [1, 2, 3, 4]",
    "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/distributed/all_gather_en.html")
PADDLE_MASKED_FILL_SOFTMAX = Behaviour(
    "masked_softmax", masked_fill_softmax,
    "the idiom Paddle's attention code writes, F.softmax(paddle.masked_fill(x, ~m, -inf)), normalises over "
    "every position: a fully masked row is NaN (softmax of all -inf), as torch's masked_fill idiom",
    "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/nn/functional/softmax_en.html", "special-value")
TORCH_MESHGRID_IJ, PADDLE_MESHGRID_IJ = (framework_default(
    "meshgrid", {"indexing": "ij"},
    f"{call} indexes as 'ij' (matrix: grids of shape (len(x), len(y))) where the Array API standard, NumPy, "
    f"jax.numpy, TensorFlow and Keras default to 'xy' (Cartesian: (len(y), len(x))): a port's grids come out "
    f"transposed{more}", source) for call, more, source in (
        ("torch.meshgrid without indexing", " (torch warns that it will require the argument)",
         "https://pytorch.org/docs/stable/generated/torch.meshgrid.html"),
        ("paddle.meshgrid, which has no indexing argument,", "",
         "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/meshgrid_en.html")))
