"""Documented differences of the `precision` kind: a framework that computes float64 in float32 is
documented where float32's error bound holds, and fails where even that does not (float16)."""

import numpy as np
import pytest

from adapters.reference import ReferenceAdapter
from suites.judging import compare, differences, gradcheck, judge
from suites.judging.outcome import Outcome
from suites.programs.context import Context
from tests.adapters.narrow import CastBackMatmul, FlushingTranspose, HalfMatmul, NanCholesky, NarrowMatmul
from tests.spec_text import first_spec

SPEC = """\
- id: mm
  op: matmul
  args: [a, b]
  dtypes: [float64]
  examples:
    - name: case
      inputs: {a: {shape: [3, 4]}, b: {shape: [4, 2]}}
  gradient: {wrt: [a, b]}
  differences:
    - &narrow
      adapter: narrow-matmul
      dtypes: [float64]
      kind: any
      observed: {precision: float32}
      note: computes float64 in float32
      source: https://example.org/narrow
    - {<<: *narrow, adapter: cast-back-matmul}
    - {<<: *narrow, adapter: half-matmul}
"""
RNG = np.random.default_rng(7)
RANDOM = {"a": RNG.standard_normal((3, 4)), "b": RNG.standard_normal((4, 2))}
EXACT = {"a": np.array([[1.0, 2.0]]), "b": np.array([[3.0], [4.0]])}


@pytest.fixture(scope="module")
def spec(tmp_path_factory):
    return first_spec(tmp_path_factory.mktemp("spec"), SPEC, "narrow.yaml")


def value(spec, adapter_class, inputs):
    return judge.check_case(Context(spec, adapter_class(), "cpu", "float64"), "case", inputs)


def gradient(spec, adapter_class, inputs):
    ctx = Context(spec, adapter_class(), "cpu", "float64")
    return gradcheck.check_gradient(ctx, "case", inputs, np.random.default_rng(0))


def test_float32_arithmetic_is_documented_in_either_result_dtype(spec):
    narrow = value(spec, NarrowMatmul, RANDOM)  # a float32 result, as keras.ops.matmul on torch
    assert narrow.status == "documented", narrow.message
    assert "dtype float32, expected float64" in narrow.message and "as float32: max_abs_err=" in narrow.message
    cast_back = value(spec, CastBackMatmul, RANDOM)  # float64 out, as keras.ops.mean
    assert cast_back.status == "documented", cast_back.message
    assert "values differ beyond the allowed error" in cast_back.message


def test_float16_arithmetic_is_beyond_a_float32_difference(spec):
    for outcome in (value(spec, HalfMatmul, RANDOM), gradient(spec, HalfMatmul, RANDOM)):
        assert outcome.status == "fail"
        assert "behaves neither as expected nor as documented" in outcome.message
        assert "as float32:" in outcome.message and "values differ" in outcome.message


def test_inputs_that_float32_holds_exactly_still_pass(spec):
    assert value(spec, CastBackMatmul, EXACT).status == "pass"  # 1 * 3 + 2 * 4 = 11 in both precisions
    assert gradient(spec, CastBackMatmul, EXACT).status == "pass"


def test_inputs_beyond_float32s_range_overflow_as_documented(spec):
    huge = {"a": np.array([[1e39, 1.0]]), "b": np.array([[1.0], [1.0]])}
    outcome = value(spec, CastBackMatmul, huge)
    assert outcome.status == "documented"
    assert "beyond float32's range, where it overflows" in outcome.message
    assert "+inf positions differ" in outcome.message


def test_gradients_in_float32_are_documented(spec):
    outcome = gradient(spec, NarrowMatmul, RANDOM)
    assert outcome.status == "documented", outcome.message
    assert "gradient differs from finite differences" in outcome.message and "as float32:" in outcome.message


def test_float32_is_judged_from_the_inputs_rounded_to_it(spec):
    # found by hypothesis on keras-torch: one product, each input off float32's grid by up to an
    # ulp, so the result is ~1.5 ulp from the exact product, beyond float32's bound of one rounding
    product = {"a": np.array([[8360461990663851.0]]), "b": np.array([[9854884190412542.0]])}
    outcome = value(spec, CastBackMatmul, product)
    assert outcome.status == "documented", outcome.message


