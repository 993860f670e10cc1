"""The heuristic agent does not go round in circles: it does not offer again a trade just refused when
nothing has changed (the games are the very same, event for event, with fewer offers), and with no
hint it takes an action again in a turn only if something else was done to its thing since."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.interpreter import market
from rulesc.interpreter.agents import Agent, HeuristicAgent, make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import events_to_jsonl
from rulesc.interpreter.rules import load_rules

from clirun import rulesc

GAMES = Path(__file__).resolve().parent.parent / "games"


def play(rules, players: int, seed: int) -> str:
    game = Game(rules, players, seed=seed, agents=make_agents("heuristic", seed, players))
    game.play()
    return events_to_jsonl(game.events)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["finance", "wheeler"])
def test_the_games_are_the_same_with_fewer_offers(name, monkeypatch):
    rules = load_rules(str(GAMES / f"{name}.rules"))
    offers: list = []
    real_trade = market.Market.trade
    monkeypatch.setattr(market.Market, "trade", lambda self, g, offer, where: offers.append(offer) or
                        real_trade(self, g, offer, where))
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
    offer = market.TradeOffer(proposer, partner, (), (lease,), 100)
    agent = game.agents[0]
    assert agent._offer(game, offer) is offer
    assert agent._offer(game, offer) is offer  # the partner's agent is not the heuristic one
    game.agents[1] = HeuristicAgent(1, 1)
    assert agent._offer(game, offer) is None  # the same offer, nothing changed: it would be refused again
    game.state.turn += 1
    assert agent._offer(game, offer) is offer  # something changed: ask again


class _Undecided(Agent):
    """Says no (the base agent), but is not the heuristic agent: it might say yes another time."""


def _buy_to_complete_afresh(self, game, player):
    """The heuristic agent's offer to complete a group, found from scratch every time."""
    kinds = game.rules.trade_kinds
    if not kinds or not game.rules.trade_cash:
        return None
    spare = player.f["cash"] - 2 * self.reserve(game)
    if spare <= 0:
        return None
    for members in game.members.values():
        missing = [m for m in members if m.f.get("owner") is not player]
        if len(members) < 2 or members[0].kind not in kinds or len(missing) != 1:
            continue
        thing, owner = missing[0], missing[0].f.get("owner")
        price = game.hints.worth(game, thing) * 2
        if owner is None or owner.out or price > spare:
            continue
        offer = market.TradeOffer(player, owner, (), (thing,), price)
        if game.market.trade_is_legal(game, offer):
            return offer
    return None


@pytest.mark.slow
@pytest.mark.parametrize("name", ["finance", "wheeler"])
def test_the_sellers_the_agent_keeps_between_windows_change_no_game(name, monkeypatch):
    """The members a player lacks, their owners and prices are kept until an owner, a player or a
    worth changes: the games are those of an agent that finds them afresh every time."""
    rules = load_rules(str(GAMES / f"{name}.rules"))
    seeds = range(10)
    kept = [play(rules, 2 + seed % 3, seed) for seed in seeds]
    monkeypatch.setattr(HeuristicAgent, "_buy_to_complete", _buy_to_complete_afresh)
    assert kept == [play(rules, 2 + seed % 3, seed) for seed in seeds]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["wheeler", "wallstreet"])
def test_the_actions_the_agent_does_not_want_change_no_game(name, monkeypatch):
    """Actions whose hint scores nothing above 0 now (a loan when nothing is owed) are left out of the
    window's options: the games are those of an agent shown every action."""
    rules = load_rules(str(GAMES / f"{name}.rules"))
    seeds = range(6)
    fewer = [play(rules, 2 + seed % 3, seed) for seed in seeds]
    monkeypatch.setattr(HeuristicAgent, "wanted_actions", lambda self, game, player, raising: None)
    assert fewer == [play(rules, 2 + seed % 3, seed) for seed in seeds]


