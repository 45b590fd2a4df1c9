"""Initializers in torch.nn.init's shape: each fills a Tensor in place (outside the tape) with a
NumPy Generator's draws and returns it.

    w = Tensor(np.empty((256, 128), np.float32))
    xavier_uniform_(w, generator=np.random.default_rng(0))

Fans are torch's, of a weight laid out [out, in, *kernel]. The draws are made in float64 and
rounded once to the tensor's dtype. `truncated` (the normal initializers) is the variance-keeping
normal truncated at two of its standard deviations, Keras' and jax's variance scaling; lecun_* are
the engine's, by the name Keras and jax give them (torch.nn.init has none).
"""
import math

import numpy as np

from engine.tensor import Tensor

# the standard deviation of a standard normal truncated to [-2, 2] (Keras' and jax's constant)
TRUNCATED_STD = 0.87962566103423978


def calculate_fan_in_and_fan_out(tensor) -> tuple:
    shape = tensor.data.shape
    if len(shape) < 2:
        raise ValueError("Fan in and fan out can not be computed for tensor with fewer than 2 dimensions")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def calculate_gain(nonlinearity, param=None) -> float:
    if nonlinearity in ("linear", "sigmoid") or nonlinearity.startswith("conv"):
        return 1.0
    gains = {"tanh": 5.0 / 3, "relu": math.sqrt(2.0), "selu": 3.0 / 4}
    if nonlinearity == "leaky_relu":
        return math.sqrt(2.0 / (1 + (0.01 if param is None else param) ** 2))
    if nonlinearity not in gains:
        raise ValueError(f"Unsupported nonlinearity {nonlinearity}")
    return gains[nonlinearity]


def _filled(tensor, values):
    tensor.data[...] = values
    return tensor


def _rng(generator):
    return generator if generator is not None else np.random.default_rng()


def uniform_(tensor, a=0.0, b=1.0, generator=None):
    return _filled(tensor, _rng(generator).uniform(a, b, tensor.data.shape))


def normal_(tensor, mean=0.0, std=1.0, generator=None):
    return _filled(tensor, _rng(generator).normal(mean, std, tensor.data.shape))


def trunc_normal_(tensor, mean=0.0, std=1.0, a=-2.0, b=2.0, generator=None):
    """N(mean, std^2) conditioned on [a, b], by rejection: a draw outside is drawn again."""
    rng, shape = _rng(generator), tensor.data.shape
    values = rng.normal(mean, std, shape)
    outside = (values < a) | (values > b)
    while outside.any():
        values[outside] = rng.normal(mean, std, int(outside.sum()))
        outside = (values < a) | (values > b)
    return _filled(tensor, values)


def _scaled_normal_(tensor, std, truncated, generator):
    if truncated:
        wide = std / TRUNCATED_STD
        return trunc_normal_(tensor, 0.0, wide, -2 * wide, 2 * wide, generator)
    return normal_(tensor, 0.0, std, generator)


def _fan(tensor, mode) -> int:
    fan_in, fan_out = calculate_fan_in_and_fan_out(tensor)
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"Mode {mode} not supported, please use one of fan_in, fan_out")
    return fan_in if mode == "fan_in" else fan_out


def xavier_uniform_(tensor, gain=1.0, generator=None):
    bound = gain * math.sqrt(6.0 / sum(calculate_fan_in_and_fan_out(tensor)))
    return uniform_(tensor, -bound, bound, generator)


def xavier_normal_(tensor, gain=1.0, truncated=False, generator=None):
    return _scaled_normal_(tensor, gain * math.sqrt(2.0 / sum(calculate_fan_in_and_fan_out(tensor))), truncated,
                           generator)


def kaiming_uniform_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu", generator=None):
    bound = calculate_gain(nonlinearity, a) * math.sqrt(3.0 / _fan(tensor, mode))
    return uniform_(tensor, -bound, bound, generator)


def kaiming_normal_(tensor, a=0.0, mode="fan_in", nonlinearity="leaky_relu", truncated=False, generator=None):
    return _scaled_normal_(tensor, calculate_gain(nonlinearity, a) / math.sqrt(_fan(tensor, mode)), truncated,
                           generator)


def lecun_uniform_(tensor, generator=None):
    return kaiming_uniform_(tensor, nonlinearity="linear", generator=generator)


def lecun_normal_(tensor, truncated=False, generator=None):
    return kaiming_normal_(tensor, nonlinearity="linear", truncated=truncated, generator=generator)


def orthogonal_(tensor, gain=1.0, generator=None):
    """gain times the Q of a Gaussian matrix's QR, R's diagonal made positive (Haar distributed),
    of the tensor viewed as [shape[0], prod(shape[1:])]."""
    shape = tensor.data.shape
    if len(shape) < 2:
        raise ValueError("Only tensors with 2 or more dimensions are supported")
    rows, cols = shape[0], math.prod(shape[1:])
    q, r = np.linalg.qr(_rng(generator).standard_normal((max(rows, cols), min(rows, cols))))
    q = q * np.sign(np.diag(r))
    return _filled(tensor, gain * (q.T if rows < cols else q).reshape(shape))


def zeros_(tensor):
    return _filled(tensor, 0)


def ones_(tensor):
    return _filled(tensor, 1)


# The parameters of the engine's layers (engine/nn.py's functions take them as arguments) as
# torch's modules initialise theirs in reset_parameters.
def linear(in_features, out_features, dtype="float32", generator=None) -> tuple:
    """(weight [out, in], bias [out]): kaiming_uniform_(a=sqrt(5)), U(-1 / sqrt(in), 1 / sqrt(in)),
    and the bias the same U."""
    return _weight_and_bias((out_features, in_features), dtype, generator)


def conv2d(in_channels, out_channels, kernel_size, dtype="float32", generator=None) -> tuple:
    """(weight [out, in, kh, kw], bias [out]) as linear's, fan_in = in * kh * kw."""
    return _weight_and_bias((out_channels, in_channels, *kernel_size), dtype, generator)


def embedding(num_embeddings, embedding_dim, dtype="float32", generator=None):
    """weight [num, dim]: N(0, 1)."""
    return normal_(Tensor(np.empty((num_embeddings, embedding_dim), dtype)), generator=generator)


def lstm(input_size, hidden_size, dtype="float32", generator=None) -> tuple:
    """(weight_ih [4 hidden, in], weight_hh [4 hidden, hidden], bias_ih, bias_hh [4 hidden]), the
    parameters engine.recurrent.lstm takes: each U(-1 / sqrt(hidden), 1 / sqrt(hidden))."""
    return _recurrent(4, input_size, hidden_size, dtype, generator)


def gru(input_size, hidden_size, dtype="float32", generator=None) -> tuple:
    """As lstm's, with 3 gate blocks."""
    return _recurrent(3, input_size, hidden_size, dtype, generator)


def _recurrent(gates, input_size, hidden_size, dtype, generator) -> tuple:
    bound = 1 / math.sqrt(hidden_size)
    rows = gates * hidden_size
    return tuple(uniform_(Tensor(np.empty(shape, dtype)), -bound, bound, generator)
                 for shape in ((rows, input_size), (rows, hidden_size), (rows,), (rows,)))


def _weight_and_bias(shape, dtype, generator) -> tuple:
    weight = kaiming_uniform_(Tensor(np.empty(shape, dtype)), a=math.sqrt(5), generator=generator)
    bound = 1 / math.sqrt(calculate_fan_in_and_fan_out(weight)[0])
    return weight, uniform_(Tensor(np.empty(shape[:1], dtype)), -bound, bound, generator)