ALTERNATIVES = """\
- id: too-long
  op: conv1d
  args: [x, w]
  dtypes: [float64]
  examples:
    - name: case
      inputs: {x: {shape: [1, 2, 2]}, w: {shape: [1, 2, 3]}}
      expect: {raises: true}
  differences:
    - adapter: empty-conv
      observed: {one_of: [{shape: [1, 2, 2]}, {shape: [1, 1, 0]}]}
      note: returns garbage or an empty output, by machine
      source: https://example.org/conv
    - adapter: reference
      observed: {one_of: [{shape: [1, 2, 2]}, {as_expected: true}]}
      note: raises on some machines only
      source: https://example.org/conv
"""


class EmptyConv(ReferenceAdapter):
    name = "empty-conv"

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        return np.zeros((1, 1, 0))


def test_one_of_documents_whichever_behaviour_this_machine_shows(tmp_path):
    spec = first_spec(tmp_path, ALTERNATIVES, "alternatives.yaml")
    inputs = {"x": np.ones((1, 2, 2)), "w": np.ones((1, 2, 3))}
    expect = spec.examples[0].expect

    def check(adapter):
        return judge.check_case(Context(spec, adapter, "cpu", "float64"), "case", inputs, expect)

    empty = check(EmptyConv())
    assert empty.status == "documented" and "returned [[[]]]" in empty.message
    raises = check(ReferenceAdapter())
    assert raises.status == "pass", raises.message  # as expected on this machine: a pass stays a pass
    neither = check(WrongShapeConv())
    assert neither.status == "fail" and "behaves neither" in neither.message


SOME_CASES = """\
- id: some-cases
  op: matmul
  args: [a, b]
  dtypes: [float64]
  hypothesis: {signature: "(m,n),(n,p)->(m,p)"}
  differences:
    - adapter: reference
      case: hypothesis
      observed: {one_of: [{differs: true}, {raises: true}]}
      note: wrong values on some generated inputs, an error on others
      source: https://example.org/matmul
"""


def test_a_pass_stays_a_pass_where_one_alternative_differs(tmp_path):
    """`differs` documents some generated inputs: the rest must pass, whatever other alternative
    the entry lists (the raising one alone would call the pass "no longer observed")."""
    spec = first_spec(tmp_path, SOME_CASES, "some-cases.yaml")
    inputs = {"a": np.ones((2, 3)), "b": np.ones((3, 2))}
    outcome = judge.check_case(Context(spec, ReferenceAdapter(), "cpu", "float64"), "hypothesis", inputs)
    assert outcome.status == "pass", outcome.message


class WrongShapeConv(EmptyConv):
    name = "empty-conv"  # documented as [1, 2, 2] or [1, 1, 0]; returns neither

    def conv1d(self, x, w, b=None, stride=1, padding=0, dilation=1, groups=1):
        return np.zeros((1, 3, 3))


NAMED_ERROR = """\
- id: mm-named
  op: matmul
  args: [a, b]
  dtypes: [float64]
  examples:
    - name: case
      inputs: {a: {shape: [2, 3]}, b: {shape: [3, 2]}}
  differences:
    - adapter: raising-matmul
      observed: {raises: true}
      note: "refuses a matmul: ValueError: shapes do not fit"
      source: https://example.org/named
"""


class RaisingMatmul(ReferenceAdapter):
    """Raises `error` (a class) from matmul; its name is the documented adapter's."""
    name = "raising-matmul"
    error = ValueError

    def matmul(self, a, b):
        raise self.error("shapes do not fit")


class RaisingOtherMatmul(RaisingMatmul):
    error = RuntimeError


class RaisingSubclassMatmul(RaisingMatmul):
    error = type("ShapeError", (ValueError,), {})


def test_a_note_that_names_an_error_holds_for_that_error_only(tmp_path):
    spec = first_spec(tmp_path, NAMED_ERROR, "named.yaml")
    inputs = {"a": np.ones((2, 3)), "b": np.ones((3, 2))}

    def check(adapter):
        return judge.check_case(Context(spec, adapter, "cpu", "float64"), "case", inputs)

    assert check(RaisingMatmul()).status == "documented"
    assert check(RaisingSubclassMatmul()).status == "documented"  # a ValueError still
    other = check(RaisingOtherMatmul())
    assert other.status == "fail" and "RuntimeError" in other.message, other.message


