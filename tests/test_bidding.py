"""Auctions and choices ask each player's agent as `Game.agent` gives it (an auction asks for it once
per bidder, a choice without the call where nothing is hidden): blindfolded where the rules hide
fields, as it is where they hide none."""

from __future__ import annotations

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import HeuristicAgent
from rulesc.interpreter.blindfold import HiddenFieldRead
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules
from tiny_game import BASE

SALES = """
on land Lot l when l.owner == none:
    auction l from $1 as sale:
        pay sale.price from sale.winner to bank
        set l.owner = sale.winner
    choose "mood" by player:
        option calm:
            pass
        option loud:
            pass

hint worth(l: Lot) = l.price
"""


def _rules(hidden: bool):
    text = BASE + SALES
    if hidden:
        text = text.replace("    cash: money = $100\n", "    hidden cash: money = $100\n")
    return compile_rules(check_program(parse_text(text, "tiny.rules")))


class Watcher(HeuristicAgent):
    """The heuristic agent, noting whether it can see each player's cash when it bids or chooses."""

    def __init__(self, seed=0, seat=0):
        super().__init__(seed, seat)
        self.seen = []

    def _note(self, game, question):
        self.seen.append((question, {p.name: "cash" in p.f for p in game.state.players}))

    def bid(self, game, player, thing, low, high):
        self._note(game, "bid")
        return super().bid(game, player, thing, low, high)

    def choose(self, game, player, name, options):
        self._note(game, "choose")
        return super().choose(game, player, name, options)


class Peeker(HeuristicAgent):
    """Bids by the other player's cash, which the rules may keep hidden."""

    def bid(self, game, player, thing, low, high):
        other = max(p.f["cash"] for p in game.state.players if p is not player)
        return low if other >= 0 else None


def _watched(hidden: bool) -> list:
    ann, bob = Watcher(1, 0), Watcher(1, 1)
    game = Game(_rules(hidden), ["Ann", "Bob"], seed=1, agents={0: ann, 1: bob})
    for _ in range(12):
        game.play_turn()
    return [(question, seen, me) for agent, me in ((ann, "Ann"), (bob, "Bob")) for question, seen in agent.seen]


def test_bids_and_choices_are_made_blindfolded_where_cash_is_hidden():
    seen = _watched(hidden=True)
    assert {question for question, _, _ in seen} == {"bid", "choose"}
    for _, cash_seen, me in seen:
        assert cash_seen == {"Ann": me == "Ann", "Bob": me == "Bob"}  # his own cash, not the other's


def test_with_nothing_hidden_bids_and_choices_see_everything():
    seen = _watched(hidden=False)
    assert {question for question, _, _ in seen} == {"bid", "choose"}
    assert all(cash_seen == {"Ann": True, "Bob": True} for _, cash_seen, _ in seen)


def test_a_bid_that_peeks_at_hidden_cash_is_refused():
    game = Game(_rules(hidden=True), ["Ann", "Bob"], seed=1, agents={0: Peeker(1, 0), 1: Peeker(1, 1)})
    with pytest.raises(HiddenFieldRead, match="read .*'s hidden field `cash`"):
        for _ in range(12):
            game.play_turn()


def test_the_heuristic_bids_worked_out_once_are_the_bids_it_makes_one_by_one():
    """`HeuristicAgent.bidder` (an open auction without windows) gives, for every lowest bid, what
    `bid` gives: pass where its limit is below, else the same amount."""
    game = Game(_rules(hidden=False), ["Ann", "Bob"], seed=1, agents={0: HeuristicAgent(1, 0), 1: HeuristicAgent(1, 1)})
    agent, ann = game.agents[0], game.state.players[0]
    lots = [t for t in game.things if t.kind == "Lot"]
    assert len({game.hints.worth(game, t) for t in lots}) > 1
    for thing in lots:
        for cash in (0, 5, 40, 100, 1000):
            bids = agent.bidder(game, ann, thing, cash)
            asked = [agent.bid(game, ann, thing, low, cash) for low in range(1, cash + 2)]
            assert [bids(low) for low in range(1, cash + 2)] == asked
            assert any(b is not None for b in asked) or cash < 5


class Stubborn(HeuristicAgent):
    """Bids the lowest bid until $30, whatever the worth: a subclass that bids otherwise."""

    def bid(self, game, player, thing, low, high):
        return low if low <= 30 else None


def test_an_agent_that_bids_its_own_way_is_asked_at_every_bid():
    game = Game(_rules(hidden=False), ["Ann", "Bob"], seed=1, agents={0: Stubborn(1, 0), 1: Stubborn(1, 1)})
    game.play_turn()
    bids = [e for e in game.events if e[1] == "bid"]
    assert [e[-1][-1] for e in bids] == list(range(1, 31))  # each raised the other by $1, up to $30
