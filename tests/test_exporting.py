"""The exported mode (docs/exporting.md): a program exported once per input signature and run by
the runtime that serves it, its values judged against the reference and against the adapter's
eager result; a runtime whose results are off by a part in a thousand is caught where eager passes;
what the exporter refuses is unsupported in its words, and the program's own errors raise."""
import json
import pathlib
import subprocess
import sys
from types import SimpleNamespace

import numpy as np
import pytest

from adapters.exporting import fits, per_signature, positional

ROOT = pathlib.Path(__file__).resolve().parent.parent
PERTURBED = ROOT / "tests" / "adapters" / "perturbed_export.py"


class Tensor:
    """What per_signature reads of a tensor: its shape and dtype."""

    def __init__(self, shape, dtype="float32"):
        self.shape, self.dtype = shape, dtype


def test_a_program_is_exported_once_per_input_signature():
    exports = []

    def export(fn, env):
        exports.append(sorted(env))
        return lambda env: fn(env)

    run = per_signature(export, lambda env: env["scale"])
    assert run({"a": Tensor((2, 3)), "scale": 2.0}) == 2.0
    assert run({"a": Tensor((2, 3)), "scale": 2.0}) == 2.0  # the same signature: the same program
    assert len(exports) == 1
    run({"a": Tensor((4, 3)), "scale": 2.0})  # another shape
    run({"a": Tensor((2, 3), "float64"), "scale": 2.0})  # another dtype
    run({"a": Tensor((2, 3)), "scale": 3.0})  # another constant baked into the program
    assert len(exports) == 4


def test_baked_weights_are_constants_of_the_program_and_their_values_join_its_signature():
    exports = []

    def export(fn, env):
        names, call = positional(fn, env, lambda v: isinstance(v, Tensor), baked=("w",), constant=lambda v: -v)
        exports.append(names)
        return lambda env: call(*(env[k] for k in names))

    run = per_signature(export, lambda env: (env["x"], env["w"]), baked=("w",))
    x = Tensor((2,))
    assert run({"x": x, "w": np.ones(2)})[0] is x and (run({"x": x, "w": np.ones(2)})[1] == -1).all()
    assert exports == [["x"]]  # w is no input of the program, and the same values export once
    assert (run({"x": x, "w": np.full(2, 3.0)})[1] == -3).all() and len(exports) == 2


def test_a_familys_second_shape_exports_once_with_dynamic_shapes_and_serves_the_rest():
    """The first shape of a rank and dtype exports statically, the second with its sizes symbolic,
    and that program serves every later shape it accepts; a shape it does not accept (a size the
    exporter specialised) exports statically, as does every shape of a family whose dynamic
    export failed."""
    exports = []

    def export(fn, env, dynamic=False):
        exports.append((env["a"].shape, dynamic))
        run = lambda env: ("dynamic" if dynamic else "static", env["a"].shape)  # noqa: E731
        return (run, lambda env: env["a"].shape[0] > 1) if dynamic else run

    run = per_signature(export, None, dynamic=True)
    assert run({"a": Tensor((2, 3))}) == ("static", (2, 3))
    assert run({"a": Tensor((4, 5))}) == ("dynamic", (4, 5))
    assert run({"a": Tensor((6, 7))}) == ("dynamic", (6, 7))  # served, not exported
    assert run({"a": Tensor((1, 7))}) == ("static", (1, 7))  # not accepted: a static export
    assert run({"a": Tensor((2, 3), "float64")}) == ("static", (2, 3))  # another family
    assert exports == [((2, 3), False), ((4, 5), True), ((1, 7), False), ((2, 3), False)]

    def failing(fn, env, dynamic=False):
        if dynamic:
            raise RuntimeError("the exporter cannot keep this size symbolic")
        return export(fn, env)

    exports.clear()
    run = per_signature(failing, None, dynamic=True)
    assert [run({"a": Tensor((n, 3))})[0] for n in (2, 3, 4)] == ["static"] * 3
    assert exports == [((2, 3), False), ((3, 3), False), ((4, 3), False)]  # one dynamic try


