"""The shapes the expression codegen writes as what they compute, not as their loops (`Shapes.picked`,
`_tested_on`, `Shapes.held`, `_hoisted_member`), answer — and fail — as the plain loops do: a property
over game states Hypothesis makes (who owns what, where the players stand, their cash), for each
shape in each aggregate, with the rest of a filter in either order, in loops and out of them."""

from __future__ import annotations

import functools
import re

import pytest
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.analysis import Shapes
from rulesc.interpreter.codegen import ExpressionCodegen
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.events import NO_RULE
from rulesc.interpreter.rules import compile_rules

MINIMAL = Path(__file__).parent / "cli_data" / "minimal.rules"  # Go, Red, Rest, Blue; Lot with price and owner

FILTERS = ["l.owner == q", "q == l.owner", "l.owner == q and l.price > $70", "l == s", "s == l and l.owner == q",
           "l == s and l.owner == none", "l.owner == none", "l.price > $70 and l.owner == q"]
EXPRESSIONS = [shape.format(f=f) for f in FILTERS for shape in (
    "any(l in Lot where {f}: l.price > $70)", "any(l in Lot: {f})", "all(l in Lot where {f}: l.price > $70)",
    "count(l in Lot where {f})", "count(l in Lot where {f}: l.price > $70)", "sum(l in Lot where {f}: l.price)",
    "first(l in Lot where {f})", "list(l in Lot where {f})", "max(l in Lot where {f}: l.price)",
    "best(l in Lot where {f}: l.price)")] + [
    "count(t in squares where any(p in players: p.position == t))",
    "count(t in squares where t != s and not any(p in players where p.cash > $100: t == p.position))",
    "sum(l in Lot where any(p in players: p.cash == l.price): l.price)",
    "count(p in players: any(l in Lot where l.owner == p: l.price == $60))",
    "count(p in players: any(l in Lot: l.owner == p and l == s))",
    "count(t in squares where t != t and any(p in players: p.cash / (count(players) - 3) == $1))",
    "sum(p in players: count(l in Lot where l.owner == p))",
]
DEFINES = "".join(f"define shape{k}(q: player, s: square) = {e}\n" for k, e in enumerate(EXPRESSIONS))
SHAPES = ((Shapes, "picked"), (ExpressionCodegen, "_tested_on"), (Shapes, "held"),
          (ExpressionCodegen, "_hoisted_member"))


def _rules(plain: bool):
    checked = check_program(parse_text(MINIMAL.read_text() + "\n" + DEFINES, "shapes.rules"))
    assert not [d for d in checked.diagnostics if d.severity == "error"], checked.diagnostics
    if not plain:
        return compile_rules(checked)
    saved = {(owner, name): getattr(owner, name) for owner, name in SHAPES}
    try:  # every shape written as its loop
        for owner, name in SHAPES:
            setattr(owner, name, lambda self, *args: None)
        rules = compile_rules(checked)
        for k in range(len(EXPRESSIONS)):  # compiled now, while the shapes are off
            rules.compiler.codegen.defined(rules.program.defines[f"shape{k}"])
        return rules
    finally:
        for (owner, name), method in saved.items():
            setattr(owner, name, method)


@functools.cache
def written_and_plain() -> tuple:
    """The rules with every shape, and with none: built once, by the first test that needs them (not
    while the suite is collected)."""
    return _rules(False), _rules(True)


def _answers(rules, owners, positions, cash, later) -> list:
    """Every shape's answer for every player and square; then again, once the lots changed hands as
    the rules change them (`Game.set_field`: what a game keeps is found again when it must be)."""
    game = Game(rules, 3, seed=0)
    game.setup()
    players = game.state.players
    for lot, owner in zip(game.kind_things["Lot"], owners):
        lot.f_owner = players[owner] if owner is not None else None
    for p, at, money in zip(players, positions, cash):
        p.at, p.f_cash = at, money
    answers = _all(rules, game)
    for lot, owner in zip(game.kind_things["Lot"], later):
        game.set_field(lot, "owner", players[owner] if owner is not None else None, NO_RULE)
    return answers + _all(rules, game)


def _all(rules, game) -> list:
    players = game.state.players
    answers = []
    for k in range(len(EXPRESSIONS)):
        define = rules.compiler.codegen.defined(rules.program.defines[f"shape{k}"])
        for q in players:
            for s in game.square_list:
                try:
                    value = define(game, {"q": q, "s": s})
                except RuleRuntimeError as failure:
                    value = f"fails: {failure}"
                answers.append((k, q.name, s.name, [v.name for v in value] if isinstance(value, list)
                                else getattr(value, "name", value)))
    return answers


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(owners=st.lists(st.none() | st.integers(0, 2), min_size=2, max_size=2),
       positions=st.lists(st.integers(0, 3), min_size=3, max_size=3),
       cash=st.lists(st.sampled_from([0, 60, 80, 100, 500]), min_size=3, max_size=3),
       later=st.lists(st.none() | st.integers(0, 2), min_size=2, max_size=2))
def test_each_shape_answers_and_fails_as_its_loop(owners, positions, cash, later):
    written, plain = written_and_plain()
    assert _answers(written, owners, positions, cash, later) == _answers(plain, owners, positions, cash, later)


def _names(code) -> set:
    """The names a code object and the code nested in it read and bind."""
    return set(code.co_names + code.co_varnames).union(*(_names(c) for c in code.co_consts if hasattr(c, "co_names")))


def test_the_shapes_are_written_where_they_apply():
    """Not a vacuous comparison: the written rules use each shape somewhere, the plain ones none."""
    names = []
    for rules in written_and_plain():
        functions = [rules.compiler.codegen.defined(rules.program.defines[f"shape{k}"]) for k in range(len(EXPRESSIONS))]
        names.append(set().union(*(_names(getattr(f, "plain", f).__code__) for f in functions)))
    written, plain = names
    for name in ("_one", "held_by", "_Thing"):
        assert name in written and name not in plain, name
    hoisted = {name for name in written if re.fullmatch(r"_h[0-9]+", name)}  # a list worked out before a loop
    assert hoisted and not {name for name in plain if re.fullmatch(r"_h[0-9]+", name)}
