"""The expression language of specs: vocabulary calls, argument names, numbers, None (an optional
tensor left out), Python's arithmetic, comparison and bitwise operators (+ - * / // % **,
== != < <= > >=, & | ^ ~ << >>: the ops of their standard names)
(strings only as keyword options: mode="reflect"; a keyword may also take a tensor: mask=m), and
indexing as users write it: x[1:, i, None, ...] is the op `index` (ints, slices of ints, None,
..., and index or mask tensors), and `index_set(x[key], v)` / `index_add(x[key], v)` update the
place x[key] (torch's x[key] = v, jax's x.at[key].set(v)).

`parse` turns text into a small tree with `ast`, rejecting everything else (attributes, lists
in a key, lambdas, comprehensions, dunder or unknown names, unknown calls), so a spec can never
execute Python. `evaluate` walks the tree, handing each call to a callback: an adapter's method
for real runs, an error-bound rule for tolerances (suites/judging/compare.py).
"""
import ast
import difflib
import operator
from dataclasses import dataclass

from adapters.base import OPS
from vocabulary import VOCABULARY, having

MAX_DEPTH = 32
BINARY = {ast.Add: "add", ast.Sub: "sub", ast.Mult: "mul", ast.Div: "div", ast.Pow: "pow", ast.FloorDiv: "floor_divide",
          ast.Mod: "remainder", ast.BitAnd: "bitwise_and", ast.BitOr: "bitwise_or", ast.BitXor: "bitwise_xor",
          ast.LShift: "bitwise_left_shift", ast.RShift: "bitwise_right_shift"}
UNARY = {ast.USub: "neg", ast.UAdd: "positive", ast.Invert: "bitwise_invert"}
NUMBER_UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}
COMPARE = {ast.Eq: "equal", ast.NotEq: "not_equal", ast.Lt: "less", ast.LtE: "less_equal", ast.Gt: "greater",
           ast.GtE: "greater_equal"}
# Ops whose number operands are tensors (2 * x); elsewhere a number is a plain argument (an axis).
NUMBER_OPERANDS = having("number_operands")
# Ops whose first argument is a place, x[key], written as a subscript: index_set(x[key], v).
PLACE_OPS = having("place")


class ExprError(ValueError):
    """An expression that is not in the language; the message says what was found."""


@dataclass(frozen=True)
class Name:
    id: str


@dataclass(frozen=True)
class Const:
    value: object  # a number, or a tuple of numbers (axes, shapes)


@dataclass(frozen=True)
class Group:
    """Named inputs passed together as one dict argument (an LSTM's weights), keyed by their names
    less `prefix` (a model's module: `rnn.weight_ih_l0` is the LSTM's `weight_ih_l0`)."""
    names: tuple
    prefix: str = ""


@dataclass(frozen=True)
class Slice:
    """start:stop:step in a key, each an int or None."""
    start: object
    stop: object
    step: object


@dataclass(frozen=True)
class Key:
    """The key of x[key]: its parts in order, each a Const (an int, None, ...), a Slice, or a
    tensor's node (an index or mask tensor)."""
    parts: tuple


@dataclass(frozen=True)
class Call:
    op: str
    args: tuple
    kwargs: tuple  # ((name, node), ...): a Const (an option), or a tensor's Name / Call


def parse(text: str, names) -> object:
    """Parse `text` into Name / Const / Call nodes; `names` are the spec's argument names."""
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise ExprError(f"not a valid expression: {exc.msg} in {text!r}") from None
    return _convert(tree.body, frozenset(names), 0)


def unknown_op(op: str) -> ExprError:
    """The one-line error of an op the vocabulary lacks: the nearest names first (a typo's fix),
    then every op the vocabulary has."""
    near = difflib.get_close_matches(op, OPS, n=3)
    hint = f" (did you mean {' or '.join(map(repr, near))}?)" if near else ""
    return ExprError(f"unknown op {op!r}{hint}; valid ops: {', '.join(sorted(OPS))}")


def call(op: str, names, params: dict) -> Call:
    """The tree of a spec's `op` form: op(arg, ..., **params), the args in order; where a param
    comes before an arg's place in the op's signature (scatter_reduce's axis before index and src,
    a grid over it), every arg by its name, which must then be one of the op's parameters."""
    if op not in OPS:
        raise unknown_op(op)
    consts = tuple((k, Const(constant(v))) for k, v in params.items())
    order = [p for p in VOCABULARY[op].parameters.parameters if p != "self"]
    if not any(p in order[:len(names)] for p in params):
        return Call(op, tuple(Name(n) for n in names), consts)
    unknown = [n for n in names if n not in order]
    if unknown:
        raise ExprError(f"{op}'s params {sorted(params)} come before its arguments' places: name the args after "
                        f"its parameters ({', '.join(order)}), which {', '.join(unknown)} is not")
    return Call(op, (), tuple((n, Name(n)) for n in names) + consts)


