"""Benchmark workloads from the specs' `benchmark` blocks: which (spec, size, dtype, mode, pass)
to time, their inputs, their FLOPs and bytes, and the step an adapter runs.

A workload's id reads `matmul/square/n1024/float32-compiled-forward-backward`; --bench-filter
narrows them by area, spec, size, adapter, dtype, mode and pass (`area=matmul,size=n1024`, a
glob per key; a key given twice matches either value; `;` separates alternatives). PROFILES names
filters: `quick`, the headline workloads a report times by default.
"""
import dataclasses
import fnmatch
import math

import numpy as np

from suites.judging import gradcheck, judge
from suites.programs import expr
from suites.programs import inputs as spec_inputs
from suites.programs.context import Context

FILTER_KEYS = ("area", "spec", "size", "adapter", "dtype", "mode", "pass")
PASSES = {"forward": "forward", "backward": "forward-backward"}
BACKWARD_FACTOR = 3  # forward + backward: the backward pass costs twice the forward (FLOPs and bytes)
# Named --bench-filter values. `quick`: one headline workload per kind of work a model is built
# from, about 2 minutes on 2 cores, so that every report has a performance section (tox -e report):
# a GEMM eager and compiled, attention's forward pass (its reverse pass' output check alone, finite
# differences of the float64 reference, took 6 s per process), an LSTM and a conv layer trained
# (forward + backward), and one collective. `full`: everything (tox -e bench).
PROFILES = {
    "quick": ";".join([
        "area=matmul,spec=broadcast-shapes,size=square-512,pass=forward",
        "area=attention,spec=multihead-self-attention,mode=eager,pass=forward",
        "area=lstm,spec=benchmark-num-layers1,mode=eager,pass=forward-backward",
        "area=conv,spec=resnet-3x3,size=b16-32to64-32-k3,mode=eager,pass=forward-backward",
        "area=collectives,spec=all_reduce,size=w2-1MiB-out-of-place",
    ]),
    "full": "",
}


class FilterError(ValueError):
    """A --bench-filter that names an unknown key or has no `=`."""


def parse_filter(text: str | None) -> list:
    """`area=matmul,size=n*;area=lstm` -> [{"area": ["matmul"], "size": ["n*"]}, {"area": ["lstm"]}]:
    alternatives separated by `;`, each of key=glob terms that must all hold (a key given twice
    matches either glob). No alternative: everything."""
    alternatives = []
    for alternative in (text or "").split(";"):
        terms = {}
        for term in alternative.split(","):
            if not term.strip():
                continue
            key, sep, pattern = term.partition("=")
            key = key.strip()
            if not sep or key not in FILTER_KEYS:
                raise FilterError(f"--bench-filter takes key=glob terms, keys {', '.join(FILTER_KEYS)}. "
                                  f"Received: {term.strip()!r}")
            terms.setdefault(key, []).append(pattern.strip())
        if terms:
            alternatives.append(terms)
    return alternatives


def matches(fields: dict, alternatives: list) -> bool:
    """Whether any alternative holds for these fields (terms of keys the fields lack hold: the
    adapter is matched once it is known)."""
    return not alternatives or any(
        all(any(fnmatch.fnmatchcase(str(fields.get(key, "")), p) for p in patterns)
            for key, patterns in terms.items() if key in fields) for terms in alternatives)


@dataclasses.dataclass(frozen=True)
class Workload:
    spec: object
    size: dict
    dtype: str
    mode: str  # eager | compiled
    pass_name: str  # forward | forward-backward

    @property
    def id(self) -> str:
        return f"{self.spec.name}/{self.size['name']}/{self.dtype}-{self.mode}-{self.pass_name}"

    def fields(self, adapter: str | None = None) -> dict:
        fields = {"area": self.spec.area, "spec": self.spec.id, "size": self.size["name"], "dtype": self.dtype,
                  "mode": self.mode, "pass": self.pass_name}
        return {**fields, "adapter": adapter} if adapter else fields

    @property
    def sized_spec(self):
        """The spec with the size's LSTM / GRU sizes or model dims (its derived weights follow them)."""
        program = self.spec.program
        key = getattr(program, "size_key", None)
        if key not in self.size:
            return self.spec
        return dataclasses.replace(self.spec, program=program.resized(self.size[key]))


def workloads(specs, terms: list | None = None) -> list:
    """Every workload of these specs that the filter terms keep (adapter terms apply later)."""
    out = []
    for spec in specs:
        block = spec.benchmark
        if not block:
            continue
        for size in block["sizes"]:
            for dtype in size.get("dtypes", ["float32"]):
                for mode in block.get("modes", ["eager"]):
                    for pass_key in block.get("passes", ["forward"]):
                        if mode == "exported" and pass_key != "forward":
                            continue  # an exported program serves inference (docs/exporting.md)
                        w = Workload(spec, size, dtype, mode, PASSES[pass_key])
                        if matches(w.fields(), terms or []):
                            out.append(w)
    return out