def test_the_engine_asks_a_replaced_wanted_actions(monkeypatch, tmp_path):
    """The engine asks an agent for the function it calls in every window (`wanted_for`, once a
    game): a `wanted_actions` put on the class in place of the one written out is the one called.
    (Not where a field is hidden: a blindfolded agent is asked for every action; so cash is shown.)"""
    shown = tmp_path / "wheeler.rules"
    shown.write_text((GAMES / "wheeler.rules").read_text(encoding="utf-8").replace("hidden cash:", "cash:"))
    rules = load_rules(str(shown))
    asked: list = []
    monkeypatch.setattr(HeuristicAgent, "wanted_actions",
                        lambda self, game, player, raising: asked.append(player.name))
    play(rules, 2, 0)
    assert asked


def test_an_agent_put_in_a_seat_mid_game_answers_its_windows():
    """What a seat's windows ask is kept for the game while the seat's agent stays (`Actions.kits`):
    another agent put in the seat is asked from then on."""
    rules = load_rules(str(GAMES / "wheeler.rules"))
    game = Game(rules, 2, seed=3, agents=make_agents("heuristic", 3, 2))
    game.setup()
    for _ in range(6):
        game.play_turn()
    acted: list = []

    class Watched(HeuristicAgent):
        def act(self, game, player, options, raising):
            acted.append(player.seat)
            return super().act(game, player, options, raising)
    game.agents[0] = Watched(3, 0)
    for _ in range(6):
        game.play_turn()
    assert acted and set(acted) == {0}


def test_a_loan_is_not_wanted_while_nothing_is_owed():
    rules = load_rules(str(GAMES / "wheeler.rules"))
    game = Game(rules, 2, seed=0, agents=make_agents("heuristic", 0, 2))
    game.setup()
    player = game.state.players[game.state.current]
    agent = game.agents[player.seat]
    assert "borrow" not in agent.wanted_actions(game, player, None)
    assert "repay" in agent.wanted_actions(game, player, None)  # its hint's condition reads the loan
    player.owing = 50_000
    assert "borrow" in agent.wanted_actions(game, player, 50_000)


PING_PONG = """\
game "Ping pong loans":
    players: 2 to 2
    start: Home
    turn limit: 10

player:
    cash: money = $500
    loaned: bool = false

kind Lot:
    loan: money
    state mortgaged: bool = false

table Lot:
    name   loan
    Red    $100

square Home "Home"
square Road "Road"

board:
    Home, Road

turn:
    phase move "Move":
        move player by 1

action borrow own turn when not player.loaned:
    pay $100 from bank to player
    set player.loaned = true

action repay own turn when player.loaned and player.cash >= $110:
    pay $110 from player to bank
    set player.loaned = false

action mortgage(l: Lot) own turn when not l.mortgaged:
    pay l.loan from bank to player
    set l.mortgaged = true

action redeem(l: Lot) own turn when l.mortgaged and player.cash >= l.loan + $10:
    pay l.loan + $10 from player to bank
    set l.mortgaged = false

on debt:
    eliminate debtor

end when count(players) == 1 winner players[0] as "last"
"""


def test_the_heuristic_agent_does_not_go_round_in_circles(tmp_path):
    """With no hint, the agent took every affordable action: borrow, repay, borrow … until the
    window's cap of 30, paying $10 a round (and Wheeler Dealer's debtors borrowed and repaid one
    property over and over). It now takes an action again in a turn only if nothing else was done
    to its thing since."""
    path = tmp_path / "loops.rules"
    path.write_text(PING_PONG)
    code, out, err = rulesc("run", path, "--seed", "1", "--log", "-")
    assert code == 0, err
    actions = [line for line in out.splitlines() if '"event":"action"' in line]
    by_turn: dict = {}
    for line in actions:
        turn = int(line.split('"turn":')[1].split(",")[0])
        by_turn.setdefault(turn, []).append(line.split('"action":"')[1].split('"')[0])
    assert by_turn and all(sorted(taken) == ["borrow", "mortgage", "redeem", "repay"] for taken in by_turn.values())
