"""Hypothesis strategies for spec inputs (the rules themselves are read by suites/programs/inputs.py).

Shapes come from the spec's gufunc signature through
hypothesis.extra.numpy.mutually_broadcastable_shapes (never a hand-written broadcasting
generator), their sides from the spec's palette of sizes, and each case's shapes from a few
such shapes per rank chosen once per spec and run (suites/programs/palette.py), so that shapes
repeat and what is compiled for one case serves the next. Every value is exactly representable
in the dtype under test, so the float64 reference sees exactly what the framework sees.
Subnormal inputs are not drawn: XLA and TensorFlow flush them to zero on CPU by design, which is
a separate question from an op's semantics.
"""
import math
import re
import zlib

import hypothesis
import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from suites.judging.compare import COMPONENT, is_complex, is_float, round_to
from suites.programs import inputs, palette

WIDTH = {"float16": 16, "bfloat16": 32, "float32": 32, "float64": 64}
DEFAULT_MAX_SIZE = 4096


def magnitudes(hyp: dict, dtype: str) -> list:
    """The spec's value magnitudes for `dtype` (a list for all dtypes, or a map per dtype)."""
    m = hyp.get("magnitudes", [1])
    return m.get(dtype, [1]) if isinstance(m, dict) else m


def array(dtype: str, shape, magnitude, specials=()):
    """Arrays of `shape` with values in [-magnitude, magnitude], exact in `dtype` (float64 or int);
    float arrays hold the spec's special values too (nan, inf, -inf, -0), wherever hypothesis puts
    them; a complex array is two float arrays of its components' dtype, its real and imaginary
    parts (so a special value meets every other kind of value in the other component: each
    quadrant and axis of the standard's complex special cases)."""
    if is_complex(dtype):
        part = array(COMPONENT[dtype], shape, magnitude, specials)
        return st.tuples(part, part).map(lambda p: round_to(p[0] + 1j * p[1], dtype))
    if dtype == "bool":
        return hnp.arrays(np.bool_, shape)
    if not is_float(dtype):
        low, high = inputs.int_range(dtype, int(magnitude))  # drawn as int64: uint64's upper half left out
        return hnp.arrays(np.int64, shape, elements=st.integers(low, min(high, np.iinfo(np.int64).max)))
    magnitude = _at_most(magnitude, dtype)
    elements = st.floats(-magnitude, magnitude, width=WIDTH[dtype], allow_nan=False, allow_infinity=False,
                         allow_subnormal=False)
    if specials:
        elements = elements | st.sampled_from([float(s) for s in specials])
    storage = np.float32 if dtype == "bfloat16" else np.dtype(dtype)
    return hnp.arrays(storage, shape, elements=elements).map(lambda x: round_to(x, dtype))


def _at_most(magnitude: float, dtype: str) -> float:
    """The largest number of the storage width that does not exceed `magnitude`."""
    storage = np.dtype("float32" if dtype == "bfloat16" else dtype).type
    m = storage(magnitude)
    return float(np.nextafter(m, storage(0)) if m > magnitude else m)


def spec_inputs(spec, dtype: str, specials: bool = True, seed: int = 0):
    """A strategy for one case of the spec: {arg name: exact array}, shapes from its palette (the
    run's `seed` chooses it) by its gufunc signature, values by its input rules
    (suites/programs/inputs.py); with the spec's special values unless `specials` is False (finite
    differences need finite inputs)."""
    hyp = spec.hypothesis
    max_size = hyp.get("max_size", DEFAULT_MAX_SIZE)
    shapes = palette_shapes(hyp["signature"], hyp.get("max_dims", 3), hyp.get("min_side", 1), hyp.get("max_side", 5)
                            ).filter(lambda s: all(math.prod(shape) <= max_size for shape in s.input_shapes))

    rules = spec.input_rules

    def fits(s):
        """Unique indices along an axis need no more index entries than the axis has; unique
        values in [min, max] no more elements than the range holds; indices not all of one value
        (`not_all`) an axis of two or more to draw another from."""
        sizes = dict(zip(spec.args, s.input_shapes))
        return all(sizes[name][o["index_of"]["axis"]] <= sizes[o["index_of"]["arg"]][o["index_of"]["axis"]]
                   if "index_of" in o else math.prod(sizes[name]) <= o.get("max", 8) - o.get("min", 0) + 1
                   for name, o in rules.items() if o.get("unique")) and \
            all(sizes[o["index_of"]["arg"]][o["index_of"]["axis"]] >= 2 for o in rules.values() if "not_all" in o)

    shapes = shapes.filter(fits) if any(o.get("unique") or "not_all" in o for o in rules.values()) else shapes
    shapes = st.sampled_from(shape_palette(spec, shapes, seed))

    @st.composite
    def case(draw):
        drawn = dict(zip(spec.args, draw(shapes).input_shapes))
        magnitude = draw(st.sampled_from(magnitudes(hyp, dtype)))
        return inputs.generate(spec, drawn, dtype, Drawn(draw, magnitude, hyp.get("specials", ()) if specials else ()))

    return case()


