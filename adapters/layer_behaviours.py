"""Documented behaviours of the layer ops (attention, multi-head attention, gelu, the norms,
batch norm, pooling), as adapters/behaviours.py records the rest: each a NumPy model of what
the framework computes, read from its source, which the judge uses and never trusts."""

import numpy as np

from adapters.base import as_tuple
from adapters.behaviours import REFERENCE, Behaviour, framework_default
from adapters.reference import ReferenceAdapter
from adapters.reference.layers import attention_allowed, erfc, pool_windows
from vocabulary.params import MULTIHEAD_OPS


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
    "(1.0 / tf.sqrt(tf.cast(H, 'float32'))): float64 scores are off by its rounding, up to 3e-8 relatively "
    "(and a query whose mask row is all False gets the mean of V's rows, KERAS_ATTENTION_MEAN_OF_V, as on "
    "every Keras backend)",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/tensorflow/nn.py", "precision")


class Attending(ReferenceAdapter):
    """The reference's multi-head attention with a framework's choices: what a query with no key
    to attend to weighs (`blind`: "nan", or "uniform" where masked scores are a large negative
    number and the query gets the mean of V; None keeps the reference's 0), and the score scale
    1 / sqrt(d) rounded to float32 (`float32_scale`, a Python float cast through a float32 tensor)."""

    def __init__(self, blind=None, float32_scale=False):
        self.blind, self.float32_scale = blind, float32_scale

    def masked_softmax(self, x, mask, axis=-1):
        out = super().masked_softmax(x, mask, axis)
        if self.blind is None:
            return out
        empty = ~np.broadcast_to(np.asarray(mask, bool), np.shape(x)).any(axis=axis, keepdims=True)
        return np.where(empty, np.nan if self.blind == "nan" else 1 / np.shape(x)[axis], out)

    def attention_scale(self, head_dim):
        scale = super().attention_scale(head_dim)
        return float(np.float32(scale)) if self.float32_scale else scale


TORCH_MULTIHEAD_TIME_MAJOR = tuple(framework_default(
    op, {"batch_first": False},
    "torch.nn.MultiheadAttention defaults to batch_first=False: query, key and value are read as [L, B, E], so "
    "a batch-major tensor attends across its batch", "https://pytorch.org/docs/stable/generated/"
    "torch.nn.MultiheadAttention.html") for op in MULTIHEAD_OPS)
TORCH_MULTIHEAD_WEIGHTS_NAN = Behaviour(
    "multi_head_attention_weights", Attending("nan").multi_head_attention_weights,
    "torch.nn.MultiheadAttention with need_weights=True computes softmax over scores filled with -inf: a "
    "query whose keys are all padding gets NaN weights and a NaN output (with need_weights=False its fused "
    "path gives 0 there, as the reference does)",
    "https://github.com/pytorch/pytorch/blob/v2.13.0/torch/nn/functional.py#L7038", "special-value")
FLAX_MULTIHEAD_MEAN_OF_V = tuple(Behaviour(
    op, getattr(Attending("uniform"), op),
    "flax.linen.MultiHeadDotProductAttention (dot_product_attention_weights) puts a large negative number at "
    "masked scores: a query whose keys are all padding weighs every key alike and gets the mean of V's rows",
    "https://github.com/google/flax/blob/v0.12.8/flax/linen/attention.py#L140", "special-value")
    for op in MULTIHEAD_OPS)
KERAS_MULTIHEAD_MEAN_OF_V = Behaviour(
    "multi_head_attention", Attending("uniform").multi_head_attention,
    "keras.layers.MultiHeadAttention without return_attention_scores calls keras.ops.dot_product_attention, "
    "which puts a large negative number at masked scores: a query whose keys are all padding gets the mean of "
    "V's rows (with return_attention_scores its Softmax layer multiplies by the mask and gives 0)",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/attention/multi_head_attention.py#L521",
    "special-value")
