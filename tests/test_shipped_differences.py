"""An adapter from elsewhere (--adapter-path, an entry point) ships its documented differences in
a file beside it, in the schema of a spec's own; they merge with the specs'."""
import json
import pathlib
import subprocess
import sys

import pytest

from suites.loading.spec_differences import load_differences
from suites.loading.specs import SpecError, load_path

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHIPPING = ROOT / "tests" / "adapters" / "shipping.py"


def test_a_shipped_difference_documents_the_adapters_behaviour(tmp_path):
    cmd = [sys.executable, "-m", "pytest", "specs/matmul.yaml", "--adapter-path", str(SHIPPING), "--adapter",
           "shipping", "--mode", "eager", "--dtype", "float64", "-k", "vector-x-vector[", "--results-dir",
           str(tmp_path), "-p", "no:cacheprovider", "-p", "no:xdist"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    assert {r["status"] for r in records} == {"documented"}
    assert records[0]["difference"] == {"note": "shipping's matmul takes matrices only",
                                        "source": "https://example.org/shipping", "regime": "semantics"}


def test_a_shipped_file_is_checked_like_a_spec(tmp_path):
    specs = load_path(ROOT / "specs" / "matmul.yaml")
    bad = tmp_path / "bad.differences.yaml"
    bad.write_text("matmul/vector-x-vector:\n  - {case: nope, observed: {raises: true}, note: n, "
                   "source: https://example.org}\n")
    with pytest.raises(SpecError, match=r"bad.differences.yaml:2: matmul/vector-x-vector\[0\].case: no example"):
        load_differences(bad, "shipping", specs)
    other = tmp_path / "other.differences.yaml"
    other.write_text("matmul/vector-x-vector:\n  - {adapter: torch, observed: {raises: true}, note: n, "
                     "source: https://example.org}\n")
    with pytest.raises(SpecError, match="documents its own adapter, 'shipping'. Received: 'torch'"):
        load_differences(other, "shipping", specs)


NARROWING = ROOT / "tests" / "adapters" / "narrowing.py"


def run_narrowing(tmp_path, adapter: str) -> tuple:
    cmd = [sys.executable, "-m", "pytest", "specs/matmul.yaml", "--adapter-path", str(NARROWING), "--adapter",
           adapter, "--mode", "eager", "--dtype", "float32,float64", "-k", "batched-x-broadcast-vector[",
           "--results-dir", str(tmp_path), "-p", "no:cacheprovider", "-p", "no:xdist"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    return run, {r["dtype"]: r for r in records if r["kind"] == "example"}


def test_an_entry_for_every_spec_documents_only_the_fails_it_explains(tmp_path):
    run, by_dtype = run_narrowing(tmp_path / "right", "narrowing")
    assert run.returncode == 0, run.stdout + run.stderr
    assert by_dtype["float32"]["status"] == "pass"  # a pass stays a pass: no "no longer observed"
    assert by_dtype["float64"]["status"] == "documented"
    assert by_dtype["float64"]["difference"]["regime"] == "default"
    run, by_dtype = run_narrowing(tmp_path / "wrong", "narrowing-wrongly")
    assert run.returncode == 1
    # another difference stays the fail it was, not "neither as expected nor as documented"
    assert by_dtype["float64"]["status"] == "fail"
    assert by_dtype["float64"]["message"].startswith("differs from the float64 reference")


def test_a_dtype_entry_holds_for_values_whose_order_is_unspecified(tmp_path):
    """unique_values' order is the framework's (the spec's `unspecified`): an entry documenting
    the result's dtype judges the values as the spec does, by its properties, not position by
    position (jax-32's int64 unique_values failed so: sorted, where NumPy's come hashed)."""
    cmd = [sys.executable, "-m", "pytest", "specs/sets.yaml", "--adapter-path",
           str(ROOT / "tests" / "adapters" / "int32_by_default.py"), "--adapter", "int32-by-default", "--mode",
           "eager", "--dtype", "int64", "-k", "unique-values-docs[", "--results-dir", str(tmp_path), "-p",
           "no:cacheprovider", "-p", "no:xdist"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    records = [json.loads(line) for line in (tmp_path / "results.jsonl").read_text().splitlines()]
    cases = ["docs", "repeats", "zero-d", "empty"]
    assert {r["case"]: r["status"] for r in records} == dict.fromkeys(cases, "documented")


def test_an_entry_for_every_spec_names_no_case(tmp_path):
    bad = tmp_path / "bad.differences.yaml"
    bad.write_text('"*":\n  - {case: docs, observed: {raises: true}, note: n, source: https://example.org}\n')
    with pytest.raises(SpecError, match=r'bad.differences.yaml:2: \*\[0\].case: an entry for every spec names no case'):
        load_differences(bad, "shipping", load_path(ROOT / "specs" / "matmul.yaml"))


def test_a_repro_shipped_beside_the_file_is_a_source(tmp_path):
    """A bug the adapter's own runs found has no link to cite: a repro file beside the differences
    file is its source. A missing one, or a path that leaves the folder, is a one-line error."""
    specs = load_path(ROOT / "specs" / "matmul.yaml")
    (tmp_path / "repros").mkdir()
    (tmp_path / "repros" / "vector.py").write_text("import myfw\nprint(myfw.matmul([1.0], [2.0]))\n")
    shipped = tmp_path / "mine.differences.yaml"
    shipped.write_text("matmul/vector-x-vector:\n  - {observed: {raises: true}, note: n, source: repros/vector.py}\n")
    [spec] = [s for s in load_differences(shipped, "mine", specs) if s.name == "matmul/vector-x-vector"]
    assert spec.differences[-1]["source"] == "repros/vector.py"
    for source in ("repros/absent.py", "../outside.py"):
        shipped.write_text(f"matmul/vector-x-vector:\n  - {{observed: {{raises: true}}, note: n, source: {source}}}\n")
        with pytest.raises(SpecError, match=r"mine.differences.yaml:2: matmul/vector-x-vector\[0\].source: a source "
                                            r"is an https:// link or a repro file beside mine.differences.yaml"):
            load_differences(shipped, "mine", specs)


def test_an_engine_source_or_a_repro_link_that_leaves_its_folder_is_refused(tmp_path):
    """engine/../../../../etc/passwd passed as the engine's own file, and a repro that is a link
    out of its folder passed as one beside the file: both are one-line errors now, in an adapter's
    file and (engine/) in a spec alike; engine/ops.py (floor), engine/tensor.py still load."""
    specs = load_path(ROOT / "specs" / "matmul.yaml")
    (tmp_path / "mine" / "repros").mkdir(parents=True)
    (tmp_path / "outside.py").write_text("print('not shipped beside')\n")
    (tmp_path / "mine" / "repros" / "link.py").symlink_to(tmp_path / "outside.py")
    shipped = tmp_path / "mine" / "mine.differences.yaml"
    for source, message in [("engine/../../../../etc/passwd", "an engine source names files inside engine/"),
                            ("engine/ops.py (floor), engine/absent.py", "Received: engine/absent.py"),
                            ("repros/link.py", "a source is an https:// link or a repro file beside")]:
        entry = f"{{observed: {{raises: true}}, note: n, source: '{source}'}}"
        shipped.write_text(f"matmul/vector-x-vector:\n  - {entry}\n")
        with pytest.raises(SpecError, match=message):
            load_differences(shipped, "mine", specs)
    shipped.write_text("matmul/vector-x-vector:\n  - {observed: {raises: true}, note: n, "
                       "source: 'engine/ops.py (floor), engine/tensor.py'}\n")
    load_differences(shipped, "mine", specs)
    spec_file = tmp_path / "spec.yaml"
    spec_file.write_text("""\
- id: add
  expr: "add(a, b)"
  args: [a, b]
  dtypes: [float32]
  examples:
    - name: one
      inputs: {a: {values: [1]}, b: {values: [2]}}
  differences:
    - {adapter: torch, case: one, observed: {raises: true}, note: n, source: engine/../../../../etc/passwd}
""")
    with pytest.raises(SpecError, match=r"spec.yaml:9: \[0\].differences\[0\].source: an engine source names files"):
        load_path(spec_file)


def test_a_variant_gets_its_bases_shipped_differences_selected_alone():
    """A variant (variant_of = "torch") judged alone still gets adapters/torch/differences.yaml,
    whose entries are its own (the repeat check's thread-count entry for every spec): the file was
    looked up beside the variant's module only, so a team's variant, or torch-export run without
    torch, met false alarms where torch's are documented. Each file loads once."""
    from suites.loading.spec_differences import shipped

    specs = load_path(ROOT / "specs" / "ste.yaml")
    alone = shipped(["torch-export"], specs)[0].differences
    assert any(d["adapter"] == "torch" and d.get("kind") == "repeat" and d.get("every_spec") for d in alone)
    both = shipped(["torch", "torch-export"], specs)[0].differences
    assert len(both) == len(alone)
