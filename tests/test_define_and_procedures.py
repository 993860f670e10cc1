"""`define` and `procedure`, each in a small game (tests/tiny_game.py): a define is a typed function
(of other defines too), a procedure runs its statements with its arguments (`do`); the checker
refuses a wrong arity or type and a define or procedure that always calls itself, the run stops one
that calls itself under a condition, a `do` shows in the log, and one never used is warned about."""

from __future__ import annotations

import pytest

from tiny_game import assert_all_pass, checked, errors, game


# ---- define --------------------------------------------------------------------------------------

def test_define_is_a_typed_function():
    assert_all_pass("""
define held(q: player, b: Block) = count(l in b where l.owner == q)
define worth(q: player) = q.cash + sum(l in Lot where l.owner == q: l.price * held(q, l.block))

scenario "a function of functions":
    players Ann, Bob
    set R1.owner = Ann
    set R2.owner = Ann
    set B1.owner = Ann
    expect held(Ann, Red) == 2
    expect worth(Ann) == $100 + $10 * 2 + $20 * 2 + $30
    expect worth(Bob) == $100
""")


def test_define_arity_types_and_recursion_are_checked():
    assert errors("define f(q: player) = q.cash\nparam x = f(1)\n") == ["R0301"]
    assert errors("define f(q: player) = q.cash\nparam x = f()\n") == ["R0307"]
    assert "R0209" in errors("define f(n: count) = f(n)\n")


# ---- procedure -----------------------------------------------------------------------------------

def test_a_procedure_runs_its_statements_with_its_arguments():
    assert_all_pass("""
procedure fine(p: player, amount: money):
    pay amount from p to bank
    set p.bonus = p.bonus + 1

on land Jail:
    do fine(player, $7)

scenario "a procedure from a handler":
    players Ann, Bob
    as Ann:
        send player to Jail
    expect Ann.cash == $93
    expect Ann.bonus == 1
    as Bob:
        do fine(Ann, $3)
    expect Ann.cash == $90
""")


def test_procedure_calls_are_checked():
    assert errors("procedure f(p: player):\n    pay $1 from p to bank\n\nafter turn:\n    do f($5)\n") == ["R0301"]
    assert errors("procedure f(p: player):\n    pay $1 from p to bank\n\nafter turn:\n    do f()\n") == ["R0307"]
    assert errors("after turn:\n    do nothing_here(player)\n") == ["R0205"]


def test_a_procedure_that_calls_itself_is_stopped():
    # Unconditionally it is refused before play (R0413); under a condition that never turns false,
    # which the static check cannot see, the run stops it.
    from rulesc.dsl.diagnostics import RulesError
    from rulesc.interpreter.errors import StepBudgetExceeded
    with pytest.raises(RulesError, match="always runs itself again"):
        game("procedure again(p: player):\n    do again(p)\n\non land Jail:\n    do again(player)\n")
    g = game("procedure again(p: player):\n    if p.cash >= $0:\n        do again(p)\n\non land Jail:\n"
             "    do again(player)\n")
    with pytest.raises(StepBudgetExceeded):
        g.move(g.state.players[0], "to", g.squares["Jail"], "x")


def test_pass_does_nothing_and_procedures_and_windows_show_in_the_log():
    g = game("""
procedure fine(p: player):
    pay $2 from p to bank

on land Jail:
    choose "nothing or a fine" by player:
        option nothing:
            pass
        option fine:
            do fine(player)
""", scripts={"Ann": {"nothing or a fine": ["nothing", "fine"]}})
    ann = g.state.players[0]
    g.move(ann, "to", g.squares["Jail"], "x")
    assert ann.f["cash"] == 100
    g.move(ann, "place", g.squares["Go"], "x")  # from Go, not round the board past it
    g.move(ann, "to", g.squares["Jail"], "x")
    assert ann.f["cash"] == 98
    assert [e.payload for e in g.events if e.kind == "do"] == [("fine", ["Ann"])]


def test_unused_functions_and_procedures_are_warned_about():
    diags = checked("define spare(q: player) = q.cash\nprocedure idle(p: player):\n    pass\n").diagnostics
    warned = sorted(d.message for d in diags if d.severity == "warning" and d.code == "R0404")
    assert warned == ["function `spare` is never used", "procedure `idle` is never used"]
