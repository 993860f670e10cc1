"""Debts, in a small game (tests/tiny_game.py): `player.owing` is set only while the debtor raises
cash, `creditor != bank` narrows the creditor to a player for the checker, and a debt that raises
debts (as a window that opens windows) stops the game with a step-budget error, not Python's
RecursionError."""

from __future__ import annotations

import pytest

from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules

from tiny_game import checked, errors, game


def test_owing_is_set_only_while_raising_cash():
    g = game("""
action loan any time when player.owing > $0:
    pay player.owing from bank to player

on land Jail:
    pay $500 from player to bank

on debt:
    raise cash
    if debtor.cash < owed:
        eliminate debtor
""", scripts={"Ann": {"act": [("loan", None)]}})
    ann = g.state.players[0]
    assert g.actions.legal_actions(g, ann, True) == []
    g.move(ann, "to", g.squares["Jail"], "x")
    assert not ann.out and ann.owing == 0
    assert ann.f["cash"] == 100  # borrowed 500 while owing it, then paid it


def test_not_bank_narrows_an_account_to_a_player():
    assert errors("""
on debt:
    if creditor != bank:
        set creditor.bonus = creditor.bonus + 1
    eliminate debtor
""") == []
    assert "R0306" in errors("""
on debt:
    set creditor.bonus = 1
    eliminate debtor
""") or "R0206" in errors("""
on debt:
    set creditor.bonus = 1
    eliminate debtor
""")


@pytest.mark.parametrize("extra, message", [
    ("hint act_nudge = 1\naction nudge any time:\n    window for player\n", "windows open windows"),
    ("on land R1:\n    pay $1,000 from player to bank\n\non debt:\n    pay owed from debtor to bank\n",
     "debts raise debts"),
])
def test_windows_and_debts_that_loop_stop_the_game(extra, message):
    from rulesc.interpreter.agents import make_agents
    from rulesc.interpreter.errors import StepBudgetExceeded
    rules = compile_rules(checked(extra))
    g = Game(rules, 2, seed=1, agents=make_agents("random", 1, 2))
    with pytest.raises(StepBudgetExceeded, match=message):  # not Python's RecursionError
        g.play()
