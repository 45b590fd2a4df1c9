"""Which documented difference holds for a check: an entry of the spec's `differences` (or of the
file an adapter ships beside its module) for this adapter, case, dtype, device, mode, kind of
check and installed versions; and what kind of difference it documents (its regime), by which
the report groups it and a variant inherits it (suites/judging/differences.py judges by it)."""
import importlib.metadata

from packaging.specifiers import SpecifierSet
from packaging.version import InvalidVersion, Version

from suites.loading.spec_differences import kills, version_ranges


def find(ctx, case: str, kind: str = "value", crashes: bool = False) -> dict | None:
    """The documented difference for this adapter, case, dtype, device and kind of check; with
    `crashes`, the one that says the case kills its process (which the others never are: the
    item runs that case in a process of its own, where its outcome is judged as usual). An entry
    that lists the crash as one of its behaviours (one_of) is found either way: without
    `crashes`, as the process that returned judges it (its other behaviours)."""
    for diff in ctx.spec.differences:
        if not holds_for(diff, ctx.adapter, ctx.mode) or diff.get("case", case) != case:
            continue
        observed = diff["observed"]
        if (not kills(observed)) if crashes else observed.get("crashes"):  # crashes: those that may kill
            continue
        if diff.get("kind", "value") not in (kind, "any") or not at_version(diff.get("versions"), ctx.adapter):
            continue
        device, mode = "cpu" if ctx.device == "cpu" else "gpu", entry_mode(diff, ctx.adapter, ctx.mode)
        if ctx.dtype in diff.get("dtypes", [ctx.dtype]) and diff.get("device", device) == device \
                and diff.get("mode", mode) == mode:
            return diff if crashes else _survived(diff)
    return None


# What the traced program itself does, whichever runtime runs it (regime): a variant that runs a
# mode on a runtime of its own (Adapter.own_modes: tensorflow-litert) inherits only these of its
# base adapter's entries there; a kernel's special values and precision are that runtime's own,
# and so are defaults, which a converter may lower otherwise (LiteRT's l2_normalize).
PROGRAM_REGIMES = ("promotion", "semantics")


def holds_for(diff: dict, adapter, mode: str) -> bool:
    """Whether a documented difference holds for this adapter (or adapter class) in `mode`: an
    entry of its own, or one of its base adapter's (variant_of), which in the modes it runs on a
    runtime of its own (own_modes) must be of a program regime."""
    if diff["adapter"] == adapter.name:
        return True
    return diff["adapter"] == getattr(adapter, "variant_of", None) and (
        mode not in getattr(adapter, "own_modes", ()) or regime(diff) in PROGRAM_REGIMES)


def entry_mode(diff: dict, adapter, mode: str) -> str:
    """The mode an entry must name (or none) to hold in `mode`: a base adapter's entry, in a mode
    its variant runs on the base's kernels as the base runs another (Adapter.base_modes:
    torch-export's exported program runs torch's eager kernels), holds as in that one."""
    return mode if diff["adapter"] == adapter.name else getattr(adapter, "base_modes", {}).get(mode, mode)


def at_version(versions, adapter) -> bool:
    """Whether an entry's `versions` admit what runs: a range (a string) of the adapter's framework
    version (the first word of Adapter.version()), or ranges of named installed distributions."""
    for name, text in version_ranges(versions):
        installed = adapter.version().split()[0] if name is None else importlib.metadata.version(name)
        try:
            release = Version(installed)
        except InvalidVersion:
            raise ValueError(f"a difference's versions {text!r} range over {adapter.name}'s version, which is no "
                             f"release ({adapter.version()!r}): name the distribution ({{numpy: {text!r}}})") from None
        if not SpecifierSet(text).contains(release, prereleases=True):
            return False
    return True


def _survived(diff: dict) -> dict:
    """The entry as it judges a process that returned: the behaviours it lists but the crash."""
    options = [o for o in diff["observed"].get("one_of", []) if not o.get("crashes")]
    if len(options) == len(diff["observed"].get("one_of", [])):
        return diff
    return {**diff, "observed": options[0] if len(options) == 1 else {"one_of": options}}


def regime(diff: dict) -> str:
    """What kind of difference an entry documents (the report groups by it): its own `regime`,
    else precision, no-gradient, default or crash by what it observes, else the op's semantics."""
    observed = diff.get("observed", {})
    return diff.get("regime") or ("nondeterministic" if diff.get("kind") == "repeat" else
                                  "precision" if {"precision", "quantised"} & set(observed) else
                                  "no-gradient" if "no_gradient" in observed else
                                  "default" if "defaults" in observed else
                                  "crash" if kills(observed) else "semantics")
