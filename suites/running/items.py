"""pytest items generated from specs: one per (spec, kind, adapter, device, dtype, mode).

Ids read `specs/matmul.yaml::batched-x-broadcast-vector[torch-cpu-float32-eager]` for the explicit
examples, with `/property` or `/gradient` after the spec id for the hypothesis and gradient kinds
(`suites/test_specs.py::matmul/batched-x-broadcast-vector[...]` through the anchor module). A failure
reads as a spec failure (spec, case, adapter, device, dtype, errors, the worst element, the seed
and the falsifying example), not as a traceback.
"""
import itertools
import shlex
import time
import warnings
import zlib

import numpy as np
import pytest

import adapters
from reports.records import FAILING, PASSING, record
from suites.judging import differences, entries, gradcheck, judge, suspect
from suites.judging.outcome import Outcome, one_line
from suites.programs import inputs, training
from suites.programs.context import Context, shared_stages
from suites.running import faults, repeat, repro, results, sources
from suites.running.checks import (
    case_in_process,
    check_again,
    example_in_process,
    example_outcome,
    others_in_process,
    property_in_process,
    property_outcome,
    strategy_of,
)
from suites.running.selection import documents, gradient_examples, item_dtypes, kinds_of

FRESH_RERUNS = 2  # a case that passed when hypothesis ran it again: this many more runs, each in a fresh process


class OracleSuspect(UserWarning):
    """Every framework agrees, and the reference does not: the oracle is to be looked at."""


class SpecFailed(Exception):
    def __init__(self, outcomes):
        super().__init__(f"{len(outcomes)} failing case(s)")
        self.outcomes = outcomes


class SpecFile(pytest.File):
    """A spec file (`pytest specs/matmul.yaml`: items `specs/matmul.yaml::<spec id>[...]`), or the
    anchor module suites/test_specs.py (every spec of --spec: items named `<area>/<spec id>[...]`)."""

    def collect(self):
        options = self.config.parity
        native = self.path.suffix == ".yaml"
        classes = adapters.classes()  # an adapter not installed is collected, to skip with the reason
        gradients = {adapter: adapter not in classes or classes[adapter].differentiates for adapter in options.adapters}
        for spec in options.spec_files[self.path.resolve()] if native else options.specs:
            prefix = "" if native else f"{spec.area}/"
            for kind, generated in kinds_of(spec):
                suffix, dtypes = SUFFIX[kind, generated], item_dtypes(spec, kind, generated)
                for adapter, mode, device, dtype in itertools.product(options.adapters, options.modes,
                                                                      options.devices, dtypes):
                    if options.dtypes and dtype not in options.dtypes or mode not in modes_of(spec, adapter) or \
                            kind in ("gradient", "training") and not gradients[adapter]:
                        continue
                    if mode in ("mixed", "exported") and kind not in ("example", "property") or \
                            mode == "mixed" and dtype != "float32":
                        continue  # values only: a float32 policy (docs/mixed-precision.md), a served program
                    if kind == "repeat" and (adapter == "reference" or not repeat.passes(spec, dtype, mode)):
                        continue  # a framework's runs at a benchmark size of this dtype and mode (not the oracle's)
                    yield SpecItem.from_parent(
                        self, name=f"{prefix}{spec.id}{suffix}[{adapter}-{device}-{dtype}-{mode}]", spec=spec,
                        kind=kind, generated=generated, adapter_name=adapter, device=device, dtype=dtype, mode=mode)
        self.config.parity.progress.file_collected(self.path)


# An item's id after the spec's: its explicit examples' values carry none (a collective's neither),
# the generated value cases /property, the gradients of the examples /gradient and of generated
# cases /gradient-property, a model's SGD steps /training, the bitwise repeat check /repeat.
SUFFIX = {("example", False): "", ("collective", False): "", ("property", True): "/property",
          ("gradient", False): "/gradient", ("gradient", True): "/gradient-property", ("training", False): "/training",
          ("repeat", False): "/repeat"}


def modes_of(spec, adapter: str) -> tuple:
    """The program's modes the adapter runs in its area (runs); eager where it is not installed."""
    cls = adapters.classes().get(adapter)
    return tuple(m for m in spec.program.modes if runs(cls, spec.area, m)) if cls else ("eager",)