SQUEEZING = """\
- id: squeezing
  op: correlate
  args: [a, v]
  dtypes: [float64]
  examples:
    - name: one-output
      inputs: {a: {values: [1, 2, 3]}, v: {values: [0, 1, 0.5]}}
  hypothesis: {signature: "(n),(m)->()"}
  differences:
    - adapter: squeezing-correlate
      case: hypothesis
      observed: {differs: true}
      note: a result of one element comes back 0-D, as keras.ops.correlate's on torch
      source: https://example.org/squeeze
"""


def test_differs_documents_a_generated_result_of_another_shape_and_nothing_else(tmp_path):
    """`differs` on generated cases covers a result of the wrong shape (keras.ops.correlate's
    squeezed 0-D output), as it covers wrong values; an error is still one, and an example of its
    own (not `hypothesis`) is not covered at all."""
    from adapters.engine import EngineAdapter

    class SqueezingCorrelate(EngineAdapter):
        name = "squeezing-correlate"

        def correlate(self, a, v, mode="valid"):
            out = super().correlate(a, v, mode)
            return self.reshape(out, ()) if out.size == 1 else out

    class RaisingCorrelate(SqueezingCorrelate):
        def correlate(self, a, v, mode="valid"):
            raise RuntimeError("a framework's own error")

    squeezing = first_spec(tmp_path, SQUEEZING, "squeezing.yaml")
    inputs = {"a": np.array([1.0, 2.0, 3.0]), "v": np.array([0.0, 1.0, 0.5])}

    def outcome(adapter, case):
        return judge.check_case(Context(squeezing, adapter, "cpu", "float64"), case, inputs)

    generated = outcome(SqueezingCorrelate(), "hypothesis")
    assert generated.status == "documented", generated.message
    assert "shape (), expected (1,)" in generated.message
    assert outcome(SqueezingCorrelate(), "one-output").status == "fail"
    assert outcome(RaisingCorrelate(), "hypothesis").status != "documented"


EXTRA_INDEX = """\
- id: extra-index
  expr: "nonzero(x)"
  args: [x]
  dtypes: [float64]
  result_dtype: int64
  examples:
    - name: one-zero
      inputs: {x: {values: [0]}}
  hypothesis: {signature: "(n)->()"}
  differences:
    - adapter: extra-index-nonzero
      case: hypothesis
      observed: {differs: true}
      note: a zero x of one element has a non-zero index, as tf.where unstacked under XLA
      source: https://example.org/extra-index
"""


def test_differs_documents_a_generated_result_whose_parts_have_other_shapes(tmp_path):
    """The same for a result of several parts: parts of other lengths (TensorFlow's nonzero of a
    one-element zero x under XLA: an index where there is none) are documented by `differs` on
    generated cases; the comparison names them as `shapes`, which `differs` once did not cover."""
    from adapters.engine import EngineAdapter

    class ExtraIndexNonzero(EngineAdapter):
        name = "extra-index-nonzero"

        def nonzero(self, x):
            return (self.engine.Tensor(np.array([0])),) if x.data.size == 1 else super().nonzero(x)

    extra = first_spec(tmp_path, EXTRA_INDEX, "extra-index.yaml")
    ctx = Context(extra, ExtraIndexNonzero(), "cpu", "float64")
    generated = judge.check_case(ctx, "hypothesis", {"x": np.array([0.0])})
    assert generated.status == "documented", generated.message
    assert "shapes 0 (1,), expected 0 (0,)" in generated.message
    assert judge.check_case(ctx, "one-zero", {"x": np.array([0.0])}).status == "fail"
    assert judge.check_case(ctx, "hypothesis", {"x": np.array([0.0, 2.0])}).status == "pass"


STACKED = """\
- id: stacked
  expr: "nonzero(x)"
  args: [x]
  dtypes: [float64]
  result_dtype: int64
  examples:
    - name: two-d
      inputs: {x: {values: [[0, 2], [3, 0]]}}
    - name: zero-d
      inputs: {x: {values: 1}}
      expect: {raises: true}
  differences:
    - adapter: stacking-nonzero
      case: two-d
      observed: {shape: [2, 2], dtype: int32}
      note: one [ndim, N] int32 tensor, as keras.ops.nonzero on torch returns
      source: https://example.org/stacked
    - adapter: stacking-nonzero
      case: zero-d
      observed: {shape: [0, 1], dtype: int32}
      note: a 0-d x taken for a 1-D x of one element, stacked
      source: https://example.org/stacked
"""


