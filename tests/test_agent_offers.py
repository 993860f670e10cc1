"""The heuristic agent does not offer again a trade just refused when nothing has changed (issue #14):
the games are the very same, event for event, with fewer offers."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.interpreter import dealing
from rulesc.interpreter.agents import Agent, HeuristicAgent, make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import events_to_jsonl
from rulesc.interpreter.rules import load_rules

GAMES = Path(__file__).resolve().parent.parent / "games"


def play(rules, players: int, seed: int) -> str:
    game = Game(rules, players, seed=seed, agents=make_agents("heuristic", seed, players))
    game.play()
    return events_to_jsonl(game.events)


@pytest.mark.parametrize("name", ["finance", "wheeler"])
def test_the_games_are_the_same_with_fewer_offers(name, monkeypatch):
    rules = load_rules(str(GAMES / f"{name}.rules"))
    offers: list = []
    real_trade = dealing.Dealing.trade
    monkeypatch.setattr(dealing.Dealing, "trade", lambda self, offer, where: offers.append(offer) or
                        real_trade(self, offer, where))
    seeds = range(12)
    now = [play(rules, 2 + seed % 3, seed) for seed in seeds]
    fewer = len(offers)
    offers.clear()
    monkeypatch.setattr(HeuristicAgent, "_offer", lambda self, game, offer: offer)  # offer again, as before
    before = [play(rules, 2 + seed % 3, seed) for seed in seeds]
    assert now == before
    if name == "finance":
        assert fewer < len(offers)  # refused offers were made again before


def test_a_partner_who_might_say_yes_later_is_asked_again():
    """Only a heuristic partner is known to refuse the same offer again; anyone else is asked each time."""
    rules = load_rules(str(GAMES / "finance.rules"))
    game = Game(rules, 2, seed=1, agents={0: HeuristicAgent(1, 0), 1: _Undecided()})
    game.setup()
    proposer, partner = game.state.players
    lease = next(t for t in game.things if t.kind == "Lease")
    offer = dealing.TradeOffer(proposer, partner, (), (lease,), 100)
    agent = game.agents[0]
    assert agent._offer(game, offer) is offer
    assert agent._offer(game, offer) is offer  # the partner's agent is not the heuristic one
    game.agents[1] = HeuristicAgent(1, 1)
    assert agent._offer(game, offer) is None  # the same offer, nothing changed: it would be refused again
    game.state.turn += 1
    assert agent._offer(game, offer) is offer  # something changed: ask again


class _Undecided(Agent):
    """Says no (the base agent), but is not the heuristic agent: it might say yes another time."""
