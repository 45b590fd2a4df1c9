"""Hostile and generated spec documents: the loader accepts each or refuses it in one line, never
with a traceback and never by hanging (billion laughs, deep nesting, recursive aliases are in the
malformed corpus, tests/specs/malformed/yaml-*.yaml).

The fuzz starts from the real specs and mutates them: a random place in a spec (a key's value, a
list item) gets a random JSON value, or loses its key. hypothesis-jsonschema, which would draw
documents from specs/schema.json, cannot: the schema's recursive references (`nested`, `expect`)
are beyond it, and with them bounded it took minutes per example and then failed inside its
oneOf / not handling. Mutants of real specs reach the loader's checks after the schema as well."""
import copy
import os
import pathlib
import subprocess
import sys

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from suites.loading import yamlfile
from suites.loading.specs import SpecError, load_file

ROOT = pathlib.Path(__file__).resolve().parent.parent
ENTRIES = [entry for f in sorted((ROOT / "specs").glob("*.yaml")) for entry in yaml.safe_load(f.read_text())]
JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**12, 10**12) | st.floats(allow_nan=False)
                    | st.text(max_size=12), lambda inner: st.lists(inner, max_size=4)
                    | st.dictionaries(st.text(max_size=10), inner, max_size=4), max_leaves=8)


def similar(value):
    """Values of the same kind as `value`: what passes the schema and reaches the later checks."""
    if isinstance(value, bool):
        return st.booleans()
    if isinstance(value, int):
        return st.integers(-2**40, 2**40) | st.sampled_from([0, -1, 1, 7, 2**31, 10**9])
    if isinstance(value, float):
        return st.floats()
    if isinstance(value, str):
        return st.text(max_size=30) | st.sampled_from(
            ["x", "a", "matmul(a, b)", "sum(x, axis=(0, 0))", "pad(x, ((1, 1),))", "x(", "a.T", "(n),(n)->()",
             "(m?,n),(n,p?)->(m?,p?)", "(n)->(n)", "()->()", "b * t * i", "1 / 0", "float32", "hypothesis"])
    if isinstance(value, list):
        return st.lists(similar(value[0]) if value else JSON, max_size=6)
    if isinstance(value, dict):
        return st.fixed_dictionaries({k: similar(v) for k, v in value.items()})
    return JSON


def places(node, path=()):
    """Every (container, key) in a document, for a mutation to pick from."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for key, value in items:
        yield path + (key,)
        yield from places(value, path + (key,))


# 300 mutants in CI (about 8 s); PARITY_FUZZ_EXAMPLES=3000 searches longer (3000 found nothing)
@settings(max_examples=int(os.environ.get("PARITY_FUZZ_EXAMPLES", 300)), deadline=None,
          suppress_health_check=list(HealthCheck), database=None)
@given(st.sampled_from(ENTRIES), st.data())
def test_every_mutant_of_a_real_spec_loads_or_is_refused_in_one_line(tmp_path_factory, entry, data):
    document = copy.deepcopy(entry)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(list(places(document))))
        *parents, key = path
        container = document
        for step in parents:
            container = container[step]
        if isinstance(container, dict) and data.draw(st.booleans()):
            del container[key]
        else:
            container[key] = data.draw(similar(container[key]) | JSON)
    path = tmp_path_factory.mktemp("fuzz") / "mutant.yaml"
    path.write_text(yaml.safe_dump([document]))
    try:
        load_file(path)
    except SpecError as exc:
        assert "\n" not in str(exc) and str(exc).startswith(f"{path}:"), str(exc)


def test_a_file_too_large_is_refused_before_it_is_parsed(tmp_path):
    path = tmp_path / "large.yaml"
    path.write_text("# " + "x" * yamlfile.MAX_BYTES + "\n- id: x\n")
    run = subprocess.run([sys.executable, "-m", "suites", "validate", str(path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=60)
    assert run.returncode == 2 and run.stderr.strip() == f"{path}:1: (top level): larger than 2,000,000 bytes"


def test_legitimate_aliases_still_load():
    """The specs share difference entries through anchors and aliases (lstm.yaml, autograd.yaml)."""
    lstm = load_file(ROOT / "specs" / "lstm.yaml")
    shared = [d for s in lstm for d in s.differences if d["adapter"] == "keras-jax"]
    assert len(shared) >= 3 and all(d["observed"] == {"precision": "float32"} for d in shared)
