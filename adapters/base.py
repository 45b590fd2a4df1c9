"""The adapter interface every framework keeps (docs/adding-an-adapter.md is the guide).

An adapter translates the vocabulary (vocabulary/__init__.py; docs/vocabulary.md lists every op's
contract) into one framework's own idiomatic API. It may convert layouts, dtypes, argument order
and index formats; it never re-implements an op's math, because the suite tests the framework,
not the adapter. Every vocabulary method exists here and raises `Unsupported`, so a framework
that cannot express an op is recorded as "unsupported", never as a pass. Subclasses import their
framework lazily (in ``__init__``) so that a missing framework costs nothing until it is asked for."""
import contextlib
import functools
import importlib.util
import inspect
import pathlib
import sys
import types

from vocabulary import VOCABULARY


class Unsupported(Exception):
    """The framework cannot express this op (or dtype, or device); the reason says which."""


# The standard's real dtypes, float16 and bfloat16 too, in the coverage table's order: a declaration's "every dtype"
DTYPES = tuple("float16 bfloat16 float32 float64 int8 uint8 int16 uint16 int32 uint32 int64 uint64 bool".split())
FLOATS, INTEGERS = ("float16", "bfloat16", "float32", "float64"), DTYPES[4:12]  # int8 to uint64
COMPLEX = ("complex64", "complex128")  # the standard's: asked of the ops whose records set complex_dtypes
ALL_DTYPES = DTYPES + COMPLEX
INFO_DTYPES = {"finfo": FLOATS, "iinfo": INTEGERS}  # the dtypes finfo and iinfo describe, as every framework's take
WIDE_UNSIGNED = ("uint16", "uint32", "uint64")  # the unsigned dtypes past uint8: the ones frameworks lack most


@functools.cache
def importable(module: str) -> bool:
    """Whether module can be imported, checked without importing it, once per process: collection
    asks for every item (adapters.classes), and importlib's search cost 40 of a 42-second one."""
    return importlib.util.find_spec(module) is not None


def dtypes_except(*names) -> tuple:
    """Every dtype but these, in DTYPES order: the usual shape of a dtype declaration."""
    return tuple(d for d in DTYPES if d not in names)


def lacking(declared: dict, dtypes: tuple, ops) -> dict:
    """`declared` with `dtypes` taken out of each of `ops`' declarations (one that "*" covers gets its own): for a
    framework whose kernels in a few dtypes are easier to list by the ops that lack them (torch's uint16 to uint64)."""
    default = declared.get("*", ())
    return {**declared, **{op: tuple(d for d in declared.get(op, default) if d not in dtypes) for op in ops}}


def numpy_dtype(dtype: str, who: str = "NumPy") -> str:
    """dtype as NumPy names it, for the reference and the engine: bfloat16 unsupported, never silently float32."""
    if dtype == "bfloat16":
        raise Unsupported(f"{who} has no bfloat16")
    return dtype


BITWISE_OPS = ("bitwise_and", "bitwise_or", "bitwise_xor", "bitwise_invert", "bitwise_left_shift",
               "bitwise_right_shift")

# Tensor ops that specs and expressions may call: the vocabulary's records, in its order.
OPS = tuple(VOCABULARY)


