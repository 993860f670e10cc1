"""Where a move takes a token, each case in a small game (tests/tiny_game.py): `move … to` the square
it stands on goes all the way round; `send` lands without passing, `place` does neither; a square
`off board` is reached only by `move … to` and may not also be on the board; a `stop` square ends
every `move … by` that would pass it (not `move … to` or `back`), in scenarios and whole games."""

from __future__ import annotations

import pytest

from rulesc.diagram import build_diagram
from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules

from tiny_game import BASE, assert_all_pass, errors, game


# ---- move, send and place ------------------------------------------------------------------------

def test_send_lands_without_passing_and_place_does_neither():
    assert_all_pass("""
on land Jail:
    pay $1 from player to bank

scenario "move passes Go":
    players Ann, Bob
    as Ann:
        move player to B1
        move player to Jail
    expect Ann.cash == $100 + $5 - $1

scenario "send lands but does not pass":
    players Ann, Bob
    as Ann:
        move player to B1
        send player to Jail
    expect Ann.position == Jail
    expect Ann.cash == $99

scenario "place does nothing but put the token there":
    players Ann, Bob
    as Ann:
        move player to B1
        place player at Jail
    expect Ann.position == Jail
    expect Ann.cash == $100
""")


def test_move_to_the_square_a_token_is_on_goes_all_the_way_round():
    assert_all_pass("""
on pass Jail:
    pay $1 from player to bank

scenario "a token already on the square goes round and passes everything":
    players Ann, Bob
    as Ann:
        move player to R2
        move player to R2
    expect Ann.position == R2
    expect Ann.cash == $100 + $5 - $1
""")
    g = game("")
    ann = g.state.players[0]
    g.move(ann, "to", g.squares["Go"], "x")
    moves = [payload for _, kind, _, payload in g.events if kind == "move"]
    passes = [payload[1] for _, kind, _, payload in g.events if kind == "pass"]
    assert moves == [("Ann", "Go", "Go", 5)] and passes == ["Go"]  # 5 steps: the whole ring


# ---- squares off the board -----------------------------------------------------------------------

OFF = """
square Office "Office" off board

on land Office:
    pay $3 from player to bank
"""


def test_an_off_board_square_is_reached_only_by_move_to():
    assert_all_pass(OFF + """
scenario "into the office and out again, passing nothing":
    players Ann, Bob
    as Ann:
        move player to B1
        move player to Office
    expect Ann.position == Office
    expect Ann.cash == $97
    as Ann:
        move player to Go
    expect Ann.position == Go
    expect Ann.cash == $97
""")
    g = game(OFF)
    ann = g.state.players[0]
    assert g.squares["Office"] not in g.ahead(ann)
    g.move(ann, "to", g.squares["Office"], "x")
    from rulesc.interpreter.errors import RuleRuntimeError
    with pytest.raises(RuleRuntimeError, match="off the board"):
        g.move(ann, "by", 2, "x")


def test_an_off_board_square_cannot_also_be_on_the_board():
    assert errors(OFF) == []
    source = (BASE + OFF).replace("Go, R1, R2, Jail, B1", "Go, R1, R2, Jail, B1, Office")
    codes = [d.code for d in check_program(parse_text(source, "tiny.rules")).diagnostics if d.is_error]
    assert codes == ["R0704"]


# ---- squares that stop every move ----------------------------------------------------------------

STOP = """
square News "Wall Street News" stop       § "all players always stop regardless of what the dice show"

on land News:
    set player.bonus = player.bonus + 1

on pass News:
    pay $1 from bank to player
"""


def stop_game(board="Go, R1, News, R2, Jail, B1"):
    text = (BASE.replace("board:\n    Go, R1, R2, Jail, B1", f"board:\n    {board}") + STOP)
    return compile_rules(check_program(parse_text(text, "tiny.rules")))


def test_a_move_by_that_would_pass_a_stop_square_ends_there_and_lands():
    rules = stop_game()
    g = Game(rules, ["Ann", "Bob"], seed=1, agents=make_agents("random", 1, 2))
    ann = g.state.players[0]
    g.move(ann, "by", 5, "x")  # Go -> R1 -> News: stops at News, two steps
    assert g.board[ann.at].name == "News" and ann.f["bonus"] == 1
    move = next(e for e in g.events if e[1] == "move")
    assert move[3] == ("Ann", "Go", "News", 2)
    assert ann.f["cash"] == 101  # `on pass` fires for the square it stops on, as for any landing
    g.move(ann, "by", 2, "x")  # from the stop square itself the token moves on
    assert g.board[ann.at].name == "Jail"


def test_stop_applies_to_every_move_by_but_not_to_move_to_or_back():
    rules = stop_game()
    g = Game(rules, ["Ann", "Bob"], seed=1, agents=make_agents("random", 1, 2))
    ann = g.state.players[0]
    g.move(ann, "to", g.squares["Jail"], "x")  # a named destination goes past it
    assert g.board[ann.at].name == "Jail" and ann.f["bonus"] == 0
    g.move(ann, "back", 3, "x")  # backwards: Jail -> R2 -> News -> R1
    assert g.board[ann.at].name == "R1" and ann.f["bonus"] == 0
    g.move(ann, "by", 1, "x")  # exactly onto it: an ordinary landing
    assert g.board[ann.at].name == "News" and ann.f["bonus"] == 1
    g.move(ann, "by", 11, "x")  # round the whole board and more: stops on its next arrival
    assert g.board[ann.at].name == "News" and ann.f["bonus"] == 2


def test_a_stop_square_in_a_scenario_and_a_whole_game():
    text = BASE.replace("board:\n    Go, R1, R2, Jail, B1", "board:\n    Go, R1, News, R2, Jail, B1") + STOP + """
scenario "stopping on Wall Street News":
    players Ann, Bob
    dice 6
    play turn of Ann
    expect Ann.position == News and Ann.bonus == 1
"""
    rules = compile_rules(check_program(parse_text(text, "tiny.rules")))
    from rulesc.interpreter.scenario import run_scenarios
    assert all(r.passed for r in run_scenarios(rules)), [r.failures for r in run_scenarios(rules)]
    g = Game(rules, 3, seed=2, agents=make_agents("random", 2, 3), turn_limit=60)
    g.play()
    lands = [e for e in g.events if e.kind == "move" and e.rule.text.startswith("tiny")]
    assert lands
    for _turn, _kind, _rule, (_who, start, dest, steps) in lands:
        order = ["Go", "R1", "News", "R2", "Jail", "B1"]
        i = order.index(start)
        assert "News" not in [order[(i + k) % 6] for k in range(1, steps)], (start, dest, steps)


def test_stop_misuse_and_the_diagram():
    assert errors('square Vault "Vault" stop off board\n') == ["R0705"]
    dot = build_diagram(stop_game().program).source
    assert "every move stops here" in dot
