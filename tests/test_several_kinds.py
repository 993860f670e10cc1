"""Several kinds wherever a thing is bound (#32): `on land`/`on pass`/`on trade K or L x`, a `define` or
`procedure` parameter over several kinds, and `trade K x when COND`, a condition on each thing a trade
would move. Each is checked once per kind (a field one kind lacks is R0206) and runs for a thing of any
of them. On the tiny game (tests/tiny_game.py), with a second kind on its board."""

from __future__ import annotations

import pytest

import tiny_game
from tiny_game import BOND, assert_all_pass, checked, errors, scenarios

from rulesc.dsl.model import declared_handlers
from rulesc.diagram import build_diagram
from rulesc.diff import _declarations
from rulesc.docpage import render
from rulesc.interpreter.rules import compile_rules

@pytest.fixture(autouse=True)
def bond_on_the_board(monkeypatch):
    """The tiny game with a Bond, X1, as its last square."""
    monkeypatch.setattr(tiny_game, "BASE", tiny_game.BASE.replace("Go, R1, R2, Jail, B1", "Go, R1, R2, Jail, B1, X1")
                        + BOND)


def test_a_handler_over_several_kinds_runs_for_each():
    assert_all_pass("""
on land Lot or Bond t as sale when t.owner == none:
    pay t.price from player to bank
    set t.owner = player

scenario "a lot and a bond bought by one handler":
    players Ann, Bob
    as Ann:
        move player to R1
    as Bob:
        move player to X1
    expect R1.owner == Ann and Ann.cash == $90
    expect X1.owner == Bob and Bob.cash == $60
""")
    p = checked("on land Lot or Bond t as sale:\n    pass\n").program
    assert [h.target for h in p.handlers if h.name == "sale"] == ["Lot", "Bond"]  # a copy per kind, one declaration
    assert [h.name for h in declared_handlers(p)] == [None, "sale"]


def test_a_handler_over_several_kinds_reads_what_every_kind_has():
    bad = "on land Lot or Bond t when t.block == Red:\n    pass\n"
    assert errors(bad) == ["R0206"]
    assert "`Bond` has no field `block`" in next(d.message for d in checked(bad).diagnostics if d.is_error)
    assert errors("on land Lot or Nothing t:\n    pass\n") == ["R0205"]
    # one `as` name for the copies, not two handlers of one name
    assert errors("on land Lot or Bond t as sale:\n    pass\n") == []


def test_on_trade_over_several_kinds():
    assert_all_pass("""
trade Lot, Bond with cash

on trade Lot or Bond t as fee when t.price >= $20:
    pay $2 from player to bank

scenario "each thing traded, of either kind":
    players Ann, Bob
    set R2.owner = Ann
    set X1.owner = Ann
    do Ann trade R2, X1 to Bob for $10
    expect Bob.cash == $100 - $10 - $2 - $2
""")


def test_a_define_and_a_procedure_over_several_kinds():
    assert_all_pass("""
define half(t: Lot or Bond) = t.price / 2

procedure cash_in(t: Lot or Bond, q: player):
    pay half(t) from bank to q
    set t.owner = none

action sell(t: Lot or Bond) any time when t.owner == player:
    do cash_in(t, player)

scenario "a lot and a bond, by one define and one procedure":
    players Ann, Bob
    set R1.owner = Ann
    set X1.owner = Ann
    do Ann sell X1
    do Ann sell R1
    expect Ann.cash == $100 + $20 + $5
""")
    assert errors("define f(t: Lot or Bond) = t.block\n") == ["R0206"]
    assert errors("define f(t: Lot or Bond) = t.price\ndefine g() = f(Go)\n") == ["R0301"]  # not a thing of either
    assert errors("procedure f(t: Lot or Bond):\n    if t.block == Red:\n        pass\n") == ["R0206"]
    assert errors("define f(t: Lot or Nothing) = t.price\n") == ["R0205"]


RULE = """
trade Lot, Bond with cash
trade Lot l when all(r in l.block: r.owner == l.owner) == false     § "a whole block is never broken up"
"""


def test_a_trade_condition_on_what_is_traded():
    results = scenarios(RULE + """
scenario "a lot of a whole block is refused, a bond is not":
    players Ann, Bob
    set R1.owner = Ann
    set R2.owner = Ann
    forbid Ann trade R1 to Bob for $5
    set R2.owner = Bob
    do Ann trade R1 to Bob for $5
    set B1.owner = Ann
    do Ann trade B1 to Bob for $5
    set X1.owner = Bob
    do Bob trade X1 to Ann for $1
""")
    result = results["a lot of a whole block is refused, a bond is not"]
    assert not result.passed  # B1 is a whole block of one: refused
    [failure] = result.failures
    assert "B1" in failure.message and "may not be traded now" in failure.message
    assert "all(r in l.block" in failure.message


def test_a_trade_condition_is_checked_per_kind():
    assert errors("trade Lot, Bond with cash\ntrade Lot or Bond t when t.block == Red\n") == ["R0206"]
    assert errors("trade Lot, Bond with cash\ntrade Lot t when t.price\n") == ["R0301"]
    assert "R0403" in [d.code for d in checked("trade Lot with cash\ntrade Bond b when b.price > $0\n").diagnostics]


def test_the_passes_show_a_handler_over_several_kinds_once(tmp_path):
    extra = RULE + "on trade Lot or Bond t as fee:\n    pay $1 from player to bank\n"
    program = checked(extra).program
    dot = build_diagram(program).source
    assert dot.count("on trade Lot or Bond t") == 1
    found = _declarations(compile_rules(checked(extra)))
    assert [name for kind, name in found if kind == "handler" and "on trade" in name] == ["on trade Lot or Bond t as fee"]
    assert ("trade", "trade Lot l") in found
    path = tmp_path / "tiny.rules"
    path.write_text(tiny_game.BASE + extra)
    page = next(iter(render([str(path)], str(tmp_path / "tiny.md")).files.values()))
    assert page.count("on trade Lot or Bond t") == 1 and "trade Lot l" in page


def test_a_scenario_line_keeps_its_citation_and_a_failure_shows_it(tmp_path, capsys):
    extra = """
action tip any time when player.cash > $0:
    pay $1 from player to bank

scenario "cited lines":
    players Ann, Bob
    expect Ann.cash == $99        § "each starts with $99"
    forbid Ann tip                § "no tipping"
    do Bob tip                    § "tipping is allowed"
"""
    [result] = scenarios(extra).values()
    assert [(f.line, f.cite) for f in result.failures] == [(52, "each starts with $99"), (53, "no tipping")]
    path = tmp_path / "tiny.rules"
    path.write_text(tiny_game.BASE + extra)
    from rulesc.cli import main
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert '§ "each starts with $99"' in out and '§ "no tipping"' in out and "tipping is allowed" not in out
