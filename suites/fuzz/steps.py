"""The steps random programs are built from, one per vocabulary op or family of ops, and the
hypothesis strategies that compose them (`programs`) and draw their inputs (`inputs`).

A step says which nodes it takes as its main operand (`accepts`) and makes its result (`build`):
the expression text and an interval holding its values, or None where the configuration drawn
is not one the op takes. Shapes are not written here: the grammar evaluates each new expression
on the reference (suites/fuzz/grammar.py), which refuses what the op refuses.
"""
import math
from dataclasses import dataclass

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from suites.fuzz.grammar import INPUT_MAGNITUDE, MAGNITUDE, NUMBERS, Node, Program, axis_of, partner, shapes
from suites.judging.compare import round_to
from suites.programs import strategies


@dataclass(frozen=True)
class Step:
    name: str
    accepts: object  # Node -> bool
    build: object  # (draw, program, node) -> Node | None


def _made(text, lo, hi, exact=False) -> Node:
    return Node(text, (), float(lo), float(hi), exact)  # the grammar fills in the shape


def _monotone(fn):
    return lambda lo, hi: (fn(lo), fn(hi))


def _gelu_range(lo, hi):
    """gelu's least value is -0.16997 (x near -0.752), its tanh approximation's -0.170041: below
    -0.17, which a fuzz case met (gelu(tanh(-x)), approximate="tanh", gave -0.1700229)."""
    return (-0.1701 if lo < 0 else 0.0, max(hi, 0.0))


def _abs_range(lo, hi):
    return (0.0 if lo <= 0 <= hi else min(abs(lo), abs(hi)), max(abs(lo), abs(hi)))


def _sigmoid(v):
    return 1 / (1 + math.exp(-v)) if v > -700 else 0.0


# name -> (which intervals it takes, the result's interval, extra keywords as users pass them)
UNARY = {
    "neg": (None, lambda lo, hi: (-hi, -lo), ""),
    "abs": (None, _abs_range, ""),
    "relu": (None, lambda lo, hi: (max(lo, 0.0), max(hi, 0.0)), ""),
    "tanh": (None, _monotone(math.tanh), ""),
    "sigmoid": (None, _monotone(_sigmoid), ""),
    "square": (None, lambda lo, hi: tuple(v * v for v in _abs_range(lo, hi)), ""),
    "exp": (lambda lo, hi: hi <= math.log(MAGNITUDE), _monotone(math.exp), ""),
    "log": (lambda lo, hi: lo >= 0.01, _monotone(math.log), ""),
    "sqrt": (lambda lo, hi: lo >= 0.01, _monotone(math.sqrt), ""),
    "gelu": (None, _gelu_range, 'approximate="none"'),
    "gelu_tanh": (None, _gelu_range, 'approximate="tanh"'),
    "stop_gradient": (None, lambda lo, hi: (lo, hi), ""),
}


def _unary(name):
    takes, interval, keywords = UNARY[name]
    op = name.split("_tanh")[0]

    def build(draw, prog, x):
        lo, hi = interval(x.lo, x.hi)
        return _made(f"{op}({x.text}{', ' + keywords if keywords else ''})", lo, hi)

    return Step(name, lambda x: takes is None or takes(x.lo, x.hi), build)


def _discontinuous(name, interval):
    """round and sign: of inputs only (exact values), exact themselves."""
    return Step(name, lambda x: x.exact, lambda draw, prog, x: _made(f"{name}({x.text})", *interval(x.lo, x.hi),
                                                                      exact=True))


SYMBOLS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**"}


def _corners(fn, a, b):
    values = [fn(p, q) for p in (a.lo, a.hi) for q in (b.lo, b.hi)]
    return min(values), max(values)


RANGES = {"add": lambda a, b: (a.lo + b.lo, a.hi + b.hi), "sub": lambda a, b: (a.lo - b.hi, a.hi - b.lo),
          "mul": lambda a, b: _corners(lambda p, q: p * q, a, b),
          "div": lambda a, b: _corners(lambda p, q: p / q, a, b),
          "maximum": lambda a, b: (max(a.lo, b.lo), max(a.hi, b.hi)),
          "minimum": lambda a, b: (min(a.lo, b.lo), min(a.hi, b.hi))}


def _operand(draw, prog, x) -> Node:
    """x's partner in an elementwise op: a Python number, a node made so far, or a fresh input."""
    if draw(st.integers(0, 2)) == 0:
        c = draw(st.sampled_from(NUMBERS))
        return Node(repr(c), (), c, c)
    return partner(draw, prog, x.shape)


