"""A Context: one spec's program on one adapter, device, dtype and mode, what every check runs
through (suites/judging/judge.py, suites/judging/gradcheck.py): it stages the program as its mode
says (eager, compiled, mixed), evaluates the reference, a documented behaviour's model in it where
one judges the case, and the a-priori error bound; in the mixed mode it knows the class of
precision the op is computed in (docs/mixed-precision.md)."""
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from pathlib import Path

import numpy as np

import adapters
from suites.judging import compare, mixed_bounds
from suites.programs.program import ORACLE, Modelled, Program, flatten, joined_dtype, parts_of
from vocabulary import LOWERED

SHARED_GROUPS = 64  # the (spec, adapter, device, dtype, mode) groups whose staged programs a process keeps
_shared: OrderedDict = OrderedDict()


def shared_stages(spec, adapter, device: str, dtype: str, mode: str) -> dict:
    """The staged programs (Context.staged) that every item of this spec, adapter, device, dtype and
    mode shares in this process, where the mode's program compiles or exports once per input
    signature whatever ran before (Adapter.shared_modes: jax.jit, every export path): an example,
    its property and its gradients then reuse one compilation per shape, and shapes repeat across
    them (the palette, suites/programs/palette.py). Elsewhere a fresh dict, the item's own: a
    compiler whose result depends on what it compiled before (torch.compile's automatic dynamic
    shapes) compiles each item afresh, as a user's new process would. The most recent
    SHARED_GROUPS groups are kept (an item's neighbours are its spec's other items); each entry
    holds its spec and adapter, so the ids in its key name them while it is kept."""
    if mode not in adapter.shared_modes:
        return {}
    key = (id(spec), id(adapter), device, dtype, mode)
    if key not in _shared:
        _shared[key] = (spec, adapter, {})
        while len(_shared) > SHARED_GROUPS:
            _shared.popitem(last=False)
    _shared.move_to_end(key)
    return _shared[key][2]


