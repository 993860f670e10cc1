"""`rulesc diff`: what a variant changes, its effect on paired seeds, and the intervals behind it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulesc import stats
from rulesc.diff import changes, format_diff, measure
from rulesc.interpreter.rules import load_rules

from clirun import rulesc

ROOT = Path(__file__).resolve().parent.parent
FINANCE = ROOT / "games" / "finance.rules"
FAST_MONEY = ROOT / "examples" / "finance-fast-money.rules"


# ---- the statistics ------------------------------------------------------------------------------------

def test_wilson_interval_matches_the_textbook_values():
    half = stats.wilson(50, 100)
    assert half.value == 0.5 and round(half.low, 3) == 0.404 and round(half.high, 3) == 0.596
    none = stats.wilson(0, 20)  # near 0 the interval stays inside [0, 1] and is not empty
    assert none.low == 0.0 and 0.15 < none.high < 0.17


def test_paired_differences_and_mcnemar():
    same = stats.paired_difference([3, 5, 7], [3, 5, 7])
    assert same.value == 0 and not same.excludes_zero
    up = stats.paired_difference(list(range(40)), [x + 2 + (x % 3) for x in range(40)])
    assert up.excludes_zero and 2 < up.value < 4
    assert not stats.mcnemar([True] * 10, [True] * 10).significant
    lopsided = stats.mcnemar([True] * 30 + [False] * 30, [False] * 30 + [False] * 30)
    assert lopsided.base_only == 30 and lopsided.variant_only == 0 and lopsided.significant


# ---- what a variant changes ----------------------------------------------------------------------------

BASE = """game "Tiny":
    players: 2 to 4
    start: Go

param salary = $100

player:
    cash: money = $500

square Go "Go"
square Rest "Rest"
square Tax "Tax"

board:
    Go, Rest, Tax

deck Luck reshuffle:
    card Win "Win":
        pay $10 from bank to player
    card Lose "Lose":
        pay $10 from player to bank

turn:
    phase move:
        roll 1 die as d
        move player by d.total
    phase rest:
        pass

on pass Go:
    pay salary from bank to player

on land Rest:
    draw from Luck

on debt:
    eliminate debtor

end when count(players) == 1 winner players[0] as "last player standing"
end when turn >= 60 winner players[0] as "time"
"""

VARIANT = """extends "base.rules"
override param salary = $150
remove phase rest
replace card Luck.Lose "Lose more":
    pay $20 from player to bank

on land Tax:
    pay $5 from player to bank
"""


@pytest.fixture()
def pair(tmp_path):
    (tmp_path / "base.rules").write_text(BASE)
    (tmp_path / "variant.rules").write_text(VARIANT)
    return load_rules(str(tmp_path / "base.rules")), load_rules(str(tmp_path / "variant.rules"))


def test_changes_name_each_change_in_the_games_terms(pair):
    found = {(c.what, c.category, c.name): c for c in changes(*pair)}
    assert found["changed", "parameter", "salary"].base == "$100"
    assert found["changed", "parameter", "salary"].variant == "$150"
    assert ("removed", "phase", "rest") in found
    assert ("changed", "card", "Luck.Lose") in found
    assert ("added", "handler", "on land Tax") in found
    assert not [c for c in found.values() if c.category == "card" and c.name == "Luck.Win"]
    assert changes(pair[0], pair[0]) == []


def test_a_variant_measured_on_paired_seeds(pair):
    base, variant = pair
    first = measure(base, variant, 30, 5, 2)
    again = measure(base, variant, 30, 5, 2)
    text = format_diff(base.title, variant.title, changes(base, variant), first)
    assert text == format_diff(base.title, variant.title, changes(base, variant), again)  # deterministic
    salary = next(m for m in first.money if m[0].startswith("pay salary"))
    assert salary[2] > salary[1] and salary[3].excludes_zero  # more salary a game, significantly
    assert any(m[0].startswith("pay $5 from player") and m[1] == 0 for m in first.money)  # the new tax
    assert "seat 1 won" in text and "turns per game" in text


def test_the_same_game_against_itself_shows_no_difference(pair):
    base = pair[0]
    same = measure(base, base, 20, 1, 3)
    assert same.turns.value == 0 and not same.turns.excludes_zero
    assert all(o.test.base_only == o.test.variant_only == 0 for o in same.outcomes)
    assert all(d.value == 0 for _, _, _, d in same.money)
    assert same.scenarios == []


@pytest.mark.slow
def test_the_command_line_gives_json_with_intervals():
    proc = rulesc("diff", str(FINANCE), str(FAST_MONEY), "--games", "20", "--seed", "3", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert {"what": "changed", "category": "parameter", "name": "circuit_income",
            "base": "$250", "variant": "$400"} in data["changes"]
    measured = data["measured"]
    assert measured["games"] == 20
    income = next(m for m in measured["money"] if m["rule"].startswith("pay circuit_income"))
    assert income["variant"] > income["base"]
    assert set(income["difference"]) == {"value", "low", "high"}


def test_money_rows_keep_apart_what_a_house_rule_changes_and_leave_out_notes():
    """`replace on land Tariff` pays the same tariff to the pot: the two statements differ only at
    their end, which the table keeps in sight; a statement's `assumed` note is not its text."""
    base, variant = load_rules(str(FINANCE)), load_rules(str(ROOT / "examples" / "finance-fines-pot.rules"))
    measured = measure(base, variant, 16, 0, 4)
    labels = [rule for rule, *_ in measured.money]
    assert "pay debtor.cash from debtor to creditor" in labels
    assert not any("assumed" in label or "§" in label for label in labels)
    text = format_diff(base.title, variant.title, changes(base, variant), measured)
    shown = [line[2:50].rstrip() for line in text.splitlines() if line.startswith("  pay tariff")]
    assert len(shown) == 2 and {label.rsplit(" to ", 1)[1] for label in shown} == {"bank", "pot"}
