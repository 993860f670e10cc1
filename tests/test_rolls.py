"""A roll of the dice is a value: two rolls are equal when they show the same faces."""

from __future__ import annotations

import random

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import NO_RULE
from rulesc.interpreter.rules import compile_rules
from rulesc.interpreter.scenario import run_scenarios
from rulesc.interpreter.state import ONE_DIE, TWO_DICE, Roll


ROLLS = """\
game "Rolls":
    players: 2 to 2
    start: Go

player:
    cash: money = $100

square Go "Go"
square Rest "Rest"

board:
    Go, Rest

turn:
    phase move:
        roll 2 dice as d
        roll 2 dice as e
        if d == e:
            pay $10 from player to bank
        if d != e:
            pay $1 from player to bank
        move player by d.total

scenario "the same faces twice are equal rolls":
    players Ann, Bob
    dice 3 4, 3 4
    play turn of Ann
    expect Ann.cash == $90

scenario "other faces, the same total, are not":
    players Ann, Bob
    dice 3 4, 4 3
    play turn of Ann
    expect Ann.cash == $99
"""


def test_two_rolls_are_equal_when_they_show_the_same_faces():
    """A roll is a value: `d == e` compares the faces (the shared rolls of two dice, `TWO_DICE`, make
    identity meaningless), whether the dice were rolled or forced by a scenario."""

    rules = compile_rules(check_program(parse_text(ROLLS, "rolls.rules")))
    results = run_scenarios(rules)
    assert len(results) == 2 and all(r.passed for r in results), [r.failures for r in results]
    assert TWO_DICE[6 * 3 + 4 - 7] == Roll((3, 4), 7, False) != Roll((4, 3), 7, False)
    assert all(roll.faces == (a, b) for roll, (a, b) in zip(TWO_DICE, [(a, b) for a in range(1, 7) for b in range(1, 7)]))


def test_one_die_is_one_draw_of_the_games_generator_and_a_shared_roll():
    """`roll 1 die` draws one number, as any roll of n dice draws n; its roll is one of `ONE_DIE`
    (never doubles), equal to a roll of the same face made anew."""
    rules = compile_rules(check_program(parse_text(ROLLS, "rolls.rules")))
    game = Game(rules, 2, seed=5)
    game.setup()
    draws = random.Random()
    draws.setstate(game.state.rng.getstate())
    rolled = [game.roll(game.state.players[0], 1, NO_RULE) for _ in range(40)]
    assert [r.faces for r in rolled] == [(int(draws.random() * 6) + 1,) for _ in range(40)]
    assert game.state.rng.getstate() == draws.getstate()
    assert all(r in ONE_DIE and r.total == r.faces[0] and not r.doubles for r in rolled)
    assert ONE_DIE[2] == Roll((3,), 3, False) and {r.total for r in rolled} == {1, 2, 3, 4, 5, 6}
