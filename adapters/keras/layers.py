"""The keras adapter's layer ops: keras.ops, and keras.layers / keras.losses where Keras' idiom is
a layer, run statelessly with the weights converted from PyTorch's layouts; Keras' own defaults."""
import functools
import warnings

from adapters.attention_params import heads_split
from adapters.base import Unsupported, as_tuple, axes_tuple, conv_padding, flipped_momentum, given, lift_1d
from adapters.mixed import MIXED_BFLOAT16, with_policy

# torch.compile warns each time its trace meets a functools cache: Keras' own dtype helpers and
# eagerly_on_torch's one wrapper per function below, which it rightly traces through. Thousands of
# lines a keras-torch CI slice (5,367 warnings), about nothing the records do not say.
warnings.filterwarnings("ignore", message="Dynamo detected a call to a `functools.lru_cache`-wrapped function",
                        category=UserWarning)

KERAS_REDUCTIONS = {"mean": "sum_over_batch_size", "sum": "sum", "none": None}


def built(kind: str, dtype: str, shape: tuple, **config):
    """A keras.layers.<kind>(**config) built for inputs of `shape` (or a tuple of shapes, one per
    input), made once per configuration, outside any compiler's trace (outside_trace)."""
    return outside_trace(f"keras.layers.{kind}", _built, kind, dtype, shape, **config)


def outside_trace(what: str, build, *args, **config):
    """build(*args, **config): a layer made as Keras' users make one, before the step that calls
    it is compiled. On the torch backend a layer is a torch.nn.Module, and torch.compile runs its
    construction eagerly when told to (eagerly_on_torch). On jax Keras builds a layer inside
    jax.jit itself: its variables are made with concrete values, and the layer computes eagerly
    afterwards as well (tests/test_unsupported.py). tf.function has no such escape: a layer built
    inside its trace makes tf.Variables there, which tf.function refuses with a ValueError, so
    the compiled mode is refused there in those words (refuse_in_trace)."""
    import keras

    if keras.backend.backend() == "torch":
        return eagerly_on_torch(build)(*args, **config)
    if keras.backend.backend() == "tensorflow":
        refuse_in_trace(what, LAYERS_IN_TRACE)
    return build(*args, **config)


def unweighted(kind: str, dtype: str, **config):
    """A keras.layers.<kind>(**config) without weights (Softmax), made once per configuration:
    outside torch.compile's trace on the torch backend (eagerly_on_torch), and anywhere on the
    others, since it has no variables to make."""
    return eagerly_on_torch(_unweighted)(kind, dtype, **config)


@functools.cache  # one wrapper per function: the layer ops call it on every call
def eagerly_on_torch(build):
    """build, run eagerly even inside torch.compile (torch.compiler.disable: a graph break, the
    layer then a constant of the graph) on the torch backend; as it is on the others. Without it,
    dynamo traced Keras' Layer.__init__ when the process had not made the layer yet and failed
    inside (InternalTorchDynamoError "'Dense' object has no attribute '_buffers'"): a compiled
    case's status then depended on the items run before it."""
    import keras

    if keras.backend.backend() != "torch":
        return build
    import torch

    return torch.compiler.disable(build)


@functools.cache
def _unweighted(kind: str, dtype: str, **config):
    import keras

    return getattr(keras.layers, kind)(dtype=dtype, **config)


# Why a layer op is unsupported in the compiled mode on the tensorflow backend: this adapter
# builds a keras.layers layer for the shapes it is called with (outside_trace). Keras' own
# jit_compile compiles a step of a model built beforehand; the compiled mode there covers the
# programs of keras.ops.
LAYERS_IN_TRACE = ("is built for the shapes it is called with, and a layer built inside tf.function makes "
                   "tf.Variables there, which tf.function refuses (ValueError: tf.function only supports "
                   "singleton tf.Variables created on the first call); Keras compiles steps of models built "
                   "beforehand")


def refuse_in_trace(what: str, why: str) -> None:
    """Unsupported (`what` `why`) while the backend's compiler traces the running function: the
    compiled mode."""
    import keras

    backend = keras.backend.backend()
    if backend == "tensorflow":
        import tensorflow as tf

        traced = tf.inside_function()
    elif backend == "jax":
        import jax

        traced = isinstance(jax.numpy.ones(()), jax.core.Tracer)  # as keras.src.utils.jax_utils tells
    else:
        import torch

        traced = torch.compiler.is_compiling()
    if traced:
        raise Unsupported(f"{what} {why}")


@functools.cache
def _built(kind: str, dtype: str, shape: tuple, **config):
    """built's layer, made once per configuration."""
    import keras

    layer = getattr(keras.layers, kind)(dtype=dtype, **config)
    if shape and isinstance(shape[0], tuple):  # one shape per input (MultiHeadAttention's)
        layer.build(*shape)
    else:
        layer.build(shape)
    return layer


def stateless(layer, weights: list, *inputs, **options):
    """The layer's output with these weights (in the order of its trainable_variables)."""
    return stateless_outputs(layer, weights, layer.non_trainable_variables, *inputs, **options)[0]


