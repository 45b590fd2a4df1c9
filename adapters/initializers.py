"""The initializer ops (vocabulary/initializers.py) as one method per adapter: each op is
`initialize(name, x, seed, params)`, where `name` is torch.nn.init's without the underscore
(`xavier_uniform`) and `params` holds only the parameters the spec gave, in torch's names; the
adapter renames them for its framework and leaves the rest to the framework's own defaults."""
import functools

import numpy as np

from adapters.base import FLOATS, Unsupported
from adapters.behaviours import Behaviour, framework_default
from adapters.optimizers import fixed
from adapters.reference.initializers import law
from vocabulary.initializers import INITIALIZERS, LAYER_DEFAULTS
from vocabulary.params import RECURRENT_GATES

# What torch.nn.init and jax.nn.initializers fill (python -m suites coverage --check): their draws
# any float dtype, orthogonal what their QR takes on CPU; zeros and ones every dtype; their layers
# any float dtype, but the recurrent ones where their recurrent kernel is orthogonal (Keras', flax's)
ORTHOGONAL_DTYPES = ("float32", "float64")
RECURRENT_LAYERS = ("init_lstm", "init_gru")
INITIALIZER_DTYPES = {**dict.fromkeys(set(INITIALIZERS) - {"init_zeros", "init_ones"}, FLOATS),
                      "init_orthogonal": ORTHOGONAL_DTYPES, **dict.fromkeys(LAYER_DEFAULTS, FLOATS),
                      **dict.fromkeys(RECURRENT_LAYERS, ORTHOGONAL_DTYPES)}


class Initializers:
    """A mixin: an adapter with an `initialize` method has the initializer ops, and one with a
    `layer_parameters` method the layers' default initialisation."""

    def initialize(self, name: str, x, seed: int, params: dict):
        """A new tensor of x's shape and dtype, filled by the framework's initializer `name`
        with its generator seeded by `seed`."""
        raise NotImplementedError

    def layer_parameters(self, layer: str, w, seed: int):
        """The parameters of the framework's `layer` (linear, conv2d, embedding, lstm, gru) whose
        weight (a recurrent layer's weight_ih) has w's shape in torch's layout and w's dtype,
        built after seeding the framework's generator with `seed`, as torch's layer returns them
        (weight and bias; a recurrent layer's four, RECURRENT: in its layout and gate order)."""
        raise NotImplementedError


def _method(op):
    def method(self, x, seed, **params):
        return self.initialize(op.removeprefix("init_"), x, int(seed), params)

    method.__name__ = op
    return method


def _layer_method(op):
    def method(self, w, seed):
        return self.layer_parameters(op.removeprefix("init_"), w, int(seed))

    method.__name__ = op
    return method


for _op in INITIALIZERS:
    setattr(Initializers, _op, _method(_op))
for _op in LAYER_DEFAULTS:
    setattr(Initializers, _op, _layer_method(_op))


def kernel_layout(shape) -> tuple:
    """A shape in torch's layout [out, in, *kernel] as Keras and jax lay a kernel out: [in, out]
    for a matrix, [*kernel, in, out] for a convolution's; and the axes that bring the result back."""
    if len(shape) < 2:
        return tuple(shape), tuple(range(len(shape)))
    kernel = tuple(range(2, len(shape)))
    order = (*kernel, 1, 0)
    back = tuple(order.index(axis) for axis in range(len(shape)))
    return tuple(shape[axis] for axis in order), back


# the normal initializers that Keras and jax draw truncated (their variance scaling's 'truncated_normal')
TRUNCATED = ("xavier_normal", "kaiming_normal", "lecun_normal")


def variance_scaling(name: str, params: dict, initializer: str) -> None:
    """Pop from `params` the options of torch's that Keras' and jax's Glorot, He and LeCun
    initializers (their variance scaling) have one way only: gain 1, a 0, mode fan_in, relu's
    gain (leaky_relu's with a = 0), and a truncated normal; another way is unsupported."""
    if params.pop("nonlinearity", "relu") not in ("relu", "leaky_relu"):
        raise Unsupported(f"{initializer} has relu's gain only")
    fixed(params, {"gain": 1.0, "a": 0.0, "mode": "fan_in", **({"truncated": True} if name in TRUNCATED else {})},
          initializer)


def documented(framework: str, defaults: dict, defaults_note: str, truncated_note: str | None, source: str) -> tuple:
    """A framework's initializer behaviours (adapters/behaviours.py): its defaults for the ops in
    `defaults` (op -> the parameters it fills, regime default) and, with a `truncated_note`, its
    normal initializers truncated at two standard deviations (regime semantics)."""
    out = [framework_default(op, filled, f"{framework}: {defaults_note}", source) for op, filled in defaults.items()]
    if truncated_note:
        out += [framework_default(f"init_{name}", {"truncated": True},
                                  f"{framework}: {truncated_note}: a normal with the variance torch's has, truncated "
                                  "at two of its standard deviations (and widened by 1 / 0.8796 to keep the variance), "
                                  "so no draw lies beyond 2.27 standard deviations (torch's reach 4 or more in a "
                                  "large tensor)", source, regime="semantics") for name in TRUNCATED]
    return tuple(out)


def zero_bias(weight_op: str, **params):
    """shape -> the laws of a layer whose weight `weight_op` initialises (with `params`) and whose
    bias starts at zeros: Keras', flax's and Paddle's layers."""
    return lambda shape: (law(weight_op, shape, **params), law("init_zeros", shape[:1]))


def recurrent_laws(laws) -> dict:
    """init_lstm and init_gru -> shape -> laws(layer, shape): a framework's recurrent layers'
    laws, written once for both (layer_defaults' table)."""
    return {f"init_{layer}": functools.partial(laws, layer) for layer in RECURRENT_GATES}


def layer_defaults(framework: str, laws: dict, note: str, source: str) -> tuple:
    """A framework's default initialisation of layers (regime default): op -> a function of the
    weight's shape (torch's layout) that gives the laws of the parts its layer draws."""
    def model(make):
        return lambda w, seed: make(tuple(np.shape(w)))

    return tuple(Behaviour(op, model(make), f"{framework}: {note}", source, regime="default")
                 for op, make in laws.items())
