"""The vocabulary's initializer records (vocabulary/__init__.py explains the vocabulary): each fills
a tensor as a framework's users initialise a parameter, with the framework's own random numbers.

An initializer takes `x` for its shape and dtype (torch.nn.init fills a tensor in place; its
values are not read) and `seed`, which seeds the framework's generator (torch's generator=,
Keras' seed=, jax's key, paddle.seed, the engine's NumPy Generator): called again with the same
seed it draws the same sample, with another seed an independent one (the judge draws both).
Shapes are in torch's layout, [out, in, *kernel]: fan_in = in * prod(kernel), fan_out = out *
prod(kernel) (torch.nn.init._calculate_fan_in_and_fan_out); an adapter whose framework lays a kernel out the
other way ([in, out], [*kernel, in, out]) asks for it in that layout and transposes the result.

The result is a sample, so the reference is a law, not a value: the judge
(suites/judging/sampling.py) checks its support exactly, its moments and its goodness of fit at a
stated false-alarm rate. The signatures are torch.nn.init's names and defaults; a framework's
other defaults (Keras' RandomNormal stddev 0.05) and conventions (Keras' and jax's glorot_normal
truncated at two standard deviations) are documented behaviours.
"""
from vocabulary.records import Op, values

FILLS = ("x: the tensor to fill (its shape and dtype; its values are not read), at least 2-D where fans are "
         "counted; seed: an int that seeds the framework's generator. Returns a new tensor of x's shape and "
         "dtype.")
FANS = ("fan_in = x.shape[1] * prod(x.shape[2:]), fan_out = x.shape[0] * prod(x.shape[2:]) (torch's layout, "
        "[out, in, *kernel]).")
TRUNCATED = ("truncated: a normal truncated at two of its standard deviations and widened by 1 / 0.8796 (the "
             "standard deviation of a standard normal truncated to [-2, 2]) so that its variance stays std^2, "
             "as Keras' and jax's variance scaling draw it (documented).")


def _fill(dtype):
    return [values(dtype, (4, 3)), 0], {}


LAYER = ("w: a tensor of the layer's weight shape in torch's layout (its sizes and dtype; its values are not read); "
         "seed: an int that seeds the framework's generator as its users seed it before building a layer "
         "(torch.manual_seed, keras.utils.set_random_seed, the key of flax's init, paddle.seed).")


def layer(name, parts, shape, semantics):
    return Op(name, "w, seed", "initializers", f"{semantics} {LAYER}",
              lambda dtype: ([values(dtype, shape), 0], {}), random=True, parts=parts)


def initializer(name, signature, semantics):
    return Op(name, f"x, seed{', ' + signature if signature else ''}", "initializers", f"{semantics} {FILLS}", _fill,
              random=True)


