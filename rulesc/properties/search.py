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
  and turn cap always give the same report, word for word;
- the caps rise to the game's own turn limit, but a search in which no game reached its cap
  is the last: at a higher cap Hypothesis would draw the very same games.

Every game of the search either ends by a rule, stops at the search's turn cap, or stops at
Hypothesis's data limit; the report counts each. A failure keeps every value its game drew,
so `rulesc run --draws` plays it again.

Then the whole games: `games` seeded games with the heuristic agents, to the game's own turn
limit, with every invariant checked after every event; long games are where late-game rules
live. They are `rulesc simulate`'s own games: game `i` has seed `seed + i` and the default seats,
so a rule that breaks in a default simulation's first games breaks the check in the same game, and
`rulesc run FILE --seed S --players K --check` plays it again (the search varies the player count).
Each whole game's profile (rulesc/properties/profile.py) goes to the judge (rulesc/judge/).
"""

from __future__ import annotations

import contextlib
import traceback
from typing import Callable, NamedTuple

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import DEFAULT_TURN_LIMIT, Game
from rulesc.interpreter.errors import AgentError, RuleRuntimeError
from rulesc.interpreter.events import NO_RULE
from rulesc.interpreter.rules import Rules

from .coverage import Coverage, coverage_report
from .drawing import DataRandom, HypothesisAgent, OutOfData, _Source, encode_draws
from .failures import Failure, crash_message, crash_where, failure_record
from .invariants import BUILTIN, CRASH, InvariantChecker, PropertyFailure
from .profile import GameProfile, Profiler, paying_handlers

WHOLE_GAMES = 50  # seeded whole games with the heuristic agents, by default (they are cheap beside the search)

VERBOSITY = Verbosity.quiet
SHRINK_LIMIT = 300  # games shrinking may play before it settles for what it has
SHRINK_DRAWS = 600  # a failing game that drew more values than this is reported unshrunk


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
    capped: int = 0  # games of the search that reached the search's turn cap
    longest: int = 0  # the most turns any game of the search played
    whole_games: int = 0  # seeded whole games played with the heuristic agents
    whole_turns: list = attrs.Factory(list)  # each whole game's length in turns
    whole_limited: list = attrs.Factory(list)  # seeds of whole games that reached the turn limit, unbroken
    turn_limit: int = 0  # the game's own turn limit
    whole_seats: int = 0  # the players each whole game seated
    profiles: list = attrs.Factory(list)  # [GameProfile] of each whole game, in seed order
    whole_coverages: list = attrs.Factory(list)  # [Coverage] of each whole game, in seed order
    search_coverage: Coverage | None = None  # what the generated games of the search covered

    @property
    def ok(self) -> bool:
        return not self.failures

    def failure_of(self, invariant: str) -> Failure | None:
        return next((f for f in self.failures if f.invariant == invariant), None)


SHORT_GAME = 64  # the search caps below the top one are of short games: at most this many turns


def turn_caps(max_turns: int) -> list[int]:
    """The turn caps of the successive searches: `max_turns`, and before it the quarters of it, down
    to about 10, that are short games (at most `SHORT_GAME` turns). A long game costs as much at a
    middle cap as at the top one, so the search goes from short games straight to whole ones."""
    caps = [max_turns]
    cap = max_turns
    while cap // 4 >= 10:
        cap //= 4
        if cap <= SHORT_GAME:
            caps.append(cap)
    return sorted(caps)


@contextlib.contextmanager
def _no_local_constants():
    """Hypothesis mixes into what it draws the literals it finds in the source of every non-library
    module loaded so far, so a check would draw other games once another module (the CLI, a test) had
    been imported. Within the check it sees none: the same rules and seed always draw the same games."""
    try:
        from hypothesis.internal.conjecture import providers
        empty = providers.Constants(integers=providers.SortedSet(),
                                    floats=providers.SortedSet(key=providers.float_to_int),
                                    bytes=providers.SortedSet(), strings=providers.SortedSet())
        real, cache = providers._get_local_constants, providers.CONSTANTS_CACHE
        fresh = type(cache)(1024)
    except (ImportError, AttributeError, TypeError):  # pragma: no cover - another Hypothesis
        yield
        return
    providers._get_local_constants, providers.CONSTANTS_CACHE = (lambda: empty), fresh
    try:
        yield
    finally:
        providers._get_local_constants, providers.CONSTANTS_CACHE = real, cache


def examples_at(examples: int, caps: list, cap: int) -> int:
    """Games per search: `examples` of short games; half as many at a long cap above short ones,
    where each game costs many short ones and the seeded whole games play long games too."""
    return examples if cap <= SHORT_GAME or cap == caps[0] else max(1, examples // 2)


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


def _failure_types(names: list) -> dict:
    """One exception class per invariant, so that Hypothesis shrinks each failure as its own."""
    return {name: type(f"InvariantBroken{i}", (PropertyFailure,), {}) for i, name in enumerate(names + [CRASH])}


def _invariant_names(rules: Rules) -> list:
    return list(dict.fromkeys([*BUILTIN, *(inv.text for inv in rules.invariants)]))


def _play(rules: Rules, game: Game, skip_now: frozenset, failure_types: dict):
    """Play `game` to its end; the PropertyFailure it raised, or None."""
    try:
        game.play()
        return None
    except PropertyFailure as failure:
        failure.game = game
        return failure
    except (RuleRuntimeError, AgentError, RecursionError) as exc:
        if CRASH in skip_now:
            return None
        return failure_types[CRASH](CRASH, crash_message(exc), len(game.events) - 1 if game.events else None,
                                    crash_where(rules, game, exc), game, kind="crash")
    except (HypothesisException, OutOfData):
        raise
    except Exception as exc:  # a bug in rulesc itself: report it with its game, not as a traceback
        if CRASH in skip_now:
            return None
        return failure_types[CRASH](CRASH, f"internal error in rulesc: {type(exc).__name__}: {exc}",
                                    len(game.events) - 1 if game.events else None,
                                    game.events[-1].rule if game.events else NO_RULE, game, kind="internal",
                                    detail=traceback.format_exc())


class WholeGame(NamedTuple):
    """What one seeded whole game of the check gave (small and plain: it comes back from a worker)."""

    turns: int
    limited: bool  # it reached the turn limit, unbroken
    coverage: Coverage
    failure: Failure | None  # the invariant it broke (the game stopped there), as a record
    profile: GameProfile  # how it went, for the judge (rulesc/judge/)


def play_whole_game(rules: Rules, seed: int, players: int, max_turns: int, skip: frozenset) -> WholeGame:
    """One seeded whole game with the heuristic agents, every invariant not in `skip` checked after every event."""
    failure_types = _failure_types(_invariant_names(rules))
    game = Game(rules, players, seed=seed, agents=make_agents("heuristic", seed, players), record=True,
                turn_limit=max_turns)
    checker = InvariantChecker(game, rules, set(skip), failure_types)
    coverage = Coverage()
    profiler = Profiler(paying_handlers(rules))

    def observe(g, kind, where, payload):
        coverage.event(kind, where, payload)
        profiler(g, kind, where, payload)
        checker(g, kind, where, payload)

    game.observer = observe
    found = _play(rules, game, skip, failure_types)
    limited = found is None and game.state.end_reason == "turn limit"
    return WholeGame(game.state.turn, limited, coverage, failure_record(rules, found) if found is not None else None,
                     profiler.profile(game, seed))


def replay_args(rules: Rules, set_args=(), turn_limit: int | None = None) -> list[str]:
    """The `rulesc run` arguments common to every replay of a game of these rules."""
    args = ["run", rules.path]
    for item in set_args:
        args += ["--set", item]
    own = rules.turn_limit or DEFAULT_TURN_LIMIT
    if turn_limit is not None and turn_limit != own:
        args += ["--turn-limit", str(turn_limit)]
    return args


def check_properties(rules: Rules, examples: int = 100, seed: int = 0, max_turns: int | None = None,
                     progress: Callable[[int], None] | None = None,
                     shrink_limit: int = SHRINK_LIMIT, games: int = 0, set_args=(), jobs: int | None = 1,
                     dask: str | None = None) -> PropertyReport:
    """Play `examples` Hypothesis-generated games per search and check every invariant, then `games`
    seeded whole games with the heuristic agents.

    `max_turns` is the highest turn cap of the search and the whole games' turn limit (by
    default the game's own). `progress`, if given, is called with the number of games played
    so far (shrinking included), e.g. to drive a progress bar. Shrinking a failure plays at
    most about `shrink_limit` games before it settles for the smallest failing game found so
    far (then a couple of hundred more, while Hypothesis notices that nothing smaller fails).
    `set_args` are the `--set` overrides the rules were compiled with, for the replay commands
    (and for the processes that play the whole games: `jobs` of them, or a Dask cluster at `dask`).
    """
    own_limit = rules.turn_limit or DEFAULT_TURN_LIMIT
    max_turns = max_turns or own_limit
    names = _invariant_names(rules)
    failure_types = _failure_types(names)
    coverage = Coverage()
    low, high = rules.players_range
    failures: list[Failure] = []
    skip: set = set()
    played = [0]
    stopped = [0]  # games that drew a whole example's worth of data before they ended
    capped = [0]  # games that reached the search's turn cap
    longest = [0]
    reached = [False]  # whether a game of this level's search reached its cap

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
            found = _play(rules, game, skip_now, failure_types)
        except OutOfData:
            stopped[0] += 1
            found = None
        longest[0] = max(longest[0], game.state.turn)
        if found is None:
            if game.state.end_reason == "turn limit" and game.state.turn >= cap:
                capped[0] += 1
                reached[0] = True
            return
        found.draws = list(source.drawn)
        key = tuple(source.drawn)
        if search.shrinks > shrink_limit and key not in search.failing:
            return  # shrinking has had its budget: only games that already failed fail again
        search.failing.add(key)
        raise found

    # Look for short failures first: the whole search at a low turn cap, then at higher
    # ones, so a broken invariant comes back as a game about as short as any that breaks
    # it, before the shrinker even starts. After a failure the search goes on at the same
    # cap with that invariant set aside (at the lower caps nothing at all failed). A level
    # at which no game reached the cap is the last: higher caps would play the same games.
    caps = turn_caps(max_turns) if examples > 0 else []

    def level_examples(cap: int) -> int:
        return examples_at(examples, caps, cap)

    level = 0
    while level < len(caps):
        skip_now = frozenset(skip)
        state = _Search()
        cap = caps[level]
        reached[0] = False

        def run(shrink: bool, state: _Search) -> None:
            phases = [Phase.generate, Phase.shrink] if shrink else [Phase.generate]

            @hypothesis_seed(seed)
            @settings(max_examples=level_examples(cap), database=None, deadline=None, derandomize=True,
                      suppress_health_check=list(HealthCheck), phases=phases,
                      report_multiple_bugs=False, verbosity=VERBOSITY, print_blob=False)
            @given(st.data())
            def search(data):
                one_game(data, skip_now, state, cap)

            with _no_local_constants():
                search()

        # Generate first; a failing game short enough to shrink quickly is then found again
        # (the same seed draws the same games) and shrunk. Hypothesis's shrinker costs about
        # the length of the game for every attempt, so a long game is reported as it was found.
        try:
            run(False, state)
        except PropertyFailure as found:
            shrunk = len(found.draws or ()) <= SHRINK_DRAWS
            if shrunk:
                try:
                    run(True, _Search())
                except PropertyFailure as smaller:
                    found = smaller
            record = failure_record(rules, found)
            args = replay_args(rules, set_args, cap) + ["--players", str(record.players), "--seed", str(seed),
                                                         "--draws", encode_draws(found.draws or []), "--check"]
            failures.append(attrs.evolve(record, cap=cap, draws=found.draws, replay=args, shrunk=shrunk))
            skip.add(found.invariant)
            if skip >= set(names) | {CRASH}:
                break
            continue
        if not reached[0]:
            break
        level += 1

    # The whole games: `rulesc simulate`'s own games (seed `seed + i`, its default seats, the heuristic
    # agents), to the game's own turn limit, every invariant checked; on `jobs` cores or a Dask cluster,
    # taken in game order as if played one after another here. A rule that breaks in a default
    # simulation's first games breaks here, in the same game.
    from rulesc import runner
    search_coverage = Coverage()
    search_coverage.merge(coverage)
    whole_turns: list = []
    limited: list = []
    profiles: list = []
    coverages: list = []
    seats = runner.default_players(rules.players_range)
    everything = set(names) | {CRASH}
    if games and not skip >= everything:
        dispatched = frozenset(skip)  # what the games elsewhere set aside
        batches = [runner.Batch(0, first, count, (max_turns, dispatched, seats))
                   for first, count in runner.runs(games, seed, jobs)]
        before = played[0]

        def whole_progress(done: int) -> None:
            played[0] = before + done
            if progress is not None:
                progress(played[0])

        results = (r for batch in runner.run([runner.RuleSet(rules, list(set_args))], batches, _whole_game, jobs,
                                             dask, whole_progress) for r in batch)
        for i, result in enumerate(results):
            if skip >= everything:
                break
            game_seed = seed + i
            if result.failure is not None and skip != dispatched:
                # Played with fewer invariants set aside than one process would have by now: play it as that would.
                result = play_whole_game(rules, game_seed, seats, max_turns, frozenset(skip))
            coverage.merge(result.coverage)
            whole_turns.append(result.turns)
            profiles.append(result.profile)
            coverages.append(result.coverage)
            if result.limited:
                limited.append(game_seed)
            if result.failure is None:
                continue
            args = replay_args(rules, set_args, max_turns) + ["--players", str(seats), "--seed", str(game_seed),
                                                              "--check"]
            failures.append(attrs.evolve(result.failure, found_by="whole games", replay=args))
            skip.add(result.failure.invariant)

    return PropertyReport(
        title=rules.title, path=rules.path, examples=examples, seed=seed, max_turns=max_turns,
        players_range=(low, high), invariants=names + [CRASH],
        declared_at={inv.text: inv.where for inv in rules.invariants},
        failures=failures, coverage=coverage_report(rules, coverage), games=played[0],
        caps=caps[:level + 1] if level < len(caps) else caps, stopped=stopped[0],
        capped=capped[0], longest=longest[0], whole_games=len(whole_turns), whole_turns=whole_turns,
        whole_limited=limited, turn_limit=own_limit, whole_seats=seats, profiles=profiles,
        whole_coverages=coverages, search_coverage=search_coverage if examples > 0 else None,
    )


def _whole_game(rules: Rules, seed: int, max_turns: int, skip: frozenset, seats: int) -> WholeGame:
    """Whole game `seed` of a check."""
    return play_whole_game(rules, seed, seats, max_turns, skip)


def play_checked(rules: Rules, game: Game) -> Failure | None:
    """Play one game to its end with every invariant checked after every event (`rulesc run --check`):
    the failure, as the check reports it, or None. A game of draws that runs out of them stops,
    unbroken, where the checker's game stopped."""
    failure_types = _failure_types(_invariant_names(rules))
    game.observer = InvariantChecker(game, rules, set(), failure_types)
    found = None
    try:
        game.play()
    except OutOfData:
        pass
    except PropertyFailure as failure:
        failure.game = game
        found = failure
    except (RuleRuntimeError, AgentError, RecursionError) as exc:
        found = failure_types[CRASH](CRASH, crash_message(exc), len(game.events) - 1 if game.events else None,
                                     crash_where(rules, game, exc), game, kind="crash")
    return attrs.evolve(failure_record(rules, found), found_by="run") if found is not None else None
