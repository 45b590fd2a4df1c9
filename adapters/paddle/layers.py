"""The paddle adapter's layer ops: paddle.nn.functional and paddle.nn's layers, with Paddle's own
defaults. Where the vocabulary's layout is PyTorch's and Paddle's differs (a Linear weight is
[in, out]; scaled_dot_product_attention takes [B, T, N, D]), the tensors are converted, never the
math."""
from adapters.base import Unsupported, flipped_momentum, given
from vocabulary.params import rnn_suffix


class PaddleLayers:
    """A mixin of PaddleAdapter (self.paddle, self.F)."""

    def cumsum(self, x, axis):
        return self.paddle.cumsum(x, axis=axis)

    def linear(self, x, weight, bias=None):
        return self.F.linear(x, weight.T, bias)  # Paddle's weight is [in, out]

    def gelu(self, x, approximate="none"):
        return self.F.gelu(x, approximate=approximate == "tanh")

    def layer_norm(self, x, weight=None, bias=None, eps=1e-5):
        return self.F.layer_norm(x, x.shape[-1:], weight, bias, eps)

    def batch_norm(self, x, running_mean=None, running_var=None, weight=None, bias=None, training=False, eps=1e-5):
        # F.batch_norm updates the running statistics in place in training: they are the caller's
        # inputs, so it gets copies (of the inputs themselves: inside to_static a copy of
        # detach()'s result still writes through to the input, repro/to_static_detach_aliases.py);
        # without them a training step still needs buffers to update (paddle.nn.BatchNorm's, zeros
        # and ones), which the batch statistics it uses ignore
        mean, var = (None if s is None else self.paddle.assign(s) for s in (running_mean, running_var))
        if training and mean is None and var is None:
            channels = [x.shape[1]]
            mean, var = self.paddle.zeros(channels, x.dtype), self.paddle.ones(channels, x.dtype)
        return self.F.batch_norm(x, mean, var, weight, bias, training=training, epsilon=eps)

    def batch_norm_stats(self, x, running_mean, running_var, momentum=None):
        mean, var = self.paddle.assign(running_mean), self.paddle.assign(running_var)  # copies (see batch_norm)
        # Paddle's momentum is the old value's weight (0.9 by default)
        self.F.batch_norm(x.detach(), mean, var, training=True, **given(momentum=flipped_momentum(momentum)))
        return mean, var  # updated in place, as a BatchNorm layer's buffers are

    def norm(self, x, axis=None, keepdims=False):
        return self.paddle.linalg.vector_norm(x, 2, axis=axis, keepdim=keepdims)

    def normalize(self, x, axis=None, eps=1e-12):
        return self.F.normalize(x, 2, epsilon=eps) if axis is None else self.F.normalize(x, 2, axis=axis, epsilon=eps)

    def embedding(self, indices, weight, padding_idx=None):
        return self.F.embedding(indices, weight, padding_idx)

    def cross_entropy(self, logits, target, reduction="mean", label_smoothing=0.0, ignore_index=None):
        soft = target.dtype == logits.dtype  # probabilities, not class indices
        # no class ignored is Paddle's default ignore_index, -100 (no class index is negative)
        return self.F.cross_entropy(logits, target, ignore_index=-100 if ignore_index is None else ignore_index,
                                    reduction=reduction, soft_label=soft, label_smoothing=label_smoothing)

    def dot_product_attention(self, q, k, v, mask=None, bias=None, causal=False, scale=None):
        if mask is not None and bias is not None:
            raise Unsupported("paddle's scaled_dot_product_attention takes one attn_mask: a bool mask or a bias")
        order = [0, 2, 1, 3]  # Paddle's layout is [B, T, N, D]
        out = self.F.scaled_dot_product_attention(
            q.transpose(order), k.transpose(order), v.transpose(order), attn_mask=bias if mask is None else mask,
            is_causal=causal, training=False, scale=scale)
        return out.transpose(order)

    # Paddle's MultiHeadAttention reads [B, L, E] only: batch first is its default (and only) layout
    def multi_head_attention(self, query, key, value, params, num_heads, key_padding_mask=None, batch_first=True):
        return self._multihead(query, key, value, params, num_heads, key_padding_mask, batch_first, False)

    def multi_head_attention_weights(self, query, key, value, params, num_heads, key_padding_mask=None,
                                     batch_first=True):
        return self._multihead(query, key, value, params, num_heads, key_padding_mask, batch_first, True)

    def _multihead(self, query, key, value, params, num_heads, key_padding_mask, batch_first, need_weights):
        """paddle.nn.MultiHeadAttention (batch first, its only layout) with the given tensors in
        place of its projections' parameters; PyTorch's in_proj rows are Paddle's q, k, v weights,
        transposed ([in, out])."""
        embed = query.shape[-1]
        layer = self.paddle.nn.MultiHeadAttention(embed, num_heads, need_weights=need_weights)
        for part, name in enumerate(("q_proj", "k_proj", "v_proj")):
            rows = slice(part * embed, (part + 1) * embed)
            _put(getattr(layer, name), params["in_proj_weight"][rows].T, params["in_proj_bias"][rows])
        _put(layer.out_proj, params["out_proj.weight"].T, params["out_proj.bias"])
        if not batch_first:
            query, key, value = (t.transpose([1, 0, 2]) for t in (query, key, value))
        mask = None if key_padding_mask is None else ~key_padding_mask[:, None, None, :]  # True: attend
        out = layer(query, key, value, attn_mask=mask)
        out, weights = out if need_weights else (out, None)
        if not batch_first:
            out = out.transpose([1, 0, 2])
        return (out, weights) if need_weights else out

    def max_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self.F.max_pool2d(x, kernel, stride, _padding(padding), ceil_mode=ceil_mode)

    def avg_pool2d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self.F.avg_pool2d(x, kernel, stride, _padding(padding), ceil_mode, exclusive=not count_include_pad)

    def max_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False):
        return self.F.max_pool1d(x, kernel, stride, _padding(padding), ceil_mode=ceil_mode)

    def avg_pool1d(self, x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
        return self.F.avg_pool1d(x, kernel, stride, _padding(padding), exclusive=not count_include_pad,
                                 ceil_mode=ceil_mode)

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        return self.F.conv1d(x, w, b, stride, _padding(padding), dilation, groups)

    def conv2d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        return self.F.conv2d(x, w, b, stride, _padding(padding), dilation, groups)

    def pad(self, x, pad_width, mode="constant", value=0):
        if mode == "constant":  # every axis's (before, after), from the first axis on (pad_from_left_axis)
            return self.F.pad(x, [int(v) for before_after in pad_width for v in before_after], value=value)
        if mode not in ("reflect", "replicate"):
            raise Unsupported(f"paddle.nn.functional.pad has no {mode!r} mode")
        # the other modes pad the spatial axes of an NCL, NCHW or NCDHW input, listed from the last
        # axis backwards (as torch's F.pad): the axes from the first padded one on, as a user writes
        # them; Paddle then decides which ranks it takes
        padded = [d for d, w in enumerate(pad_width) if any(w)]
        first = min(padded, default=max(x.ndim - 1, 0))
        flat = [int(v) for before_after in reversed(pad_width[first:]) for v in before_after]
        return self.F.pad(x, flat, mode=mode)

    def pad_sequences(self, seqs, value=0, side="post", max_len=None, truncate="post", batch_first=True):
        # Paddle has no pad_sequences: each sequence is cut to max_len and padded with F.pad
        length = max_len if max_len is not None else max(s.shape[0] for s in seqs)
        rows = []
        for s in seqs:
            s = s[:length] if truncate == "post" else s[max(s.shape[0] - length, 0):]
            width = [0, length - s.shape[0]] if side == "post" else [length - s.shape[0], 0]
            rows.append(self.F.pad(s, width + [0, 0] * (s.ndim - 1), value=value))
        return self.paddle.stack(rows, axis=0 if batch_first else 1)

    # paddle.nn.LSTM and GRU default to time_major=False: batch first
    def lstm(self, x, h0, c0, params, num_layers=1, bidirectional=False, batch_first=True, training=True):
        layer = self._rnn("LSTM", x, params, num_layers, bidirectional, batch_first, training)
        out, (h, c) = layer(x, None if h0 is None else (h0, c0))
        return out, h, c

    def gru(self, x, h0, params, num_layers=1, bidirectional=False, batch_first=True, reset_after=True,
            training=True):
        if not reset_after:
            raise Unsupported("paddle.nn.GRU applies the reset gate after the recurrent matmul only (reset_after)")
        return self._rnn("GRU", x, params, num_layers, bidirectional, batch_first, training)(x, h0)

    def _rnn(self, kind, x, params, num_layers, bidirectional, batch_first, training=True):
        """paddle.nn.LSTM or GRU (PyTorch's parameter names and gate order) running on the given
        tensors: its fused kernel reads `_all_weights` (every weight, then every bias: the order
        flatten_parameters builds), set here to them so that paddle.grad reaches them."""
        input_size, hidden = params["weight_ih_l0"].shape[1], params["weight_hh_l0"].shape[1]
        layer = getattr(self.paddle.nn, kind)(input_size, hidden, num_layers,
                                              direction="bidirect" if bidirectional else "forward",
                                              time_major=not batch_first)
        directions = 2 if bidirectional else 1
        suffixes = [rnn_suffix(layer_, d) for layer_ in range(num_layers) for d in range(directions)]
        layer._all_weights = ([params[f"weight_{p}{s}"] for s in suffixes for p in ("ih", "hh")]
                              + [params[f"bias_{p}{s}"] for s in suffixes for p in ("ih", "hh")])
        layer.train() if training else layer.eval()
        return layer


def _put(linear, weight, bias):
    """A paddle.nn.Linear computing with these tensors (the parameter entries set to them)."""
    linear._parameters["weight"], linear._parameters["bias"] = weight, bias


def _padding(padding):
    """A convolution's or pooling's padding as Paddle takes it: ints, 'valid' or 'same' (Paddle's
    own strings)."""
    return padding.upper() if isinstance(padding, str) else padding
