"""Layers: Module (parameters registered on attribute assignment, a state_dict in PyTorch
names), Linear, LSTM, Conv1d and Conv2d, and the functional conv1d / conv2d / lstm / gru they use.

Convolutions are vectorised: unfold gathers every receptive field with stride tricks (the only
Python loop is over kernel offsets, in its backward), channels split across threads
(engine/parallel.py), then one grouped matmul does the rest.
"""
import functools

import numpy as np

from engine import ops, parallel
from engine.layers import linear
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


# -- LSTM ---------------------------------------------------------------------------------------

def lstm(x, h0, c0, params: dict, num_layers=1, bidirectional=False, batch_first=True):
    """torch.nn.LSTM's computation with its parameter names and layout (gate order i, f, g, o;
    two biases). x [B, T, I] (batch_first) or [T, B, I]; h0, c0 [D*L, B, H], or None for zeros.
    Returns output [B, T, D*H] (or [T, B, D*H]), h_n and c_n [D*L, B, H]."""
    return _stacked(x, (h0, c0), params, num_layers, bidirectional, batch_first, _lstm_direction)


def gru(x, h0, params: dict, num_layers=1, bidirectional=False, batch_first=True, reset_after=True):
    """torch.nn.GRU's computation (gate blocks r, z, n; two biases, b_hn inside the reset gate's
    product); reset_after=False resets the state before the recurrent matmul (Keras' other
    convention). Returns output and h_n, laid out as lstm's."""
    return _stacked(x, (h0,), params, num_layers, bidirectional, batch_first,
                    functools.partial(_gru_direction, reset_after=reset_after))


def _stacked(x, initial: tuple, params: dict, num_layers, bidirectional, batch_first, direction):
    """torch's stacking of recurrent layers: layer l + 1 reads layer l's outputs, both directions
    side by side; the initial states (None: zeros) and the final ones are indexed layer * D +
    direction. direction(seq, *states, w_ih, w_hh, b_ih, b_hh, reverse) -> (out, *final states)."""
    x = ops.tensor(x)
    seq = ops.transpose(x, (1, 0, 2)) if batch_first else x  # time first
    directions = 2 if bidirectional else 1
    if initial[0] is None:  # zeros, as torch's recurrent layers without a state
        zeros = Tensor(np.zeros((num_layers * directions, seq.shape[1], params["weight_hh_l0"].shape[1]), x.dtype))
        initial = (zeros,) * len(initial)
    initial = tuple(ops.tensor(s) for s in initial)
    finals = []
    for layer in range(num_layers):
        outputs = []
        for d in range(directions):
            suffix = f"_l{layer}" + ("_reverse" if d else "")
            k = layer * directions + d
            out, *states = direction(seq, *(s[k] for s in initial), *(ops.tensor(params[f"{w}{suffix}"]) for w in
                                     ("weight_ih", "weight_hh", "bias_ih", "bias_hh")), reverse=bool(d))
            outputs.append(out)
            finals.append(states)
        seq = outputs[0] if directions == 1 else ops.concat(outputs, 2)
    output = ops.transpose(seq, (1, 0, 2)) if batch_first else seq
    return (output, *(ops.stack(list(kind), 0) for kind in zip(*finals)))


def _gru_direction(seq, h, w_ih, w_hh, b_ih, b_hh, reverse, reset_after=True):
    """One GRU direction over [T, B, I] -> (output [T, B, H], h_T), composed of the tape's ops
    (every step's input projection in one matmul); h' = n + z (h - n), which is (1 - z) n + z h."""
    hidden = w_hh.shape[1]
    gate, reset = slice(0, 2 * hidden), slice(2 * hidden, 3 * hidden)
    inputs = linear(seq, w_ih, b_ih)  # [T, B, 3H]
    if not reset_after:  # the r, z rows and the n rows apart, sliced once rather than at every step
        w_rz, b_rz, w_n, b_n = w_hh[gate], b_hh[gate], w_hh[reset], b_hh[reset]
    steps = range(seq.shape[0] - 1, -1, -1) if reverse else range(seq.shape[0])
    outputs = [None] * seq.shape[0]
    for t in steps:
        step = inputs[t]
        recurrent = linear(h, w_hh, b_hh) if reset_after else linear(h, w_rz, b_rz)
        rz = ops.sigmoid(step[:, gate] + recurrent[:, gate])
        r, z = rz[:, :hidden], rz[:, hidden:]
        if reset_after:
            n = ops.tanh(step[:, reset] + r * recurrent[:, reset])
        else:
            n = ops.tanh(step[:, reset] + linear(r * h, w_n, b_n))
        h = n + z * (h - n)
        outputs[t] = h
    return ops.stack(outputs, 0), h


