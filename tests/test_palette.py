"""Generated shapes come from a palette chosen for the regimes, so that they repeat and what is
compiled for one case serves the next; staged programs are shared across a process's items only
where the runtime compiles once per input signature."""
import math
import textwrap

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import adapters
from suites.loading.specs import load_file
from suites.programs import palette, strategies
from suites.programs.context import shared_stages

SPEC = """\
- id: broadcast-add
  expr: "add(a, b)"
  args: [a, b]
  dtypes: [float32]
  hypothesis:
    signature: "(),()->()"
    max_dims: 3
"""


def spec_of(tmp_path, text=SPEC):
    path = tmp_path / "palette.yaml"
    path.write_text(textwrap.dedent(text))
    return load_file(path)[0]


@given(st.integers(0, 3), st.integers(0, 1200))
def test_the_palette_holds_the_regimes_of_its_range(low, span):
    high = low + span
    sides = palette.sides(low, high)
    assert sides[0] == low and sides[-1] == high and list(sides) == sorted(set(sides))
    assert all(low <= s <= high for s in sides)
    assert (0 in sides) == (low == 0) and (1 in sides) == (low <= 1 <= high)
    if high - low >= 3:
        assert any(s > 1 and s % 2 for s in sides), "an odd side above 1"
    assert {b for b in palette.BLOCK_BOUNDARIES if low < b < high} <= set(sides)


@settings(max_examples=200)
@given(st.data())
def test_drawn_shapes_broadcast_as_their_sizes_and_take_palette_sides_only(data):
    low = data.draw(st.integers(0, 2))
    high = data.draw(st.integers(low, 40))
    drawn = data.draw(strategies.palette_shapes("(m,n),(n)->(m)", 2, low, high))
    sides = set(palette.sides(low, high))
    assert all(s in sides for shape in drawn.input_shapes for s in shape)
    a, b = drawn.input_shapes
    loops = np.broadcast_shapes(a[:-2], b[:-1])  # the loop dims broadcast
    assert a[-1] == b[-1], "a core dimension keeps one size in every argument"
    assert drawn.result_shape == (*loops, a[-2])


def test_a_specs_generated_cases_repeat_a_few_shapes_per_rank(tmp_path):
    """Free draws in [1, 5] over up to 3 loop dims give hundreds of shape pairs; the spec's palette
    holds per_rank (3 in the ci profile) for each of the result's 4 ranks, the same for every dtype
    and call of the run's seed, and others for another seed."""
    spec = spec_of(tmp_path)
    shapes = set()

    @settings(max_examples=300, database=None)
    @given(strategies.spec_inputs(spec, "float32"))
    def draw(case):
        shapes.add(tuple(case[name].shape for name in ("a", "b")))
        assert all(s in (1, 2, 5) for name in ("a", "b") for s in case[name].shape)

    draw()
    chosen = {s.input_shapes for s in strategies.shape_palette(spec, None)}
    per_rank = palette.per_rank(settings.default.max_examples)
    assert shapes <= chosen and len(chosen) <= per_rank * 4
    assert len(shapes) > per_rank, "more than one rank is drawn"
    strategies.spec_inputs(spec, "float64")
    assert {s.input_shapes for s in strategies.shape_palette(spec, None)} == chosen
    strategies.spec_inputs(spec, "float32", seed=1)
    assert {s.input_shapes for s in strategies.shape_palette(spec, None, seed=1)} != chosen


def test_the_palette_of_shapes_covers_the_most_sizes_on_each_axis():
    from hypothesis.extra.numpy import BroadcastableShapes as B

    drawn = [B(((2, 2),), (2, 2)), B(((2, 2),), (2, 2)), B(((1, 5),), (1, 5)), B(((2, 5),), (2, 5)),
             B(((5, 1),), (5, 1)), B(((3,),), (3,))]
    chosen = palette.covering(drawn, per_rank=2)
    assert set(chosen) == {B(((2, 2),), (2, 2)), B(((1, 5),), (1, 5)), B(((3,),), (3,))}
    assert chosen[0] == B(((3,),), (3,)), "smallest first: hypothesis shrinks towards it"


def test_the_max_size_still_bounds_every_drawn_argument(tmp_path):
    spec = spec_of(tmp_path, SPEC.replace("max_dims: 3", "max_dims: 3\n    max_side: 40\n    max_size: 100"))

    @settings(max_examples=100, database=None)
    @given(strategies.spec_inputs(spec, "float32"))
    def draw(case):
        assert all(math.prod(v.shape) <= 100 for v in case.values())

    draw()


class PerSignature(adapters.base.Adapter):
    name = "per-signature"
    shared_modes = ("compiled", "exported")


