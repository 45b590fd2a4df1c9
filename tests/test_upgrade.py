"""The version axis: the upgrade note between two versions' runs of the same items (reports/upgrade.py,
`python -m reports upgrade`, the page's section), two versions kept apart when read together, a
documented difference's `versions` range, and the environment the other version gets
(suites/upgrade.py)."""
import json
import shutil
import subprocess

import pytest

from adapters.reference import ReferenceAdapter
from reports import __main__ as cli
from reports import upgrade
from reports.build import build, read_records
from reports.records import record, standing, versioned
from suites import upgrade as driver
from suites.judging import entries
from suites.loading.yamlfile import SpecError
from suites.programs.context import Context
from tests.spec_text import first_spec


def outcome(case, status, version, kind="example", mode="eager", **fields):
    return record(spec=f"matmul/{case}", case="docs", kind=kind, adapter="torch", device="cpu", dtype="float32",
                  mode=mode, status=status, message=f"{case} {status}", versions={"torch": version},
                  test=f"specs/matmul.yaml::{case}[torch-{kind}-{mode}]", machine="m", ops=["matmul"], **fields)


OLD = [outcome("broke", "pass", "2.13.0"), outcome("fixed-upstream", "documented", "2.13.0"),
       outcome("mended", "fail", "2.13.0"), outcome("grad", "unsupported", "2.13.0", kind="gradient"),
       outcome("none", "documented", "2.13.0", kind="gradient", difference={"regime": "no-gradient"}),
       outcome("lost", "pass", "2.13.0", kind="gradient"), outcome("refused", "pass", "2.13.0"),
       outcome("closer", "pass", "2.13.0", ulp=4.0), outcome("further", "pass", "2.13.0", ulp=1.0),
       outcome("shifted", "pass", "2.13.0", ulp=1.0, output=[1.0, 2.0]),
       outcome("still", "pass", "2.13.0", ulp=1.0, output=[1.0, 2.0]),
       outcome("garbage", "documented", "2.13.0", output=[4.6e-41], difference={"note": "uninitialised"}),
       outcome("inductor", "pass", "2.13.0", mode="compiled"), outcome("inductor", "pass", "2.13.0"),
       outcome("ranged", "documented", "2.13.0", difference={"note": "up to 2.14"})]
NEW = [outcome("broke", "fail", "2.15.0"), outcome("fixed-upstream", "pass", "2.15.0"),
       outcome("mended", "pass", "2.15.0"), outcome("grad", "pass", "2.15.0", kind="gradient"),
       outcome("none", "pass", "2.15.0", kind="gradient", difference={"regime": "no-gradient"}),
       outcome("lost", "unsupported", "2.15.0", kind="gradient"), outcome("refused", "unsupported", "2.15.0"),
       outcome("closer", "pass", "2.15.0", ulp=0.5), outcome("further", "pass", "2.15.0", ulp=3.0),
       outcome("shifted", "pass", "2.15.0", ulp=1.0, output=[1.0, 2.5]),
       outcome("still", "pass", "2.15.0", ulp=1.0, output=[1.0, 2.0]),
       outcome("garbage", "documented", "2.15.0", output=[2.8e-17], difference={"note": "uninitialised"}),
       outcome("inductor", "error", "2.15.0", mode="compiled"), outcome("inductor", "pass", "2.15.0"),
       outcome("ranged", "documented", "2.15.0", difference={"note": "from 2.15"})]


def specs_in(found, section):
    return [(row["key"][0].split("/")[1], row["key"][-1]) for row in found[section]]


