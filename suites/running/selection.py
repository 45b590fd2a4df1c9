"""Which items a spec yields and which of them a run keeps: the kinds of check and the dtypes
they run in (suites/running/items.py collects them), what always runs, and the share of the rest that
--share draws (conftest.py)."""
import json
import pathlib
import zlib

import numpy as np

import adapters
from suites.judging import entries
from suites.programs import inputs
from suites.running import repeat


def kinds_of(spec):
    """(kind, generated) of the items a spec yields: its explicit examples' values (a collective's
    named shards), generated value cases, the examples' gradients and generated cases' gradients
    (two items, so that the share never drops a documented gradient with the generated ones),
    a model's training steps."""
    yield from ([("collective" if spec.collective else "example", False)] if spec.examples else [])
    yield from ([("property", True)] if spec.generated else [])
    if spec.gradient:
        # an example's gradient item also where no example differentiates, unless generated cases
        # do: an item that checks nothing is an error, never silence (SpecItem.runtest)
        yield from ([("gradient", False)] if spec.examples and (gradient_examples(spec) or not spec.generated)
                    else [])
        yield from ([("gradient", True)] if spec.generated else [])
    yield from ([("training", False)] if getattr(spec.program, "training", None) and spec.examples else [])
    yield from ([("repeat", False)] if spec.benchmark and not spec.collective else [])  # suites/running/repeat.py


def item_dtypes(spec, kind: str, generated: bool) -> list:
    """The dtypes a spec's items of this kind run in: generated cases in the spec's (or its
    gradient's) own; explicit examples also in every dtype an example names, so that no example
    is left out because the spec's list lacks its dtype; an example item only in the dtypes where
    an example runs, unless no item would run that dtype at all (which then errors as checking
    nothing). Gradients and training steps run in the floating-point dtypes only (finite
    differences and SGD steps need real numbers), but for the examples with documented gradients
    in another (gradient_examples)."""
    if kind == "repeat":
        return repeat.dtypes(spec)
    own = spec.gradient_dtypes if kind == "gradient" else spec.dtypes
    if kind in ("gradient", "training"):
        own = [d for d in own if d.startswith(("float", "bfloat"))]
    if generated or kind == "training":
        return list(own)
    if kind == "gradient":
        runs = {d for example, d in gradient_examples(spec)}
    else:
        runs = {d for e in spec.examples for d in e.dtypes or spec.dtypes}
    covered = spec.generated is not None
    return [d for d in adapters.base.ALL_DTYPES if d in runs or d in own and not covered]


def gradient_examples(spec) -> list:
    """(example, dtype) of the explicit examples whose gradients an item checks: every dtype it
    runs in of the gradient's dtypes and the ones it names, but for an example that expects an
    error or (without documented gradients) has non-finite inputs or integer ones: finite
    differences need finite, real inputs, special values are value checks; none where the spec's
    gradient says `examples: false` (its examples sit on domains' edges). An example with
    documented gradients runs in an integer dtype too: what a framework does when asked for an
    integer input's gradient is its own answer (autograd/integer-input)."""
    key = (spec.file, spec.id)
    if spec.gradient.get("examples") is False:  # the spec's examples are value checks (special cases)
        return []
    if key not in _GRADIENT_EXAMPLES:
        dtypes = set(spec.gradient_dtypes) | ({d for e in spec.examples for d in e.dtypes or ()}
                                              if "dtypes" not in spec.gradient else set())
        _GRADIENT_EXAMPLES[key] = [
            (e, d) for e in spec.examples for d in adapters.base.ALL_DTYPES
            if d in dtypes and (d.startswith(("float", "bfloat")) or e.grad) and e.runs_in(d, spec.dtypes)
            and not e.expect.get("raises") and (e.grad or _finite(inputs.example(spec, e, d)))]
    return _GRADIENT_EXAMPLES[key]


_GRADIENT_EXAMPLES = {}  # (spec file, spec id) -> gradient_examples(spec): made once per process


def _finite(case: dict) -> bool:
    return all(np.isfinite(v).all() for v in case.values() if v.dtype.kind == "f")


