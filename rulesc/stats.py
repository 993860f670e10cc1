"""Intervals for the figures that simulations report, so that noise is not read as a finding.

Proportions get a Wilson score interval; means a bootstrap percentile interval; paired differences
(a base and a variant played on the same seeds) the same interval on the per-seed differences, and
paired yes/no outcomes McNemar's test. All at 95%: ±2 points on a win rate needs about 2,400 games.

Why a bootstrap rather than mean ± 1.96 standard errors: the figures simulations report are skewed
and bounded below (money a rule pays, mostly nothing and now and then a lot; game lengths;
eliminations), and a normal interval around such a mean can reach below anything a game can give
(a rule that only ever pays money shown as `20 [-1, 41]`). A percentile interval is made of means
of the values themselves, so it stays inside the range they can take, and it follows their skew.
The resampling is seeded with a constant, so an interval depends only on its values: the same
games give the same report, whatever was computed before.
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


RESAMPLES = 2000  # bootstrap resamples: enough for steady 2.5% and 97.5% points
BOOTSTRAP_SEED = 0  # any constant: it makes an interval a function of its values alone
DRAWN_AT_ONCE = 1_000_000  # values resampled in one array: bounds the memory for many games
FEW_DISTINCT = 256  # at most this many distinct values: a resample is drawn as counts of each


def mean(values: list) -> Interval:
    """The mean with its 95% bootstrap percentile interval (values all equal: no spread). The interval
    lies within the values' range, so a quantity bounded below is never shown below its bound."""
    if not values:
        return Interval(0.0, 0.0, 0.0)
    m = statistics.fmean(values)
    if min(values) == max(values):
        return Interval(m, m, m)
    return Interval(m, *_bootstrap_interval(values))


def _bootstrap_interval(values: list) -> tuple[float, float]:
    """The 2.5% and 97.5% points of the means of RESAMPLES resamples of `values`, drawn with
    replacement from the same seed every time. A resample of values that take few distinct values
    (money a rule pays, eliminations) is drawn as how many of each it holds (one multinomial draw:
    milliseconds for any number of games); else value by value, in blocks. With numpy (which
    matplotlib brings), imported here: only commands that sum up games need it."""
    import numpy as np

    data = np.asarray(values, dtype=float)
    n = len(data)
    rng = np.random.default_rng(BOOTSTRAP_SEED)
    distinct, counts = np.unique(data, return_counts=True)
    if len(distinct) <= FEW_DISTINCT:
        means = rng.multinomial(n, counts / n, size=RESAMPLES) @ distinct / n
    else:
        rows = max(1, DRAWN_AT_ONCE // n)  # resamples drawn at once
        means = np.concatenate([data[rng.integers(0, n, size=(min(rows, RESAMPLES - start), n))].mean(axis=1)
                                for start in range(0, RESAMPLES, rows)])
    low, high = np.quantile(means, [0.025, 0.975])
    return float(low), float(high)


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
