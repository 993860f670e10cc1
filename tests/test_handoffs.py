"""One-way, typed hand-offs between the phases (issue #7).

- parse -> check -> compile, each phase taking the previous one's result: `compile_rules`
  takes the checker's `Checked` and never checks again;
- `Rules` holds records with named fields, not positional tuples;
- an event names its rule by a `RuleRef` (the file's path and the line), made once per rule
  location; the log still shows `file.rules:12`, and the tools (coverage, the simulation
  summary, the diagram) attribute each rule to its own file even when a variant and its base
  have the same base name in different folders.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import attrs
import pytest

import rulesc.interpreter.rules as rules_module
from rulesc.diagram import build_diagram
from rulesc.dsl.checker import Checked, check_program
from rulesc.dsl.parser import parse_text
from rulesc.dsl.variants import load_file
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import NO_RULE, Event, RuleRef, event_to_json, events_to_jsonl
from rulesc.interpreter.rules import Rules, compile_rules, load_rules
from rulesc.properties import check_properties
from rulesc.simulate import format_summary, simulate

BASE = """\
game "Twins":
    players: 2 to 3
    start: Go
    turn limit: 40

player:
    cash: money = $100

square Go "Go"
square Fee "Fee"
square Gift "Gift"

board:
    Go, Fee, Gift

turn:
    phase move:
        roll 1 die as d
        move player by d.total
on land Fee when player.cash > $100000:
    pay $1 from player to bank

end when count(players) == 1 winner players[0] as "last one"
"""

VARIANT_RULE = """\
on land Gift when player.cash < $1000:
    pay $2 from bank to player
"""


def rule_line(text: str, start: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith(start))


@pytest.fixture
def twins(tmp_path):
    """`variant/game.rules` extends `../base/game.rules`: two files with one base name, each
    with a landing rule on the same lines."""
    line = rule_line(BASE, "on land Fee")
    variant = 'extends "../base/game.rules"\n' + "\n" * (line - 2) + VARIANT_RULE
    assert rule_line(variant, "on land Gift") == line  # the premise: the same line numbers in both
    (tmp_path / "base").mkdir()
    (tmp_path / "variant").mkdir()
    (tmp_path / "base" / "game.rules").write_text(BASE, encoding="utf-8")
    path = tmp_path / "variant" / "game.rules"
    path.write_text(variant, encoding="utf-8")
    return path, line


def files(rules: Rules) -> tuple[str, str]:
    """(the base's path, the variant's path), as the rules loaded them."""
    base = next(p for p in rules.program.sources if p != rules.path)
    assert Path(base).resolve().parent.name == "base"
    return base, rules.path


# ---- parse -> check -> compile -------------------------------------------------------------------


def test_compile_rules_takes_the_checkers_result_and_does_not_check_again(twins, monkeypatch):
    path, _ = twins
    checked = check_program(load_file(path))
    calls = []
    monkeypatch.setattr(rules_module, "check_program", lambda *a: calls.append(a) or check_program(*a))
    rules = compile_rules(checked)
    assert calls == [] and rules.checked is checked and rules.program is checked.program
    load_rules(str(path))
    assert len(calls) == 1  # load_rules: parse, check once, compile


def test_compile_rules_refuses_a_file_that_was_not_checked(twins):
    path, _ = twins
    with pytest.raises(TypeError, match="check_program"):
        compile_rules(load_file(path))


COUNT_CHECKS = """
import sys
import rulesc.cli as cli
import rulesc.commands.check as check_command
import rulesc.interpreter.rules as rules_module
from rulesc.dsl.checker import check_program
calls = []
def counting(rules_file):
    calls.append(rules_file.path)
    return check_program(rules_file)
