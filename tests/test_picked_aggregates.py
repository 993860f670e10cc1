"""An aggregate over a kind filtered by `p == X` looks at X alone (`Shapes.picked`), and answers
what the loop over every thing answers: for X a thing of the kind, of another kind, a plain square,
`none`; with the rest of the filter, in either order of the comparison, in every aggregate; and
where X is a name, with no loop at all (`_tested_on`), unless what it sums may be `none`."""

from __future__ import annotations

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter import helpers
from rulesc.interpreter.analysis import Shapes
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.rules import compile_rules

GAME = """\
game "Picked":
    players: 2 to 2
    start: Go

player:
    cash: money = $500

kind Lot:
    price: money
    state owner: player? = none
    state extra: money? = none

kind Barn:
    price: money

table Lot:
    name   price
    Alpha  $60
    Beta   $80
    Gamma  $90

table Barn:
    name   price
    Shed   $10

square Go "Go"

board:
    Go, Alpha, Shed, Beta, Gamma

turn:
    phase move:
        roll 2 dice as d
        move player by d.total

define total(s: square) = sum(l in Lot where l == s: l.price)
define unowned(s: square) = sum(l in Lot where s == l and l.owner == none: l.price)
define many(s: square) = count(l in Lot where l == s and l.price > $50 and l.owner == none)
define any_of(s: square) = any(l in Lot where l == s: l.price > $70)
define every(s: square) = all(l in Lot where l == s and l.owner == none: l.price > $70)
define found(s: square) = first(l in Lot where l == s)
define dearest(s: square) = max(l in Lot where l == s or l.price > $85: l.price)
define owned_by(q: player?) = count(l in Lot where l.owner == q)
define dear(s: square) = count(l in Lot where l == s: l.price > $70)
define anybody(s: square) = any(l in Lot: l == s and l.owner == none and l.price > $70)
define extra_of(s: square) = sum(l in Lot where l == s: l.extra)
define lot_price(t: Lot) = sum(l in Lot where l == t: l.price)
"""

DEFINES = ("total", "unowned", "many", "any_of", "every", "found", "owned_by", "dear", "anybody")


def _answers(rules) -> list:
    game = Game(rules, 2, seed=1)
    game.by_name["Beta"].f["owner"] = game.state.players[0]
    answers = []
    for name in DEFINES:
        define = rules.compiler.codegen.defined(rules.program.defines[name])
        arguments = game.state.players + [None] if name == "owned_by" else game.square_list + [None]
        for argument in arguments:
            value = define(game, {rules.program.defines[name].params[0][0]: argument})
            answers.append((name, getattr(argument, "name", argument), getattr(value, "name", value)))
    dearest = rules.compiler.codegen.defined(rules.program.defines["dearest"])
    answers += [("dearest", s.name, dearest(game, {"s": s})) for s in game.square_list]
    lot_price = rules.compiler.codegen.defined(rules.program.defines["lot_price"])
    answers += [("lot_price", t.name, lot_price(game, {"t": t})) for t in game.kind_things["Lot"]]
    return answers


def _compiled(monkeypatch, picked: bool):
    if not picked:
        monkeypatch.setattr(Shapes, "picked", lambda self, node: None)
    checked = check_program(parse_text(GAME, "picked.rules"))
    assert not [d for d in checked.diagnostics if d.severity == "error"]
    return compile_rules(checked)


def test_a_picked_aggregate_answers_as_the_loop_over_every_thing(monkeypatch):
    calls = []
    one = helpers.HELPERS["_one"]
    monkeypatch.setitem(helpers.HELPERS, "_one", lambda item, kind: calls.append(kind) or one(item, kind))
    picked = _answers(_compiled(monkeypatch, True))
    assert calls and set(calls) == {"Lot"}  # the filtered aggregates looked at one thing
    with monkeypatch.context() as m:
        looped = _answers(_compiled(m, False))
    assert picked == looped
    assert ("total", "Beta", 80) in picked and ("total", "Shed", 0) in picked and ("total", None, 0) in picked
    assert ("unowned", "Beta", 0) in picked and ("unowned", "Gamma", 90) in picked
    assert ("found", "Alpha", "Alpha") in picked and ("found", "Go", None) in picked
    assert ("dear", "Gamma", 1) in picked and ("dear", "Alpha", 0) in picked and ("dear", "Go", 0) in picked
    assert ("anybody", "Gamma", True) in picked and ("anybody", "Beta", False) in picked
    assert ("anybody", "Shed", False) in picked and ("anybody", None, False) in picked
    assert ("lot_price", "Gamma", 90) in picked


