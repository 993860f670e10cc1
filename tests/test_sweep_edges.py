"""Edge cases of `rulesc sweep FILE --set NAME=FROM..TO step S`, each once a user's report: a range below
zero, the table's intervals, a fixed `--set` of the swept parameter, a step that does not reach TO, a step
of another kind than FROM and TO, decimals, a negative step, and the R0010/R0012 entries of `rulesc explain`."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

import clirun
from rulesc import explain
from rulesc.dsl.diagnostics import Diagnostic, RulesError, render_text
from rulesc.sweep import Range, check_fixed, parse_range

ROOT = Path(__file__).resolve().parent.parent
FINANCE = ROOT / "games" / "finance.rules"


def rulesc(*args, code: int = 0):
    proc = clirun.rulesc(*args, timeout=600)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr and "internal error" not in proc.stderr
    return proc.stdout, proc.stderr


def refused(words: list[str]) -> Diagnostic:
    """The one diagnostic `parse_range` refuses `words` with."""
    with pytest.raises(RulesError) as exc:
        parse_range(words)
    [diagnostic] = exc.value.diagnostics
    return diagnostic


# ---- 1. a range that starts below zero ---------------------------------------------------------------------

@pytest.mark.parametrize("words,values,first", [
    (["starting_cash=-$500..$600", "step", "$100"], list(range(-500, 601, 100)), "-$500"),
    (["tariff=-5%..5%", "step", "5%"], [-5, 0, 5], "-5%"),
    (["house_cap=-1..1", "step", "1"], [-1, 0, 1], "-1"),
])
def test_a_range_may_start_below_zero_as_a_rules_file_may_write_it(words, values, first):
    swept = parse_range(words)
    assert swept.values == values
    assert swept.text(values[0]) == first
    assert parse_range([f"{swept.name}={first}..{swept.text(values[-1])}", *words[1:]]).values == values  # round trip


@pytest.mark.slow
def test_a_sweep_below_zero_plays_each_value():
    out, _ = rulesc("sweep", FINANCE, "--set", "house_cap=-1..1", "step", "1", "--games", "1", "--jobs", "1")
    assert [line.split()[0] for line in out.splitlines()[3:6]] == ["-1", "0", "1"]


# ---- 2. the table's intervals: [low, high], as simulate shows them -----------------------------------------

@pytest.mark.slow
def test_the_table_shows_each_mean_with_its_interval_as_simulate_does():
    args = ("sweep", FINANCE, "--set", "house_cap=1..3", "--games", "3", "--seed", "4", "--jobs", "1")
    rows = rulesc(*args)[0].splitlines()[3:6]
    data = json.loads(rulesc(*args, "--format", "json")[0])
    assert not any("±" in row for row in rows)
    for row, value in zip(rows, data["rows"]):
        eliminated = next(f for f in value["figures"] if f["key"] == "bankruptcies")
        assert row.endswith(f"{eliminated['value']:.2f} [{eliminated['low']:.2f}, {eliminated['high']:.2f}]")
    for column in (0, -1):  # the turns and the eliminations: the brackets line up down the column
        assert len({[m.start() for m in re.finditer(r"\[", row)][column] for row in rows}) == 1


# ---- 3. a fixed `--set` of the swept parameter -------------------------------------------------------------

@pytest.mark.slow
def test_a_fixed_set_of_the_swept_parameter_is_a_usage_error():
    _, err = rulesc("sweep", FINANCE, "--set", "starting_cash=$500..$1,000", "step", "$500",
                    "--set", "starting_cash=$700", "--games", "1", code=2)
    assert "error[R0010]: `--set starting_cash=$700` fixes `starting_cash`, the parameter the sweep varies" in err
    check_fixed(Range("starting_cash", [500, 1000], "money"), ["house_cap=2", "circuit_income=$300"])  # others: fine


# ---- 4. a step that does not reach TO ----------------------------------------------------------------------

def test_a_to_the_steps_do_not_reach_is_said_and_the_values_stop_before_it(capsys):
    assert parse_range(["starting_cash=$500..$1,200", "step", "$500"]).values == [500, 1000]
    assert ("note: $1,200 is not reached by steps of $500 from $500; the last value is $1,000"
            in capsys.readouterr().err)
    assert parse_range(["starting_cash=$500..$1,500", "step", "$500"]).values == [500, 1000, 1500]
    assert capsys.readouterr().err == ""


# ---- 5. the step has the kind of FROM and TO ---------------------------------------------------------------

@pytest.mark.parametrize("words,kind", [
    (["tariff=5%..15%", "step", "5"], "a percentage"),
    (["starting_cash=$500..$1,200", "step", "3"], "an amount"),
    (["house_cap=1..3", "step", "$1"], "a count"),
])
def test_a_step_of_another_kind_than_from_and_to_is_refused_naming_the_kind(words, kind):
    d = refused(words)
    assert d.code == "R0010" and f"the step must be {kind} like FROM and TO, not `{words[2]}`" in d.message


# ---- 6. decimals, and values that are not written out ------------------------------------------------------

@pytest.mark.parametrize("words,why", [
    (["house_cap=1..3", "step", "1.5"], "values are whole numbers (no decimals)"),
    (["house_cap=1.5..3"], "values are whole numbers (no decimals)"),
    (["tariff=5%..15%", "step", "2.5%"], "values are whole numbers (no decimals)"),
    (["house_cap=x..3"], "an amount, a count or a percentage written out"),
    (["house_cap=1+1..3"], "an amount, a count or a percentage written out"),
    (["house_cap=1..3", "step", "x"], "an amount, a count or a percentage written out"),
])
def test_a_value_that_is_not_a_whole_number_written_out_says_why(words, why):
    d = refused(words)
    assert d.code == "R0012" and "is not a value: " in d.message and why in d.message


def test_a_step_word_with_no_value_says_so():
    assert "`step` needs a value, e.g. `step 1`" in refused(["house_cap=1..3", "step"]).message


# ---- 8. a negative step --------------------------------------------------------------------------------------

@pytest.mark.parametrize("words", [["house_cap=1..3", "step", "-1"], ["starting_cash=$500..$1,200 step -$100"],
                                   ["tariff=5%..15% step -5%"]])
def test_a_negative_step_is_refused_as_a_step_not_above_0(words):
    assert "the step must be above 0" in refused(words).message


def test_a_negative_step_in_one_quoted_word_is_a_usage_error():
    _, err = rulesc("sweep", FINANCE, "--set", "starting_cash=$500..$1,200 step -$100", "--games", "1", code=2)
    assert "the step must be above 0" in err


@pytest.mark.slow
def test_a_negative_step_in_its_own_word_is_a_usage_error_about_the_step():
    """argparse took `-$100` for an unknown option (`commands.sweep.negative_steps` gives it back to its `--set`)."""
    _, err = rulesc("sweep", FINANCE, "--set", "starting_cash=$500..$1,200", "step", "-$100", "--games", "1", code=2)
    assert "the step must be above 0" in err


# ---- 7. `rulesc explain` shows what sweep says ----------------------------------------------------------------

@pytest.mark.parametrize("words", [
    ["starting_cash=$500..$2,000"],
    ["starting_cash=$2,000..$500", "step", "$250"],
    ["starting_cash=$500..$2,000", "step", "250"],
    ["starting_cash=$500..$2,000 step -$250"],
    ["starting_cash=$1..$2,000", "step", "$1"],
    ["house_cap=1..$3"],
    ["house_cap=1..3", "step", "1.5"],
])
def test_the_codes_page_shows_each_sweep_range_error_as_it_is_printed(words):
    d = refused(words)
    shown = render_text(d, None)
    assert shown in explain.entry(d.code), f"`rulesc explain {d.code}` does not show:\n{shown}"


def test_the_codes_page_shows_the_fixed_set_of_the_swept_parameter():
    with pytest.raises(RulesError) as exc:
        check_fixed(parse_range(["starting_cash=$500..$2,000", "step", "$500"]), ["starting_cash=$700"])
    assert render_text(exc.value.diagnostics[0], None) in explain.entry("R0010")