def _binary(op):
    def build(draw, prog, x):
        other = _operand(draw, prog, x)
        a, b = (x, other) if draw(st.booleans()) else (other, x)
        if op == "div" and not (b.lo >= 0.1 or b.hi <= -0.1):
            return None  # division by values near zero
        lo, hi = RANGES[op](a, b)
        text = f"({a.text} {SYMBOLS[op]} {b.text})" if op in SYMBOLS else f"{op}({a.text}, {b.text})"
        return _made(text, lo, hi)

    return Step(op, lambda x: True, build)


def _pow(draw, prog, x):
    """x ** 2 or x ** 3 of any x; a positive x to a number or to a small tensor."""
    if x.lo < 0.1:
        p = draw(st.sampled_from([2, 3]))
        lo, hi = (_abs_range(x.lo, x.hi)[0] ** 2, x.largest ** 2) if p == 2 else (x.lo ** 3, x.hi ** 3)
        return _made(f"({x.text} ** {p})", lo, hi)
    exponent = _operand(draw, prog, x)
    if exponent.largest > 3:
        return None
    lo, hi = _corners(lambda p, q: p ** q, x, exponent)
    return _made(f"({x.text} ** {exponent.text})", lo, hi)


def _exact_mask(draw, prog, shape) -> str:
    """`a > b` of exact values (inputs, a number): a mask broadcasting to `shape`."""
    a = partner(draw, prog, shape, exact=True)
    b = Node(repr(c := draw(st.sampled_from([0.0, 0.5, -1.0]))), (), c, c) if draw(st.booleans()) else \
        partner(draw, prog, shape, exact=True)
    return f"({a.text} > {b.text})"


def _where(draw, prog, x):
    mask, other = _exact_mask(draw, prog, x.shape), partner(draw, prog, x.shape)
    a, b = (x, other) if draw(st.booleans()) else (other, x)
    return _made(f"where({mask}, {a.text}, {b.text})", min(a.lo, b.lo), max(a.hi, b.hi))


def _masked_fill(draw, prog, x):
    value = draw(st.sampled_from([0.0, -1.0, 1e3]))
    return _made(f"masked_fill({x.text}, {_exact_mask(draw, prog, x.shape)}, {value!r})",
                 min(x.lo, value), max(x.hi, value))


def _clip(draw, prog, x):
    lo = draw(st.sampled_from([-1.0, -0.5, 0.0]))
    hi = lo + draw(st.sampled_from([0.5, 1.0, 2.0]))
    return _made(f"clip({x.text}, {lo!r}, {hi!r})", min(max(x.lo, lo), hi), max(min(x.hi, hi), lo))


def _axes(draw, rank):
    """None, one axis, or a tuple of distinct axes."""
    kind = draw(st.integers(0, 2))
    if kind == 0:
        return None
    if kind == 1:
        return axis_of(draw, rank)
    return tuple(sorted(draw(st.sets(st.integers(0, rank - 1), min_size=1, max_size=rank))))


def _reduced(x, axis) -> int:
    """How many elements each result element reduces."""
    return x.size // max(1, np.zeros(x.shape).sum(axis=axis).size)


def _reduction(op):
    def build(draw, prog, x):
        axis, keepdims = _axes(draw, x.rank), draw(st.booleans())
        n = _reduced(x, axis)
        lo, hi = (n * x.lo, n * x.hi) if op == "sum" else (x.lo, x.hi)
        return _made(f"{op}({x.text}, axis={axis!r}, keepdims={keepdims})", lo, hi)

    return Step(op, lambda x: x.rank >= 1, build)


def _along(op):
    """cumsum, softmax, log_softmax, norm, normalize along one axis."""
    def build(draw, prog, x):
        axis = axis_of(draw, x.rank)
        n = x.shape[axis]
        lo, hi = {"cumsum": (min(x.lo, n * x.lo), max(x.hi, n * x.hi)),
                  "softmax": (math.exp(x.lo - x.hi) / n, 1.0),
                  "log_softmax": (x.lo - x.hi - math.log(n), 0.0),
                  "norm": (0.0, math.sqrt(n) * x.largest),
                  "normalize": (-1.0, 1.0)}[op]
        return _made(f"{op}({x.text}, axis={axis})" if op != "normalize" else
                     f"normalize({x.text}, axis={axis}, eps=1e-12)", lo, hi)

    return Step(op, lambda x: x.rank >= 1, build)