def runs(cls, area: str | None, mode: str) -> bool:
    """Whether an adapter (its class) runs a mode (Adapter.modes: tensorflow-litert exported alone)
    in a spec area (Adapter.areas; None, a random program's, only where it runs every area)."""
    return mode in cls.modes() and (cls.areas is None or area in cls.areas)


class SpecItem(pytest.Item):
    def __init__(self, *, spec, kind, generated, adapter_name, device, dtype, mode, **kwargs):
        super().__init__(**kwargs)
        self.spec, self.kind, self.adapter_name, self.device, self.dtype = spec, kind, adapter_name, device, dtype
        self.generated, self.mode, self.seed = generated, mode, None

    @property
    def example(self) -> bool:
        """An explicit example's value or gradient in the eager mode (the documented values): every
        run keeps it, whatever its --share (suites/running/selection.py: shared)."""
        return self.mode == "eager" and not self.generated and self.kind not in ("training", "repeat")

    @property
    def documented(self) -> bool:
        """Whether a documented difference names this item: every run keeps it too, so that no
        published report lacks a documented value, gradient or difference, but with
        --share-documented (CI's lines, which publish nothing) the share draws it like the rest.
        Training and the repeat check (seconds to a minute an item) are drawn by the share alone."""
        return self.kind not in ("training", "repeat") and \
            documents(self.spec, self.adapter_name, self.kind, self.generated, self.mode, self.dtype)

    def runtest(self):
        try:
            adapter = adapters.get(self.adapter_name)
        except adapters.AdapterError as exc:
            pytest.skip(str(exc))
        device = resolve_device(adapter, self.device)
        shared = {} if self.kind in ("training", "repeat") else shared_stages(self.spec, adapter, device, self.dtype,
                                                                              self.mode)
        if self.mode == "compiled":
            adapter.fresh_compiler()  # whatever the process compiled before (Adapter.fresh_compiler)
        ctx = Context(self.spec, adapter, device, self.dtype, self.mode, shared)
        self.seed = zlib.crc32(f"{self.config.parity.seed}:{self.spec.name}:{self.kind}:{self.dtype}".encode())
        start = time.perf_counter()
        # the versions too, so that a crash or timeout record names them as every other record does
        watch, identity = self.config.parity.watch, {**self.identity(), "versions": {adapter.name: adapter.version()}}
        watch.begin(identity, lambda noted: self.config.parity.recorder.write({
            **faults.fault_record(noted, "timeout", self._past_time()), "device": device,
            **self.config.parity.environment}))
        try:  # IEEE 754 on purpose (specials, inf and NaN examples): NumPy's warnings of it are noise
            with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
                outcomes = {"example": self._examples, "collective": self._examples, "property": self._property,
                            "gradient": self._gradient, "training": self._training,
                            "repeat": self._repeat}[self.kind](ctx)
        except BaseException as exc:  # a timeout, or what hypothesis or an adapter made of it once caught
            if watch.fired:
                pytest.fail(f"timeout: {self._past_time()}", pytrace=False)  # recorded as the alarm came
            if not isinstance(exc, Exception):  # pytest's own skip and fail, an interrupt
                raise
            # the checking itself broke (a fault of Parity's): the item fails with its record all the same
            outcomes = [Outcome("error", "-", f"the check itself raised {one_line(exc)}: a fault in Parity's "
                                "harness, not a verdict on the framework")]
        finally:
            watch.end()
        if watch.fired:  # the alarm came, was swallowed, and the checks went on: the item ran past its time
            pytest.fail(f"timeout: {self._past_time()}", pytrace=False)
        timed_out = [Outcome("timeout", case, self._past_time()) for case in watch.expired]  # each recorded
        crashed = faults.crashed(self.config.parity.results_dir, self.nodeid)
        if not outcomes and timed_out:  # every case ran past its time (each has its record)
            raise SpecFailed(timed_out)
        if not outcomes and crashed:  # the cases left killed the process (their crash records are written)
            pytest.fail(f"crash: the cases {crashed} killed the process (see their records)", pytrace=False)
        if not outcomes:  # an item that checks nothing is never a pass
            outcomes = [Outcome("error", "-", f"checks nothing: no example of {self.spec.name} runs in {self.dtype} "
                                f"for the {self.kind} check (examples' dtypes), and the spec generates no cases")]
        outcomes = [self._fresh(ctx, o) if o.flaky else o for o in outcomes]
        if self.kind not in ("collective", "training", "repeat"):  # a trajectory is each framework's own
            outcomes = [suspect.questioned(ctx, o, self._again(o), self.config.parity.adapters, self._apart(ctx, o))
                        for o in outcomes]
        outcomes = sources.withheld(outcomes, type(adapter))  # no verdict of code edited mid-run
        duration = (time.perf_counter() - start) / len(outcomes)
        for outcome in outcomes:
            self._record(ctx, outcome, duration)
        failing = [o for o in outcomes if o.status in FAILING] + timed_out
        if failing:
            raise SpecFailed(failing)
        for outcome in outcomes:
            if outcome.status == "suspect":
                warnings.warn(OracleSuspect(f"{self.nodeid}: {outcome.message}"), stacklevel=1)
        if all(o.status == "unsupported" for o in outcomes):
            pytest.skip(f"unsupported: {outcomes[0].message}")

    def _past_time(self) -> str:
        return f"no result within {self.config.parity.case_timeout:g} s (--case-timeout)"

    def identity(self) -> dict:
        """What a record says about this item, also when the item cannot finish (suites/running/faults.py)."""
        return {"spec": self.spec.name, "kind": self.kind, "adapter": self.adapter_name, "device": self.device,
                "dtype": self.dtype, "mode": self.mode, "test": self.nodeid, "started": time.time()}

    def _again(self, outcome):
        """The check that gave `outcome`, on its inputs, as a function of the context (another
        adapter's, for suites/judging/suspect.py); gradients along the item's own random directions."""
        return check_again(self.spec, self.kind, outcome.case, outcome.inputs, self.seed)

    def _apart(self, ctx, outcome):
        """names -> the check of `outcome`'s case on those adapters, in one fresh process: [(name,
        status, actual)], or why it did not finish (a crash there is theirs, not this item's)."""
        def run(names):
            try:
                results, died = faults.isolated(others_in_process, self.config.getoption("adapter_path"),
                                                str(self.spec.file), self.spec.name, self.kind, names, ctx.device,
                                                self.dtype, outcome.case, outcome.inputs, self.seed)
            except RuntimeError as exc:  # raised there
                return str(exc)
            return f"its process died with {died}" if died else results
        return run

    def _fresh(self, ctx, outcome) -> Outcome:
        """A case that failed and then passed when hypothesis ran it again in this process, run
        FRESH_RERUNS times more, each in a fresh process: the failure stays, and its message says
        what was seen, how often it failed there. "flaky" only where the fresh processes saw both
        outcomes; no cause is named where they saw one: FRESH_RERUNS runs cannot tell an op that
        fails one call in three from one that depends on what ran before it."""
        failed = 0
        for _ in range(FRESH_RERUNS):
            try:
                status, died = faults.isolated(case_in_process, self.config.getoption("adapter_path"),
                                               str(self.spec.file), self.spec.name, self.kind, self.adapter_name,
                                               ctx.device, self.dtype, self.mode, outcome.case, outcome.inputs,
                                               self.seed)
            except RuntimeError:  # the check itself raised there: a failure too
                status, died = "error", None
            failed += died is not None or status not in PASSING
        flaky = ": flaky, it both failed and passed there" if 0 < failed < FRESH_RERUNS else ""
        outcome.message += (f" (failed again in {failed} of {FRESH_RERUNS} fresh-process reruns{flaky}; "
                            "it passed once when hypothesis ran it again in this process)")
        return outcome

    def _examples(self, ctx):
        return self._each(ctx, [(e, None) for e in self.spec.examples if e.runs_in(self.dtype, self.spec.dtypes)])

    def _each(self, ctx, examples: list) -> list:
        """Each (example, its inputs or None) checked in turn, noted as it runs (so that a crash
        names it) and with the whole --case-timeout of its own: one that runs past it has its
        timeout record (Watch.expired) and its siblings still run. Those that killed a worker
        earlier in this run are left out (suites/running/faults.crashed): their crash records stand."""
        crashed, watch = faults.crashed(self.config.parity.results_dir, self.nodeid), self.config.parity.watch
        outcomes = []
        for example, case in examples:
            if example.name in crashed:
                continue
            watch.case(example.name, len(examples))
            try:
                outcome = self._example(ctx, example, case)
            except faults.CaseTimeout:
                outcome = None
            if watch.fired:  # raised, or caught by the framework and swallowed: recorded as it came
                watch.settle()
                continue
            outcomes.append(outcome)
        return outcomes

    def _example(self, ctx, example, case=None) -> Outcome:
        """One example's check (on its inputs, `case`, where the caller made them already); in a
        process of its own where a difference documents that the case kills its process (an
        abort in native code), so that the item and the run go on."""
        kind = "gradient" if self.kind == "gradient" else "value"
        diff = entries.find(ctx, example.name, kind, crashes=True)
        if not diff:
            return example_outcome(ctx, self.kind, example, self.seed, case)
        outcome, died = faults.isolated(example_in_process, self.config.getoption("adapter_path"), str(self.spec.file),
                                        self.spec.name, self.kind, self.adapter_name, ctx.device, self.dtype,
                                        self.mode, example.name, self.seed, deadline=faults.CRASH_DEADLINE)
        return differences.crashed(example.name, diff, outcome, died)

    def _property(self, ctx):
        """The generated cases' values; in a process of their own where a difference documents
        that some draws kill the process."""
        diff = entries.find(ctx, "hypothesis", "value", crashes=True)
        if not diff:
            return [property_outcome(ctx, self.seed, self.config.parity.seed)]
        outcome, died = faults.isolated(property_in_process, self.config.getoption("adapter_path"),
                                        str(self.spec.file), self.spec.name, self.adapter_name, ctx.device, self.dtype,
                                        self.mode, self.seed, self.config.parity.seed, deadline=faults.CRASH_DEADLINE)
        return [differences.crashed("hypothesis", diff, outcome, died)]

    def _gradient(self, ctx):
        """The explicit examples' gradients (gradient_examples), or the generated cases'."""
        if self.generated:
            cases, shapes = strategy_of(self.spec, self.dtype, self.kind, self.config.parity.seed)
            return [judge.hypothesis_cases(self.seed, cases, lambda case, seed: gradcheck.check_gradient(
                ctx, "hypothesis", case, np.random.default_rng(seed)), shapes)]
        return self._each(ctx, [(example, inputs.example(self.spec, example, self.dtype))
                                for example, dtype in gradient_examples(self.spec) if dtype == self.dtype])

    def _training(self, ctx):
        """Each example's training steps (suites/programs/training.py): Parity's SGD, then each
        of the training's optimizers."""
        examples = [e for e in self.spec.examples if e.runs_in(self.dtype, self.spec.dtypes)]
        first = {e.name: {} for e in examples}  # step 0, judged once per example (training.train)
        return [training.train(ctx, e.name, inputs.example(self.spec, e, self.dtype), self.seed, o, first[e.name])
                for e in examples for o in [None, *self.spec.program.optimizers]]

    def _repeat(self, ctx):
        """The spec's benchmark work run again under each condition, compared bit for bit."""
        return repeat.outcomes(ctx, self.config.getoption("adapter_path"), str(self.spec.file),
                               self.config.parity.watch.renew)

    def _record(self, ctx, outcome, duration):
        passed, unsupported = outcome.status in PASSING, outcome.status == "unsupported"
        rerunnable = outcome.status != "pass" and not unsupported  # a failure, a documented difference (report port)
        self.config.parity.recorder.write(record(
            spec=self.spec.name, case=outcome.case, kind=self.kind, adapter=self.adapter_name, device=ctx.device,
            dtype=self.dtype, mode=self.mode, ops=sorted(self.spec.program.meets()),
            **results.outcome_fields(outcome, self.dtype),
            seed=self.seed if outcome.case == "hypothesis" else None,
            output=results.output_values(outcome.actual, self.kind),
            repro=None if passed else reproductions(self, ctx, outcome), duration=duration,
            versions={ctx.adapter.name: ctx.adapter.version()}, test=self.nodeid,
            adapter_env=ctx.adapter.environment() or None,
            rerun=self.rerun(ctx.adapter, outcome.case == "hypothesis") if rerunnable else None,
            **self.config.parity.environment))

    def rerun(self, adapter, generated: bool) -> str:
        """The command that runs this item again as this run did, from the folder it ran in: the
        adapter's environment, the interpreter that ran it, its node id, and the options it
        needs: --adapter-path and --spec where the run had them, a GPU device, and the hypothesis
        seed and profile of a generated case."""
        options = self.config.getoption
        words = [f"{k}={shlex.quote(v)}" for k, v in adapter.environment().items()]
        words += [*map(shlex.quote, results.pytest_command(self.config.rootpath, self.nodeid)), "--adapter",
                  shlex.quote(self.adapter_name)]
        for path in options("adapter_path"):
            words += ["--adapter-path", shlex.quote(path)]
        if options("spec"):
            words += ["--spec", shlex.quote(options("spec"))]
        if self.config.parity.devices != ["cpu"]:
            words += ["--device", ",".join(self.config.parity.devices)]
        if generated:
            words.append(f"--hypothesis-seed={self.config.parity.seed}")
            if options("hypothesis_profile", None):
                words.append(f"--hypothesis-profile={options('hypothesis_profile')}")
        return " ".join(words)

    def repr_failure(self, excinfo, style=None):
        if not isinstance(excinfo.value, SpecFailed):
            return super().repr_failure(excinfo, style)
        lines = [f"{self.name} ({self.spec.file}:{self.spec.line})"]
        for o in excinfo.value.outcomes:
            lines.append(f"  case {o.case!r}: {o.status}: {o.message}")
            if o.case == "hypothesis":
                lines.append(f"    seed {self.seed}; falsifying example:")
            elif o.inputs:
                lines.append("    inputs:")
            for name, desc in results.describe_inputs(o.inputs, self.dtype).items():
                values = f" = {desc['values']}" if "values" in desc else ""
                lines.append(f"      {name}: {desc['dtype']}{tuple(desc['shape'])}{values}")
        generated = any(o.case == "hypothesis" for o in excinfo.value.outcomes)
        lines.append(f"  run again: {self.rerun(adapters.get(self.adapter_name), generated)}")
        return "\n".join(lines)

    def reportinfo(self):
        return self.spec.file, self.spec.line - 1, self.name


