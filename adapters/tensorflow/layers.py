"""The tensorflow adapter's layer ops: tf.nn and tf.math, with TensorFlow's own defaults. Where
tf.nn has no such op, TensorFlow's answer is Keras (tf.keras is Keras 3): the keras adapter on
the tensorflow backend tests that."""
from adapters.base import Unsupported, as_tuple, axes_tuple


class TensorFlowLayers:
    """A mixin of TensorFlowAdapter (self.tf)."""

    def cumsum(self, x, axis):
        return self.tf.math.cumsum(x, axis=axis)

    def linear(self, x, weight, bias=None):
        from adapters.backends import refuse_corrupting_matmul

        refuse_corrupting_matmul(self.tf, x, weight)
        out = self.tf.linalg.matmul(x, weight, transpose_b=True)
        return out if bias is None else self.tf.nn.bias_add(out, bias)

    def gelu(self, x, approximate=False):
        return self.tf.nn.gelu(x, approximate=approximate == "tanh")

    def layer_norm(self, x, weight=None, bias=None, eps=None):
        if eps is None:
            raise Unsupported("tf.nn.batch_normalization has no default variance_epsilon: the call must give eps")
        mean, variance = self.tf.nn.moments(x, axes=[-1], keepdims=True)
        return self.tf.nn.batch_normalization(x, mean, variance, offset=bias, scale=weight, variance_epsilon=eps)

    def batch_norm(self, x, running_mean=None, running_var=None, weight=None, bias=None, training=False,
                   eps=None):
        tf = self.tf
        if eps is None:
            raise Unsupported("tf.nn.batch_normalization has no default variance_epsilon: the call must give eps")
        rank = len(x.shape)
        shape = [1, -1] + [1] * (rank - 2)  # a [C] vector along axis 1

        def channel(v):
            return None if v is None else tf.reshape(v, shape)

        if training:
            mean, variance = tf.nn.moments(x, axes=[0, *range(2, rank)], keepdims=True)
        else:
            mean, variance = channel(running_mean), channel(running_var)
        return tf.nn.batch_normalization(x, mean, variance, offset=channel(bias), scale=channel(weight),
                                         variance_epsilon=eps)

    def batch_norm_stats(self, x, running_mean, running_var, momentum=None):
        raise Unsupported("tf.nn keeps no running statistics; TensorFlow's are tf.keras.layers.BatchNormalization's "
                          "(Keras 3): the keras adapter on the tensorflow backend")

    def norm(self, x, axis=None, keepdims=False):
        return self.tf.norm(x, ord="euclidean", axis=axes_tuple(axis),
                            keepdims=keepdims)

    def normalize(self, x, axis=None, eps=1e-12):
        return self.tf.math.l2_normalize(x, axis=axis, epsilon=eps)

    def embedding(self, indices, weight, padding_idx=None):
        if padding_idx is not None:
            raise Unsupported("tf.nn.embedding_lookup has no padding_idx")
        return self.tf.nn.embedding_lookup(weight, indices)

    def cross_entropy(self, logits, target, reduction=None, label_smoothing=None, ignore_index=None):
        tf = self.tf
        if label_smoothing or ignore_index is not None:
            raise Unsupported("tf.nn's softmax cross-entropy has no label smoothing or ignored class")
        if target.dtype.is_integer:
            losses = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=logits)
        else:
            losses = tf.nn.softmax_cross_entropy_with_logits(labels=target, logits=logits)
        if reduction in (None, "none"):  # tf.nn returns the per-example losses: reducing them is the user's
            return losses
        return {"mean": tf.reduce_mean, "sum": tf.reduce_sum}[reduction](losses)

    def dot_product_attention(self, q, k, v, mask=None, bias=None, causal=False, scale=None):
        raise Unsupported("tf.nn has no attention op; TensorFlow's is Keras' (keras.ops.dot_product_attention): "
                          "the keras adapter on the tensorflow backend")

    def multi_head_attention(self, query, key, value, params, num_heads, key_padding_mask=None, batch_first=True):
        raise Unsupported("tf.nn has no attention; TensorFlow's is tf.keras.layers.MultiHeadAttention (Keras 3): the "
                          "keras adapter on the tensorflow backend")

    def multi_head_attention_weights(self, query, key, value, params, num_heads, key_padding_mask=None,
                                     batch_first=True):
        return self.multi_head_attention(query, key, value, params, num_heads, key_padding_mask, batch_first)

    def max_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self._tf_pool("max_pool", x, kernel, stride, padding, ceil_mode, 2)

    def avg_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self._tf_pool("avg_pool", x, kernel, stride, padding, ceil_mode, 2)

    def max_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self._tf_pool("max_pool", x, kernel, stride, padding, ceil_mode, 1)

    def avg_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self._tf_pool("avg_pool", x, kernel, stride, padding, ceil_mode, 1)

    def _tf_pool(self, kind, x, kernel, stride, padding, ceil_mode, spatial):
        """tf.nn.max_pool{1,2}d / avg_pool{1,2}d on channels-last x (TensorFlow's CPU kernels take
        no other layout): padding 'SAME' / 'VALID', or explicit widths (max_pool only)."""
        tf = self.tf
        if ceil_mode:
            raise Unsupported(f"tf.nn.{kind} has no ceil_mode")
        if stride is None:
            raise Unsupported(f"tf.nn.{kind} has no default strides: the call must give them")
        if isinstance(padding, str) or not any(as_tuple(padding, spatial)):
            pads = padding.upper() if isinstance(padding, str) else "VALID"
        elif kind == "avg_pool":
            raise Unsupported("tf.nn.avg_pool pads only 'SAME' or 'VALID'")
        else:
            pads = [[0, 0], *[[p, p] for p in as_tuple(padding, spatial)], [0, 0]]
        last = (0, *range(2, 2 + spatial), 1)
        out = getattr(tf.nn, f"{kind}{spatial}d")(tf.transpose(x, last), as_tuple(kernel, spatial),
                                                  as_tuple(stride, spatial), pads)
        return tf.transpose(out, (0, spatial + 1, *range(1, spatial + 1)))

