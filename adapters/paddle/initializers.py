"""The paddle adapter's initializers: paddle.nn.initializer's classes, as Paddle users initialise a
parameter (paddle.seed, then paddle.create_parameter with the initializer as its
default_initializer). Paddle counts fans of a matrix laid out [in, out] (paddle.nn.Linear's
weight) and of a convolution kernel laid out as torch's, so a matrix is asked for transposed and
its result transposed back. A parameter a spec leaves out is Paddle's default."""
from adapters.base import DTYPES, Unsupported
from adapters.initializers import INITIALIZER_DTYPES, Initializers, documented, layer_defaults, zero_bias
from adapters.optimizers import fixed, renamed
from adapters.reference.initializers import hidden_size, law
from vocabulary.initializers import RECURRENT
from vocabulary.params import RECURRENT_GATES

CLASSES = {"uniform": "Uniform", "normal": "Normal", "trunc_normal": "TruncatedNormal",
           "xavier_uniform": "XavierUniform", "xavier_normal": "XavierNormal", "kaiming_uniform": "KaimingUniform",
           "kaiming_normal": "KaimingNormal", "orthogonal": "Orthogonal"}
NAMES = {"a": "low", "b": "high"}
KAIMING_NAMES = {"a": "negative_slope"}
SOURCE = "https://github.com/PaddlePaddle/Paddle/blob/v3.3.1/python/paddle/nn/initializer/"
# What paddle.nn.initializer fills (python -m suites coverage --check)
PADDLE_INITIALIZER_DTYPES = {**INITIALIZER_DTYPES, "init_trunc_normal": ("bfloat16", "float32", "float64"),
                             "init_lecun_uniform": (), "init_lecun_normal": (),
                             "init_zeros": DTYPES, "init_ones": DTYPES}


class PaddleInitializers(Initializers):
    """A mixin of PaddleAdapter (self.paddle)."""

    def initialize(self, name, x, seed, params):
        paddle, params = self.paddle, dict(params)
        if name in ("zeros", "ones"):
            init = paddle.nn.initializer.Constant(0.0 if name == "zeros" else 1.0)
        elif name not in CLASSES:
            raise Unsupported(f"paddle.nn.initializer has no {name}")
        else:
            fixed(params, {"truncated": False}, f"paddle.nn.initializer.{CLASSES[name]}")
            names = KAIMING_NAMES if name.startswith("kaiming") else {} if name == "trunc_normal" else NAMES
            init = getattr(paddle.nn.initializer, CLASSES[name])(**renamed(params, names))
        matrix = len(x.shape) == 2
        shape = [x.shape[1], x.shape[0]] if matrix else list(x.shape)
        paddle.seed(seed)
        out = paddle.create_parameter(shape, x.dtype, default_initializer=init).detach()
        return out.T if matrix else out

    def layer_parameters(self, layer, w, seed):
        """paddle.nn's Linear, Conv2D, Embedding, LSTM or GRU built after paddle.seed(seed), in w's dtype as
        Paddle's default dtype (paddle.set_default_dtype, restored after), its Linear weight laid out
        [in, out] brought to torch's."""
        paddle = self.paddle
        out, inputs, *kernel = w.shape
        paddle.seed(seed)
        default = paddle.get_default_dtype()
        paddle.set_default_dtype(str(w.dtype).removeprefix("paddle."))
        try:
            if layer in RECURRENT_GATES:
                built = getattr(paddle.nn, layer.upper())(inputs, hidden_size(w.shape, layer))
                return tuple(getattr(built, name).detach() for name in RECURRENT)
            if layer == "embedding":
                return paddle.nn.Embedding(out, inputs).weight.detach()
            if layer == "linear":
                linear = paddle.nn.Linear(inputs, out)
                return linear.weight.detach().T, linear.bias.detach()
            conv = paddle.nn.Conv2D(inputs, out, tuple(kernel))
            return conv.weight.detach(), conv.bias.detach()
        finally:
            paddle.set_default_dtype(default)


PADDLE_INITIALIZERS = documented(
    "paddle.nn.initializer", {"init_uniform": {"a": -1.0, "b": 1.0}, "init_kaiming_uniform": {"nonlinearity": "relu"},
                              "init_kaiming_normal": {"nonlinearity": "relu"}},
    "Uniform draws from U(-1, 1) (torch.nn.init.uniform_: U(0, 1)), and KaimingUniform and KaimingNormal default "
    "to nonlinearity 'relu', whose gain sqrt(2) ignores negative_slope (torch's kaiming_uniform_(w, a=sqrt(5)), "
    "nn.Linear's own call, defaults to leaky_relu: gain sqrt(2 / (1 + a^2)))", None, SOURCE)

PADDLE_LAYER_DEFAULTS = layer_defaults(
    "paddle.nn", {"init_linear": zero_bias("init_xavier_uniform"),
                  "init_conv2d": zero_bias("init_kaiming_normal", nonlinearity="relu"),
                  "init_embedding": lambda shape: law("init_xavier_uniform", shape)},
    "a parameter without an initializer is XavierUniform (a weight) or Constant(0) (a bias), and Conv2D's weight "
    "N(0, 2 / (in kh kw)) (torch's Linear and Conv2d: U(-1 / sqrt(fan_in), 1 / sqrt(fan_in)) for both; "
    "Embedding: N(0, 1))", "https://github.com/PaddlePaddle/Paddle/blob/v3.3.1/python/paddle/nn/layer/conv.py")