def shared(items: list, share: float, seed: int, documented: bool = True) -> tuple[list, list]:
    """(kept, dropped): every item that is not a spec's, every item that always runs
    (SpecItem.example: the explicit examples and their gradients, eagerly; SpecItem.documented:
    what a documented difference names, unless documented=False: --share-documented); of the
    others (generated checks, the compiled mode, training) a share in each (area, adapter, mode):
    with k = 1 / share, every k-th member in the order of a hash of its id, starting at the seed's
    place (at least one). The same seed keeps the same items; k successive seeds (the ci
    profile's: commits) keep every item exactly once."""
    groups, kept = {}, []
    for item in items:
        if not hasattr(item, "spec") or item.example or documented and item.documented:
            kept.append(item)  # an item that is not a spec's runs
        else:
            groups.setdefault((item.spec.area, item.adapter_name, item.mode), []).append(item)
    every = max(1, round(1 / share))
    for members in groups.values():
        members.sort(key=lambda i: (zlib.crc32(i.nodeid.encode()), i.nodeid))
        kept += members[seed % every::every] or [members[seed % len(members)]]
    chosen = set(map(id, kept))
    return [i for i in items if id(i) in chosen], [i for i in items if id(i) not in chosen]


def documents(spec, adapter: str, kind: str, generated: bool, mode: str, dtype: str) -> bool:
    """Whether a documented difference of the spec is shown by such an item: an entry for the
    adapter (or the framework it is a variant of), this kind of check and dtype, and the item's
    mode (eager where the entry names none: the eager item shows it), that names one of the
    item's cases ("hypothesis" for generated ones), or is compile-only for every case (the
    compiled examples show it); a repeat or training item, by any entry of its own kind."""
    cls = adapters.classes().get(adapter) or type("Absent", (), {"name": adapter})  # not installed
    whole = kind in ("repeat", "training")  # an entry of the kind names the item, whatever its case
    kinds = (kind,) if whole else ("gradient" if kind == "gradient" else "value", "any")
    cases = {"hypothesis"} if generated else {e.name for e in spec.examples}
    for diff in spec.differences:
        if not entries.holds_for(diff, cls, mode) or diff.get("kind", "value") not in kinds:
            continue
        named = entries.entry_mode(diff, cls, mode)  # the mode the entry must name (a variant: base_modes)
        if diff.get("mode", "eager") != named or dtype not in diff.get("dtypes", [dtype]):
            continue
        if whole or diff.get("case") in cases or "case" not in diff and named != "eager" and not generated:
            return True
    return False


def write_manifest(folder, run: int, items: list, selected: list, kept: list, share: float, seed: int, shard=None,
                   changed=None, changed_left: int = 0, paths=(), keyword: str = "") -> None:
    """selection-<run>.json beside a run's results (run: its pytest process' id): how many spec
    items it collected, from which paths (relative to the project) and under which -k, selected
    (by the share) and kept (its shard of them), with which share, seed, shard and --changed-since
    (and how many items it touched that --changed-limit left to the share), and the items the
    share dropped that a documented difference names (a repeat or training entry, which the share
    alone draws; with --share-documented, any), so that the page says what share of the suite it
    holds and which documented behaviours it lacks
    (reports/build.py: read_selection)."""
    specs = [i for i in items if hasattr(i, "spec")]
    if not specs:
        return
    chosen = set(map(id, selected))
    dropped = [i for i in specs if id(i) not in chosen]
    data = {"collected": len(specs), "paths": sorted(paths), "keyword": keyword,
            "kept": sum(hasattr(i, "spec") for i in kept), "share": share, "seed": seed,
            "shard": shard and f"{shard[0]}/{shard[1]}", "changed_since": changed.rev if changed else None,
            "changed_left": changed_left,
            "lacking": sorted(i.nodeid for i in dropped
                              if documents(i.spec, i.adapter_name, i.kind, i.generated, i.mode, i.dtype))}
    folder = pathlib.Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"selection-{run}.json").write_text(json.dumps(data, indent=1), encoding="utf-8")

