"""`rulesc diff`: what a variant changes, its effect on paired seeds, and the intervals behind it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import re

from rulesc import stats
from rulesc.balance import record_game
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
    assert all(row.difference.value == 0 and row.seeds == () for row in same.money)
    assert same.flips == []
    assert "paired games that show a difference: none" in format_diff(base.title, base.title, [], same)
    assert same.scenarios == []


@pytest.mark.slow
def test_the_command_line_gives_json_with_intervals():
    proc = rulesc("diff", str(FINANCE), str(FAST_MONEY), "--games", "20", "--seed", "3", "--format", "json")
    assert proc.returncode == 0, proc.stderr
    data = json.loads(proc.stdout)
    assert {"what": "changed", "category": "parameter", "name": "circuit_income",
            "base": "$250", "variant": "$400", "where": "examples/finance-fast-money.rules:12"} in data["changes"] \
        or {"what": "changed", "category": "parameter", "name": "circuit_income", "base": "$250", "variant": "$400",
            "where": f"{FAST_MONEY}:12"} in data["changes"]
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
    shown = [line[2:50].rstrip() for line in text.splitlines() if line.startswith("  pay tariff") and " -> " in line]
    assert len(shown) == 2 and {label.rsplit(" to ", 1)[1] for label in shown} == {"bank", "pot"}


# ---- following a difference up: where it is, and the games that show it -----------------------------------

def test_each_change_names_its_line_in_the_variant(pair, tmp_path):
    found = {(c.what, c.category, c.name): c.where for c in changes(*pair)}
    variant = str(tmp_path / "variant.rules")
    assert found["changed", "parameter", "salary"] == f"{variant}:2"
    assert found["removed", "phase", "rest"] == f"{variant}:3"  # its `remove phase` line
    assert found["changed", "card", "Luck.Lose"] == f"{variant}:4"
    assert found["added", "handler", "on land Tax"] == f"{variant}:7"
    text = format_diff("Tiny", "Tiny", changes(*pair), None)
    assert f"  ~ parameter salary: $100 -> $150  ({variant}:2)\n" in text
    assert all(re.search(r"\(\S+\.rules:\d+\)$", line) for line in text.splitlines() if line[:4] in ("  ~ ", "  + ", "  - "))


def test_money_rows_name_their_line_and_the_seeds_that_show_the_change(pair, tmp_path):
    base, variant = pair
    measured = measure(base, variant, 30, 5, 2)
    rows = {row.rule: row for row in measured.money}
    assert rows["pay $5 from player to bank"].where == f"{tmp_path / 'variant.rules'}:8"
    salary = rows["pay salary from bank to player"]
    line = BASE.splitlines().index("    pay salary from bank to player") + 1
    assert salary.where == f"{tmp_path / 'base.rules'}:{line}"  # the base's rule, which the variant keeps
    assert salary.difference.excludes_zero and len(salary.seeds) == 3
    for seed in salary.seeds:  # each seed named plays a pair whose salary went the way the mean did
        paid = [sum(v for k, v in record_game(r, 2, seed).money.items() if k.line == line) for r in (base, variant)]
        assert paid[1] > paid[0]
    text = format_diff(base.title, variant.title, changes(base, variant), measured, show="rulesc diff b v --show-seed")
    assert f"pay salary from bank to player {salary.difference.value:+,.0f} ({salary.where}): seeds " \
           f"{', '.join(map(str, salary.seeds))}" in text


@pytest.fixture(scope="module")
def fast_money():
    """FINANCE and its fast-money house rule, measured on 12 paired games of 3 players: winners change."""
    base, variant = load_rules(str(FINANCE)), load_rules(str(FAST_MONEY))
    return base, variant, measure(base, variant, 12, 0, 3)


def test_winner_changes_are_named_by_seed_and_each_is_true(fast_money):
    base, variant, measured = fast_money
    assert measured.flips, "the house rule changes some winner"
    for flip in measured.flips[:3]:
        assert record_game(base, 3, flip.seed).winner == flip.base
        assert record_game(variant, 3, flip.seed).winner == flip.variant != flip.base
    text = format_diff(base.title, variant.title, changes(base, variant), measured, show="rulesc diff b v --show-seed")
    assert f"  the winner changes in {len(measured.flips)} of 12 pairs: seeds {measured.flips[0].seed} (" in text
    assert f"  to see a pair side by side: rulesc diff b v --show-seed {measured.flips[0].seed}\n" in text


def test_show_seed_plays_that_pair_side_by_side(fast_money):
    base, variant, measured = fast_money
    flip = measured.flips[0]
    proc = rulesc("diff", str(FINANCE), str(FAST_MONEY), "--players", "3", "--show-seed", str(flip.seed))
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    records = [record_game(r, 3, flip.seed) for r in (base, variant)]
    assert out[0] == f"seed {flip.seed}, 3 players, heuristic agents"
    for line, record in zip(out[1:3], records):  # each game as `diff` played it: its length and its winner
        winner = f"P{record.winner}" if record.winner else "nobody"
        assert line.endswith(f"ended after {record.turns} turns: {record.reason}; winner: {winner}")
    assert re.fullmatch(r"  the games first differ in turn \d+ \(`\*` marks the lines that differ\)", out[3])
    assert re.match(r"base +\| variant$", out[5])
    assert re.fullmatch(r"\.\.\. turns 0 to \d+ are the same in both games \(\d+ lines left out\)", out[6])
    assert re.search(r"the bank pays \$250 to P\d +\* the bank pays \$400 to P\d$", proc.stdout, re.M)
    assert any(" | " in line for line in out[7:])
    refused = rulesc("diff", str(FINANCE), str(FAST_MONEY), "--show-seed", "1", "--games", "5")
    assert refused.returncode == 2 and "--show-seed plays one pair of games: --games cannot apply" in refused.stderr
