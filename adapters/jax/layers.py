"""The jax adapter's layer ops: jax.nn, flax.linen layers given the weights (PyTorch's layouts
converted), optax's losses; each with its own defaults."""
import functools

from adapters.attention_params import heads_split
from adapters.base import Unsupported, as_tuple, axes_tuple, flipped_momentum, given, stacked_rnn
from adapters.mixed import with_policy
from vocabulary.params import rnn_suffix


def _heads_second(x, jnp):
    """[B, N, T, D] (PyTorch's) <-> [B, T, N, D] (jax.nn.dot_product_attention's): one swap."""
    return jnp.swapaxes(x, 1, 2)


class JaxLayers:
    """A mixin of JaxAdapter (self.jax, self.jnp)."""

    policy = None  # the mixed mode's computation dtype while it runs (mixed)

    def mixed(self, fn):
        """fn with its flax Modules built with dtype=bfloat16 over float32 params (param_dtype),
        flax's mixed precision; jax.numpy follows its inputs."""
        return with_policy(self, "bfloat16", fn)

    def computed(self, x):
        """The dtype a Module computes in (its dtype=): x's, or the mixed mode's bfloat16."""
        return self.policy or x.dtype

    def cumsum(self, x, axis):
        return self.jnp.cumsum(x, axis=axis)

    def linear(self, x, weight, bias=None):
        import flax.linen as nn

        params = {"kernel": weight.T, **({} if bias is None else {"bias": bias})}
        dense = nn.Dense(weight.shape[0], use_bias=bias is not None, dtype=self.computed(x), param_dtype=x.dtype)
        return dense.apply({"params": params}, x)

    def gelu(self, x, approximate=None):
        if approximate is None:  # jax.nn.gelu's own default (approximate=True)
            return self.jax.nn.gelu(x)
        return self.jax.nn.gelu(x, approximate=approximate == "tanh")

    def layer_norm(self, x, weight=None, bias=None, eps=None):
        import flax.linen as nn

        params = {**({} if weight is None else {"scale": weight}), **({} if bias is None else {"bias": bias})}
        norm = nn.LayerNorm(**({} if eps is None else {"epsilon": eps}), use_scale=weight is not None,
                            use_bias=bias is not None, dtype=self.computed(x), param_dtype=x.dtype)
        return norm.apply({"params": params}, x)

    def batch_norm(self, x, running_mean=None, running_var=None, weight=None, bias=None, training=False,
                   eps=None):
        norm, variables = self._flax_batch_norm(x, running_mean, running_var, weight, bias, training, eps=eps)
        return norm.apply(variables, x, mutable=["batch_stats"])[0] if training else norm.apply(variables, x)

    def batch_norm_stats(self, x, running_mean, running_var, momentum=None):
        norm, variables = self._flax_batch_norm(x, running_mean, running_var, None, None, True, momentum=momentum)
        stats = norm.apply(variables, x, mutable=["batch_stats"])[1]["batch_stats"]
        return stats["mean"], stats["var"]

    def _flax_batch_norm(self, x, running_mean, running_var, weight, bias, training, eps=None, momentum=None):
        """flax.linen.BatchNorm over axis 1 and its variables: PyTorch's momentum m is flax's
        1 - m (the old value's weight); flax's own defaults where eps or momentum is None. Its
        batch_stats are required even in training, where the output does not read them."""
        import flax.linen as nn

        norm = nn.BatchNorm(use_running_average=not training, axis=1, use_scale=weight is not None,
                            use_bias=bias is not None, dtype=self.computed(x), param_dtype=x.dtype,
                            **given(epsilon=eps, momentum=flipped_momentum(momentum)))
        channels = x.shape[1]
        stats = {"mean": self.jnp.zeros(channels, x.dtype) if running_mean is None else running_mean,
                 "var": self.jnp.ones(channels, x.dtype) if running_var is None else running_var}
        params = {**({} if weight is None else {"scale": weight}), **({} if bias is None else {"bias": bias})}
        return norm, {"params": params, "batch_stats": stats}

    def norm(self, x, axis=None, keepdims=False):
        return self.jnp.linalg.norm(x, axis=axes_tuple(axis), keepdims=keepdims)

    def normalize(self, x, axis=-1, eps=None):
        raise Unsupported("jax.nn and flax.linen have no L2 normalize (users divide by jnp.linalg.norm)")

    def embedding(self, indices, weight, padding_idx=None):
        import flax.linen as nn

        if padding_idx is not None:
            raise Unsupported("flax.linen.Embed has no padding_idx")
        embed = nn.Embed(weight.shape[0], weight.shape[1], dtype=self.computed(weight), param_dtype=weight.dtype)
        return embed.apply({"params": {"embedding": weight}}, indices)

    def cross_entropy(self, logits, target, reduction=None, label_smoothing=None, ignore_index=None):
        import optax

        if ignore_index is not None:
            raise Unsupported("optax's softmax cross-entropy has no ignore_index (its `where` masks classes)")
        jnp = self.jnp
        if jnp.issubdtype(target.dtype, jnp.integer) and not label_smoothing:
            losses = optax.softmax_cross_entropy_with_integer_labels(logits, target)
        else:
            if jnp.issubdtype(target.dtype, jnp.integer):
                target = self.jax.nn.one_hot(target, logits.shape[-1], dtype=logits.dtype)
            if label_smoothing:
                target = optax.smooth_labels(target, label_smoothing)
            losses = optax.softmax_cross_entropy(logits, target)
        if reduction in (None, "none"):  # optax returns the per-example losses: reducing them is the user's
            return losses
        return {"mean": jnp.mean, "sum": jnp.sum}[reduction](losses)

    def dot_product_attention(self, q, k, v, mask=None, bias=None, causal=False, scale=None):
        jnp = self.jnp
        out = self.jax.nn.dot_product_attention(_heads_second(q, jnp), _heads_second(k, jnp), _heads_second(v, jnp),
                                                bias=bias, mask=mask, scale=scale, is_causal=causal)
        return _heads_second(out, jnp)

    def lstm(self, x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=True, training=True):
        # flax.linen.RNN has no training mode: `training` changes nothing there
        rnn = _flax_rnn("LSTMCell", num_layers, bidirectional, batch_first, self.policy)
        return rnn(x, None if h0 is None else (c0, h0), params)

    def gru(self, x, h0, params, num_layers=1, bidirectional=False, batch_first=True, reset_after=True,
            training=True):
        if not reset_after:
            raise Unsupported("flax.linen.GRUCell applies the reset gate after the recurrent matmul only")
        return _flax_rnn("GRUCell", num_layers, bidirectional, batch_first, self.policy)(x, h0, params)

    def multi_head_attention(self, query, key, value, params, num_heads, key_padding_mask=None, batch_first=True):
        return self._flax_multihead(query, key, value, params, num_heads, key_padding_mask, batch_first, False)

    def multi_head_attention_weights(self, query, key, value, params, num_heads, key_padding_mask=None,
                                     batch_first=True):
        return self._flax_multihead(query, key, value, params, num_heads, key_padding_mask, batch_first, True)

    def _flax_multihead(self, query, key, value, params, num_heads, key_padding_mask, batch_first, weights):
        """flax.linen.MultiHeadDotProductAttention given PyTorch's weights (heads_split); its mask
        is True where a query may attend, broadcast over heads and queries; the weights are
        sown into "intermediates" (sow_weights)."""
        import flax.linen as nn

        jnp = self.jnp
        if not batch_first:  # flax reads [B, L, E] only
            query, key, value = (jnp.swapaxes(t, 0, 1) for t in (query, key, value))
        mha = nn.MultiHeadDotProductAttention(num_heads, dtype=self.computed(query), param_dtype=query.dtype,
                                              deterministic=True)
        mask = None if key_padding_mask is None else ~key_padding_mask[:, None, None, :]
        variables = {"params": heads_split(params, num_heads, jnp)}
        out, state = mha.apply(variables, query, key, value, mask=mask, sow_weights=weights, mutable=["intermediates"])
        out = out if batch_first else jnp.swapaxes(out, 0, 1)
        return (out, state["intermediates"]["attention_weights"][0]) if weights else out

    def max_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self._flax_pool("max_pool", x, kernel, stride, padding, ceil_mode, 2)

    def avg_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self._flax_pool("avg_pool", x, kernel, stride, padding, ceil_mode, 2,
                               count_include_pad=count_include_pad)

    def max_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self._flax_pool("max_pool", x, kernel, stride, padding, ceil_mode, 1)

    def avg_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self._flax_pool("avg_pool", x, kernel, stride, padding, ceil_mode, 1,
                               count_include_pad=count_include_pad)

    def _flax_pool(self, kind, x, kernel, stride, padding, ceil_mode, spatial, **options):
        """flax.linen.max_pool / avg_pool on channels-last x; stride None is flax's default (1)."""
        import flax.linen as nn

        if ceil_mode:
            raise Unsupported(f"flax.linen.{kind} has no ceil_mode")
        pads = padding.upper() if isinstance(padding, str) else [(p, p) for p in as_tuple(padding, spatial)]
        last = (0, *range(2, 2 + spatial), 1)  # [N, C, ...] -> [N, ..., C]
        out = getattr(nn, kind)(self.jnp.transpose(x, last), as_tuple(kernel, spatial),
                                None if stride is None else as_tuple(stride, spatial), pads, **options)
        return self.jnp.transpose(out, (0, spatial + 1, *range(1, spatial + 1)))  # and back



