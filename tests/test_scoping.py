"""A name bound again in an inner block is the inner one there and the outer one again after it, as
the checker reads the rules: a loop's `player` ends with the loop, a roll in an `if` with the `if`,
a loop over the kind shadowing an arrival's name with the loop, a roll over a choice's item with the
choice. Until this held, the runtime left
the inner value in place, and `pay … from player` after `for player in …` paid from the loop's last
player, or crashed on a roll where the checker had typed a player."""

from __future__ import annotations

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import FIELDS, PAYLOAD
from rulesc.interpreter.rules import compile_rules
from rulesc.interpreter.stmtgen import StatementCodegen

SHADOWING = """\
game "Shadowing":
    players: 3 to 3
    start: Go

player:
    cash: money = $5000

kind Lot:
    price: money
    state owner: player? = none

table Lot:
    name   price
    Red    $60
    Blue   $80

square Go "Go"
square Rest "Rest"

board:
    Go, Red, Rest, Blue

turn:
    phase move:
        roll 2 dice as d
        for player in players:
            pay $1 from player to bank
        pay $10 from player to bank
        if d.total > 1:
            roll 1 die as d
            pay $2 from player to bank
            if d.doubles:
                roll 1 die as player
        move player by d.total

on land Lot p:
    for p in Lot:
        pay $3 from player to bank
    set p.owner = player
    choose "whom to pay" by player for q in players where q != player:
        roll 1 die as q
        pay $100 * q.total from bank to player

end when count(players) == 1 winner players[0] as "last player standing"
"""


def _rows(monkeypatch, apart: bool) -> list:
    if apart:
        monkeypatch.setattr(StatementCodegen, "_too_deep", staticmethod(lambda fn, stmt, indent: True))
    checked = check_program(parse_text(SHADOWING, "shadowing.rules"))
    assert not [d.message for d in checked.diagnostics if d.is_error]
    game = Game(compile_rules(checked), 3, seed=3, agents=make_agents("heuristic", 3, 3), turn_limit=30)
    game.play()
    return list(game.events.rows())


def _field(row, name):
    return row[PAYLOAD + FIELDS[row[1]].index(name)]


def test_an_inner_binding_ends_with_its_block(monkeypatch):
    """Written in place (stmtgen.py) and each statement as a function of its own alike: the same games."""
    rows = _rows(monkeypatch, False)
    with monkeypatch.context() as apart:
        assert _rows(apart, True) == rows
    turns = [i for i, row in enumerate(rows) if row[1] == "turn"]
    assert len(turns) == 30
    for start, end in zip(turns, turns[1:] + [len(rows)]):
        turn = rows[start:end]
        mover = _field(turn[0], "player")
        pays = [row for row in turn if row[1] == "pay"]
        assert [_field(r, "from") for r in pays if _field(r, "amount") == 1] == ["P1", "P2", "P3"]  # the loop's players
        assert [_field(r, "from") for r in pays if _field(r, "amount") in (10, 2)] == [mover, mover]  # the turn's player after it
        rolls = [row for row in turn if row[1] == "roll"]
        move = next(row for row in turn if row[1] == "move")
        assert _field(move, "player") == mover
        assert _field(move, "steps") == sum(_field(rolls[0], "faces"))  # the outer roll, not the `if`'s
        for landing in (row for row in turn if row[1] == "land" and _field(row, "square") in ("Red", "Blue")):
            sets = [row for row in turn if row[1] == "set"]
            assert [_field(r, "target") for r in sets] == [_field(landing, "square")]  # the lot landed on, not the loop's last

