"""python -m suites.benchmarks.ratios FILE.json: per benchmark group, each entry's median time
as a ratio to the group's baseline (the entry whose extra_info says baseline: true)."""
import json
import sys


def ratios(report: dict) -> list[str]:
    groups = {}
    for bench in report["benchmarks"]:
        groups.setdefault(bench["group"], []).append(bench)
    lines = []
    for group, benches in sorted(groups.items()):
        base = next((b for b in benches if b.get("extra_info", {}).get("baseline")), None)
        for b in sorted(benches, key=lambda b: b["stats"]["median"]):
            median = b["stats"]["median"]
            ratio = f"{median / base['stats']['median']:.2f}x {base['name']}" if base and b is not base else "baseline"
            extra = {k: v for k, v in b.get("extra_info", {}).items() if k != "baseline"}
            lines.append(f"{group}: {b['name']}: median {median * 1e3:.3f} ms "
                         f"(IQR {b['stats']['iqr'] * 1e3:.3f} ms, {b['stats']['rounds']} rounds); {ratio}"
                         + (f"; {extra}" if extra else ""))
    return lines


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m suites.benchmarks.ratios FILE.json", file=sys.stderr)
        return 2
    with open(argv[0]) as f:
        print("\n".join(ratios(json.load(f))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
