"""Wall Street's scenarios are written from the game's parameters (the starting capital, the loan,
the insurance, the bank book's step and cap, the bluffer's fine, the winning sums) and from the
companies', shares' and funds' own figures, as FINANCE's are: a house rule that changes a
parameter (`extends "wallstreet"` + `override param starting_cash = …`, or `--set`) still passes
every scenario it inherits."""

from __future__ import annotations

from pathlib import Path

import pytest

import clirun
from rulesc.interpreter.rules import load_rules
from rulesc.interpreter.scenario import run_scenarios

WALLSTREET = Path(__file__).resolve().parent.parent / "games" / "wallstreet.rules"

# Another value for each parameter the scenarios are written from (each within the range where the
# scenarios' own choices stay legal: deposits in 100,000s, a 1,000,000 deposit, a 500,000 deposit
# out of the starting capital). Not `opening_bid`: a scripted bid is written out, never computed
# (R0311), so the auction scenarios' bids (10,000 the lowest) hold for an opening bid up to 10,000.
OTHER_VALUES = [
    ("starting_cash", "$600,001"),
    ("insurance_price", "$170,000"),
    ("loan_size", "$60,000"),
    ("max_loans", "4"),
    ("deposit_step", "$50,000"),
    ("deposit_cap", "$1,200,000"),
    ("bluff_fine", "$70,000"),
    ("win_cash", "$5,000,000"),
    ("win_group_cash", "$2,000,000"),
]


def rulesc(*args):
    proc = clirun.rulesc(*args, timeout=180)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.fixture
def bigger_start(tmp_path):
    house = tmp_path / "wallstreet-bigger-start.rules"
    house.write_text(f'extends "{WALLSTREET}"\n\n'
                     'override game "Wall Street, a bigger start"\n\n'
                     'override param starting_cash = $800,000   assumed "a house rule"\n')
    return house


def inherited():
    return len(load_rules(str(WALLSTREET)).program.scenarios)


@pytest.mark.slow
def test_a_bigger_starting_capital_passes_every_inherited_scenario(bigger_start):
    code, out, err = rulesc("test", bigger_start)
    assert code == 0, out + err
    assert f"scenarios: {inherited()} passed, 0 failed" in out, out


@pytest.mark.slow
def test_a_bigger_start_and_every_other_parameter_changed_at_once(bigger_start):
    sets = [x for name, value in OTHER_VALUES if name != "starting_cash" for x in ("--set", f"{name}={value}")]
    code, out, err = rulesc("test", *sets, bigger_start)
    assert code == 0, out + err
    assert f"scenarios: {inherited()} passed, 0 failed" in out, out


@pytest.mark.slow
@pytest.mark.parametrize("name, value", OTHER_VALUES, ids=[name for name, _ in OTHER_VALUES])
def test_each_parameter_set_otherwise_keeps_every_scenario_passing(name, value):
    results = run_scenarios(load_rules(str(WALLSTREET), [f"{name}={value}"]))
    assert len(results) == inherited()
    assert [r.title for r in results if not r.passed] == []