@dataclass
class Context:
    """One spec's program on one adapter, device and dtype: what every check runs through."""

    spec: object
    adapter: object
    device: str
    dtype: str
    mode: str = "eager"  # eager, compiled, mixed or exported (adapters.base.MODES)
    staged: dict = field(default_factory=dict, repr=False)
    # A documented difference's `precision` (a framework that computes float64 in float32):
    # results are then judged as results of that dtype. Inputs stay in the dtype under test.
    precision: str | None = None
    # A documented difference's `quantised` (int8: a runtime's dynamic-range quantisation): a
    # model's layers that read weights are judged with their operands moved by its steps.
    quantised: str | None = None
    # An adapter's documented behaviour (adapters/behaviours.py): the reference then computes its
    # op with the behaviour's model.
    behaviour: object = None
    # False: the mixed mode judged as torch.autocast computes, the adapter's documented policy
    # aside (differences.under_policy asks whether the policy shows in a case)
    policed: bool = True

    @property
    def program(self) -> Program:
        return self.spec.program

    @property
    def judged(self) -> str:
        """The dtype whose error bounds and tolerances judge the results: bfloat16 where the mixed
        mode lowers the op (`lowered`)."""
        return self.precision or ("bfloat16" if self.lowered else self.dtype)

    def stage(self, key, make):
        """make() as the mode runs it (adapter.stage eager, adapter.compile compiled, adapter.mixed
        mixed, adapter.export exported), made once per context, or once per process where its
        items share their staged programs (shared_stages): a compiler then reuses one compilation
        for every case it can (a value and its property re-runs, Jacobian rows, shapes a
        dynamic-shape compilation covers), an exporter one export per input signature."""
        if key not in self.staged:
            fn = make()
            self.staged[key] = {"compiled": self.adapter.compile, "mixed": self.adapter.mixed,
                                "exported": lambda f: self.adapter.export(f, self.program.weight_names()),
                                }.get(self.mode, self.adapter.stage)(fn)
        return self.staged[key]

    def reverse(self, key, forward, wrt: list):
        """(env, cotangent) -> gradients of forward(**env) for `wrt`, made once per context:
        eager, the adapter's grad; compiled, its compile_grad (a training step as the framework's
        users compile one)."""
        if key not in self.staged:
            adapter = self.adapter
            if self.mode == "compiled":
                step = adapter.compile_grad(forward, wrt)
                self.staged[key] = lambda env, cot: step(env, cot)[1]
            else:
                self.staged[key] = adapter.stage(lambda env, cot: adapter.grad(forward, env, wrt, cot)[1])
        return self.staged[key]

    @property
    def eager(self):
        """This context in the eager mode (itself, when it is eager): what a compiled result is
        judged against beside the reference (suites/judging/modes.py)."""
        if self.mode == "eager":
            return self
        return replace(self, mode="eager", staged=self.staged.setdefault(("eager",), {}))

    def input_dtype(self, name: str, value: np.ndarray) -> str:
        """An arg's dtype in the adapter: the one the spec declares for it (a dtype, or PYTHON for
        a Python number), else the dtype under test, unless it is integer/bool by nature."""
        declared = self.spec.arg_dtype(name)
        if declared:
            return declared
        return value.dtype.name if value.dtype.kind in "biu" and compare.is_inexact(self.dtype) else self.dtype

    @property
    def tolerance(self) -> dict:
        """The spec's own rtol / atol / ulp for the judged dtype."""
        return self.spec.tolerance.get(self.judged, {})

    @property
    def result_dtype(self) -> str:
        """The result's dtype: the spec's (one, or one per dtype under test: NumPy's promotion),
        else the judged dtype."""
        declared = self.spec.result_dtype
        if isinstance(declared, dict):
            declared = declared.get(self.dtype)
        return declared or self.judged

    @property
    def parts_dtype(self) -> str:
        """The dtype run() should report: result_dtype, or, for an op whose parts have dtypes of their own
        (unique_counts' int64 counts beside values of the dtype under test), program.joined_dtype of theirs."""
        declared = self.program.part_dtypes
        return joined_dtype([d or self.result_dtype for d in declared]) if declared else self.result_dtype

    @property
    def lowered(self) -> bool:
        """In the mixed mode, whether the op runs in bfloat16: as torch.autocast runs it
        (Program.autocast), or as a documented behaviour of the adapter's policy says."""
        if self.mode != "mixed":
            return False
        return self.autocast in LOWERED

    @property
    def autocast(self) -> str | None:
        """The mixed mode's class of the op (vocabulary.AUTOCAST), or the documented policy's."""
        return getattr(self.policy, "autocast", None) or self.program.autocast

    @property
    def policy(self):
        """In the mixed mode, the adapter's documented policy for the op, where it computes it in
        another dtype than torch.autocast does (a Behaviour with `autocast`, adapters/mixed.py):
        every check of the mode judges by it, with any other documented difference (Keras' epsilon
        default in its bfloat16 LayerNormalization), and shows it (differences.under_policy)."""
        if self.mode != "mixed" or not self.policed:
            return None
        return next((b for b in self.adapter.behaviours if b.autocast and b.applies(self)), None)

    def run(self, inputs: dict, tree=None):
        """The adapter's result as (NumPy array, dtype name, part shapes): a result of several
        parts comes back flat, with their shapes and, where their dtypes differ, each part's dtype
        joined by commas (program.joined_dtype); a single array with None."""
        return self.program.run(self, inputs, tree)

    def run_parts(self, inputs: dict) -> list:
        """The adapter's result as a list of NumPy arrays, one per part."""
        actual, _, shapes = self.run(inputs)
        return parts_of(actual, shapes)

    def collective(self, name: str, shards: list, **params) -> list:
        """The adapter's collective on these shards (in the dtype under test), rank by rank."""
        return self.adapter.collective(name, [np.asarray(s).astype(self.dtype) for s in shards], device=self.device,
                                       **params)

    def tensors(self, inputs: dict) -> dict:
        return self.program.tensors(self, inputs)

    def evaluate(self, env: dict, tree=None, flat=True):
        return self.program.evaluate(self, env, tree, flat)

    def oracle(self, inputs: dict, fixed=None, tree=None):
        """The float64 (or int64) reference value on exactly these inputs (several parts flat)."""
        return flatten(self.oracle_parts(inputs, fixed, tree))

    def oracle_parts(self, inputs: dict, fixed=None, tree=None):
        """The reference value as the program returns it: an array, or a tuple of parts."""
        return self.program.oracle_parts(inputs, self.dtype, fixed, tree, self.reference)

    @property
    def reference(self):
        """The float64 reference, with a behaviour's model in place of its op where there is one."""
        return Modelled(self.behaviour) if self.behaviour else ORACLE

    def judged_against(self, inputs: dict, actual, shapes):
        """The program's (reference, bound, drift) for the adapter's result (Program.judged_against).
        Lowered (the mixed mode's bfloat16 ops): the reference of the inputs rounded to bfloat16
        (autocast's cast), within float32's error on them (the accumulation torch's CPU kernels
        make: its bound, or the spec's float32 tolerance for an op without one, a norm's) and one
        bfloat16 ulp (the result's rounding may reach either neighbour). An op the policy computes
        in bfloat16 steps (each rounded: a Dense's product before its bias) is judged by bfloat16's
        own bound (attention's: suites/judging/mixed_bounds.py); one the policy computes in float32
        from its unrounded inputs, the result rounded (flax's norms), from the inputs as they are."""
        if not self.lowered:
            return self.program.judged_against(self, inputs, actual, shapes)
        rounded = {k: compare.round_to(v, "bfloat16") if np.asarray(v).dtype.kind == "f" else v
                   for k, v in inputs.items()} if self.autocast != "float32-rounded" else inputs
        reference = self.oracle_parts(rounded)
        if self.autocast == "bfloat16-steps":
            steps = mixed_bounds.in_steps(getattr(self.program, "tree", None), rounded)
            if steps is None:
                steps = self.program.error_bound(rounded, "bfloat16", self.behaviour)
            return reference, steps, None
        accumulated = self.program.error_bound(rounded, "float32", self.behaviour)
        if accumulated is None:
            accumulated = compare.allowed_error(compare.cast(flatten(reference), "float32"), "float32", None,
                                                self.spec.tolerance.get("float32"))
        return reference, accumulated + compare.ulp(compare.cast(flatten(reference), "bfloat16"), "bfloat16"), None

    def error_bound(self, inputs: dict):
        """The a-priori error bound of this case (None where there is none), with a behaviour's
        model in place of its op where there is one. Under a documented `precision`, each float
        input's narrowing is the framework's first rounding (compare.sum_product_bound's
        `rounded`): a float64 input that float32 holds as a subnormal only may be flushed to 0 there
        (XLA's CPU flush-to-zero: JAX by default, on a max pool that rounds nothing else)."""
        rounded = [k for k, v in inputs.items() if np.asarray(v).dtype.kind == "f"] if self.precision else ()
        return self.program.error_bound(inputs, self.result_dtype, self.behaviour, rounded)

    def sum_product(self, wide: dict):
        """The program's sum-product bound on these float64 inputs (None as for error_bound)."""
        return None if self.behaviour else self.program.sum_product(wide)

    @property
    def part_names(self) -> tuple:
        return self.program.part_names

    def fixed_oracle(self, inputs: dict):
        """The reference as a function for finite differences: the FIXED_OPS subtrees keep the
        values they have at `inputs`."""
        fixed = {node: self.oracle(inputs, tree=node) for node in self.program.fixed_calls()}
        return lambda ins: self.oracle(ins, fixed)


def fresh_context(adapter_paths: list, spec_file: str, spec_name: str, adapter_name: str, device: str, dtype: str,
                   mode: str) -> Context:
    """In an isolated process (suites/running/faults.isolated): the spec and adapter loaded afresh (the
    adapter from its --adapter-path file where it has one), with the differences the adapter
    ships, as the run judges it."""
    from suites.loading.spec_differences import shipped
    from suites.loading.specs import load_path

    for path in adapter_paths:
        adapters.load_path(path)
    spec = next(s for s in shipped([adapter_name], load_path(Path(spec_file))) if s.name == spec_name)
    return Context(spec, adapters.get(adapter_name), device, dtype, mode)