def constant(v):
    """A spec param as a constant: lists, nested too, become tuples (hashable, like parsed tuples)."""
    return tuple(constant(item) for item in v) if isinstance(v, list) else v


def _convert(node, names, depth):
    if depth > MAX_DEPTH:
        raise ExprError(f"expression nested deeper than {MAX_DEPTH} levels")
    down = depth + 1
    if isinstance(node, ast.Name):
        if node.id.startswith("_"):
            raise ExprError(f"name {node.id!r} is not allowed (names may not start with '_')")
        if node.id not in names:
            raise ExprError(f"unknown name {node.id!r}; the spec's args are: {', '.join(sorted(names))}")
        return Name(node.id)
    if isinstance(node, ast.Constant):
        if node.value is None:  # an optional tensor left out: lstm(x, None, None, ...)
            return Const(None)
        if not isinstance(node.value, (int, float)):  # bool is an int: keepdims=True
            raise ExprError(f"constant {node.value!r} is not a number")
        return Const(node.value)
    if isinstance(node, ast.UnaryOp) and type(node.op) in UNARY:
        operand = _convert(node.operand, names, down)
        if isinstance(operand, Const) and isinstance(operand.value, (int, float)):  # -1 is a number
            if isinstance(node.op, ast.Invert) and not isinstance(operand.value, int):
                raise ExprError(f"~ of the number {operand.value!r}: bitwise_invert takes integers")
            return Const(NUMBER_UNARY[type(node.op)](operand.value))
        return Call(UNARY[type(node.op)], (operand,), ())
    if isinstance(node, ast.BinOp) and type(node.op) in BINARY:
        return Call(BINARY[type(node.op)], (_convert(node.left, names, down), _convert(node.right, names, down)), ())
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and type(node.ops[0]) in COMPARE:
        left, right = _convert(node.left, names, down), _convert(node.comparators[0], names, down)
        return Call(COMPARE[type(node.ops[0])], (left, right), ())
    if isinstance(node, (ast.Tuple, ast.List)):
        items = [_convert(e, names, down) for e in node.elts]
        if all(isinstance(i, Const) for i in items):
            return Const(tuple(i.value for i in items))
        return tuple(items)  # a list of tensors, for concat and stack
    if isinstance(node, ast.Subscript):
        return Call("index", _place(node, names, down), ())
    if isinstance(node, ast.Call):
        if not isinstance(node.func, ast.Name):
            raise ExprError(f"only vocabulary ops can be called; found {ast.unparse(node.func)!r}")
        op = node.func.id
        if op not in OPS:
            raise unknown_op(op)
        kwargs = []
        for kw in node.keywords:
            if kw.arg is None:
                raise ExprError("'**' arguments are not allowed")
            if isinstance(kw.value, ast.Constant) and isinstance(kw.value.value, str):
                kwargs.append((kw.arg, Const(kw.value.value)))  # an option: mode="reflect", side="pre"
                continue
            if isinstance(kw.value, ast.Tuple) and kw.value.elts and all(
                    isinstance(e, ast.Constant) and isinstance(e.value, str) for e in kw.value.elts):
                kwargs.append((kw.arg, Const(tuple(e.value for e in kw.value.elts))))  # kind=("integral", "bool")
                continue
            kwargs.append((kw.arg, _convert(kw.value, names, down)))
        args = [_convert(a, names, down) for a in node.args[op in PLACE_OPS:]]
        if op in PLACE_OPS:
            if not (node.args and isinstance(node.args[0], ast.Subscript)):
                raise ExprError(f"{op} updates a place: write its first argument as x[key], as in {op}(x[i], v)")
            args = [*_place(node.args[0], names, down), *args]
        return Call(op, tuple(args), tuple(kwargs))
    raise ExprError(f"{_describe(node)} is not allowed in expressions (allowed: vocabulary calls, "
                    "argument names, numbers, + - * / ** and one > or <)")


def _place(node: ast.Subscript, names, depth) -> tuple:
    """x[key] as (x's node, Key)."""
    elements = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
    return _convert(node.value, names, depth + 1), Key(tuple(_key_part(e, names, depth + 1) for e in elements))


def _key_part(node, names, depth):
    if isinstance(node, ast.Slice):
        return Slice(*(None if b is None else _key_int(b, names, depth) for b in (node.lower, node.upper, node.step)))
    if isinstance(node, ast.Constant) and (node.value is None or node.value is Ellipsis):
        return Const(node.value)
    if isinstance(node, (ast.List, ast.Tuple)):
        raise ExprError(f"a list in a key ({ast.unparse(node)!r}) is not allowed: pass the indices as a tensor "
                        "argument")
    part = _convert(node, names, depth)
    if isinstance(part, Const) and not isinstance(part.value, int):
        raise ExprError(f"a key takes ints, slices, None, ... and tensors; found {ast.unparse(node)!r}")
    return part


