"""The spec loader: every problem is one line naming file, line and key; exit code 2."""
import itertools
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import textwrap

import pytest

from suites.__main__ import main as validate_main
from suites.loading.specs import SpecError, load_file, load_path

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


MALFORMED = sorted((ROOT / "tests" / "specs" / "malformed").glob("*.yaml"))


def expected_error(path) -> str:
    """A corpus file's last line: `# expect: <part of the one-line error>`."""
    return path.read_text().splitlines()[-1].removeprefix("# expect: ")


def test_the_malformed_corpus_is_broad():
    assert len(MALFORMED) >= 30


@pytest.mark.parametrize("path", MALFORMED, ids=lambda p: p.stem)
def test_errors_name_file_line_and_key(path):
    with pytest.raises(SpecError) as info:
        load_file(path)
    message = str(info.value)
    assert "\n" not in message
    assert re.match(rf"{re.escape(str(path))}:\d+: ", message), message
    assert expected_error(path) in message, message


def test_command_line_on_the_corpus_exits_2_with_one_line_and_runs_nothing(tmp_path, monkeypatch, capsys):
    """Each malformed file through `python -m suites validate`'s main, from an empty folder: one
    line, exit code 2, no exception; the files that try to run `touch parity-sentinel` do not. In
    this process (the command's own process, its imports 2 s a file, is run below on one file)."""
    monkeypatch.chdir(tmp_path)
    for path in MALFORMED:
        code = validate_main(["validate", str(path)])
        out, err = capsys.readouterr()
        assert code == 2, (path.name, out, err)
        assert out == "" and err.count("\n") == 1, path.name
        assert expected_error(path) in err, (path.name, err)
    assert list(tmp_path.iterdir()) == []


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
    [sys.executable, "-m", "pytest", "--collect-only", "-q"],  # the spec file as pytest's test file
])
def test_command_line_exits_2_with_one_line(tmp_path, command):
    if command[-1] == "-q":  # pytest collects the file itself: it lies in the checkout, under its conftest.py
        (ROOT / "results").mkdir(exist_ok=True)  # git-ignored, and removed below: no test leaves files there
        tmp_path = pathlib.Path(tempfile.mkdtemp(dir=ROOT / "results"))
    path = write(tmp_path, VALID.replace("op: matmul", "expr: a.T"))
    try:
        run = subprocess.run([*command, str(path)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    finally:
        if ROOT in tmp_path.parents:
            shutil.rmtree(tmp_path)
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
    assert specs[3].params == {"num_layers": 2, "bidirectional": True}


POOL_OPTIONS = """
- id: options
  op: avg_pool2d
  args: [x]
  params: {kernel: 3}
  pairwise: {stride: [1, 2], padding: [0, 1], ceil_mode: [false, true], count_include_pad: [false, true]}
  dtypes: [float64]
  examples:
    - name: small
      inputs: {x: {shape: [1, 1, 5, 5]}}
  differences:
    - adapter: torch
      params: {ceil_mode: true, padding: 1}
      observed: {raises: true}
      note: a difference of two options together
      source: https://example.org
"""


def test_pairwise_makes_a_spec_per_row_that_meets_every_pair_of_values(tmp_path):
    specs = load_file(write(tmp_path, POOL_OPTIONS))
    grid = {"stride": [1, 2], "padding": [0, 1], "ceil_mode": [False, True], "count_include_pad": [False, True]}
    assert 5 <= len(specs) < 16  # the full product is 16; a covering array of 4 two-valued params needs 5 or more
    for a, b in itertools.combinations(grid, 2):
        assert {(s.params[a], s.params[b]) for s in specs} == set(itertools.product(grid[a], grid[b]))
    assert all(s.params["kernel"] == 3 for s in specs)
    assert specs[0].id == "options-" + "-".join(["stride1", "padding0", "not-ceil-mode", "not-count-include-pad"])


def test_a_grid_takes_none_and_lists_and_names_them_in_the_ids(tmp_path):
    """axis None and axis (0, -1): ids of letters, digits and dashes, a list's items joined, a minus an m;
    a difference's params pick the None row."""
    text = """
- id: sums
  op: sum
  args: [x]
  pairwise: {axis: [null, 0, [0, -1]], keepdims: [false, true]}
  dtypes: [float32]
  examples:
    - name: small
      inputs: {x: {shape: [2, 3, 4]}}
  differences:
    - adapter: torch
      params: {axis: null, keepdims: true}
      observed: {shape: []}
      note: a difference of the None row
      source: https://example.org
"""
    specs = load_file(write(tmp_path, text))
    assert [s.id for s in specs] == ["sums-axis-none-not-keepdims", "sums-axis-none-keepdims",
                                     "sums-axis0-not-keepdims", "sums-axis0-keepdims",
                                     "sums-axis0-m1-not-keepdims", "sums-axis0-m1-keepdims"]
    assert [s.id for s in specs if s.differences] == ["sums-axis-none-keepdims"]


def test_a_grid_of_nested_lists_names_them_flattened_and_passes_them_whole(tmp_path):
    """pad_width, a (before, after) per axis: its numbers in the id, the nested list in params."""
    text = """
- id: pads
  op: pad
  args: [x]
  pairwise: {mode: [constant, reflect], pad_width: [[[0, 0], [1, 2]], [[2, 1], [0, 0]]]}
  dtypes: [float32]
  examples:
    - name: small
      inputs: {x: {shape: [3, 4]}}
  differences:
    - adapter: torch
      params: {mode: reflect, pad_width: [[2, 1], [0, 0]]}
      observed: {raises: true}
      note: a difference of one row
      source: https://example.org
"""
    specs = load_file(write(tmp_path, text))
    assert [s.id for s in specs] == ["pads-modeconstant-pad-width0-0-1-2", "pads-modeconstant-pad-width2-1-0-0",
                                     "pads-modereflect-pad-width0-0-1-2", "pads-modereflect-pad-width2-1-0-0"]
    assert specs[1].params["pad_width"] == [[2, 1], [0, 0]]
    assert [s.id for s in specs if s.differences] == ["pads-modereflect-pad-width2-1-0-0"]


def test_a_differences_params_choose_the_specs_of_the_grid_it_holds_in(tmp_path):
    specs = load_file(write(tmp_path, POOL_OPTIONS))
    holding = [s for s in specs if s.differences]
    assert holding and all(s.params["ceil_mode"] and s.params["padding"] == 1 for s in holding)
    assert len(holding) == sum(s.params["ceil_mode"] and s.params["padding"] == 1 for s in specs)
    assert all("params" not in d for s in holding for d in s.differences)


@pytest.mark.parametrize("change, message", [
    ("params: {ceil_mode: true, padding: 1}", None),
    ("params: {ceil_mode: maybe}", "ceil_mode='maybe' is not a value of the spec's grid"),
    ("params: {dilation: 2}", "dilation=2 is not a value"),
])
def test_a_differences_params_must_be_values_of_the_grid(tmp_path, change, message):
    text = POOL_OPTIONS.replace("params: {ceil_mode: true, padding: 1}", change)
    if message is None:
        load_file(write(tmp_path, text))
        return
    with pytest.raises(SpecError, match=message):
        load_file(write(tmp_path, text))


def test_params_on_a_difference_need_a_grid_and_a_grid_is_expand_or_pairwise(tmp_path):
    with pytest.raises(SpecError, match="this spec has none"):
        load_file(write(tmp_path, "\n".join(line for line in POOL_OPTIONS.splitlines() if "pairwise" not in line)))
    with pytest.raises(SpecError, match="expand .every combination. or pairwise .every pair., not both"):
        load_file(write(tmp_path, POOL_OPTIONS.replace("  params: {kernel: 3}", "  expand: {kernel: [3]}")))


def test_gru_specs_derive_one_state_and_three_gate_blocks(tmp_path):
    text = LSTM.replace("op: lstm", "op: gru").replace("lstm: {", "gru: {")
    spec = load_file(write(tmp_path, text))[3]
    shapes = spec.program.shapes((2, 5, 3))
    assert "c0" not in shapes and shapes["h0"] == (4, 2, 4)
    assert shapes["weight_ih_l1_reverse"] == (12, 8)  # 3H rows: r, z, n


def test_a_recurrent_block_must_match_its_op(tmp_path):
    with pytest.raises(SpecError, match="the `gru` block goes with op: gru"):
        load_file(write(tmp_path, LSTM.replace("lstm: {", "gru: {")))


def test_lstm_specs_derive_state_and_weights_in_pytorch_names(tmp_path):
    spec = load_file(write(tmp_path, LSTM))[3]
    shapes = spec.program.shapes((2, 5, 3))
    assert shapes["h0"] == shapes["c0"] == (4, 2, 4)  # D * num_layers, B, H
    assert shapes["weight_ih_l1_reverse"] == (16, 8)  # layer 1 reads both directions
    assert spec.wrt == ["x"] + [n for n in shapes if n.startswith(("weight", "bias"))]


def test_a_key_written_twice_in_one_mapping_is_an_error_naming_its_line(tmp_path):
    """YAML keeps the later of two equal keys silently: a second `differences:` under one spec
    once replaced the entries above it. Merge keys (<<) may repeat."""
    twice = VALID + "  differences: []\n  differences: []\n"
    message = error_of(tmp_path, twice)
    assert message == f"{tmp_path / 'spec.yaml'}:10: 'differences' appears twice in one mapping (the later would " \
                      "replace the earlier)"


def test_validate_imports_no_framework_or_scipy():
    """`python -m suites validate FILE` answers from the specs alone: no framework and no SciPy (0.6
    s of the initializers' laws and the sampling judge) is imported to load a spec. (hypothesis,
    which parses the signatures, is: 0.3 s, and it imports pytest where trio is installed.)"""
    probe = ("import runpy, sys\nsys.argv = ['suites', 'validate', 'specs/ste.yaml']\ntry:\n"
             "    runpy.run_module('suites', run_name='__main__')\nexcept SystemExit as exc:\n    code = exc.code\n"
             "heavy = ('scipy', 'torch', 'tensorflow', 'jax', 'paddle', 'keras')\n"
             "print(code, sorted(m for m in heavy if m in sys.modules))\n")
    run = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.stdout.strip().splitlines()[-1] == "0 []", run.stdout + run.stderr
