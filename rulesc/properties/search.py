"""The search: Hypothesis plays whole games, one example a game, until an invariant breaks, then shrinks it.

One Hypothesis example is one whole game, drawn through `drawing`, with the invariants of
`invariants` checked after every event; a game whose rules crash (a `RuleRuntimeError`,
the step budget among them, or an agent's answer the engine refuses) is a failure too.
After a failure the search runs again with that invariant set aside, so every invariant
ends up either `ok` over a full search or with its own minimal game. Coverage is recorded
over every game played, whether or not anything failed.

How the search is kept short and repeatable:

- it runs first with a low turn cap, then higher ones up to `max_turns` (`turn_caps`), so
  a failure that a short game can show is found as a short game before shrinking starts;
- shrinking plays at most about `shrink_limit` games, then keeps the smallest failing game
  it has (only games that already failed fail again), so a failure costs bounded time;
- Hypothesis runs with `seed`, no database and no deadline: the same rules, examples, seed
  and turn cap always give the same report, word for word.
"""

from __future__ import annotations

import traceback
from typing import Callable

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from rulesc.interpreter.dealing import AgentError
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.events import NO_RULE
from rulesc.interpreter.rules import Rules

from .coverage import Coverage, coverage_report
from .drawing import DataRandom, HypothesisAgent, OutOfData, _Source, without_local_constants
from .failures import Failure, crash_message, crash_where, failure_record
from .invariants import BUILTIN, CRASH, InvariantChecker, PropertyFailure

VERBOSITY = Verbosity.quiet
SHRINK_LIMIT = 300  # games shrinking may play before it settles for what it has


@attrs.define
class PropertyReport:
    """What a property check found: each invariant's fate, the failures' minimal games, the coverage."""

    title: str
    path: str
    examples: int
    seed: int
    max_turns: int
    players_range: tuple
    invariants: list  # names, built-in first, then declared
    declared_at: dict  # declared invariant name -> RuleRef
    failures: list  # [Failure], in the order found
    coverage: list  # [CoverageItem]
    games: int  # games played in all, shrinking included
    caps: list  # the turn caps searched, in order
    stopped: int  # games that drew as much as one Hypothesis example may and stopped there

    @property
    def ok(self) -> bool:
        return not self.failures

    def failure_of(self, invariant: str) -> Failure | None:
        return next((f for f in self.failures if f.invariant == invariant), None)


def turn_caps(max_turns: int) -> list[int]:
    """The turn caps of the successive searches: `max_turns`, and quarters of it down to about 10."""
    caps = [max_turns]
    while caps[0] // 4 >= 4:
        caps.insert(0, caps[0] // 4)
    return caps


class _Search:
    """One Hypothesis search: the games that failed, and how many games shrinking has played."""

    def __init__(self):
        self.failing: set = set()  # drawn-value sequences of games that failed
        self.shrinks = 0  # games played since the first failure


def _observer(source: _Source, coverage: Coverage, invariants: InvariantChecker):
    """The game's observer: after every event, record coverage, start a turn's span, check the invariants."""

    def observe(game, kind, where, payload) -> None:
        coverage.event(kind, where, payload)
        if kind == "turn":
            source.new_turn()
        invariants(game, kind, where, payload)

    return observe


def check_properties(rules: Rules, examples: int = 100, seed: int = 0, max_turns: int = 200,
                     progress: Callable[[int], None] | None = None,
                     shrink_limit: int = SHRINK_LIMIT) -> PropertyReport:
    """Play `examples` Hypothesis-generated games per search and check every invariant.

    `progress`, if given, is called with the number of games played so far (shrinking
    included), e.g. to drive a progress bar. Shrinking a failure plays at most about
    `shrink_limit` games before it settles for the smallest failing game found so far
    (then a couple of hundred more, while Hypothesis notices that nothing smaller fails).
    """
    declared = [inv.text for inv in rules.invariants]
    names = list(dict.fromkeys([*BUILTIN, *declared]))
    # One exception class per invariant, so that Hypothesis shrinks each failure as its own.
    failure_types = {name: type(f"InvariantBroken{i}", (PropertyFailure,), {})
                     for i, name in enumerate(names + [CRASH])}
    coverage = Coverage()
    low, high = rules.players_range
    failures: list[Failure] = []
    skip: set = set()
    played = [0]
    stopped = [0]  # games that drew a whole example's worth of data before they ended

    def one_game(data, skip_now: frozenset, search: "_Search", cap: int):
        source = _Source(data)
        players = source.integer(low, high)
        rng = DataRandom(source)
        agents = {seat: HypothesisAgent(source) for seat in range(players)}
        game = Game(rules, players, seed=seed, agents=agents, record=True, rng=rng, turn_limit=cap)
        game.observer = _observer(source, coverage, InvariantChecker(game, rules, set(skip_now), failure_types))
        played[0] += 1
        if search.failing:
            search.shrinks += 1
        if progress is not None:
            progress(played[0])
        try:
            game.play()
            return
        except OutOfData:
            stopped[0] += 1
            return
        except PropertyFailure as failure:
            failure.game = game
            found = failure
        except (RuleRuntimeError, AgentError, RecursionError) as exc:
            if CRASH in skip_now:
                return
            found = failure_types[CRASH](CRASH, crash_message(exc), len(game.events) - 1 if game.events else None,
                                         crash_where(rules, game, exc), game, kind="crash")
        except HypothesisException:
            raise
        except Exception as exc:  # a bug in rulesc itself: report it with its game, not as a traceback
            if CRASH in skip_now:
                return
            found = failure_types[CRASH](CRASH, f"internal error in rulesc: {type(exc).__name__}: {exc}",
                                         len(game.events) - 1 if game.events else None,
                                         game.events[-1].rule if game.events else NO_RULE, game, kind="internal",
                                         detail=traceback.format_exc())
        key = tuple(source.drawn)
        if search.shrinks > shrink_limit and key not in search.failing:
            return  # shrinking has had its budget: only games that already failed fail again
        search.failing.add(key)
        raise found

    # Look for short failures first: the whole search at a low turn cap, then at higher
    # ones, so a broken invariant comes back as a game about as short as any that breaks
    # it, before the shrinker even starts. After a failure the search goes on at the same
    # cap with that invariant set aside (at the lower caps nothing at all failed).
    caps = turn_caps(max_turns)
    level = 0
    while level < len(caps):
        skip_now = frozenset(skip)
        state = _Search()
        cap = caps[level]

        @hypothesis_seed(seed)
        @settings(max_examples=examples, database=None, deadline=None, derandomize=True,
                  suppress_health_check=list(HealthCheck), phases=[Phase.generate, Phase.shrink],
                  report_multiple_bugs=False, verbosity=VERBOSITY, print_blob=False)
        @given(st.data())
        def search(data):
            one_game(data, skip_now, state, cap)

        try:
            with without_local_constants():
                search()
        except PropertyFailure as found:
            failures.append(attrs.evolve(failure_record(rules, found), cap=cap))
            skip.add(found.invariant)
            if skip >= set(names) | {CRASH}:
                break
            continue
        level += 1

    return PropertyReport(
        title=rules.title, path=rules.path, examples=examples, seed=seed, max_turns=max_turns,
        players_range=(low, high), invariants=names + [CRASH],
        declared_at={inv.text: inv.where for inv in rules.invariants},
        failures=failures, coverage=coverage_report(rules, coverage), games=played[0],
        caps=caps[:level + 1] if level < len(caps) else caps, stopped=stopped[0],
    )

