"""An aggregate over a kind filtered by `p.owner == X` (a field that names a player, X a player)
looks at what X holds, kept by the game (`Shapes.held`, `Actions.held_by`), and answers what the
loop over every thing answers, in every aggregate, as things change hands; a filter by `none` or
by a player that may be `none` loops over every thing."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter import actions
from rulesc.interpreter.analysis import Shapes
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import NO_RULE
from rulesc.interpreter.rules import compile_rules

MINIMAL = Path(__file__).parent / "cli_data" / "minimal.rules"  # its Lot: Red $60, Blue $80, with an `owner`
DEFINES = """
define owned_total(q: player) = sum(l in Lot where l.owner == q: l.price)
define owned_count(q: player) = count(l in Lot where l.owner == q)
define owns_dear(q: player) = any(l in Lot: l.owner == q and l.price > $70)
define all_dear(q: player) = all(l in Lot where l.owner == q: l.price > $70)
define first_owned(q: player) = first(l in Lot where q == l.owner and l.price > $50)
define owned_list(q: player) = list(l in Lot where l.owner == q)
define unowned(q: player) = count(l in Lot where l.owner == none)
define maybe(q: player?) = count(l in Lot where l.owner == q)
"""

HELD = ("owned_total", "owned_count", "owns_dear", "all_dear", "first_owned", "owned_list")
LOOPED = ("unowned", "maybe")


def _rules(monkeypatch, held: bool):
    if not held:
        monkeypatch.setattr(Shapes, "held", lambda self, node: None)
    checked = check_program(parse_text(MINIMAL.read_text() + DEFINES, "held.rules"))
    assert not [d for d in checked.diagnostics if d.severity == "error"]
    return compile_rules(checked)


def _answers(rules) -> list:
    """Every define's answer for every player, as Red and Blue change hands."""
    game = Game(rules, 3, seed=0)
    game.setup()
    players = game.state.players
    defines = [(name, rules.compiler.codegen.defined(rules.program.defines[name])) for name in HELD + LOOPED]
    answers = []
    moves = [("Blue", 0), ("Red", 0), ("Blue", 1), ("Red", 2), ("Red", None), ("Blue", 0)]
    for step, (thing, seat) in enumerate(moves):
        game.set_field(game.by_name[thing], "owner", players[seat] if seat is not None else None, NO_RULE)
        for name, define in defines:
            for p in players:
                value = define(game, {"q": p})
                answers.append((step, name, p.name, [t.name for t in value] if isinstance(value, list)
                                else getattr(value, "name", value)))
    return answers


def test_an_aggregate_over_what_a_player_holds_answers_as_the_loop(monkeypatch):
    asked = []
    held_by = actions.Actions.held_by
    monkeypatch.setattr(actions.Actions, "held_by", lambda self, g, kind, field, player:
                        asked.append(field) or held_by(self, g, kind, field, player))
    held = _answers(_rules(monkeypatch, True))
    assert asked and set(asked) == {"owner"}
    with monkeypatch.context() as m:
        looped = _answers(_rules(m, False))
    assert held == looped
    assert (1, "owned_total", "P1", 140) in held and (2, "owned_total", "P1", 60) in held  # Red and Blue, then Red
    assert (1, "owned_list", "P1", ["Red", "Blue"]) in held and (3, "owned_list", "P3", ["Red"]) in held
    assert (4, "owned_count", "P3", 0) in held and (4, "unowned", "P1", 1) in held
    assert (2, "first_owned", "P2", "Blue") in held and (3, "owns_dear", "P3", False) in held
    assert (2, "all_dear", "P2", True) in held and (2, "all_dear", "P1", False) in held


@pytest.mark.parametrize("name", LOOPED)
def test_a_filter_by_none_or_by_a_player_that_may_be_none_loops(monkeypatch, name):
    rules = _rules(monkeypatch, True)
    assert rules.compiler.codegen.shapes.held(rules.program.defines[name].value) is None
