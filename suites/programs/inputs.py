"""A spec's inputs: the one interpreter of its input rules, for hypothesis cases, explicit
examples and benchmark workloads alike.

The rules (a spec's `hypothesis.inputs`) say how an arg is made: `index_of` (valid indices into
another arg's axis, `unique` along it, `not_all`: not every one this index, `negative`: either
way, as i or as i - size, where the op counts from the end), `min` / `max` (integers, `unique` in
the whole arg; with `step`, the floats min * step .. max * step on that grid, where ties and
bounds lie, its zeros of either sign), `dtype` (bool, say), `at_least_one` (every last-axis
row of a mask holds that value), `invertible` (square matrices made diagonally dominant along a
drawn permutation, so that LU's partial pivoting swaps rows), `positive_definite` (symmetric
square matrices made diagonally dominant, Cholesky's) and `separated` (matrices whose diagonal
keeps their eigenvalues and singular values apart, where their derivatives exist). The program adds its derived
inputs (an LSTM's state and weights). Where the values come from is a Source: hypothesis draws
(suites/programs/strategies.py), or a seeded NumPy generator (examples and benchmarks).
"""
import math
import zlib

import numpy as np

from suites.judging.compare import is_complex, is_float, round_to, written


def generate(spec, shapes: dict, dtype: str, source) -> dict:
    """{arg: array} of these shapes by the spec's rules, then its program's derived inputs."""
    rules = spec.input_rules
    values = {}
    for name, shape in shapes.items():
        rule = rules.get(name, {})
        if "index_of" in rule:
            of = rule["index_of"]
            size = shapes[of["arg"]][of["axis"]]
            values[name] = source.indices(shape, size, of["axis"], rule.get("unique", False))
            if "not_all" in rule:
                values[name] = not_all(values[name], rule["not_all"], size)
            if rule.get("negative"):  # the same positions, some counted from the end
                values[name] = np.where(source.integers(shape, 0, 1) == 1, values[name] - size, values[name])
        elif "min" in rule or "max" in rule:
            values[name] = _integers(source, shape, rule.get("min", 0), rule.get("max", 8), rule.get("unique", False))
            if "step" in rule:  # floats on a grid (ties, bounds): the integers times step, zeros of either sign
                signs = np.where(source.integers(shape, 0, 1) == 1, -1.0, 1.0)
                grid = np.where(values[name] == 0, signs * 0.0, values[name] * float(rule["step"]))
                values[name] = round_to(grid, dtype)
        else:
            values[name] = source.array(rule.get("dtype", dtype), shape)
        if "at_least_one" in rule and values[name].size:
            values[name] = with_one(values[name], rule["at_least_one"])
        if rule.get("invertible") and values[name].size:
            values[name] = invertible(values[name], source.indices(shape[:-1], shape[-1], -1, True), dtype)
        if rule.get("positive_definite") and values[name].size:
            values[name] = positive_definite(values[name], dtype)
        if rule.get("separated") and values[name].size:
            values[name] = separated(values[name], dtype)
    return add_derived(spec, values, dtype, source)


def _integers(source, shape, low: int, high: int, unique: bool) -> np.ndarray:
    """Integers in [low, high]; `unique`: all distinct (a random pick of that many from the range,
    as the distinct indices of a flattened arg are drawn), so that no two elements tie."""
    if not unique:
        return source.integers(shape, low, high)
    count = math.prod(shape)
    if count > high - low + 1:
        raise ValueError(f"unique values: {count} elements from [{low}, {high}], which holds {high - low + 1}")
    return low + source.indices((count,), high - low + 1, 0, True).reshape(shape)


def add_derived(spec, values: dict, dtype: str, source) -> dict:
    """The values with the program's derived inputs that they lack (an example may give some)."""
    for name, (shape, bound) in spec.program.derived(values).items():
        if name not in values:
            values[name] = source.uniform(dtype, shape, bound)
    return values


