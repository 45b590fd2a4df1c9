"""pytest items generated from specs: one per (spec, kind, adapter, device, dtype).

Ids read `matmul/batched-x-broadcast-vector[torch-cpu-float32]` for the explicit examples, with
`/property` or `/gradient` after the spec id for the hypothesis and gradient kinds. A failure
reads as a spec failure (spec, case, adapter, device, dtype, errors, the worst element, the seed
and the falsifying example), not as a traceback.
"""
import time
import zlib

import hypothesis
import numpy as np
import pytest
from hypothesis import strategies as st

import adapters
from suites import compare, faults, repro, results, runner, strategies

# Refused examples in a row, with none checked, that make a hypothesis item unsupported as a whole.
REFUSED_AS_A_WHOLE = 3


class SpecFailed(Exception):
    def __init__(self, outcomes):
        super().__init__(f"{len(outcomes)} failing case(s)")
        self.outcomes = outcomes


class SpecFile(pytest.File):
    """The anchor module suites/test_specs.py: yields the items of every loaded spec."""

    def collect(self):
        options = self.config.parity
        for spec in options.specs:
            for kind in kinds_of(spec):
                dtypes = spec.data["gradient"].get("dtypes", spec.dtypes) if kind == "gradient" else spec.dtypes
                for adapter in options.adapters:
                    for device in options.devices:
                        for dtype in dtypes:
                            if options.dtypes and dtype not in options.dtypes:
                                continue
                            if kind == "gradient" and not dtype.startswith(("float", "bfloat")):
                                continue
                            suffix = "" if kind in ("example", "collective") else f"/{kind}"
                            yield SpecItem.from_parent(
                                self, name=f"{spec.name}{suffix}[{adapter}-{device}-{dtype}]", spec=spec, kind=kind,
                                adapter_name=adapter, device=device, dtype=dtype)


def kinds_of(spec):
    data = spec.data
    yield from ([("collective" if spec.collective else "example")] if "examples" in data else [])
    yield from (["property"] if "hypothesis" in data or "shards" in data else [])
    yield from (["gradient"] if "gradient" in data else [])