def _reshape(draw, prog, x):
    kind = draw(st.sampled_from(["flatten", "unit", "merge"] if x.rank >= 2 else ["flatten", "unit"]))
    shape = list(x.shape)
    if kind == "flatten":
        shape = [-1]
    elif kind == "unit":
        shape.insert(draw(st.integers(0, x.rank)), 1)
    else:
        i = draw(st.integers(0, x.rank - 2))
        shape[i:i + 2] = [shape[i] * shape[i + 1]]
    return _made(f"reshape({x.text}, {tuple(shape)!r})", x.lo, x.hi)


def _transpose(draw, prog, x):
    axes = tuple(draw(st.permutations(range(x.rank))))
    return _made(f"transpose({x.text}, {axes!r})", x.lo, x.hi)


def _joined(op):
    """concat (the other's length along the axis drawn) and stack (the same shape)."""
    def build(draw, prog, x):
        axis = axis_of(draw, x.rank + (op == "stack"))
        shape = list(x.shape)
        if op == "concat":
            shape[axis] = draw(st.integers(1, 3))
        same = [n for n in prog.nodes if n.shape == tuple(shape)]
        other = draw(st.sampled_from(same)) if same and draw(st.booleans()) else prog.fresh(shape)
        pair = (x, other) if draw(st.booleans()) else (other, x)
        return _made(f"{op}([{pair[0].text}, {pair[1].text}], {axis})", min(x.lo, other.lo), max(x.hi, other.hi))

    return Step(op, lambda x: x.rank >= 1 or op == "stack", build)


def _pad(draw, prog, x):
    mode = draw(st.sampled_from(["constant", "reflect", "replicate", "symmetric"]))
    longest = {"reflect": lambda d: d - 1, "symmetric": lambda d: d}.get(mode, lambda d: 2)
    widths = tuple((draw(st.integers(0, min(2, longest(d)))), draw(st.integers(0, min(2, longest(d)))))
                   for d in x.shape)
    if mode != "constant":
        return _made(f"pad({x.text}, {widths!r}, mode={mode!r})", x.lo, x.hi)
    value = draw(st.sampled_from([0.0, -1.0]))
    return _made(f"pad({x.text}, {widths!r}, mode='constant', value={value!r})", min(x.lo, value), max(x.hi, value))


def _matmul(draw, prog, x):
    """x @ w, or w @ x, w a fresh input of the shape that fits (batched or not)."""
    n = draw(st.integers(1, 4))
    if draw(st.booleans()):
        k, w = x.shape[-1], prog.fresh((x.shape[-1], n) if draw(st.booleans()) or x.rank < 2 else (x.shape[-1],))
        text = f"matmul({x.text}, {w.text})"
    else:
        k = x.shape[-2] if x.rank >= 2 else x.shape[0]
        w = prog.fresh((n, k))
        text = f"matmul({w.text}, {x.text})"
    bound = k * x.largest * INPUT_MAGNITUDE
    return _made(text, -bound, bound)


def _linear(draw, prog, x):
    d, out = x.shape[-1], draw(st.integers(1, 4))
    w = prog.fresh((out, d))
    b = prog.fresh((out,)).text if draw(st.booleans()) else "None"
    bound = d * x.largest * INPUT_MAGNITUDE + INPUT_MAGNITUDE
    return _made(f"linear({x.text}, {w.text}, {b})", -bound, bound)


def _layer_norm(draw, prog, x):
    d = x.shape[-1]
    w, b = (prog.fresh((d,)).text if draw(st.booleans()) else "None" for _ in range(2))
    bound = math.sqrt(d) * INPUT_MAGNITUDE + INPUT_MAGNITUDE
    return _made(f"layer_norm({x.text}, {w}, {b}, eps=1e-05)", -bound, bound)


def _conv(rank):
    """conv1d on [N, C, L], conv2d on [N, C, H, W]: a fresh weight (and bias), small options."""
    def build(draw, prog, x):
        out, k = draw(st.integers(1, 3)), draw(st.integers(1, 3))
        w = prog.fresh((out, x.shape[1], *(k,) * (rank - 2)))
        b = prog.fresh((out,)).text if draw(st.booleans()) else "None"
        stride, dilation = draw(st.integers(1, 2)), draw(st.integers(1, 2))
        padding = draw(st.sampled_from([0, 1, "same", "valid"]))
        if padding == "same" and stride > 1:
            return None
        bound = x.shape[1] * k ** (rank - 2) * x.largest * INPUT_MAGNITUDE + INPUT_MAGNITUDE
        return _made(f"conv{rank - 2}d({x.text}, {w.text}, {b}, stride={stride}, padding={padding!r}, "
                     f"dilation={dilation})", -bound, bound)

    return Step(f"conv{rank - 2}d", lambda x: x.rank == rank, build)


