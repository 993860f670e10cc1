"""Auctions, in a small game (tests/tiny_game.py): a bidder named twice in `among` bids once; round-robin
auctions (`in turn after P passes N bluffing up to EXPR`) bid in seat order after the player, put a bidder
out at his Nth pass, take bids above cash up to the rules' own limit (the engine has none), fine an exposed
bluffer and run again without him, run `else:` when nobody bids, are deterministic in whole games, and stop rather than hang on a huge number of passes. (Which agent an
auction asks, blindfolded or not, is tests/test_bidding.py.)"""

from __future__ import annotations

import pytest

from rulesc.diagram import build_diagram
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game

from tiny_game import assert_all_pass, errors, game, rules_of


def test_a_bidder_named_twice_in_among_bids_once():
    """`among [players[0], current]` names one player twice when he is the current player: the
    auction used to wait forever for the second copy of him to be outbid."""
    assert_all_pass("""
scenario "one bidder, named twice":
    players Ann, Bob
    answer Ann bid: $12
    as Ann:
        auction R1 from $10 among [players[0], current] as sale:
            pay sale.price from sale.winner to bank
            set R1.owner = sale.winner
    expect R1.owner == Ann and Ann.cash == $88
""")


# ---- round-robin auctions: in turn after P, passes N, bluffing -----------------------------------

ROUND = """
on land R1:
    auction R1 from $10 among players in turn after player passes 2 bluffing up to $200 as sale:
        pay sale.price from sale.winner to bank
        set R1.owner = sale.winner
    else:
        pay $1 from bank to player
    bluff:
        pay $50 from sale.winner to bank      § "A bluffer who is exposed must then pay a fine"
"""


def auction_events(g):
    return [(e[1], e[3]) for e in g.events if e[1] in ("auction", "bid", "pass_bid", "sold", "unsold", "bluff")]


def test_round_robin_bids_in_seat_order_after_the_player_and_out_at_the_second_pass():
    g = game(ROUND, players=("Ann", "Bob", "Cy"), scripts={
        "Bob": {"bid": [20, None, None]}, "Cy": {"bid": [None, 30, None]}, "Ann": {"bid": [None, None]}})
    g.forced_dice.append((1,))
    g.play_turn()
    seen = auction_events(g)
    assert seen[0] == ("auction", ("R1", 10, ["Bob", "Cy", "Ann"]))
    # Bob 20; Cy passes (once); Ann passes (once); Bob... holds; Cy 30; Ann passes: out; Bob passes (once);
    # Bob passes again: out; Cy's 30 stands.
    assert seen[1:] == [("bid", ("Bob", 20)), ("pass_bid", ("Cy", 1)), ("pass_bid", ("Ann", 1)),
                        ("bid", ("Cy", 30)), ("pass_bid", ("Ann", 2)), ("pass_bid", ("Bob", 1)),
                        ("pass_bid", ("Bob", 2)), ("sold", ("R1", "Cy", 30))]
    cy = g.state.players[2]
    assert cy.f["cash"] == 70 and next(t for t in g.state.things if t.name == "R1").f["owner"] is cy


def test_a_bluffer_is_fined_and_the_auction_runs_again_without_him():
    # Bob bids $150 with $100 (a bluff), everyone else passes twice; he cannot raise the cash: exposed,
    # fined $50, and the auction runs again: Cy 40 wins.
    g = game(ROUND, players=("Ann", "Bob", "Cy"), scripts={
        "Bob": {"bid": [150]}, "Cy": {"bid": [None, None, 40]}, "Ann": {"bid": [None, None, None, None]}})
    g.forced_dice.append((1,))
    g.play_turn()
    seen = auction_events(g)
    assert ("bluff", ("Bob", 150)) in seen
    assert seen.count(("auction", ("R1", 10, ["Bob", "Cy", "Ann"]))) == 1
    assert ("auction", ("R1", 10, ["Cy", "Ann"])) in seen
    assert seen[-1] == ("sold", ("R1", "Cy", 40))
    ann, bob, cy = g.state.players
    assert bob.f["cash"] == 50 and cy.f["cash"] == 60 and next(t for t in g.state.things if t.name == "R1").f["owner"] is cy


