"""Result records are flushed line by line and merged at the end of a session."""
import json

from suites.running.results import Recorder, merge


def test_each_record_is_on_disk_as_soon_as_written(tmp_path):
    recorder = Recorder(tmp_path, "gw0")
    recorder.write({"status": "pass", "n": 1})
    assert json.loads((tmp_path / "part-gw0.jsonl").read_text()) == {"status": "pass", "n": 1}
    recorder.write({"status": "fail", "n": 2})
    assert len((tmp_path / "part-gw0.jsonl").read_text().splitlines()) == 2
    recorder.close()


def test_merge_concatenates_parts(tmp_path):
    for worker in ("gw0", "gw1"):
        recorder = Recorder(tmp_path, worker)
        recorder.write({"status": "pass", "worker": worker})
        recorder.close()
    merged = merge(tmp_path)
    assert sorted(json.loads(line)["worker"] for line in merged.read_text().splitlines()) == ["gw0", "gw1"]
    assert not list(tmp_path.glob("part-*.jsonl"))