def not_all(indices: np.ndarray, value: int, size: int) -> np.ndarray:
    """The indices with the last one moved off `value` (to the next index along the axis) where
    every one is `value`: a loss' ignored class never takes every row, whose mean is 0 / 0
    (cross-entropy-all-ignored asks that apart). The axis needs two indices at least."""
    if indices.size == 0 or not (indices == value).all():
        return indices
    if size < 2:
        raise ValueError(f"not_all: indices into an axis of {size} cannot avoid {value}; give it 2 or more")
    indices = indices.copy()
    indices.flat[-1] = (value + 1) % size
    return indices


def invertible(x: np.ndarray, permutation: np.ndarray, dtype: str) -> np.ndarray:
    """The square matrices of x's last two axes, each row i's element in column permutation[i]
    grown (away from 0) by twice the row's sum of |x| and x's largest |x| (1 where that is 0), then
    rounded to dtype: strictly diagonally dominant along the permutation, so the matrix is
    invertible and conditioned by its rows' scales only, and partial pivoting must swap its rows
    to find the dominant elements (drawn unconditioned, most small matrices a hypothesis draws are
    singular: a zero matrix, equal rows)."""
    x = np.array(x, dtype=np.float64)
    scale = np.max(np.abs(x), initial=0.0) or 1.0
    rows = np.indices(permutation.shape)
    picked = tuple(rows) + (permutation,)
    grow = 2 * np.sum(np.abs(x), axis=-1) + scale
    x[picked] += np.where(x[picked] < 0, -grow, grow)
    return round_to(x, dtype)


def positive_definite(x: np.ndarray, dtype: str) -> np.ndarray:
    """The square matrices of x's last two axes made symmetric ((x + x^T) / 2), each diagonal element
    then set to twice its row's sum of |x| off the diagonal plus x's largest |x| (1 where that is 0),
    and rounded to dtype (which keeps the symmetry): symmetric and strictly diagonally dominant with
    a positive diagonal, so positive definite (Gershgorin), conditioned by the rows' scales. Drawn
    unconditioned, a matrix is almost never positive definite."""
    x = np.array(x, dtype=np.float64)
    x = (x + np.swapaxes(x, -1, -2)) / 2
    scale = np.max(np.abs(x), initial=0.0) or 1.0
    diagonal = np.arange(x.shape[-1])
    x[..., diagonal, diagonal] = 0
    x[..., diagonal, diagonal] = 2 * np.sum(np.abs(x), axis=-1) + scale
    return round_to(x, dtype)


def separated(x: np.ndarray, dtype: str) -> np.ndarray:
    """The matrices of x's last two axes (any M x N) with the diagonal set to (-1)^i (i + 1) c, c the
    off-diagonal part's Frobenius norm F times sqrt(max(M, N)) + 2, plus x's largest |x| (1 where
    that is 0), rounded to dtype. Weyl's bounds keep each eigenvalue (of a symmetric matrix so made,
    or of x + x^T) and each singular value within F (2F) of its diagonal element's, and these lie c
    or more apart and from 0: distinct and nonzero, where eigvalsh's and svdvals' derivatives exist.
    A square matrix's column and row sums of |x| lie apart too (the off-diagonal parts of two of
    them differ by at most sqrt(N - 1) F), where matrix_norm's +-1 and +-inf have derivatives.
    Drawn unconditioned, a matrix of ties (all zeros, say) has repeated ones."""
    x = np.array(x, dtype=np.float64)
    diagonal = np.arange(min(x.shape[-2:]))
    x[..., diagonal, diagonal] = 0
    scale = np.max(np.abs(x), initial=0.0) or 1.0
    frobenius = scale * np.sqrt(np.sum((x / scale) ** 2, axis=(-2, -1)))  # scaled: x ** 2 overflows past 1e154
    c = (np.sqrt(max(x.shape[-2:])) + 2) * frobenius + scale
    x[..., diagonal, diagonal] = c[..., None] * np.where(diagonal % 2, -1.0, 1.0) * (diagonal + 1)
    return round_to(x, dtype)


