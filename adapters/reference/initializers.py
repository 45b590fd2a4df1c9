"""The float64 oracle's initializers: the law each one draws from, written from torch.nn.init's
documentation and the papers it cites. A sample has no single right value, so the reference of
an initializer op is its Law, which the judge (suites/judging/sampling.py) tests the framework's
sample against: its support exactly, its moments, and its goodness of fit.

As an adapter under test, the reference draws from the law with NumPy's Generator when its
result is read (ReferenceAdapter.to_numpy): the law carries the call's seed and dtype for that.
"""
import math
from dataclasses import dataclass, replace

import numpy as np

from vocabulary.initializers import INITIALIZERS, LAYER_DEFAULTS
from vocabulary.params import RECURRENT_GATES

# The standard deviation of a standard normal truncated to [-2, 2], sqrt(1 - 2 * 2 phi(2) / (Phi(2) -
# Phi(-2))): Keras' and jax's variance scaling divide by it (their literal .87962566103423978) so
# that the truncated draws keep the variance. scipy.stats is imported where a law is made (0.6 s
# that loading specs does not need)
TRUNCATED_STD = math.sqrt(1 - 4 * math.exp(-2) / math.sqrt(2 * math.pi) / math.erf(math.sqrt(2)))


@dataclass(frozen=True)
class Law:
    """The law of an initializer's result of `shape`: every element an independent draw from
    `dist` (a frozen scipy.stats distribution); `name` says it in words."""

    shape: tuple
    name: str
    dist: object = None
    seed: int = 0  # the call's, for a draw
    dtype: str = "float64"  # the tensor's that the call fills

    def draw(self) -> np.ndarray:
        """A sample of the law with NumPy's Generator seeded by `seed`, in `dtype`."""
        return self.sampled(np.random.default_rng(self.seed)).astype(self.dtype)

    def sampled(self, rng) -> np.ndarray:
        return self.dist.rvs(size=self.shape, random_state=rng)


@dataclass(frozen=True)
class Constant(Law):
    """Every element exactly `value`."""

    value: float = 0.0

    def sampled(self, rng):
        return np.full(self.shape, self.value)


@dataclass(frozen=True)
class Orthogonal(Law):
    """gain times a Haar-distributed matrix with orthonormal rows (or columns, when it has more
    rows than columns), the result viewed as [shape[0], prod(shape[1:])]."""

    gain: float = 1.0

    @property
    def matrix_shape(self) -> tuple:
        return self.shape[0], math.prod(self.shape[1:])

    def sampled(self, rng):
        rows, cols = self.matrix_shape
        q, r = np.linalg.qr(rng.standard_normal((max(rows, cols), min(rows, cols))))
        q = q * np.sign(np.diag(r))  # Haar: the QR made unique by a positive diagonal of R
        q = q.T if rows < cols else q
        return (self.gain * q).reshape(self.shape)


@dataclass(frozen=True)
class Stacked(Law):
    """Blocks of rows, each with a law of its own (`blocks`, stacked along axis 0): a recurrent
    layer's gates, initialised one by one (flax's orthogonal block per gate, Keras' forget bias)."""

    blocks: tuple = ()

    def sampled(self, rng):
        return np.concatenate([block.sampled(rng) for block in self.blocks])


def stacked(*blocks) -> Stacked:
    shape = (sum(b.shape[0] for b in blocks), *blocks[0].shape[1:])
    return Stacked(shape, " | ".join(b.name for b in blocks), blocks=tuple(blocks))


def hidden_size(shape, layer: str) -> int:
    """The hidden size of a recurrent `layer` whose weight_ih has `shape` [gates * hidden, in]."""
    count = RECURRENT_GATES[layer]
    if len(shape) != 2 or shape[0] % count:
        raise ValueError(f"a recurrent layer's weight_ih is [{count} x hidden, in]; the shape is {tuple(shape)}")
    return shape[0] // count


def uniform(shape, low, high) -> Law:
    from scipy import stats

    return Law(shape, f"U({low:.6g}, {high:.6g})", stats.uniform(loc=low, scale=high - low))


def normal(shape, std, truncated=False, mean=0.0) -> Law:
    """N(mean, std^2); truncated, the variance-keeping normal truncated at two of its standard
    deviations that Keras' and jax's variance scaling draw."""
    if truncated:
        wide = std / TRUNCATED_STD
        return trunc_normal(shape, mean, wide, mean - 2 * wide, mean + 2 * wide)
    from scipy import stats

    return Law(shape, f"N({mean:.6g}, {std:.6g}^2)", stats.norm(loc=mean, scale=std))


def trunc_normal(shape, mean, std, a, b) -> Law:
    from scipy import stats

    return Law(shape, f"N({mean:.6g}, {std:.6g}^2) truncated to [{a:.6g}, {b:.6g}]",
               stats.truncnorm((a - mean) / std, (b - mean) / std, loc=mean, scale=std))


def fans(shape) -> tuple:
    """(fan_in, fan_out) of a tensor in torch's layout [out, in, *kernel]
    (torch.nn.init._calculate_fan_in_and_fan_out)."""
    if len(shape) < 2:
        raise ValueError(f"fans need at least 2 dimensions; the shape is {tuple(shape)}")
    receptive = math.prod(shape[2:])
    return shape[1] * receptive, shape[0] * receptive


