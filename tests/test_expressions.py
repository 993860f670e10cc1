"""Expressions, each in a small game (tests/tiny_game.py): `even`/`odd`, `first`/`best`, `current`,
equality of lists and of cards by value, a percentage times a count (`P of X rounded R` on the level of
`*`), and an expression the checker did not type is an internal error, not a wrong answer."""

from __future__ import annotations

import pytest

from rulesc.interpreter.rules import compile_rules

from tiny_game import DECK, assert_all_pass, checked, errors


def test_even_odd_first_best():
    assert_all_pass("""
scenario "even and odd":
    players Ann, Bob
    expect even(4) and not even(3) and odd(5) and not odd(0)

scenario "first and best":
    players Ann, Bob
    set Bob.cash = $500
    expect first(l in Lot where l.price > $15) == R2
    expect first(l in Lot: l.price > $100) == none
    expect best(q in players: q.cash) == Bob
    expect best(l in Lot where l.block == Red: l.price) == R2
""")
    assert errors("param x = even($4)\n") == ["R0301"]


def test_current_is_the_player_whose_turn_it_is():
    assert_all_pass("""
scenario "current":
    players Ann, Bob
    expect current == Ann
""")


def test_lists_and_cards_are_equal_by_value():
    assert_all_pass(DECK + """
scenario "equal lists are equal":
    players Ann, Bob
    expect [$2, $10] == [$2, $10]
    expect not ([$2, $10] != [$2, $10])
    expect [$2] != [$3]
    expect list(l in Lot where l.block == Red) == [R1, R2]

scenario "a kept card equals its deck's card":
    players Ann, Bob
    cards Fate: Again
    answer Ann keep: keep
    as Ann:
        draw from Fate
    expect count(h in Ann.hand where h == Fate.Again) == 1
    expect all(h in Ann.hand: h != Fate.Gift)
""")


def test_a_percentage_times_a_count():
    assert_all_pass("""
scenario "P of X rounded R is on the level of `*`":
    players Ann, Bob
    as Ann:
        pay 50% of $15 rounded down * 2 from player to bank
    expect Ann.cash == $100 - $14
    expect 50% of $15 rounded up * 3 / 2 == $12
""")
    assert errors("param x = 2 * 50% of $10 rounded down\n") == ["R0305"]  # (2 * 50%) of …: write the brackets


def test_an_expression_the_checker_did_not_type_is_an_internal_error():
    from rulesc.interpreter.errors import InternalError
    rules = compile_rules(checked("define rich(q: player) = q.cash == $100\n"))
    value = rules.program.defines["rich"].value
    del rules.checked.types[id(value.left)]  # as if the checker had skipped it
    with pytest.raises(InternalError, match=r"no type for `q\.cash` \(Attr\) at tiny\.rules:\d+:26"):
        rules.compiler.expr(value, frozenset({"q"}))