def test_a_dynamic_exports_inputs_fit_where_symbols_agree_within_their_bounds():
    pattern = [(2, "a", "b"), ("b", lambda sizes: sizes["a"] + 1)]
    bounds = {"a": (2, 10), "b": (2, float("inf"))}
    assert fits([(2, 3, 5), (5, 4)], pattern, bounds)
    assert not fits([(3, 3, 5), (5, 4)], pattern, bounds)  # a static size differs
    assert not fits([(2, 3, 5), (6, 4)], pattern, bounds)  # b is 5 and 6
    assert not fits([(2, 3, 5), (5, 5)], pattern, bounds)  # the derived size is a + 1
    assert not fits([(2, 11, 5), (5, 12)], pattern, bounds)  # a past its bound
    assert not fits([(2, 3, 5)], pattern, bounds) and not fits([(2, 3), (5, 4)], pattern, bounds)


def test_torchs_dynamic_export_serves_only_the_shapes_its_guards_admit():
    """reshape(-1, 2) under torch.export's Dim.AUTO: the program records guards (an even size;
    relations it met while tracing) and specialises size 1; a shape that fails them exports
    statically, and every result is eager's, through ONNX Runtime and through torch.export's own
    module alike."""
    pytest.importorskip("onnxruntime")
    torch = pytest.importorskip("torch")
    from adapters.torch import TorchAdapter
    from adapters.torch.exported_program import ExportedProgramAdapter
    program = lambda env: (env["x"].reshape(-1, 2) * env["s"]).sum(0)  # noqa: E731
    for adapter in (TorchAdapter(), ExportedProgramAdapter()):
        made, export = [], adapter.exported_program
        adapter.exported_program = lambda fn, env, dynamic=False: made.append(
            (tuple(env["x"].shape) if "x" in env else None, dynamic)) or export(fn, env, dynamic)
        run = adapter.export(program)
        for shape in [(3, 4), (5, 6), (9, 4), (7, 2), (1, 4)]:
            x = torch.randn(*shape, dtype=torch.float64)
            torch.testing.assert_close(run({"x": x, "s": 2.0}), program({"x": x, "s": 2.0}))
        with pytest.raises(RuntimeError, match="invalid for input of size 9"):  # the program's own error
            run({"x": torch.randn(3, 3, dtype=torch.float64), "s": 2.0})
        # (9, 4) is served by the dynamic program; (7, 2) fails a guard it recorded (7 rows of 2
        # make 7 pairs, as many as the rows: traced with 5 and 15 it assumed they differ)
        assert made[:4] == [((3, 4), False), ((5, 6), True), ((7, 2), False), ((1, 4), False)], made
        # a program that cannot trace with a symbolic size (it hashes one) exports each shape
        # statically, its inputs left unmarked by the dynamic try (torch.export marks those it is given)
        made.clear()
        hashing = lambda env: env["x"] * {env["x"].shape[-1]: 2.0}[env["x"].shape[-1]]  # noqa: E731
        run = adapter.export(hashing)
        for shape in [(3, 4), (5, 6), (7, 8)]:
            x = torch.randn(*shape, dtype=torch.float64)
            torch.testing.assert_close(run({"x": x}), 2 * x)
        assert made == [((3, 4), False), ((5, 6), True), ((5, 6), False), ((7, 8), False)], made
        # pad_sequence traced with the second sequence the longer: torch's decomposition (which the
        # ONNX model is made from) guards on it, and the ONNX model, which keeps no guards, would pad
        # to the second's length where the first is longer: that shape exports statically
        padded = lambda env: torch.nn.utils.rnn.pad_sequence([env["a"], env["b"]], batch_first=True).sum(1)  # noqa: E731
        run = adapter.export(padded)
        for a, b in [(1, 1), (2, 5), (3, 6), (5, 2)]:
            env = {"a": torch.ones(a, dtype=torch.int64), "b": torch.zeros(b, dtype=torch.int64)}
            torch.testing.assert_close(run(env), padded(env))


