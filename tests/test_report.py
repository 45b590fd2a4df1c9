"""The report builder: builds from records, escapes everything, survives cut-off files."""
import json
import subprocess
import sys

from reports.build import build, read_records


def record(**fields):
    base = {"spec": "matmul/x", "case": "docs", "kind": "example", "adapter": "torch", "device": "cpu",
            "dtype": "float32", "status": "pass", "message": ""}
    return json.dumps({**base, **fields})


def test_matrix_counts_and_escaping(tmp_path):
    hostile = "<script>alert('x')</script>" + "\"'" + "y" * 5000
    (tmp_path / "r.jsonl").write_text("\n".join([
        record(), record(status="fail", message=hostile), record(adapter=hostile, status="documented"),
    ]) + "\n")
    page = build([tmp_path], tmp_path / "out").read_text()
    assert "<script>alert" not in page
    assert "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;" in page
    assert "1 pass" in page and "1 fail" in page and "1 documented" in page


def test_cut_off_line_is_skipped_and_noted(tmp_path):
    (tmp_path / "r.jsonl").write_text(record() + "\n" + record()[:25])
    records, broken = read_records([tmp_path])
    assert len(records) == 1 and broken == 1
    assert "1 result line(s) could not be read" in build([tmp_path], tmp_path / "out").read_text()


def test_empty_run_says_so(tmp_path):
    page = build([tmp_path], tmp_path / "out").read_text()
    assert "This run has no results" in page


def test_command_line(tmp_path):
    (tmp_path / "r.jsonl").write_text(record() + "\n")
    run = subprocess.run([sys.executable, "-m", "reports", "build", str(tmp_path), "-o", str(tmp_path / "site")],
                         capture_output=True, text=True)
    assert run.returncode == 0 and (tmp_path / "site" / "index.html").exists()
    missing = subprocess.run([sys.executable, "-m", "reports", "build", str(tmp_path / "nope")],
                             capture_output=True, text=True)
    assert missing.returncode == 2 and "no such results folder" in missing.stderr