class SpecItem(pytest.Item):
    def __init__(self, *, spec, kind, adapter_name, device, dtype, **kwargs):
        super().__init__(**kwargs)
        self.spec, self.kind, self.adapter_name, self.device, self.dtype = spec, kind, adapter_name, device, dtype
        self.seed = None

    def runtest(self):
        try:
            adapter = adapters.get(self.adapter_name)
        except adapters.AdapterError as exc:
            pytest.skip(str(exc))
        device = resolve_device(adapter, self.device)
        ctx = runner.Context(self.spec, adapter, device, self.dtype)
        self.seed = zlib.crc32(f"{self.config.parity.seed}:{self.spec.name}:{self.kind}:{self.dtype}".encode())
        start = time.perf_counter()
        watch, identity = self.config.parity.watch, self.identity()
        watch.begin(identity)
        try:
            outcomes = {"example": self._examples, "collective": self._examples, "property": self._property,
                        "gradient": self._gradient}[self.kind](ctx)
        except faults.CaseTimeout:
            message = f"no result within {self.config.parity.case_timeout:g} s (--case-timeout)"
            self.config.parity.recorder.write({
                **faults.fault_record(identity, "timeout", message), "device": device,
                "versions": {adapter.name: adapter.version()}, **self.config.parity.environment})
            pytest.fail(f"timeout: {message}", pytrace=False)
        finally:
            watch.end()
        duration = (time.perf_counter() - start) / max(len(outcomes), 1)
        for outcome in outcomes:
            self._record(ctx, outcome, duration)
        failing = [o for o in outcomes if o.status not in runner.PASSING and o.status != "unsupported"]
        if failing:
            raise SpecFailed(failing)
        if outcomes and all(o.status == "unsupported" for o in outcomes):
            pytest.skip(f"unsupported: {outcomes[0].message}")

    def identity(self) -> dict:
        """What a record says about this item, also when the item cannot finish (suites/faults.py)."""
        return {"spec": self.spec.name, "kind": self.kind, "adapter": self.adapter_name, "device": self.device,
                "dtype": self.dtype, "test": self.name, "started": time.time()}

    def _examples(self, ctx):
        out = []
        for example in self.spec.data["examples"]:
            if self.dtype in example.get("dtypes", self.spec.dtypes):
                out.append(runner.check_case(ctx, example["name"], example_inputs(self.spec, example, self.dtype),
                                             example.get("expect")))
        return out

    def _strategy(self):
        """The spec's hypothesis cases: shapes from a gufunc signature, or a collective's shards."""
        return (strategies.collective_shards if self.spec.collective else strategies.spec_inputs)(self.spec, self.dtype)

    def _property(self, ctx):
        return [self._hypothesis(ctx, self._strategy(), lambda inputs, seed: runner.check_case(ctx, "hypothesis",
                                                                                               inputs))]

    def _gradient(self, ctx):
        out = []
        for example in self.spec.data.get("examples", []):
            if self.dtype not in example.get("dtypes", self.spec.dtypes) or example.get("expect", {}).get("raises"):
                continue
            inputs = example_inputs(self.spec, example, self.dtype)
            if "grad" in example:
                out.append(runner.check_documented_gradient(ctx, example["name"], inputs, example["grad"]))
            else:
                out.append(runner.check_gradient(ctx, example["name"], inputs, np.random.default_rng(self.seed)))
        if "hypothesis" in self.spec.data or "shards" in self.spec.data:
            out.append(self._hypothesis(ctx, self._strategy(), lambda inputs, seed:
                       runner.check_gradient(ctx, "hypothesis", inputs, np.random.default_rng(seed))))
        return out

    def _hypothesis(self, ctx, strategy, check):
        """Run `check` on hypothesis cases; a failure is shrunk and comes back as its Outcome.

        An example the adapter refuses (Unsupported for these inputs: a shape a kernel cannot
        take) is rejected and hypothesis draws another, so one refused shape does not hide the
        rest of the item. When the first examples are all refused, the op is refused as a
        whole: the item is unsupported and stops drawing."""
        unsupported, documented, largest = [], [], {}
        checked = 0

        @hypothesis.seed(self.seed)
        @hypothesis.settings(deadline=None, suppress_health_check=list(hypothesis.HealthCheck))
        @hypothesis.given(strategy, st.integers(0, 2**32 - 1))
        def prop(inputs, seed):
            nonlocal checked
            if not checked and len(unsupported) >= REFUSED_AS_A_WHOLE:
                return
            outcome = check(inputs, seed)
            if outcome.status == "unsupported":
                unsupported.append(outcome)
                hypothesis.reject()
            checked += 1
            if outcome.status not in runner.PASSING:
                raise runner.CaseFailure(outcome)
            if outcome.status == "documented" and not documented:
                documented.append(outcome)
            for name in ("max_abs_err", "max_rel_err", "ulp"):
                value = getattr(outcome.comparison, name, None)
                if value is not None:
                    largest[name] = max(largest.get(name, 0.0), value)

        try:
            prop()
        except runner.CaseFailure as failure:
            return failure.outcome
        except hypothesis.errors.Unsatisfiable:  # a small input space, every example of it refused
            pass
        if not checked:
            return unsupported[0]
        if documented:  # some generated inputs meet the spec's documented difference: say so
            return documented[0]
        errors = " ".join(f"{k}={v:.3g}" for k, v in largest.items())
        refused = f"; {len(unsupported)} refused as unsupported ({unsupported[0].message})" if unsupported else ""
        return runner.Outcome("pass", "hypothesis", f"{checked} examples" + (f"; largest {errors}" if errors else "")
                              + refused, compare.Comparison(True, **largest))

    def _record(self, ctx, outcome, duration):
        passed = outcome.status in runner.PASSING
        comparison = outcome.comparison or compare.Comparison(ok=passed)
        record = {
            "spec": self.spec.name, "case": outcome.case, "kind": self.kind, "adapter": self.adapter_name,
            "device": ctx.device, "dtype": self.dtype, "status": outcome.status, "message": outcome.message,
            "max_abs_err": comparison.max_abs_err, "max_rel_err": comparison.max_rel_err,
            "ulp": comparison.ulp, "worst": comparison.worst,
            "seed": self.seed if outcome.case == "hypothesis" else None,
            "example": None if passed else results.describe_inputs(outcome.inputs, self.dtype),
            "around": comparison.around, "output": results.output_values(outcome.actual, self.kind),
            "repro": None if passed else reproductions(self, ctx, outcome),
            "difference": documented_difference(ctx, self.kind, outcome),
            "duration": duration, "versions": {ctx.adapter.name: ctx.adapter.version()}, "test": self.name,
            **self.config.parity.environment,
        }
        self.config.parity.recorder.write(record)

    def repr_failure(self, excinfo, style=None):
        if not isinstance(excinfo.value, SpecFailed):
            return super().repr_failure(excinfo, style)
        lines = [f"{self.name} ({self.spec.file}:{self.spec.line})"]
        for o in excinfo.value.outcomes:
            lines.append(f"  case {o.case!r}: {o.status}: {o.message}")
            if o.case == "hypothesis":
                lines.append(f"    seed {self.seed} (run again with --hypothesis-seed={self.config.parity.seed} "
                             f"-k '{self.name}'); falsifying example:")
            elif o.inputs:
                lines.append("    inputs:")
            for name, desc in results.describe_inputs(o.inputs, self.dtype).items():
                values = f" = {desc['values']}" if "values" in desc else ""
                lines.append(f"      {name}: {desc['dtype']}{tuple(desc['shape'])}{values}")
        return "\n".join(lines)

    def reportinfo(self):
        return self.spec.file, self.spec.line - 1, self.name


