"""The constructs a classic property-trading game needed (#32): `on trade`, `split`, `leaders` and a
shared win, rounding to any unit, a computed `(EXPR) per turn`, an action over several kinds,
narrowing through a `define`, a variant that changes a status's phase or a procedure, and the
false warnings R0406 and R0415 no longer given. Each on the tiny game (tests/tiny_game.py)."""

from __future__ import annotations

from tiny_game import BOND, assert_all_pass, checked, errors

import pytest

from rulesc.dsl import ast
from rulesc.dsl.diagnostics import RulesError
from rulesc.dsl.parser import parse_text
from rulesc.dsl.checker import check_program
from rulesc.dsl.variants import load_file


def warnings(extra: str) -> list[str]:
    return [d.code for d in checked(extra).diagnostics if not d.is_error]


def test_rounding_to_a_unit_down_up_and_nearest():
    assert_all_pass("""
scenario "rounding to any unit":
    players Ann, Bob
    expect $1,250 rounded down to $100 == $1,200
    expect $1,250 rounded up to $100 == $1,300
    expect $1,250 rounded nearest to $100 == $1,300
    expect $1,249 rounded nearest to $100 == $1,200
    expect $1,000 / 3 rounded up to $100 == $400
    expect $1,000 / 3 rounded down to $1 == $333
    expect 10% of $125 rounded up to $5 == $15
    expect 10% of $125 rounded down to $5 == $10
    expect 7 rounded up to 5 == 10
""")


def test_split_pays_each_an_even_share_and_the_payer_keeps_the_rest():
    assert_all_pass("""
scenario "a bonus split three ways, rounded down to $10":
    players Ann, Bob, Cid
    as Ann:
        split $100 from bank among players rounded down to $10
    expect Ann.cash == $130 and Bob.cash == $130 and Cid.cash == $130

scenario "split by a player: each other player is paid, rounded up":
    players Ann, Bob, Cid
    as Ann:
        split $25 from player among list(q in players where q != player) rounded up to $5
    expect Ann.cash == $70 and Bob.cash == $115 and Cid.cash == $115

scenario "split among nobody does nothing":
    players Ann, Bob
    as Ann:
        split $25 from player among list(q in players where q.cash > $500) rounded up to $5
    expect Ann.cash == $100
""")
    assert errors("procedure p(q: player):\n    split $10 from q among players\n") == ["R0319"]


def test_a_tie_is_a_shared_win():
    assert_all_pass("""
end when turn >= 1000 winner leaders(q in players: q.cash) as "richest"

scenario "the players tied for the most cash share the win":
    players Ann, Bob, Cid
    set Bob.cash = $50
    as Cid:
        end game winner leaders(q in players: q.cash) as "richest"
    expect game_over and count(winners) == 2 and winner == Ann
    expect all(q in winners: q != Bob)
""")
    assert errors('end when turn > 5 winner leaders(q in players: q.name) as "x"\n') == ["R0301"]


def test_on_trade_sees_the_thing_its_new_owner_and_who_gave_it():
    assert_all_pass("""
trade Lot with cash

on trade Lot l when l.price >= $20:
    pay $3 from player to partner

on trade:
    pay $1 from bank to player

scenario "each thing traded runs the handler of its kind, then the trade's":
    players Ann, Bob
    set R1.owner = Ann
    set R2.owner = Ann
    do Ann trade R1, R2 to Bob for $15
    expect R2.owner == Bob
    expect Bob.cash == $100 - $15 - $3
    expect Ann.cash == $100 + $15 + $3 + $1
""")
    assert "R0403" in warnings("on trade Lot l:\n    pass\n")  # no `trade` line: it never runs
    assert errors("trade Lot with cash\non trade Jail:\n    pass\n") == ["R0901"]
    assert errors("trade Lot with cash\non trade Lot:\n    pass\n") == ["R0902"]


def test_a_computed_limit_per_turn():
    assert_all_pass("""
action tip own turn (1 + count(l in Lot where l.owner == player)) per turn when player.cash > $0:
    pay $1 from player to bank

scenario "one more tip per lot held":
    players Ann, Bob
    set R1.owner = Ann
    do Ann tip
    do Ann tip
    forbid Ann tip
""")
    assert errors("action tip own turn (true) per turn:\n    pass\n") == ["R0301"]


def test_an_action_over_several_kinds_reads_only_their_common_fields():
    kinds = BOND
    assert_all_pass(kinds + """
action cash_in(t: Lot or Bond) any time when t.owner == player:
    pay t.price from bank to player
    set t.owner = none

scenario "a lot and a bond, by one action":
    players Ann, Bob
    set R1.owner = Ann
    set X1.owner = Ann
    do Ann cash_in X1
    do Ann cash_in R1
    forbid Ann cash_in R2
    expect Ann.cash == $150
""")
    assert errors(kinds + "action a(t: Lot or Bond) any time when t.block == Red:\n    pass\n") == ["R0206"]
    assert errors(kinds + "action a(t: Lot or Nothing) any time:\n    pass\n") == ["R0205"]


def test_a_define_narrows_what_it_tests():
    assert errors("define held(l: Lot) = l.owner != none\n"
                  "action a(l: Lot) any time when held(l) and l.owner.cash > $5:\n    pass\n") == []
    assert errors("define held(l: Lot) = l.owner != none\n"
                  "action a(l: Lot) any time when not held(l) and l.owner.cash > $5:\n    pass\n") == ["R0303"]