def _key_int(node, names, depth) -> int:
    value = _convert(node, names, depth)
    if not (isinstance(value, Const) and isinstance(value.value, int)):
        raise ExprError(f"a slice's bounds are ints; found {ast.unparse(node)!r}")
    return value.value


def _describe(node) -> str:
    what = {ast.Attribute: "attribute access", ast.Subscript: "subscript", ast.Lambda: "lambda",
            ast.Compare: "comparison", ast.BoolOp: "boolean operator", ast.IfExp: "conditional",
            ast.Starred: "'*' unpacking", ast.NamedExpr: "assignment"}.get(type(node), type(node).__name__)
    return f"{what} {ast.unparse(node)!r}"


def evaluate(node, env: dict, apply, constant, fixed=None):
    """Evaluate the tree: names from `env`, `constant(number)` for numbers that are operands of
    arithmetic, `apply(op, args, kwargs)` for calls. `fixed` maps call nodes to values used
    instead of evaluating them (finite differences hold stop_gradient subtrees fixed)."""
    if fixed and isinstance(node, Call) and node in fixed:
        return fixed[node]
    if isinstance(node, Name):
        return env[node.id]
    if isinstance(node, Group):
        return {n[len(node.prefix):]: env[n] for n in node.names}
    if isinstance(node, Const):
        return constant(node.value)
    if isinstance(node, tuple):
        return [evaluate(n, env, apply, constant, fixed) for n in node]
    if isinstance(node, Key):
        return tuple(_key_value(p, env, apply, constant, fixed) for p in node.parts)
    args = [a.value if isinstance(a, Const) and node.op not in NUMBER_OPERANDS
            else evaluate(a, env, apply, constant, fixed) for a in node.args]
    kwargs = {k: v.value if isinstance(v, Const) else evaluate(v, env, apply, constant, fixed) for k, v in node.kwargs}
    return apply(node.op, args, kwargs)


def _key_value(part, env, apply, constant, fixed):
    """A key's part as Python indexes it: an int, None, Ellipsis, a slice, or a tensor."""
    if isinstance(part, Const):
        return part.value
    if isinstance(part, Slice):
        return slice(part.start, part.stop, part.step)
    return evaluate(part, env, apply, constant, fixed)


ARITHMETIC = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
              "div": lambda a, b: a / b, "pow": lambda a, b: a ** b, "neg": lambda a: -a}


def parse_formula(text: str, names) -> object:
    """A formula over sizes (a benchmark's FLOPs): names, numbers and + - * / ** only."""
    tree = parse(text, names)
    if not ops_in(tree) <= ARITHMETIC.keys():
        raise ExprError(f"a formula takes names, numbers and + - * / ** only; found {sorted(ops_in(tree))}")
    return tree


def compute(tree, values: dict) -> float:
    """The value of a formula for these sizes."""
    return evaluate(tree, values, lambda op, args, kwargs: ARITHMETIC[op](*args), lambda c: c)


def operands(node: Call) -> tuple:
    """A call's arguments, positional then keyword (options included)."""
    return node.args + tuple(v for _, v in node.kwargs)


def _nodes(node):
    """Every node of the tree, itself first."""
    yield node
    children = (node.parts if isinstance(node, Key) else operands(node) if isinstance(node, Call) else
                node if isinstance(node, tuple) else ())
    for child in children:
        yield from _nodes(child)


def ops_in(node) -> set:
    """Every op the tree calls."""
    return {n.op for n in _nodes(node) if isinstance(n, Call)}


def names_in(node) -> set:
    """Every input name the tree reads (a Group's each)."""
    return {name for n in _nodes(node) for name in ((n.id,) if isinstance(n, Name) else
                                                    n.names if isinstance(n, Group) else ())}


def with_option(node, name: str, change):
    """The tree with each call's option `name` (a Const) changed by `change(value)`: an
    initializer's seed moved to draw again (suites/judging/judge.py)."""
    if isinstance(node, Call):
        return Call(node.op, tuple(with_option(a, name, change) for a in node.args),
                    tuple((k, Const(change(v.value)) if k == name and isinstance(v, Const) else
                           with_option(v, name, change)) for k, v in node.kwargs))
    if isinstance(node, Key):
        return Key(tuple(with_option(p, name, change) for p in node.parts))
    if isinstance(node, tuple):
        return tuple(with_option(p, name, change) for p in node)
    return node


def calls(node, ops) -> list:
    """The outermost call nodes of the tree whose op is in `ops`."""
    if isinstance(node, Key):
        return calls(node.parts, ops)
    if isinstance(node, Call):
        if node.op in ops:
            return [node]
        return [c for a in operands(node) for c in calls(a, ops)]
    if isinstance(node, tuple):
        return [c for a in node for c in calls(a, ops)]
    return []