check_command.check_program = rules_module.check_program = counting
status = cli.main(["check", sys.argv[1], "--examples", "2"])
print("checks:", calls, "status:", status)
"""


@pytest.mark.slow
def test_rulesc_check_checks_each_file_once(twins):
    # In a process of its own: the property check is not to share a process with other tests' state.
    path, _ = twins
    proc = subprocess.run([sys.executable, "-c", COUNT_CHECKS, str(path)], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "property check" in proc.stdout
    assert proc.stdout.splitlines()[-1] == f"checks: {[str(path)]} status: 0"


# ---- records, not tuples ----------------------------------------------------------------------------


def test_rules_tables_hold_records_not_tuples(twins):
    rules = load_rules(str(twins[0]))
    for field in attrs.fields(Rules):
        value = getattr(rules, field.name)
        items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
        for item in items:
            for element in (item if isinstance(item, list) else [item]):
                assert not isinstance(element, tuple), f"Rules.{field.name} holds a tuple: {element!r}"
    phase = rules.phases[0]
    assert (phase.name, phase.optional, phase.where.line) == ("move", False, rule_line(BASE, "    phase move"))
    assert rules.first_player.rule == "seat order"
    assert [e.reason for e in rules.ends] == ["last one"]


def test_an_event_is_a_record_and_its_rule_is_made_once_per_place(twins):
    path, line = twins
    rules = load_rules(str(path))
    base, variant = files(rules)
    game = Game(rules, 3, seed=2, agents=make_agents("heuristic", 2, 3))
    game.play()
    events = game.events
    assert all(isinstance(e, Event) for e in events)
    assert events[0].kind == "setup" and events[0].rule is NO_RULE and not NO_RULE
    by_place: dict = {}
    for e in events:
        assert by_place.setdefault((e.rule.file, e.rule.line), e.rule) is e.rule  # one object per rule location
    gifts = [e for e in events if e.kind == "pay" and e.payload[0] == 2]
    assert gifts and {(e.rule.file, e.rule.line) for e in gifts} == {(variant, line + 1)}
    moves = [e for e in events if e.kind == "move"]
    assert moves and {e.rule.file for e in moves} == {base}


def test_the_log_keeps_the_file_line_form(twins):
    path, line = twins
    rules = load_rules(str(path))
    game = Game(rules, 2, seed=5, agents=make_agents("heuristic", 5, 2))
    game.play()
    logged = [json.loads(text) for text in events_to_jsonl(game.events).splitlines()]
    assert logged[0]["rule"] == ""
    gift = next(e for e in logged if e["event"] == "pay" and e["amount"] == 2)
    assert gift["rule"] == f"game.rules:{line + 1}"
    assert list(gift) == ["seq", "turn", "event", "amount", "from", "to", "rule"]
    assert event_to_json(0, Event(1, "turn", RuleRef("/a/b/x.rules", 7), ("P1",))) == \
        {"seq": 0, "turn": 1, "event": "turn", "player": "P1", "rule": "x.rules:7"}
    assert RuleRef("/a/x.rules", 7) == RuleRef("/a/x.rules", 7) != RuleRef("/b/x.rules", 7)


# ---- the tools attribute each rule to its own file --------------------------------------------------


def test_the_summary_quotes_each_rule_from_its_own_file(twins):
    path, line = twins
    rules = load_rules(str(path))
    base, variant = files(rules)
    summary = simulate(rules, 4, 0, 2)
    gift_rule = RuleRef(variant, line + 1)
    assert summary.money_by_rule[gift_rule] > 0
    assert RuleRef(base, line + 1) not in summary.money_by_rule  # the base's fee never applies
    text = format_summary(summary, rules.program.sources)
    gift = next(row for row in text.splitlines() if "pay $2 from bank to player" in row)
    assert f"{variant}:{line + 1}" in gift


def test_coverage_names_each_rule_in_its_own_file(twins):
    path, line = twins
    rules = load_rules(str(path))
    base, variant = files(rules)
    report = check_properties(rules, examples=5, max_turns=20)
    assert report.ok
    cover = {item.what: item for item in report.coverage}
    fee = f"{base}:{line} on land Fee when player.cash > $100000"
    gift = f"{variant}:{line} on land Gift when player.cash < $1000"
    assert fee in cover["rules"].total and gift in cover["rules"].total
    assert fee in cover["rules"].missed  # the base's rule never runs ...
    assert gift not in cover["rules"].missed  # ... the variant's, on the same line of its file, does
    assert f"{base}:{line + 1} pay $1 from player to bank" in cover["statements"].missed
    assert f"{variant}:{line + 1} pay $2 from bank to player" in cover["statements"].total
    assert f"{variant}:{line + 1} pay $2 from bank to player" not in cover["statements"].missed


def test_the_diagram_quotes_each_condition_from_its_own_file(twins):
    path, _ = twins
    checked = check_program(load_file(path))
    assert isinstance(checked, Checked) and checked.ok
    dot = build_diagram(checked).source
    assert "player.cash &gt; $100000" in dot or "player.cash > $100000" in dot
    assert "player.cash &lt; $1000" in dot or "player.cash < $1000" in dot


def test_the_diagram_takes_what_was_checked_not_a_file():
    with pytest.raises(TypeError, match="check_program"):
        build_diagram(parse_text(BASE, "twins.rules"))


def test_an_action_or_hint_parameter_is_a_record():
    source = BASE.replace("square Go", "kind Lot:\n    price: money\n\ntable Lot:\n    name  price\n    L1    $5\n\n"
                          "square Go").replace("Go, Fee, Gift", "Go, Fee, Gift, L1")
    source += ('action buy(lot: Lot) any time when lot.price < player.cash:\n    pay lot.price from player to bank\n'
               'hint act_buy(lot: Lot) = 1\n')
    checked = check_program(parse_text(source, "twins.rules"))
    assert checked.ok, [d.message for d in checked.diagnostics if d.is_error]
    action, hint = checked.program.actions["buy"], checked.program.hints["act_buy"]
    assert (action.param.name, action.param.kind) == (hint.param.name, hint.param.kind) == ("lot", "Lot")
    rules = compile_rules(checked)
    assert (rules.actions[0].var, rules.actions[0].kind) == ("lot", "Lot")
    assert rules.hints["act_buy"].var == "lot" and rules.hint_kinds["act_buy"] == ("Lot",)
