"""An adapter that refuses some generated inputs keeps the rest of its hypothesis item; one that
refuses every input leaves the item unsupported; what a compiler refuses is unsupported in its
own words; what the keras adapter does inside a compiled step does not depend on what ran before;
and the refusals that stand for a framework's behaviour are checked against the framework; a
result the adapter reads is never taken for a refusal."""
import json
import os
import pathlib
import subprocess
import sys

import numpy as np
import pytest

import adapters
from tests.test_wrong_adapter import run_suite

REFUSING = pathlib.Path(__file__).resolve().parent / "adapters" / "refusing.py"
KERNEL_LESS = pathlib.Path(__file__).resolve().parent / "adapters" / "kernel_less.py"
EXP_INTEGERS = pathlib.Path(__file__).resolve().parent / "specs" / "exp-integers.yaml"


def records(tmp_path) -> list:
    return [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]


def test_refused_examples_are_replaced_by_others(tmp_path):
    run = run_suite(tmp_path, "--dtype", "float32", "-k", "matmul/broadcast-shapes/property", path=REFUSING,
                    adapter="refuses-vectors")
    assert run.returncode == 0, run.stdout + run.stderr
    [record] = records(tmp_path)
    assert record["status"] == "pass", record["message"]
    assert "refused as unsupported (a vector left operand is refused)" in record["message"]
    assert int(record["message"].split(" examples")[0]) >= 1  # the examples checked


def test_an_op_refused_for_every_input_is_unsupported(tmp_path):
    run = run_suite(tmp_path, "--dtype", "float32", "-k", "matmul/broadcast-shapes/property", "-rs",
                    path=REFUSING, adapter="refuses-matmul")
    assert run.returncode == 0, run.stdout + run.stderr
    [record] = records(tmp_path)
    assert record["status"] == "unsupported" and record["message"] == "no matmul here"
    assert "unsupported: no matmul here" in run.stdout


