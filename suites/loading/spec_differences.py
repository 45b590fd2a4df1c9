"""Documented-difference entries: the checks a schema cannot make of them (a spec's own, through
suites/loading/specs.py), and the files an adapter ships beside its module (`load_differences`).

Every problem is a SpecError naming the file, the line and the key, as the spec loader's are.
"""
import dataclasses
import json
import pathlib
import re

import jsonschema
from packaging.specifiers import InvalidSpecifier, SpecifierSet

import adapters
from reports.records import REPEAT_CASES
from suites.loading.yamlfile import SpecError, read
from suites.loading.yamlfile import where as locate
from suites.programs.inputs import drawn as drawn_input

PROJECT = pathlib.Path(__file__).resolve().parents[2]
SCHEMA_PATH = PROJECT / "specs" / "schema.json"  # specs and entries
ENGINE = PROJECT / "engine"  # what an engine/... source names


def drawn(examples: list) -> dict:
    """The examples (name, dict of inputs by name, documented gradients or None) whose check draws
    what it compares, by kind, so that `differs` may document them as a generated case: "value",
    those some of whose values are drawn (a `shape` filled normal or uniform: like generated cases,
    their values appear nowhere in the spec); "gradient", those too and every example without
    documented gradients (finite differences along random directions, drawn from the run's seed)."""
    values = {name for name, inputs, _ in examples if any(map(drawn_input, inputs.values()))}
    return {"value": values, "gradient": values | {name for name, _, grad in examples if not grad}}


def kills(observed: dict) -> bool:
    """Whether an entry says the case kills its process: always (`crashes`), or on some runs, as
    one of the behaviours it lists (`one_of`: a corrupted heap aborts the process or not)."""
    return bool(observed.get("crashes")) or any(o.get("crashes") for o in observed.get("one_of", []))


def check_differences(entries: list, cases: set, where, drawn_cases: dict | None = None,
                      beside: pathlib.Path | None = None) -> None:
    """What a schema cannot say of difference entries; `where(j, *keys)` locates entry j;
    `drawn_cases`: the examples whose checks draw their values, by kind (drawn()), which `differs`
    may document; `beside`: the adapter's differences file they are in (None: a spec's), whose
    repros they may cite."""
    for j, diff in enumerate(entries):
        diff["note"] = diff["note"].strip()  # a folded note (>) ends in a newline
        check_source(diff["source"], beside, lambda: where(j, "source"))
        check_versions(diff.get("versions"), lambda *keys: where(j, "versions", *keys))
        if diff.get("kind") == "repeat":
            check_repeat(diff, lambda *keys: where(j, *keys))
            continue
        if "case" in diff and diff["case"] not in cases:
            raise SpecError(f"{where(j, 'case')}: no example named {diff['case']!r}")
        if kills(diff["observed"]) and (diff.get("case") is None or diff.get("case") == "hypothesis"
                                                and diff.get("kind", "value") != "value"):
            raise SpecError(f"{where(j, 'observed', 'crashes')}: names the example that kills the process (case:), "
                            "which then runs in a process of its own, or the generated cases of a value check "
                            "(case: hypothesis: some draws kill it, and they run in a process of their own)")
        drawn_here = (drawn_cases or {}).get("gradient" if diff.get("kind") == "gradient" else "value", set())
        if diff["observed"].get("differs") and diff.get("case") not in {"hypothesis", *drawn_here}:
            raise SpecError(f"{where(j, 'observed', 'differs')}: is for case: hypothesis (generated inputs), an "
                            "example whose values are drawn (a shape filled normal or uniform), or the gradient of an "
                            "example without documented gradients (random directions); an example with values "
                            "documents the value it observes")
        if "defaults" in diff["observed"] and (diff.get("case") in (None, "hypothesis") or len(diff["observed"]) > 1
                                               or diff.get("kind", "value") != "value"):
            raise SpecError(f"{where(j, 'observed', 'defaults')}: names an example the default shows in (case:; "
                            "generated inputs may be ones where both agree), stands alone in observed, of a value")
        precision = diff["observed"].get("precision")
        if precision is not None and (precision not in ("float16", "float32") or len(diff["observed"]) > 1):
            raise SpecError(f"{where(j, 'observed', 'precision')}: names the narrower dtype a framework computes in "
                            "(float16 or float32), and stands alone in observed")
        if "quantised" in diff["observed"] and len(diff["observed"]) > 1:
            raise SpecError(f"{where(j, 'observed', 'quantised')}: names the quantisation a runtime computes a "
                            "model's layers with (int8), and stands alone in observed")
        if diff.get("regime") == "compiler" and diff.get("mode") not in ("compiled", "exported"):
            raise SpecError(f"{where(j, 'regime')}: compiler is what a framework's compiler or exporter alone does "
                            "(its eager run is right): the entry names mode: compiled or mode: exported")
        if diff.get("kind") == "any" and precision is None:
            raise SpecError(f"{where(j, 'kind')}: any is for an observed precision (values and gradients alike); a "
                            "value or a gradient is observed by one kind")


