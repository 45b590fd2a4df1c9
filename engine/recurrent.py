"""Recurrent layers as functions in torch.nn.LSTM / GRU's parameter names and layouts: lstm and
gru stack layers and directions (_stacked); an LSTM direction is one primitive, lstm_scan, whose
backward keeps only the gates and the states (docs/engine.md says what makes it fast); a GRU
direction is composed of the tape's ops."""
import functools

import numpy as np

from engine import ops
from engine.layers import linear
from engine.tensor import Tensor


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
