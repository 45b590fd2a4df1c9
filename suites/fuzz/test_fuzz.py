"""Fuzzing as pytest items: one campaign per adapter, device, dtype and mode (`tox -e fuzz`).

    pytest suites/fuzz -n 2 --fuzz-minutes 60 [--adapter torch,jax] [--mode compiled] [--dtype float32]

--fuzz-minutes is the wall time of the whole run: each item gets its share (minutes x workers /
items). The dtype is float32 unless --dtype says otherwise; the reference is the oracle, not a
target. An item fails when it finds a kind of failure that suites/fuzz/known.yaml does not
document; each kind is written to <results-dir>/fuzz/ as a spec case and a repro, and recorded.
"""
import zlib

import pytest

import adapters
from suites.fuzz import findings
from suites.fuzz.campaign import Campaign
from suites.loading.spec_differences import every_spec_differences
from suites.running.items import resolve_device, runs


def targets(config) -> list:
    parity = config.parity
    classes = adapters.classes()
    return [(name, device, dtype, mode) for name in parity.adapters if name != "reference"
            for mode in parity.modes if name in classes and runs(classes[name], None, mode)  # a program of no area
            for device in parity.devices for dtype in parity.dtypes or ["float32"]]


def pytest_generate_tests(metafunc):
    if "target" in metafunc.fixturenames:
        chosen = targets(metafunc.config)
        metafunc.parametrize("target", chosen, ids=["-".join(t) for t in chosen])


def test_fuzz(target, request):
    config = request.config
    minutes = config.getoption("fuzz_minutes")
    if minutes is None:
        pytest.skip("fuzzing runs with --fuzz-minutes M (tox -e fuzz)")
    name, device, dtype, mode = target
    try:
        adapter = adapters.get(name)
    except adapters.AdapterError as exc:
        pytest.skip(str(exc))
    workers = getattr(config, "workerinput", {}).get("workercount", 1)
    seconds = minutes * 60 * workers / len(targets(config))
    shipped = type(adapter).differences_file()
    campaign = Campaign(adapter, resolve_device(adapter, device), dtype, mode,
                        differences=every_spec_differences(shipped, name) if shipped else [])
    parity = config.parity
    found = findings.merged(campaign.run(seconds, zlib.crc32(f"{parity.seed}:{request.node.name}".encode())))
    entries, new = findings.load_known(), []
    for finding in found:
        documented = findings.known(finding, name, mode, entries)
        code = findings.snippet(finding, type(adapter), campaign.device, mode)
        findings.write(parity.results_dir, finding, adapter, mode, campaign.programs, code)
        parity.recorder.write(findings.as_record(finding, adapter, campaign.device, mode, code, documented,
                                                 parity.environment))
        new += [] if documented else [finding]
    stats = (f"{campaign.programs} programs in {seconds / 60:.1f} min ({campaign.refused} refused, gradients of "
             f"{campaign.kinks} not checked: on a kink)")
    if new:
        pytest.fail(f"{len(new)} new kind(s) of failure in {stats}; spec cases and repros in "
                    f"{parity.results_dir}/fuzz/:\n{findings.summary(new)}", pytrace=False)
    print(f"{name} {mode} {dtype}: {stats}; {len(found)} known kind(s)")