class Adapter:
    """Base class: defaults for every method; a subclass overrides what its framework has."""

    name: str = ""
    module: str = ""  # the framework's import name, for available()
    # The dtypes each implemented op supports: op -> tuple of dtype names, "*" for every op not
    # named. `python -m suites coverage` prints it; its --check (tests/test_coverage.py) runs a
    # sample per op and dtype and fails on a dtype that works undeclared or is declared and fails.
    dtypes: dict = {}
    # Documented behaviours of an op wherever a spec calls it, with NumPy models of them
    # (adapters/behaviours.py): a fail that a model explains is "documented".
    behaviours: tuple = ()
    # The adapter this one runs in another configuration (jax-32 of jax): the specs' differences
    # of that one are this one's, but in the modes it runs on a runtime of its own (own_modes:
    # tensorflow-litert's exported mode) only those of the traced program itself, and as that one's
    # base_modes[mode] runs (torch-export's exported mode: torch's eager kernels) where it runs the
    # base's kernels otherwise (suites/judging/differences.py).
    variant_of: str | None = None
    own_modes: tuple = ()
    base_modes: dict = {}
    # The spec areas it runs (None: every one), for a variant judged where its bounds are built
    # only (torch-onnx-float16: the models, docs/exporting.md).
    areas: tuple | None = None
    # Devices each process holds in a collective across processes on CPU (python -m suites.multihost):
    # one where the runtime runs a rank a process (torch.distributed, MultiWorkerMirroredStrategy),
    # more where a process may own several (XLA host devices).
    process_devices: int = 1
    # False for an adapter that has no gradients by design (the reference: the finite-difference
    # oracle): its gradient and training items are not collected, rather than each recorded as
    # unsupported. An adapter whose framework lacks one op's gradient keeps True (that is a finding).
    differentiates: bool = True
    # True where the framework must be imported before the others in a process (PaddlePaddle dies
    # when imported after TensorFlow): a run that selects the adapter imports it first (conftest.py).
    import_first: bool = False
    # Why the compiled mode calls an op only in the dtypes the adapter declares for it (None: in
    # every dtype, as eager): a compiler that kills the process where eager raises for want of a
    # kernel (paddle.jit.to_static). Such a call is unsupported, with this reason (suites/programs/program.py).
    compiled_declared_only: str | None = None
    # The modes whose staged program compiles or exports once per input signature, whatever ran
    # before (every export path: adapters.exporting.per_signature): one staged callable then serves
    # every item of a program and dtype in a process (suites/programs/context.py, shared_stages).
    shared_modes: tuple = ("exported",)

    @classmethod
    def available(cls) -> bool:
        """True when the framework can be imported (checked without importing it)."""
        return not cls.module or importable(cls.module)

    @classmethod
    def differences_file(cls):
        """The documented differences this adapter ships, or None: a YAML file beside its module,
        MODULE.differences.yaml (differences.yaml in a package's folder), mapping spec names
        (area/id) to entries in the schema of a spec's `differences` (docs/adding-an-adapter.md)."""
        file = getattr(sys.modules.get(cls.__module__), "__file__", None)
        if not file:
            return None
        path = pathlib.Path(file)
        path = path.parent / "differences.yaml" if path.name == "__init__.py" else path.with_suffix(".differences.yaml")
        return path if path.is_file() else None

    @classmethod
    def modes(cls) -> tuple:
        """The modes its programs run in: eager; compiled where it has a compiler (overrides
        compile); mixed where it has a mixed-precision policy (overrides mixed); exported where it
        has an export path (overrides export)."""
        return ("eager", *(("compiled",) if cls.compile is not Adapter.compile else ()),
                *(("mixed",) if cls.mixed is not Adapter.mixed else ()),
                *(("exported",) if cls.export is not Adapter.export else ()))

    def unsupported(self, what: str):
        raise Unsupported(f"{self.name} does not implement {what}")

    @classmethod
    def lacks(cls, ops) -> list:
        """The vocabulary ops among `ops` that this adapter leaves to the base's default, which
        raises Unsupported: a program that calls one is unsupported before any input is converted,
        whatever the adapter declares for the dtype (a conversion error then would read as an
        error of an op the adapter never claimed); coverage's `implemented` is the rest."""
        return sorted(op for op in ops if op in VOCABULARY and getattr(cls, op) is getattr(Adapter, op))

    # -- arrays and devices -------------------------------------------------------------------
    def version(self) -> str:
        """The framework's version, recorded with every result."""
        return "unknown"

    def environment(self) -> dict:
        """The environment variables that select this adapter's configuration (Keras' backend, jax-32's
        x64 off), by name: recorded with its results, shown beside its version on the report and put
        before a failure's rerun command. Empty by default."""
        return {}

    def devices(self) -> list[str]:
        """Where it can run: "cpu" first, then GPUs as "cuda:0" or "gpu:0" (--device cuda / gpu picks the first)."""
        return ["cpu"]

    def device_scope(self, device: str):
        """Context in which ops run on `device` (TensorFlow places ops by context, not by input)."""
        return contextlib.nullcontext()

    def asarray(self, x, dtype: str, device: str):
        """x (a NumPy array, or a number) as the framework's tensor of `dtype` (a NumPy dtype name,
        bfloat16 included) on `device`; raise Unsupported for a dtype the framework lacks."""
        self.unsupported("asarray")

    def to_numpy(self, x):
        """A NumPy array of x's values; bfloat16 comes back as float32 (exact)."""
        self.unsupported("to_numpy")

    def dtype_of(self, x) -> str:
        """x's dtype as a NumPy dtype name (bfloat16 included)."""
        self.unsupported("dtype_of")

    def sync(self, x) -> None:
        """Block until x is computed (benchmarks time the work, not its dispatch)."""

    def stage(self, fn):
        """fn as the framework's users run a whole function eagerly (the eager mode): as it is."""
        return fn

    def compile(self, fn):
        """fn compiled by the framework's compiler as its users deploy it (torch.compile, jax.jit,
        tf.function with jit_compile=True): the compiled mode of conformance runs and benchmarks; calls
        take and return the adapter's tensors. An adapter that overrides it runs programs in both modes."""
        self.unsupported("compile")

    def mixed(self, fn):
        """fn under the framework's bfloat16 mixed-precision policy, as its users turn it on over
        float32 parameters and inputs (torch.autocast("cpu", dtype=torch.bfloat16), Keras' "mixed_bfloat16",
        flax's dtype=bfloat16 with float32 params, paddle.amp.auto_cast(dtype="bfloat16")): the mixed
        mode (docs/mixed-precision.md). Calls take and return the adapter's tensors."""
        self.unsupported("mixed")

    def export(self, fn, weights=()):
        """fn exported as its users export a program and run by the runtime that serves it (ONNX
        Runtime, jax.export deserialized, a SavedModel reloaded): the exported mode (docs/exporting.md),
        once per input signature, or with dynamic shapes from a family's second shape where the
        exporter has them (adapters.exporting.per_signature); calls take and return the
        adapter's tensors, and what the exporter or runtime refuses is Unsupported in its words. An
        exporter that quantises bakes in the `weights` (names in env); the others take them as inputs."""
        self.unsupported("export")

    def fresh_compiler(self) -> None:
        """The compiler's state as a fresh process has it, before a compiled item or workload makes its programs:
        what it caches on code objects that every item runs (Parity's frames above a graph break) must not decide
        how a later item compiles. Most compilers cache per function object, made anew per item: nothing to do."""

    def compile_grad(self, fn, wrt: list):
        """A compiled reverse pass, (args, cotangent) -> (value, gradients), as the framework's
        users compile a training step: here the whole step (jax.jit, tf.function); torch compiles
        the forward and lets autograd run the backward that torch.compile made for it."""
        return self.compile(lambda args, cotangent: self.grad(fn, args, wrt, cotangent))

    def set_threads(self, threads: int) -> None:
        """Use `threads` threads for intra-op work where the framework has a call for it (the
        benchmark harness also pins the process to that many CPUs before any framework loads)."""

    def deterministic(self) -> str | None:
        """Turn on the framework's documented determinism switch for the rest of the process, as its
        users do (it may not turn off: tf.config.experimental.enable_op_determinism); the call made, or
        None where it documents none for this machine (the repeat check's `switch`, docs/determinism.md)."""
        return None

    def prepare_for_speed(self) -> None:
        """Set the process up as the framework's guide sets up one that runs for speed (the
        benchmarks call it before timing; the conformance runs do not): most need nothing."""

    def framework_timer(self, fn, min_run_time: float = 1.0) -> float:
        """Median seconds per call of fn by the framework's own benchmark timer (the harness
        self-check compares ours with it)."""
        self.unsupported("a benchmark timer")

    def reset_peak_memory(self, device: str) -> None:
        """Start a new peak-memory window on a GPU device (CPU peaks are the process's RSS)."""

    def peak_memory(self, device: str) -> int | None:
        """Bytes the framework allocated at most on a GPU device since reset_peak_memory; None
        where it cannot tell (and on CPU)."""
        return None

    # -- autodiff -----------------------------------------------------------------------------
    def grad(self, fn, args: dict, wrt: list, cotangent):
        """Reverse mode through the framework's own autodiff.

        fn(**args) -> one tensor; args: name -> the adapter's tensors (and other values); wrt: the
        names to differentiate (an integer tensor too: what the framework's autodiff does with it
        is its answer, autograd/integer-input; never refuse it on its behalf); cotangent:
        a tensor of fn's result shape and dtype. Returns (fn(**args), {name: the cotangent-weighted
        gradient, a tensor of args[name]'s shape, for each name in wrt}), the vector-Jacobian
        product that jax.vjp, torch.autograd.grad(grad_outputs=) and tf.GradientTape(
        output_gradients=) compute. Where the framework returns no gradient (None: an input the
        value does not depend on, an op without a gradient), the entry is None, never zeros:
        "no gradient" is an observation (docs/adding-an-adapter.md)."""
        self.unsupported("grad")

    # -- collectives --------------------------------------------------------------------------
    def collective(self, name, shards, device="cpu", **params):
        """Run collective `name` on len(shards) real workers or devices of kind `device`, shard r
        (a NumPy array) on rank r; returns the NumPy outputs in rank order. Names and params:
        all_reduce(op: sum | mean | max), all_gather(axis, tiled), reduce_scatter(axis, op, tiled),
        all_to_all(split_axis, concat_axis), ppermute(perm: [(source, target)]), broadcast(root);
        the semantics of jax.lax's psum, all_gather, psum_scatter, all_to_all, ppermute; and
        cross_replica_reduce(op: sum | mean, axis: None or an int, also reduced along), the semantics
        of tf.distribute's Strategy.reduce."""
        self.unsupported(f"collective {name}")

    def collective_supported(self, name: str, params: dict) -> None:
        """Raise Unsupported, with the reason, for a collective (or params) the framework lacks;
        checked before any rank runs it, so that every rank refuses alike."""
        if type(self).collective is Adapter.collective:
            self.unsupported(f"collective {name}")

    def collective_grad(self, name, shards, cotangents, device="cpu", replicated=False, **params):
        """The reverse pass of collective `name` through the framework's own autodiff: rank r's
        output cotangent is cotangents[r]; returns each rank's input gradient, in rank order (None
        where the framework gives none). `replicated`: the result is one value every rank holds
        (an all-reduced loss, every rank given the same cotangent), differentiated as the
        framework's users take such a loss's gradient on each rank: a framework that tracks
        which values are replicated (jax.shard_map) counts its cotangent once; one with a rank's reverse pass alone
        (torch.distributed.nn, tf.distribute) runs the same reverse pass as without it."""
        self.unsupported(f"the gradient of collective {name}")

    def collective_rank(self, rank: int, processes: int, announce, device="cpu", **launch):
        """Join a collective group that spans processes (and hosts) as process `rank` of
        `processes`, and return serve(name, shards, params) -> outputs, for this process's
        shards (one per device it holds): what `python -m suites.multihost` runs in every
        process. `launch` carries the rendezvous (host and port: torchrun's MASTER_ADDR and
        MASTER_PORT), local_devices (devices per process: world size = processes x
        local_devices) and timeout (seconds a join or a collective may take); `announce(dict)`
        prints what the other ranks need (a port rank 0 picked)."""
        self.unsupported("collectives across processes")

    def time_collective(self, name, shards, rounds: int, device="cpu", placement="out-of-place", **params) -> list:
        """Seconds per call of collective `name`, measured `rounds` times inside the workers
        after a warm-up, the device synced in the timed region; per round the slowest rank's.
        `placement`, as nccl-tests measures both: out-of-place (the result in a buffer of its own)
        or in-place (the result over the input: all_gather's input a slice of its output);
        Unsupported where the framework's API has no such call."""
        self.unsupported(f"timing collective {name}")


