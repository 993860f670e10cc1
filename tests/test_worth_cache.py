"""`Hints.worth` keeps each thing's value, and never serves one about state that changed since."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.hints import Hints
from rulesc.interpreter.rules import compile_rules, load_rules

GAMES = Path(__file__).resolve().parent.parent / "games"

LOTS = """\
game "Tiny":
    players: 2 to 2
    start: Go

player:
    cash: money = $500

kind Lot:
    price: money
    state owner: player? = none
    state level: count = 0

table Lot:
    name   price
    Alpha  $60

square Go "Go"

board:
    Go, Alpha

turn:
    phase move:
        roll 2 dice as d
        move player by d.total

on land Lot l when l.owner == none:
    auction l from $10 as sale:
        pay sale.price from sale.winner to bank
        set l.owner = sale.winner

action raise_level(l: Lot) any time when l.owner == player and l.level < 3:
    set l.level = l.level + 1

end when count(players) == 1 winner players[0] as "last player standing"
"""


@pytest.mark.parametrize("hint, counted", [("l.price * 2", ()), ("l.price + l.level * $10", ("level",))])
def test_a_things_worth_is_kept_only_while_what_it_reads_stands(hint, counted):
    """A value is kept per thing: for good when the hint reads fixed data alone (nothing counted:
    a table's column), else until a counted field it reads changes."""
    rules = compile_rules(check_program(parse_text(LOTS + f"\nhint worth(l: Lot) = {hint}\n", "tiny.rules")))
    game = Game(rules, 2, seed=0, agents=make_agents("heuristic", 0, 2))
    game.setup()
    alpha = game.by_name["Alpha"]
    assert game.hints.worth_reads == counted
    assert game.hints.worth(game, alpha) == (120 if not counted else 60)
    game.set_field(alpha, "level", 2, "test")
    assert game.hints.worth(game, alpha) == (120 if not counted else 80)
    not_things = (game.state.players[0], None)  # not things of the hint's kind
    assert [game.hints.worth(game, value) for value in not_things] == [0, 0]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["finance", "wheeler", "wallstreet"])
def test_every_kept_worth_is_the_hints_value_now(name, monkeypatch):
    """Throughout whole games (every bid, every option weighed), each value `Hints.worth` answers is
    what the hint computes at that moment."""
    asked = []

    def checked(hints, game, thing, worth=Hints.worth):
        value = worth(hints, game, thing)
        hint = hints.worth_hint
        if hint is not None and getattr(thing, "kind", None) in hints.worth_kinds:
            assert value == hint.value(game, {hint.var: thing})
            asked.append(thing)
        return value

    monkeypatch.setattr(Hints, "worth", checked)
    rules = load_rules(str(GAMES / f"{name}.rules"))
    for seed in range(3):
        Game(rules, 3 + seed % 2, seed=seed, agents=make_agents("heuristic", seed, 3 + seed % 2)).play()
    assert asked
