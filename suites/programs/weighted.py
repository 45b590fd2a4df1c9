"""Programs of a layer whose weights the spec derives from its sizes, in PyTorch's names, drawn
as PyTorch initialises them: Recurrent (lstm, gru) and Attention (multi_head_attention). Each is
an Expression (suites/programs/program.py) whose call passes the weights as one dict argument; every
adapter converts them to its framework's layout."""
import math
from dataclasses import dataclass

from suites.programs import expr
from suites.programs.program import Expression
from vocabulary.params import attention_param_shapes, rnn_param_shapes


def _options(params: dict) -> tuple:
    """A spec's params as a call's keyword options."""
    return tuple((k, expr.Const(expr.constant(v))) for k, v in params.items())


RECURRENT_STATES = {"lstm": ("h0", "c0"), "gru": ("h0",)}  # the recurrent ops and their initial states


@dataclass(frozen=True)
class Recurrent(Expression):
    """lstm(x, h0, c0, {weights}, **params) or gru(x, h0, {weights}, **params): the state and the
    weights (PyTorch names) are derived from x and the spec's `lstm` / `gru` sizes; weights in
    [-1/sqrt(H), 1/sqrt(H)], torch's initialisation, states in [-1, 1]. Without state, the states
    are None: the frameworks' zeros."""

    op: str = "lstm"
    input_size: int = 1
    hidden_size: int = 1
    state: bool = True

    @classmethod
    def of(cls, op: str, input_size: int, hidden_size: int, state: bool, params: dict) -> "Recurrent":
        states = tuple(expr.Name(s) if state else expr.Const(None) for s in RECURRENT_STATES[op])
        weights = expr.Group(tuple(rnn_param_shapes(1, 1, params.get("num_layers", 1),
                                                    params.get("bidirectional", False), op)))
        return cls(expr.Call(op, (expr.Name("x"), *states, weights), _options(params)), params=params, op=op,
                   input_size=input_size, hidden_size=hidden_size, state=state)

    @property
    def size_key(self) -> str:
        """A benchmark size's key for other input and hidden sizes: the op's (lstm, gru)."""
        return self.op

    def resized(self, sizes: dict) -> "Recurrent":
        """The same call for other input and hidden sizes (a benchmark's)."""
        sizes = {**self.sizes, **sizes}
        return Recurrent.of(self.op, sizes["input_size"], sizes["hidden_size"], self.state, self.params)

    @property
    def sizes(self) -> dict:
        return {"input_size": self.input_size, "hidden_size": self.hidden_size}

    def shapes(self, x_shape) -> dict:
        """name -> shape of the derived inputs for an input x of `x_shape`."""
        layers, bidirectional = self.params.get("num_layers", 1), self.params.get("bidirectional", False)
        batch = x_shape[0 if self.params.get("batch_first", True) else 1]
        state = (layers * (2 if bidirectional else 1), batch, self.hidden_size)
        shapes = dict.fromkeys(RECURRENT_STATES[self.op], state) if self.state else {}
        return {**shapes, **rnn_param_shapes(self.input_size, self.hidden_size, layers, bidirectional, self.op)}

    def derived(self, values: dict) -> dict:
        bound = 1 / math.sqrt(self.hidden_size)
        return {name: (shape, 1.0 if name in RECURRENT_STATES[self.op] else bound)
                for name, shape in self.shapes(values["x"].shape).items()}

    def derived_names(self) -> list:
        return list(self.shapes((1, 1, 1)))

    def weight_names(self) -> list:
        return [n for n in self.derived_names() if n not in RECURRENT_STATES[self.op]]


ATTENTION_OPS = ("multi_head_attention", "multi_head_attention_weights")


@dataclass(frozen=True)
class Attention(Expression):
    """multi_head_attention(query, key, value, {weights}, **params) (or _weights): the weights in
    torch.nn.MultiheadAttention's names, derived from the query's embedding size E and drawn in
    [-1/sqrt(E), 1/sqrt(E)]. args [x, ...] is self-attention (x is query, key and value), else
    [query, key, value, ...]; an arg key_padding_mask is passed as that option."""

    @classmethod
    def of(cls, op: str, args: list, params: dict) -> "Attention":
        inputs = ("x",) * 3 if "x" in args else ("query", "key", "value")
        mask = (("key_padding_mask", expr.Name("key_padding_mask")),) if "key_padding_mask" in args else ()
        weights = expr.Group(tuple(attention_param_shapes(1)))
        return cls(expr.Call(op, (*map(expr.Name, inputs), weights), _options(params) + mask), params=params)

    def derived(self, values: dict) -> dict:
        embed = values["x" if "x" in values else "query"].shape[-1]
        return {name: (shape, 1 / math.sqrt(embed)) for name, shape in attention_param_shapes(embed).items()}

    def derived_names(self) -> list:
        return list(attention_param_shapes(1))

    def weight_names(self) -> list:
        return self.derived_names()
