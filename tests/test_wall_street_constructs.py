"""The general constructs Wall Street needs (issue #8), each tested on its own in a small game:
`setup:`, squares that stop every move (`stop`), `cycle` decks and `lasting` cards with
`Deck.showing`, limits per turn or per visit on actions, and action timing within a turn
(`own turn before PHASE`, `window for P only A, B`).
"""

from __future__ import annotations

from rulesc.diagram import build_diagram
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules

from test_language_extensions import BASE, assert_all_pass, errors, game


def rules_of(extra: str):
    return compile_rules(parse_text(BASE + extra, "tiny.rules"))


# ---- setup --------------------------------------------------------------------------------------

SETUP = """
global:
    interest: percent = 10%

setup:                                    § "The banker sets the interest level by rolling one die."
    roll 1 die as d
    set interest = [10%, 20%, 30%, 40%, 50%, 60%][d.total - 1]
    pay $7 from bank to players[1]
"""


def test_setup_runs_once_before_the_first_turn():
    g = game(SETUP)
    g.forced_dice.append((4,))
    g.setup()
    assert g.state.globals["interest"] == 40
    assert g.state.players[1].f["cash"] == 107 and g.state.turn == 0
    kinds = [e[1] for e in g.events]
    assert kinds == ["setup", "first", "roll", "set", "pay"]
    g.play_turn()
    g.play_turn()
    assert [e[1] for e in g.events].count("set") == 1  # never again


def test_setup_is_deterministic_and_played_by_whole_games():
    rules = rules_of(SETUP)
    logs = []
    for _ in range(2):
        g = Game(rules, 2, seed=5, agents=make_agents("random", 5, 2), turn_limit=20)
        g.play()
        logs.append(g.events)
    assert logs[0] == logs[1]
    assert [e for e in logs[0] if e[1] == "set" and e[0] == 0]


def test_end_game_in_setup_ends_the_game_before_the_first_turn():
    g = Game(rules_of("setup:\n    end game winner players[0] as \"at once\"\n"), 2, seed=1,
             agents=make_agents("random", 1, 2))
    state = g.play()
    assert state.over and state.end_reason == "at once" and state.turn == 0


def test_setup_misuse_is_reported():
    assert errors("setup:\n    end turn\n") == ["R0802"]
    assert errors("setup:\n    pay $1 from bank to player\n") == ["R0205"]
    assert errors("setup:\n    pass\nsetup:\n    pass\n") == ["R0204"]


def test_the_diagram_draws_the_setup_between_start_and_the_first_turn():
    dot = build_diagram(rules_of(SETUP).program).source
    assert "start -> setup" in dot and "setup -> next_turn" in dot
    assert "start -> next_turn" not in dot
