"""Max and average pooling with torch.nn.functional's semantics (kernel, stride, padding,
ceil_mode, count_include_pad) and TensorFlow's SAME padding, on [N, C, H, W] (1-d pooling runs
over a height of 1).

Windows are a strided view of x padded far enough for every window (-inf for max, 0 for
average); the backward adds each kernel offset's share back in one strided slice, so the only
Python loop is over kernel offsets.
"""
import numpy as np

from engine import ops
from engine.tensor import Tensor


def _axis(length, kernel, stride, padding, ceil_mode):
    """One spatial axis: (output count, padding before, padding after, divisor per output with
    the padding counted, divisor per output without it)."""
    if padding == "same":
        count = -(-length // stride)
        before = max((count - 1) * stride + kernel - length, 0) // 2
        limit = length  # SAME counts no padding
    else:
        before = 0 if padding == "valid" else int(padding)
        span = length + 2 * before - kernel
        if span < 0:
            raise ValueError(f"pooling: kernel {kernel} is larger than the padded input {length + 2 * before}")
        count = (-(-span // stride) if ceil_mode else span // stride) + 1
        if ceil_mode and (count - 1) * stride >= length + before:
            count -= 1
        limit = length + before
    starts = np.arange(count) * stride - before
    with_pad = np.minimum(starts + kernel, limit) - starts
    inside = np.minimum(starts + kernel, length) - np.maximum(starts, 0)
    after = max((count - 1) * stride + kernel - length - before, 0)
    return count, before, after, with_pad, inside


def _pool(x, kernel, stride, padding, ceil_mode, fill):
    """x padded with `fill` and its windows [N, C, OH, OW, kh, kw], with the axes' geometry."""
    x = ops.tensor(x)
    kernel = (kernel, kernel) if isinstance(kernel, int) else tuple(kernel)
    stride = kernel if stride is None else (stride, stride) if isinstance(stride, int) else tuple(stride)
    pads = (padding, padding) if isinstance(padding, (int, str)) else tuple(padding)
    axes = [_axis(x.shape[2 + d], kernel[d], stride[d], pads[d], ceil_mode) for d in range(2)]
    widths = [(0, 0), (0, 0)] + [(a[1], a[2]) for a in axes]
    if x.dtype.kind in "biu" and fill == -np.inf:  # the integers' own lowest value never wins either
        fill = np.iinfo(x.dtype).min if x.dtype.kind != "b" else False
    padded = np.pad(x.data, widths, constant_values=np.asarray(fill, x.dtype))
    windows = np.lib.stride_tricks.sliding_window_view(padded, kernel, axis=(2, 3))
    windows = windows[:, :, ::stride[0], ::stride[1]][:, :, :axes[0][0], :axes[1][0]]
    return x, windows, kernel, stride, axes, widths


def _scatter_back(g_windows, padded_shape, stride, widths, shape):
    """Each window position's gradient [N, C, OH, OW, kh, kw] added back into x's shape."""
    grad = np.zeros(padded_shape, g_windows.dtype)
    oh, ow, kh, kw = g_windows.shape[2:]
    for p in range(kh):
        for q in range(kw):
            grad[:, :, p:p + stride[0] * (oh - 1) + 1:stride[0], q:q + stride[1] * (ow - 1) + 1:stride[1]] += \
                g_windows[:, :, :, :, p, q]
    return grad[:, :, widths[2][0]:widths[2][0] + shape[2], widths[3][0]:widths[3][0] + shape[3]]


def max_pool2d(x, kernel, stride=None, padding=0, ceil_mode=False):
    """The window maxima; the gradient goes to the first maximum of each window (row-major), as
    PyTorch's kernel picks it."""
    x, windows, kernel, stride, axes, widths = _pool(x, kernel, stride, padding, ceil_mode, -np.inf)
    flat = windows.reshape(windows.shape[:4] + (-1,))
    first = np.argmax(flat, axis=-1)
    out = np.take_along_axis(flat, first[..., None], axis=-1)[..., 0]
    padded_shape = tuple(n + a + b for n, (a, b) in zip(x.shape, widths))

    def backward(g):
        g_windows = np.zeros(flat.shape, g.dtype)
        np.put_along_axis(g_windows, first[..., None], g[..., None], axis=-1)
        return (_scatter_back(g_windows.reshape(windows.shape), padded_shape, stride, widths, x.shape),)

    return Tensor.record(out, (x,), backward, "max_pool2d")


def avg_pool2d(x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    """The window sums over the window's size with its padding (count_include_pad, not with
    'same') or over its elements inside x."""
    x, windows, kernel, stride, axes, widths = _pool(x, kernel, stride, padding, ceil_mode, 0)
    counted = 3 if count_include_pad and padding != "same" else 4
    divisor = np.multiply.outer(axes[0][counted], axes[1][counted]).astype(x.dtype)
    out = windows.sum(axis=(-2, -1)) / divisor
    padded_shape = tuple(n + a + b for n, (a, b) in zip(x.shape, widths))

    def backward(g):
        share = np.broadcast_to((g / divisor)[..., None, None], windows.shape)
        return (_scatter_back(share, padded_shape, stride, widths, x.shape),)

    return Tensor.record(out.astype(x.dtype), (x,), backward, "avg_pool2d")


def _lift(x, kernel, stride, padding):
    """A 1-d pooling's operands over a height of 1."""
    return (ops.reshape(x, x.shape[:2] + (1, x.shape[2])), (1, kernel), None if stride is None else (1, stride),
            padding if isinstance(padding, str) else (0, padding))


def max_pool1d(x, kernel, stride=None, padding=0, ceil_mode=False):
    x = ops.tensor(x)
    out = max_pool2d(*_lift(x, kernel, stride, padding), ceil_mode)
    return ops.reshape(out, out.shape[:2] + out.shape[3:])


def avg_pool1d(x, kernel, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    x = ops.tensor(x)
    out = avg_pool2d(*_lift(x, kernel, stride, padding), ceil_mode, count_include_pad)
    return ops.reshape(out, out.shape[:2] + out.shape[3:])