def test_each_change_lands_in_its_section_and_the_compiler_alone_is_marked():
    found = upgrade.upgrade(OLD, NEW)
    assert specs_in(found, "new failures") == [("broke", "eager"), ("inductor", "compiled")]
    # what to act on comes first: a documented missing gradient that is there now too
    assert specs_in(found, "documented, no longer observed") == [("fixed-upstream", "eager"), ("none", "eager")]
    assert specs_in(found, "newly documented") == [("ranged", "eager")]  # another entry's versions hold
    assert specs_in(found, "fixed") == [("mended", "eager")]
    assert specs_in(found, "gradients appeared") == [("grad", "eager")]
    assert specs_in(found, "gradients vanished") == [("lost", "eager")]
    assert specs_in(found, "unsupported now") == [("refused", "eager")]
    assert specs_in(found, "closer to exact") == [("closer", "eager")]
    assert specs_in(found, "further from exact") == [("further", "eager")]
    # "still" did not move; a documented output (uninitialised memory, say) is no distance from exact
    assert specs_in(found, "moved, as far from exact") == [("shifted", "eager")]
    assert [row["compile_only"] for row in found["new failures"]] == [False, True]
    assert found["versions"] == {"torch": (["2.13.0"], ["2.15.0"])} and found["only"] == (0, 0)
    assert found["to_act"] == 5
    assert upgrade.gate(found) == 1
    assert upgrade.gate(upgrade.upgrade(OLD, OLD)) == 0


def test_the_note_leads_with_what_to_act_on_and_reads_ulps_both_ways():
    text = upgrade.lines(upgrade.upgrade(OLD, NEW))
    assert text[0] == "torch: 2.13.0 -> 2.15.0"
    assert text[1] == "new failures (2) (act on these):" and text[2] == "  matmul (matmul):"  # area (ops)
    headings = [line.split(" (")[0] for line in text if not line.startswith(" ") and line.endswith(":")]
    assert headings == ["new failures", "documented, no longer observed", "newly documented", "gradients appeared",
                        "gradients vanished", "unsupported now", "fixed", "closer to exact", "further from exact",
                        "moved, as far from exact"]
    assert "    matmul/closer docs example torch cpu float32 eager: largest error 4 -> 0.5 ulp" in text
    assert upgrade.ulps((380123.0, 380456.0)) == "largest error 3.801e+05 -> 3.805e+05 ulp"  # digits that differ
    assert any("matmul/inductor" in line and "(compile-only)" in line for line in text)


def test_benchmark_moves_carry_the_caveat_of_two_processes():
    timed = upgrade.lines(upgrade.upgrade(OLD, OLD, benchmarks=[]))
    assert timed[-2:] == ["0 benchmark median(s) moved beyond 5% and their noise", upgrade.BENCHMARKS_APART]
    assert upgrade.BENCHMARKS_APART not in upgrade.lines(upgrade.upgrade(OLD, OLD))  # not timed: no caveat