def test_jaxs_dynamic_export_keeps_sizes_that_agree_agreeing():
    """jax.export with one symbol per distinct size of 2 or more: a matmul traced at (5, 6) @ (6, 2)
    serves (6, 6) @ (6, 9), whose contraction agrees again, and a shape with a size 1 (static) or
    with a contraction of another size than the symbol's exports statically; every result is
    jax.jit's."""
    jax = pytest.importorskip("jax")
    from adapters.jax import JaxAdapter
    adapter, made = JaxAdapter(), []
    deserialized = adapter.deserialized
    adapter.deserialized = lambda fn, env, dynamic=False: made.append((env["x"].shape, dynamic)) \
        or deserialized(fn, env, dynamic)
    program = lambda env: env["x"] @ env["y"] * env["s"]  # noqa: E731
    run = adapter.export(program)
    rng = np.random.default_rng(0)
    for x, y in [((3, 4), (4, 5)), ((5, 6), (6, 2)), ((6, 6), (6, 9)), ((4, 1), (1, 3)), ((2, 7), (7, 7))]:
        env = {"x": jax.numpy.asarray(rng.standard_normal(x)), "y": jax.numpy.asarray(rng.standard_normal(y)), "s": 2.0}
        jitted = jax.jit(lambda x, y: program({"x": x, "y": y, "s": 2.0}))
        np.testing.assert_allclose(run(env), jitted(env["x"], env["y"]), rtol=1e-12)
    assert made == [((3, 4), False), ((5, 6), True), ((4, 1), False)], made  # (2, 7) @ (7, 7): d5 is 2, d6 7, d2 7


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """One run of the suite, in a subprocess, for the tests below (a run's start costs more than its
    items): torch and a perturbed torch, eager and exported, and tensorflow-litert exported, on a
    product that passes, one that raises in the program itself, and cases the runtimes refuse;
    torch-onnx-float16 on those and on the CNN, of which it runs the CNN alone, and
    tensorflow-litert-float16 and -int8 on the CNN; torch-export on a MultiheadAttention.
    Returns (the run, its records by adapter, spec id, dtype and mode)."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("ai_edge_litert")
    pytest.importorskip("litert_quantizer")
    pytest.importorskip("onnxconverter_common")
    folder = tmp_path_factory.mktemp("exported")
    cmd = [sys.executable, "-m", "pytest", "specs/matmul.yaml", "specs/indexing.yaml", "specs/models.yaml",
           "specs/attention.yaml", "--adapter-path", str(PERTURBED),
           "--adapter", "torch,perturbed-export,tensorflow-litert,torch-onnx-float16,torch-export,"
           "tensorflow-litert-float16,tensorflow-litert-int8",
           "--mode", "eager,exported",
           "--dtype", "float32,int32,bfloat16,float64", "-k", "(batched-x-broadcast-vector or mismatched-contraction "
           "or vector-x-vector or index-advanced-axes-together or cnn and (float16 or litert) "
           "or multihead-docs and torch-export) "
           "and not property and not gradient",
           "--results-dir", str(folder), "--hypothesis-profile=ci", "-p", "no:xdist", "-p", "no:cacheprovider",
           "-p", "no:randomly"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    records = [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]
    return run, {(r["adapter"], r["spec"].split("/")[1], r["dtype"], r["mode"]): r for r in records}


@pytest.mark.apart  # the `exported` run: 66 s
def test_a_perturbed_runtime_is_caught_where_eager_and_the_real_export_pass(exported):
    run, by = exported
    assert run.returncode == 1, run.stdout + run.stderr  # the perturbed runtime's items fail
    real = by["torch", "batched-x-broadcast-vector", "float32", "exported"]
    assert real["status"] == "pass" and real["eager"]["status"] == "pass", real["message"]
    assert by["perturbed-export", "batched-x-broadcast-vector", "float32", "eager"]["status"] == "pass"
    perturbed = by["perturbed-export", "batched-x-broadcast-vector", "float32", "exported"]
    assert perturbed["status"] == "fail" and perturbed["message"].startswith("exported only (eager pass)")
    failing = {r["adapter"] for r in by.values() if r["status"] in ("fail", "error")}
    assert failing == {"perturbed-export"}, failing


@pytest.mark.apart  # the `exported` run: 66 s
def test_the_programs_own_error_raises_as_it_does_eagerly(exported):
    """matmul of mismatched contractions raises in the program itself, exported as eager: the spec
    expects the raise, so the exported item passes rather than reading as the exporter's refusal."""
    mismatched = by_spec(exported[1], "mismatched-contraction", "torch", "exported")
    assert mismatched and {r["status"] for r in mismatched} == {"pass"}, [r["message"] for r in mismatched]


