"""Layers: Module (parameters registered on attribute assignment, a state_dict in PyTorch
names), Linear, LSTM, Conv1d and Conv2d, and the functional conv1d / conv2d they use (lstm and
gru live in engine/recurrent.py, and are reached here too).

Convolutions are vectorised: unfold gathers every receptive field with stride tricks (the only
Python loop is over kernel offsets, in its backward), channels split across threads
(engine/parallel.py), then one grouped matmul does the rest.
"""
import numpy as np

from engine import ops, parallel
from engine.layers import linear
from engine.recurrent import gru, lstm  # noqa: F401 (gru: engine.nn's, beside lstm, as docs/engine.md lists them)
from engine.sequence import pad
from engine.tensor import Tensor


class Module:
    """Tensors that require grad and sub-Modules assigned as attributes are registered in
    assignment order, so state_dict() names follow PyTorch's (`layer.weight`, `weight_ih_l0`)."""

    def __init__(self):
        object.__setattr__(self, "_parameters", {})
        object.__setattr__(self, "_modules", {})

    def __setattr__(self, name, value):
        if isinstance(value, Tensor) and value.requires_grad:
            self._parameters[name] = value
        elif isinstance(value, Module):
            self._modules[name] = value
        object.__setattr__(self, name, value)

    def named_parameters(self, prefix=""):
        for name, p in self._parameters.items():
            yield prefix + name, p
        for name, m in self._modules.items():
            yield from m.named_parameters(f"{prefix}{name}.")

    def parameters(self):
        return [p for _, p in self.named_parameters()]

    def state_dict(self) -> dict:
        return {name: p.data.copy() for name, p in self.named_parameters()}

    def load_state_dict(self, state: dict) -> None:
        params = dict(self.named_parameters())
        if set(state) != set(params):
            raise KeyError(f"state_dict keys differ: missing {sorted(set(params) - set(state))}, "
                           f"unexpected {sorted(set(state) - set(params))}")
        for name, value in state.items():
            value = np.asarray(value, dtype=params[name].dtype)
            if value.shape != params[name].shape:
                raise ValueError(f"{name}: shape {value.shape}, expected {params[name].shape}")
            params[name].data = value.copy()

    def zero_grad(self) -> None:
        for p in self.parameters():
            p.grad = None

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


def _uniform(rng, shape, bound, dtype):
    """PyTorch's default init for Linear, LSTM and Conv: U(-1/sqrt(fan_in), 1/sqrt(fan_in))."""
    return Tensor(rng.uniform(-bound, bound, shape).astype(dtype), requires_grad=True)


class Linear(Module):
    def __init__(self, in_features, out_features, bias=True, dtype="float32", rng=None):
        super().__init__()
        rng = rng or np.random.default_rng()
        bound = 1 / np.sqrt(in_features)
        self.weight = _uniform(rng, (out_features, in_features), bound, dtype)
        self.bias = _uniform(rng, (out_features,), bound, dtype) if bias else None

    def forward(self, x):
        return linear(x, self.weight, self.bias)


class LSTM(Module):
    """torch.nn.LSTM's interface: LSTM(input_size, hidden_size, num_layers, bidirectional,
    batch_first); forward(x, (h0, c0)) -> output, (h_n, c_n); zero states when none are given."""

    def __init__(self, input_size, hidden_size, num_layers=1, bidirectional=False, batch_first=False,
                 dtype="float32", rng=None):
        super().__init__()
        rng = rng or np.random.default_rng()
        self.hidden_size, self.num_layers = hidden_size, num_layers
        self.bidirectional, self.batch_first = bidirectional, batch_first
        directions = 2 if bidirectional else 1
        bound = 1 / np.sqrt(hidden_size)
        for layer in range(num_layers):
            in_size = input_size if layer == 0 else hidden_size * directions
            for suffix in [f"_l{layer}"] + ([f"_l{layer}_reverse"] if bidirectional else []):
                setattr(self, f"weight_ih{suffix}", _uniform(rng, (4 * hidden_size, in_size), bound, dtype))
                setattr(self, f"weight_hh{suffix}", _uniform(rng, (4 * hidden_size, hidden_size), bound, dtype))
                setattr(self, f"bias_ih{suffix}", _uniform(rng, (4 * hidden_size,), bound, dtype))
                setattr(self, f"bias_hh{suffix}", _uniform(rng, (4 * hidden_size,), bound, dtype))

    def forward(self, x, state=None):
        h0, c0 = (None, None) if state is None else (ops.tensor(state[0]), ops.tensor(state[1]))
        output, h_n, c_n = lstm(x, h0, c0, dict(self.named_parameters()), self.num_layers, self.bidirectional,
                                self.batch_first)
        return output, (h_n, c_n)


# -- convolution --------------------------------------------------------------------------------

def unfold(x, kernel, stride, dilation):
    """Every receptive field of x [B, C, H, W] as patches [C, kh, kw, B, OH, OW]: a strided
    view copied once, laid out so that the convolution is one matmul with the batch folded into
    its columns. The backward adds each kernel offset's gradient back in one slice."""
    x = ops.tensor(x)
    (kh, kw), (sh, sw), (dh, dw) = kernel, stride, dilation
    batch, channels, height, width = x.shape
    oh, ow = (height - dh * (kh - 1) - 1) // sh + 1, (width - dw * (kw - 1) - 1) // sw + 1
    if oh <= 0 or ow <= 0:
        raise ValueError(f"the kernel {kernel} with dilation {dilation} does not fit the padded input "
                         f"{(height, width)}")
    s = x.data.strides
    patches = np.lib.stride_tricks.as_strided(
        x.data, (channels, kh, kw, batch, oh, ow), (s[1], dh * s[2], dw * s[3], s[0], sh * s[2], sw * s[3]))
    cols = np.empty(patches.shape, x.dtype)
    parallel.over(channels, lambda a, b: np.copyto(cols[a:b], patches[a:b]))  # channels apart, on every core

    def backward(g):
        gx = np.zeros(x.shape, g.dtype)

        def add(a, b):  # channels a..b of every kernel offset's gradient, back where its patch came from
            for i in range(kh):
                for j in range(kw):
                    gx[:, a:b, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw] += \
                        g[a:b, i, j].transpose(1, 0, 2, 3)

        parallel.over(channels, add)
        return (gx,)

    return Tensor.record(cols, (x,), backward, "unfold")


