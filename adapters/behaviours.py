"""Documented behaviours of an op on one adapter, wherever a spec calls it, modelled in NumPy.

A spec's `differences` document that spec's cases. Some differences belong to an op, whatever
expression calls it: keras.ops.add on TensorFlow becomes tf.nn.bias_add for operands that look
like a bias, in every spec that adds, on whatever inputs hypothesis draws. A Behaviour records
that once: the op, a NumPy model of what the framework computes (read from its source), a note
and the source. An adapter lists its behaviours in its class's `behaviours`.

The judge (suites/differences.py, `modelled`) uses the model, never trusts it: a case that fails
against the reference is judged again against the reference with the op replaced by the model;
it is "documented" only when it passes there, so a framework that differs in any other way still
fails. A fixed framework passes and the behaviour no longer shows; the spec example that pins it
(an `observed` value) then fails as "no longer observed".
"""
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from adapters.base import as_tuple
from adapters.reference import ReferenceAdapter
from adapters.reference_layers import attention_allowed, erfc, pool_windows

REFERENCE = ReferenceAdapter()

@dataclass(frozen=True)
class Behaviour:
    op: str  # the vocabulary op whose result the model replaces
    model: Callable  # NumPy arrays in (the op's args), the framework's result out
    note: str
    source: str
    regime: str = "semantics"  # the kind of difference (specs/schema.json, a difference's regime)
    result_dtype: str | None = None  # the dtype the framework's result has instead of the one under test


def framework_default(op, defaults: dict, note, source, result_dtype=None) -> Behaviour:
    """A framework's own defaults for parameters a spec leaves out (regime "default"): the
    reference's op with `defaults` filled in where the call gives none (a default may be a
    function of the op's first argument), its result in `result_dtype` if given. A call that
    passes the parameter gets the reference's own result, so only an omission is explained."""
    # a collective's model takes the list of shards, as the reference's collective does
    reference = getattr(REFERENCE, op, None) or (lambda shards, **kw: REFERENCE.collective(op, shards, **kw))

    def model(*args, **kwargs):
        filled = {k: v(args[0]) if callable(v) else v for k, v in defaults.items() if k not in kwargs}
        result = reference(*args, **kwargs, **filled)
        return result if result_dtype is None else np.asarray(result).astype(result_dtype)
    return Behaviour(op, model, note, source, "default", result_dtype)


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


def attention_filling_masked(q, k, v, mask=None, bias=None, causal=False, scale=None):
    """dot_product_attention where masked scores are a large finite negative number rather than
    left out: a query with no key to attend to weighs every key alike (softmax of a constant
    row) and gets the mean of v's rows; the others are the reference's."""
    out = REFERENCE.dot_product_attention(q, k, v, mask, bias, causal, scale)
    blind = ~attention_allowed(np.shape(out)[:-1] + (np.shape(k)[-2],), mask, causal).any(axis=-1)
    return np.where(blind[..., None], np.mean(v, axis=-2, keepdims=True), out)


JAX_ATTENTION_MEAN_OF_V = Behaviour(
    "dot_product_attention", attention_filling_masked,
    "jax.nn.dot_product_attention fills masked scores with a large negative number (_apply_masks): a query "
    "whose mask row is all False gets the mean of V's rows, where torch's sdpa gives 0",
    "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/nn/functions.py#L897", "special-value")