@pytest.mark.apart  # the `exported` run: 66 s
def test_what_the_runtime_refuses_is_unsupported_in_its_words(exported):
    """ONNX Runtime has no int32 GatherND, and its Python API no bfloat16; LiteRT's converter has
    no float64 ops: each item is unsupported with the runtime's, the API's or the converter's words."""
    by = exported[1]
    gather = by["torch", "index-advanced-axes-together", "int32", "exported"]
    assert gather["status"] == "unsupported", gather["message"]
    assert gather["message"].startswith("torch.onnx.export to ONNX Runtime: InvalidGraph: ")
    assert "GatherND" in gather["message"]
    assert by["torch", "vector-x-vector", "bfloat16", "exported"]["message"].startswith("ONNX Runtime's Python API")
    assert by["torch", "vector-x-vector", "float64", "exported"]["status"] == "pass"  # ONNX Runtime's float64 MatMul
    litert = by["tensorflow-litert", "vector-x-vector", "float64", "exported"]
    assert litert["status"] == "unsupported" and "is neither a custom op nor a flex op" in litert["message"]


@pytest.mark.apart  # the `exported` run: 66 s
def test_a_float16_export_of_a_model_is_judged_at_float16s_bound(exported):
    """torch-onnx-float16 feeds a float32 model's inputs in float16 and returns float16: the
    float32 check fails on the dtype, and its documented precision judges each layer as float16's.
    It runs the models alone (Adapter.areas): no item of the op specs."""
    by = exported[1]
    half = by["torch-onnx-float16", "cnn", "float32", "exported"]
    assert half["status"] == "documented", half["message"]
    assert "dtype float16, expected float32; as float16: " in half["message"]
    assert [p["name"] for p in half["parts"]] == ["conv", "bn", "relu", "pool", "fc", "loss"]
    assert all(p["ok"] for p in half["parts"])
    assert {s for (a, s, _, _) in by if a == "torch-onnx-float16"} == {"cnn"}


@pytest.mark.apart  # the `exported` run: 66 s
@pytest.mark.parametrize("adapter, judged", [("tensorflow-litert-float16", "; as float16: "),
                                             ("tensorflow-litert-int8", "; as quantised to int8: ")])
def test_litert_quantises_the_weights_it_bakes_in(exported, adapter, judged):
    """tensorflow-litert-float16 and -int8 bake the model's parameters in as constants, which the
    converter's float16 quantisation then stores in float16, and the LiteRT Quantizer's
    dynamic-range recipe in int8: the float32 CNN's layers are off float32's bound and within
    the quantisation's (documented), where LiteRT without quantisation passes at float32's;
    taken as inputs, as tensorflow-litert takes them, nothing would be quantised."""
    by = exported[1]
    quantised = by[adapter, "cnn", "float32", "exported"]
    assert quantised["status"] == "documented", quantised["message"]
    assert judged in quantised["message"] and quantised["dtype"] == "float32"
    assert all(p["ok"] for p in quantised["parts"])
    assert by["tensorflow-litert", "cnn", "float32", "exported"]["status"] == "pass"
    assert {s for (a, s, _, _) in by if a == adapter} == {"cnn"}


def by_spec(records: dict, spec_id: str, adapter: str, mode: str) -> list:
    return [r for (a, s, _, m), r in records.items() if (a, s, m) == (adapter, spec_id, mode)]


@pytest.mark.apart  # the `exported` run: 66 s
def test_torch_exports_own_program_of_a_multihead_attention_saves_and_passes(exported):
    """torch-export runs the program once before it exports it, so the weightless
    MultiheadAttention the torch adapter makes is made outside the exported program: made inside,
    its initialisation stays in the graph, and torch.export.save refuses it (SpecViolationError)."""
    record = exported[1]["torch-export", "multihead-docs", "float32", "exported"]
    assert record["status"] == "pass", record["message"]


class Variant:
    """What holds_for reads of an adapter class: a variant that runs the exported mode on its own runtime."""
    name, variant_of, own_modes = "base-litert", "base", ("exported",)


def test_a_variant_on_its_own_runtime_inherits_only_what_the_program_itself_does():
    from suites.judging.entries import holds_for
    kernel = {"adapter": "base", "regime": "special-value", "observed": {"value": [0]}}
    program = {"adapter": "base", "regime": "promotion", "observed": {"raises": True}}
    own = {"adapter": "base-litert", "regime": "special-value", "observed": {"value": [1]}}
    assert holds_for(kernel, Variant, "eager") and holds_for(program, Variant, "eager")
    assert not holds_for(kernel, Variant, "exported")  # the base's kernels are not the runtime's
    assert holds_for(program, Variant, "exported") and holds_for(own, Variant, "exported")
    assert not holds_for({**own, "adapter": "other"}, Variant, "eager")