def palette_shapes(signature: str, max_dims: int, min_side: int, max_side: int):
    """Shapes by the gufunc signature, every side from the spec's palette (suites/programs/palette.py):
    hypothesis draws palette positions, each position becomes its size. A signature with a fixed
    size ((b,1,t)) or an optional dimension ((m?,n)) draws its sides from [min_side, max_side] as
    they are: which dims of a drawn shape the signature fixes is not told apart there."""
    if any(d.isdigit() or d.endswith("?") for d in re.findall(r"[\w?]+", signature.split("->")[0])):
        return hnp.mutually_broadcastable_shapes(signature=signature, max_dims=max_dims, min_side=min_side,
                                                 max_side=max_side)
    low, high = palette.positions(min_side, max_side)

    def sized(drawn):
        def resize(shape):
            return tuple(palette.size(p, min_side, max_side) for p in shape)
        return drawn._replace(input_shapes=tuple(map(resize, drawn.input_shapes)),
                              result_shape=resize(drawn.result_shape))

    return hnp.mutually_broadcastable_shapes(signature=signature, max_dims=max_dims, min_side=low,
                                             max_side=high).map(sized)


CANDIDATES = 40  # shapes drawn to choose a palette of SHAPES_PER_RANK shapes per rank from (more for more)
_shape_palettes = {}  # _palette_key -> the palette


def shape_palette(spec, shapes, seed: int = 0) -> tuple:
    """The spec's palette of whole shapes for the run of this seed (palette.covering: a few per rank
    of the result, as many as the profile's examples call for, chosen to cover the most ranks,
    sizes and broadcasting patterns) from draws of `shapes`, seeded by the spec's name and the run's
    seed: every example, item, dtype and adapter of the run draws from the same few shapes, so what
    a compiler or exporter made for one case serves the others (and a rerun of the same seed, from
    the on-disk caches), while each commit's seed meets other shapes."""
    key = _palette_key(spec, seed)
    if key not in _shape_palettes:
        per_rank = key[-1]
        drawn = []

        @hypothesis.seed(zlib.crc32(f"{spec.name}:{seed}".encode()))
        @hypothesis.settings(max_examples=CANDIDATES * per_rank // palette.SHAPES_PER_RANK, database=None,
                             derandomize=False, deadline=None, phases=[hypothesis.Phase.generate],
                             suppress_health_check=list(hypothesis.HealthCheck))
        @hypothesis.given(shapes)
        def collect(candidate):
            drawn.append(candidate)

        collect()
        _shape_palettes[key] = palette.covering(drawn, per_rank)
    return _shape_palettes[key]


def _palette_key(spec, seed: int) -> tuple:
    """(spec file, id, hypothesis block, run seed, shapes per rank): a palette is chosen once per process."""
    per_rank = palette.per_rank(hypothesis.settings.default.max_examples)
    return str(spec.file), spec.id, repr(spec.hypothesis), seed, per_rank


def shapes_drawn(spec, seed: int) -> int | None:
    """How many distinct shapes the spec's cases of this run's seed draw from (its palette, once
    spec_inputs made it); None where that is not known (a collective's shards)."""
    chosen = _shape_palettes.get(_palette_key(spec, seed))
    return None if chosen is None else len(chosen)


class Drawn:
    """Values that hypothesis draws (the Source of suites/programs/inputs.py): exact in their dtype, of
    the case's magnitude, with the spec's special values in the args' float arrays."""

    def __init__(self, draw, magnitude, specials=()):
        self.draw, self.magnitude, self.specials = draw, magnitude, specials

    def array(self, dtype: str, shape):
        return self.draw(array(dtype, shape, self.magnitude, self.specials))

    def integers(self, shape, low: int, high: int):
        return self.draw(hnp.arrays(np.int64, shape, elements=st.integers(low, high)))

    def uniform(self, dtype: str, shape, bound: float):
        return self.draw(array(dtype, shape, bound))

    def indices(self, shape, size: int, axis: int, unique: bool):
        return self.draw(indices(shape, size, axis, unique))


def collective_shards(spec, dtype: str):
    """A strategy for a collective's case: a world size from the spec's list, one shard shape
    (its `divisible` axes a multiple of the world size), a shard per rank stacked on axis 0."""
    block = spec.shards

    @st.composite
    def case(draw):
        world = draw(st.sampled_from(block.get("world_sizes", [2, 4])))
        ndim = draw(st.integers(block.get("min_dims", 1), block.get("max_dims", 3)))
        sides = [draw(st.integers(1, block.get("max_side", 4))) for _ in range(ndim)]
        shape = [side * world if axis in block.get("divisible", []) else side for axis, side in enumerate(sides)]
        magnitude = draw(st.sampled_from(magnitudes(block, dtype)))
        return {"shards": draw(array(dtype, (world, *shape), magnitude, block.get("specials", ())))}

    return case()


def indices(shape, size: int, axis: int, unique: bool):
    """int64 arrays of `shape` with values in [0, size); `unique`: distinct along `axis`."""
    if not unique or not math.prod(shape):
        return hnp.arrays(np.int64, shape, elements=st.integers(0, max(size - 1, 0)))
    axis = axis % len(shape)
    lines = math.prod(shape) // shape[axis]
    rows = st.lists(st.permutations(range(size)).map(lambda p: p[:shape[axis]]), min_size=lines, max_size=lines)
    moved = shape[:axis] + shape[axis + 1:] + (shape[axis],)
    return rows.map(lambda r: np.moveaxis(np.array(r, dtype=np.int64).reshape(moved), -1, axis))
