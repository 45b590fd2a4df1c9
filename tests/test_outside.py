"""Parity used from another project: a framework team's repository holds its own adapter and spec
file (tests/outside/, copied to a folder outside the checkout) and runs Parity's front door,
parity.py, from there, as docs/from-your-project.md tells it to. Results, reruns and the report
are the team's, in the team's folder."""
import json
import os
import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
FRONT_DOOR = str(ROOT / "parity.py")


@pytest.fixture
def team(tmp_path):
    """The team's repository: its adapter file and a folder of its own specs."""
    shutil.copytree(ROOT / "tests" / "outside", tmp_path, dirs_exist_ok=True)
    return tmp_path


def parity(team, *args, command=FRONT_DOOR):
    return subprocess.run([sys.executable, command, *args], cwd=team, capture_output=True, text=True, timeout=300)


def run(team, adapter, results):
    return parity(team, "run", "--spec", "specs/mine.yaml", "--adapter-path", "myfw_adapter.py", "--adapter", adapter,
                  "--results-dir", results, "--hypothesis-profile=ci", "-p", "no:xdist")


def records(folder):
    return [json.loads(line) for line in (folder / "results.jsonl").read_text().splitlines()]


def test_a_team_runs_its_adapter_on_its_own_spec_from_its_own_folder(team):
    done = run(team, "myfw", "out")
    assert done.returncode == 0, done.stdout + done.stderr
    found = records(team / "out")
    assert {(r["spec"], r["adapter"], r["dtype"], r["status"]) for r in found if r["kind"] == "example"} == {
        ("mine/my-matmul", "myfw", "float32", "pass"), ("mine/my-matmul", "myfw", "float64", "pass")}
    assert any(r["kind"] == "gradient" and r["status"] == "pass" for r in found), found
    page = parity(team, "report", "build", "out", "-o", "site")
    assert page.returncode == 0 and (team / "site" / "index.html").is_file(), page.stdout + page.stderr


def test_a_wrong_adapter_fails_there_and_its_rerun_command_runs_from_there(team):
    done = run(team, "myfw-off", "out")
    assert done.returncode == 1, done.stdout + done.stderr
    failed = [r for r in records(team / "out") if r["status"] == "fail"]
    assert {r["dtype"] for r in failed if r["kind"] == "example"} == {"float32", "float64"}, failed
    assert "differs from" in failed[0]["message"]
    again = subprocess.run(f"{failed[0]['rerun']} --results-dir again -p no:xdist", shell=True, cwd=team,
                           capture_output=True, text=True, timeout=300)
    assert again.returncode == 1 and "1 failed" in again.stdout, again.stdout + again.stderr
    port = parity(team, "report", "port", "myfw-off", "reference", "out")  # the reference did not run here
    assert port.returncode == 2 and "no records of adapter 'reference'" in port.stderr, port.stderr


def test_the_front_door_validates_a_teams_specs_and_refuses_bad_input_in_one_line(team):
    ok = parity(team, "validate", "specs")
    assert ok.returncode == 0 and "mine.yaml: 1 specs ok" in ok.stdout, ok.stdout + ok.stderr
    (team / "specs" / "broken.yaml").write_text("- id: broken\n  op: matmul\n")
    bad = parity(team, "validate", "specs")
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1, bad.stderr
    assert "broken.yaml:1" in bad.stderr
    unknown = parity(team, "frobnicate")
    assert unknown.returncode == 2 and "unknown command 'frobnicate'" in unknown.stderr


def test_run_collects_what_is_named_first_else_parity_s_specs_else_the_anchor_of_spec():
    import parity as front_door

    config = ["-c", str(ROOT / "pyproject.toml"), "--rootdir", str(ROOT)]
    named = ["specs/matmul.yaml", "specs/ste.yaml::ste-forward", "--adapter", "torch"]
    assert front_door.pytest_args("run", named) == [*config, *named]
    assert front_door.pytest_args("run", ["--adapter", "torch"])[len(config)] == os.path.relpath(ROOT / "specs")
    anchor = front_door.pytest_args("run", ["--spec", "mine.yaml"])[len(config)]
    assert anchor == os.path.relpath(ROOT / "suites" / "test_specs.py")


def test_every_command_answers_help(team):
    listing = parity(team, "--help")
    assert listing.returncode == 0
    for command in ("run", "fuzz", "validate", "coverage", "estimate", "vocabulary", "report", "bench", "multihost"):
        assert f"\n  {command} " in listing.stdout, listing.stdout
    for command in ("validate", "coverage", "report", "bench", "multihost"):
        shown = parity(team, command, "--help")
        assert shown.returncode == 0 and f"usage: parity {command}" in shown.stdout, (command, shown.stdout)