def _lstm_direction(seq, h, c, w_ih, w_hh, b_ih, b_hh, reverse):
    """One LSTM direction over [T, B, I] -> (output [T, B, H], h_T, c_T)."""
    hs, c_last = lstm_scan(seq, h, c, w_ih, w_hh, b_ih, b_hh, reverse)
    return hs, hs[0 if reverse else -1], c_last


def _scan_rows(hidden: int) -> np.ndarray:
    """torch's gate rows (i, f, g, o) in the order the scan computes them, (i, f, o, g): the
    three logistic gates side by side, then the tanh one."""
    return np.r_[0:2 * hidden, 3 * hidden:4 * hidden, 2 * hidden:3 * hidden]


def lstm_scan(seq, h0, c0, w_ih, w_hh, b_ih, b_hh, reverse=False):
    """One LSTM direction as one primitive (gate order i, f, g, o; two biases) -> (h_t for every
    step [T, B, H] in time order, the last step's cell state [B, H]); `reverse` runs the
    recurrence from the last step to the first. Its backward keeps only what it needs, as
    PyTorch's fused kernel does: the activated gates [T, B, 4H] (written over the input
    projection, computed for all steps in one matmul, then over their own gradients) and the
    states. The cell state is a second output, recorded as a child of the first that hands its
    gradient to the scan's backward, so that the gradient reaching the scan is [T, B, H], not
    the cell states' too.

    What makes it fast (docs/engine.md): the weights are copied once per call, transposed and
    contiguous, their rows in (i, f, o, g) order with the logistic gates' rows negated (exact), so
    that a step's logistics are one exp, add and reciprocal, 1 / (1 + exp(-z)) (exp overflows to
    inf below z = -88 and the gate to 0, as it should); each step lays its gates out gate by gate
    ([4, B, H], in the buffer of its pre-activations [B, 4H]), so that every elementwise op runs
    on contiguous blocks (NumPy took 2 to 6 times as long on the strided column blocks); and the
    weights' gradients are one GEMM each over all steps."""
    seq, h0, c0, w_ih, w_hh, b_ih, b_hh = (ops.tensor(v) for v in (seq, h0, c0, w_ih, w_hh, b_ih, b_hh))
    steps, batch, features = seq.shape
    hidden = w_hh.shape[1]
    rows = _scan_rows(hidden)
    sign = np.where(np.arange(4 * hidden) < 3 * hidden, -1, 1).astype(seq.dtype)
    w_in = np.ascontiguousarray((w_ih.data[rows] * sign[:, None]).T)  # [I, 4H]
    w_rec = np.ascontiguousarray((w_hh.data[rows] * sign[:, None]).T)  # [H, 4H]
    gates = seq.data.reshape(-1, features) @ w_in  # [T B, 4H]
    gates += (b_ih.data + b_hh.data)[rows] * sign  # the pre-activations, negated for the logistic gates
    gates = gates.reshape(steps, batch * 4 * hidden)  # step t's block: [B, 4H] rows, then [4, B, H] gates
    hs, cells = np.empty((steps, batch, hidden), seq.dtype), np.empty((steps, batch, hidden), seq.dtype)
    order = range(steps - 1, -1, -1) if reverse else range(steps)
    h, c = h0.data, c0.data
    with np.errstate(over="ignore"):
        for t in order:
            pre = h @ w_rec
            pre += gates[t].reshape(batch, 4 * hidden)
            act = gates[t].reshape(4, batch, hidden)
            np.copyto(act, pre.reshape(batch, 4, hidden).transpose(1, 0, 2))
            np.exp(act[:3], out=act[:3])
            act[:3] += 1
            np.reciprocal(act[:3], out=act[:3])
            np.tanh(act[3], out=act[3])
            i, f, o, g = act
            np.multiply(f, c, out=cells[t])
            h, c = hs[t], cells[t]
            c += i * g
            np.tanh(c, out=h)
            h *= o
    d_c_last = []  # the cell state's gradient, handed over by its output's backward

    def backward(grad):
        dh, dc = np.zeros_like(h0.data), (d_c_last[0] if d_c_last else np.zeros_like(c0.data)).copy()
        ordered = list(order)
        d_pre = np.empty((batch, 4, hidden), seq.dtype)
        for n in range(steps - 1, -1, -1):
            t = ordered[n]
            act = gates[t].reshape(4, batch, hidden)
            _lstm_step_backward(act, cells[t], c0.data if n == 0 else cells[ordered[n - 1]], dh, dc, grad[t])
            for k, gate in enumerate((0, 1, 3, 2)):  # back in torch's order (i, f, g, o), in rows
                d_pre[:, k] = act[gate]
            gates[t] = d_pre.reshape(-1)  # step t's gates are spent: their buffer now holds d(pre-activation)
            dh = d_pre.reshape(batch, 4 * hidden) @ w_hh.data
        flat = gates.reshape(-1, 4 * hidden)  # the backward runs once (the graph is freed after it): ours
        later = flat[:-batch] if reverse else flat[batch:]
        first = flat[-batch:] if reverse else flat[:batch]
        before = hs[1:] if reverse else hs[:-1]  # h_(t-1) of each later step
        d_w_hh = later.T @ before.reshape(-1, hidden) + first.T @ h0.data
        d_w_ih = sum(flat[k * batch:(k + 8) * batch].T @ seq.data[k:k + 8].reshape(-1, features)
                     for k in range(0, steps, 8))  # 8 steps at a time: seq is often a transposed view
        d_b = flat.sum(axis=0)
        return (flat @ w_ih.data).reshape(steps, batch, features), dh, dc, d_w_ih, d_w_hh, d_b, d_b

    out = Tensor.record(hs, (seq, h0, c0, w_ih, w_hh, b_ih, b_hh), backward, "lstm_scan")
    last = 0 if reverse else -1
    return out, Tensor.record(cells[last], (out,), lambda g: _hand_over(g, d_c_last, hs), "lstm_scan_cell")