def write(path, records):
    path.mkdir()
    (path / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return str(path)


def test_the_command_prints_the_note_and_exits_on_what_to_act_on(tmp_path, capsys):
    old, new = write(tmp_path / "old", OLD), write(tmp_path / "new", NEW)
    assert cli.main(["upgrade", old, new]) == 1
    assert capsys.readouterr().out.startswith("torch: 2.13.0 -> 2.15.0\nnew failures (2) (act on these):")
    assert cli.main(["upgrade", old, old]) == 0
    assert cli.main(["upgrade", old, str(tmp_path / "missing")]) == 2
    assert "no such results folder" in capsys.readouterr().err
    assert cli.main(["diff", old, new]) == 1 and capsys.readouterr().out.startswith("torch: 2.13.0 -> 2.15.0\n")


def test_two_versions_read_together_stand_apart_and_get_a_column_each(tmp_path):
    both = standing(OLD + NEW)
    assert len(both) == len(OLD) + len(NEW)  # one test id per item, two versions
    assert {r["adapter"] for r in versioned(both)} == {"torch 2.13.0", "torch 2.15.0"}
    assert {r["adapter"] for r in versioned(NEW)} == {"torch"}  # one version: named as it is
    old, new = write(tmp_path / "old", OLD), write(tmp_path / "new", NEW)
    page = build([new], tmp_path / "out", upgraded_from=old).read_text()
    assert 'id="upgrade"' in page and "torch 2.13.0 &rarr; 2.15.0" in page and "new failures (2): act on these" in page
    assert "5 outcome(s) to act on</a>" in page  # in "Start here"
    assert "torch 2.15.0 compiled" in build([old, new], tmp_path / "both").read_text()
    both_runs = write(tmp_path / "both-runs", OLD + NEW)  # diff keys tell the versions apart too
    assert len(upgrade.changes.latest(read_records([both_runs])[0])) == len(OLD) + len(NEW)


SPEC = """\
- id: mm
  op: matmul
  args: [a, b]
  dtypes: [float64]
  examples:
    - name: case
      inputs: {a: {shape: [1, 2]}, b: {shape: [2, 1]}}
  differences:
    - {adapter: at-version, case: case, versions: "<2.15", observed: {dtype: float32}, note: before, source: https://example.org/a}
    - {adapter: at-version, case: case, versions: {numpy: ">=1"}, observed: {dtype: float32}, note: numpy, source: https://example.org/b}
"""


class AtVersion(ReferenceAdapter):
    name = "at-version"
    release = "2.13.0+cpu"

    def version(self):
        return self.release


def test_a_difference_holds_for_the_versions_it_names(tmp_path):
    spec = first_spec(tmp_path, SPEC, "versions.yaml")
    adapter = AtVersion()
    assert entries.find(Context(spec, adapter, "cpu", "float64"), "case")["note"] == "before"
    adapter.release = "2.15.0"  # fixed in 2.15: the next entry (numpy's range) is the one that holds
    assert entries.find(Context(spec, adapter, "cpu", "float64"), "case")["note"] == "numpy"
    adapter.release = "in-house"
    with pytest.raises(ValueError, match="which is no release"):
        entries.find(Context(spec, adapter, "cpu", "float64"), "case")


def test_a_version_range_that_is_not_one_is_refused_in_one_line(tmp_path):
    with pytest.raises(SpecError, match=r"versions: takes a PEP 440 version range .* Received: '~2\.15'"):
        first_spec(tmp_path, SPEC.replace('"<2.15"', '"~2.15"'), "bad.yaml")


def test_the_other_version_gets_every_pin_but_its_own():
    pinned = driver._pins(driver.ROOT / "requirements" / "all.txt")
    pins = driver.requirements("jax", "0.9.2")
    changed = [(a, b) for a, b in zip(pinned, pins) if a != b]
    assert len(pins) == len(pinned) and len(changed) == 1 and changed[0][1] == "jax[cpu]==0.9.2"
    with pytest.raises(driver.UpgradeError, match="pinned nowhere"):
        driver.requirements("tensorflow", "2.20.0")  # the CPU build is the one pinned: tensorflow-cpu
    assert driver.adapter_environment("keras-jax") == {"KERAS_BACKEND": "jax"}


def test_bad_input_to_the_driver_is_one_line_and_exit_2(capsys):
    from suites import __main__ as suites_cli
    assert suites_cli.main(["upgrade", "nonsense==1"]) == 2
    assert suites_cli.main(["upgrade", "torch==2.15.0", "--adapter", "jax"]) == 2
    assert suites_cli.main(["upgrade", "engine@no-such-commit"]) == 2
    assert suites_cli.main(["upgrade", "tensorflow==2.20.0"]) == 2  # tensorflow-cpu is what is installed
    assert suites_cli.main(["upgrade", "torch==2.15.0", "--share", "0"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 5 and all(line.startswith("upgrade: ") for line in err)


def test_the_engine_between_two_commits_runs_this_checkout_with_engine_as_it_was():
    first = subprocess.run(["git", "rev-list", "--max-parents=0", "HEAD"], capture_output=True, text=True,
                           cwd=driver.ROOT).stdout.split()[0]
    tree = driver.engine_tree("HEAD")
    assert (tree / "suites" / "upgrade.py").read_text() == (driver.ROOT / "suites" / "upgrade.py").read_text()
    assert (tree / "engine").is_dir()
    shutil.rmtree(tree)
    with pytest.raises(driver.UpgradeError, match="git has no engine/"):
        driver.engine_tree(first + "~1")