class OnItsBasesKernels:
    """A variant whose exported mode runs its base's eager kernels (torch-export's graph, torch's)."""
    name, variant_of, base_modes = "base-export", "base", {"exported": "eager"}


def test_a_variant_on_its_bases_kernels_is_judged_by_the_bases_eager_entries_in_its_exported_mode():
    """torch-export's exported program calls torch's eager kernels: torch's entries of the eager
    mode hold in its exported mode; those of torch's own exported mode (ONNX Runtime's) and
    compiled mode (inductor's) do not; its own hold where they name its mode."""
    from suites.judging.entries import find

    def found(*entries, mode="exported"):
        spec = SimpleNamespace(differences=list(entries))
        ctx = SimpleNamespace(spec=spec, adapter=OnItsBasesKernels(), mode=mode, dtype="float32", device="cpu")
        return (find(ctx, "case") or {}).get("note")
    kernels = {"adapter": "base", "observed": {"value": [0]}, "note": "the base's kernels"}
    assert found(kernels) == found({**kernels, "mode": "eager"}) == "the base's kernels"
    assert found({**kernels, "mode": "exported"}) is None and found({**kernels, "mode": "compiled"}) is None
    own = {"adapter": "base-export", "mode": "exported", "observed": {"raises": True}, "note": "its own"}
    assert found(own) == "its own" and found({**own, "mode": "eager"}) is None


def test_optimizer_steps_and_samples_are_not_exported_and_layers_are():
    from suites.loading import specs
    loaded = {s.name: s for s in specs.load_path(ROOT / "specs")}
    assert "exported" in loaded["matmul/batched-x-broadcast-vector"].program.modes
    assert "exported" in loaded["models/cnn"].program.modes
    assert "exported" not in loaded["optimizers/sgd-momentum-dampening0-weight-decay0"].program.modes
    assert loaded["initializers/uniform-defaults"].program.modes == ("eager",)


KERAS_EXPORTED = """
import keras
import numpy as np
from adapters.keras import KerasAdapter

archives = type(keras.export.ExportArchive())  # the backend's own class
written, write_out = [], archives.write_out
archives.write_out = lambda archive, folder, **kw: written.append(folder) or write_out(archive, folder, **kw)
ad = KerasAdapter()
run = ad.export(lambda env: ad.matmul(env["a"], env["b"]) * env["scale"])
a, b = np.arange(6.0).reshape(2, 3), np.arange(12.0).reshape(3, 4)
env = {"a": ad.asarray(a, "float32", "cpu"), "b": ad.asarray(b, "float32", "cpu"), "scale": 2.0}
out = run(env)
run(env)
run({**env, "a": ad.asarray(a[:1], "float32", "cpu")})
print(type(out).__module__.split(".")[0], ad.dtype_of(out), np.abs(ad.to_numpy(out) - 2 * a @ b).max(), len(written))
print("exported" in KerasAdapter.modes())
"""


@pytest.mark.parametrize("backend", ["jax", "tensorflow", "torch"])
def test_keras_exports_through_a_saved_model_once_per_signature_on_tensorflow_and_jax(backend):
    """keras.export.ExportArchive's SavedModel, written out and reloaded once per input signature;
    its result comes back as the backend's tensor, exact on small integers. On torch
    Keras' SavedModel export needs torch_xla: keras-torch has no exported mode."""
    pytest.importorskip("keras")
    pytest.importorskip(backend)
    from tests.test_unsupported import keras_script
    modes = "from adapters.keras import KerasAdapter\nprint(KerasAdapter.modes())"
    code = KERAS_EXPORTED if backend != "torch" else modes
    words = keras_script(code, backend)
    if backend == "torch":
        assert "'exported'" not in " ".join(words) and "'compiled'," in words
        return
    module, dtype, error, archives, has_mode = words[-5:]
    assert module.startswith(backend)  # jaxlib's array, or TensorFlow's tensor
    assert (dtype, float(error), int(archives), has_mode) == ("float32", 0.0, 2, "True")
