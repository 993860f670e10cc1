"""The dynamic property checker: Hypothesis-driven games, invariants, shrinking, coverage, report."""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.interpreter.actiongen import ActionChoice
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import load_rules
from rulesc.properties import (BUILTIN, CARDS, CRASH, MONEY, NEGATIVE, OUT, DataRandom, HypothesisAgent,
                               _Source, check_properties, format_report, turn_caps)

HERE = Path(__file__).resolve().parent
DATA = HERE / "properties_data"
FINANCE = HERE.parent / "games" / "finance.rules"
HOUSES = DATA / "houses.rules"
LOOP = DATA / "loop.rules"

FAST = dict(examples=30, max_turns=60)


def _variant(tmp_path, source: Path, name: str, old: str, new: str) -> Path:
    text = source.read_text(encoding="utf-8")
    assert old in text, f"{source.name} no longer contains {old!r}; update this test's text replacement"
    path = tmp_path / name
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def finance_report():
    return check_properties(load_rules(str(FINANCE)), **FAST)


@pytest.fixture(scope="module")
def houses_report():
    return check_properties(load_rules(str(HOUSES)), **FAST)


# ---- the real game --------------------------------------------------------------------------

@pytest.mark.slow
def test_finance_holds_every_invariant(finance_report):
    report = finance_report
    assert report.ok, format_report(report)
    assert report.failures == []
    assert report.invariants == [*BUILTIN, CRASH]
    text = format_report(report)
    assert text.startswith("property check: 30 games, players 2..6, up to 60 turns each\n")
    for name in (MONEY, NEGATIVE, CARDS, OUT, CRASH):
        assert re.search(rf"^  ok +{re.escape(name)}$", text, re.M), text
    assert "result: all invariants hold" in text


def test_finance_coverage_is_reported(finance_report):
    coverage = {item.what: item for item in finance_report.coverage}
    assert set(coverage) == {"rules", "statements", "squares", "cards", "phases"}
    assert len(coverage["squares"].total) == 35  # 40 squares, the Chance and Chest ones counted once
    assert len(coverage["cards"].total) == 13
    assert coverage["phases"].total == ["move"]
    assert coverage["phases"].missed == []
    # Thirty short games land on most of the board and run most of the rules.
    assert coverage["squares"].exercised >= 25
    assert coverage["rules"].exercised >= len(coverage["rules"].total) - 5
    text = format_report(finance_report)
    for item in coverage.values():
        assert f"{item.what:<11} exercised {item.exercised} of {len(item.total)}" in text


def test_coverage_of_a_variant_names_its_base_file():
    variant = HERE.parent / "games" / "wheeler-level1.rules"
    if not variant.exists():
        pytest.skip("no Wheeler Dealer Level One variant")
    report = check_properties(load_rules(str(variant)), examples=10, max_turns=20)
    rules = {item.what: item for item in report.coverage}["rules"]
    # Inherited rules point into the base file, with that file's text.
    inherited = [label for label in rules.total if label.startswith("wheeler.rules:")]
    assert inherited and all(len(label.split(" ", 1)) == 2 for label in inherited)


# ---- broken rules ---------------------------------------------------------------------------

