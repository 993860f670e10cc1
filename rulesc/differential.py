"""Differential testing: one game played under every combination of the execution options must be
the same game.

The options change what is recorded or watched, never what a rule means (../shared/DESIGN.md,
"Execution model"):

- events recorded or not (`Game(record=…)`; `simulate`, `diff` and `sweep` play with events off);
- invariant checks on or off (the property checker watching the game, as `rulesc run --check` and
  `simulate --check` play it: `InvariantChecker` as the observer, told when the game is settled);
- saved to JSON between two turns and loaded again midway (`savegame`), the rest played by the
  loaded game;
- `simulate --jobs 1` or `--jobs 2` (the games played here or in worker processes).

`disagreements(rules, seed, players, agents)` plays one game under each combination of the first
three and compares each with the plain one (events on, checks off, not saved): the event log line
for line as `rulesc run --log` writes it (byte for byte), the rule error that stopped it if one did
(code, message, file, line, column, and the events before it), the steps its last turn ran, and
the final state as JSON (turn, winner, end reason, every field, the dice generator). A run with
events off is compared by all but its log. A checked game that breaks an invariant stops there:
its log is compared with the plain game's as far as it went, and the other checked runs must break
the same invariant at the same event, in the same state. `jobs_disagreements` plays a run of seeds
with `simulate` in one process and in two and compares each game's figures, and each with the plain
game's.

Each difference comes back as a `Disagreement`, which says which game, which options, what differs,
and for a log the first event that differs, as both runs wrote it.
"""

from __future__ import annotations

import json
import os
from typing import NamedTuple

import attrs

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.events import event_to_json
from rulesc.interpreter.rules import Rules
from rulesc.interpreter.state import state_to_json

from rulesc.interpreter.savegame import load_game, play_turns, save_game


class Options(NamedTuple):
    """One combination of the execution options a single game can be played under."""

    events: bool = True  # the game records its events
    checks: bool = False  # the property checker watches every event (`rulesc run --check`)
    saved: bool = False  # saved to JSON between two turns and loaded again, the rest played by the loaded game

    def label(self, save_after: int | None = None) -> str:
        saved = f"saved after turn {save_after} and loaded" if save_after is not None else "saved and loaded"
        return ", ".join([f"events {'on' if self.events else 'off'}", f"checks {'on' if self.checks else 'off'}",
                          *([saved] if self.saved else [])])


PLAIN = Options()
CHECKED = Options(checks=True)
ALL_OPTIONS = tuple(Options(events, checks, saved) for saved in (False, True) for checks in (False, True)
                    for events in (True, False))


class ErrorStop(NamedTuple):
    """The rule error that stopped a game (R1001, or R1002 for the step budget)."""

    code: str
    message: str
    file: str
    line: int | None
    column: int | None

    def __str__(self) -> str:
        return f"{self.code} at {os.path.basename(self.file)}:{self.line}:{self.column}: {self.message}"


@attrs.define
class Played:
    """What one game gave under one set of options."""

    options: Options
    log: list | None  # the event log as `rulesc run --log` writes it, a JSON line an event; None with events off
    state: dict  # the final state, `state_to_json`
    steps: int  # the steps the last turn ran (the step budget's count)
    error: ErrorStop | None = None
    broken: tuple | None = None  # with checks: (invariant, index of the event after which it broke)
    save_after: int | None = None  # the turn after which it was saved, if it was

    @property
    def outcome(self) -> str:
        s = self.state
        if self.error is not None:
            return f"stopped in turn {s['turn']} by {self.error}"
        if self.broken is not None:
            return f"stopped in turn {s['turn']}: invariant `{self.broken[0]}` broke"
        if s["over"]:
            return f"ended after {s['turn']} turns: {s['end_reason']}; winner {s['winner']}"
        return f"unfinished after {s['turn']} turns"