KERAS_ATTENTION_MEAN_OF_V = Behaviour(
    "dot_product_attention", attention_filling_masked,
    "keras.ops.dot_product_attention puts a large negative number at masked scores (the torch backend turns "
    "the bool mask into that additive one, the jax backend calls jax.nn.dot_product_attention): a query whose "
    "mask row is all False gets the mean of V's rows, where torch's own sdpa gives 0",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/torch/nn.py", "special-value")


def attention_float32_scale(q, k, v, mask=None, bias=None, causal=False, scale=None):
    """dot_product_attention whose default scale is 1 / sqrt(D) computed in float32, whatever the
    inputs' dtype (keras' TensorFlow backend: 1.0 / tf.sqrt(tf.cast(H, "float32")))."""
    if scale is None:
        scale = float(np.float32(1) / np.sqrt(np.float32(np.shape(q)[-1])))
    return attention_filling_masked(q, k, v, mask, bias, causal, scale)


KERAS_TENSORFLOW_ATTENTION = Behaviour(
    "dot_product_attention", attention_float32_scale,
    "keras.ops.dot_product_attention on TensorFlow computes its default scale 1 / sqrt(D) in float32 "
    "(1.0 / tf.sqrt(tf.cast(H, 'float32'))): float64 scores are off by its rounding, up to 3e-8 relatively; "
    "and a query whose mask row is all False gets the mean of V's rows, as on every Keras backend",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/tensorflow/nn.py", "precision")


def gelu_float32_constants(x, approximate="none"):
    """tf.nn.gelu: its constants made by math_ops.cast(python_float, dtype), which converts the
    float to a float32 tensor first: 0.7071067811865476 (exact form) and 0.044715 (tanh form)
    rounded to float32 whatever x's dtype."""
    x = np.asarray(x)
    if approximate == "tanh":  # 0.5 x (1 + tanh(z)) as x / (1 + exp(-2 z)): no cancellation for x < 0
        inner = 0.7978845608028654 * (x + float(np.float32(0.044715)) * x ** 3)
        with np.errstate(over="ignore"):
            return x / (1 + np.exp(-2 * inner))
    return 0.5 * x * erfc(-x * float(np.float32(0.7071067811865476)))


TF_GELU_FLOAT32_CONSTANTS = Behaviour(
    "gelu", gelu_float32_constants,
    "tf.nn.gelu builds its constants with math_ops.cast(0.7071067811865476, dtype), which makes a float32 "
    "tensor first: in float64 the constant is float32's, and every value is off by up to 4e-9 (5e-9 "
    "relatively; the tanh form's 0.044715 likewise, 3e-10)",
    "https://github.com/tensorflow/tensorflow/blob/v2.21.0/tensorflow/python/ops/nn_ops.py", "precision")
KERAS_TENSORFLOW_GELU = Behaviour(
    "gelu", lambda x, approximate="tanh": gelu_float32_constants(x, approximate),
    "keras.ops.gelu defaults to approximate=True, the tanh approximation, where torch computes the exact "
    "x Phi(x); on TensorFlow it is tf.nn.gelu, whose constants are float32's in float64 as well",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/tensorflow/nn.py", "default")
JAX_GELU_TANH = framework_default(
    "gelu", {"approximate": "tanh"},
    "jax.nn.gelu defaults to approximate=True, the tanh approximation, where torch.nn.functional.gelu and "
    "tf.nn.gelu compute the exact x Phi(x): up to 4.7e-4 apart",
    "https://docs.jax.dev/en/latest/_autosummary/jax.nn.gelu.html")
KERAS_GELU_TANH = framework_default(
    "gelu", {"approximate": "tanh"},
    "keras.ops.gelu defaults to approximate=True, the tanh approximation (keras.activations.gelu to "
    "approximate=False), where torch.nn.functional.gelu computes the exact x Phi(x)",
    "https://keras.io/api/ops/nn/#gelu-function")
FLAX_LAYER_NORM_EPS = framework_default(
    "layer_norm", {"eps": 1e-6},
    "flax.linen.LayerNorm defaults to epsilon=1e-6, where torch.nn.LayerNorm has eps=1e-5",
    "https://flax.readthedocs.io/en/latest/api_reference/flax.linen/layers.html#flax.linen.LayerNorm")
KERAS_LAYER_NORM_EPS = framework_default(
    "layer_norm", {"eps": 1e-3},
    "keras.layers.LayerNormalization defaults to epsilon=1e-3, a hundred times torch.nn.LayerNorm's 1e-5",
    "https://keras.io/api/layers/normalization_layers/layer_normalization/")
KERAS_BATCH_NORM_EPS = framework_default(
    "batch_norm", {"eps": 1e-3},
    "keras.layers.BatchNormalization defaults to epsilon=1e-3, a hundred times torch.nn.BatchNorm2d's 1e-5",
    "https://keras.io/api/layers/normalization_layers/batch_normalization/")


def biased_running_stats(default_momentum):
    """flax's and Keras' running statistics in PyTorch's convention: the batch's biased variance
    (torch's is unbiased), and the framework's default momentum where the call gives none."""
    def model(x, running_mean, running_var, momentum=None):
        m = default_momentum if momentum is None else momentum
        axes = (0, *range(2, x.ndim))
        return ((1 - m) * running_mean + m * np.mean(x, axis=axes), (1 - m) * running_var + m * np.var(x, axis=axes))
    return model


FLAX_BATCH_NORM_STATS, KERAS_BATCH_NORM_STATS = (Behaviour(
    "batch_norm_stats", biased_running_stats(0.01),
    f"{api} updates the running variance with the batch's biased variance (divided by n; torch.nn.BatchNorm "
    "uses the unbiased one, n - 1), and its momentum is the old value's weight, 0.99 by default: 0.01 in "
    "torch's convention, where torch's default is 0.1", source) for api, source in (
    ("flax.linen.BatchNorm", "https://github.com/google/flax/blob/v0.12.8/flax/linen/normalization.py#L404"),
    ("keras.layers.BatchNormalization",
     "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/normalization/batch_normalization.py#L388")))
OPTAX_PER_EXAMPLE_LOSS, TF_PER_EXAMPLE_LOSS = (framework_default(
    "cross_entropy", {"reduction": "none"},
    f"{api} returns the per-example losses [N], where torch.nn.functional.cross_entropy averages them "
    "(reduction='mean')", source) for api, source in (
    ("optax.softmax_cross_entropy_with_integer_labels", "https://optax.readthedocs.io/en/latest/api/losses.html"),
    ("tf.nn.sparse_softmax_cross_entropy_with_logits",
     "https://www.tensorflow.org/api_docs/python/tf/nn/sparse_softmax_cross_entropy_with_logits")))
JAX_POOL_STRIDE_ONE = tuple(framework_default(
    op, {"stride": 1},
    f"flax.linen.{op[:3]}_pool's strides default to 1 (overlapping windows), where torch.nn.functional.{op} "
    "and keras.ops step by the kernel", "https://flax.readthedocs.io/en/latest/api_reference/flax.linen/layers.html")
    for op in ("max_pool2d", "avg_pool2d", "max_pool1d", "avg_pool1d"))


def avg_pool_counting_same_padding(x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """avg_pool2d where SAME's padded positions count in the divisor too (flax.linen.avg_pool with
    its count_include_pad=True): each window's sum over the full kernel size."""
    out = REFERENCE.avg_pool2d(x, kernel, stride, padding, ceil_mode, count_include_pad)
    if padding != "same" or not count_include_pad:
        return out
    kernel = as_tuple(kernel, 2)
    stride = kernel if stride is None else as_tuple(stride, 2)
    inside = [np.array([end - start for start, end, _ in pool_windows(n, k, s, "same", False)])
              for n, k, s in zip(np.shape(x)[2:], kernel, stride)]
    return out * np.multiply.outer(*inside) / (kernel[0] * kernel[1])


JAX_AVG_POOL_SAME_COUNTS_PADDING = Behaviour(
    "avg_pool2d", avg_pool_counting_same_padding,
    "flax.linen.avg_pool(padding='SAME') divides by the full window, padding included (count_include_pad "
    "defaults to True), where TensorFlow's SAME average (tf.nn.avg_pool2d, keras.ops.average_pool) excludes "
    "the padded positions: border windows come out smaller",
    "https://flax.readthedocs.io/en/latest/api_reference/flax.linen/layers.html", "semantics")
TORCH_NORMALIZE_DIM_ONE = framework_default(
    "normalize", {"axis": 1},
    "torch.nn.functional.normalize defaults to dim=1 (the channels of [N, C, ...]), not the last axis as "
    "keras.ops.normalize: a [batch, features, time] tensor is normalised across features",
    "https://pytorch.org/docs/stable/generated/torch.nn.functional.normalize.html")
KERAS_NORMALIZE_EPSILON = framework_default(
    "normalize", {"eps": 1e-7},
    "keras.ops.normalize's epsilon defaults to keras.backend.epsilon(), 1e-7, where torch's is 1e-12: vectors "
    "shorter than 1e-7 are scaled by 1e7 instead of made unit",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/ops/nn.py#L2721")


def l2_normalize(x, axis=None, eps=1e-12):
    """tf.math.l2_normalize: x / sqrt(max(sum x^2, epsilon)): its epsilon bounds the squared norm
    (a norm floor of sqrt(epsilon)), and its axis defaults to every axis."""
    return np.asarray(x) / np.sqrt(np.maximum(np.sum(np.square(x), axis=axis, keepdims=True), eps))


TF_L2_NORMALIZE = Behaviour(
    "normalize", l2_normalize,
    "tf.math.l2_normalize bounds the squared norm by epsilon (x * rsqrt(max(sum x^2, epsilon))), where "
    "torch.nn.functional.normalize bounds the norm: the same eps 1e-12 floors the norm at 1e-6, so shorter "
    "vectors come out shorter than 1; and its axis defaults to None, every axis at once",
    "https://www.tensorflow.org/api_docs/python/tf/math/l2_normalize")
