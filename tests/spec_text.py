"""Specs written inline in a test: the YAML text, loaded as the runner loads a spec file."""
import textwrap

from suites.loading.specs import load_file


def first_spec(folder, text: str, name: str = "inline.yaml"):
    """The first spec of `text` (indented as in the test's source), written to folder/name."""
    path = folder / name
    path.write_text(textwrap.dedent(text))
    return load_file(path)[0]