class History(adapters.base.Adapter):
    name = "history"  # a compiler whose result depends on what it compiled before (the default)


def test_items_share_staged_programs_only_where_the_runtime_compiles_per_signature(tmp_path):
    spec = spec_of(tmp_path)
    per_signature, history = PerSignature(), History()
    first = shared_stages(spec, per_signature, "cpu", "float32", "compiled")
    assert shared_stages(spec, per_signature, "cpu", "float32", "compiled") is first
    assert shared_stages(spec, per_signature, "cpu", "float64", "compiled") is not first
    assert shared_stages(spec, per_signature, "cpu", "float32", "exported") is not first
    assert shared_stages(spec_of(tmp_path), per_signature, "cpu", "float32", "compiled") is not first
    assert shared_stages(spec, history, "cpu", "float32", "compiled") is not \
        shared_stages(spec, history, "cpu", "float32", "compiled")
    assert shared_stages(spec, history, "cpu", "float32", "exported") is \
        shared_stages(spec, history, "cpu", "float32", "exported")


@settings(max_examples=50)
@given(st.data())
def test_a_signature_with_fixed_or_optional_dimensions_keeps_them(data):
    """(b,1,t) keeps its 1 and (m?,n),(n,p?) its optional dimensions: such signatures draw their
    sides in [min_side, max_side] as they are, not through the palette of sizes."""
    fixed = data.draw(strategies.palette_shapes("(b,1,t),(t)->(b,t)", 1, 2, 5))
    assert fixed.input_shapes[0][-2] == 1 and all(2 <= s <= 5 for s in fixed.input_shapes[1])
    optional = data.draw(strategies.palette_shapes("(m?,n),(n,p?)->(m?,p?)", 2, 1, 4))
    assert all(1 <= s <= 4 for shape in optional.input_shapes for s in shape)


INDEXED = """\
- id: set-rows
  expr: "index_set(x[i], v)"
  args: [x, i, v]
  dtypes: [float32]
  hypothesis:
    signature: "(m,n),(k),(k,n)->(m,n)"
    max_dims: 0
    inputs: {i: {index_of: {arg: x, axis: 0}, unique: true, negative: true}}
"""


def test_generated_indices_count_from_the_end_too_where_the_rule_says(tmp_path):
    from suites.programs.inputs import Seeded, generate

    spec = spec_of(tmp_path, INDEXED)
    drawn = [generate(spec, {"x": (5, 2), "i": (4,), "v": (4, 2)}, "float32", Seeded(f"t{n}"))["i"]
             for n in range(20)]
    assert all(((-5 <= i) & (i < 5)).all() for i in drawn)
    assert all(len(set((i % 5).tolist())) == 4 for i in drawn)  # distinct rows, whichever way counted
    assert any((i < 0).any() for i in drawn) and any((i >= 0).any() for i in drawn)
    [(area, count, reached, missing)] = palette.area_table([spec])
    assert reached["negative index"] == 1 and "negative index" not in missing


KEPT = """\
- id: kept-rows
  op: cross_entropy
  args: [x, t]
  params: {ignore_index: 0}
  dtypes: [float32]
  hypothesis:
    signature: "(n,c),(n)->()"
    max_dims: 0
    inputs: {t: {index_of: {arg: x, axis: 1}, dtype: int64, not_all: 0}}
"""


def test_indices_not_all_of_the_ignored_class_keep_a_row_and_draw_two_classes_or_more(tmp_path):
    """`not_all: 0`: a batch of targets is never class 0 alone (a mean over no kept rows is 0 / 0),
    whatever the source draws, and the class axis is drawn 2 long or more to leave another."""
    from suites.programs.inputs import Seeded, generate

    spec = spec_of(tmp_path, KEPT)

    class Zeros(Seeded):  # a source that draws class 0 for every row
        def indices(self, shape, size, axis, unique):
            return np.zeros(shape, np.int64)

    for n, c in [(1, 2), (4, 3), (7, 5)]:
        t = generate(spec, {"x": (n, c), "t": (n,)}, "float32", Zeros(f"z{n}"))["t"]
        assert (t != 0).any() and ((0 <= t) & (t < c)).all(), t
    drawn = [generate(spec, {"x": (6, 4), "t": (6,)}, "float32", Seeded(f"k{n}"))["t"] for n in range(20)]
    assert all((t != 0).any() for t in drawn) and any((t == 0).any() for t in drawn)

    @settings(max_examples=30, deadline=None, database=None)
    @given(strategies.spec_inputs(spec, "float32"))
    def check(case):
        assert case["x"].shape[1] >= 2 and (case["t"] != 0).any()

    check()