def stateless_outputs(layer, weights: list, non_trainable: list, *inputs, **options) -> tuple:
    """layer.stateless_call's (outputs, non-trainable variables), the input checked against the
    layer's input_spec as users' calls check it (Dense's min_ndim 2). Under a mixed dtype policy the
    layer is called as its users call it, with the weights assigned: stateless_call runs `call`
    alone, without the casts to the compute dtype that `__call__` makes (inputs and variables)."""
    policy = layer.dtype_policy
    if policy.compute_dtype == policy.variable_dtype:
        layer._assert_input_compatibility(inputs[0])  # as __call__ does: stateless_call skips it
        return layer.stateless_call(weights, non_trainable, *inputs, **options)
    for variable, value in zip(layer.trainable_variables + layer.non_trainable_variables, weights + non_trainable):
        variable.assign(value)
    return layer(*inputs, **options), [v.value for v in layer.non_trainable_variables]


class KerasLayers:
    """A mixin of KerasAdapter (self.keras, self.ops, self.backend)."""

    policy = None  # the mixed mode's dtype policy while it runs (mixed)

    def mixed(self, fn):
        """fn with its layers built under Keras' "mixed_bfloat16" dtype policy (their dtype=, as
        keras.mixed_precision.set_dtype_policy gives the layers built after it): float32
        variables, bfloat16 computation. keras.ops follow their inputs."""
        return with_policy(self, MIXED_BFLOAT16, fn)

    def layer_dtype(self, x) -> str:
        """The dtype (or policy) a layer is built with: x's, or the mixed mode's policy."""
        return self.policy or self.dtype_of(x)

    def cumsum(self, x, axis):
        return self.ops.cumsum(x, axis=axis)

    def linear(self, x, weight, bias=None):
        if self.backend == "tensorflow":
            import tensorflow as tf

            from adapters.backends import refuse_corrupting_matmul

            refuse_corrupting_matmul(tf, x, weight)  # Dense's matmul is tf.matmul there
        dense = built("Dense", self.layer_dtype(x), (None, weight.shape[1]), units=weight.shape[0],
                      use_bias=bias is not None)
        return stateless(dense, [self.ops.transpose(weight)] + ([] if bias is None else [bias]), x)

    def gelu(self, x, approximate=None):
        if approximate is None:  # keras.ops.gelu's own default (approximate=True)
            return self.ops.gelu(x)
        return self.ops.gelu(x, approximate=approximate == "tanh")

    def layer_norm(self, x, weight=None, bias=None, eps=None):
        norm = built("LayerNormalization", self.layer_dtype(x), (None, x.shape[-1]), scale=weight is not None,
                     center=bias is not None, **({} if eps is None else {"epsilon": eps}))
        return stateless(norm, [w for w in (weight, bias) if w is not None], x)

    def batch_norm(self, x, running_mean=None, running_var=None, weight=None, bias=None, training=False,
                   eps=None):
        return self._keras_batch_norm(x, running_mean, running_var, weight, bias, training, eps=eps)[0]

    def batch_norm_stats(self, x, running_mean, running_var, momentum=None):
        return tuple(self._keras_batch_norm(x, running_mean, running_var, None, None, True, momentum=momentum)[1])

    def _keras_batch_norm(self, x, running_mean, running_var, weight, bias, training, eps=None, momentum=None):
        """keras.layers.BatchNormalization(axis=1) run statelessly: (output, [moving_mean,
        moving_variance] after the call). PyTorch's momentum m is Keras' 1 - m (the old value's
        weight); Keras' own defaults where eps or momentum is None. In training the output does
        not read the moving statistics, which the layer needs all the same."""
        ops = self.ops
        norm = built("BatchNormalization", self.layer_dtype(x), (None, *x.shape[1:]), axis=1, scale=weight is not None,
                     center=bias is not None, **given(epsilon=eps, momentum=flipped_momentum(momentum)))
        channels = x.shape[1]
        moving = [ops.zeros(channels, self.dtype_of(x)) if running_mean is None else running_mean,
                  ops.ones(channels, self.dtype_of(x)) if running_var is None else running_var]
        return stateless_outputs(norm, [w for w in (weight, bias) if w is not None], moving, x, training=training)

    def norm(self, x, axis=None, keepdims=False):
        return self.ops.norm(x, axis=axes_tuple(axis), keepdims=keepdims)

    def normalize(self, x, axis=-1, eps=None):
        return self.ops.normalize(x, axis=axis, epsilon=eps)

    def embedding(self, indices, weight, padding_idx=None):
        if padding_idx is not None:
            raise Unsupported("keras.layers.Embedding has no padding_idx (mask_zero makes a mask for later layers)")
        embed = built("Embedding", self.layer_dtype(weight), (None,), input_dim=weight.shape[0],
                      output_dim=weight.shape[1])
        return stateless(embed, [weight], indices)

    def cross_entropy(self, logits, target, reduction="mean", label_smoothing=0.0, ignore_index=None):
        losses = self.keras.losses
        reduction = KERAS_REDUCTIONS[reduction]
        if self.dtype_of(target).startswith(("int", "uint")):
            if label_smoothing:
                raise Unsupported("keras.losses.SparseCategoricalCrossentropy has no label_smoothing")
            loss = losses.SparseCategoricalCrossentropy(from_logits=True, ignore_class=ignore_index,
                                                        reduction=reduction)
        else:
            if ignore_index is not None:
                raise Unsupported("keras.losses.CategoricalCrossentropy has no ignore_class")
            loss = losses.CategoricalCrossentropy(from_logits=True, label_smoothing=label_smoothing,
                                                  reduction=reduction)
        return loss(target, logits)

    def dot_product_attention(self, q, k, v, mask=None, bias=None, causal=False, scale=None):
        ops = self.ops
        heads_second = functools.partial(ops.swapaxes, axis1=1, axis2=2)  # [B, N, T, D] <-> [B, T, N, D]
        out = ops.dot_product_attention(heads_second(q), heads_second(k), heads_second(v), bias=bias, mask=mask,
                                        scale=scale, is_causal=causal)
        return heads_second(out)

    def multi_head_attention(self, query, key, value, params, num_heads, key_padding_mask=None, batch_first=True):
        return self._keras_multihead(query, key, value, params, num_heads, key_padding_mask, batch_first, False)

    def multi_head_attention_weights(self, query, key, value, params, num_heads, key_padding_mask=None,
                                     batch_first=True):
        return self._keras_multihead(query, key, value, params, num_heads, key_padding_mask, batch_first, True)

    def _keras_multihead(self, query, key, value, params, num_heads, key_padding_mask, batch_first, scores):
        """keras.layers.MultiHeadAttention(num_heads, key_dim=E / N) run statelessly with PyTorch's
        weights (heads_split: the same DenseGeneral layouts as flax's); its attention_mask is
        True where a query may attend, [B, T, S]."""
        ops = self.ops
        if not batch_first:  # Keras reads [B, L, E] only
            query, key, value = (ops.swapaxes(t, 0, 1) for t in (query, key, value))
        embed = query.shape[-1]
        layer = built("MultiHeadAttention", self.layer_dtype(query), ((None, None, embed),) * 3, num_heads=num_heads,
                      key_dim=embed // num_heads)
        split = heads_split(params, num_heads, ops)
        weights = [split[name][w] for name in ("query", "key", "value", "out") for w in ("kernel", "bias")]
        mask = None if key_padding_mask is None else ops.broadcast_to(
            ops.logical_not(key_padding_mask)[:, None, :], (query.shape[0], query.shape[1], key.shape[1]))
        out = stateless(layer, weights, query, value, key=key, attention_mask=mask, return_attention_scores=scores)
        first = out[0] if scores else out
        first = first if batch_first else ops.swapaxes(first, 0, 1)
        return (first, out[1]) if scores else first

    def max_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self._keras_pool("max_pool", x, kernel, stride, padding, ceil_mode, 2)

    def avg_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self._keras_pool("average_pool", x, kernel, stride, padding, ceil_mode, 2)

    def max_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self._keras_pool("max_pool", x, kernel, stride, padding, ceil_mode, 1)

    def avg_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self._keras_pool("average_pool", x, kernel, stride, padding, ceil_mode, 1)

    def _keras_pool(self, kind, x, kernel, stride, padding, ceil_mode, spatial):
        """keras.ops.max_pool / average_pool on channels-last x: padding 'valid' or 'same' only."""
        ops = self.ops
        if ceil_mode or not (isinstance(padding, str) or padding == 0):
            raise Unsupported(f"keras.ops.{kind} pads only 'valid' or 'same' and has no ceil_mode")
        last = (0, *range(2, 2 + spatial), 1)
        out = getattr(ops, kind)(ops.transpose(x, last), kernel, stride, "valid" if padding == 0 else padding,
                                 data_format="channels_last")
        return ops.transpose(out, (0, spatial + 1, *range(1, spatial + 1)))

    def conv2d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        ops = self.ops
        pads = conv_padding(padding, 2)
        # explicit widths: keras.ops.conv pads only "valid" / "same" (no padding: "valid", as users write it)
        if not isinstance(pads, str) and any(map(any, pads)):
            x = ops.pad(x, [[0, 0], [0, 0], *map(list, pads)])
        # NCHW / OIHW in, NHWC / HWIO for keras.ops.conv (TensorFlow's CPU kernels take channels
        # last only); groups follow from the channel counts
        out = ops.conv(ops.transpose(x, (0, 2, 3, 1)), ops.transpose(w, (2, 3, 1, 0)), as_tuple(stride, 2),
                       pads.lower() if isinstance(pads, str) else "valid", data_format="channels_last",
                       dilation_rate=as_tuple(dilation, 2))
        out = ops.transpose(out, (0, 3, 1, 2))
        return out if b is None else out + ops.reshape(b, (1, -1, 1, 1))

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        out = self.conv2d(x[:, :, None], w[:, :, None], b, lift_1d(stride, 1), lift_1d(padding, 0),
                          lift_1d(dilation, 1), groups)
        return out[:, :, 0]
