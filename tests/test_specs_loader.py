"""The spec loader: every problem is one line naming file, line and key; exit code 2."""
import pathlib
import subprocess
import sys
import textwrap

import pytest

from suites.specs import SpecError, load_file, load_path

ROOT = pathlib.Path(__file__).resolve().parent.parent

VALID = """\
- id: ok
  op: matmul
  args: [a, b]
  dtypes: [float32]
  examples:
    - name: docs
      inputs: {a: {shape: [2, 3]}, b: {shape: [3]}}
      expect: {shape: [2]}
"""


def write(tmp_path, text, name="spec.yaml"):
    path = tmp_path / name
    path.write_text(textwrap.dedent(text))
    return path


def error_of(tmp_path, text) -> str:
    with pytest.raises(SpecError) as info:
        load_file(write(tmp_path, text))
    message = str(info.value)
    assert "\n" not in message
    return message


def test_the_project_specs_load():
    specs = load_path(ROOT / "specs")
    assert {s.area for s in specs} >= {"matmul"}
    assert all(s.name.startswith(f"{s.area}/") for s in specs)


def test_a_valid_spec_loads(tmp_path):
    [spec] = load_file(write(tmp_path, VALID))
    assert spec.name == "spec/ok" and spec.args == ["a", "b"] and spec.line == 1


@pytest.mark.parametrize("text, expected", [
    ("- id: ok\n  op: [unclosed\n", ":3: invalid YAML: expected ',' or ']'"),
    ("- id: ok\n\tbad: tab\n", "invalid YAML"),
    ("{id: ok}\n", ":1: (top level): {'id': 'ok'} is not of type 'array'"),
    (VALID.replace("dtypes: [float32]", "dtypes: [float8]"), ":4: [0].dtypes[0]: 'float8' is not one of"),
    (VALID.replace("args: [a, b]", "args: a"), ":3: [0].args: 'a' is not of type 'array'"),
    (VALID.replace("shape: [2, 3]", "shape: [2, -3]"), ":7: [0].examples[0].inputs.a.shape[1]: -3 is less than"),
    (VALID.replace("id: ok", "id: Not Ok"), ":1: [0].id: 'Not Ok' does not match"),
    (VALID + "  colour: red\n", ":1: [0]: Additional properties are not allowed ('colour' was unexpected)"),
    (VALID.replace("op: matmul", "op: matmull"), ":2: [0].op: unknown op 'matmull'; valid ops: abs, add"),
    (VALID.replace("op: matmul", "expr: a.T"), ":2: [0].expr: attribute access 'a.T' is not allowed"),
    (VALID.replace("op: matmul", "expr: \"__import__('os').system('true')\""),
     ":2: [0].expr: only vocabulary ops can be called"),
    (VALID.replace("op: matmul", "expr: matmul(a, c)"), ":2: [0].expr: unknown name 'c'"),
    (VALID.replace("{a: {shape: [2, 3]}, b", "{a: {shape: [2, 3]}, c"),
     ":7: [0].examples[0].inputs: inputs ['a', 'c']"),
    (VALID.replace("shape: [2, 3]", "shape: [100000, 100000]"), "more than 10,000,000 elements"),
    (VALID + "  hypothesis: {signature: '(m,n),(n,p->'}\n",
     ":9: [0].hypothesis.signature: '(m,n),(n,p->' is not a"),
    (VALID + "  hypothesis: {signature: '(m,n)->(m)'}\n", "1 inputs in '(m,n)->(m)', but the spec has 2 args"),
    (VALID + "  gradient: {wrt: [z]}\n", ":9: [0].gradient.wrt: 'z' is not one of the spec's inputs"),
    (VALID + VALID, ":9: [1].id: duplicate spec id 'ok' (first at line 1)"),
    (VALID.replace("expect: {shape: [2]}", "expect: {raises: false}"),
     "[0].examples[0].expect.raises: True was expected"),
    (VALID + "  lstm: {input_size: 3, hidden_size: 4}\n",
     ":9: [0].lstm: an `lstm` block goes with op: lstm and args: [x]"),
    (VALID + "  expand: {transpose: []}\n", "[0].expand.transpose: [] should be non-empty"),
    (VALID + "  benchmark: {dims: {a: [m, k]}, flops: 'matmul(m, k)', sizes: [{name: s, inputs: {a: [2, 3], b: [3]}}]}"
     "\n",
     ":9: [0].benchmark.flops: a formula takes names, numbers and + - * / ** only; found ['matmul']"),
    (VALID + "  benchmark: {dims: {a: [m, k]}, flops: '2 * m * n', sizes: [{name: s, inputs: {a: [2, 3], b: [3]}}]}\n",
     ":9: [0].benchmark.flops: unknown name 'n'"),
    (VALID + "  benchmark: {dims: {c: [m]}, flops: '2 * m', sizes: [{name: s, inputs: {a: [2, 3], b: [3]}}]}\n",
     "[0].benchmark.dims.c: not one of the spec's args ['a', 'b'] (or out)"),
    (VALID + "  benchmark: {dims: {a: [m]}, flops: '2 * m', sizes: [{name: s, inputs: {a: [2, 3], b: [3]}}]}\n",
     "[0].benchmark.sizes[0].inputs.a: 2 axes, but dims names 1"),
])
def test_errors_name_file_line_and_key(tmp_path, text, expected):
    message = error_of(tmp_path, text)
    assert message.startswith(str(tmp_path / "spec.yaml")), message
    assert expected in message, message