def _default(op):
    """Adapter's method for a vocabulary op: the op's signature and semantics, raising Unsupported."""
    def method(self, *args, **kwargs):
        self.unsupported(op.name)

    method.__name__, method.__qualname__, method.__doc__ = op.name, f"Adapter.{op.name}", op.semantics
    method.__signature__ = op.parameters
    return method


for _op in VOCABULARY.values():
    setattr(Adapter, _op.name, _default(_op))


def own_code(fn):
    """fn with a code object of its own. Compilers that cache per code object (torch.compile:
    a recompile limit per code object, past which the frame runs eagerly) then see each program
    as the distinct function a user's model is, not as one lambda recompiled for every spec."""
    return types.FunctionType(fn.__code__.replace(), fn.__globals__, fn.__name__, fn.__defaults__, fn.__closure__)


def no_rounding_mode(api: str):
    """round(half='away') where the framework's round has one mode only."""
    raise Unsupported(f"{api} rounds half to even; it has no rounding mode")


def no_diff_joins(api: str, prepend, append):
    """diff's prepend and append, where the framework's diff has neither (TensorFlow's, Keras')."""
    if prepend is not None or append is not None:
        raise Unsupported(f"{api} takes no prepend or append")


def conv_padding(padding, spatial: int):
    """A conv padding argument as XLA and TensorFlow take it: "SAME" / "VALID", or
    [(before, after)] per spatial axis for an int or a tuple (PyTorch's symmetric padding)."""
    if isinstance(padding, str):
        return padding.upper()
    pads = (padding,) * spatial if isinstance(padding, int) else tuple(padding)
    return [(int(p), int(p)) for p in pads]