TOKENS = """
kind Stand:
    state owner: player? = none
    state tokens: count = 0

table Stand:
    name
    S1

supply Tokens = 4 on Stand.tokens
"""


def test_pieces_given_back_need_no_test_of_the_supply():
    assert "R0415" not in warnings(TOKENS + """
action sell(s: Stand) any time when s.owner == player and s.tokens > 0:
    set s.tokens = s.tokens - 1
action clear(s: Stand) any time when s.owner == player:
    set s.tokens = 0
action refill(s: Stand) any time when s.owner == player:
    set s.tokens = 0
    set s.tokens = min(3, Tokens.left)
""")
    assert "R0415" in warnings(TOKENS + """
action add(s: Stand) any time when s.owner == player:
    set s.tokens = s.tokens + 1
""")
    assert "R0415" in warnings(TOKENS + """
action top_up(s: Stand) any time when s.owner == player:
    set s.tokens = max(3, Tokens.left)
""")


def test_a_game_that_ends_by_end_game_is_not_warned_of_having_no_end():
    text = BASE_NO_END + """
before turn when player.cash > $200:
    end game winner player as "rich"
"""
    codes_ = [d.code for d in check_program(parse_text(text, "t.rules")).diagnostics]
    assert "R0406" not in codes_
    assert "R0406" in [d.code for d in check_program(parse_text(BASE_NO_END, "t.rules")).diagnostics]


BASE_NO_END = """
game "T":
    players: 2 to 4
    start: Go

player:
    cash: money = $100

square Go "Go"

board:
    Go

turn:
    phase move:
        roll 1 die as d
        move player by d.total
"""


def test_a_variant_changes_a_status_phase_and_a_procedure(tmp_path):
    base = tmp_path / "base.rules"
    base.write_text(BASE_NO_END + """
status Held "Held":
    phase fine optional:
        do fine(player)
        release player
    phase wait:
        if player.status_turns >= 3:
            release player

procedure fine(p: player):
    pay $10 from p to bank

on land Go:
    put player in Held

end when count(players) == 1 winner players[0] as "last"
""")
    variant = tmp_path / "variant.rules"
    variant.write_text('''extends "base.rules"
replace phase Held.wait:
    release player
remove phase Held.fine
replace procedure fine(p: player):
    pay $20 from p to bank
''')
    program = check_program(load_file(str(variant))).program
    assert [ph.name for ph in program.statuses["Held"].phases] == ["wait"]
    assert isinstance(program.statuses["Held"].phases[0].body.statements[0], ast.Release)
    assert "$20" in program.text_at(program.procedures["fine"].body.statements[0].amount.span)
    variant.write_text('extends "base.rules"\nremove phase Held.bail\nreplace procedure fined(p: player):\n    pass\n')
    with pytest.raises(RulesError) as caught:
        load_file(str(variant))
    assert [d.code for d in caught.value.diagnostics] == ["R0510", "R0510"]
    assert "the base has no phase `bail` in status `Held`" in str(caught.value)


def test_a_worth_hint_over_several_kinds_values_each():
    """`hint worth(t: Lot or Bond)`: the heuristic agent values things of every kind named, so it bids
    for a bond as for a lot (a hint of one kind leaves the other kinds worth $0 to it)."""
    from rulesc.interpreter.agents import HeuristicAgent
    from rulesc.interpreter.engine import Game
    from rulesc.interpreter.rules import compile_rules

    kinds = BOND
    rules = compile_rules(checked(kinds + "hint worth(t: Lot or Bond) = t.price * 2\n"))
    game = Game(rules, ["Ann", "Bob"], seed=1, agents={0: HeuristicAgent(), 1: HeuristicAgent()})
    things = {t.name: t for t in game.things}
    assert game.hints.worth(game, things["X1"]) == 80 and game.hints.worth(game, things["R2"]) == 40
    assert errors(kinds + "hint worth(t: Lot or Bond) = if t.block == Red then $5 else $0\n") == ["R0206"]
    assert errors(kinds + "hint worth(t: Lot or Nothing) = $1\n") == ["R0205"]


def test_a_trade_and_its_handlers_are_one_unit_for_the_invariants():
    """The game is settled once a trade and its `on trade` handlers are done, not between the things
    that change hands: an invariant that a trade of two lots keeps (both with one owner) never fails."""
    from tiny_game import game as tiny
    from rulesc.interpreter.market import TradeOffer

    g = tiny("trade Lot with cash\non trade Lot l when l.price >= $20:\n    pay $3 from player to partner\n")
    things = {t.name: t for t in g.things}
    ann, bob = g.state.players
    for name in ("R1", "R2"):
        g.set_field(things[name], "owner", ann, g.rules.trade_where)
    seen = []

    def settled():
        seen.append((things["R1"].f_owner is things["R2"].f_owner, bob.f_cash))

    def watch(game, kind, where, payload):  # as the property checker does: after an event outside any rule
        if not game.rules_running:
            settled()

    g.on_settled, g.observer = settled, watch
    g.market.complete_trade(g, TradeOffer(ann, bob, (things["R1"], things["R2"]), (), -15), g.rules.trade_where)
    assert seen == [(True, 100 - 15 - 3)]  # once, after the handler's payment too