@attrs.frozen
class Disagreement:
    """Two runs of one game that differ: `what` differs (`event log`, `rule error`, `final state`,
    `steps`, `figures`...), `expected` as the reference run gave it and `actual` as the other did."""

    game: str  # which game: file, seed, players, agents
    reference: str  # the reference run's options
    options: str  # the other run's
    what: str
    expected: str
    actual: str
    index: int | None = None  # for a log, the index of the first event that differs

    def __str__(self) -> str:
        at = f" at event {self.index}" if self.index is not None else ""
        return (f"{self.game}: {self.what} differs{at} between [{self.reference}] and [{self.options}]:\n"
                f"  {self.reference}: {self.expected}\n  {self.options}: {self.actual}")


def describe(disagreements: list) -> str:
    """Disagreements as text, for an assertion's message or a fuzzer's report."""
    return "\n".join(map(str, disagreements))


# ---- one game under one set of options ----------------------------------------------------------------------

def _checker(rules: Rules, game: Game):
    """The property checker watching `game` as `play_checked` sets it on (`rulesc run --check`)."""
    from .properties import InvariantChecker
    from .properties.search import _failure_types, _invariant_names
    game.observer = InvariantChecker(game, rules, set(), _failure_types(_invariant_names(rules)))


def _lines(events, start: int = 0) -> list:
    return [json.dumps(event_to_json(start + i, e), separators=(",", ":")) for i, e in enumerate(events)]


def _error(exc: RuleRuntimeError) -> ErrorStop:
    span = exc.span
    return ErrorStop(exc.code, exc.message, str(exc.path), span.line if span is not None else None,
                     span.column if span is not None else None)


def play(rules: Rules, seed: int, players: int, agents: str = "heuristic", options: Options = PLAIN,
         turn_limit: int | None = None, save_after: int = 1, keep_log: bool = True) -> Played:
    """Play one game of `rules` under `options`; with `options.saved`, it is saved after turn
    `save_after` (0: after the setup), loaded into a new game with new agents, and played on there.
    Without `keep_log` the events are recorded (as `options` says) but not written out as the log's
    lines: for a caller that reads only the final state."""
    from .properties import PropertyFailure

    def new_game() -> Game:
        game = Game(rules, players, seed=seed, agents=make_agents(agents, seed, players), record=options.events,
                    turn_limit=turn_limit)
        if options.checks:
            _checker(rules, game)
        return game

    game = new_game()
    log: list | None = [] if options.events and keep_log else None
    error = broken = None
    before = 0  # the events recorded before the game was saved
    try:
        if options.saved:
            play_turns(game, save_after)
            if not game.state.over:
                before = len(game.events) if options.events else 0
                if log is not None:
                    log += _lines(game.events)
                saved = json.loads(json.dumps(save_game(game)))  # through the text a file would hold
                other_seed = seed + 1_000_003  # new agents, seeded otherwise: only what was saved may matter
                game = load_game(rules, saved, make_agents(agents, other_seed, players), record=options.events)
                if options.checks:
                    _checker(rules, game)
        game.play()
    except RuleRuntimeError as exc:
        error = _error(exc)
    except PropertyFailure as failure:
        if failure.kind != "invariant":
            raise
        broken = (failure.invariant, before + (failure.event_index or 0))
    if log is not None:
        log += _lines(game.events, before)
    return Played(options, log, state_to_json(game.state), game.steps, error, broken,
                  save_after if options.saved else None)


# ---- comparing ----------------------------------------------------------------------------------------------

