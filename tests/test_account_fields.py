"""Account fields (`savings: account`, a global `pot: account`), in a small game (tests/tiny_game.py):
money held apart from cash, paid into and out of, counted by the money-conservation invariant and kept
through JSON; paying more than one holds is a run-time error; what the checker refuses of them.
(An account as the creditor of a debt is tests/test_account_creditors.py.)"""

from __future__ import annotations

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules

from tiny_game import BASE, errors


ACCOUNTS = """
global:
    rate: percent = 50%
    pot: account

action save own turn when player.cash >= $20 and player.savings.balance + $20 <= $40:   § "a player may never have more than 1,000,000:- deposited"
    pay $20 from player to player.savings

action withdraw(a: money from $10 to player.savings.balance step $10) own turn:
    pay a from player.savings to player

on land Jail:
    pay rate of player.savings.balance rounded down from bank to player.savings
    pay $1 from player to pot

scenario "a deposit is an account: saved, withdrawn, earning interest":
    players Ann, Bob
    do Ann save
    do Ann save
    forbid Ann save
    expect Ann.cash == $60 and Ann.savings.balance == $40
    do Ann withdraw $10
    forbid Ann withdraw $40
    expect Ann.cash == $70 and Ann.savings.balance == $30
    dice 3
    play turn of Ann
    expect Ann.savings.balance == $45
    expect pot.balance == $1 and Ann.cash == $69
"""


def account_rules(extra: str = ACCOUNTS):
    text = BASE.replace("    bonus: count = 0\n", "    bonus: count = 0\n    savings: account\n") + extra
    checked = check_program(parse_text(text, "tiny.rules"))
    assert not [d for d in checked.diagnostics if d.is_error], [d.message for d in checked.diagnostics]
    return compile_rules(checked)


def test_an_account_field_holds_money_apart_from_cash():
    from rulesc.interpreter.scenario import run_scenarios
    for result in run_scenarios(account_rules()):
        assert result.passed, result.failures


def test_accounts_are_counted_by_money_conservation_and_survive_json():
    from rulesc.interpreter.state import Account, state_from_json, state_to_json
    from rulesc.properties.invariants import InvariantChecker, PropertyFailure
    rules = account_rules()
    g = Game(rules, 2, seed=4, agents=make_agents("random", 4, 2), turn_limit=80)
    types = {name: type(name, (PropertyFailure,), {}) for name in ("money is conserved",)}

    class Types(dict):
        def __missing__(self, key):
            return PropertyFailure
    g.observer = InvariantChecker(g, rules, set(), Types(types))
    g.play()
    accounts = [p.f["savings"] for p in g.state.players] + [g.state.globals["pot"]]
    assert all(isinstance(a, Account) for a in accounts) and accounts[0].name == "P1.savings"
    assert any(a.balance for a in accounts)
    total = sum(p.f["cash"] for p in g.state.players) + g.state.bank.balance + sum(a.balance for a in accounts)
    fresh = Game(rules, 2, seed=4, agents=make_agents("random", 4, 2), turn_limit=80)
    assert total == sum(p.f["cash"] for p in fresh.state.players) + fresh.state.bank.balance
    data = state_to_json(g.state)
    back = state_from_json(data, g.state.things, {}, g.rules.player_class)
    assert state_to_json(back) == data
    assert back.players[0].f["savings"].balance == accounts[0].balance


def test_paying_more_than_an_account_holds_is_a_runtime_error():
    from rulesc.interpreter.errors import RuleRuntimeError
    rules = account_rules(ACCOUNTS + "\non land R1:\n    pay $5 from player.savings to bank\n")
    g = Game(rules, 2, seed=1, agents=make_agents("random", 1, 2))
    g.forced_dice.append((1,))
    with pytest.raises(RuleRuntimeError, match="holds 0 and cannot pay 5"):
        g.play_turn()


def test_account_misuse_is_reported():
    assert errors("global:\n    pot: account = bank\n") == ["R0210"]
    assert errors("global:\n    pot: account\n\non land R1:\n    set pot = bank\n") == ["R0309"]