def version_ranges(versions) -> list:
    """An entry's `versions` as (distribution name, or None for the adapter's framework, range)."""
    if isinstance(versions, dict):
        return list(versions.items())
    return [(None, versions)] if versions else []


def check_versions(versions, where) -> None:
    """An entry's `versions`: PEP 440 ranges ("<2.15"), for its adapter's framework or by
    distribution name."""
    for name, text in version_ranges(versions):
        try:
            SpecifierSet(text)
        except InvalidSpecifier:
            keys = (name,) if name else ()
            raise SpecError(f"{where(*keys)}: takes a PEP 440 version range such as \"<2.15\" or \">=2.14,<2.15\". "
                            f"Received: {text!r}") from None


def check_repeat(diff: dict, where) -> None:
    """An entry of the repeat check names its condition (case), or none for every condition, and
    observes that the result is not bitwise repeatable there (differs) or that the determinism
    switch refuses (raises)."""
    if diff.get("case", REPEAT_CASES[0]) not in REPEAT_CASES:
        raise SpecError(f"{where('case')}: a repeat entry names its condition, one of {', '.join(REPEAT_CASES)}, "
                        "or none (every condition)")
    options = diff["observed"].get("one_of", [diff["observed"]])
    if not all(set(o) <= {"differs", "raises", "as_expected"} for o in options):
        raise SpecError(f"{where('observed')}: a repeat entry observes differs (not bitwise repeatable) or raises "
                        "(the switch refuses), or one_of them with as_expected")


EVERY_SPEC = "*"  # in an adapter's differences file: entries for every spec


def shipped(names: list, specs: list) -> list:
    """The specs with the differences that the named adapters ship beside their modules (their
    differences files), and those their bases ship (variant_of, wherever the variant is defined:
    a base's entries are the variant's, suites/judging/entries.py), each file once, as every run
    judges them: pytest's and the multi-process launcher's."""
    classes, loaded = adapters.classes(), set()
    for name in names:
        while name in classes and name not in loaded:
            loaded.add(name)
            path = classes[name].differences_file()
            if path is not None:
                specs = load_differences(path, name, specs)
            name = classes[name].variant_of
    return specs


def load_differences(path, adapter: str, specs: list) -> list:
    """The specs with the differences that an adapter ships in `path` (a YAML mapping of spec
    names, area/id, to lists of entries in the schema of a spec's `differences`; `adapter` may be
    left out, and names this adapter when given) added to their own. The name "*" documents a
    convention of the adapter's as a whole (JAX's 32-bit default): its entries, which name no
    case, apply to every spec, only where a case fails (a pass stays a pass)."""
    shipped, everywhere = _read_differences(path, adapter, {spec.name: spec for spec in specs})
    return [dataclasses.replace(s, differences=s.differences + shipped.get(s.name, []) + everywhere)
            if s.name in shipped or everywhere else s for s in specs]


