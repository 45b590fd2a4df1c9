"""One case's checks, as an item runs them and as an isolated process runs them again
(suites/running/faults.isolated): an explicit example's value or gradient, the generated cases'
value check, one case on its inputs, and the suspect-oracle check's other adapters. Each
*_in_process function loads the spec and adapter afresh (Context's fresh_context) and returns
what pickles."""
import dataclasses

import numpy as np

from suites.judging import gradcheck, judge
from suites.judging.outcome import Outcome
from suites.programs import inputs, strategies
from suites.programs.context import fresh_context


def gradient_check(case: str, values: dict, example, seed: int):
    """The gradient check of one case as a function of the context: against the example's
    documented gradient where it has one, else against finite differences."""
    if example is not None and example.grad:
        return lambda ctx: gradcheck.check_documented_gradient(ctx, case, values, example.grad)
    return lambda ctx: gradcheck.check_gradient(ctx, case, values, np.random.default_rng(seed))


def example_outcome(ctx, kind: str, example, seed: int, case=None) -> Outcome:
    """One explicit example's value or gradient check, on its inputs (made here unless given)."""
    case = inputs.example(ctx.spec, example, ctx.dtype) if case is None else case
    if kind == "gradient":
        return gradient_check(example.name, case, example, seed)(ctx)
    return judge.check_case(ctx, example.name, case, example.expect)


def check_again(spec, kind: str, case: str, values: dict, seed: int):
    """The check of one case on its inputs, as a function of the context: an example against what
    it expects, a generated case against the reference; gradients along the seed's directions."""
    example = next((e for e in spec.examples if e.name == case), None)
    if kind != "gradient":
        return lambda ctx: judge.check_case(ctx, case, values, example and example.expect)
    return gradient_check(case, values, example, seed)


def example_in_process(adapter_paths: list, spec_file: str, spec_name: str, kind: str, adapter_name: str,
                       device: str, dtype: str, mode: str, case: str, seed: int) -> Outcome:
    """example_outcome in an isolated process."""
    ctx = fresh_context(adapter_paths, spec_file, spec_name, adapter_name, device, dtype, mode)
    example = next(e for e in ctx.spec.examples if e.name == case)
    return example_outcome(ctx, kind, example, seed)


def strategy_of(spec, dtype: str, kind: str, run_seed: int = 0) -> tuple:
    """The spec's hypothesis cases and how many distinct shapes they draw from (None where not
    known): shapes from its palette for the run's seed, or a collective's shards; special values
    for the value check only (finite differences need finite inputs)."""
    if spec.collective:
        return strategies.collective_shards(spec, dtype), None
    cases = strategies.spec_inputs(spec, dtype, specials=kind == "property", seed=run_seed)
    return cases, strategies.shapes_drawn(spec, run_seed)


def property_outcome(ctx, seed: int, run_seed: int) -> Outcome:
    cases, shapes = strategy_of(ctx.spec, ctx.dtype, "property", run_seed)
    return judge.hypothesis_cases(seed, cases, lambda case, _: judge.check_case(ctx, "hypothesis", case), shapes)


def property_in_process(adapter_paths: list, spec_file: str, spec_name: str, adapter_name: str, device: str,
                        dtype: str, mode: str, seed: int, run_seed: int) -> Outcome:
    """The generated cases' value check in an isolated process (what it raised left out: a
    framework's exception may not pickle)."""
    ctx = fresh_context(adapter_paths, spec_file, spec_name, adapter_name, device, dtype, mode)
    outcome = property_outcome(ctx, seed, run_seed)
    return dataclasses.replace(outcome, raised=None)


def others_in_process(adapter_paths: list, spec_file: str, spec_name: str, kind: str, names: list, device: str,
                      dtype: str, case: str, values: dict, seed: int) -> list:
    """The suspect-oracle check's other adapters, eagerly, in an isolated process: [(name,
    status, actual)] (suites/judging/suspect.py)."""
    out = []
    for name in names:
        ctx = fresh_context(adapter_paths, spec_file, spec_name, name, device, dtype, "eager")
        result = check_again(ctx.spec, kind, case, values, seed)(ctx)
        out.append((name, result.status, None if result.actual is None else np.asarray(result.actual)))
    return out


def case_in_process(adapter_paths: list, spec_file: str, spec_name: str, kind: str, adapter_name: str, device: str,
                    dtype: str, mode: str, case: str, values: dict, seed: int) -> str:
    """One case's check on its inputs in an isolated process: its status (an Outcome may hold
    what cannot be pickled, a framework's exception)."""
    ctx = fresh_context(adapter_paths, spec_file, spec_name, adapter_name, device, dtype, mode)
    return check_again(ctx.spec, kind, case, values, seed)(ctx).status
