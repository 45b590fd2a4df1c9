"""The torch adapter's layer ops: torch.nn.functional, with torch's own defaults."""
from adapters.base import Unsupported, axes_tuple


class TorchLayers:
    """A mixin of TorchAdapter (self.torch is the torch module)."""

    def cumsum(self, x, axis):
        return self.torch.cumsum(x, dim=axis)

    def linear(self, x, weight, bias=None):
        return self.torch.nn.functional.linear(x, weight, bias)

    def gelu(self, x, approximate="none"):
        return self.torch.nn.functional.gelu(x, approximate=approximate)

    def layer_norm(self, x, weight=None, bias=None, eps=1e-5):
        return self.torch.nn.functional.layer_norm(x, x.shape[-1:], weight, bias, eps)

    def batch_norm(self, x, running_mean=None, running_var=None, weight=None, bias=None, training=False, eps=1e-5):
        if training:  # F.batch_norm would update the running statistics in place: they are the caller's inputs
            running_mean, running_var = (None if s is None else s.detach().clone() for s in (running_mean, running_var))
        return self.torch.nn.functional.batch_norm(x, running_mean, running_var, weight, bias, training, eps=eps)

    def batch_norm_stats(self, x, running_mean, running_var, momentum=0.1):
        mean, var = running_mean.detach().clone(), running_var.detach().clone()
        self.torch.nn.functional.batch_norm(x.detach(), mean, var, training=True, momentum=momentum)
        return mean, var  # updated in place, as a BatchNorm module's buffers are

    def norm(self, x, axis=None, keepdims=False):
        dim = axes_tuple(axis)
        return self.torch.linalg.vector_norm(x, 2, dim=dim, keepdim=keepdims)

    def normalize(self, x, axis=1, eps=1e-12):
        return self.torch.nn.functional.normalize(x, 2, dim=axis, eps=eps)

    def embedding(self, indices, weight, padding_idx=None):
        return self.torch.nn.functional.embedding(indices, weight, padding_idx)

    def cross_entropy(self, logits, target, reduction="mean", label_smoothing=0.0, ignore_index=None):
        # no class ignored is torch's default ignore_index, -100 (no class index is negative)
        return self.torch.nn.functional.cross_entropy(logits, target, ignore_index=-100 if ignore_index is None
                                                      else ignore_index, reduction=reduction,
                                                      label_smoothing=label_smoothing)

    def dot_product_attention(self, q, k, v, mask=None, bias=None, causal=False, scale=None):
        if mask is not None and bias is not None:
            raise Unsupported("scaled_dot_product_attention takes one attn_mask: a bool mask or an additive bias")
        return self.torch.nn.functional.scaled_dot_product_attention(
            q, k, v, attn_mask=bias if mask is None else mask, is_causal=causal, scale=scale)

    def multi_head_attention(self, query, key, value, params, num_heads, key_padding_mask=None, batch_first=False):
        return self._multihead(query, key, value, params, num_heads, key_padding_mask, batch_first, False)[0]

    def multi_head_attention_weights(self, query, key, value, params, num_heads, key_padding_mask=None,
                                     batch_first=False):
        return self._multihead(query, key, value, params, num_heads, key_padding_mask, batch_first, True)

    def _multihead(self, query, key, value, params, num_heads, key_padding_mask, batch_first, need_weights):
        """A weightless torch.nn.MultiheadAttention (weightless_attention) run with the given weights."""
        module = self.weightless_attention(query.shape[-1], num_heads, batch_first, query.dtype)
        return self.torch.func.functional_call(module, params, (query, key, value), {
            "key_padding_mask": key_padding_mask, "need_weights": need_weights, "average_attn_weights": False})

    def weightless_attention(self, embed_dim, num_heads, batch_first, dtype):
        """torch.nn.MultiheadAttention on the meta device, made at each call (torch-export keeps one)."""
        return self.torch.nn.MultiheadAttention(embed_dim, num_heads, batch_first=batch_first, device="meta",
                                                dtype=dtype)

    def max_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self.torch.nn.functional.max_pool2d(x, kernel, stride, _padding(padding), ceil_mode=ceil_mode)

    def avg_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self.torch.nn.functional.avg_pool2d(x, kernel, stride, _padding(padding), ceil_mode, count_include_pad)

    def max_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self.torch.nn.functional.max_pool1d(x, kernel, stride, _padding(padding), ceil_mode=ceil_mode)

    def avg_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self.torch.nn.functional.avg_pool1d(x, kernel, stride, _padding(padding), ceil_mode, count_include_pad)


def _padding(padding):
    """A pooling's padding as torch takes it: ints; 'valid' is 0, and there is no 'same'."""
    if padding == "same":
        raise Unsupported("torch.nn.functional's pooling has no 'same' padding")
    return 0 if padding == "valid" else padding