def _first_difference(a, b, path: str = "") -> str | None:
    """Where two JSON values first differ, as a path (`players[2].fields.cash: 150 != 90`)."""
    if type(a) is not type(b):
        return f"{path or 'the state'}: {json.dumps(a)} != {json.dumps(b)}"
    if isinstance(a, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b:
                return f"{path}.{key}: {'absent' if key not in a else json.dumps(a[key])} != " \
                       f"{'absent' if key not in b else json.dumps(b[key])}"
            found = _first_difference(a[key], b[key], f"{path}.{key}" if path else key)
            if found is not None:
                return found
        return None
    if isinstance(a, list):
        for i, (x, y) in enumerate(zip(a, b)):
            found = _first_difference(x, y, f"{path}[{i}]")
            if found is not None:
                return found
        if len(a) != len(b):
            return f"{path}: {len(a)} items != {len(b)} items"
        return None
    return None if a == b else f"{path}: {json.dumps(a)} != {json.dumps(b)}"


def _end(run: Played, events: int) -> str:
    """What a log that ends here says: how many events, and what stopped the game."""
    return f"(the log ends after {events} events: {run.outcome})"


def compare(game: str, reference: Played, other: Played) -> list:
    """How `other` differs from `reference` (the same game under other options): [Disagreement]."""
    ref_label, label = reference.options.label(reference.save_after), other.options.label(other.save_after)
    found: list = []

    def differs(what: str, expected, actual, index: int | None = None) -> None:
        found.append(Disagreement(game, ref_label, label, what, str(expected), str(actual), index))

    # A checked game stops where an invariant broke: an unchecked one is compared with it as far as it went;
    # two checked ones must break the same invariant at the same event.
    stopped = (other.broken is not None or reference.broken is not None) \
        and not (reference.options.checks and other.options.checks)
    if reference.log is not None and other.log is not None:
        a, b = reference.log, other.log
        if stopped:  # as far as the shorter went
            a, b = a[:len(b)], b[:len(a)]
        index = next((i for i, (x, y) in enumerate(zip(a, b)) if x != y), None)
        if index is None and len(a) != len(b):
            index = min(len(a), len(b))
        if index is not None:
            differs("event log", a[index] if index < len(a) else _end(reference, len(a)),
                    b[index] if index < len(b) else _end(other, len(b)), index)
            return found  # what follows from the first difference says no more
    if stopped:
        return found
    if (reference.broken or (None,))[0] != (other.broken or (None,))[0]:
        differs("broken invariant", reference.outcome, other.outcome)
    if reference.error != other.error:
        differs("rule error", reference.error or "no error", other.error or "no error")
    if reference.state != other.state:
        differs(f"final state ({_first_difference(reference.state, other.state)})", reference.outcome, other.outcome)
    if reference.steps != other.steps:
        differs("steps of the last turn", reference.steps, other.steps)
    return found


def game_label(rules: Rules, seed: int, players: int, agents: str) -> str:
    """Which game: the file, the seed, the players and the agents."""
    return f"{os.path.basename(rules.path)} seed {seed}, {players} players, {agents} agents"


def play_all(rules: Rules, seed: int, players: int, agents: str = "heuristic", turn_limit: int | None = None,
             save_after: int | None = None, options=ALL_OPTIONS) -> dict:
    """The game played under each of `options`: {Options: Played}. A saved run is saved after turn
    `save_after`, by default halfway through the plain game (after its setup if it lasts one turn)."""
    runs = {PLAIN: play(rules, seed, players, agents, PLAIN, turn_limit)}
    if save_after is None:
        save_after = runs[PLAIN].state["turn"] // 2
    for o in options:
        if o not in runs:
            runs[o] = play(rules, seed, players, agents, o, turn_limit, save_after)
    return runs


def disagreements(rules: Rules, seed: int, players: int, agents: str = "heuristic", turn_limit: int | None = None,
                  save_after: int | None = None, options=ALL_OPTIONS) -> list:
    """Play one game of `rules` under every combination of `options` and compare each with the plain
    one (events on, checks off, not saved); [] when they are all the same game."""
    runs = play_all(rules, seed, players, agents, turn_limit, save_after, options)
    label = game_label(rules, seed, players, agents)
    found = [d for o, run in runs.items() if o != PLAIN for d in compare(label, runs[PLAIN], run)]
    checked = runs.get(CHECKED)
    if checked is not None and checked.broken is not None:  # compared with the plain game only as far as it went:
        found += [d for o, run in runs.items() if o.checks and o != CHECKED for d in compare(label, checked, run)]
    return found


# ---- simulate --jobs --------------------------------------------------------------------------------------

def _simulated(sets: list, games: int, seed: int, agents: str, jobs: int) -> list:
    """`simulate`'s records of games `seed` .. `seed + games - 1` of each (rules, players) of `sets`, or
    the rule error that stopped it. With `jobs` > 1 the rule sets are played together, in one pool of
    worker processes; when a game of one of them stops with an error, each is played on its own."""
    from . import runner
    from .simulate import record_one
    rule_sets = [runner.RuleSet(rules, []) for rules, _ in sets]
    batches = [runner.Batch(i, first, count, (players, agents, False, False))
               for i, (_, players) in enumerate(sets) for first, count in runner.runs(games, seed, jobs)]
    try:
        records: list = [[] for _ in sets]
        for batch, results in zip(batches, runner.run(rule_sets, batches, record_one, jobs)):
            records[batch.rule_set] += results
        return records
    except RuleRuntimeError as exc:
        if len(sets) == 1:
            return [(exc.seed, _error(exc))]
        return [_simulated([one], games, seed, agents, jobs)[0] for one in sets]


def _record_of(played: Played) -> tuple:
    """A plain game's figures as `simulate` keeps them (turns, end reason, winner's seat, cash, who is out)."""
    s = played.state
    seats = {p["name"]: i + 1 for i, p in enumerate(s["players"])}
    return (s["turn"], s["end_reason"], seats.get(s["winner"]), tuple(p["fields"].get("cash", 0) for p in s["players"]),
            tuple(p["out"] for p in s["players"]))


def jobs_disagreements(sets: list, seed: int, games: int, agents: str = "heuristic", jobs: int = 2) -> list:
    """`simulate` of games `seed` .. `seed + games - 1` of each (rules, players) of `sets` with `--jobs 1`
    and with `--jobs jobs` (all of them in one pool of processes, as `simulate` plays a sweep's values):
    each game's figures the same (or the same rule error), and each the same as the game played alone
    with events on. The rules must have been loaded from their files (the worker processes load them
    again)."""
    found: list = []
    for (rules, players), one, many in zip(sets, _simulated(sets, games, seed, agents, 1),
                                           _simulated(sets, games, seed, agents, jobs)):
        found += _jobs_compared(rules, players, agents, seed, games, jobs, one, many)
    return found


def _jobs_compared(rules: Rules, players: int, agents: str, seed: int, games: int, jobs: int, one, many) -> list:
    """Where one rule set's records with one job (`one`) and with `jobs` (`many`) disagree, or differ
    from the games played alone."""
    found: list = []
    label = f"{rules.path} seeds {seed}..{seed + games - 1}, {players} players, {agents} agents"
    if isinstance(one, tuple) or isinstance(many, tuple):
        if one != many:
            found.append(Disagreement(label, "simulate --jobs 1", f"simulate --jobs {jobs}", "rule error",
                                      str(one if isinstance(one, tuple) else "no error"),
                                      str(many if isinstance(many, tuple) else "no error")))
        return found
    for a, b in zip(one, many):
        if a != b:
            field = next(f for f in a._fields if getattr(a, f) != getattr(b, f))
            found.append(Disagreement(f"{game_label(rules, a.seed, players, agents)}", "simulate --jobs 1",
                                      f"simulate --jobs {jobs}", f"figures ({field})", repr(getattr(a, field)),
                                      repr(getattr(b, field))))
    for record in one:  # and the simulated game (events off, money tallied by rule) is the plain game
        played = play(rules, record.seed, players, agents, keep_log=False)
        figures = (record.turns, record.reason, record.winner, record.cash, record.out)
        if played.error is None and figures != _record_of(played):
            found.append(Disagreement(game_label(rules, record.seed, players, agents), PLAIN.label(),
                                      "simulate --jobs 1", "figures (turns, end reason, winner, cash, out)",
                                      repr(_record_of(played)), repr(figures)))
    return found
