"""keras.initializers as Keras users call them (an instance with seed=, called on a shape and a
dtype), for the Keras adapter on each backend and for TensorFlow's adapter (tf.keras is Keras 3).
Keras lays a kernel out [*kernel, in, out]: the adapter asks for the shape in that layout and
transposes the result to torch's. A parameter a spec leaves out is Keras' default."""
import inspect
import math
from dataclasses import replace

import numpy as np
from scipy import stats

from adapters.base import FLOATS, Unsupported
from adapters.behaviours import Behaviour
from adapters.initializers import (
    INITIALIZER_DTYPES,
    RECURRENT_LAYERS,
    TRUNCATED,
    Initializers,
    documented,
    kernel_layout,
    layer_defaults,
    recurrent_laws,
    variance_scaling,
    zero_bias,
)
from adapters.optimizers import renamed
from adapters.reference.initializers import hidden_size, law, stacked
from vocabulary.params import RECURRENT_GATES

CLASSES = {"uniform": "RandomUniform", "normal": "RandomNormal", "trunc_normal": "TruncatedNormal",
           "xavier_uniform": "GlorotUniform", "xavier_normal": "GlorotNormal", "kaiming_uniform": "HeUniform",
           "kaiming_normal": "HeNormal", "lecun_uniform": "LecunUniform", "lecun_normal": "LecunNormal",
           "orthogonal": "Orthogonal", "zeros": "Zeros", "ones": "Ones"}
NAMES = {"a": "minval", "b": "maxval", "std": "stddev"}
# What keras.initializers fill per backend (python -m suites coverage --check): on TensorFlow, the
# uniform variance scalings draw integers too (tf.random.uniform's), and orthogonal's QR takes float16
# (the recurrent layers' too)
KERAS_INITIALIZER_DTYPES = {
    "tensorflow": {**INITIALIZER_DTYPES,
                   **dict.fromkeys(("init_orthogonal", *RECURRENT_LAYERS), ("float16", "float32", "float64")),
                   **dict.fromkeys(("init_kaiming_uniform", "init_lecun_uniform"), FLOATS + ("int32", "int64"))},
    "jax": INITIALIZER_DTYPES, "torch": INITIALIZER_DTYPES}
SOURCE = "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/initializers/random_initializers.py"


def run(keras, name, x, seed, params):
    """keras.initializers' `name` for x's shape and dtype, seeded by `seed`, in torch's layout."""
    cls, params = getattr(keras.initializers, CLASSES[name]), dict(params)
    dtype = keras.backend.standardize_dtype(x.dtype)
    if name in ("zeros", "ones"):
        return cls()(tuple(x.shape), dtype=dtype)
    if name == "trunc_normal":
        _two_deviations(cls, params)
    if name in ("uniform", "normal", "trunc_normal"):
        return cls(**renamed(params, NAMES), seed=seed)(tuple(x.shape), dtype=dtype)
    shape, back = kernel_layout(tuple(x.shape))
    if name != "orthogonal":
        variance_scaling(name, params, f"keras.initializers.{CLASSES[name]}")
    return keras.ops.transpose(cls(**params, seed=seed)(shape, dtype=dtype), back)


def layer_parameters(keras, layer, w, seed):
    """keras.layers' Dense, Conv2D or Embedding built in w's dtype after
    keras.utils.set_random_seed(seed), its kernel laid out [*kernel, in, out] brought to torch's."""
    keras.utils.set_random_seed(seed)
    dtype, (out, inputs, *kernel) = keras.backend.standardize_dtype(w.dtype), tuple(w.shape)
    if layer in RECURRENT_GATES:
        return _recurrent(keras, layer, hidden_size(w.shape, layer), inputs, dtype)
    if layer == "embedding":
        embedding = keras.layers.Embedding(out, inputs, dtype=dtype)
        embedding.build((None,))
        return embedding.embeddings.value
    built = keras.layers.Dense(out, dtype=dtype) if layer == "linear" else keras.layers.Conv2D(
        out, tuple(kernel), dtype=dtype)
    built.build((None, *kernel, inputs))
    return keras.ops.transpose(built.kernel.value, kernel_layout(tuple(w.shape))[1]), built.bias.value


def _recurrent(keras, layer, hidden, inputs, dtype):
    """keras.layers' LSTM or GRU cell's kernel [in, gates x hidden], recurrent kernel and bias in
    torch's layout: transposed, GRU's gate blocks z, r, h as torch's r, z, n; LSTM's one bias as
    bias_ih (bias_hh zeros), GRU's (reset_after) [2, 3 hidden] as the two."""
    from adapters.keras.rnn import KERAS_GRU_ORDER

    ops = keras.ops
    built = getattr(keras.layers, layer.upper())(hidden, dtype=dtype)
    built.build((None, None, inputs))
    cell = built.cell

    def torch_order(w):  # rows in blocks of hidden, in torch's gate order
        if layer == "lstm":
            return w
        return ops.concatenate([w[q * hidden:(q + 1) * hidden] for q in KERAS_GRU_ORDER])

    bias = cell.bias.value
    biases = (bias, ops.zeros_like(bias)) if layer == "lstm" else (torch_order(bias[0]), torch_order(bias[1]))
    return (torch_order(ops.transpose(cell.kernel.value)), torch_order(ops.transpose(cell.recurrent_kernel.value)),
            *biases)


