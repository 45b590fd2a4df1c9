"""The jax adapter's initializers: jax.nn.initializers' (the ones flax's layers default to), called
as JAX users call them, init(jax.random.key(seed), shape, dtype). Their kernels are laid out
[*kernel, in, out] (in_axis=-2, out_axis=-1), so the adapter asks for the shape in that layout and
transposes the result to torch's. A parameter a spec leaves out is jax's default."""
import inspect

from adapters.initializers import (
    Initializers,
    documented,
    kernel_layout,
    layer_defaults,
    recurrent_laws,
    variance_scaling,
    zero_bias,
)
from adapters.optimizers import fixed, renamed
from adapters.reference.initializers import hidden_size, law, stacked
from vocabulary.params import RECURRENT_GATES

JAX = "https://github.com/jax-ml/jax/blob/jax-v0.10.2/jax/_src/nn/initializers.py"
# torch.nn.init's name -> jax.nn.initializers'
NAMES = {"xavier_uniform": "glorot_uniform", "xavier_normal": "glorot_normal", "kaiming_uniform": "he_uniform",
         "kaiming_normal": "he_normal", "lecun_uniform": "lecun_uniform", "lecun_normal": "lecun_normal"}


class JaxInitializers(Initializers):
    """A mixin of JaxAdapter (self.jax, self.jnp)."""

    def initialize(self, name, x, seed, params):
        jax, params = self.jax, dict(params)
        inits, key = jax.nn.initializers, jax.random.key(seed)
        if name in ("zeros", "ones"):
            return getattr(inits, name)(key, x.shape, x.dtype)
        if name in ("uniform", "normal", "trunc_normal"):
            return self._random(name, key, x, params)
        shape, back = kernel_layout(x.shape)
        if name == "orthogonal":
            init = inits.orthogonal(**renamed(params, {"gain": "scale"}))
        else:
            variance_scaling(name, params, f"jax.nn.initializers.{NAMES[name]}")
            init = getattr(inits, NAMES[name])()
        return self.jnp.transpose(init(key, shape, x.dtype), back)

    def _random(self, name, key, x, params):
        """uniform(scale) draws from [0, scale), normal(stddev) and truncated_normal(stddev, lower,
        upper) have mean 0, truncated_normal's bounds in standard deviations."""
        inits = self.jax.nn.initializers
        jax_name = "truncated_normal" if name == "trunc_normal" else name
        fixed(params, {"a": 0.0} if name == "uniform" else {"mean": 0.0}, f"jax.nn.initializers.{jax_name}")
        if name == "uniform":
            return inits.uniform(**renamed(params, {"b": "scale"}))(key, x.shape, x.dtype)
        if name == "normal":
            return inits.normal(**renamed(params, {"std": "stddev"}))(key, x.shape, x.dtype)
        std = params.get("std", inspect.signature(inits.truncated_normal).parameters["stddev"].default)
        bounds = {option: params[k] / std for k, option in (("a", "lower"), ("b", "upper")) if k in params}
        return inits.truncated_normal(stddev=std, **bounds)(key, x.shape, x.dtype)


    def layer_parameters(self, layer, w, seed):
        """flax.linen's Dense, Conv or Embed, initialised with the key of `seed` (Module.init) in
        w's dtype (param_dtype), its kernel laid out [*kernel, in, out] brought to torch's."""
        import flax.linen as nn

        jnp, key, dtype = self.jnp, self.jax.random.key(seed), w.dtype
        out, inputs, *kernel = w.shape
        if layer in RECURRENT_GATES:
            return self._recurrent_parameters(layer, hidden_size(w.shape, layer), inputs, key, dtype)
        if layer == "embedding":
            return nn.Embed(out, inputs, param_dtype=dtype).init(key, jnp.zeros((1,), "int32"))["params"]["embedding"]
        module = nn.Dense(out, param_dtype=dtype) if layer == "linear" else nn.Conv(out, tuple(kernel),
                                                                                    param_dtype=dtype)
        params = module.init(key, jnp.zeros((1, *kernel, inputs), dtype))["params"]
        return jnp.transpose(params["kernel"], kernel_layout(w.shape)[1]), params["bias"]


    def _recurrent_parameters(self, layer, hidden, inputs, key, dtype):
        """flax.linen's LSTMCell or GRUCell (a Dense per gate: "i?" on the input, "h?" on the
        state) in torch's layout: each gate's kernel transposed and stacked in torch's gate order;
        LSTMCell's biases (on "h?") as bias_hh, bias_ih zeros; GRUCell's "ir", "iz", "in" as bias_ih,
        "hn" as bias_hh's n block (r and z zeros)."""
        import flax.linen as nn

        jnp = self.jnp
        cell = (nn.LSTMCell if layer == "lstm" else nn.GRUCell)(hidden, param_dtype=dtype)
        zeros = jnp.zeros((1, hidden), dtype)
        carry = (zeros, zeros) if layer == "lstm" else zeros
        params = cell.init(key, carry, jnp.zeros((1, inputs), dtype))["params"]
        gates = "ifgo" if layer == "lstm" else "rzn"
        nothing = jnp.zeros((hidden,), dtype)

        def blocks(side, part, absent=()):
            return jnp.concatenate([nothing if gate in absent else
                                    params[side + gate][part].T for gate in gates])

        if layer == "lstm":
            return blocks("i", "kernel"), blocks("h", "kernel"), jnp.zeros((4 * hidden,), dtype), blocks("h", "bias")
        return blocks("i", "kernel"), blocks("h", "kernel"), blocks("i", "bias"), blocks("h", "bias", "rz")