@pytest.mark.slow
def test_an_out_player_who_keeps_his_leases_is_caught(tmp_path):
    text = FINANCE.read_text(encoding="utf-8")
    handler = text.index("on eliminate:")
    clear = re.compile(r"^[ \t]+set p\.owner = none[ \t]*\n", re.M).search(text, handler)
    assert clear is not None, "finance.rules' `on eliminate` no longer clears `owner`; update this test"
    broken = tmp_path / "finance_keeps_leases.rules"
    broken.write_text(text[:clear.start()] + text[clear.end():], encoding="utf-8")

    report = check_properties(load_rules(str(broken)), **FAST)
    assert not report.ok
    failure = report.failure_of(OUT)
    assert failure is not None, format_report(report)
    assert [f.invariant for f in report.failures] == [OUT]
    # The rule to blame is the one that put the player out.
    assert failure.rule.file == str(broken) and failure.rule.text.startswith("finance_keeps_leases.rules:")
    assert "eliminate" in failure.rule_text
    assert failure.trace[failure.event_index]["event"] == "eliminate"
    assert failure.trace[failure.event_index]["rule"] == failure.rule.text
    assert "is out" in failure.message and "still holds" in failure.message
    assert 2 <= failure.players <= 6
    # The trace runs to the end of the turn where the check fired.
    assert failure.trace[-1]["event"] in ("turn", "end")

    text = format_report(report)
    assert re.search(rf"^  FAILED +{re.escape(OUT)}$", text, re.M)
    assert f"rule: {failure.rule.text}    {failure.rule_text}" in text
    assert re.search(r"^    >> #\d+ +turn \d+ +eliminate ", text, re.M), text
    assert "result: 1 invariant broken" in text


@pytest.mark.slow
def test_a_declared_invariant_breaks_and_shrinks_to_a_short_game(houses_report):
    report = houses_report
    failure = report.failure_of("houses never exceed five")
    assert failure is not None, format_report(report)
    assert failure.kind == "invariant"
    assert failure.rule_text == "set p.houses = p.houses + 1"
    assert failure.rule.file == str(HOUSES) and failure.rule.text.startswith("houses.rules:")
    # The breaking event is the last one, and it is the sixth house going up.
    last = failure.trace[-1]
    assert failure.event_index == last["seq"] == len(failure.trace) - 1
    assert (last["event"], last["field"], last["new"]) == ("set", "houses", 6)
    # Shrunk: a short game (the search caps games at 15 turns first, then 60).
    assert failure.players <= 3
    assert failure.turns <= 15
    assert len(failure.trace) <= 150
    assert {name: rule.text for name, rule in report.declared_at.items()} == {"houses never exceed five": "houses.rules:76"}
    # Every other invariant was searched over in full and holds.
    assert [f.invariant for f in report.failures] == ["houses never exceed five"]

    text = format_report(report)
    assert re.search(r"^  FAILED +houses never exceed five +\(declared at houses.rules:76\)$", text, re.M)
    lines = text.splitlines()
    trace_end = max(i for i, line in enumerate(lines) if line.startswith("    >> "))
    assert "set" in lines[trace_end] and failure.rule.text in lines[trace_end]
    shown = [line for line in lines if re.match(r"^    (>>|  ) #\d+", line)]
    assert 1 <= len(shown) <= 25


@pytest.mark.slow
def test_money_made_from_nothing_breaks_conservation(tmp_path):
    path = _variant(tmp_path, HOUSES, "printing_money.rules",
                    "on pass Go:\n    pay pass_income from bank to player",
                    "on pass Go:\n    set player.cash = player.cash + pass_income")
    report = check_properties(load_rules(str(path)), **FAST)
    failure = report.failure_of(MONEY)
    assert failure is not None, format_report(report)
    assert failure.rule_text == "set player.cash = player.cash + pass_income"
    assert "+50" in failure.message
    assert failure.trace[failure.event_index]["event"] == "set"


def test_a_rule_that_loops_is_a_crash_reported_quickly():
    started = time.perf_counter()
    report = check_properties(load_rules(str(LOOP)), **FAST)
    elapsed = time.perf_counter() - started
    assert elapsed < 15, f"the looping rules took {elapsed:.1f}s to check"
    failure = report.failure_of(CRASH)
    assert failure is not None, format_report(report)
    assert failure.kind == "crash"
    assert "loop" in failure.message
    assert failure.rule.file == str(LOOP) and failure.rule.text.startswith("loop.rules:")
    assert failure.rule_text == "move player by 4"
    assert failure.trace[-1]["event"] in ("move", "land")
    text = format_report(report)
    assert re.search(rf"^  FAILED +{re.escape(CRASH)}$", text, re.M)
    assert "(the rules crashed)" in text