def test_a_documented_shape_in_another_dtype_is_judged_by_its_shape(tmp_path):
    """An entry of a shape and a dtype (keras.ops.nonzero on torch: one [ndim, N] int32 tensor
    where the standard has a tuple of int64 ones) holds while the result has both; it was judged
    as a dtype entry alone, its values converted and compared position by position with the
    reference's (a fail), or with a reference that refuses the case (a harness error)."""
    from adapters.engine import EngineAdapter

    class StackingNonzero(EngineAdapter):
        name = "stacking-nonzero"

        def nonzero(self, x):
            return self.engine.Tensor(np.argwhere(x.data).T.astype(np.int32))  # torch.nonzero(x).T

    ctx = Context(first_spec(tmp_path, STACKED, "stacked.yaml"), StackingNonzero(), "cpu", "float64")
    two_d = judge.check_case(ctx, "two-d", {"x": np.array([[0.0, 2.0], [3.0, 0.0]])})
    assert two_d.status == "documented", two_d.message
    zero_d = judge.check_case(ctx, "zero-d", {"x": np.array(1.0)}, {"raises": True})
    assert zero_d.status == "documented", zero_d.message


def test_a_gradient_of_the_wrong_shape_is_named_with_the_shapes(tmp_path, spec):
    """An adapter whose gradient comes back in another shape (flattened) gets an error that names
    the argument and both shapes, not NumPy's broadcast error from inside the comparison."""
    from adapters.engine import EngineAdapter

    class Flattening(EngineAdapter):
        name = "flattening"

        def grad(self, fn, args, wrt, cotangent):
            value, grads = super().grad(fn, args, wrt, cotangent)
            return value, {**grads, "a": self.reshape(grads["a"], (-1,))}

    ctx = Context(spec, Flattening(), "cpu", "float64")
    outcome = gradcheck.check_gradient(ctx, "case", RANDOM, np.random.default_rng(0))
    assert outcome.status == "error", outcome.message
    assert "flattening's gradient of a has shape (12,); a has shape (3, 4)" in outcome.message


DRAWN = """\
- id: drawn
  op: exp
  args: [x]
  dtypes: [float64]
  examples:
    - name: drawn
      inputs: {x: {shape: [4]}}
  differences:
    - adapter: off-by-one-exp
      case: drawn
      observed: {differs: true}
      note: exp is one too large
      source: https://example.org/off-by-one
"""


def test_differs_documents_an_example_whose_values_are_drawn(tmp_path):
    """An example filled from a shape has values that appear nowhere in the spec, as generated
    cases have: `differs` may document it; an example with values must pin what it observes."""
    from adapters.engine import EngineAdapter
    from suites.loading.specs import SpecError

    class OffByOneExp(EngineAdapter):
        name = "off-by-one-exp"

        def exp(self, x):
            return self.add(super().exp(x), 1.0)

    spec = first_spec(tmp_path, DRAWN, "drawn.yaml")
    ctx = Context(spec, OffByOneExp(), "cpu", "float64")
    outcome = judge.check_case(ctx, "drawn", {"x": np.array([0.1, -0.3, 1.2, 0.0])})
    assert outcome.status == "documented", outcome.message
    valued = DRAWN.replace("{shape: [4]}", "{values: [0.1, -0.3]}")
    with pytest.raises(SpecError, match=r"is for case: hypothesis \(generated inputs\), an example whose values "
                                        r"are drawn"):
        first_spec(tmp_path, valued, "valued.yaml")
    # its gradient is checked along random directions: differs may document that, unless the
    # example documents its gradients
    gradient = valued.replace("      observed:", "      kind: gradient\n      observed:")
    assert first_spec(tmp_path, gradient, "gradient.yaml").differences[0]["kind"] == "gradient"
    with pytest.raises(SpecError, match="or the gradient of an example without documented gradients"):
        first_spec(tmp_path, gradient.replace("{values: [0.1, -0.3]}}", "{values: [0.1, -0.3]}}\n"
                                              "      grad: {expect: {x: [1, 1]}}\n  gradient: {wrt: [x]}"),
                   "documented.yaml")


FLUSHED = """\
- id: flushed
  expr: "transpose(x, (1, 0))"
  args: [x]
  dtypes: [float64]
  examples:
    - name: case
      inputs: {x: {values: [[1.0e-45, 1.0]]}}
  differences:
    - adapter: flushing-transpose
      dtypes: [float64]
      kind: any
      observed: {precision: float32}
      note: computes float64 in float32, flushing subnormals
      source: https://example.org/flushing
"""