def _flax_recurrent(layer, shape):
    """The laws of flax.linen's LSTMCell or GRUCell parameters in torch's layout."""
    hidden, zeros = hidden_size(shape, layer), law("init_zeros", shape[:1])
    per_gate = stacked(*[law("init_orthogonal", (hidden, hidden))] * RECURRENT_GATES[layer])
    return law("init_lecun_normal", shape, truncated=True), per_gate, zeros, zeros


JAX_INITIALIZERS = documented(
    "jax.nn.initializers", {"init_uniform": {"b": 0.01}, "init_normal": {"std": 0.01},
                            "init_trunc_normal": {"std": 0.01, "a": -0.02, "b": 0.02}},
    "uniform(scale=0.01) draws from [0, 0.01), normal(stddev=0.01) and truncated_normal(stddev=0.01) truncated "
    "at two standard deviations (torch.nn.init: U(0, 1), N(0, 1), truncated at -2 and 2)",
    "glorot_normal, he_normal and lecun_normal are variance_scaling(..., 'truncated_normal')", JAX)

FLAX_LAYER_DEFAULTS = layer_defaults(
    "flax.linen", {"init_linear": zero_bias("init_lecun_normal", truncated=True),
                   "init_conv2d": zero_bias("init_lecun_normal", truncated=True),
                   "init_embedding": lambda shape: law("init_normal", shape, std=shape[1] ** -0.5)},
    "Dense and Conv initialise their kernel with lecun_normal (a truncated normal of variance 1 / fan_in) and "
    "their bias with zeros, Embed with variance_scaling(1, 'fan_in', 'normal', out_axis=0): N(0, 1 / dim) (torch's "
    "Linear and Conv2d: U(-1 / sqrt(fan_in), 1 / sqrt(fan_in)) for both; Embedding: N(0, 1))",
    "https://github.com/google/flax/blob/v0.12.8/flax/linen/linear.py"
) + layer_defaults(
    "flax.linen", recurrent_laws(_flax_recurrent),
    "LSTMCell and GRUCell initialise each gate's input kernel with lecun_normal (a truncated normal of variance "
    "1 / in), each gate's recurrent kernel with orthogonal (an orthogonal [hidden, hidden] block per gate) and "
    "their biases with zeros; LSTMCell has one bias per gate, bias_hh here (torch's LSTM and GRU: every "
    "parameter U(-1 / sqrt(hidden), 1 / sqrt(hidden)))",
    "https://github.com/google/flax/blob/v0.12.8/flax/linen/recurrent.py")
