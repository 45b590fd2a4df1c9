"""The named metamorphic properties catch results that break them (and pass the reference's)."""
import numpy as np

import adapters
from suites.judging import properties
from suites.loading.specs import load_path
from suites.programs.context import Context

RNG = np.random.default_rng(3)


def context(spec_id, adapter="reference", dtype="float64"):
    spec = next(s for s in load_path("specs/lstm.yaml") if s.id == spec_id)
    return Context(spec, adapters.get(adapter), "cpu", dtype)


def lstm_case(ctx):
    x = RNG.standard_normal((2, 4, 3))
    shapes = ctx.spec.program.shapes(x.shape)
    return {"x": x, **{n: RNG.uniform(-0.5, 0.5, s) for n, s in shapes.items()}}


def test_final_steps_hold_for_the_reference_and_fail_for_a_shifted_output():
    ctx = context("with-state-num-layers2-bidirectional-batch-first")
    inputs = lstm_case(ctx)
    output, h_n, c_n = ctx.run_parts(inputs)
    check = properties.PROPERTIES["final-steps-are-h_n"][0]
    assert check(ctx, inputs, [output, h_n, c_n]) is None
    shifted = np.roll(output, 1, axis=1)  # the steps off by one
    assert "output[last step, :H] != its h_n" in check(ctx, inputs, [shifted, h_n, c_n])
    reversed_half = output.copy()
    reversed_half[:, :, 4:] = reversed_half[:, ::-1, 4:]  # the reverse direction left in reversed time order
    assert "output[first step, H:] != its h_n" in check(ctx, inputs, [reversed_half, h_n, c_n])


def test_end_padding_catches_an_output_that_sees_the_future():
    ctx = context("with-state-num-layers1-not-bidirectional-batch-first")
    inputs = lstm_case(ctx)
    output, h_n, c_n = ctx.run_parts(inputs)
    check = properties.PROPERTIES["end-padding-keeps-valid-steps"][0]
    assert check(ctx, inputs, [output, h_n, c_n]) is None
    assert "changed the valid outputs" in check(ctx, inputs, [output[:, ::-1], h_n, c_n])


def test_end_padding_does_not_apply_to_stacked_bidirectional_layers():
    assert properties.applicable(context("with-state-num-layers2-bidirectional-batch-first")) == [
        "final-steps-are-h_n"]
    assert properties.applicable(context("with-state-num-layers1-bidirectional-batch-first")) == [
        "final-steps-are-h_n", "end-padding-keeps-valid-steps"]


def test_same_values_in_any_order_takes_any_order_and_no_other_values():
    """unique_values' values as a set: any order, each NaN its own value, either zero for both;
    a value changed, or NaNs merged, breaks it."""
    spec = next(s for s in load_path("specs/sets.yaml") if s.id == "unique-values-nans-and-zeros")
    ctx = Context(spec, adapters.get("reference"), "cpu", "float32")
    inputs = {"x": np.array([2, np.nan, -0.0, 1, np.nan, 0.0, 2], dtype=np.float32)}
    check = properties.PROPERTIES["same-values-in-any-order"][0]
    assert check(ctx, inputs, [np.array([np.nan, 2, 0.0, np.nan, 1], dtype=np.float32)]) is None
    assert check(ctx, inputs, [np.array([-0.0, 1, 2, np.nan, np.nan], dtype=np.float32)]) is None
    assert "are not the reference's" in check(ctx, inputs, [np.array([np.nan, 3, 0.0, np.nan, 1], dtype=np.float32)])
    assert "4 values, where the reference has 5" in check(ctx, inputs, [np.array([0.0, 1, 2, np.nan], np.float32)])
