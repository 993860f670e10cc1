"""The engine's cache of legal actions never serves an answer about state it does not count changes of."""

from __future__ import annotations

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules

BIDDING = """\
game "Tiny":
    players: 2 to 2
    start: Go

player:
    cash: money = $500

kind Lot:
    price: money
    state owner: player? = none

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
    auction l from $10 with window as sale:
        pay sale.price from sale.winner to bank
        set l.owner = sale.winner

action ask any time when player.bidding > $0:
    pass

end when count(players) == 1 winner players[0] as "last player standing"
"""


def test_an_action_that_reads_the_bid_a_player_must_make_is_tested_again_when_it_changes():
    # Regression: `bidding` had no change counter and was not marked untracked, so a condition on it
    # alone was cached: once found illegal (no auction), `ask` stayed illegal in every bid window.
    rules = compile_rules(check_program(parse_text(BIDDING, "tiny.rules")))
    game = Game(rules, 2, seed=0, agents=make_agents("heuristic", 0, 2))
    game.setup()
    player = game.state.players[0]
    assert game.legal_actions(player, True) == []
    player.bidding = 20  # as in an auction's bid window
    assert [choice.action for choice in game.legal_actions(player, False)] == ["ask"]
    player.bidding = 0
    assert game.legal_actions(player, True) == []