def test_nobody_bids_runs_else():
    g = game(ROUND, players=("Ann", "Bob"))
    g.forced_dice.append((1,))
    g.play_turn()
    assert auction_events(g)[-1] == ("unsold", ("R1",))
    assert g.state.players[0].f["cash"] == 101


def test_without_bluffing_no_bid_exceeds_cash():
    from rulesc.interpreter.errors import AgentError
    g = game(ROUND.replace(" bluffing up to $200", "").replace("    bluff:\n        pay $50 from sale.winner to bank"
                                                     "      § \"A bluffer who is exposed must then pay a fine\"\n", ""),
             scripts={"Bob": {"bid": [150]}})
    g.forced_dice.append((1,))
    with pytest.raises(AgentError):
        g.play_turn()


def test_a_bid_above_the_rules_limit_is_refused_and_one_at_it_is_taken():
    from rulesc.interpreter.errors import AgentError
    g = game(ROUND, players=("Ann", "Bob"), scripts={"Bob": {"bid": [201]}})
    g.forced_dice.append((1,))
    with pytest.raises(AgentError, match="legal bids are 10 to 200"):
        g.play_turn()
    g = game(ROUND, players=("Ann", "Bob"), scripts={"Bob": {"bid": [200]}, "Ann": {"bid": [None, None]}})
    g.forced_dice.append((1,))
    g.play_turn()
    assert ("bluff", ("Bob", 200)) in auction_events(g)


def test_the_limit_is_each_bidders_own_through_bidder():
    """`bluffing up to bidder.cash * 3`: Bob ($100) may bid $300, Ann ($100 less what she paid) her own
    three times; the limit is worked out at each bid, for the bidder making it."""
    from rulesc.interpreter.errors import AgentError
    tripled = ROUND.replace("up to $200", "up to bidder.cash * 3")
    g = game(tripled, players=("Ann", "Bob"), scripts={"Bob": {"bid": [300]}, "Ann": {"bid": [None, None]}})
    g.forced_dice.append((1,))
    g.play_turn()
    assert ("bid", ("Bob", 300)) in auction_events(g)
    g = game(tripled, players=("Ann", "Bob"), scripts={"Bob": {"bid": [301]}})
    g.forced_dice.append((1,))
    with pytest.raises(AgentError, match="legal bids are 10 to 300"):
        g.play_turn()


def test_the_limit_is_money_and_bidder_is_known_only_there():
    assert errors(ROUND.replace("up to $200", "up to true")) == ["R0301"]
    assert errors(ROUND.replace("pay $50 from sale.winner", "pay bidder.cash from sale.winner")) == ["R0205"]


def test_round_robin_misuse_is_reported():
    assert errors(ROUND.replace("passes 2", "passes 0")) == ["R0314"]
    assert errors(ROUND.replace(" bluffing up to $200", "")) == ["R0909"]
    assert errors(ROUND.replace("after player", "after $5")) == ["R0301"]


def test_round_robin_auctions_are_deterministic_in_whole_games():
    rules = rules_of(ROUND + "\non debt:\n    eliminate debtor\n")
    for kind in ("random", "heuristic"):
        logs = []
        for _ in range(2):
            g = Game(rules, 3, seed=3, agents=make_agents(kind, 3, 3), turn_limit=60)
            g.play()
            logs.append(g.events)
        assert logs[0] == logs[1]


def test_the_diagram_says_how_a_round_robin_auction_runs():
    dot = build_diagram(rules_of(ROUND).program).source
    assert "auction in seat order, out at pass 2; bluffs allowed up to $200, a bluffer is fined and it runs again" in dot


def test_a_huge_number_of_passes_stops_instead_of_hanging():
    from rulesc.interpreter.errors import StepBudgetExceeded
    g = game(ROUND.replace("passes 2", "passes 1000000000"), players=("Ann", "Bob"))
    g.forced_dice.append((1,))
    with pytest.raises(StepBudgetExceeded, match="auction ran past"):
        g.play_turn()