@functools.cache
def _flax_rnn(cell: str, num_layers: int, bidirectional: bool, batch_first: bool, computed: str | None = None):
    """A jitted stack of flax.linen.RNN(LSTMCell or GRUCell) layers for one configuration: flax's
    scan is traced anew on every eager call (about a second), a jitted function once per shape.
    The initial carry: LSTMCell's (c0, h0), GRUCell's h0; None is flax's zero carry. Returns
    (output, h_n, c_n) or (output, h_n), the final states stacked as PyTorch's. `computed`: the
    cells' dtype (the mixed mode's), None for the inputs'."""
    import flax.linen as nn  # part of the jax requirements; only the recurrent layers need it
    import jax
    import jax.numpy as jnp

    def forward(x, initial, params):
        hidden = params["weight_hh_l0"].shape[1]
        seq = x if batch_first else jnp.swapaxes(x, 0, 1)  # nn.RNN scans axis 1

        def direction(seq, layer, d, k):
            rnn = nn.RNN(getattr(nn, cell)(hidden, dtype=computed or x.dtype, param_dtype=x.dtype), return_carry=True,
                         reverse=bool(d), keep_order=True)
            weights = FLAX_WEIGHTS[cell](params, rnn_suffix(layer, d))
            carry = None if initial is None else jax.tree.map(lambda s: s[k], initial)
            final, out = rnn.apply({"params": {"cell": weights}}, seq, initial_carry=carry)
            return (out, final[1], final[0]) if cell == "LSTMCell" else (out, final)  # (c, h) -> h, c

        seq, *finals = stacked_rnn(seq, num_layers, bidirectional, direction,
                                   lambda outs: jnp.concatenate(outs, axis=-1))
        return ((seq if batch_first else jnp.swapaxes(seq, 0, 1)), *(jnp.stack(f) for f in finals))

    return jax.jit(forward)


