"""Intervals for the figures that simulations report, so that noise is not read as a finding.

Proportions get a Wilson score interval; means a normal interval; paired differences (a base
and a variant played on the same seeds) a normal interval on the per-seed differences, and paired
yes/no outcomes McNemar's test. All at 95%: ±2 points on a win rate needs about 2,400 games.
"""

from __future__ import annotations

import math
import statistics

import attrs

Z95 = 1.959963984540054  # the two-sided 95% point of the normal distribution
CHI2_95_1DF = 3.841458820694124  # McNemar's statistic beyond this: significant at 95%


@attrs.frozen
class Interval:
    """An estimate with its 95% interval."""

    value: float
    low: float
    high: float

    @property
    def excludes_zero(self) -> bool:
        return self.low > 0 or self.high < 0

    def to_json(self) -> dict:
        return {"value": self.value, "low": self.low, "high": self.high}


def wilson(successes: int, n: int) -> Interval:
    """The share `successes / n` with its Wilson score interval (good near 0 and 1 and for small n)."""
    if n <= 0:
        return Interval(0.0, 0.0, 1.0)
    p = successes / n
    denom = 1 + Z95 ** 2 / n
    centre = (p + Z95 ** 2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / denom
    return Interval(p, max(0.0, centre - half), min(1.0, centre + half))


def mean(values: list) -> Interval:
    """The mean with a normal 95% interval (a single value, or values all equal: no spread)."""
    if not values:
        return Interval(0.0, 0.0, 0.0)
    m = statistics.fmean(values)
    if len(values) < 2:
        return Interval(m, m, m)
    half = Z95 * statistics.stdev(values) / math.sqrt(len(values))
    return Interval(m, m - half, m + half)


def paired_difference(base: list, variant: list) -> Interval:
    """The mean of the per-seed differences `variant - base`, with its interval."""
    return mean([v - b for b, v in zip(base, variant)])


@attrs.frozen
class McNemar:
    """Paired yes/no outcomes: how often only the base had it (`base_only`), only the variant."""

    base_only: int
    variant_only: int

    @property
    def statistic(self) -> float:
        discordant = self.base_only + self.variant_only
        if discordant == 0:
            return 0.0
        return (abs(self.base_only - self.variant_only) - 1) ** 2 / discordant  # with continuity correction

    @property
    def significant(self) -> bool:
        return self.statistic > CHI2_95_1DF


def mcnemar(base: list, variant: list) -> McNemar:
    """McNemar's counts for two paired lists of booleans."""
    return McNemar(sum(1 for b, v in zip(base, variant) if b and not v),
                   sum(1 for b, v in zip(base, variant) if v and not b))