def reproductions(item, ctx, outcome) -> dict:
    """A failing case as standalone code (suites/running/repro.py) for its adapter, the reference (the
    expected values' computation) and the built-in adapters this run ran: the snippet, or why
    there is none."""
    spec = item.spec
    if spec.collective or not outcome.inputs or not hasattr(spec.program, "tree"):  # a model has no one expression
        return {}
    wrt = spec.wrt if item.kind == "gradient" else ()
    dtypes = {k: ctx.input_dtype(k, np.asarray(v)) for k, v in outcome.inputs.items()}
    title = f"{item.name}, case {outcome.case!r}: {outcome.status}"
    out, installed = {}, adapters.classes()
    ran = item.config.parity.adapters
    for name in dict.fromkeys([item.adapter_name, "reference", *(a for a in adapters.BUILTIN if a in ran)]):
        if name not in installed:
            continue
        cls = installed[name]
        try:
            mode = item.mode if item.mode in cls.modes() else "eager"
            out[name] = {"code": repro.snippet(cls, spec.program.tree, outcome.inputs, dtypes, item.dtype, ctx.device,
                                               title, wrt, mode)}
        except repro.NoSnippet as exc:
            out[name] = {"none": str(exc)}
    return out


def resolve_device(adapter, requested: str) -> str:
    """cpu, or the adapter's first GPU for cuda/gpu (a skip with the reason where it has none)."""
    if requested == "cpu":
        return "cpu"
    gpus = [d for d in adapter.devices() if d != "cpu"]
    if not gpus:
        pytest.skip(f"no GPU visible to {adapter.name} (its devices: {', '.join(adapter.devices())}); run with "
                    "--device cpu, or on a machine with a GPU and the framework's GPU build")
    return gpus[0]