KERAS_TENSORFLOW_MULTIHEAD = (Behaviour(
    "multi_head_attention", Attending("uniform", float32_scale=True).multi_head_attention,
    "keras.layers.MultiHeadAttention on TensorFlow: its scale 1 / sqrt(key_dim), a Python float, becomes a "
    "float32 tensor before float64 (tf.cast of a Python number), so float64 scores are off by its rounding; "
    "and without return_attention_scores a query whose keys are all padding gets the mean of V's rows",
    "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/attention/multi_head_attention.py#L201",
    "precision"), Behaviour(
    "multi_head_attention_weights", Attending(float32_scale=True).multi_head_attention_weights,
    "keras.layers.MultiHeadAttention on TensorFlow: its scale 1 / sqrt(key_dim), a Python float, becomes a "
    "float32 tensor before float64 (ops.cast(self._inverse_sqrt_key_dim, query.dtype)), so float64 scores are "
    "off by its rounding", "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/attention/"
    "multi_head_attention.py#L581", "precision"))


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


def litert_l2_normalization(x, axis=None, eps=1e-12):
    """tf.math.l2_normalize converted to LiteRT: the converter fuses x * rsqrt(max(sum x^2, eps))
    into L2_NORMALIZATION where eps < 1e-3 and the reduced axes' first is the last axis (or -1),
    or they are every axis in order (L2NormalizeReduceAxis); that kernel normalises the last
    axis alone, by max(norm, 1e-6). Any other axis stays TensorFlow's ops."""
    x = np.asarray(x)
    axes = list(range(x.ndim)) if axis is None else list(as_tuple(axis, 1))
    if not (axes and (axes[0] in (x.ndim - 1, -1) or axes == list(range(x.ndim))) and eps < 1e-3):
        return l2_normalize(x, axis, eps)
    return x / np.maximum(np.sqrt(np.sum(np.square(x), axis=-1, keepdims=True)), 1e-6)


LITERT_L2_NORMALIZATION = Behaviour(
    "normalize", litert_l2_normalization,
    "LiteRT's converter turns tf.math.l2_normalize over every axis (its default axis=None) into "
    "L2_NORMALIZATION, which normalises the last axis alone ([[3, 4], [0, 5]] gives [[0.6, 0.8], [0, 1]] where "
    "TensorFlow gives [[0.42, 0.57], [0, 0.71]]), and that kernel floors the norm at 1e-6 whatever epsilon "
    "the program gives (adapters/tensorflow/repro/litert_float32_elementwise.py)",
    "https://github.com/tensorflow/tensorflow/blob/v2.21.0/tensorflow/compiler/mlir/lite/transforms/optimize.cc",
    "compiler", mode="exported")
PADDLE_NORMALIZE_AXIS_ONE = framework_default(
    "normalize", {"axis": 1},
    "paddle.nn.functional.normalize defaults to axis=1 (as torch's dim=1), not the last axis as keras.ops.normalize",
    "https://www.paddlepaddle.org.cn/documentation/docs/en/api/paddle/nn/functional/normalize_en.html")


def attention_nan_where_blind(q, k, v, mask=None, bias=None, causal=False, scale=None):
    """dot_product_attention where masked scores are -inf: a query with no key to attend to gets
    NaN (softmax of a row of -inf); the others are the reference's."""
    out = REFERENCE.dot_product_attention(q, k, v, mask, bias, causal, scale)
    blind = ~attention_allowed(np.shape(out)[:-1] + (np.shape(k)[-2],), mask, causal).any(axis=-1)
    return np.where(blind[..., None], np.nan, out)


PADDLE_ATTENTION_NAN = Behaviour(
    "dot_product_attention", attention_nan_where_blind,
    "paddle.nn.functional.scaled_dot_product_attention on CPU (its math path) fills a bool mask's False scores "
    "with -inf: a query whose mask row is all False gets NaN, where torch's sdpa gives 0",
    "https://github.com/PaddlePaddle/Paddle/blob/v3.3.1/python/paddle/nn/functional/flash_attention.py",
    "special-value")
PADDLE_MULTIHEAD_MEAN_OF_V = tuple(Behaviour(
    op, getattr(Attending("uniform"), op),
    "paddle.nn.MultiHeadAttention turns a bool attn_mask into an additive (mask - 1) * 1e9 "
    "(_convert_attention_mask): a query whose keys are all padding weighs every key alike and gets the mean "
    "of V's rows", "https://github.com/PaddlePaddle/Paddle/blob/v3.3.1/python/paddle/nn/layer/transformer.py#L103",
    "special-value") for op in MULTIHEAD_OPS)
