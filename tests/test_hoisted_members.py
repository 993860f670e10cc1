"""`any(q in L: f(q) == X)` inside a loop that neither L nor f reads is `X in H`, with H, the list of
f(q), worked out once before the loop (codegen `_hoisted_member`): in an aggregate, in a choice's
options and in a hint's loop over them. It answers as the `any` does, games play the same, and it is
not worked out before the loop where the list reads the loop's variable or may fail."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl import ast
from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.codegen import ExpressionCodegen
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules

MINIMAL = Path(__file__).parent / "cli_data" / "minimal.rules"  # Go, Red, Rest, Blue; lots bought and rented
TURN = """
        set player.near = count(s in squares where s != player.position and occupied(s))
        set player.landlords = count(p in players: any(l in Lot where l.owner == p: l.price == $60))
        choose "hop" by player for s in squares where s != Rest and not rich_here(s):
            move player to s
"""
DEFINES = """
define occupied(s: square) = any(q in players: q.position == s)
define rich_here(s: square) = any(q in players where q.cash > $450: s == q.position)
define never(s: square) = count(t in squares where t == s and t != s and any(q in players: q.near / (q.near - q.near) == 1))
hint hop(s: square) = if occupied(s) then $0 else sum(l in Lot where l == s: l.price)
"""
GAME = (MINIMAL.read_text()
        .replace("    start: Go\n", "    start: Go\n    turn limit: 120\n", 1)
        .replace("    cash: money = $500\n", "    cash: money = $500\n    state near: count = 0\n    state landlords: count = 0\n", 1)
        .replace("        move player by d.total\n", "        move player by d.total" + TURN, 1)) + DEFINES


def _rules():
    checked = check_program(parse_text(GAME, "hoisted.rules"))
    assert not [d for d in checked.diagnostics if d.severity == "error"]
    return compile_rules(checked)


def _log(rules, seed: int) -> list:
    game = Game(rules, 3, seed=seed, agents=make_agents("heuristic", seed, 3))
    game.play()
    return list(game.events)


@pytest.mark.slow
def test_games_play_the_same_with_the_lists_worked_out_once(monkeypatch):
    hoisted = [_log(_rules(), seed) for seed in range(6)]
    made = []
    member = ExpressionCodegen._hoisted_member
    monkeypatch.setattr(ExpressionCodegen, "_hoisted_member",
                        lambda self, *args: made.append(member(self, *args)))  # written as `any`, never as `in`
    looped = [_log(_rules(), seed) for seed in range(6)]
    assert [source for source in made if source is not None], "some list was worked out before its loop"
    assert hoisted == looped
    assert any(e.kind == "choose" for log in hoisted for e in log)
    assert {e.payload[3] for log in hoisted for e in log if e.kind == "set" and e.payload[1] == "near"} > {0}


def test_the_list_is_worked_out_before_a_loop_that_it_does_not_read():
    rules = _rules()
    choice = next(n for n in rules.program.turn.phases[0].body.statements if isinstance(n, ast.ChooseFor))
    source, _, _, hoisted = rules.compiler.codegen.inline_in_loop(
        choice.where, frozenset({"player"}), {"s": "v_s"}, ("v_s",))
    assert len(hoisted) == 1 and "v_s in " + hoisted[0][0] in source
    assert "v_s" not in hoisted[0][1]


def test_a_list_reading_the_loops_variable_is_not_worked_out_before_it():
    rules = _rules()
    aggregate = rules.program.turn.phases[0].body.statements[3].value  # count(p in players: any(l … == p: …))
    source, _, _, hoisted = rules.compiler.codegen.inline_in_loop(
        aggregate.body, frozenset(), {"p": "v_p"}, ("v_p",))
    assert hoisted == [] and source.startswith("any(")


@pytest.mark.parametrize("seed", [0, 1])
def test_a_list_that_may_fail_is_not_worked_out_before_a_loop_that_never_reaches_it(seed):
    """`q.near / 0` fails; the loop's first test is false for every square, so its `any` is never
    computed: worked out before the loop, the list would fail where the rule does not."""
    rules = _rules()
    game = Game(rules, 3, seed=seed)
    game.setup()
    never = rules.compiler.codegen.defined(rules.program.defines["never"])
    assert [never(game, {"s": s}) for s in game.square_list] == [0] * len(game.square_list)
