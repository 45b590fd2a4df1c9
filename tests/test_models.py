"""Model specs (suites/programs/model.py): layers in YAML with PyTorch names, bounds carried from layer to
layer, the loss's gradient per parameter, SGD steps; a wrong layer is caught and named."""
import json
import pathlib
import subprocess
import sys
import types

import numpy as np
import pytest

from adapters.engine import EngineAdapter
from reports.build import build
from suites.judging import judge
from suites.loading.specs import SpecError, load_file
from suites.programs import inputs, training
from suites.programs.context import Context
from suites.running.items import SpecItem
from tests.spec_text import first_spec
from tests.test_compare import quantised

ROOT = pathlib.Path(__file__).resolve().parent.parent
BROKEN = ROOT / "tests" / "adapters" / "broken_layers.py"

TWO_LAYERS = """
    - id: two-layers
      args: [x]
      dtypes: [float64]
      model:
        params:
          lin.weight: [2, 3]
          lin.bias: [2]
        layers:
          lin: linear(x, lin.weight, lin.bias)
          act: tanh(lin)
          loss: sum(act * act)
        training: {steps: 3, lr: 0.1}
      examples:
        - name: small
          inputs: {x: {shape: [4, 3]}}
      gradient: {wrt: [weights]}
"""


@pytest.mark.parametrize("adapter, spec, layer", [
    ("reordered-gru-gates", "gru-classifier", "rnn.output"),
    ("unbiased-layer-norm", "transformer-encoder", "layers.0.norm_1"),
    ("attention-over-d", "transformer-encoder", "layers.0.attention.heads.0"),
])
def test_a_wrong_layer_is_caught_and_named_as_the_first_out_of_its_bound(tmp_path, adapter, spec, layer):
    run = subprocess.run([sys.executable, "-m", "pytest", str(ROOT / "specs" / "models.yaml"), "--adapter-path",
                          str(BROKEN), "--adapter", adapter, "--dtype", "float32", "--mode", "eager", "-k", f"{spec}[",
                          "-p", "no:xdist",
                          "--results-dir", str(tmp_path)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"first layer out of its bound: {layer};" in run.stdout
    record = json.loads((tmp_path / "results.jsonl").read_text().splitlines()[0])
    assert record["status"] == "fail"
    out_of_bound = [p["name"] for p in record["parts"] if not p["ok"]]
    assert out_of_bound[0] == layer
    names = [p["name"] for p in record["parts"]]
    assert all(p["ok"] for p in record["parts"][:names.index(layer)])  # every layer before it within its bound
    page = build([tmp_path], tmp_path / "out").read_text()  # the report names it too
    assert f"<td>{layer}</td>" in page


def test_the_bound_is_carried_from_layer_to_layer(tmp_path):
    """A layer is judged on the adapter's own activations before it: an error in `lin` fails
    `lin` alone, and tanh of the wrong `lin` is what `act` must be."""
    spec = first_spec(tmp_path, TWO_LAYERS)
    ctx = Context(spec, EngineAdapter(), "cpu", "float64")
    case = inputs.example(spec, spec.examples[0], "float64")
    actual, dtype, shapes = ctx.run(case)
    assert judge.check_case(ctx, "small", case).status == "pass"
    wrong = actual.copy()
    wrong[0] += 1e-3  # lin[0, 0] off; act and loss computed from it, as a framework's would be
    wrong[8] = np.tanh(wrong[0])
    wrong[-1] = np.sum(np.tanh(wrong[:8]) ** 2)
    reference, _, drift = spec.program.judged_against(ctx, case, wrong, shapes)
    assert reference[1][0, 0] == np.tanh(wrong[0])  # act's reference is tanh of the adapter's lin
    assert drift[0] == pytest.approx(1e-3) and drift[1] > 0  # and the drift from the float64 model shows


def test_the_specs_tolerance_is_the_allowance_of_the_layers_without_a_bound_alone(tmp_path):
    """A spec's tolerance allows what its norm or loss layers have no bound for; a linear layer is
    held to its own sum-product bound, so a tolerance of 0.1 does not hide a linear layer off by
    1e-3 (it did while the tolerance was added to every layer), and still covers the tanh; relu is
    exact, so a leaky one (0.01 x below 0, within the tolerance here) fails."""
    spec_text = TWO_LAYERS.replace("      examples:", "      tolerance: {float64: {atol: 0.1}}\n      examples:")
    spec = first_spec(tmp_path, spec_text)

    class OffLinear(EngineAdapter):
        name = "off-linear"

        def linear(self, x, weight, bias=None):
            return super().linear(x, weight, bias) * (1 + 1e-3)

    class OffTanh(EngineAdapter):
        name = "off-tanh"

        def tanh(self, x):
            return super().tanh(x) + 1e-3

    class LeakyRelu(EngineAdapter):
        name = "leaky-relu"

        def relu(self, x):
            return self.maximum(x, x * 0.01)

    case = inputs.example(spec, spec.examples[0], "float64")
    off_linear = judge.check_case(Context(spec, OffLinear(), "cpu", "float64"), "small", case)
    assert off_linear.status == "fail" and "first layer out of its bound: lin;" in off_linear.message
    assert judge.check_case(Context(spec, OffTanh(), "cpu", "float64"), "small", case).status == "pass"
    relu = first_spec(tmp_path, spec_text.replace("tanh(lin)", "relu(lin)"), "relu.yaml")  # relu is exact
    leaky = judge.check_case(Context(relu, LeakyRelu(), "cpu", "float64"), "small", case)
    assert leaky.status == "fail" and "first layer out of its bound: act;" in leaky.message


def test_a_runtimes_int8_quantisation_is_documented_within_the_bound_of_its_moves_alone(tmp_path):
    """A runtime documented to quantise to int8 (observed quantised: int8, as LiteRT's
    dynamic-range kernels do) is held, in a layer that reads weights, to the bound of its weights
    and activations moved by half an int8 step: an int8 linear layer is documented, an int4 one
    fails naming the layer, and a layer that reads no weights keeps its own bound."""
    spec = first_spec(tmp_path, TWO_LAYERS.replace("      examples:", """      differences:
        - adapter: int8-linear
          observed: {quantised: int8}
          note: weights per output channel and activations per row quantised to int8
          source: https://github.com/google-ai-edge/LiteRT/tree/main/litert_quantizer
        - adapter: int4-linear
          observed: {quantised: int8}
          note: documented as int8, quantising to int4
          source: https://github.com/google-ai-edge/LiteRT/tree/main/litert_quantizer
        - adapter: int8-off-tanh
          observed: {quantised: int8}
          note: int8 linear layer, and a tanh off by 1e-3
          source: https://github.com/google-ai-edge/LiteRT/tree/main/litert_quantizer
      examples:"""))

    def quantising(name, bits):
        class Quantising(EngineAdapter):
            def linear(self, x, weight, bias=None):
                moved = [self.asarray(quantised(self.to_numpy(t), bits, axis=0), "float64", "cpu") for t in (x, weight)]
                return super().linear(*moved, bias)
        Quantising.name = name
        return Quantising

    class Int8OffTanh(quantising("int8-off-tanh", 8)):
        def tanh(self, x):
            return super().tanh(x) + 1e-3

    case = inputs.example(spec, spec.examples[0], "float64")
    int8 = judge.check_case(Context(spec, quantising("int8-linear", 8)(), "cpu", "float64"), "small", case)
    assert int8.status == "documented" and "as quantised to int8" in int8.message
    int4 = judge.check_case(Context(spec, quantising("int4-linear", 4)(), "cpu", "float64"), "small", case)
    assert int4.status == "fail" and "first layer out of its bound: lin;" in int4.message
    off_tanh = judge.check_case(Context(spec, Int8OffTanh(), "cpu", "float64"), "small", case)
    assert off_tanh.status == "fail" and "as quantised to int8" in off_tanh.message
    assert [p["name"] for p in off_tanh.comparison.parts if not p["ok"]][0] == "act"


def test_the_loss_gradient_is_judged_per_parameter(tmp_path):
    spec = first_spec(tmp_path, TWO_LAYERS)

    class HalfBiasGradient(EngineAdapter):
        name = "half-bias-gradient"

        def grad(self, fn, args, wrt, cotangent):
            value, grads = super().grad(fn, args, wrt, cotangent)
            return value, {**grads, "lin.bias": grads["lin.bias"] * 0.5 if "lin.bias" in grads else None}

    case = inputs.example(spec, spec.examples[0], "float64")
    good = judge_gradient(spec, EngineAdapter(), case)
    bad = judge_gradient(spec, HalfBiasGradient(), case)
    assert good.status == "pass", good.message
    assert bad.status == "fail" and "d/dlin.bias" in bad.message


def judge_gradient(spec, adapter, case):
    from suites.judging import gradcheck
    return gradcheck.check_gradient(Context(spec, adapter, "cpu", "float64"), "small", case,
                                    np.random.default_rng(0))


def test_dims_name_sizes_a_benchmark_can_change(tmp_path):
    text = TWO_LAYERS.replace("        params:", "        dims: {width: 2}\n        params:")
    spec = first_spec(tmp_path, text.replace("[2, 3]", "[width, 3]").replace("lin.bias: [2]", "lin.bias: [width]"))
    assert spec.program.derived({})["lin.weight"][0] == (2, 3)
    wider = spec.program.resized({"width": 5})
    assert wider.derived({})["lin.weight"][0] == (5, 3) and wider.derived({})["lin.bias"][0] == (5,)


def test_training_judges_every_step_and_records_the_trajectory(tmp_path):
    spec = first_spec(tmp_path, TWO_LAYERS)
    ctx = Context(spec, EngineAdapter(), "cpu", "float64")
    case = inputs.example(spec, spec.examples[0], "float64")
    outcome = training.train(ctx, "small", case, seed=0)
    assert outcome.status == "pass", outcome.message
    steps = outcome.trajectory
    assert [s["step"] for s in steps] == [0, 1, 2]
    assert steps[0]["reference"] == pytest.approx(float(ctx.oracle(case)), rel=1e-15)
    for s in steps:  # the float64 engine follows the reference's loss at its own parameters
        assert s["loss"] == pytest.approx(s["reference"], rel=1e-12)
    assert steps[-1]["loss"] < steps[0]["loss"]  # sum(tanh^2) falls along its gradient at lr 0.1


def test_a_named_optimizer_takes_the_steps_as_the_framework_runs_it(tmp_path):
    """Each of `optimizers: [{name: adam}]` is a trajectory of its own beside Parity's SGD: the
    parameters move as the adapter's Adam moves them, from the framework's own gradients; a wrong
    Adam (epsilon inside the square root) gives another, though both gradients are right. The
    case names the optimizer as the spec gives it."""
    spec = first_spec(tmp_path, TWO_LAYERS.replace(
        "training: {steps: 3, lr: 0.1}", "training: {steps: 3, lr: 0.1, optimizers: [{name: adam, eps: 0.5}]}"))
    case, (adam_entry,) = inputs.example(spec, spec.examples[0], "float64"), spec.program.training["optimizers"]
    sgd = training.train(Context(spec, EngineAdapter(), "cpu", "float64"), "small", case, 0)
    adam = training.train(Context(spec, EngineAdapter(), "cpu", "float64"), "small", case, 0, adam_entry)
    from tests.adapters.broken_areas import EpsilonInsideTheRoot

    wrong = training.train(Context(spec, EpsilonInsideTheRoot(), "cpu", "float64"), "small", case, 0, adam_entry)
    assert adam.status == wrong.status == "pass" and "adam (lr 0.1, eps 0.5) steps" in adam.message
    assert (sgd.case, adam.case) == ("small", "small/adam(eps=0.5)")
    losses = [[s["loss"] for s in o.trajectory] for o in (sgd, adam, wrong)]
    assert losses[0][0] == losses[1][0] == losses[2][0]  # the same start
    assert len({o[-1] for o in losses}) == 3  # three updates, three trajectories
    for s in adam.trajectory:  # the reference's loss is taken at the adapter's own parameters
        assert s["loss"] == pytest.approx(s["reference"], rel=1e-12)


def test_an_item_trains_once_per_optimizer_and_a_label_given_twice_is_refused(tmp_path):
    spec = first_spec(tmp_path, TWO_LAYERS.replace(
        "training: {steps: 3, lr: 0.1}", "training: {steps: 2, lr: 0.1, optimizers: [{name: sgd, momentum: 0.9}, "
        "{name: adagrad}]}"))
    item = types.SimpleNamespace(spec=spec, dtype="float64", seed=0)
    outcomes = SpecItem._training(item, Context(spec, EngineAdapter(), "cpu", "float64"))
    assert [o.case for o in outcomes] == ["small", "small/sgd(momentum=0.9)", "small/adagrad"]
    assert all(o.status == "pass" and len(o.trajectory) == 2 for o in outcomes)
    path = tmp_path / "twice.yaml"
    path.write_text(TWO_LAYERS.replace("training: {steps: 3, lr: 0.1}", "training: {steps: 2, lr: 0.1, optimizers: "
                                       "[{name: adam}, {name: adam}]}").replace("\n    ", "\n"))
    with pytest.raises(SpecError, match=r"training.optimizers: \['adam'\] given twice"):
        load_file(path)


def test_step_zero_is_judged_once_per_example_and_every_trajectory_keeps_it(tmp_path, monkeypatch):
    """Every trajectory starts from the same parameters, so its first step's checks are the same:
    the item judges them once, and each trajectory is what it would be trained alone."""
    spec = first_spec(tmp_path, TWO_LAYERS.replace(
        "training: {steps: 3, lr: 0.1}", "training: {steps: 2, lr: 0.1, optimizers: [{name: adam}, {name: sgd}]}"))
    item = types.SimpleNamespace(spec=spec, dtype="float64", seed=0)
    calls, check_case = [], judge.check_case
    monkeypatch.setattr(judge, "check_case", lambda *args, **kwargs: calls.append(1) or check_case(*args, **kwargs))
    shared = SpecItem._training(item, Context(spec, EngineAdapter(), "cpu", "float64"))
    assert len(calls) == 1 + 3  # step 0 once; step 1 in each of the three trajectories
    monkeypatch.undo()
    case = inputs.example(spec, spec.examples[0], "float64")
    alone = [training.train(Context(spec, EngineAdapter(), "cpu", "float64"), "small", case, 0, o)
             for o in [None, *spec.program.optimizers]]
    assert [o.trajectory for o in shared] == [o.trajectory for o in alone]
    assert [o.message for o in shared] == [o.message for o in alone]


@pytest.mark.parametrize("change, message", [
    (("act: tanh(lin)", "act: tanh(lin.wieght)"), "layers.act: unknown name 'lin.wieght'"),
    (("act: tanh(lin)", "x: tanh(lin)"), "layers.x: the name is taken"),
    (("          lin.bias: [2]", "          lin.bias: [2]\n          9lin: [2]"), "model.params"),
    (("      dtypes: [float64]", "      dtypes: [float64]\n      params: {a: 1}"), "not available for models"),
    (("lin.bias: [2]", "lin.bias: [width]"), "model.params.lin.bias: 'width' is not one of the model's dims"),
    (("lr: 0.1}", "lr: 0.1, optimizers: [{name: sgd, max_norm: 1.0}]}"), "max_norm clips by the global norm"),
])
def test_a_bad_model_block_is_refused_in_one_line(tmp_path, change, message):
    path = tmp_path / "bad.yaml"
    path.write_text(TWO_LAYERS.replace(*change).replace("\n    ", "\n"))
    with pytest.raises(SpecError) as caught:
        load_file(path)
    assert message in str(caught.value) and "\n" not in str(caught.value) and str(caught.value).startswith(str(path))
