"""The bench's statistics: percentiles, a figure with its spread, ratios."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass


def percentile(values: Sequence[float], q: float) -> float:
    """The q-th percentile (0-100), interpolating between closest ranks."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@dataclass(frozen=True)
class Stat:
    """Median and p10-p90 of samples, and how many (for pooled cases the
    first figure is the mean of their medians: see ``pooled``). ``unit`` says
    how to print them: "ms" (samples in seconds), "/s" (rates), "B" (bytes)."""

    median: float
    p10: float
    p90: float
    n: int
    unit: str = "ms"

    @classmethod
    def of(cls, samples: Sequence[float], unit: str = "ms") -> Stat:
        return cls(percentile(samples, 50), percentile(samples, 10), percentile(samples, 90), len(samples), unit)

    @classmethod
    def pooled(cls, groups: Sequence[Sequence[float]], unit: str = "ms") -> Stat:
        """Several cases as one figure: the mean of their medians (what a
        move costs on average over the cases: stable where the median of
        all samples would jump between fast and slow cases), with the p10
        and p90 of all their samples."""
        if len(groups) == 1:
            return cls.of(groups[0], unit)
        every = [x for group in groups for x in group]
        center = sum(percentile(group, 50) for group in groups) / len(groups)
        return cls(center, percentile(every, 10), percentile(every, 90), len(every), unit)

    @classmethod
    def rates(cls, seconds_per_item: Sequence[float]) -> Stat:
        """Items per second, one rate per timed sample."""
        return cls.of([1 / s for s in seconds_per_item], "/s")


@dataclass(frozen=True)
class Ratio:
    """A ratio, or the median and p10-p90 of several (paired) ratios."""

    median: float
    p10: float | None = None
    p90: float | None = None

    @classmethod
    def of(cls, ratios: Sequence[float]) -> Ratio:
        if len(ratios) == 1:
            return cls(ratios[0])
        return cls(percentile(ratios, 50), percentile(ratios, 10), percentile(ratios, 90))