def axes_tuple(axis):
    """An axis argument as the frameworks take several axes: specs write them as YAML lists,
    and NumPy, JAX, PyTorch and Keras read a list as an array, not as axes."""
    return tuple(axis) if isinstance(axis, list) else axis


def as_tuple(value, spatial: int) -> tuple:
    """stride / dilation: an int for every spatial axis, or one per axis."""
    return (int(value),) * spatial if isinstance(value, int) else tuple(int(v) for v in value)


def lift_1d(value, fill: int):
    """A conv1d parameter as conv2d's over a height of 1: (fill, value); "same" / "valid" stay."""
    return value if isinstance(value, str) else (fill, as_tuple(value, 1)[0])


def given(**options) -> dict:
    """The keyword options a call gives: those not None (None leaves one to the framework)."""
    return {k: v for k, v in options.items() if v is not None}


def flipped_momentum(momentum):
    """PyTorch's momentum m (the batch's weight) as flax's and Keras' (the old value's): 1 - m."""
    return None if momentum is None else 1 - momentum


def stacked_rnn(seq, num_layers: int, bidirectional: bool, direction, concat):
    """torch.nn.LSTM's and GRU's stacking, which every recurrent adapter shares: layer l + 1 reads
    layer l's outputs with both directions side by side (`concat`), and the final states list in
    the order layer * D + direction. `direction(seq, layer, d, k)` runs one direction of one layer
    (k its index into the initial states) and returns (out, *final states: h, or h and c), out in
    forward time order. Returns the last layer's outputs and one list per kind of final state."""
    directions = 2 if bidirectional else 1
    finals = []
    for layer in range(num_layers):
        outputs = []
        for d in range(directions):
            out, *states = direction(seq, layer, d, layer * directions + d)
            outputs.append(out)
            finals.append(states)
        seq = outputs[0] if directions == 1 else concat(outputs)
    return (seq, *(list(kind) for kind in zip(*finals)))


def interface_markdown() -> list:
    """docs/vocabulary.md's last section: the rest of the adapter interface, from this module's
    docstrings (the vocabulary's ops are the page's first part, vocabulary.markdown)."""
    lines = ["## the rest of the interface", "",
             "Arrays, devices, autodiff, collectives, compilation and timing (adapters/base.py has the defaults).", ""]
    for name, fn in vars(Adapter).items():
        if callable(fn) and not name.startswith("_") and name not in VOCABULARY and fn.__doc__:
            doc = " ".join(fn.__doc__.split())
            lines += [f"- `{name}{inspect.signature(fn)}`: {doc}".replace("(self, ", "(").replace("(self)", "()"), ""]
    return lines