def test_a_bug_in_the_engine_is_reported_not_raised(monkeypatch):
    from rulesc.interpreter import market

    def broken(self, *args, **kwargs):  # an auction, the engine's own code, with a bug in it
        raise KeyError("boom")

    monkeypatch.setattr(market.Market, "auction", broken)
    report = check_properties(load_rules(str(HOUSES)), examples=10, max_turns=60)
    failure = report.failure_of(CRASH)
    assert failure is not None, format_report(report)
    assert failure.kind == "internal"
    assert "KeyError" in failure.message
    assert "Traceback" in failure.detail
    text = format_report(report)
    assert "internal error in rulesc" in text
    assert "Traceback" not in text and "--debug" in text
    assert "Traceback (most recent call last)" in format_report(report, debug=True)


# ---- determinism ------------------------------------------------------------------------------

@pytest.mark.slow
def test_same_seed_same_report(houses_report):
    again = check_properties(load_rules(str(HOUSES)), **FAST)
    assert format_report(again) == format_report(houses_report)


@pytest.mark.slow
def test_same_seed_same_report_when_everything_passes(finance_report):
    again = check_properties(load_rules(str(FINANCE)), **FAST)
    assert format_report(again) == format_report(finance_report)


@pytest.mark.slow
def test_the_seed_is_in_the_report():
    rules = load_rules(str(HOUSES))
    report = check_properties(rules, examples=10, max_turns=20, seed=7)
    assert report.seed == 7
    assert f"{rules.title} ({rules.path}), seed 7" in format_report(report)


# ---- the pieces -------------------------------------------------------------------------------

def test_turn_caps_search_short_games_first():
    assert turn_caps(200) == [12, 50, 200]
    assert turn_caps(60) == [15, 60]
    assert turn_caps(10) == [10]
    # Long games cost as much at a middle cap as at the top one: from short games straight to whole ones.
    assert turn_caps(1500) == [23, 1500]


@settings(max_examples=30, database=None, deadline=None)
@given(st.data(), st.integers(0, 12))
def test_data_random_draws_in_range_and_shuffles_a_permutation(data, n):
    rng = DataRandom(_Source(data))
    assert isinstance(rng, random.Random)
    assert 0.0 <= rng.random() < 1.0
    items = list(range(n))
    rng.shuffle(items)
    assert sorted(items) == list(range(n))


@settings(max_examples=20, database=None, deadline=None)
@given(st.data())
def test_hypothesis_agent_only_picks_what_it_is_offered(data):
    rules = load_rules(str(HOUSES))
    source = _Source(data)
    game = Game(rules, 2, rng=DataRandom(source), agents={0: HypothesisAgent(source), 1: HypothesisAgent(source)})
    agent, player = game.agents[0], game.state.players[0]
    bid = agent.bid(game, player, None, 10, 40)
    assert bid is None or 10 <= bid <= 40
    assert agent.choose(game, player, "which", ["a", "b", "c"]) in ("a", "b", "c")
    options = [ActionChoice("build", game.things[0])]
    assert agent.act(game, player, options, None) in (None, *options)
    assert agent.accept(game, player, None) in (True, False)


@pytest.mark.slow
def test_the_search_does_not_depend_on_what_else_is_imported(tmp_path, monkeypatch):
    """Hypothesis draws some values from the constants of the "local" modules loaded in the
    process; the search must not, or importing a module (or installing rulesc editable rather
    than from a wheel) changes the games a seed gives."""
    rules = load_rules(str(DATA / "houses.rules"))

    def games():
        report = check_properties(rules, examples=15, max_turns=30)
        return report.games, [(f.invariant, len(f.trace)) for f in report.failures]

    before = games()
    constants = ", ".join(str(n) for n in range(0, 600, 3))
    (tmp_path / "rulesc_local_constants_probe.py").write_text(f"VALUES = [{constants}]\nNAMES = ['a', 'b']\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import rulesc_local_constants_probe  # noqa: F401  (a local module, full of integers)
    assert games() == before