def _pair(v, name):
    v = (v, v) if isinstance(v, int) else tuple(v)
    if len(v) != 2 or any(not isinstance(n, (int, np.integer)) for n in v):
        raise ValueError(f"{name} takes an int or a pair of ints. Received: {v!r}")
    return v


def _padding(padding, kernel, stride, dilation):
    """[(top, bottom), (left, right)]. "same" pads d*(k-1) in all, the odd one at the end (as
    PyTorch and TensorFlow); it needs stride 1, as in PyTorch."""
    if padding == "valid":
        return [(0, 0), (0, 0)]
    if padding == "same":
        if stride != (1, 1):
            raise ValueError("padding='same' needs stride 1")
        totals = [d * (k - 1) for k, d in zip(kernel, dilation)]
        return [(t // 2, t - t // 2) for t in totals]
    if isinstance(padding, str):
        raise ValueError(f"padding takes an int, a pair, 'same' or 'valid'. Received: {padding!r}")
    ph, pw = _pair(padding, "padding")
    if ph < 0 or pw < 0:
        raise ValueError(f"padding must be non-negative. Received: {padding!r}")
    return [(ph, ph), (pw, pw)]


def conv2d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """torch.nn.functional.conv2d: x [B, C, H, W], w [O, C/groups, kh, kw] -> [B, O, OH, OW]."""
    x, w = ops.tensor(x), ops.tensor(w)
    stride, dilation = _pair(stride, "stride"), _pair(dilation, "dilation")
    if x.ndim != 4 or w.ndim != 4:
        raise ValueError(f"conv2d needs x [B, C, H, W] and w [O, C/groups, kh, kw]. Received: {x.shape}, {w.shape}")
    out_channels, group_in, kh, kw = w.shape
    if groups < 1 or x.shape[1] != group_in * groups or out_channels % groups:
        raise ValueError(f"channels do not split into {groups} groups: x has {x.shape[1]}, w is {w.shape}")
    if min(stride) < 1 or min(dilation) < 1:
        raise ValueError(f"stride and dilation must be positive. Received: {stride}, {dilation}")
    pads = _padding(padding, (kh, kw), stride, dilation)
    if any(pads[0] + pads[1]):
        x = pad(x, [(0, 0), (0, 0), *pads])
    patches = unfold(x, (kh, kw), stride, dilation)  # [C, kh, kw, B, OH, OW]
    _, _, _, batch, oh, ow = patches.shape
    cols = ops.reshape(patches, (groups, group_in * kh * kw, batch * oh * ow))
    kernels = ops.reshape(w, (groups, out_channels // groups, group_in * kh * kw))
    out = ops.reshape(ops.matmul(kernels, cols), (out_channels, batch, oh, ow))  # one matmul per group
    out = ops.transpose(out, (1, 0, 2, 3))
    return out if b is None else out + ops.reshape(ops.tensor(b), (1, out_channels, 1, 1))


def conv1d(x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
    """torch.nn.functional.conv1d, as conv2d over a height of 1: x [B, C, T], w [O, C/groups, k]."""
    x, w = ops.tensor(x), ops.tensor(w)
    if x.ndim != 3 or w.ndim != 3:
        raise ValueError(f"conv1d needs x [B, C, T] and w [O, C/groups, k]. Received: {x.shape}, {w.shape}")

    def lift(v, fill):
        return v if isinstance(v, str) else (fill, v if isinstance(v, int) else v[0])

    out = conv2d(ops.reshape(x, (x.shape[0], x.shape[1], 1, x.shape[2])),
                 ops.reshape(w, (w.shape[0], w.shape[1], 1, w.shape[2])), b,
                 lift(stride, 1), lift(padding, 0), lift(dilation, 1), groups)
    return ops.reshape(out, (out.shape[0], out.shape[1], out.shape[3]))


class Conv2d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, dtype="float32", rng=None):
        super().__init__()
        rng = rng or np.random.default_rng()
        kh, kw = _pair(kernel_size, "kernel_size")
        bound = 1 / np.sqrt(in_channels // groups * kh * kw)
        self.weight = _uniform(rng, (out_channels, in_channels // groups, kh, kw), bound, dtype)
        self.bias = _uniform(rng, (out_channels,), bound, dtype) if bias else None
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups

    def forward(self, x):
        return conv2d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)


class Conv1d(Module):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, dtype="float32", rng=None):
        super().__init__()
        rng = rng or np.random.default_rng()
        bound = 1 / np.sqrt(in_channels // groups * kernel_size)
        self.weight = _uniform(rng, (out_channels, in_channels // groups, kernel_size), bound, dtype)
        self.bias = _uniform(rng, (out_channels,), bound, dtype) if bias else None
        self.stride, self.padding, self.dilation, self.groups = stride, padding, dilation, groups

    def forward(self, x):
        return conv1d(x, self.weight, self.bias, self.stride, self.padding, self.dilation, self.groups)
