"""A documented behaviour (adapters/behaviours.py) documents exactly what its model computes,
wherever a spec calls its op, and nothing else: a framework that differs otherwise still fails."""
import json

import numpy as np
import pytest

import adapters
from adapters.behaviours import (
    KERAS_PAD_SEQUENCES_DEFAULTS,
    TORCH_PAD_SEQUENCE_TIME_MAJOR,
    TORCH_SOFTMAX_IMPLICIT_DIM,
    bias_add,
)
from adapters.layer_behaviours import LITERT_L2_NORMALIZATION, l2_normalize
from tests.test_wrong_adapter import ROOT, run_suite

BIASED = ROOT / "tests" / "adapters" / "biased.py"
SELECTION = ("--spec", "specs/matmul.yaml", "-k", "broadcast-add/property", "--dtype", "float64",
             "--hypothesis-profile=thorough", "--hypothesis-seed=1")  # 500 cases: some meet the rule


def records(tmp_path) -> list:
    return [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]


def test_the_model_is_keras_source_on_its_documented_example():
    # keras/src/backend/tensorflow/numpy.py add: [2, 2] + a column [[0], [1]] squeezes to the
    # vector [0, 1], added along the last axis (the spec example column-plus-matrix observes it)
    assert bias_add(np.zeros((2, 2)), np.array([[0.0], [1.0]])).tolist() == [[0, 1], [0, 1]]
    assert bias_add(np.zeros((1, 2, 1)), np.ones(2)).shape == (1, 2, 1)  # along axis 1 (NCHW)
    assert bias_add(np.zeros((3, 1)), np.ones((1, 2))).shape == (3, 2)  # no match: broadcasting


def test_what_the_model_computes_is_documented(tmp_path):
    run = run_suite(tmp_path, *SELECTION, path=BIASED, adapter="bias-adding")
    assert run.returncode == 0, run.stdout + run.stderr
    documented = [r for r in records(tmp_path) if r["status"] == "documented"]
    assert documented, "500 cases draw operands that meet the bias_add rule"
    assert documented[0]["difference"]["source"].endswith("tensorflow/numpy.py#L108")
    assert "as the model of add computes" in documented[0]["message"]


def test_another_difference_where_the_behaviour_applies_still_fails(tmp_path):
    run = run_suite(tmp_path, *SELECTION, path=BIASED, adapter="bias-subtracting")
    assert run.returncode == 1, run.stdout + run.stderr
    assert {r["status"] for r in records(tmp_path)} == {"fail"}


def test_a_framework_default_fills_in_only_what_the_call_leaves_out():
    seqs = [np.array([1, 2, 3]), np.array([3, 4])]
    # pad_sequence's docs: batch_first=False (the default) gives T x B
    assert TORCH_PAD_SEQUENCE_TIME_MAJOR.model(seqs).tolist() == [[1, 3], [2, 4], [3, 0]]
    assert TORCH_PAD_SEQUENCE_TIME_MAJOR.model(seqs, batch_first=True).tolist() == [[1, 2, 3], [3, 4, 0]]
    # keras.utils.pad_sequences: padding="pre", dtype="int32" (1.5 -> 1, -2.5 -> -2)
    keras = KERAS_PAD_SEQUENCES_DEFAULTS.model([np.array([1.5, -2.5]), np.array([3.25])])
    assert keras.dtype == np.int32 and keras.tolist() == [[1, -2], [0, 3]]
    # torch's implicit softmax dim: 0 for a 3-d input (two entries along it: 1/2 each), 1 for 4-d
    assert np.all(TORCH_SOFTMAX_IMPLICIT_DIM.model(np.zeros((2, 1, 4))) == 0.5)
    assert np.all(TORCH_SOFTMAX_IMPLICIT_DIM.model(np.zeros((1, 4, 1, 2))) == 0.25)
    assert np.all(TORCH_SOFTMAX_IMPLICIT_DIM.model(np.zeros((2, 1, 4)), axis=-1) == 0.25)


def test_litert_normalises_the_last_axis_where_tensorflow_normalises_every_axis():
    """LiteRT's converter fuses tf.math.l2_normalize over every axis into L2_NORMALIZATION, whose
    kernel normalises the last axis by max(norm, 1e-6) (tensorflow/lite/kernels/internal/reference/
    l2normalization.h): the model, on the documented [[3, 4], [0, 5]] and on rows shorter than 1e-6
    (the hypothesis case that found it), and LiteRT itself where it is installed."""
    model = LITERT_L2_NORMALIZATION.model
    assert np.allclose(model(np.array([[3.0, 4.0], [0.0, 5.0]])), [[0.6, 0.8], [0, 1]])
    tiny = 2.0**-24
    x = np.array([[[1.0, tiny], [tiny, tiny]], [[tiny, tiny], [tiny, tiny]]], np.float32)
    expected = np.full(x.shape, tiny / 1e-6)  # each row [tiny, tiny] by its norm floored at 1e-6
    expected[0, 0] = [1.0, tiny]  # the row [1, tiny] by its own norm, 1
    assert np.allclose(model(x), expected, rtol=1e-6, atol=0)
    assert np.allclose(model(x, axis=1), l2_normalize(x, axis=1))  # another axis: TensorFlow's own ops
    litert = pytest.importorskip("ai_edge_litert") and adapters.get("tensorflow-litert")
    exported = litert.export(lambda env: litert.normalize(env["x"]))
    assert np.allclose(litert.to_numpy(exported({"x": litert.asarray(x, "float32", "cpu")})), model(x), rtol=1e-6)
