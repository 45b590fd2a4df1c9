"""The documentation site (mkdocs.yml, docs/) builds with warnings as errors, as `tox -e docs` and
the workflow build it: a broken link, a missing anchor or a page left out of the navigation fails
here. The README stays what a newcomer reads on one screen or two, and its links lead somewhere."""
import os
import pathlib
import re
import shutil
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
README_LINES = 150  # issue 42: what Parity is, the two commands, the options, where to go next


def build(root, out):
    return subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(out)], cwd=root,
                          capture_output=True, text=True, timeout=300, env={**os.environ, "NO_MKDOCS_2_WARNING": "1"})


def test_the_site_builds_with_warnings_as_errors(tmp_path):
    done = build(ROOT, tmp_path / "site")
    assert done.returncode == 0, done.stdout + done.stderr
    for page in ("index.html", "getting-started/index.html", "from-your-project/index.html",
                 "vocabulary/index.html", "architecture/index.html"):
        assert (tmp_path / "site" / page).is_file(), page


def test_a_broken_link_fails_the_build(tmp_path):
    shutil.copytree(ROOT / "docs", tmp_path / "docs")
    shutil.copy(ROOT / "mkdocs.yml", tmp_path)
    page = tmp_path / "docs" / "modes.md"
    page.write_text(page.read_text() + "\nSee [the missing page](no-such-page.md).\n")
    done = build(tmp_path, tmp_path / "site")
    assert done.returncode != 0 and "no-such-page.md" in done.stdout + done.stderr, done.stdout + done.stderr


def test_the_readme_fits_two_screens_and_its_links_lead_somewhere():
    text = (ROOT / "README.md").read_text()
    assert len(text.splitlines()) < README_LINES
    links = re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", text)
    assert links, "the README leads to the docs"
    assert [link for link in links if not link.startswith("http") and not (ROOT / link).exists()] == []