def _pool(op):
    rank = 3 if op.endswith("1d") else 4

    def build(draw, prog, x):
        kernel = draw(st.integers(1, 3))
        stride = draw(st.sampled_from([None, 1, 2]))
        padding = draw(st.integers(0, kernel // 2))
        ceil_mode = draw(st.booleans())
        lo, hi = (x.lo, x.hi) if op.startswith("max") else (min(x.lo, 0.0), max(x.hi, 0.0))
        return _made(f"{op}({x.text}, {kernel}, stride={stride}, padding={padding}, ceil_mode={ceil_mode})", lo, hi)

    return Step(op, lambda x: x.rank == rank, build)


def _attention(draw, prog, x):
    """dot_product_attention with x as the queries [B, N, T, D]; fresh keys and values."""
    b, n, _, d = x.shape
    s = draw(st.integers(1, 4))
    k, v = prog.fresh((b, n, s, d)), prog.fresh((b, n, s, draw(st.integers(1, 4))))
    return _made(f"dot_product_attention({x.text}, {k.text}, {v.text}, causal={draw(st.booleans())})",
                 -INPUT_MAGNITUDE, INPUT_MAGNITUDE)


STEPS = [
    *(_unary(name) for name in UNARY),
    *(_binary(op) for op in RANGES),
    Step("pow", lambda x: True, _pow),
    _discontinuous("round", lambda lo, hi: (round(lo), round(hi))),
    _discontinuous("sign", lambda lo, hi: (-1.0, 1.0)),
    Step("where", lambda x: True, _where),
    Step("masked_fill", lambda x: True, _masked_fill),
    Step("clip", lambda x: True, _clip),
    *(_reduction(op) for op in ("sum", "mean", "max")),
    *(_along(op) for op in ("cumsum", "softmax", "log_softmax", "norm", "normalize")),
    Step("reshape", lambda x: True, _reshape),
    Step("transpose", lambda x: x.rank >= 2, _transpose),
    _joined("concat"),
    _joined("stack"),
    Step("pad", lambda x: x.rank >= 1, _pad),
    Step("matmul", lambda x: x.rank >= 1, _matmul),
    Step("linear", lambda x: x.rank >= 1, _linear),
    Step("layer_norm", lambda x: x.rank >= 1 and x.shape[-1] >= 2, _layer_norm),  # of one value: its rounding
    _conv(3),
    _conv(4),
    *(_pool(op) for op in ("max_pool1d", "avg_pool1d", "max_pool2d", "avg_pool2d")),
    Step("dot_product_attention", lambda x: x.rank == 4, _attention),
]


@st.composite
def programs(draw, max_steps: int = 6, steps=tuple(STEPS)) -> Program:
    """A random program of 1 to max_steps steps: each on the last result, or now and then on an
    earlier node (the program becomes a DAG); a step whose result the reference refuses, or whose
    values could leave MAGNITUDE, is left out."""
    prog = Program()
    prog.fresh(draw(shapes()))
    for _ in range(draw(st.integers(1, max_steps))):
        x = prog.result if draw(st.integers(0, 3)) else draw(st.sampled_from(prog.nodes))
        step = draw(st.sampled_from([s for s in steps if s.accepts(x)]))
        node = step.build(draw, prog, x)
        if node is not None:
            prog.add(node)
    return prog


def inputs(prog: Program, dtype: str):
    """The values of the program's inputs, exact in `dtype`: magnitudes in [1/16, INPUT_MAGNITUDE]
    of either sign. Zero is left to the specs' own regimes: shrinking drives values to the
    simplest ones, and at zero most ops of a program sit on a kink (relu, abs, norm) where the
    derivative is the framework's choice."""
    magnitude = st.floats(1 / 16, INPUT_MAGNITUDE, width=strategies.WIDTH[dtype])
    element = st.tuples(st.booleans(), magnitude).map(lambda sv: -sv[1] if sv[0] else sv[1])
    storage = np.float32 if dtype == "bfloat16" else np.dtype(dtype)
    return st.fixed_dictionaries({name: hnp.arrays(storage, shape, elements=element).map(
        lambda x: round_to(x, dtype)) for name, shape in prog.used_args().items()})