def test_yaml_cannot_construct_python_objects(tmp_path):
    message = error_of(tmp_path, "- !!python/object/apply:os.system ['true']\n")
    assert "invalid YAML" in message


def test_missing_path_and_empty_folder(tmp_path):
    with pytest.raises(SpecError, match="no such spec file or folder"):
        load_path(tmp_path / "absent.yaml")
    with pytest.raises(SpecError, match="no \\*.yaml spec files"):
        load_path(tmp_path)


@pytest.mark.parametrize("command", [
    [sys.executable, "-m", "suites", "validate"],
    [sys.executable, "-m", "pytest", "suites", "--collect-only", "-q", "--spec"],
])
def test_command_line_exits_2_with_one_line(tmp_path, command):
    path = write(tmp_path, VALID.replace("op: matmul", "expr: a.T"))
    run = subprocess.run([*command, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 2
    output = (run.stdout + run.stderr).strip()
    assert "Traceback" not in output
    assert f"{path}:2: [0].expr: attribute access 'a.T' is not allowed" in output
    assert len([line for line in output.splitlines() if "a.T" in line]) == 1


LSTM = """\
- id: shapes
  op: lstm
  args: [x]
  expand: {num_layers: [1, 2], bidirectional: [false, true]}
  lstm: {input_size: 3, hidden_size: 4}
  dtypes: [float64]
  examples:
    - name: small
      inputs: {x: {shape: [2, 5, 3]}}
  gradient: {wrt: [x, weights]}
"""


def test_expand_makes_one_spec_per_combination(tmp_path):
    specs = load_file(write(tmp_path, LSTM))
    assert [s.id for s in specs] == ["shapes-num-layers1-not-bidirectional", "shapes-num-layers1-bidirectional",
                                     "shapes-num-layers2-not-bidirectional", "shapes-num-layers2-bidirectional"]
    assert specs[3].data["params"] == {"num_layers": 2, "bidirectional": True}


def test_lstm_specs_derive_state_and_weights_in_pytorch_names(tmp_path):
    spec = load_file(write(tmp_path, LSTM))[3]
    shapes = spec.derived_shapes((2, 5, 3))
    assert shapes["h0"] == shapes["c0"] == (4, 2, 4)  # D * num_layers, B, H
    assert shapes["weight_ih_l1_reverse"] == (16, 8)  # layer 1 reads both directions
    assert spec.wrt == ["x"] + [n for n in shapes if n.startswith(("weight", "bias"))]
