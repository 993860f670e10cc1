"""The shipped games' scenarios state expectations in terms of the game's parameters where the
rulebook does, so a house rule that changes one (a bigger start) keeps them meaningful: every
inherited scenario still passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.interpreter.rules import load_rules
from rulesc.interpreter.scenario import run_scenarios

GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.mark.slow
@pytest.mark.parametrize("game, start", [("wheeler.rules", "$150,000"), ("finance.rules", "$1,500")])
def test_a_bigger_start_keeps_every_scenario_passing(tmp_path, game, start):
    variant = tmp_path / "bigger-start.rules"
    variant.write_text(f'extends "{GAMES / game}"\noverride param starting_cash = {start}   assumed "a house rule"\n')
    results = run_scenarios(load_rules(str(variant)))
    assert len(results) > 20
    assert [r.title for r in results if not r.passed] == []
