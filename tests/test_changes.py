"""--changed-since REV: every item of a spec file or an adapter that changed runs whatever the
share; the share draws the rest, and --changed-share where the judge or the runner changed."""
import subprocess

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
    changed(monkeypatch, "adapters/engine.py")
    following = ids([*RUN, "--changed-since", "HEAD"])
    assert {i for i in every if "[engine-" in i} <= following
    assert {i for i in following if "[reference-" in i} == {i for i in sampled if "[reference-" in i}


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