def test_a_picked_name_is_tested_itself_with_no_loop_unless_what_it_sums_may_be_none(monkeypatch):
    """`any(l in Lot: l == s and …)` (no `where`: the test picks too), `sum`, `count` and `all` over the
    one candidate `s` are tests written on `s`, no `_one` called. `l.extra` may be `none`: summed, that
    fails (a rule error), where `x if test else 0` would answer `none`; it keeps its loop over `_one`."""
    calls = []
    one = helpers.HELPERS["_one"]
    monkeypatch.setitem(helpers.HELPERS, "_one", lambda item, kind: calls.append(item) or one(item, kind))
    rules = _compiled(monkeypatch, True)
    game = Game(rules, 2, seed=1)
    defined = rules.compiler.codegen.defined
    beta = game.by_name["Beta"]
    for name in ("total", "many", "any_of", "every", "dear", "anybody", "lot_price"):
        define = rules.program.defines[name]
        defined(define)(game, {define.params[0][0]: beta})
    assert calls == []
    with pytest.raises(RuleRuntimeError, match="l.extra"):
        defined(rules.program.defines["extra_of"])(game, {"s": beta})
    assert calls == [beta]


@pytest.mark.parametrize("where", ["l.price == $60", "l == l", "l.owner == none and l == s"])
def test_a_filter_not_led_by_the_thing_compared_with_another_value_loops(where):
    """Only `p == X` first, X not reading `p`, picks: any other filter is tested on every thing."""
    rules_text = GAME + f"define other(s: square) = count(l in Lot where {where})\n"
    rules = compile_rules(check_program(parse_text(rules_text, "picked.rules")))
    node = rules.program.defines["other"].value
    assert rules.compiler.codegen.shapes.picked(node) is None


MEMBERS = """\
game "Members":
    players: 2 to 2
    start: Go

player:
    cash: money = $500

kind Lot:
    wins: [count]
    names: [text]

table Lot:
    name   wins       names
    Alpha  [2, 3]     ["a", "b"]
    Beta   []         []

square Go "Go"

board:
    Go, Alpha, Beta

turn:
    phase move:
        roll 2 dice as d
        move player by d.total

define has(l: Lot, n: count) = any(t in l.wins: t == n)
define named(l: Lot, s: text) = any(t in l.names: s == t)
define spare(l: Lot, n: count) = any(t in l.wins: t == n / (n - n))
"""


@pytest.mark.parametrize("lot, n, expected", [("Alpha", 3, True), ("Alpha", 4, False), ("Beta", 3, False)])
def test_any_item_equal_to_a_value_is_a_membership_test(lot, n, expected):
    """`any(t in L: t == X)` over numbers or text is `X in L`, with X computed only where L has items
    (as the loop computes it): a failing X over an empty list fails nothing."""
    rules = compile_rules(check_program(parse_text(MEMBERS, "members.rules")))
    game = Game(rules, 2, seed=0)
    thing = game.by_name[lot]
    defined = rules.compiler.codegen.defined
    program = rules.program
    assert defined(program.defines["has"])(game, {"l": thing, "n": n}) is expected
    assert defined(program.defines["named"])(game, {"l": thing, "s": "ab"[n % 2]}) is (lot == "Alpha")
    spare = defined(program.defines["spare"])
    if lot == "Beta":
        assert spare(game, {"l": thing, "n": n}) is False
    else:
        with pytest.raises(RuleRuntimeError, match="division by zero"):
            spare(game, {"l": thing, "n": n})