def documented_difference(ctx, kind: str, outcome) -> dict | None:
    """The spec's note and source for a "documented" outcome, for the report's differences table."""
    if outcome.status != "documented":
        return None
    diff = ctx.difference(outcome.case, "gradient" if kind == "gradient" else "value") or {}
    return {"note": diff.get("note"), "source": diff.get("source")}


def reproductions(item, ctx, outcome) -> dict:
    """A failing case as standalone code (suites/repro.py) for its adapter and every installed
    built-in one: the snippet, or why there is none."""
    spec = item.spec
    if spec.collective or not outcome.inputs:
        return {}
    wrt = spec.wrt if item.kind == "gradient" else ()
    dtypes = {k: ctx.input_dtype(np.asarray(v)) for k, v in outcome.inputs.items()}
    title = f"{item.name}, case {outcome.case!r}: {outcome.status}"
    out, installed = {}, adapters.classes()
    for name in dict.fromkeys([item.adapter_name, *adapters.BUILTIN]):  # the failing one, then the frameworks
        if name not in installed:
            continue
        cls = installed[name]
        try:
            out[name] = {"code": repro.snippet(cls, spec.tree, outcome.inputs, dtypes, item.dtype, ctx.device,
                                               title, wrt)}
        except repro.NoSnippet as exc:
            out[name] = {"none": str(exc)}
    return out


def example_inputs(spec, example, dtype) -> dict:
    """An example's inputs, filled from a generator seeded by the spec and example names only,
    so that every adapter and dtype sees the same values."""
    rng = np.random.default_rng(zlib.crc32(f"{spec.name}/{example['name']}".encode()))
    values = {name: strategies.fill(inp, dtype, rng) for name, inp in sorted(example["inputs"].items())}
    for name, (shape, bound) in strategies.derived_inputs(spec, values).items():
        if name not in values:
            values[name] = compare.round_to(rng.uniform(-bound, bound, shape), dtype)
    return values


def resolve_device(adapter, requested: str) -> str:
    """cpu, or the adapter's first GPU for cuda/gpu (a skip with the reason where it has none)."""
    if requested == "cpu":
        return "cpu"
    gpus = [d for d in adapter.devices() if d != "cpu"]
    if not gpus:
        pytest.skip(f"no GPU visible to {adapter.name} (its devices: {', '.join(adapter.devices())}); run with "
                    "--device cpu, or on a machine with a GPU and the framework's GPU build")
    return gpus[0]
