"""The tiny game the construct tests build on, and their helpers (not a test file itself).

BASE is a whole game in a few lines: a ring of five squares (Go, R1, R2, Jail, B1), three lots in two
blocks, one die, $5 for passing Go. A test adds the construct under test to it and checks the
result (`checked`, `errors`), compiles it (`rules_of`), plays it with scripted agents (`game`) or runs
the scenarios it adds (`scenarios`, `assert_all_pass`). DECK is a small deck of two gifts and a card
that can be kept. Used by tests/test_actions.py, test_auctions.py, test_account_fields.py,
test_bidding.py, test_choose.py, test_debts.py, test_decks.py, test_define_and_procedures.py,
test_expressions.py, test_hidden_fields.py, test_moves.py, test_setup_and_extra_turns.py and
test_variants.py.
"""

from __future__ import annotations

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import ScriptedAgent
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules
from rulesc.interpreter.scenario import run_scenarios

BASE = """
game "Tiny":
    players: 2 to 4
    start: Go

player:
    cash: money = $100
    bonus: count = 0

kind Lot:
    block: Block
    price: money
    state owner: player? = none

group Block of Lot: Red, Blue

table Lot:
    name  block  price
    R1    Red    $10
    R2    Red    $20
    B1    Blue   $30

square Go "Go"
square Jail "Jail"

board:
    Go, R1, R2, Jail, B1

turn:
    phase move:
        roll 1 die as d
        move player by d.total

on pass Go:
    pay $5 from bank to player

end when count(players) == 1 winner players[0] as "last player standing"
"""


def checked(extra: str):
    return check_program(parse_text(BASE + extra, "tiny.rules"))


def errors(extra: str) -> list[str]:
    return [d.code for d in checked(extra).diagnostics if d.is_error]


def game(extra: str, players=("Ann", "Bob"), scripts=None):
    rules = compile_rules(checked(extra))
    scripts = scripts or {}
    agents = {i: ScriptedAgent(scripts.get(name, {})) for i, name in enumerate(players)}
    return Game(rules, list(players), seed=1, agents=agents)


def scenarios(extra: str) -> dict:
    rules = compile_rules(checked(extra))
    return {r.title: r for r in run_scenarios(rules)}


def assert_all_pass(extra: str):
    results = scenarios(extra)
    assert results
    for title, result in results.items():
        assert result.passed, f"{title}: {result.failures}"


def rules_of(extra: str):
    return compile_rules(check_program(parse_text(BASE + extra, "tiny.rules")))


DECK = """
deck Fate once:
    card Gift "Gift" copies 2:
        pay $10 from bank to player
    card Again "Play again" keep:
        extra turn for player
"""

# A second kind of thing one can own (not on the board unless a test puts X1 there), for the constructs
# that bind a thing of several kinds.
BOND = """
kind Bond:
    price: money
    state owner: player? = none

table Bond:
    name  price
    X1    $40
"""