def _one_direction(params: dict, suffix: str):
    """One direction's PyTorch weights: w_ih, w_hh, b_ih, b_hh and the row slice of gate block q."""
    w_ih, w_hh, b_ih, b_hh = (params[f"{name}{suffix}"] for name in ("weight_ih", "weight_hh", "bias_ih", "bias_hh"))
    hidden = w_hh.shape[1]
    return w_ih, w_hh, b_ih, b_hh, lambda q: slice(q * hidden, (q + 1) * hidden)


def flax_lstm_params(params: dict, suffix: str) -> dict:
    """PyTorch's LSTM weights (gates i, f, g, o) as flax.linen.LSTMCell's: a Dense per gate, "i?"
    on the input (no bias) and "h?" on the state, kernels transposed, and the two PyTorch biases
    summed into the "h?" bias (flax has one)."""
    w_ih, w_hh, b_ih, b_hh, block = _one_direction(params, suffix)
    cell = {}
    for q, gate in enumerate("ifgo"):
        cell[f"i{gate}"] = {"kernel": w_ih[block(q)].T}
        cell[f"h{gate}"] = {"kernel": w_hh[block(q)].T, "bias": b_ih[block(q)] + b_hh[block(q)]}
    return cell


def flax_gru_params(params: dict, suffix: str) -> dict:
    """PyTorch's GRU weights (gates r, z, n) as flax.linen.GRUCell's: a Dense per gate, kernels
    transposed; r and z have one bias, on the input Dense (b_i? + b_h?); n keeps PyTorch's two,
    b_in on "in" and b_hn on "hn", which GRUCell applies inside r * (W_hn h + b_hn) as PyTorch does."""
    w_ih, w_hh, b_ih, b_hh, block = _one_direction(params, suffix)
    cell = {}
    for q, gate in enumerate("rzn"):
        summed = gate != "n"
        cell[f"i{gate}"] = {"kernel": w_ih[block(q)].T, "bias": b_ih[block(q)] + b_hh[block(q)] if summed
                            else b_ih[block(q)]}
        cell[f"h{gate}"] = {"kernel": w_hh[block(q)].T, **({} if summed else {"bias": b_hh[block(q)]})}
    return cell


FLAX_WEIGHTS = {"LSTMCell": flax_lstm_params, "GRUCell": flax_gru_params}