def _hand_over(g, cell, hs):
    """The last cell state's gradient, kept for the scan's backward (which runs next: the cell is
    the scan output's child); the scan output gets a zero of no memory, so that its backward runs
    when only the cell state is used."""
    cell.append(g)
    return (np.broadcast_to(np.zeros((), hs.dtype), hs.shape),)


def _lstm_step_backward(act, c, c_prev, dh, dc, grad_h):
    """One step of the LSTM's reverse pass, in place: dh (from the later step) takes this step's
    output gradient; `act`, the activated gates [4, B, H] (i, f, o, g), becomes d(pre-activation);
    dc becomes d c_(t-1). Each gate is read before its block is written."""
    i, f, o, g = act
    dh += grad_h
    tanh_c = np.tanh(c)
    d_o = dh * tanh_c
    np.multiply(tanh_c, tanh_c, out=tanh_c)
    np.subtract(1, tanh_c, out=tanh_c)
    tanh_c *= o
    tanh_c *= dh
    dc += tanh_c  # d c_t = dc + dh o (1 - tanh(c_t)^2)
    d_i, d_g = dc * g, dc * i
    np.multiply(g, g, out=g)
    np.subtract(1, g, out=g)
    g *= d_g  # dc i (1 - g^2)
    d_i *= i
    np.subtract(1, i, out=i)
    i *= d_i  # dc g i (1 - i)
    d_f = dc * c_prev
    d_f *= f
    dc *= f  # d c_(t-1)
    np.subtract(1, f, out=f)
    f *= d_f  # dc c_(t-1) f (1 - f)
    d_o *= o
    np.subtract(1, o, out=o)
    o *= d_o  # dh tanh(c_t) o (1 - o)


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