def test_what_the_compiler_refuses_is_unsupported_with_its_own_message(tmp_path):
    """tf.function(jit_compile=True) cannot compile RaggedTensor.to_tensor (XLA has no kernel for
    RaggedTensorToTensor): the compiled item is unsupported with XLA's words, never an error of
    the framework's, and the eager one still passes."""
    pytest.importorskip("tensorflow")
    run = subprocess.run([sys.executable, "-m", "pytest", "specs/padding.yaml", "--adapter", "tensorflow", "-k",
                          "truncate-post and float32 and not property", "--results-dir", str(tmp_path), "-p",
                          "no:cacheprovider", "-p", "no:xdist"], cwd=pathlib.Path(__file__).resolve().parent.parent,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    by_mode = {r["mode"]: r for r in records(tmp_path)}
    assert by_mode["eager"]["status"] == "pass", by_mode["eager"]["message"]
    compiled = by_mode["compiled"]
    assert compiled["status"] == "unsupported"
    assert compiled["message"].startswith("tf.function(jit_compile=True): XLA refuses XLA_CPU_JIT: "
                                          "RaggedTensorToTensor")


KERAS_COMPILED_FIRST = """
import numpy as np
import adapters
ad = adapters.get("keras-{backend}")
x, w, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(4, 3), np.array([1.0, 2.0, 3.0, 4.0])
env = {{k: ad.asarray(v, "float32", "cpu") for k, v in dict(x=x, w=w, b=b).items()}}
compiled = ad.compile(lambda env: ad.linear(env["x"], env["w"], env["b"]))
print(np.abs(ad.to_numpy(compiled(env)) - (x @ w.T + b)).max())
softmax = ad.compile(lambda env: ad.masked_softmax(env["x"], env["m"]))  # a layer without weights
out = softmax({{"x": ad.asarray(np.zeros((1, 4)), "float32", "cpu"),
               "m": ad.asarray(np.ones((1, 4), bool), "bool", "cpu")}})
print(np.abs(ad.to_numpy(out) - 0.25).max())
print(np.abs(ad.to_numpy(ad.linear(env["x"], env["w"], env["b"])) - (x @ w.T + b)).max())
"""



def keras_script(code: str, backend: str) -> list:
    """The words `code` prints, run in a process of its own with Keras on `backend` (read once,
    when keras is first imported), from the project's root; the process must exit 0."""
    run = subprocess.run([sys.executable, "-c", code], cwd=pathlib.Path(__file__).parent.parent,
                         env={**os.environ, "KERAS_BACKEND": backend}, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    return run.stdout.split()


@pytest.mark.parametrize("backend", ["torch", "jax"])
def test_a_keras_layer_made_in_a_compiled_step_computes_whatever_ran_before(backend):
    """The keras adapter's first use of a layer (Dense; Softmax, which has no weights) may come
    inside the compiler's trace (the compiled mode before the eager one), and the compiled calls
    then compute x W^T + b (in float32: Keras computes float64 matmuls in float32 on torch, a
    documented difference) and softmax, and the layer computes eagerly afterwards. On torch the
    layer is made outside dynamo's trace, as Keras' users build a model before compiling its step:
    made inside, dynamo failed in Keras' Layer.__init__ ("'Dense' object has no attribute
    '_buffers'"), so a compiled case errored or passed by what the process had run before. On jax
    Keras builds it inside jax.jit itself: the adapter had refused that, claiming jax.jit leaks
    its variables as tracers, which it does not."""
    pytest.importorskip("keras")
    pytest.importorskip(backend)
    linear, softmax, eager = map(float, keras_script(KERAS_COMPILED_FIRST.format(backend=backend), backend)[-3:])
    assert linear == 0 and eager == 0  # small integers: every product and sum exact in float32
    assert softmax == 0  # four equal scores: 1/4 each, exactly


def test_the_keras_refusals_in_tf_function_are_tensorflow_s_own():
    """keras-tensorflow refuses a layer and keras.utils.pad_sequences in the compiled mode
    (refuse_in_trace); the reasons are claims, checked here by calling TensorFlow as its users
    would: a layer built inside tf.function makes tf.Variables there, which tf.function refuses,
    and pad_sequences cannot take a traced tensor."""
    keras = pytest.importorskip("keras")
    tf = pytest.importorskip("tensorflow")
    if keras.backend.backend() != "tensorflow":
        pytest.skip("Keras runs on another backend in this process (KERAS_BACKEND)")

    @tf.function
    def dense(x):
        layer = keras.layers.Dense(2)
        layer.build(x.shape)
        return layer(x)

    @tf.function
    def padded(a, b):
        return tf.constant(keras.utils.pad_sequences([a, b], padding="pre"))

    with pytest.raises(ValueError, match="only supports singleton tf.Variables created on the first call"):
        dense(tf.ones((1, 3)))
    with pytest.raises(ValueError, match="must be a list of iterables"):
        padded(tf.constant([1, 2]), tf.constant([3]))


def test_strategy_reduce_is_refused_in_a_replica_s_tape():
    """The TensorFlow adapter refuses cross_replica_reduce's gradient ("Strategy.reduce is a
    cross-replica call: no replica's tape records it"); the claim, checked by calling TensorFlow as
    a user would: inside strategy.run, where each replica's tape records, Strategy.reduce raises.
    In a process of its own: the logical CPUs must be set before TensorFlow starts."""
    pytest.importorskip("tensorflow")
    code = (
        "import tensorflow as tf\n"
        "cpu = tf.config.list_physical_devices('CPU')[0]\n"
        "tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)\n"
        "strategy = tf.distribute.MirroredStrategy(['/cpu:0', '/cpu:1'])\n"
        "def step(x):\n"
        "    with tf.GradientTape() as tape:\n"
        "        tape.watch(x)\n"
        "        total = strategy.reduce(tf.distribute.ReduceOp.SUM, x * 2.0, axis=None)\n"
        "    return tape.gradient(total, x)\n"
        "try:\n"
        "    strategy.run(step, args=(tf.constant([1.0, 2.0]),))\n"
        "except RuntimeError as exc:\n"
        "    print('refused:', exc)\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "TF_CPP_MIN_LOG_LEVEL": "2"})
    assert run.returncode == 0, run.stderr[-2000:]
    assert "refused: Method requires being in cross-replica context" in run.stdout


def test_a_rank_that_torch_sends_nothing_keeps_its_receive_buffer():
    """torch has no ppermute: the adapter composes jax's from batch_isend_irecv into a buffer of
    zeros (adapters/torch/collectives.py). The zeros are that composition's, not torch's: checked by
    calling torch as a port would, with a buffer of 7s: rank 1 receives rank 0's values, and rank 0,
    which nobody sends to, keeps its 7s (a port's torch.empty_like would keep whatever memory held,
    which no spec can pin). In a process of its own: two gloo ranks, forked."""
    pytest.importorskip("torch")
    code = (
        "import os, torch, torch.distributed as dist, torch.multiprocessing as mp\n"
        "def rank(r, port):\n"
        "    dist.init_process_group('gloo', init_method=f'tcp://127.0.0.1:{port}', rank=r, world_size=2)\n"
        "    x, out = torch.tensor([1.0, 2.0]) + 10 * r, torch.full((2,), 7.0)\n"
        "    ops = [dist.P2POp(dist.isend, x, 1)] if r == 0 else [dist.P2POp(dist.irecv, out, 0)]\n"
        "    for work in dist.batch_isend_irecv(ops):\n"
        "        work.wait()\n"
        "    print(f'rank {r}: {out.tolist()}', flush=True)\n"
        "    dist.destroy_process_group()\n"
        "import socket\n"
        "s = socket.socket(); s.bind(('127.0.0.1', 0)); port = s.getsockname()[1]; s.close()\n"
        "mp.start_processes(rank, args=(port,), nprocs=2, start_method='fork')\n")
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "rank 0: [7.0, 7.0]" in run.stdout and "rank 1: [1.0, 2.0]" in run.stdout


def test_an_error_in_a_dtype_the_adapter_does_not_declare_is_unsupported(tmp_path):
    """A framework without an op's kernel for a dtype raises its own error; where the adapter's
    `dtypes` leaves that dtype out, the case is unsupported in the framework's words, and where it
    declares it, an error. The declared dtypes of the same op still pass."""
    cmd = [sys.executable, "-m", "pytest", str(EXP_INTEGERS), "--adapter-path", str(KERNEL_LESS), "--adapter",
           "kernel-less,kernel-less-declared", "--mode", "eager", "--results-dir", str(tmp_path), "-q",
           "-p", "no:cacheprovider"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=pathlib.Path(__file__).parent.parent)
    assert run.returncode == 1, run.stdout + run.stderr
    status = {(r["adapter"], r["dtype"]): r for r in records(tmp_path)}
    undeclared = status["kernel-less", "int32"]
    assert undeclared["status"] == "unsupported"
    assert undeclared["message"].startswith("kernel-less does not declare exp in int32 (its `dtypes`); "
                                            "the framework raised RuntimeError: exp: no kernel registered")
    assert status["kernel-less-declared", "int32"]["status"] == "error"
    assert status["kernel-less", "float64"]["status"] == status["kernel-less-declared", "float64"]["status"] == "pass"


def test_a_compilers_own_error_where_eager_lacks_the_kernel_is_unsupported(tmp_path):
    """torch.compile of torch.linalg.vecdot on int32 meets the missing kernel while tracing and
    raises dynamo's TorchRuntimeError, which the adapter's call never saw: compiled, the case is
    unsupported where eager says the framework lacks the kernel (it was an error, and hypothesis,
    seeing it turn unsupported past dynamo's recompile limit, left the item without a record). Where
    the adapter declares the dtype, the compiled error stays an error."""
    cmd = [sys.executable, "-m", "pytest", str(EXP_INTEGERS), "--adapter-path", str(KERNEL_LESS), "--adapter",
           "tracing-kernel-less,tracing-kernel-less-declared", "--mode", "compiled", "--dtype", "int32",
           "--results-dir", str(tmp_path), "-q", "-p", "no:cacheprovider"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=pathlib.Path(__file__).parent.parent)
    assert run.returncode == 1, run.stdout + run.stderr
    status = {r["adapter"]: r for r in records(tmp_path)}
    undeclared = status["tracing-kernel-less"]
    assert undeclared["status"] == "unsupported", undeclared["message"]
    assert undeclared["message"].startswith("tracing-kernel-less does not declare exp in int32")
    assert "(eagerly; compiled: TracingError: RuntimeError when making fake tensor call" in undeclared["message"]
    assert status["tracing-kernel-less-declared"]["status"] == "error"


def test_a_compilers_own_error_where_eager_lacks_the_kernel_is_unsupported_before_any_entry(tmp_path):
    """An entry documenting the case's values does not read the compiler's error either: the
    kernel is lacking, and the case unsupported as eagerly (jax's float16 slogdet past 2 x 2 raised
    while XLA lowered it, and an entry of the generated 2 x 2 cases' values made that a fail,
    "behaves neither as expected nor as documented")."""
    cmd = [sys.executable, "-m", "pytest", str(EXP_INTEGERS.with_name("exp-integers-documented.yaml")),
           "--adapter-path", str(KERNEL_LESS), "--adapter", "tracing-kernel-less", "--mode", "eager,compiled",
           "--results-dir", str(tmp_path), "-q", "-p", "no:cacheprovider"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=pathlib.Path(__file__).parent.parent)
    assert run.returncode == 0, run.stdout + run.stderr
    by_mode = {r["mode"]: r for r in records(tmp_path)}
    assert by_mode["eager"]["status"] == by_mode["compiled"]["status"] == "unsupported", by_mode
    assert "(eagerly; compiled: TracingError" in by_mode["compiled"]["message"]


def test_a_compiled_reverse_pass_where_eager_lacks_the_kernel_is_unsupported_before_any_entry(tmp_path):
    """The same for a gradient: a compiled reverse pass that meets the missing kernel while
    tracing is unsupported as eagerly, whatever a gradient entry of the case documents (the
    gradient's entries were read first, and made the compiler's error a fail)."""
    cmd = [sys.executable, "-m", "pytest", str(EXP_INTEGERS.with_name("exp-half-gradient-documented.yaml")),
           "--adapter-path", str(KERNEL_LESS), "--adapter", "tracing-half-less", "--mode", "eager,compiled",
           "--results-dir", str(tmp_path), "-q", "-p", "no:cacheprovider"]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=pathlib.Path(__file__).parent.parent)
    assert run.returncode == 0, run.stdout + run.stderr
    gradients = {r["mode"]: r for r in records(tmp_path) if r["kind"] == "gradient"}
    assert gradients["eager"]["status"] == gradients["compiled"]["status"] == "unsupported", gradients
    assert "(eagerly; compiled: TracingError" in gradients["compiled"]["message"]


EXP_RAISES = """\
- id: exp-raises
  expr: "exp(x)"
  args: [x]
  dtypes: [int32, float32]
  examples:
    - name: documented-error
      inputs: {x: {values: [0, 1]}}
      expect: {raises: true}
"""


def test_an_expected_error_in_a_dtype_the_adapter_does_not_declare_is_unsupported(tmp_path):
    """A case documented to raise, in a dtype the adapter does not declare: the framework lacks
    the kernel, and its "no kernel" error is not the error documented (paddle.nonzero of a 0-d
    float16 x passed as "raised as expected" on its missing float16 kernel). In a declared dtype
    the same expectation still judges the result (it returned: a fail)."""
    from suites.judging import judge
    from suites.programs.context import Context
    from tests.adapters.kernel_less import KernelLess
    from tests.spec_text import first_spec

    spec = first_spec(tmp_path, EXP_RAISES)
    lacking = judge.check_case(Context(spec, KernelLess(), "cpu", "int32"), "documented-error",
                               {"x": np.array([0, 1], np.int32)}, {"raises": True})
    assert lacking.status == "unsupported", lacking.message
    assert lacking.message.startswith("kernel-less does not declare exp in int32")
    computed = judge.check_case(Context(spec, KernelLess(), "cpu", "float32"), "documented-error",
                                {"x": np.array([0, 1], np.float32)}, {"raises": True})
    assert computed.status == "fail", computed.message


def test_an_op_the_adapter_does_not_implement_is_unsupported_whatever_it_declares(tmp_path):
    """An adapter that declares every dtype for every op and cannot convert to bfloat16: a spec of
    an op it lacks is unsupported in bfloat16 too (it was an error: the conversion failed first)."""
    run = run_suite(tmp_path, "--dtype", "bfloat16", "-k", "masking/masked-fill-neg-inf", path=KERNEL_LESS,
                    adapter="matmul-only")
    assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    found = records(tmp_path)
    assert found and {(r["status"], r["message"]) for r in found} == {
        ("unsupported", "matmul-only does not implement masked_fill")}, found


def test_a_conversion_to_a_dtype_the_adapter_does_not_declare_is_unsupported_and_one_it_declares_an_error(tmp_path):
    """NumPy has no bfloat16: converting to it raises. Where the adapter declares no op of the
    spec in bfloat16 the case is unsupported, with the framework's words; where it declares it, an
    error (the declaration decides, as for an op's own error)."""
    run = run_suite(tmp_path, "--dtype", "bfloat16", "-k", "matmul/vector-x-vector and not property", path=KERNEL_LESS,
                    adapter="matmul-only,matmul-only-narrow")
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
    status = {(r["adapter"], r["kind"]): r for r in records(tmp_path)}
    assert status["matmul-only", "example"]["status"] == "error"
    narrow = status["matmul-only-narrow", "example"]
    assert narrow["status"] == "unsupported" and narrow["message"].startswith(
        "matmul-only-narrow does not declare matmul in bfloat16 (its `dtypes`); converting to it raised TypeError")


def test_a_compilers_wrapped_error_reads_as_the_error_and_keeps_the_undeclared_mark():
    """paddle.jit.to_static re-raises an op's error inside its own ("In transformed code:", the
    trace, the error, hints): the record reads as the error, and an error the op raised in an
    undeclared dtype stays unsupported through the re-raise."""
    from suites.judging.outcome import UNDECLARED, message_of, raised_outcome

    inner = TypeError("(InvalidType) Check data type error for op: einsum, x.dtype: bfloat16")
    setattr(inner, UNDECLARED, "paddle does not declare einsum in bfloat16")
    text = ('In transformed code:\n\n    File "program.py", line 3, in program\n\treturn einsum(x)\n\n'
            "    TypeError: (InvalidType) Check data type error for op: einsum, x.dtype: bfloat16\n"
            "  [Hint: ...] (at utils.cc:324)\n")
    try:
        try:
            raise inner
        except TypeError:
            raise TypeError(text)  # noqa: B904 - as the compiler does: the op's error is its context
    except TypeError as wrapped:
        assert message_of(wrapped) == "(InvalidType) Check data type error for op: einsum, x.dtype: bfloat16"
        outcome = raised_outcome("docs", wrapped, {})
    assert outcome.status == "unsupported" and outcome.message == "paddle does not declare einsum in bfloat16"


KERAS_UNPADDED_CONV = """
import functools
import numpy as np
import torch
import torch._dynamo.utils
import adapters
torch.compile = functools.partial(torch.compile, backend="eager")  # dynamo's guards alone: no inductor
ad = adapters.get("keras-torch")
x, w = (ad.asarray(np.ones(shape), "float32", "cpu") for shape in ((2, 3, 8), (4, 3, 3)))
compiled = ad.compile(lambda x, w: ad.conv1d(x, w, stride=2))
for _ in range(10):
    out = compiled(x, w)
print(torch._dynamo.utils.counters["stats"]["unique_graphs"], np.abs(ad.to_numpy(out) - 9).max())
"""


def test_a_keras_conv_without_padding_compiles_once_for_one_shape():
    """PyTorch's padding=0 is Keras' padding="valid", as Keras' users write it: the keras adapter
    calls no keras.ops.pad then. keras.ops.pad makes a Keras Operation on every call, whose name
    bumps a global counter that dynamo guards on, so a function that calls it recompiled on every
    call of one shape until dynamo's recompile limit (8 graphs for 10 calls), then ran eagerly
    (adapters/torch/repro/keras_pad_recompiles.py): the compiled mode compiled no conv it could
    reuse. Ten calls of one shape compile one graph; each output is 3 channels x 3 taps of 1."""
    pytest.importorskip("keras")
    pytest.importorskip("torch")
    graphs, error = keras_script(KERAS_UNPADDED_CONV, "torch")[-2:]
    assert (int(graphs), float(error)) == (1, 0.0)


def test_a_palette_whose_first_shapes_are_refused_keeps_the_item():
    """At run seed 250 (the ci profile) the first shapes matmul/broadcast-shapes/property draws
    have a vector left operand: three refused in a row made the item unsupported as a whole
    before (CI at commit 250). Each refused shape is run once; every shape refused makes the
    item unsupported."""
    import zlib

    import hypothesis

    from suites.judging import judge
    from suites.judging.outcome import Outcome
    from suites.loading.specs import load_file
    from suites.programs import strategies

    spec = next(s for s in load_file(pathlib.Path("specs/matmul.yaml")) if s.id == "broadcast-shapes")
    seed, runs = zlib.crc32(f"250:{spec.name}:property:float32".encode()), []  # the item's (SpecItem.runtest)

    def refusing(vectors_only):
        def check(inputs, _):
            runs.append((inputs["a"].shape, inputs["b"].shape))
            refused = inputs["a"].ndim == 1 or not vectors_only
            return Outcome("unsupported" if refused else "pass", "hypothesis", "refused" if refused else "")
        return check

    profile = hypothesis.settings.get_current_profile_name()
    hypothesis.settings.load_profile("ci")  # as CI ran it
    try:
        cases = strategies.spec_inputs(spec, "float32", seed=250)
        shapes = strategies.shapes_drawn(spec, 250)
        passed = judge.hypothesis_cases(seed, cases, refusing(True), shapes)
        assert [len(a) for a, _ in runs[:3]] == [1, 1, 1] and passed.status == "pass", runs
        runs.clear()
        outcome = judge.hypothesis_cases(seed, cases, refusing(False), shapes)
        assert outcome.status == "unsupported" and len(runs) == len(set(runs)) == shapes
    finally:
        hypothesis.settings.load_profile(profile)


def test_cases_that_cannot_be_drawn_are_an_error_of_their_own():
    """A spec whose input rules hypothesis cannot satisfy (a unique rule over more elements than
    its buffer holds: sorting's options grid with 8,193 distinct values did) draws no case: the
    item says so as an error, where it crashed with an IndexError looking for a refusal."""
    import hypothesis.strategies as st

    from suites.judging import judge

    ran = []
    outcome = judge.hypothesis_cases(1, st.integers().filter(lambda _: False), lambda *case: ran.append(case), 3)
    assert not ran and outcome.status == "error" and "no generated case was drawn" in outcome.message


def test_an_error_that_turns_unsupported_when_replayed_is_an_error_with_a_record():
    """torch.compile of an op without an int32 kernel raised dynamo's error for each shape until
    its recompile limit, then the op's own (unsupported, the shape refused): hypothesis, replaying
    the shrunk failure, found it rejected and raised FlakyFailure holding no failure of Parity's,
    and the item died with a StopIteration and no record. It is an error that says so now."""
    import hypothesis.strategies as st
    import numpy as np

    from suites.judging import judge
    from suites.judging.outcome import Outcome

    calls = []

    def check(inputs, _):
        calls.append(inputs["x"].shape)
        refused = len(calls) > 20  # the limit past which the compiler gives up and runs the op eagerly
        return Outcome("unsupported" if refused else "error", "hypothesis", "refused" if refused else "compiler")

    outcome = judge.hypothesis_cases(1, st.integers(1, 300).map(lambda n: {"x": np.zeros(n)}), check)
    assert outcome.status == "error", outcome
    assert outcome.message.startswith("the generated cases are not repeatable: FlakyFailure: Unreliable assumption")


def test_a_0_d_bfloat16_keras_tensorflow_result_is_read_not_refused():
    """keras.ops.convert_to_numpy of a 0-d bfloat16 TensorFlow tensor raises (ValueError: object
    __array__ method not producing an array), which the keras adapter's sync once let through: the
    coverage check measured keras-tensorflow's dot and l2_penalty in bfloat16 as unsupported, and
    their items were skipped. Its sync reads the value as to_numpy does (bfloat16 cast first)."""
    keras = pytest.importorskip("keras")
    pytest.importorskip("tensorflow")
    if keras.backend.backend() != "tensorflow":
        pytest.skip("Keras runs on another backend in this process (KERAS_BACKEND)")
    ad = adapters.get("keras-tensorflow")
    x = ad.asarray(np.array([1.0, 2.0, 3.0]), "bfloat16", "cpu")
    out = ad.dot(x, x)
    ad.sync(out)
    assert ad.dtype_of(out) == "bfloat16" and ad.to_numpy(out) == 14.0
