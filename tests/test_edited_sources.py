"""A source file saved while a run runs (suites/running/sources.py): the verdicts of the items
after it are withheld as errors that name the file, their records kept; the items of adapters
whose code did not change keep their verdicts. AutoGraph reads a function's lines from its file
when it traces, so an adapter file edited mid-run once made TensorFlow's compiled round trace
`square`, and the run recorded it as the framework's."""
import subprocess
import sys
import textwrap

from reports.build import read_records
from tests.test_faults import ROOT

EDITING = '''
import os

from adapters.reference import ReferenceAdapter


class Editing(ReferenceAdapter):
    """The reference, whose file is saved (as an editor saves it) while its relu runs."""
    name = "editing"

    def relu(self, x):
        os.utime(__file__)
        return super().relu(x)
'''


def test_a_verdict_after_its_adapter_file_changed_is_withheld_and_recorded(tmp_path):
    plugin = tmp_path / "editing.py"
    plugin.write_text(textwrap.dedent(EDITING))
    cmd = [sys.executable, "-m", "pytest", str(ROOT / "tests" / "specs" / "relu-examples.yaml"), "--results-dir",
           str(tmp_path / "results"), "-q", "-p", "no:cacheprovider", "--adapter-path", str(plugin),
           "--adapter", "editing,reference", "--mode", "eager"]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 1, run.stdout + run.stderr
    records = read_records([tmp_path / "results"])[0]
    edited = [r for r in records if r["adapter"] == "editing"]
    assert sorted(r["case"] for r in edited) == ["after", "before", "negative"]  # every case keeps its record
    for record in edited:
        assert record["status"] == "error", record
        assert "editing.py changed on disk after this process started" in record["message"]
        assert "this pass is withheld" in record["message"]
    assert {r["status"] for r in records if r["adapter"] == "reference"} == {"pass"}
