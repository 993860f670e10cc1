"""The intervals of means stay within what the quantity can be (a regression test: `simulate` showed
money a rule pays, which is never negative, as `20 [-1, 41]`): a bootstrap percentile interval, the
same for the same values, still centred where a normal interval is when the values are not skewed,
and still able to go below zero for a difference that can."""

from __future__ import annotations

import random
import statistics

import pytest

from rulesc import stats
from rulesc.balance import GameRecord, balance
from rulesc.interpreter.events import RuleRef

# Money a rule paid in each of 200 games: nothing in most, a lot in a few (the reported shape: a normal
# interval, mean ± 1.96 standard errors, would be 15 [-2, 32]).
RARE_PAYMENTS = [0] * 197 + [1000] * 3


def test_a_mean_of_values_never_below_zero_has_an_interval_that_is_not():
    i = stats.mean(RARE_PAYMENTS)
    assert i.value == 15
    assert 0 <= i.low < i.value < i.high <= 1000


def test_game_lengths_and_counts_stay_at_or_above_their_least_value():
    lengths = [1] * 90 + [60] * 3 + [400]  # normal: 7.1 [-1.4, 15.7]
    assert stats.mean(lengths).low >= 1
    assert stats.mean([0] * 49 + [1]).low >= 0  # one elimination in 50 games


def test_the_simulate_table_shows_no_negative_money_or_length():
    rule = RuleRef("game.rules", 93)
    records = [GameRecord(seed, 60 if amount else 1, "last", 1, 1, (10, 0), (False, True),
                          {rule: amount} if amount else {}) for seed, amount in enumerate(RARE_PAYMENTS)]
    b = balance(records, 2)
    [(_, total, per_game)] = b.money
    assert total == 3000 and per_game.value == 15 and per_game.low >= 0
    assert b.figure("turns").interval.low >= 1


def test_the_same_values_give_the_same_interval():
    assert stats.mean(RARE_PAYMENTS) == stats.mean(list(RARE_PAYMENTS))
    stats.mean([5, 1, 9])  # what was computed before does not matter
    assert stats.mean(RARE_PAYMENTS) == stats.mean(RARE_PAYMENTS)


def test_values_that_are_not_skewed_get_the_normal_interval():
    rng = random.Random(7)
    values = [rng.gauss(100, 15) for _ in range(2000)]
    i = stats.mean(values)
    half = stats.Z95 * statistics.stdev(values) / len(values) ** 0.5
    assert i.low == pytest.approx(i.value - half, abs=0.1 * half)
    assert i.high == pytest.approx(i.value + half, abs=0.1 * half)


def test_a_paired_difference_can_still_be_negative():
    base = [10 + (k % 5) for k in range(60)]
    less = stats.paired_difference(base, [b - 3 - (k % 2) for k, b in enumerate(base)])
    assert less.high < 0 and less.excludes_zero
    mixed = stats.paired_difference(base, [b + (1 if k % 2 else -1) for k, b in enumerate(base)])
    assert mixed.low < 0 < mixed.high and not mixed.excludes_zero


def test_no_spread_no_interval():
    assert stats.mean([]) == stats.Interval(0.0, 0.0, 0.0)
    assert stats.mean([7]) == stats.Interval(7.0, 7.0, 7.0)
    assert stats.mean([3, 3, 3]) == stats.Interval(3.0, 3.0, 3.0)