def test_a_narrowed_input_that_float32_holds_as_a_subnormal_may_be_flushed(tmp_path):
    # the whole run's one red at first (jax-32's max_pool1d of 1.4e-45 given in float64): the
    # narrowing is the framework's first rounding, and flushing its subnormal loses one smallest normal
    spec = first_spec(tmp_path, FLUSHED, "flushed.yaml")
    outcome = judge.check_case(Context(spec, FlushingTranspose(), "cpu", "float64"), "case",
                               {"x": np.array([[1.0e-45, 1.0]])})
    assert outcome.status == "documented", outcome.message
    assert "as float32: max_abs_err=1.4" in outcome.message


NOT_POSITIVE_DEFINITE = """\
- id: not-positive-definite
  expr: "cholesky(x)"
  args: [x]
  dtypes: [float64]
  examples:
    - name: case
      inputs: {x: {values: [[1, 2], [2, 1]]}}
      expect: {raises: true}
  differences:
    - adapter: nan-cholesky
      dtypes: [float64]
      kind: any
      observed: {precision: float32}
      note: computes float64 in float32, NaNs where there is no factor
      source: https://example.org/nan
"""


def test_a_precision_entry_judges_a_result_where_the_reference_raises(tmp_path):
    """jax-32's NaN factor of a float64 matrix that is not positive definite: the precision entry
    weighed the reference's result for its range, and the reference raised in the judge (a
    harness error where a verdict belongs). A result where an error is expected is not float32's
    doing: the entry does not explain it."""
    spec = first_spec(tmp_path, NOT_POSITIVE_DEFINITE, "nan.yaml")
    outcome = judge.check_case(Context(spec, NanCholesky(), "cpu", "float64"), "case",
                               {"x": np.array([[1.0, 2.0], [2.0, 1.0]])}, spec.examples[0].expect)
    assert outcome.status == "fail", outcome.message
    assert "behaves neither as expected nor as documented" in outcome.message
    assert "as float32: expected an error, but it returned shape (2, 2)" in outcome.message


WIDENED = """\
- id: wraps
  expr: "x + y"
  args: [x, y]
  dtypes: [uint16]
  examples:
    - name: top
      inputs: {x: {values: [65535, 7]}, y: {values: [1, 8]}}
      expect: {value: [0, 15]}
  differences:
    - adapter: widening-add
      case: top
      regime: promotion
      observed: {value: [65536, 15], dtype: int32}
      note: holds uint16 in int32, as Keras' torch backend does
      source: https://example.org/widened
"""


def test_an_observed_value_is_read_in_the_dtype_it_was_observed_in(tmp_path):
    """65536 is no uint16: a documented value in another dtype (Keras on torch holds uint16 in
    int32, so 65535 + 1 is 65536) is read and compared in that dtype, not wrapped into the
    result's (where it was 0, and the entry could never hold)."""
    from adapters.engine import EngineAdapter

    class WideningAdd(EngineAdapter):
        name = "widening-add"

        def add(self, a, b):
            return self.engine.Tensor(a.data.astype(np.int32) + b.data.astype(np.int32))

    ctx = Context(first_spec(tmp_path, WIDENED, "widened.yaml"), WideningAdd(), "cpu", "uint16")
    top = judge.check_case(ctx, "top", {"x": np.array([65535, 7], np.uint16), "y": np.array([1, 8], np.uint16)},
                           {"value": [0, 15]})
    assert top.status == "documented", top.message


def test_a_failing_element_past_float32s_range_is_its_overflow():
    """Found by CI at seed 341 on jax-32: inv's gradient at x = 4.7e-38 (1 x 1 matrices) is about 1e75,
    whose float32 reverse pass gives infinities of both signs and the directional check NaN; the value
    inv(x) = 2.1e37 lies in float32's range, so only the failing element's exact value tells the overflow."""
    def failing(expected_at):
        comparison = compare.Comparison(False, "NaN positions differ", expected_at=expected_at, actual_at=float("nan"))
        return Outcome("fail", "hypothesis", "gradient differs from finite differences", comparison)

    assert differences.fails_past_range(failing(1.7239174499973649e75), "float32")
    assert not differences.fails_past_range(failing(1.7239174499973649e75), "float64")
    assert not differences.fails_past_range(failing(3.0e38), "float32")  # float32's largest is 3.4e38
    assert not differences.fails_past_range(failing(float("inf")), "float32")  # an infinity is compared by position
