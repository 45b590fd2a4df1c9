"""Statistics of benchmark samples that survive a shared machine: bootstrap intervals for medians
and their ratios, and the Mann-Whitney U test asked before a change between two runs is called
real (`python -m suites.benchmarks compare`, `python -m reports diff`, the report's changes).
NumPy only: the samples are per-round seconds that pytest-benchmark keeps (`--benchmark-save-data`).
It lives in reports/ because the report reads benchmark files and never imports suites/."""
import math

import numpy as np

CONFIDENCE = 0.95
RESAMPLES = 2000
SIGNIFICANCE = 0.05  # compare: a change counts where the rank test's p is below this too


BOOTSTRAP_LIMIT = 5000  # beyond this many samples, the order-statistic interval (the bootstrap's cost grows with n)
CHUNK = 100  # resamples drawn at a time: memory stays CHUNK x n


def _resampled_medians(samples, rng) -> np.ndarray:
    samples = np.asarray(samples, dtype=float)
    return np.concatenate([np.median(samples[rng.integers(0, samples.size, size=(CHUNK, samples.size))], axis=1)
                           for _ in range(RESAMPLES // CHUNK)])


def _interval(values: np.ndarray) -> list:
    tail = (1 - CONFIDENCE) / 2 * 100
    return [float(np.percentile(values, tail)), float(np.percentile(values, 100 - tail))]


def median_interval(samples, seed: int = 0) -> list:
    """The bootstrap (percentile) 95% interval of the samples' median; for more than
    BOOTSTRAP_LIMIT samples (a no-op timed 100 000 times), the distribution-free interval between
    the order statistics n/2 -+ 1.96 sqrt(n)/2, which the bootstrap's approaches as n grows."""
    samples = np.sort(np.asarray(samples, dtype=float))
    if samples.size <= BOOTSTRAP_LIMIT:
        return _interval(_resampled_medians(samples, np.random.default_rng(seed)))
    half = 1.959964 * math.sqrt(samples.size) / 2
    low, high = int(math.floor(samples.size / 2 - half)), int(math.ceil(samples.size / 2 + half))
    return [float(samples[max(low, 0)]), float(samples[min(high, samples.size - 1)])]


def ratio_interval(samples, reference, seed: int = 0) -> list:
    """The bootstrap 95% interval of median(samples) / median(reference), each resampled on its
    own (at most BOOTSTRAP_LIMIT of each, evenly spaced in time, so the cost stays bounded)."""
    rng = np.random.default_rng(seed)
    a, b = (_thinned(x) for x in (samples, reference))
    return _interval(_resampled_medians(a, rng) / _resampled_medians(b, rng))


def _thinned(samples) -> np.ndarray:
    samples = np.asarray(samples, dtype=float)
    step = -(-samples.size // BOOTSTRAP_LIMIT)
    return samples[::step]


def mann_whitney_p(a, b) -> float:
    """Two-sided p of the Mann-Whitney U test (normal approximation with the tie correction and a
    continuity correction): how likely samples this far apart in rank are from one distribution."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    n1, n2 = a.size, b.size
    if n1 == 0 or n2 == 0:
        return 1.0
    both = np.concatenate([a, b])
    order = np.argsort(both, kind="mergesort")
    ranks = np.empty(both.size)
    ranks[order] = np.arange(1, both.size + 1)
    values, inverse, counts = np.unique(both, return_inverse=True, return_counts=True)
    ranks = np.bincount(inverse, weights=ranks) / counts  # tied values share their mean rank
    ranks = ranks[inverse]
    u = ranks[:n1].sum() - n1 * (n1 + 1) / 2
    n = n1 + n2
    ties = float(((counts ** 3) - counts).sum())
    variance = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if variance <= 0:
        return 1.0
    z = (abs(u - n1 * n2 / 2) - 0.5) / math.sqrt(variance)
    return float(math.erfc(max(z, 0.0) / math.sqrt(2)))


def change(old: dict, now: dict, threshold: float) -> dict | None:
    """How one benchmark's median moved between two runs (pytest-benchmark `stats` dicts), where it
    moved by more than `threshold` and the change is also real: with both runs' raw samples, the
    Mann-Whitney U test's p below SIGNIFICANCE (`why` gives the ratio's bootstrap 95% interval);
    without them, a move beyond the sum of the two IQRs (relative to the base median). None otherwise."""
    if not old.get("median") or not now.get("median"):
        return None
    moved = now["median"] / old["median"] - 1
    if old.get("data") and now.get("data"):
        p = mann_whitney_p(old["data"], now["data"])
        low, high = ratio_interval(now["data"], old["data"])
        real, why = p < SIGNIFICANCE, f"p {p:.2g}, ratio {moved + 1:.3f} [{low:.3f}, {high:.3f}]"
    else:
        noise = ((old.get("iqr") or 0) + (now.get("iqr") or 0)) / old["median"]
        real, why = abs(moved) > noise, f"noise {noise:.1%}"
    if abs(moved) <= threshold or not real:
        return None
    return {"change": moved, "why": why, "slower": moved > 0}
