"""Differential testing: a game is the same game under every combination of the execution options.

Events recorded or not, invariant checks on or off, saved to JSON midway and loaded again, and
`simulate --jobs 1` or `--jobs 2` change what is recorded, watched or where a game is played, never
what a rule means (../shared/DESIGN.md, "Execution model"). The oracle, rulesc/differential.py, plays
one game under each combination and compares each with the plain game: the event log byte for byte,
the rule error that stopped it (code, message, line, column, events before it), the steps of its last
turn and the final state. Every shipped game, house rule in examples/ and the completeness file go
through it here; the grammar-generated games go through it in the fuzz test (test_fuzz_play.py) and
the long hunt (scripts/fuzz.py).

The step-budget house rule of issue 28 is the regression test: whatever code runs it, it stops with
R1002 at the same line after the same events under every combination. Nested deep in a rule whose
body is written into the turn's code (a handler or a phase with a condition), the same statements
once ran as generated code under one option and as compiled closures under another, which counted
the budget differently; every statement now has one implementation (stmtgen.py), and a statement
nested too deeply for one Python function is written into a function of its own, its steps counted
as in place.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import pytest

from rulesc import differential
from rulesc.differential import ALL_OPTIONS, PLAIN, Options, compare, describe, disagreements, play, play_all
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import load_rules
from rulesc.properties.invariants import STALL_TURNS
from rulesc.interpreter.savegame import load_game, play_turns, save_game

ROOT = Path(__file__).resolve().parent.parent
FILES = [*sorted((ROOT / "games").glob("*.rules")), *sorted((ROOT / "examples").glob("*.rules")),
         *sorted((ROOT / "examples" / "games").glob("*.rules")),
         ROOT / "tests" / "completeness" / "everything.rules", ROOT / "tests" / "cli_data" / "minimal.rules"]
BUDGET = ROOT / "tests" / "differential_data" / "finance-step-budget.rules"
TURN_CAP = 150  # turns of a game in the quick tests (the slow ones play whole games)


@functools.lru_cache(maxsize=None)
def rules_of(path: Path):
    return load_rules(str(path))


def players_for(rules, seed: int) -> int:
    low, high = rules.players_range
    return min(max(low, 2 + seed % 3), high)


def _id(path: Path) -> str:
    return path.name


# ---- every shipped game and example ------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("name, seed, agents", [("finance.rules", 0, "heuristic"), ("finance.rules", 1, "random"),
                                                ("wheeler.rules", 2, "heuristic"),
                                                ("everything.rules", 0, "heuristic")])
def test_a_game_is_the_same_game_under_every_combination_of_options(name, seed, agents):
    path = next(p for p in FILES if p.name == name)
    rules = rules_of(path)
    found = disagreements(rules, seed, players_for(rules, seed), agents, turn_limit=TURN_CAP)
    assert not found, describe(found)


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=_id)
def test_every_shipped_game_and_example_is_the_same_game_under_every_combination_of_options(path):
    rules = rules_of(path)
    found = []
    cap = None if rules.turn_limit else 500  # whole games, to the file's own turn limit if it has one
    for seed in range(2):  # one game of each kind of agent
        agents = ("heuristic", "random")[seed % 2]
        found += disagreements(rules, seed, players_for(rules, seed), agents, turn_limit=cap)
    assert not found, describe(found)


@pytest.mark.slow
def test_simulate_gives_every_game_the_same_figures_with_one_job_or_two():
    """Every shipped game and example, all played in one pool of two processes (as a sweep's values are)."""
    sets = [(rules_of(path), players_for(rules_of(path), 1)) for path in FILES]
    found = differential.jobs_disagreements(sets, 0, 4, "heuristic", jobs=2)
    assert not found, describe(found)


@pytest.mark.slow
def test_a_rule_error_in_a_worker_is_the_error_of_one_process():
    """The step-budget house rule stops each game with the same error, with one job or two; the
    game that stops does not take the others of the same pool with it."""
    sets = [(rules_of(BUDGET), 2), (rules_of(ROOT / "tests" / "cli_data" / "minimal.rules"), 2)]
    one = differential._simulated(sets, 3, 0, "heuristic", 1)
    assert isinstance(one[0], tuple) and isinstance(one[1], list) and len(one[1]) == 3  # (seed, error); records
    found = differential.jobs_disagreements(sets, 0, 3, "heuristic", jobs=2)
    assert not found, describe(found)


@pytest.mark.parametrize("save_after", [0, 1, 7])
def test_a_game_saved_after_any_turn_plays_on_as_the_unsaved_game(save_after):
    """Saved right after the setup, after the first turn, or later: the rest is the same, event for event."""
    rules = rules_of(ROOT / "games" / "finance.rules")
    runs = play_all(rules, 4, 3, "random", turn_limit=60, save_after=save_after,
                    options=[o for o in ALL_OPTIONS if o.saved])
    found = [d for o, run in runs.items() if o != PLAIN for d in compare("finance seed 4", runs[PLAIN], run)]
    assert not found, describe(found)
    assert all(run.save_after == save_after for o, run in runs.items() if o.saved)


def test_a_saved_game_is_json_and_loads_into_a_game_that_plays_on():
    rules = rules_of(ROOT / "games" / "finance.rules")
    game = Game(rules, 3, seed=9, agents=make_agents("random", 9, 3))
    play_turns(game, 12)
    assert game.state.turn == 12 and not game.state.over
    text = json.dumps(save_game(game))
    loaded = load_game(rules, json.loads(text), make_agents("random", 0, 3))
    game.play()
    loaded.play()
    assert loaded.state.turn == game.state.turn and loaded.state.end_reason == game.state.end_reason
    with pytest.raises(ValueError, match="not a saved game"):
        load_game(rules, {**json.loads(text), "format": 0})


# ---- the oracle finds what differs ---------------------------------------------------------------------------

def test_the_oracle_names_the_first_event_that_differs_and_both_events():
    rules = rules_of(ROOT / "games" / "finance.rules")
    plain = play(rules, 0, 3, "heuristic", turn_limit=20)
    other = play(rules, 0, 3, "heuristic", Options(checks=True), turn_limit=20)
    assert compare("g", plain, other) == []
    other.log[5] = other.log[5].replace('"turn"', '"Turn"')
    [found] = compare("g", plain, other)
    assert found.what == "event log" and found.index == 5
    assert found.expected == plain.log[5] and found.actual == other.log[5]
    assert "at event 5 between [events on, checks off] and [events on, checks on]" in str(found)


def test_the_oracle_finds_a_saved_game_that_lost_something(monkeypatch):
    """A save that forgets part of the state (here, one player's cash) makes another game."""
    save = differential.save_game

    def lossy(game):
        data = save(game)
        data["state"]["players"][0]["fields"]["cash"] += 1
        return data
    monkeypatch.setattr(differential, "save_game", lossy)
    rules = rules_of(ROOT / "games" / "finance.rules")
    found = disagreements(rules, 0, 3, "heuristic", turn_limit=30, options=[Options(events=False, saved=True)])
    assert found and found[0].what.startswith("final state (players[0].fields.cash: ")


def test_the_oracle_finds_an_error_that_differs():
    rules = rules_of(BUDGET)
    plain = play(rules, 0, 4, "heuristic")
    other = play(rules, 0, 4, "heuristic", Options(events=False))
    assert plain.error is not None and compare("g", plain, other) == []
    other.error = other.error._replace(line=other.error.line + 1)
    assert [d.what for d in compare("g", plain, other)] == ["rule error"]


# ---- the checker watches the same game, whatever the options ------------------------------------------------

def test_the_checker_finds_an_out_player_holding_leases_with_events_off_and_in_a_loaded_game():
    """It found him only with events on (with events off it failed with an IndexError looking for the event to
    blame), and not in a game loaded after the elimination (it knew only of eliminations it had seen)."""
    rules = rules_of(ROOT / "tests" / "differential_data" / "finance-leases-kept.rules")
    runs = play_all(rules, 0, 3, "heuristic", save_after=60, options=[o for o in ALL_OPTIONS if o.checks])
    assert {run.broken[0] for o, run in runs.items() if o.checks} == {"an out player holds nothing"}
    found = disagreements(rules, 0, 3, "heuristic", save_after=60)
    assert not found, describe(found)


@pytest.mark.slow
def test_the_checker_finds_a_stuck_game_at_the_same_turn_in_a_game_loaded_midway():
    """A checker that starts watching a loaded game counts the turns without change from there (it counted
    from turn 0, and found every game loaded after turn 60 stuck at once)."""
    rules = rules_of(ROOT / "tests" / "differential_data" / "stalls-after-a-while.rules")  # paid until turn 100
    runs = play_all(rules, 0, 2, "heuristic", options=[o for o in ALL_OPTIONS if o.checks])
    assert any(o.saved for o in runs)  # loaded at turn 200, long after the last change
    # the last payment is in turn 100; STALL_TURNS turns without a change later, turn 161 begins stuck
    assert {(run.broken[0], run.state["turn"]) for o, run in runs.items() if o.checks} == \
        {("the game progresses", 100 + STALL_TURNS + 1)}
    found = [d for o, run in runs.items() if o.checks and o != differential.CHECKED
             for d in compare("stalls seed 0", runs[differential.CHECKED], run)]
    assert not found, describe(found)


# ---- the step budget (issue 28) ------------------------------------------------------------------------------

PAYS = (10, 11)  # the lines of the two payments in finance-step-budget.rules


def _stops(runs: dict) -> set:
    """(code, file, line, column) of each run's stop."""
    return {(r.error.code, Path(r.error.file).name, r.error.line, r.error.column) for r in runs.values()}


@pytest.mark.slow
def test_the_step_budget_house_rule_stops_at_the_same_line_after_the_same_events_under_every_option():
    rules = rules_of(BUDGET)
    runs = play_all(rules, 0, 4, "heuristic")
    assert all(r.error is not None for r in runs.values())
    [(code, file, line, _column)] = _stops(runs)
    assert (code, file) == ("R1002", BUDGET.name) and line in PAYS
    assert len({len(r.log) for r in runs.values() if r.log is not None}) == 1
    found = [d for o, run in runs.items() if o != PLAIN for d in compare("step budget", runs[PLAIN], run)]
    assert not found, describe(found)


def nested(depth: int, where: str) -> str:
    """The step-budget house rule with its loops `depth` `if`s deep, in a handler or an inserted phase
    that has a condition (so that its body is written into the arrival's or the turn's own code)."""
    lines = BUDGET.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("on pass Start"))
    head = "on pass Start when true:" if where == "handler" else "insert phase count when true after move:"
    body = ["    " * (k + 1) + "if true:" for k in range(depth)]
    body += ["    " * depth + line for line in lines[start + 1:]]
    return "\n".join([*lines[:start], head, *body]) + "\n"


def _nested_disagreements(tmp_path: Path, depth: int, where: str, save_after: int | None = None) -> list:
    path = tmp_path / f"budget-{where}-{depth}.rules"
    path.write_text(nested(depth, where), encoding="utf-8")
    return disagreements(load_rules(str(path)), 0, 4, "heuristic", save_after=save_after)


@pytest.mark.slow
@pytest.mark.parametrize("where", ["handler", "phase"])
def test_the_step_budget_house_rule_stops_at_the_same_place_however_deep(tmp_path, where):
    """33 to 37 `if`s deep in `on pass Start when true:` or in an inserted phase, past the nesting one
    Python function holds: the payments, then the loops, are written into functions of their own (once
    they ran as closures, counting the budget otherwise). Played in one loop, a turn at a time (as a game
    to be saved is played), saved and loaded, with checks on or off: the same code, the same stop."""
    found = []
    for depth in range(33, 38):  # where the payments, then each loop, are written into functions of their own
        found += _nested_disagreements(tmp_path, depth, where, save_after=1)
    assert not found, describe(found)
