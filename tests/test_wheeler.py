"""Wheeler Dealer: both levels check clean, pass the rulebook's examples, and play to a rules ending."""

from __future__ import annotations

from pathlib import Path

import pytest

import clirun
from rulesc.interpreter.rules import load_rules
from rulesc.simulate import simulate

GAMES = Path(__file__).resolve().parent.parent / "games"
LEVELS = [GAMES / "wheeler.rules", GAMES / "wheeler-level1.rules"]


def rulesc(*args):
    proc = clirun.rulesc(*args, timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("path", LEVELS, ids=["level2", "level1"])
def test_static_check_is_clean_and_lists_assumptions(path):
    code, out, err = rulesc("check", "--static", "--assumed", path)
    assert code == 0, out + err
    assert "0 errors, 0 warnings" in out
    assert "wheeler.rules:" in out and "assumed values" in out


@pytest.mark.parametrize("path", LEVELS, ids=["level2", "level1"])
def test_every_worked_example_passes(path):
    code, out, err = rulesc("test", path)
    assert code == 0, out + err
    assert " 0 failed" in out


def test_the_examples_the_issue_names_are_there():
    titles = {s.title for s in load_rules(str(LEVELS[0])).program.scenarios}
    for needle in ["Copper: a 7 loses", "Copper: any number but 7", "a pair of 2's", "a pair of 3's",
                   "buying A1", "F1 alone", "F1 and F2", "all four Fs: the MAXIMUM",
                   "all four Fs, one debt-ridden", "your own property", "poaching", "market value",
                   "Tax Audit: an even", "Tax Audit: an odd", "Bamboozle! won", "Bamboozle! lost",
                   "Bamboozle! tied"]:
        assert any(needle in t for t in titles), needle


def test_level_one_differs_only_where_the_rulebook_says():
    two, one = (load_rules(str(p)) for p in LEVELS)
    assert [p.name for p in two.phases] == ["invest", "move", "draw", "use_card", "bump"]
    assert [p.name for p in one.phases] == ["invest", "move", "draw"]
    assert one.params == two.params
    assert [e.reason for e in one.ends] == [e.reason for e in two.ends]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_simulated_games_end_by_the_rules(players):
    rules = load_rules(str(LEVELS[0]))
    summary = simulate(rules, 30, 1, players)
    assert summary.reasons["turn limit"] == 0
    assert set(summary.reasons) <= {"deck exhausted", "last player standing"}
    assert summary.reasons["deck exhausted"] > 0 or players == 2