def every_spec_differences(path, adapter: str) -> list:
    """An adapter's entries for every spec (the name "*"), for programs in no spec (suites/fuzz)."""
    return _read_differences(path, adapter, {})[1]


def check_source(source: str, beside: pathlib.Path | None, where) -> None:
    """A source is a link (https://), the engine's own files (engine/ops.py (floor), as many as it
    names: each a file inside engine/), or, in an adapter's file (`beside`), a repro shipped beside
    it: a path relative to that file. A named file must exist and stay in its folder once its
    links are followed: engine/../../x and a link out of repro/ are refused."""
    if source.startswith("https://"):
        return
    if source.startswith("engine/"):
        outside = [name for name in re.findall(r"engine/[^\s,()]+", source) if not _within(PROJECT / name, ENGINE)]
        if outside:
            raise SpecError(f"{where()}: an engine source names files inside engine/ that exist. Received: "
                            f"{', '.join(outside)}")
        return
    if beside is None or pathlib.PurePath(source).is_absolute() or not _within(beside.parent / source, beside.parent):
        place = f"a repro file beside {beside.name} (a path relative to it, within its folder)" if beside else \
            "engine/... (the engine's own files)"
        raise SpecError(f"{where()}: a source is an https:// link or {place}. Received: {source!r}")


def _within(path: pathlib.Path, folder: pathlib.Path) -> bool:
    """Whether `path`, its links followed, is a file inside `folder`."""
    resolved = path.resolve()
    return resolved.is_file() and resolved.is_relative_to(folder.resolve())


def _read_differences(path, adapter: str, by_name: dict) -> tuple:
    """(spec name -> entries for the specs of `by_name`, the entries for every spec), validated."""
    path = pathlib.Path(path)
    node, data = read(path)
    if not isinstance(data, dict):
        raise SpecError(f"{path}:1: (top level): a mapping of spec names (area/id) to lists of differences")
    schema = json.loads(SCHEMA_PATH.read_text())
    # an adapter's file may cite a repro it ships beside itself (a bug its own runs found): a path
    schema["$defs"]["difference"]["properties"]["source"] = {"type": "string", "minLength": 1}
    validator = jsonschema.Draft202012Validator({"$defs": schema["$defs"], "$ref": "#/$defs/difference"})
    shipped, everywhere = {}, []
    for name, entries in data.items():
        entries = [{"adapter": adapter, **e} if isinstance(e, dict) else e for e in entries or []]
        for j, entry in enumerate(entries):
            err = jsonschema.exceptions.best_match(validator.iter_errors(entry))
            if err is not None:
                raise SpecError(f"{locate(path, node, [name, j, *err.absolute_path])}: {err.message[:300]}")
            if entry["adapter"] != adapter:
                raise SpecError(f"{locate(path, node, [name, j, 'adapter'])}: an adapter's file documents its own "
                                f"adapter, {adapter!r}. Received: {entry['adapter']!r}")
        if name == EVERY_SPEC:
            for j, entry in enumerate(entries):
                if "case" in entry and entry.get("kind") != "repeat":  # a repeat condition is every spec's
                    raise SpecError(f"{locate(path, node, [name, j, 'case'])}: an entry for every spec names no case "
                                    "but a repeat check's condition (kind: repeat)")
            check_differences(entries, set(), lambda j, *keys: locate(path, node, [name, j, *keys]), beside=path)
            everywhere = [{**e, "every_spec": True} for e in entries]
            continue
        if name not in by_name:
            continue  # a spec this run does not load (another --spec)
        cases = {e.name for e in by_name[name].examples} | ({"hypothesis"} if by_name[name].generated else set())
        check_differences(entries, cases, lambda j, *keys: locate(path, node, [name, j, *keys]),
                          drawn([(e.name, e.inputs, e.grad) for e in by_name[name].examples]), beside=path)
        shipped[name] = entries
    return shipped, everywhere
