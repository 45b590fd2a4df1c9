"""Random programs over the vocabulary, as hypothesis draws them (NNSmith's method, in small).

A program is built op by op. Each step picks a vocabulary op that the program can feed: its main
operand is the last node made (sometimes an earlier one: a DAG), further operands come from the
nodes made so far or from fresh inputs of the shape the op needs (a weight, a bias, a broadcast
partner), or are Python numbers, as users write `x * 0.5`. Every node carries its shape and an
interval holding its values, so that each op is applied where its result is meaningful: log and
sqrt of values >= 1/100, division by values away from zero, no value beyond MAGNITUDE (exp of
exp would overflow). Ops without a derivative (round, sign, a comparison) take inputs only,
whose values are exact: applied to a computed value, a rounding difference flips them.

The program is an expression of the specs' language (suites/programs/expr.py) over inputs x0, x1, ...:
a finding is a spec case as it stands (suites/fuzz/findings.py). Shrinking simplifies the
choices: fewer steps, earlier ops in OPS, smaller shapes.
"""
import math
from dataclasses import dataclass, field, replace

import numpy as np
from hypothesis import strategies as st

from suites.programs import expr
from suites.programs.program import ORACLE, caller, wide_constant

INPUT_MAGNITUDE = 2.0  # inputs are drawn in [-2, 2]
MAGNITUDE = 1e3  # no value of a program exceeds this (intervals say so)
MAX_DIM = 4
NUMBERS = (2.0, 0.5, -1.5, 3.0, 1e-3, 1.0)  # Python-number operands (weakly typed)


@dataclass(frozen=True)
class Node:
    text: str  # the expression
    shape: tuple
    lo: float  # every value lies in [lo, hi]
    hi: float
    exact: bool = False  # an input: its values are exact (discontinuous ops may take it)

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def size(self) -> int:
        return math.prod(self.shape)

    @property
    def largest(self) -> float:
        return max(abs(self.lo), abs(self.hi))


@dataclass
class Program:
    """A drawn program: its expression (the last node made) and its inputs' shapes."""

    args: dict = field(default_factory=dict)  # name -> shape
    nodes: list = field(default_factory=list)  # inputs and results, in the order made
    made: list = field(default_factory=list)  # the results of steps

    def add(self, node: Node) -> bool:
        """Take a step's result: its shape from the reference on inputs of ones, where the
        reference evaluates it and its interval stays within MAGNITUDE."""
        if not within(node.lo, node.hi):
            return False
        try:
            with np.errstate(all="ignore"):
                out = expr.evaluate(expr.parse(node.text, self.args), {k: np.ones(s) for k, s in self.args.items()},
                                    caller(ORACLE, "float64"), wide_constant)
        except Exception:  # the op refuses this configuration: not a step
            return False
        node = replace(node, shape=tuple(np.shape(out)))
        self.nodes.append(node)
        self.made.append(node)
        return True

    def fresh(self, shape) -> Node:
        name = f"x{len(self.args)}"
        self.args[name] = tuple(shape)
        node = Node(name, tuple(shape), -INPUT_MAGNITUDE, INPUT_MAGNITUDE, exact=True)
        self.nodes.append(node)
        return node

    @property
    def result(self) -> Node:
        return self.made[-1] if self.made else self.nodes[0]

    @property
    def text(self) -> str:
        return self.result.text

    def used_args(self) -> dict:
        """The inputs the result's expression names (a fresh input may have been left unused)."""
        names = names_in(expr.parse(self.text, self.args))
        return {k: v for k, v in self.args.items() if k in names}


def names_in(node, skipping=frozenset()) -> set:
    """The input names an expression tree uses, except under calls of the ops in `skipping`."""
    if isinstance(node, expr.Name):
        return {node.id}
    if isinstance(node, tuple):
        return set().union(*(names_in(n, skipping) for n in node))
    if isinstance(node, expr.Call) and node.op not in skipping:
        return set().union(*(names_in(n, skipping) for n in expr.operands(node)))
    return set()


def within(lo, hi) -> bool:
    return bool(np.isfinite(lo) and np.isfinite(hi) and max(abs(lo), abs(hi)) <= MAGNITUDE)


def shapes(min_rank=0, max_rank=4):
    return st.lists(st.integers(1, MAX_DIM), min_size=min_rank, max_size=max_rank).map(tuple)


def broadcast_partner(draw, shape) -> tuple:
    """A shape that broadcasts with `shape` to `shape`: a suffix of it, some axes set to 1."""
    suffix = shape[draw(st.integers(0, len(shape))):]
    return tuple(1 if draw(st.booleans()) else d for d in suffix) if draw(st.booleans()) else suffix


def partner(draw, prog: Program, shape, exact=False) -> Node:
    """A node that broadcasts with `shape` to it: one made so far, or a fresh input."""
    fits = [n for n in prog.nodes if (n.exact or not exact) and _broadcasts_to(n.shape, shape)]
    if fits and draw(st.booleans()):
        return draw(st.sampled_from(fits))
    return prog.fresh(broadcast_partner(draw, shape))


def _broadcasts_to(a, b) -> bool:
    """a broadcasts with b to b's shape."""
    try:
        return np.broadcast_shapes(a, b) == tuple(b)
    except ValueError:
        return False


def axis_of(draw, rank: int) -> int:
    """An axis, negative as often as not."""
    axis = draw(st.integers(0, rank - 1))
    return axis - rank if draw(st.booleans()) else axis
