"""Around the turns, in a small game (tests/tiny_game.py): `setup:` runs once before the first turn
(deterministically, in whole games, and may end the game there), what the checker refuses in it, the
diagram's place for it; `extra turn` gives the same player the next turn; and an `end after turn`
condition waits for the turn's end where a plain `end when` ends the game at an elimination."""

from __future__ import annotations

from rulesc.diagram import build_diagram
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import GameEnded

from tiny_game import errors, game, rules_of


# ---- setup ---------------------------------------------------------------------------------------

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


# ---- extra turn ----------------------------------------------------------------------------------

def test_extra_turn_gives_the_same_player_another_turn():
    g = game("""
after turn:
    if turn == 1:
        extra turn for player
""")
    g.setup()
    first = g.state.current
    g.play_turn()
    assert g.state.current == first
    g.play_turn()
    assert g.state.current != first


# ---- `end after turn when`: an end condition that waits for the turn's end --------------------------

AFTER_TURN = """
on debt:
    eliminate debtor

on land R1:
    pay $200 from players[1] to player
    pay $1 from bank to player

end after turn when count(players) == 2 winner players[0] as "one out"
"""


def play_one_turn(g) -> None:
    try:
        g.play_turn()
    except GameEnded:  # the game ends in the turn: the whole game's loop stops there
        pass


def test_an_end_after_turn_waits_for_the_turn_to_finish_after_an_elimination():
    """Bob is put out in the middle of Ann's turn: the condition holds at once, but the game ends
    only when her turn is over (the rest of her landing pays her $1 first)."""
    g = game(AFTER_TURN, players=("Ann", "Bob", "Cy"))
    g.forced_dice.append((1,))
    play_one_turn(g)
    kinds = [(e[1], e[3]) for e in g.events if e[1] in ("eliminate", "pay", "end")]
    assert kinds[-3:] == [("eliminate", ("Bob",)), ("pay", (1, "bank", "Ann")), ("end", ("one out", "Ann"))]
    assert g.state.over and g.state.players[0].f["cash"] == 101


def test_a_plain_end_when_ends_the_game_at_the_elimination():
    g = game(AFTER_TURN.replace("end after turn when", "end when"), players=("Ann", "Bob", "Cy"))
    g.forced_dice.append((1,))
    play_one_turn(g)
    kinds = [(e[1], e[3]) for e in g.events if e[1] in ("eliminate", "pay", "end")]
    assert kinds[-2:] == [("eliminate", ("Bob",)), ("end", ("one out", "Ann"))]
    assert g.state.players[0].f["cash"] == 100
