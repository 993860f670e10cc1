"""`--set NAME=VALUE` as a shell user types it: money without `$` (which bash, zsh and fish would expand
before rulesc sees it), and the value echoed as understood, so that a mangled one shows at once."""

from __future__ import annotations

from pathlib import Path

from clirun import rulesc

FINANCE = Path(__file__).resolve().parent.parent / "games" / "finance.rules"


def test_money_is_taken_without_a_dollar_and_echoed_as_money():
    from rulesc.interpreter.rules import load_rules
    assert load_rules(str(FINANCE), ["starting_cash=1500"]).params["starting_cash"] == 1500
    result = rulesc("run", FINANCE, "--seed", "1", "--set", "starting_cash=1500")
    assert result.returncode == 0, result.stderr
    assert "--set: starting_cash = $1,500" in result.stderr


def test_what_a_shell_left_of_a_dollar_amount_is_shown_as_it_was_understood():
    # bash turns `--set starting_cash=$1500` into `starting_cash=500`: the echo says so.
    result = rulesc("simulate", FINANCE, "-n", "2", "--quiet", "--set", "starting_cash=500")
    assert "--set: starting_cash = $500" in result.stderr


def test_a_percentage_and_a_dollar_amount_are_echoed_as_written_in_a_rules_file():
    result = rulesc("simulate", FINANCE, "-n", "1", "--quiet", "--set", "tariff=15%", "--set", "taxes=$25")
    assert result.returncode == 0, result.stderr
    assert "--set: tariff = 15%" in result.stderr and "--set: taxes = $25" in result.stderr


def test_a_count_where_a_percentage_is_needed_is_still_refused():
    result = rulesc("simulate", FINANCE, "-n", "1", "--quiet", "--set", "tariff=15")
    assert result.returncode == 2 and "R0012" in result.stderr
