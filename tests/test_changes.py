"""--changed-since REV: every item of a spec file or an adapter that changed runs whatever the
share, up to --changed-limit; the share draws the rest, and --changed-share where the judge or the
runner changed."""
import json
import os
import subprocess
from types import SimpleNamespace

import pytest

from suites.__main__ import _collected
from suites.running import changes

FILES = ["specs/ste.yaml", "specs/rounding.yaml"]
RUN = [*FILES, "--adapter", "reference,engine", "--hypothesis-profile=ci", "--share", "0.03"]


def ids(args) -> set:
    items, code = _collected(args)
    assert code == 0
    return {i.nodeid for i in items}


@pytest.fixture(scope="module")
def baseline():
    """(every item, the share's items) of RUN, without --changed-since."""
    return ids([*RUN, "--share", "1"]), ids(RUN)


def changed(monkeypatch, *files):
    monkeypatch.setattr(changes, "changed_files", lambda rev, root=changes.ROOT: set(files))


def test_a_changed_spec_file_runs_whole_and_the_others_at_the_share(monkeypatch, baseline):
    every, sampled = baseline
    changed(monkeypatch, "specs/ste.yaml", "docs/cost.md")
    following = ids([*RUN, "--changed-since", "HEAD"])
    assert {i for i in every if i.startswith("specs/ste.yaml")} <= following
    assert {i for i in following if i.startswith("specs/rounding.yaml")} == \
        {i for i in sampled if i.startswith("specs/rounding.yaml")}
    assert len(sampled) < len(following) < len(every)


def test_a_changed_adapter_module_runs_that_adapters_items_whole(monkeypatch, baseline):
    every, sampled = baseline
    changed(monkeypatch, "adapters/engine/__init__.py")
    following = ids([*RUN, "--changed-since", "HEAD"])
    assert {i for i in every if "[engine-" in i} <= following
    assert {i for i in following if "[reference-" in i} == {i for i in sampled if "[reference-" in i}


def test_the_changed_limit_bounds_what_a_change_adds_changed_spec_files_first(monkeypatch, baseline):
    """A change that touches more items than --changed-limit runs that many of them beyond the
    share's own, the changed spec file's before the changed adapter's; the rest at the share."""
    every, sampled = baseline
    changed(monkeypatch, "specs/ste.yaml", "adapters/engine/__init__.py")
    whole = ids([*RUN, "--changed-since", "HEAD"])
    ste_extra = {i for i in whole - sampled if i.startswith("specs/ste.yaml")}
    limit = len(ste_extra) + 2
    bounded = ids([*RUN, "--changed-since", "HEAD", "--changed-limit", str(limit)])
    assert sampled < bounded < whole and len(bounded - sampled) == limit
    assert ste_extra <= bounded  # the spec file's items first, then 2 of the engine's
    assert ids([*RUN, "--changed-since", "HEAD", "--changed-limit", "0"]) == sampled


def test_a_change_to_the_judge_takes_the_changed_share_elsewhere(monkeypatch, baseline):
    every, sampled = baseline
    changed(monkeypatch, "suites/judging/compare.py")
    assert ids([*RUN, "--changed-since", "HEAD"]) == sampled
    assert ids([*RUN, "--changed-since", "HEAD", "--changed-share", "1"]) == every


def test_an_adapters_modules_are_its_classes_files_what_they_import_and_its_differences():
    import adapters

    torch_export = changes.adapter_modules(adapters.classes()["torch-export"])
    assert {"adapters/torch/exported_program.py", "adapters/torch/__init__.py", "adapters/torch/differences.yaml",
            "adapters/exporting.py"} <= torch_export
    assert not any(f.startswith(changes.MACHINERY) for f in torch_export)
    assert "adapters/torch/__init__.py" not in changes.adapter_modules(adapters.classes()["engine"])


def git(root, *args):
    subprocess.run(["git", "-c", "user.name=t", "-c", "user.email=t@t", *args], cwd=root, check=True,
                   capture_output=True)


def test_changed_files_are_the_diff_against_the_revision_and_untracked_files(tmp_path):
    git(tmp_path, "init", "-q")
    (tmp_path / ".gitignore").write_text("results/\n")
    for name in ("a.yaml", "b.yaml"):
        (tmp_path / name).write_text("1\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "first")
    (tmp_path / "a.yaml").write_text("2\n")
    (tmp_path / "new.py").write_text("\n")
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "r.jsonl").write_text("\n")
    assert changes.changed_files("HEAD", tmp_path) == {"a.yaml", "new.py"}
    with pytest.raises(changes.ChangeError, match="--changed-since nosuchrev: .*nosuchrev"):
        changes.changed_files("nosuchrev", tmp_path)


def test_a_run_says_what_the_changed_limit_left_to_the_share(tmp_path):
    """The run's ending reads its own manifest (xdist's workers collect, so only the manifest
    knows): a line naming the count, none where nothing was left."""
    import conftest  # the project's root conftest.py, whose hook this is

    lines = []
    config = SimpleNamespace(parity=SimpleNamespace(results_dir=str(tmp_path)))
    reporter = SimpleNamespace(write_line=lines.append)
    for left in (7, 0):
        (tmp_path / f"selection-{os.getpid()}.json").write_text(json.dumps({"changed_left": left}))
        conftest.pytest_terminal_summary(reporter, config)
    assert lines == ["parity: --changed-limit left 7 of the items the change touched to the share"]