def _two_deviations(cls, params):
    """TruncatedNormal(mean, stddev) truncates at mean -+ 2 stddev: a spec's bounds a and b must
    be those (torch's are absolute); they are popped."""
    defaults = inspect.signature(cls).parameters
    mean = params.get("mean", defaults["mean"].default)
    std = params.get("std", defaults["stddev"].default)
    for bound, two in (("a", mean - 2 * std), ("b", mean + 2 * std)):
        if bound in params and not math.isclose(params.pop(bound), two):
            raise Unsupported("keras.initializers.TruncatedNormal truncates at two standard deviations from the "
                              "mean only")


class KerasInitializers(Initializers):
    """A mixin of KerasAdapter (self.keras)."""

    def initialize(self, name, x, seed, params):
        return run(self.keras, name, x, seed, params)

    def layer_parameters(self, layer, w, seed):
        return layer_parameters(self.keras, layer, w, seed)


KERAS_INITIALIZERS = documented(
    "keras.initializers", {"init_uniform": {"a": -0.05, "b": 0.05}, "init_normal": {"std": 0.05},
                           "init_trunc_normal": {"std": 0.05, "a": -0.1, "b": 0.1}},
    "RandomUniform draws from U(-0.05, 0.05), RandomNormal from N(0, 0.05^2), TruncatedNormal with stddev 0.05 "
    "truncated at two standard deviations (torch.nn.init: U(0, 1), N(0, 1), truncated at -2 and 2)",
    "GlorotNormal, HeNormal and LecunNormal are VarianceScaling(distribution='truncated_normal')", SOURCE)


def _keras_recurrent(layer, shape):
    """The laws of keras.layers' LSTM or GRU parameters in torch's layout (_recurrent)."""
    hidden = hidden_size(shape, layer)
    zeros = law("init_zeros", shape[:1])
    bias = stacked(law("init_zeros", (hidden,)), law("init_ones", (hidden,)), law("init_zeros", (2 * hidden,))) \
        if layer == "lstm" else zeros
    return law("init_xavier_uniform", shape), law("init_orthogonal", (shape[0], hidden)), bias, zeros


class _FirstOfFourDraws(stats.rv_continuous):
    """keras' truncated_normal on its torch backend (keras/src/backend/torch/random.py): four
    standard normal draws per element, the first within (-2, 2) kept; where none of the four is,
    index 0 is kept, a draw beyond 2 standard deviations. The law is the standard normal
    truncated to [-2, 2] with probability 1 - q, and the normal's tails with q = P(|z| > 2)^4,
    4.3e-6: in a 65,536-element tensor a draw beyond the truncation every fourth seed."""

    outside = 2 * stats.norm.cdf(-2.0)
    q = outside ** 4

    def _pdf(self, z):
        return stats.norm.pdf(z) * np.where(np.abs(z) < 2, (1 - self.q) / (1 - self.outside), self.q / self.outside)

    def _cdf(self, z):
        below, inside = stats.norm.cdf(np.minimum(z, -2.0)), stats.norm.cdf(np.clip(z, -2.0, 2.0)) - stats.norm.cdf(-2)
        above = stats.norm.cdf(np.maximum(z, 2.0)) - stats.norm.cdf(2.0)
        return (below + above) * self.q / self.outside + inside * (1 - self.q) / (1 - self.outside)


FIRST_OF_FOUR = _FirstOfFourDraws(name="first_of_four_draws")


def _first_of_four(behaviour):
    """A Keras truncated-normal behaviour as the torch backend draws it: its law's truncated
    normal (at two standard deviations) replaced by FIRST_OF_FOUR, scaled alike."""
    def model(*args, **kwargs):
        law = behaviour.model(*args, **kwargs)
        scaled = law.dist.kwds
        return replace(law, name=f"{law.name}, or beyond with probability 4.3e-6",
                       dist=FIRST_OF_FOUR(loc=scaled["loc"], scale=scaled["scale"]))

    note = ("keras' truncated_normal on the torch backend keeps the first of four normal draws within two standard "
            "deviations, and the first draw where none of the four is: one element in 230,000 (4.3e-6) lies beyond "
            "the truncation (seen: -1.065 for a truncation at -1 and 1, one of 65,536)")
    return Behaviour(behaviour.op, model, note, KERAS_TORCH_RANDOM, "semantics", fill=behaviour.fill)


KERAS_TORCH_RANDOM = "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/backend/torch/random.py"
KERAS_TORCH_INITIALIZERS = tuple(_first_of_four(b) for b in KERAS_INITIALIZERS
                                 if b.op in ("init_trunc_normal", *(f"init_{name}" for name in TRUNCATED)))


KERAS_LAYER_DEFAULTS = layer_defaults(
    "keras.layers", {"init_linear": zero_bias("init_xavier_uniform"), "init_conv2d": zero_bias("init_xavier_uniform"),
                     "init_embedding": lambda shape: law("init_uniform", shape, a=-0.05, b=0.05)},
    "Dense and Conv2D initialise their kernel with glorot_uniform and their bias with zeros, Embedding with "
    "RandomUniform(-0.05, 0.05) (torch's Linear and Conv2d: U(-1 / sqrt(fan_in), 1 / sqrt(fan_in)) for both; "
    "Embedding: N(0, 1))", "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/core/dense.py"
) + layer_defaults(
    "keras.layers", recurrent_laws(_keras_recurrent),
    "LSTM and GRU initialise their kernel with glorot_uniform, their recurrent kernel with orthogonal (the "
    "whole [hidden, gates x hidden] matrix) and their bias with zeros, LSTM's forget gate with ones "
    "(unit_forget_bias=True); LSTM has one bias, bias_ih here (torch's LSTM and GRU: every parameter U(-1 / "
    "sqrt(hidden), 1 / sqrt(hidden)))", "https://github.com/keras-team/keras/blob/v3.15.1/keras/src/layers/rnn/lstm.py")

