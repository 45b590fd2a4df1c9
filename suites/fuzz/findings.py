"""What a fuzzing campaign found, in the forms a user acts on.

Each kind of failure is written out twice in results/fuzz/ (the run's --results-dir): as a spec
case ready to paste into specs/*.yaml (the shrunk program as `expr`, its inputs as an example,
the tolerance it was judged with, the observed message as a comment), and as a repro snippet
(suites/running/repro.py) that runs without Parity. A finding also becomes a record (kind `fuzz`), so
the report lists it with the rest.

Known findings: suites/fuzz/known.yaml lists kinds of failure already documented: by a spec
(the finding's case pasted there with its documented difference and upstream issue), or, where
no spec case can hold it, by its upstream source and why. A finding of that adapter and mode,
whose program calls the entry's ops and whose message matches it, is recorded as documented.
"""
import json
import pathlib
import re
import textwrap

import numpy as np
import yaml

from reports.records import record
from suites.running import repro
from suites.running.results import outcome_fields

KNOWN = pathlib.Path(__file__).with_name("known.yaml")


def load_known(path=KNOWN) -> list:
    """The known findings: entries with adapter, ops, message (a regular expression), note, a
    spec that documents it or else an upstream source, and optionally mode and check."""
    return yaml.safe_load(pathlib.Path(path).read_text()) or []


def known(finding, adapter: str, mode: str, entries: list) -> dict | None:
    """The entry that documents this finding, or None."""
    for entry in entries:
        if entry["adapter"] == adapter and entry.get("mode", mode) == mode \
                and entry.get("check", finding.check) == finding.check \
                and set(entry["ops"]) <= set(finding.spec.program.ops()) \
                and re.search(entry["message"], finding.outcome.message):
            return entry
    return None


def spec_case(finding, adapter: str, mode: str, programs: int) -> str:
    """The finding as a spec entry (YAML), ready to paste into a spec file."""
    spec, outcome = finding.spec, finding.outcome
    entry = {"id": spec.id, "doc": f"Found by Parity's fuzzer on {adapter} ({mode}, {spec.dtypes[0]}, the "
                                   f"{finding.check} check); seen {finding.seen} times in {programs} programs.",
             "expr": spec.expression, "args": spec.args, "dtypes": spec.dtypes}
    if finding.check == "gradient":
        entry["gradient"] = {"wrt": spec.wrt}
        entry["tolerance"] = {d: {k: float(v) for k, v in t.items()} for d, t in spec.tolerance.items()}
    entry["examples"] = [{"name": "found", "inputs": {k: {"values": np.asarray(v).tolist()}
                                                      for k, v in finding.inputs.items()}}]
    message = "\n".join(f"#   {line}" for line in textwrap.wrap(f"{outcome.status}: {outcome.message}", 96))
    return f"# {adapter} {mode}: what the fuzzer observed\n{message}\n" + yaml.safe_dump(
        [entry], sort_keys=False, width=100, default_flow_style=None)


def snippet(finding, adapter_cls, device: str, mode: str) -> str:
    """The repro snippet of the finding, or a comment saying why there is none."""
    spec = finding.spec
    dtypes = {k: spec.dtypes[0] for k in finding.inputs}
    title = f"fuzz finding {spec.id} on {adapter_cls.name} ({mode}): {finding.outcome.status}"
    try:
        return repro.snippet(adapter_cls, spec.program.tree, finding.inputs, dtypes, spec.dtypes[0], device, title,
                             spec.wrt if finding.check == "gradient" else (), mode)
    except repro.NoSnippet as exc:
        return f"# no standalone snippet: {exc}\n"


def write(folder, finding, adapter, mode: str, programs: int, code: str) -> pathlib.Path:
    """The finding's spec case and its snippet `code` under folder/fuzz/; returns the spec
    case's path."""
    out = pathlib.Path(folder) / "fuzz"
    out.mkdir(parents=True, exist_ok=True)
    stem = f"{adapter.name}-{mode}-{finding.spec.dtypes[0]}-{finding.spec.id}"
    (out / f"{stem}.py").write_text(code)
    path = out / f"{stem}.yaml"
    path.write_text(spec_case(finding, adapter.name, mode, programs))
    return path


def as_record(finding, adapter, device: str, mode: str, code: str, documented: dict | None,
              environment: dict) -> dict:
    """The finding as a result record of kind `fuzz` (its repro the snippet `code`): failing, or
    documented by a known entry."""
    outcome, spec = finding.outcome, finding.spec
    fields = outcome_fields(outcome, spec.dtypes[0])
    fields["message"] = (f"the {finding.check} of {spec.expression}: {outcome.message} (this kind seen "
                         f"{finding.seen} times)")
    if documented:
        where = documented.get("spec") or documented["source"]
        fields.update(status="documented", difference={"note": documented["note"], "source": where},
                      message=f"{fields['message']}; documented in {where}")
    return record(spec=f"fuzz/{spec.id}", case="fuzz", kind="fuzz", adapter=adapter.name, device=device,
                  dtype=spec.dtypes[0], mode=mode, **fields,
                  repro={adapter.name: {"code": code}},
                  versions={adapter.name: adapter.version()}, **environment)


def summary(findings: list) -> str:
    """One line per kind: the count, the check, the message's kind, the shrunk program."""
    def shapes(f):
        return json.dumps({k: list(np.shape(v)) for k, v in f.inputs.items()})

    return "\n".join(f"  {f.seen:4d}x {f.check}: {f.outcome.status}: {f.outcome.message[:160]}\n"
                     f"        {f.spec.expression}   inputs {shapes(f)}" for f in findings)


def merged(findings: list) -> list:
    """The findings with each one folded into a smaller one that explains it (Finding.explains)."""
    kept = []
    for f in sorted(findings, key=lambda f: len(f.key[2])):
        smaller = next((k for k in kept if k.explains(f.key)), None)
        if smaller is None:
            kept.append(f)
        else:
            smaller.seen += f.seen
    return kept

