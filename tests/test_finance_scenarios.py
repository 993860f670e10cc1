"""FINANCE's worked examples pass, and each one guards its rule: break the rule, the scenario fails."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.interpreter.rules import load_rules
from rulesc.interpreter.scenario import run_scenarios

from clirun import rulesc

FINANCE = Path(__file__).resolve().parent.parent / "games" / "finance.rules"
SOURCE = FINANCE.read_text(encoding="utf-8")


def results_for(text: str, tmp_path) -> dict:
    path = tmp_path / "finance.rules"
    path.write_text(text, encoding="utf-8")
    return {r.title: r for r in run_scenarios(load_rules(str(path)))}


def test_rulesc_test_passes_every_finance_scenario():
    proc = rulesc("test", str(FINANCE))
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "FAIL" not in proc.stdout
    assert "scenarios: 27 passed, 0 failed" in proc.stdout


# (what is broken, old text, new text, scenarios that must now fail)
MUTATIONS = [
    ("WAYBACK's three-house rent", "[$2, $10, $30, $80, $160, $200]", "[$2, $10, $30, $90, $160, $200]",
     {"WAYBACK rents $80 with three houses"}),
    ("WAYBACK's bare rent", "[$2, $10, $30, $80, $160, $200]", "[$3, $10, $30, $80, $160, $200]",
     {"WAYBACK rents $2 with no house"}),
    ("the tariff", "param tariff = 10%", "param tariff = 12%",
     {"the 10% tariff on cash", "the tariff on an odd amount rounds down"}),
    ("the tariff's rounding", "pay tariff of player.cash rounded down", "pay tariff of player.cash rounded up",
     {"the tariff on an odd amount rounds down"}),
    ("the circuit income", "param circuit_income = $250", "param circuit_income = $200",
     {"$250 every time around the board", "landing on Start also completes the circuit",
      "a whole turn: the dice move Ann onto Bob's WAYBACK"}),
    ("the house price", "    pay p.value from player to bank", "    pay p.value * 2 from player to bank",
     {"a house costs the property's cash value", "the even-building rule"}),
    ("the complete-series rule", "        and all(q in p.series: q.owner == player)\n", "",
     {"no house without the complete series"}),
    ("the even-building rule", "        and p.houses == min(q in p.series: q.houses)", "        and true",
     {"the even-building rule"}),
    ("the five-house cap", "param house_cap = 5 ", "param house_cap = 6 ", {"no more than five houses on one space"}),
    ("withdrawing an eliminated player's leases", "            set p.withdrawn = true", "            set p.houses = 0",
     {"a player who cannot pay the rent is out, his leases withdrawn"}),
    ("last player standing", 'end when count(players) == 1', 'end when count(players) == 0',
     {"the last player to remain in the game is the winner"}),
    ("the auction", "        pay sale.price from sale.winner to bank", "        pay opening_bid from sale.winner to bank",
     {"an unsold property goes to the highest bidder"}),
    ("Taxes", "param taxes = $20", "param taxes = $25", {"Taxes $20 and Luxury $75"}),
]


@pytest.mark.slow
@pytest.mark.parametrize("what,old,new,expected", MUTATIONS, ids=[m[0] for m in MUTATIONS])
def test_breaking_a_rule_fails_its_scenario(tmp_path, what, old, new, expected):
    assert old in SOURCE, old
    results = results_for(SOURCE.replace(old, new, 1), tmp_path)
    failed = {title for title, r in results.items() if not r.passed}
    assert expected <= failed, f"breaking {what} should fail {expected - failed}"


def test_a_failed_expectation_names_its_line_and_values(tmp_path):
    text = SOURCE.replace("[$2, $10, $30, $80, $160, $200]", "[$2, $10, $31, $80, $160, $200]", 1)
    result = results_for(text, tmp_path)["WAYBACK rents $30 with two houses"]
    lines = text.splitlines()
    first = result.failures[0]
    assert "Ann.cash == starting_cash - $30" in lines[first.line - 1]
    assert "969" in first.message and "970" in first.message


@pytest.mark.slow
def test_rulesc_test_exits_1_when_a_scenario_fails(tmp_path):
    path = tmp_path / "finance.rules"
    path.write_text(SOURCE.replace("param taxes = $20", "param taxes = $25", 1), encoding="utf-8")
    proc = rulesc("test", str(path))
    assert proc.returncode == 1
    assert "FAIL" in proc.stdout and "Taxes $20 and Luxury $75" in proc.stdout
    assert "Traceback" not in proc.stdout + proc.stderr