INITIALIZER_OPS = [
    initializer("init_uniform", "a=0.0, b=1.0", "torch.nn.init.uniform_: independent draws from U(a, b)."),
    initializer("init_normal", "mean=0.0, std=1.0", "torch.nn.init.normal_: independent draws from N(mean, std^2)."),
    initializer("init_trunc_normal", "mean=0.0, std=1.0, a=-2.0, b=2.0",
                "torch.nn.init.trunc_normal_: N(mean, std^2) conditioned on [a, b] (a and b absolute, not in "
                "standard deviations; std is the normal's before truncation)."),
    initializer("init_xavier_uniform", "gain=1.0",
                "torch.nn.init.xavier_uniform_ (Glorot and Bengio 2010): U(-r, r), r = gain sqrt(6 / (fan_in + "
                f"fan_out)). {FANS}"),
    initializer("init_xavier_normal", "gain=1.0, truncated=False",
                "torch.nn.init.xavier_normal_: N(0, std^2), std = gain sqrt(2 / (fan_in + fan_out)). "
                f"{TRUNCATED} {FANS}"),
    initializer("init_kaiming_uniform", "a=0.0, mode='fan_in', nonlinearity='leaky_relu'",
                "torch.nn.init.kaiming_uniform_ (He et al. 2015): U(-r, r), r = gain sqrt(3 / fan), fan the "
                "mode's, gain torch.nn.init.calculate_gain(nonlinearity, a): 1 for linear, sigmoid and conv, 5/3 "
                f"for tanh, sqrt(2) for relu, sqrt(2 / (1 + a^2)) for leaky_relu, 3/4 for selu. {FANS}"),
    initializer("init_kaiming_normal", "a=0.0, mode='fan_in', nonlinearity='leaky_relu', truncated=False",
                f"torch.nn.init.kaiming_normal_: N(0, std^2), std = gain / sqrt(fan), as kaiming_uniform's. "
                f"{TRUNCATED} {FANS}"),
    initializer("init_lecun_uniform", "", f"LeCun et al. 1998 (Keras' LecunUniform, jax's lecun_uniform): U(-r, r), "
                f"r = sqrt(3 / fan_in); torch.nn.init has none. {FANS}"),
    initializer("init_lecun_normal", "truncated=False",
                f"LeCun et al. 1998 (Keras' LecunNormal, jax's lecun_normal, flax's default kernel): N(0, 1 / "
                f"fan_in); torch.nn.init has none. {TRUNCATED} {FANS}"),
    initializer("init_orthogonal", "gain=1.0",
                "torch.nn.init.orthogonal_ (Saxe et al. 2013): x viewed as [rows, cols] = [x.shape[0], "
                "prod(x.shape[1:])] is gain times a matrix with orthonormal rows (rows <= cols) or columns, "
                "uniformly (Haar) distributed: the Q of a Gaussian matrix's QR with R's diagonal made positive."),
    initializer("init_zeros", "", "torch.nn.init.zeros_: every element 0."),
    initializer("init_ones", "", "torch.nn.init.ones_: every element 1."),
]
RECURRENT = ("weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0")  # a recurrent layer's, torch's names
# The parameters of a layer as its framework builds them, without an initializer named
LAYER_DEFAULT_OPS = [
    layer("init_linear", ("weight", "bias"), (4, 3),
          "torch.nn.Linear(in, out) for w [out, in]: weight [out, in] and bias [out], both U(-r, r), r = 1 / "
          "sqrt(in) (reset_parameters: kaiming_uniform_(a=sqrt(5)), and the bias from the weight's fan_in). "
          "Keras' Dense: Glorot uniform and zeros; flax's Dense: LeCun normal (truncated) and zeros; Paddle's "
          "Linear: Xavier uniform and zeros (documented)."),
    layer("init_conv2d", ("weight", "bias"), (4, 3, 2, 2),
          "torch.nn.Conv2d(in, out, (kh, kw)) for w [out, in, kh, kw]: weight and bias [out] both U(-r, r), r = "
          "1 / sqrt(in kh kw). Keras' Conv2D: Glorot uniform and zeros; flax's Conv: LeCun normal (truncated) "
          "and zeros; Paddle's Conv2D: N(0, 2 / (in kh kw)) and zeros (documented)."),
    layer("init_embedding", (), (5, 3),
          "torch.nn.Embedding(num, dim) for w [num, dim]: weight N(0, 1). Keras' Embedding: U(-0.05, 0.05); "
          "flax's Embed: N(0, 1 / dim); Paddle's Embedding: Xavier uniform (documented)."),
    layer("init_lstm", RECURRENT, (8, 3),
          "torch.nn.LSTM(in, hidden) for w [4 hidden, in] (weight_ih_l0's shape; gates i, f, g, o): every "
          "parameter U(-r, r), r = 1 / sqrt(hidden) (RNNBase.reset_parameters). A framework with one bias "
          "(Keras' on the input, flax's on the state) has zeros for the other. Keras' LSTM: Glorot uniform "
          "kernel, orthogonal recurrent kernel, bias zeros but the forget gate's ones (unit_forget_bias); flax's "
          "LSTMCell: LeCun normal (truncated), an orthogonal [hidden, hidden] block per gate, zeros; Paddle's "
          "LSTM: torch's (documented)."),
    layer("init_gru", RECURRENT, (6, 3),
          "torch.nn.GRU(in, hidden) for w [3 hidden, in] (gates r, z, n): as init_lstm's. Keras' GRU: Glorot "
          "uniform, orthogonal, zeros; flax's GRUCell: LeCun normal (truncated), an orthogonal block per gate, "
          "zeros; Paddle's GRU: torch's (documented)."),
]
INITIALIZERS = tuple(op.name for op in INITIALIZER_OPS)
LAYER_DEFAULTS = tuple(op.name for op in LAYER_DEFAULT_OPS)
