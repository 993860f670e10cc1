"""The completeness test: one rules file (and one variant of it) that uses every construct of the
language, run through every pass, so a construct that a pass forgets fails the suite.

tests/completeness/everything.rules and everything-variant.rules must hold every AST node class
(`ast.NODE_CLASSES`) and every form of the constructs that have several; then each pass runs on
them: the checker, the compiler, whole games, the scenarios, the diagram, the property checker's
coverage and the docs. A new construct is added in order (grammar → AST → transform → checker →
compiler → engine → diagram → docs/language.md) and to everything.rules; until then this test fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesc.dsl import ast, walk
from rulesc.dsl.checker import check_program
from rulesc.dsl.parsed import parse_file
from rulesc.dsl.builtins import AGGREGATES, FUNCTIONS
from rulesc.dsl.variants import load_file
from rulesc.interpreter import events
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.stmtgen import StatementCodegen
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules
from rulesc.interpreter.scenario import run_scenarios
from rulesc.properties import check_properties
from rulesc.properties.coverage import QUIET_STATEMENTS
from rulesc.diagram import build_diagram
from rulesc.deck_diagram import build_deck_diagram
from rulesc.money import build_money_diagram, payments

HERE = Path(__file__).parent / "completeness"
BASE = HERE / "everything.rules"
VARIANT = HERE / "everything-variant.rules"
ROOT = Path(__file__).resolve().parent.parent
FILES = [BASE, VARIANT]


def nodes(path) -> list:
    """Every node of a file as written (a variant's changes, not the resolved game)."""
    return list(walk.walk(parse_file(path)))


@pytest.fixture(scope="module")
def written() -> list:
    return nodes(BASE) + nodes(VARIANT)


@pytest.fixture(scope="module", params=FILES, ids=lambda p: p.name)
def rules(request):
    checked = check_program(load_file(request.param))
    assert not [d for d in checked.diagnostics if d.is_error], [d.message for d in checked.diagnostics]
    return compile_rules(checked)


# ---- the files use everything ----------------------------------------------------------------------

def test_the_files_hold_every_node_class(written):
    missing = set(ast.NODE_CLASSES) - {type(n) for n in written}
    assert not missing, f"add to tests/completeness/everything*.rules: {sorted(c.__name__ for c in missing)}"


# The forms of the constructs that have several: each must be written at least once.
FORMS = {
    (ast.Literal, "type"): {"count", "money", "percent", "text", "bool", "none"},
    (ast.Move, "how"): {"by", "to", "back", "send", "place"},
    (ast.Aggregate, "func"): set(AGGREGATES),
    (ast.Call, "func"): set(FUNCTIONS),
    (ast.BinOp, "op"): {"+", "-", "*", "/"},
    (ast.Compare, "op"): {"==", "!=", "<", "<=", ">", ">="},
    (ast.BoolOp, "op"): {"and", "or"},
    (ast.Handler, "event"): {"land", "pass", "debt", "eliminate", "trade"},
    (ast.Hook, "which"): {"before", "after"},
    (ast.Deck, "policy"): {"cut", "reshuffle", "once", "cycle"},
    (ast.ActionDecl, "timing"): {"any time", "own turn"},
    (ast.ActionDecl, "per"): {None, "turn", "visit"},
    (ast.ActionDecl, "relation"): {None, "before", "in", "after"},
    (ast.Window, "only"): {"all", "named"},
    (ast.Variation, "what"): {"override param", "override game", "replace phase", "remove phase",
                              "replace card", "remove card", "extend deck", "remove scenario",
                              "replace handler", "remove handler", "replace action", "remove action",
                              "remove invariant", "remove end", "remove row", "remove deck", "remove param",
                              "override table", "override board", "insert phase after", "insert phase before",
                              "replace status phase", "remove status phase", "replace procedure", "replace define",
                              "replace case"},
    (ast.Bank, "unlimited"): {True},
    (ast.Card, "keep"): {True, False},
    (ast.Card, "lasting"): {True, False},
    (ast.Card, "later"): {True, False},
    (ast.Card, "tradable"): {True, False},
    (ast.Auction, "window"): {True, False},
    (ast.Auction, "bluffing"): {True, False},
    (ast.EndDecl, "after_turn"): {True, False},
    (ast.Auction, "passes"): {1, 2},
    (ast.Phase, "optional"): {True, False},
    (ast.SquareDecl, "off_board"): {True, False},
    (ast.SquareDecl, "stop"): {True, False},
    (ast.Field, "hidden"): {True, False},
    (ast.ScenarioAction, "expect_legal"): {True, False},
    (ast.ScenarioTrade, "mode"): {"do", "forbid", "offer", "refuse"},
    (ast.ScenarioAnswer, "refused"): {True, False},
    (ast.ScenarioSees, "visible"): {True, False},
    (ast.AnswerWindow, "relation"): {None, "in", "before", "after"},
    (ast.DiscardHeld, "to"): {"none", "a player"},
    (ast.Handler, "kinds"): {"one", "several"},
    (ast.TypeRef, "also"): {"one", "several"},
}


@pytest.mark.parametrize("cls, field", list(FORMS), ids=lambda x: x.__name__ if isinstance(x, type) else x)
def test_the_files_hold_every_form(written, cls, field):
    def form(value):
        if cls is ast.DiscardHeld:
            return "none" if value is None else "a player"
        if cls is ast.Window:
            return "named" if value else "all"
        if field in ("kinds", "also"):
            return "several" if value else "one"
        return value
    seen = {form(getattr(n, field)) for n in written if type(n) is cls}
    assert FORMS[cls, field] <= seen, f"{cls.__name__}.{field}: never written: {FORMS[cls, field] - seen}"


def test_the_walk_rejects_what_is_not_a_node():
    import attrs

    @attrs.frozen
    class Stray:
        x: int = 1

    bad = ast.Block(statements=(Stray(),), span=parse_file(BASE).span)
    with pytest.raises(walk.UnknownNode, match="Stray"):
        list(walk.walk(bad))


# ---- every pass handles everything -------------------------------------------------------------------

def test_every_statement_has_its_code_writer():
    """Each statement's meaning is written once, as the Python stmtgen.py writes for it."""
    missing = [c.__name__ for c in ast.STATEMENT_CLASSES if not hasattr(StatementCodegen, "_w_" + c.__name__)]
    assert not missing, f"interpreter/stmtgen.py has no _w_X for {missing}"


def test_every_event_kind_has_its_json_fields():
    source = "\n".join(p.read_text() for p in (ROOT / "interpreter").glob("*.py"))
    # `emit("kind", ...)`, or the same written out where an event is made every turn (engine.py's `pay`...,
    # the collaborators' `g.event_sink((g.state.turn, "window", ...))`, the generated code's
    # `write_emit(fn, indent, "turn", ...)`)
    emitted = set(re.findall(r'(?:emit\(\s*|event_sink\(\((?:self|g)\.state\.turn, |_emit\(fn, \w+, )"(\w+)"', source))
    assert emitted, "no emit(...) calls found: has the engine's event call changed?"
    assert emitted <= set(events.FIELDS), f"events without JSON fields: {emitted - set(events.FIELDS)}"
    assert set(events.FIELDS) <= emitted, f"JSON fields for events never emitted: {set(events.FIELDS) - emitted}"


def test_every_keyword_of_the_grammar_is_in_the_language_reference():
    grammar = (ROOT / "dsl" / "rules.lark").read_text()
    words = set(re.findall(r'"([a-z]+)"', grammar))
    reference = (ROOT / "docs" / "language.md").read_text()
    undocumented = sorted(w for w in words if not re.search(rf"`[^`\n]*\b{w}\b[^`\n]*`", reference))
    assert not undocumented, f"keywords not shown in docs/language.md: {undocumented}"


@pytest.mark.slow
def test_whole_games_play_to_their_end(rules):
    ended = set()
    for seed in range(6):
        players = 2 + seed % 3 if rules.program.game.title.endswith("Everything") else 2 + seed % 2
        kind = "heuristic" if seed % 2 == 0 else "random"
        game = Game(rules, players, seed=seed, agents=make_agents(kind, seed, players))
        game.setup()
        state = game.play()
        assert state.end_reason, f"seed {seed}: the game did not end"
        ended.add(state.end_reason)
        for _turn, kind_, _rule, payload in game.events:
            assert len(payload) == len(events.FIELDS[kind_]), kind_
        events.events_to_jsonl(game.events)  # every event serialises
    assert ended


def test_the_scenarios_pass(rules):
    results = run_scenarios(rules)
    assert len(results) >= 3
    assert all(r.passed for r in results), [(r.title, r.failures) for r in results if not r.passed]


def bodies(program) -> list:
    """Every block of statements the program declares."""
    return ([phase.body for phase in program.turn.phases] + [h.body for h in program.hooks]
            + [phase.body for status in program.statuses.values() for phase in status.phases]
            + [h.body for h in program.handlers] + [a.body for a in program.actions.values()]
            + [c.body for d in program.decks.values() for c in d.cards]
            + [pr.body for pr in program.procedures.values()]
            + ([program.setup.body] if program.setup is not None else []))


def test_the_diagram_draws_every_phase_and_deck(rules):
    dot = build_diagram(rules.program).source
    for phase in rules.program.turn.phases:
        assert f"phase_{phase.name}" in dot or f"{phase.name}" in dot, phase.name
    for status in rules.program.statuses.values():  # a status's own turn
        for phase in status.phases:
            assert f"_{phase.name}" in dot, phase.name
    for deck in rules.program.decks:
        assert f"deck_{deck}" in dot, deck
    assert "moves the man" in dot


def test_the_money_flow_shows_every_payment(rules):
    program = rules.program
    bodies = (list(program.handlers) + list(program.hooks) + list(program.actions.values())
              + list(program.procedures.values()) + [c for d in program.decks.values() for c in d.cards]
              + list(program.turn.phases) + ([program.setup] if program.setup is not None else [])
              + [phase for status in program.statuses.values() for phase in status.phases])
    pays = {(n.span.file, n.span.line) for n in walk.walk(tuple(bodies)) if isinstance(n, (ast.Pay, ast.Split))}
    assert pays
    shown = payments(program)
    assert {(p.line) for p in shown if p.rule != "a trade"} == {line for _, line in pays}
    dot = build_money_diagram(program).source
    assert all(f"{p.file}:{p.line}<" in dot for p in shown)
    for deck in program.decks:
        assert build_deck_diagram(program, deck).source.count("card_") >= len(program.decks[deck].cards)


def test_the_property_checker_covers_every_statement(rules):
    report = check_properties(rules, examples=8, max_turns=40)
    assert not report.failures, [f.invariant for f in report.failures]
    statements = next(item for item in report.coverage if item.what == "statements")
    loud = {(s.span.file, s.span.line) for body in bodies(rules.program) for s in walk.statements(body)
            if not isinstance(s, QUIET_STATEMENTS)}
    assert len(statements.total) == len(loud)
    assert statements.exercised > len(statements.total) // 2
