"""The shapes a generated case takes: a small palette per spec, chosen for the regimes.

A compiled program, an export or a JAX executable is made per input shape; drawn freely, every
generated case has a shape of its own and nothing compiled is used twice. Drawn from a palette,
shapes repeat across examples and items (and a rerun of the same seed), so the compilers'
in-process and on-disk caches serve them, and the run costs what its distinct programs cost.
A case's shapes are one of a few whole shapes per rank of the result (`covering`, chosen from
hypothesis' draws by suites/programs/strategies.py), whose sides come from a palette of sizes
that holds, within the spec's own [min_side, max_side] (a spec's bounds are semantic: a kernel
that must fit, unique values that must exist):

- the empty axis (0) where the spec allows it, and the singleton axis (1), which broadcasts;
- the smallest side above the lowest, and the largest side the spec allows;
- an odd side above 1 (the largest one, or one below it), where kernels take a remainder path;
- the sizes just past a kernel's block or tile boundary (17, 257, 1025) that the spec's range
  reaches: a vector width of 16, a block of 256 and of 1024 elements, where a kernel leaves its
  main loop for a tail.

Hypothesis draws the shapes by the signature (hypothesis.extra.numpy.mutually_broadcastable_shapes)
over the palette's positions, and each position becomes its size. The map is increasing and keeps
0 and 1 where they are, so two drawn sides broadcast exactly when their sizes do, and shrinking
moves to smaller sizes.
"""
import functools
import math

BLOCK_BOUNDARIES = (17, 257, 1025)  # one past 16, 256 and 1024: a vector's, a block's and a grid's tail
NEGATIVE = "negative index"  # a regime of the values: generated indices that count from the end


@functools.cache
def sides(min_side: int, max_side: int) -> tuple:
    """The palette's sizes for a spec whose axes lie in [min_side, max_side], ascending."""
    if max_side < min_side:
        raise ValueError(f"max_side {max_side} is below min_side {min_side}")
    chosen = {min_side, min(min_side + 1, max_side), max_side}
    chosen |= {b for b in BLOCK_BOUNDARIES if min_side < b < max_side}
    if not any(s > 1 and s % 2 for s in chosen) and max_side - 1 > min_side + 1:
        chosen.add(max_side - 1)  # an odd side: max_side is even here
    return tuple(sorted(chosen))


def positions(min_side: int, max_side: int) -> tuple:
    """The (min, max) positions that hypothesis draws sides from, so that `size` maps each to its
    palette size: positions start at min_side, so 0 and 1 stay where they are."""
    return min_side, min_side + len(sides(min_side, max_side)) - 1


def size(position: int, min_side: int, max_side: int) -> int:
    """The palette size at a drawn position."""
    return sides(min_side, max_side)[position - min_side]


def regimes(min_side: int, max_side: int, max_size: int) -> list:
    """The regimes the palette reaches for a spec of these bounds (docs/cost.md's table): empty,
    singleton, odd and the block boundaries no larger than max_size elements on one axis."""
    palette = sides(min_side, max_side)
    reached = [name for name, present in (("empty", 0 in palette), ("singleton", 1 in palette),
                                          ("odd", any(s > 1 and s % 2 for s in palette)))
               if present]
    return reached + [f"past {b - 1}" for b in BLOCK_BOUNDARIES if b in palette and b <= max_size]


def area_table(specs) -> list:
    """Rows (area, generated specs, regime: how many of them reach it) for every area with
    generated shapes, then the regimes no spec of the area reaches: what `python -m suites
    regimes` prints and docs/cost.md shows; and "negative index" where a generated index counts
    from the end too (an input rule's `negative`: suites/programs/inputs.py), never missing: the
    ops of the other areas' indices (gather, scatter, embedding, a loss' targets) take [0, size)
    only, which their out-of-range specs check."""
    names = ["empty", "singleton", "odd", *(f"past {b - 1}" for b in BLOCK_BOUNDARIES), NEGATIVE]
    by_area = {}
    for spec in specs:
        hyp = spec.hypothesis
        if hyp and "signature" in hyp:
            reached = regimes(hyp.get("min_side", 1), hyp.get("max_side", 5), hyp.get("max_size", 4096))
            rules = spec.input_rules.values()
            by_area.setdefault(spec.area, []).append(reached + [NEGATIVE] * any(r.get("negative") for r in rules))
    rows = []
    for area, reached in sorted(by_area.items()):
        counts = {name: sum(name in r for r in reached) for name in names}
        missing = [name for name in names if not counts[name] and name != NEGATIVE]
        rows.append((area, len(reached), {n: c for n, c in counts.items() if c}, missing))
    return rows


SHAPES_PER_RANK = 3  # the shapes a spec's palette holds for each rank of its result, in the ci profile


def per_rank(max_examples: int) -> int:
    """How many shapes per rank of its result a spec's palette holds: SHAPES_PER_RANK for the ci
    profile's 5 examples, a quarter of the examples where a profile searches (the dev profile's
    40: 10; thorough's 500: 125), so that a search meets as many shapes as it has examples for."""
    return max(SHAPES_PER_RANK, max_examples // 4)


def covering(drawn: list, per_rank: int = SHAPES_PER_RANK) -> tuple:
    """A small palette of whole shapes from drawn candidates (hypothesis' BroadcastableShapes, in
    the order drawn): for each rank of the result, `per_rank` of them, each in turn the one that
    adds the most features not yet covered (_features: each argument's rank, the sizes of each axis,
    how the arguments' sizes meet on each axis), the earliest on a tie; smallest first, so that
    hypothesis shrinks towards the smallest."""
    by_rank = {}
    for shapes in dict.fromkeys(drawn):  # distinct, in the order drawn
        by_rank.setdefault(len(shapes.result_shape), []).append((shapes, _features(shapes)))
    chosen = []
    for rank in sorted(by_rank):
        covered, candidates = set(), by_rank[rank]
        for _ in range(min(per_rank, len(candidates))):
            best = max(range(len(candidates)), key=lambda i: (len(candidates[i][1] - covered), -i))
            shapes, features = candidates.pop(best)
            covered |= features
            chosen.append(shapes)
    return tuple(sorted(chosen, key=lambda s: (sum(math.prod(shape) for shape in s.input_shapes), len(s.result_shape))))


def _features(shapes) -> set:
    """What a palette should hold: each argument's rank, each (argument, axis from the end, size),
    and each axis' sizes across the arguments (where one broadcasts against another, or lacks it)."""
    inputs = shapes.input_shapes
    ranks = {("rank", arg, len(shape)) for arg, shape in enumerate(inputs)}
    sizes = {(arg, axis, size) for arg, shape in enumerate(inputs) for axis, size in enumerate(reversed(shape))}
    longest = max(map(len, inputs), default=0)
    meeting = {("axis", axis, tuple(shape[-1 - axis] if axis < len(shape) else None for shape in inputs))
               for axis in range(longest)} if len(inputs) > 1 else set()
    return ranks | sizes | meeting