def with_one(mask: np.ndarray, value: bool) -> np.ndarray:
    """The mask with `value` at the first position of every last-axis row that lacks it."""
    mask = mask.copy()
    lacking = ~(mask == value).any(axis=-1)
    mask[lacking, 0] = value
    return mask


class Seeded:
    """Values from a seeded NumPy generator: normal floats (exact in the dtype; a complex number's
    components each one), integers in [-100, 100], fair bools; indices and uniform values as the rules ask."""

    def __init__(self, seed_text: str):
        self.rng = np.random.default_rng(zlib.crc32(seed_text.encode()))

    def array(self, dtype: str, shape) -> np.ndarray:
        if dtype == "bool":
            return self.rng.random(shape) < 0.5
        if is_complex(dtype):
            return round_to(self.rng.standard_normal(shape) + 1j * self.rng.standard_normal(shape), dtype)
        if not is_float(dtype):
            low, high = int_range(dtype, 100)
            return self.rng.integers(low, high + 1, size=shape).astype(dtype)
        return round_to(self.rng.standard_normal(shape), dtype)

    def integers(self, shape, low: int, high: int) -> np.ndarray:
        return self.rng.integers(low, high + 1, size=shape)

    def uniform(self, dtype: str, shape, bound: float) -> np.ndarray:
        return round_to(self.rng.uniform(-bound, bound, shape), dtype)

    def indices(self, shape, size: int, axis: int, unique: bool) -> np.ndarray:
        if not unique:
            return self.rng.integers(0, size, size=shape)
        # distinct along `axis`: the first shape[axis] entries of a random permutation per line
        keys = self.rng.random(tuple(size if d == axis % len(shape) else n for d, n in enumerate(shape)))
        return np.take(np.argsort(keys, axis=axis), np.arange(shape[axis]), axis=axis)


def example(spec, given, dtype: str) -> dict:
    """An explicit example's inputs (`values`, or a `shape` filled as `fill` says), and the
    derived ones it does not give, from a generator seeded by the spec and example names only,
    so that every adapter and dtype sees the same values."""
    source = Seeded(f"{spec.name}/{given.name}")
    rules = spec.input_rules
    values = {name: fill(inp, rules.get(name, {}).get("dtype", dtype), source.rng)
              for name, inp in sorted(given.inputs.items())}
    return add_derived(spec, values, dtype, source)


def drawn(inp: dict) -> bool:
    """Whether an explicit example's input is drawn: a `shape` filled normal (the default) or
    uniform, whose values appear nowhere in the spec (a generated case's kind of input)."""
    return "values" not in inp and fill_of(inp) in ("normal", "uniform")


def fill_of(inp: dict) -> str:
    return inp.get("fill", "normal")


def fill(inp: dict, dtype: str, rng: np.random.Generator) -> np.ndarray:
    """An explicit example's input: its `values`, or its `shape` filled as `fill` says."""
    dtype = inp.get("dtype", dtype)
    if "values" in inp:
        return written(inp["values"], dtype)
    shape, how = tuple(inp["shape"]), fill_of(inp)
    if how == "arange":
        values = np.arange(math.prod(shape)).reshape(shape)
    elif how in ("ones", "zeros"):
        values = (np.ones if how == "ones" else np.zeros)(shape)
    elif is_complex(dtype):  # each component drawn as a float's
        draw = rng.standard_normal if how == "normal" else lambda s: rng.uniform(-1, 1, s)
        values = draw(shape) + 1j * draw(shape)
    elif not is_float(dtype):
        low, high = int_range(dtype, 5)
        values = rng.integers(low, high + 1, size=shape)
    else:
        values = rng.standard_normal(shape) if how == "normal" else rng.uniform(-1, 1, shape)
    return round_to(values, dtype)


def int_range(dtype: str, magnitude: int) -> tuple:
    """[-magnitude, magnitude] within the integer dtype's range (from 0 for an unsigned one)."""
    if dtype == "bool":
        return 0, 1
    info = np.iinfo(np.dtype(dtype))
    return max(-magnitude, int(info.min)), min(magnitude, int(info.max))
