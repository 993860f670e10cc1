"""A define that cannot fail and keeps no answers is written where it is called (codegen `_inlined`):
it answers as its call does, its aggregates never hide an argument, and one that may fail is still
called, so that its failure is reported in the define."""

from __future__ import annotations

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.rules import compile_rules

GAME = """\
game "Inlined":
    players: 3 to 3
    start: Go

player:
    cash: money = $100

square Go "Go"
square Far "Far"

board:
    Go, Far

turn:
    phase move:
        roll 2 dice as d
        move player by d.total

define richer(x: player) = count(q in players where q.cash > x.cash)
define here(s: square) = any(q in players: q.position == s)
define share(x: player) = x.cash / (count(players) - 3)
{hint}
"""


def _game(hint: str) -> Game:
    rules = compile_rules(check_program(parse_text(GAME.format(hint=hint), "inlined.rules")))
    game = Game(rules, 3, seed=0)
    game.setup()
    for p, cash in zip(game.state.players, (100, 200, 300)):
        p.f_cash = cash
    return game


@pytest.mark.parametrize("hint, expected", [
    # `q` of the caller is the argument of `richer`, whose own `q` must not hide it: two players are
    # richer than someone, so each of the three has one who is (a hidden argument: none has).
    ("count(a in players where any(q in players: richer(q) > 0))", 3),
    ("sum(q in players: richer(q))", 3),  # 2 + 1 + 0
    ("count(s in squares where here(s))", 1),  # every token starts on Go
    ("count(s in squares where not here(s))", 1),
])
def test_an_inlined_define_answers_as_its_call(hint, expected):
    game = _game(f"hint figure = {hint}")
    assert "fn_richer" not in game.rules.hints["figure"].value.__globals__  # written in place, not called
    assert game.hints.value(game, "figure", 0) == expected


def test_a_define_that_may_fail_is_called_and_fails_in_the_define():
    game = _game("hint figure = sum(q in players: share(q))")
    assert "fn_share" in game.rules.hints["figure"].value.__globals__
    with pytest.raises(RuleRuntimeError) as caught:
        game.hints.value(game, "figure", 0)
    assert "division by zero" in str(caught.value)
    assert caught.value.span.line == GAME.splitlines().index(
        "define share(x: player) = x.cash / (count(players) - 3)") + 1
