"""Adapters with one deliberately wrong layer, for tests/test_models.py: each is the torch adapter
with a bug a port plausibly makes. The model specs must catch each one and name its layer as the
first out of its bound."""
from adapters.torch import TorchAdapter


class ReorderedGruGates(TorchAdapter):
    """The GRU's reset and update gate blocks swapped (Keras orders them z, r, h; torch r, z, n)."""
    name = "reordered-gru-gates"

    def gru(self, x, h0, params, num_layers=1, bidirectional=False, batch_first=False, reset_after=True):
        def swapped(w):
            h = w.shape[0] // 3
            return self.torch.cat([w[h:2 * h], w[:h], w[2 * h:]])

        return super().gru(x, h0, {k: swapped(w) for k, w in params.items()}, num_layers, bidirectional, batch_first,
                           reset_after)


class UnbiasedLayerNorm(TorchAdapter):
    """Layer norm written out by hand with torch.var's default, the unbiased variance (n - 1)."""
    name = "unbiased-layer-norm"

    def layer_norm(self, x, weight=None, bias=None, eps=1e-5):
        centred = x - x.mean(-1, keepdim=True)
        out = centred / self.torch.sqrt(x.var(-1, keepdim=True) + eps)
        out = out if weight is None else out * weight
        return out if bias is None else out + bias


class AttentionOverD(TorchAdapter):
    """Attention scores scaled by 1 / d instead of 1 / sqrt(d)."""
    name = "attention-over-d"

    def dot_product_attention(self, q, k, v, mask=None, bias=None, causal=False, scale=None):
        return super().dot_product_attention(q, k, v, mask, bias, causal, 1 / q.shape[-1] if scale is None else scale)