def inputs(workload: Workload) -> dict:
    """Seeded inputs of the size's shapes, by the spec's input rules (suites/programs/inputs.py: indices,
    masks and lengths as its hypothesis cases get them; derived LSTM weights as torch initialises
    them; normal floats else)."""
    spec = workload.sized_spec
    return spec_inputs.generate(spec, workload.size["inputs"], workload.dtype, spec_inputs.Seeded(workload.id))


def float_inputs(values: dict) -> list:
    """The inputs a forward + backward step differentiates: every floating-point one."""
    return [name for name, v in values.items() if np.asarray(v).dtype.kind == "f"]


def work(workload: Workload, values: dict, out_shape) -> dict:
    """FLOPs and bytes of one step, from the block's formulas over the dims of the inputs and
    of the result (`out`), the spec's params and the LSTM sizes; None where no formula."""
    spec, block = workload.sized_spec, workload.spec.benchmark
    sizes = {**spec.params, **spec.program.sizes}
    shapes = {**{n: np.shape(v) for n, v in values.items()}, "out": tuple(out_shape)}
    for arg, names in block["dims"].items():
        sizes.update(zip(names, shapes[arg]))
    factor = BACKWARD_FACTOR if workload.pass_name == "forward-backward" else 1
    names = list(sizes)
    flops = expr.compute(expr.parse_formula(block["flops"], names), sizes) * factor
    moved = None
    if "elements_moved" in block:
        itemsize = 2 if workload.dtype == "bfloat16" else np.dtype(workload.dtype).itemsize
        moved = expr.compute(expr.parse_formula(block["elements_moved"], names), sizes) * itemsize * factor
    return {"flops": float(flops), "bytes": None if moved is None else float(moved)}


def step(workload: Workload, adapter, device: str):
    """(ctx, run, values, first output shape): run() does one synced step of the workload on the
    adapter through ctx, in the workload's mode (`staged`). What `check` judges is what run()
    then times: the same made function."""
    ctx, fn, args, values, shape = staged(workload, adapter, device)

    def run():
        with adapter.device_scope(device):
            sync_all(adapter, fn(*args))

    return ctx, run, values, shape


def staged(workload: Workload, adapter, device: str):
    """(ctx, fn, args, values, first output shape): fn(*args) is one step of the workload on the
    adapter, in the workload's mode: the program's staged (or compiled) forward pass, or its
    reverse pass for a ones cotangent, d/d every float input (Program.staged_forward,
    staged_reverse); the benchmarks time it, the repeat check runs it again and again."""
    if workload.mode == "compiled":
        adapter.fresh_compiler()  # as the fresh process the repeat check compares it with
    values, program = inputs(workload), workload.sized_spec.program
    wrt = float_inputs(values)
    spec = dataclasses.replace(workload.sized_spec, gradient={**(workload.sized_spec.gradient or {}), "wrt": wrt})
    ctx = Context(spec, adapter, device, workload.dtype, workload.mode)
    tensors = ctx.tensors(values)
    with adapter.device_scope(device):
        shape = tuple(np.shape(adapter.to_numpy(ctx.evaluate(tensors))))
    if workload.pass_name == "forward":
        fn, args = program.staged_forward(ctx), (tensors,)
    else:
        fn, args = program.staged_reverse(ctx, wrt), (tensors, adapter.asarray(np.ones(shape), workload.dtype, device))
    return ctx, fn, args, values, shape


def check(workload: Workload, ctx, values: dict):
    """The workload's output against the float64 reference, once, before it is timed, as the
    conformance checks judge it (documented differences included; compiled against eager too):
    the forward pass's value, or the reverse pass's gradients along a random direction. Its
    inputs are generated by the spec's rules, so the differences documented for generated cases
    (case `hypothesis`) apply. The Outcome; a failing one is the benchmark's result, not a time."""
    if workload.pass_name == "forward":
        return judge.check_case(ctx, "hypothesis", values)
    return gradcheck.check_gradient(ctx, "hypothesis", values, np.random.default_rng(0), per_input=False)


def sync_all(adapter, result):
    """Block until every tensor of a result (a tensor, or tuples and dicts of them) is computed."""
    if isinstance(result, dict):
        result = list(result.values())
    if isinstance(result, (tuple, list)):
        for part in result:
            sync_all(adapter, part)
    elif result is not None:
        adapter.sync(result)


def collective_message(nbytes: int, world: int, name: str, dtype: str = "float32") -> list:
    """Zero shards for a collective of `nbytes` per rank's result: all_reduce's buffer, or
    all_gather's gathered output (nccl-tests' size), so each rank sends nbytes / world."""
    elements = nbytes // np.dtype(dtype).itemsize
    per_rank = elements // world if name == "all_gather" else elements
    return [np.zeros(max(per_rank, 1), dtype) for _ in range(world)]


def bus_factor(name: str, world: int) -> float:
    """busbw = algbw x this factor (nccl-tests' PERFORMANCE.md): all_reduce 2(n-1)/n; all_gather,
    reduce_scatter and all_to_all (n-1)/n."""
    return 2 * (world - 1) / world if name == "all_reduce" else (world - 1) / world


def message_sizes(low: int = 2**10, high: int = 2**26, step: int = 4) -> list:
    """1 KiB, 4 KiB, ... 64 MiB."""
    return [low * step ** k for k in range(int(math.log(high // low, step)) + 1)]