def gain(nonlinearity, a=0.0) -> float:
    """torch.nn.init.calculate_gain's table."""
    gains = {"linear": 1.0, "sigmoid": 1.0, "tanh": 5.0 / 3, "relu": math.sqrt(2.0), "selu": 3.0 / 4,
             "leaky_relu": math.sqrt(2.0 / (1 + a ** 2))}
    if nonlinearity.startswith("conv") or nonlinearity.startswith("conv_transpose"):
        return 1.0
    if nonlinearity not in gains:
        raise ValueError(f"unsupported nonlinearity {nonlinearity!r}")
    return gains[nonlinearity]


def _fan(shape, mode) -> int:
    fan_in, fan_out = fans(shape)
    if mode not in ("fan_in", "fan_out"):
        raise ValueError(f"mode {mode!r} is neither fan_in nor fan_out")
    return fan_in if mode == "fan_in" else fan_out


class InitializerReference:
    """A mixin of adapters.reference.ReferenceAdapter: each initializer op's law, from x's shape
    (its values are not read), with the call's seed and x's dtype for a draw."""

    def _init_uniform(self, shape, a=0.0, b=1.0):
        return uniform(shape, a, b)

    def _init_normal(self, shape, mean=0.0, std=1.0):
        return normal(shape, std, mean=mean)

    def _init_trunc_normal(self, shape, mean=0.0, std=1.0, a=-2.0, b=2.0):
        return trunc_normal(shape, mean, std, a, b)

    def _init_xavier_uniform(self, shape, gain=1.0):
        bound = gain * math.sqrt(6.0 / sum(fans(shape)))
        return uniform(shape, -bound, bound)

    def _init_xavier_normal(self, shape, gain=1.0, truncated=False):
        return normal(shape, gain * math.sqrt(2.0 / sum(fans(shape))), truncated)

    def _init_kaiming_uniform(self, shape, a=0.0, mode="fan_in", nonlinearity="leaky_relu"):
        bound = gain(nonlinearity, a) * math.sqrt(3.0 / _fan(shape, mode))
        return uniform(shape, -bound, bound)

    def _init_kaiming_normal(self, shape, a=0.0, mode="fan_in", nonlinearity="leaky_relu", truncated=False):
        return normal(shape, gain(nonlinearity, a) / math.sqrt(_fan(shape, mode)), truncated)

    def _init_lecun_uniform(self, shape):
        bound = math.sqrt(3.0 / fans(shape)[0])
        return uniform(shape, -bound, bound)

    def _init_lecun_normal(self, shape, truncated=False):
        return normal(shape, 1.0 / math.sqrt(fans(shape)[0]), truncated)

    def _init_orthogonal(self, shape, gain=1.0):
        if len(shape) < 2:
            raise ValueError(f"orthogonal needs at least 2 dimensions; the shape is {shape}")
        return Orthogonal(shape, f"{gain:.6g} x Haar orthogonal", gain=gain)

    def _init_zeros(self, shape):
        return Constant(shape, "0", value=0.0)

    def _init_ones(self, shape):
        return Constant(shape, "1", value=1.0)

    def _init_linear(self, shape):
        """torch.nn.Linear.reset_parameters: kaiming_uniform_(a=sqrt(5)), U(-1 / sqrt(fan_in), ...),
        and the bias U(-1 / sqrt(fan_in), 1 / sqrt(fan_in))."""
        bound = 1 / math.sqrt(fans(shape)[0])
        return uniform(shape, -bound, bound), uniform(shape[:1], -bound, bound)

    def _init_conv2d(self, shape):
        """torch.nn.Conv2d.reset_parameters (_ConvNd's): as Linear's, fan_in = in * kh * kw."""
        return self._init_linear(shape)

    def _init_embedding(self, shape):
        """torch.nn.Embedding.reset_parameters: normal_(weight)."""
        return normal(shape, 1.0)

    def _init_lstm(self, shape):
        """torch.nn.LSTM (RNNBase.reset_parameters): every parameter U(-1 / sqrt(hidden), ...)."""
        return self._recurrent(shape, "lstm")

    def _init_gru(self, shape):
        return self._recurrent(shape, "gru")

    def _recurrent(self, shape, layer):
        hidden = hidden_size(shape, layer)
        bound = 1 / math.sqrt(hidden)
        return tuple(uniform(part, -bound, bound) for part in (shape, (shape[0], hidden), shape[:1], shape[:1]))


def law(op, shape, **params):
    """The law (or the laws of the parts) of initializer `op` for a tensor of `shape`."""
    return getattr(InitializerReference(), "_" + op)(tuple(shape), **params)


def _method(op):
    def method(self, x, seed, **params):
        laws = getattr(self, "_" + op)(tuple(np.shape(x)), **params)
        dtype = np.asarray(x).dtype.name
        if isinstance(laws, tuple):  # a layer's parts, each drawn with a seed of its own
            return tuple(replace(part, seed=int(seed) + k, dtype=dtype) for k, part in enumerate(laws))
        return replace(laws, seed=int(seed), dtype=dtype)

    method.__name__ = op
    return method


for _op in INITIALIZERS + LAYER_DEFAULTS:
    setattr(InitializerReference, _op, _method(_op))
