"""Statements compiled to Python source (interpreter/stmtgen.py): written in place or as functions of their own
(as statements nested too deeply for one Python function are), they play the same games."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.events import events_to_jsonl
from rulesc.interpreter.rules import load_rules
from rulesc.interpreter.stmtgen import StatementCodegen

ROOT = Path(__file__).resolve().parent.parent
MINIMAL = Path(__file__).parent / "cli_data" / "minimal.rules"


def logs(path: str, seeds=range(4), agents="heuristic") -> list[str]:
    rules = load_rules(path)
    out = []
    for seed in seeds:
        players = 2 + seed % 3
        game = Game(rules, players, seed=seed, agents=make_agents(agents, seed, players))
        game.play()
        out.append(events_to_jsonl(game.events))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("game", ["games/finance", "games/wheeler", "games/wallstreet-short",
                                  "examples/finance-doubles-jail", "examples/finance-house-supply"])
def test_statements_written_apart_play_the_games_written_in_place(game, monkeypatch):
    """Every event, byte for byte, with each block written in one function and with every statement
    in a function of its own (the house rules use the moving roll, marks, statuses and a supply)."""
    path = str(ROOT / f"{game}.rules")
    generated = logs(path) + logs(path, range(2), "random")
    monkeypatch.setattr(StatementCodegen, "_too_deep", staticmethod(lambda fn, stmt, indent: True))
    assert logs(path) + logs(path, range(2), "random") == generated


def test_deep_nesting_and_long_elif_chains_compile_and_run(tmp_path):
    """Beyond Python's limits for one function (20 nested loops, 100 levels of indentation),
    statements are written as functions of their own; the game still plays."""
    depth, branches = 22, 110
    lines = ["on land Rest:"]
    for level in range(depth):
        lines.append("    " * (level + 1) + f"for p{level} in [player]:")
    lines.append("    " * (depth + 1) + "pay $1 from bank to player")
    lines.append("    if player.cash == $0:")
    lines.append("        pass")
    for k in range(1, branches):
        lines.append(f"    elif player.cash == ${k}:")
        lines.append("        pass")
    lines.append("    else:")
    lines.append("        pay $1 from player to bank")
    path = tmp_path / "deep.rules"
    path.write_text(MINIMAL.read_text() + "\n" + "\n".join(lines) + "\n")
    rules = load_rules(str(path))
    game = Game(rules, 2, seed=1, agents=make_agents("heuristic", 1, 2), turn_limit=40)
    game.play()
    first = next(i for i, e in enumerate(game.events) if e.kind == "land" and e.payload[1] == "Rest")
    after = [e.payload[1:] for e in game.events[first + 1:first + 3]]
    assert after == [("bank", game.events[first].payload[0]), (game.events[first].payload[0], "bank")], \
        "the innermost loop paid, then the chain's `else` did"


PAYMENTS = """\
game "Payments":
    players: 2 to 3
    start: Go

bank $2500

player:
    cash: money = $120
    saved: account

global:
    pot: account

square Go "Go"
square Tax "Tax"
square Gift "Gift"
square Pot "Pot"
square Nothing "Nothing"
square Swap "Swap"

board:
    Go, Tax, Gift, Pot, Nothing, Swap

turn:
    phase move:
        roll 2 dice as d
        move player by d.total

on pass Go:
    pay $100 from bank to player

on land Tax:
    pay $90 from player to pot
    pay $40 from player to player.saved

on land Gift:
    pay pot.balance from pot to player
    pay $0 from player to bank

on land Pot:
    pay player.saved.balance from player.saved to pot

on land Nothing:
    pay $25 from player to player

on land Swap:
    for p in players:
        if p != player:
            pay $120 from player to p

on debt:
    pay debtor.cash from debtor to creditor
    eliminate debtor

end when count(players) == 1 winner players[0] as "last player standing"
"""


def test_every_shape_of_payment_written_out_pays_as_game_pay_does(tmp_path, monkeypatch):
    """A limited bank (which runs dry), an account to a player and back, a pot, nothing to pay, a
    player paying himself, debts paid to a player and to an account (`creditor`): the written-out
    payments make the games, and the money paid by each rule, that `Game.pay` makes."""
    path = tmp_path / "payments.rules"
    path.write_text(PAYMENTS)

    def played() -> list:
        rules = load_rules(str(path))
        out = []
        for seed in range(12):
            game = Game(rules, 2 + seed % 2, seed=seed, agents=make_agents("random", seed, 2 + seed % 2),
                        turn_limit=10 + 5 * seed)
            game.paid_by_rule = {}
            try:
                game.play()
                ending = None
            except Exception as error:  # the limited bank running dry ends some games with an error
                ending = str(error)
            out.append((events_to_jsonl(game.events), sorted((w.text, v) for w, v in game.paid_by_rule.items()), ending))
        return out

    written = played()
    assert any(ending for _, _, ending in written) and not all(ending for _, _, ending in written)
    assert any('"event":"eliminate"' in log for log, _, _ in written)
    monkeypatch.setattr(StatementCodegen, "_too_deep", staticmethod(lambda fn, stmt, indent: True))
    assert played() == written



def test_a_choice_whose_test_fails_fails_alike_in_place_and_apart(tmp_path, monkeypatch):
    """The options of `choose … for x in … where TEST` are a comprehension with TEST written in it:
    a TEST that fails is the same rule error, at the same place, written in place or apart."""
    path = tmp_path / "choice.rules"
    path.write_text(MINIMAL.read_text() + "\non land Rest:\n"
                    "    choose \"pick\" by player for q in players where q.cash / (count(players) - 2) > $0:\n"
                    "        pass\n")
    rules = load_rules(str(path))
    errors = []
    for written in (True, False):
        if not written:
            monkeypatch.setattr(StatementCodegen, "_too_deep", staticmethod(lambda fn, stmt, indent: True))
            rules = load_rules(str(path))
        game = Game(rules, 2, seed=1, agents=make_agents("heuristic", 1, 2), turn_limit=40)
        with pytest.raises(RuleRuntimeError) as caught:
            game.play()
        errors.append((str(caught.value), caught.value.span))
    assert "division by zero" in errors[0][0]
    assert errors[0] == errors[1]


def test_a_procedure_that_calls_itself_is_stopped_at_the_depth_limit_in_place_and_apart(tmp_path, monkeypatch):
    """`do` written out counts the depth itself (no `Game.run_procedure` in between): a procedure
    that calls itself is stopped with the same error, at the same `do`, as when written apart."""
    text = MINIMAL.read_text().replace("on pass Go:", "procedure again(p: player, n: money):\n"
                                       "    if p.cash > $0:\n        do again(p, n + $1)\n\n"
                                       "on land Rest:\n    do again(player, $0)\n\non pass Go:")
    path = tmp_path / "again.rules"
    path.write_text(text)
    line = text.splitlines().index("        do again(p, n + $1)") + 1

    def stopped() -> str:
        game = Game(load_rules(str(path)), 2, seed=1, agents=make_agents("heuristic", 1, 2))
        with pytest.raises(RuleRuntimeError, match="procedures call procedures more than") as info:
            game.play()
        assert info.value.span.line == line
        return str(info.value)
    written = stopped()
    monkeypatch.setattr(StatementCodegen, "_too_deep", staticmethod(lambda fn, stmt, indent: True))
    assert stopped() == written
