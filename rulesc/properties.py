"""The dynamic checker: Hypothesis plays whole games and checks invariants after every event.

One Hypothesis example is one whole game. The number of players, every die and card
cut (through `DataRandom`, the game's only source of randomness) and every decision
(through `HypothesisAgent`) are drawn from Hypothesis's `data`, so when an invariant
breaks Hypothesis shrinks the game itself: fewer players, small dice, fewer bids and
actions, and a failure reached in fewer turns. The engine still decides what is legal;
the agent only picks among the options it is given.

Checked after every event (through `game.observer`):

- money is conserved: all players' cash plus the bank's balance never changes;
- no player has negative cash;
- cards are conserved: for every deck, its pile, its discards and the copies kept in
  players' hands add up to the same number;
- an out player holds nothing: no thing's `owner` is a player who is out and he keeps no
  cards in his hand (checked at the
  next `turn` or `end` event, since `on eliminate` rules clear ownership after the
  `eliminate` event);
- every `invariant` the rules file declares;

and a game whose rules crash (a `RuleRuntimeError`, the step budget among them, or an
agent's answer the engine refuses) is a failure too.

A failure is reported as the minimal game Hypothesis found: its players, turns, the rule
(file:line and source text) whose event broke the invariant, and the event trace ending
there. After a failure the search runs again with that invariant set aside, so every
invariant ends up either `ok` over a full search or with its own minimal game. Coverage
(rules, statement lines, squares, cards, phases that the generated games exercised) is
reported whether or not anything failed.

How the search is kept short and repeatable:

- it runs first with a low turn cap, then higher ones up to `max_turns` (`turn_caps`), so
  a failure that a short game can show is found as a short game before shrinking starts;
- each turn's choices form one Hypothesis span, so the shrinker can delete whole turns;
- a game that has drawn as much as one Hypothesis example may hold stops there, unbroken
  (`OutOfData`), rather than being thrown away or going on from a seed nobody can shrink;
- shrinking plays at most about `shrink_limit` games, then keeps the smallest failing game
  it has (only games that already failed fail again), so a failure costs bounded time;
- Hypothesis runs with `seed`, no database and no deadline: the same rules, examples, seed
  and turn cap always give the same report, word for word.
"""

from __future__ import annotations

import random
import re
import traceback
from typing import Callable

import attrs
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from rulesc.dsl import ast, walk
from rulesc.interpreter.agents import Agent
from rulesc.interpreter.dealing import AgentError, TradeOffer
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.events import NO_RULE, RuleRef, event_to_json, field_index
from rulesc.interpreter.rules import Rules

from .sources import RuleSources

try:  # how much drawn data one example may hold
    from hypothesis.internal.conjecture.engine import BUFFER_SIZE as _BUFFER_SIZE
except ImportError:  # pragma: no cover - a Hypothesis without this internal
    _BUFFER_SIZE = 8 * 1024

MONEY = "money is conserved"
NEGATIVE = "no player has negative cash"
CARDS = "cards are conserved"
OUT = "an out player holds nothing"
CRASH = "the rules run without crashing"
BUILTIN = (MONEY, NEGATIVE, CARDS, OUT)

VERBOSITY = Verbosity.quiet
TURN_LABEL = 0x7275_6C65_7363_7475  # Hypothesis span label of one turn's choices
SHRINK_LIMIT = 300  # games shrinking may play before it settles for what it has
TRACE_TAIL = 25  # events of a counterexample the text report shows
MISSED_SHOWN = 20  # never-exercised rules (or statements) the text report lists
# A drawn `random()` is i / 2**8. Hypothesis draws small ranges about uniformly but wide
# ones mostly near 0 (at 16 bits three dice in four would show 1); 256 steps still reach
# every face of a die and every card of a cut deck of up to 256 cards.
RANDOM_BITS = 8
DATA_BUDGET = int(_BUFFER_SIZE * 0.75)  # a game that has drawn this much stops, unbroken (OutOfData)


# ---- drawing from Hypothesis -----------------------------------------------------------------

class OutOfData(Exception):
    """A game drew as much as one Hypothesis example may hold; it stops there, unbroken."""


class _Source:
    """Draws for one game from Hypothesis's `data`, until the example's buffer is nearly full.

    Hypothesis caps how much one example may draw, and a game that overran it would be
    thrown away. So a game that has drawn `budget` worth of choices stops (`OutOfData`)
    and counts as checked up to there. Every die and decision of every game is then a
    choice Hypothesis made and can shrink; none comes from a seed it cannot see into.
    """

    __slots__ = ("data", "used", "budget", "_ints", "_draw_int", "_draw_bool", "_window_turn", "_window_asked",
                 "_window_mask", "drawn", "_start_span", "_stop_span", "_in_turn")

    def __init__(self, data, budget: int = DATA_BUDGET):
        self.data = data
        self.used = 0
        self.budget = budget
        self._ints: dict = {}
        self.drawn: list = []  # every value drawn, in order: the game's key while shrinking
        self._window_turn = -1
        self._window_asked: set = set()
        self._window_mask = 0
        # Drawing straight from the example's choice sequence is five times faster than
        # `data.draw(strategy)` and shrinks the same; use it where this Hypothesis has it.
        conjecture = getattr(data, "conjecture_data", None)
        self._draw_int = getattr(conjecture, "draw_integer", None)
        self._draw_bool = getattr(conjecture, "draw_boolean", None)
        # A span around each turn's choices lets the shrinker delete whole turns.
        self._start_span = getattr(conjecture, "start_span", None)
        self._stop_span = getattr(conjecture, "stop_span", None)
        self._in_turn = False

    def new_turn(self) -> None:
        if self._start_span is None or self._stop_span is None:
            return
        if self._in_turn:
            self._stop_span()
        self._start_span(TURN_LABEL)
        self._in_turn = True

    def _charge(self, value) -> None:
        self.drawn.append(value)
        # What Hypothesis charges a choice: a byte for a bool; a tag byte and the signed
        # big-endian bytes for an int (its `choices_size`, without building the bytes).
        self.used += 1 if value is True or value is False else 2 + value.bit_length() // 8
        if self.used > self.budget:
            raise OutOfData()

    def integer(self, low: int, high: int) -> int:
        if high <= low:
            return low
        if self._draw_int is not None:
            value = self._draw_int(low, high)
        else:
            strategy = self._ints.get((low, high))
            if strategy is None:
                strategy = self._ints[(low, high)] = st.integers(low, high)
            value = self.data.draw(strategy)
        self._charge(value)
        return value

    def boolean(self) -> bool:
        value = self._draw_bool() if self._draw_bool is not None else self.data.draw(st.booleans())
        self._charge(value)
        return value

    def speaks(self, game, player) -> bool:
        """Whether `player` opens an action window this turn: one drawn bit mask a turn, not a
        choice per player, so that quiet turns cost Hypothesis a single choice."""
        turn = game.state.turn
        if self._window_turn != turn or player.seat in self._window_asked:
            self._window_turn = turn
            self._window_asked = set()
            self._window_mask = self.integer(0, 2 ** len(game.state.players) - 1)
        self._window_asked.add(player.seat)
        return bool(self._window_mask >> player.seat & 1)


class DataRandom(random.Random):
    """The game's random generator, drawing from Hypothesis: shrinking makes dice show 1.

    `random()` is `i / 2**8` for a drawn `i`, so a shrunk `i` of 0 is a die's 1 and the
    top card; `shuffle` draws, for each position from the end, how far back to swap, so
    shrinking tends to the unshuffled order.
    """

    def __init__(self, source: _Source):
        super().__init__(0)
        self.source = source

    def random(self) -> float:
        return self.source.integer(0, 2**RANDOM_BITS - 1) / 2**RANDOM_BITS

    def shuffle(self, x) -> None:
        for i in range(len(x) - 1, 0, -1):
            j = i - self.source.integer(0, i)
            x[i], x[j] = x[j], x[i]

    def _randbelow(self, n: int) -> int:  # choice(), randrange() and friends, should the engine use them
        return self.source.integer(0, n - 1) if n > 0 else 0


class HypothesisAgent(Agent):
    """Every decision drawn from Hypothesis; each shrinks towards "no" or the first option."""

    def __init__(self, source: _Source, trades: bool = True):
        self.source = source
        self.trades = trades

    def bid(self, game, player, thing, low, high):
        """Pass, or raise by a drawn step of at most an eighth of what the bidder could add:
        uniform bids over all one's cash make nearly every game a quick bankruptcy, and the
        checker would seldom reach the rules of a long game."""
        if high < low or not self.source.boolean():
            return None
        return low + self.source.integer(0, max(0, (high - low) // 8))

    def choose(self, game, player, name, options):
        if not options:
            return None
        return options[self.source.integer(0, len(options) - 1)]

    def wants_window(self, game, player, own_turn):
        return self.source.speaks(game, player)

    def act(self, game, player, options, raising):
        can_trade = self.trades and bool(game.rules.trade_kinds) and len(game.active) > 1
        pick = self.source.integer(0, len(options) + (1 if can_trade else 0))
        if pick == 0:
            return None
        if pick <= len(options):
            return options[pick - 1]
        return self._offer(game, player)

    def _offer(self, game, player):
        """A trade offer with drawn partner, items and cash, or None if it is not legal."""
        rules = game.rules
        others = [p for p in game.active if p is not player]
        partner = others[self.source.integer(0, len(others) - 1)]
        tradable = [t for t in game.things if t.kind in rules.trade_kinds]
        gives = tuple(t for t in tradable if t.f.get("owner") is player and self.source.boolean())
        takes = tuple(t for t in tradable if t.f.get("owner") is partner and self.source.boolean())
        cash = 0
        if rules.trade_cash:  # within a quarter of either side's cash, for the same reason as bids
            cash = self.source.integer(-(partner.f["cash"] // 4), player.f["cash"] // 4)
        offer = TradeOffer(player, partner, gives, takes, cash)
        return offer if game.trade_is_legal(offer) else None

    def accept(self, game, player, offer):
        return self.source.boolean()


# ---- failures ----------------------------------------------------------------------------------

class PropertyFailure(Exception):
    """An invariant broke, or the rules crashed, in a generated game.

    Carries the invariant's name, a message with the values, the index of the event that
    broke it (None before the first event) and that event's rule (a `RuleRef`). The
    checker makes one subclass per invariant so that Hypothesis tells them apart.
    """

    def __init__(self, invariant: str, message: str, event_index: int | None, where: RuleRef, game=None,
                 kind: str = "invariant", detail: str | None = None):
        super().__init__(f"{invariant}: {message}")
        self.invariant = invariant
        self.message = message
        self.event_index = event_index
        self.where = where
        self.game = game
        self.kind = kind
        self.detail = detail


@attrs.define
class Failure:
    invariant: str
    kind: str  # "invariant" | "crash" | "internal"
    message: str
    rule: RuleRef  # NO_RULE when no rule is to blame
    rule_text: str  # the source text of that line
    event_index: int | None  # the event that broke it
    players: int
    turns: int
    trace: list  # every event of the minimal game, as event_to_json dicts
    detail: str | None = None  # a traceback, for internal errors
    cap: int | None = None  # the turn cap of the search that found it


@attrs.define
class CoverageItem:
    what: str  # "rules", "statements", "squares", "cards", "phases"
    total: list  # labels of everything declared, in declaration order
    missed: list  # labels never exercised

    @property
    def exercised(self) -> int:
        return len(self.total) - len(self.missed)


@attrs.define
class PropertyReport:
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


# ---- the checks ----------------------------------------------------------------------------------

class _Checker:
    """The observer for one game: built-in and declared invariants, checked after every event."""

    def __init__(self, game: Game, rules: Rules, skip: set, failure_types: dict, coverage: "_Coverage",
                 source: _Source | None = None):
        self.game = game
        self.source = source
        self.skip = skip
        self.types = failure_types
        self.coverage = coverage
        self.declared = [inv for inv in rules.invariants if inv.text not in skip]
        state = game.state
        self.money = self._money()
        self.cards = {d: self._cards(d) for d in state.decks}
        self.owned_things = [t for t in game.things if "owner" in t.f]
        self.eliminated: dict = {}  # player name -> index of its `eliminate` event

    def _held(self, deck: str) -> int:
        return sum(1 for p in self.game.state.players for h in getattr(p, "hand", ()) if h.deck == deck)

    def _cards(self, deck: str) -> int:
        state = self.game.state
        return len(state.decks[deck]) + len(state.discards[deck]) + self._held(deck)

    def _money(self) -> int:
        state = self.game.state
        return sum(p.f.get("cash", 0) for p in state.players) + state.bank.balance

    def fail(self, invariant: str, message: str, index: int | None, where: RuleRef):
        raise self.types[invariant](invariant, message, index, where, self.game)

    def __call__(self, game, kind, where, payload) -> None:
        index = len(game.events) - 1
        self.coverage.event(kind, where, payload)
        if kind == "turn" and self.source is not None:
            self.source.new_turn()
        state = game.state
        skip = self.skip
        if MONEY not in skip:
            total = self._money()
            if total != self.money:
                self.fail(MONEY, f"players' cash plus the bank came to {self.money} after setup and "
                                 f"{total} now ({total - self.money:+d})", index, where)
        if NEGATIVE not in skip:
            for p in state.players:
                cash = p.f.get("cash", 0)
                if cash < 0:
                    self.fail(NEGATIVE, f"{p.name} has {cash} in cash", index, where)
        if CARDS not in skip:
            for deck, count in self.cards.items():
                now = self._cards(deck)
                if now != count:
                    self.fail(CARDS, f"deck `{deck}` had {count} cards after setup and has {now} now "
                                     f"({len(state.decks[deck])} in the pile, {len(state.discards[deck])} discarded, "
                                     f"{self._held(deck)} kept in players' hands)", index, where)
        if kind == "eliminate":
            self.eliminated.setdefault(payload[ELIMINATED_PLAYER], index)
        elif (kind == "turn" or kind == "end") and OUT not in skip and self.eliminated:
            self._check_out()
        for inv in self.declared:
            try:
                holds = inv.condition(game, {})
            except RuleRuntimeError as exc:
                self.fail(inv.text, f"the invariant could not be evaluated: {exc.message}", index, where or inv.where)
            if not holds:
                self.fail(inv.text, f"`{inv.text}` (declared at {inv.where}) is false after this event", index,
                          where or inv.where)

    def _check_out(self) -> None:
        held: dict = {}
        for t in self.owned_things:
            owner = t.f.get("owner")
            if owner is not None and getattr(owner, "out", False):
                held.setdefault(owner.name, []).append(t.name)
        for p in self.game.state.players:
            if p.out and getattr(p, "hand", None):
                held.setdefault(p.name, []).extend(f"the kept card {h.deck}/{h.card}" for h in p.hand)
        if not held:
            return
        name = min(held, key=lambda n: self.eliminated.get(n, -1))
        index = self.eliminated.get(name)
        events = self.game.events
        where = events[index].rule if index is not None and index < len(events) else NO_RULE
        things = held[name]
        shown = ", ".join(things[:6]) + (f" and {len(things) - 6} more" if len(things) > 6 else "")
        self.fail(OUT, f"{name} is out (eliminated at event #{index}) but still holds {shown} at the end of the "
                       f"turn; no rule took them from him", index, where)


# Payload fields the checks read, by name (see interpreter/events.py FIELDS).
LAND_SQUARE, DRAW_DECK, DRAW_CARD, PHASE_NAME = (field_index("land", "square"), field_index("draw", "deck"),
                                                field_index("draw", "card"), field_index("phase", "phase"))
ELIMINATED_PLAYER = field_index("eliminate", "player")


class _Coverage:
    """What the generated games exercised, summed over every game played (`wheres`: RuleRefs)."""

    def __init__(self):
        self.wheres: set = set()
        self.landed: set = set()
        self.drawn: set = set()
        self.phases: set = set()

    def event(self, kind, where, payload) -> None:
        self.wheres.add(where)
        if kind == "land":
            self.landed.add(payload[LAND_SQUARE])
        elif kind == "draw":
            self.drawn.add((payload[DRAW_DECK], payload[DRAW_CARD]))
        elif kind == "phase":
            self.phases.add(payload[PHASE_NAME])


# ---- running the search ----------------------------------------------------------------------------

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
    coverage = _Coverage()
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
        game.observer = _Checker(game, rules, set(skip_now), failure_types, coverage, source)
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
            found = failure_types[CRASH](CRASH, _crash_message(exc), len(game.events) - 1 if game.events else None,
                                         _crash_where(rules, game, exc), game, kind="crash")
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
            search()
        except PropertyFailure as found:
            failures.append(attrs.evolve(_failure(rules, found), cap=cap))
            skip.add(found.invariant)
            if skip >= set(names) | {CRASH}:
                break
            continue
        level += 1

    return PropertyReport(
        title=rules.title, path=rules.path, examples=examples, seed=seed, max_turns=max_turns,
        players_range=(low, high), invariants=names + [CRASH],
        declared_at={inv.text: inv.where for inv in rules.invariants},
        failures=failures, coverage=_coverage_report(rules, coverage), games=played[0],
        caps=caps[:level + 1] if level < len(caps) else caps, stopped=stopped[0],
    )


def _crash_message(exc: BaseException) -> str:
    if isinstance(exc, RecursionError):
        return "the rules nest handlers too deeply (Python's recursion limit); they seem to loop"
    message = getattr(exc, "message", None) or str(exc)
    help_text = getattr(exc, "help", None)
    label = "the rules crashed" if isinstance(exc, RuleRuntimeError) else "an agent's answer was refused"
    return f"{label}: {message}" + (f" (help: {help_text})" if help_text else "")


def _crash_where(rules: Rules, game: Game, exc: BaseException) -> RuleRef:
    span = getattr(exc, "span", None)
    if span is not None:
        return RuleRef(getattr(exc, "path", rules.path) or rules.path, span.line)
    return next((e.rule for e in reversed(game.events) if e.rule), NO_RULE)


def _failure(rules: Rules, found: PropertyFailure) -> Failure:
    game = found.game
    trace = [event_to_json(i, e) for i, e in enumerate(game.events)] if game is not None else []
    return Failure(
        invariant=found.invariant, kind=found.kind, message=found.message, rule=found.where,
        rule_text=RuleSources.of(rules.program).text(found.where), event_index=found.event_index,
        players=len(game.state.players) if game is not None else 0,
        turns=game.state.turn if game is not None else 0, trace=trace, detail=found.detail,
    )


# ---- coverage ------------------------------------------------------------------------------------

# Statements whose own line never carries an event: control flow and local names.
QUIET_STATEMENTS = (ast.If, ast.For, ast.Let, ast.EndTurn, ast.RaiseCash, ast.Pass)


def _last_line(span) -> int:
    """Spans end at the start of what follows (column 1); the last line is the one before."""
    if span.end_line > span.line and span.end_column == 1:
        return span.end_line - 1
    return span.end_line


def _statements(block, out: list) -> None:
    """The statements of a block that cause events of their own, nested blocks included."""
    out.extend(s for s in walk.statements(block) if not isinstance(s, QUIET_STATEMENTS))


def _coverage_report(rules: Rules, cov: _Coverage) -> list[CoverageItem]:
    p = rules.program
    sources = RuleSources.of(p)
    main = p.path
    hit_lines = {(rule.file, rule.line) for rule in cov.wheres if rule}

    def place(span) -> tuple[str, int]:
        """(the path of the file, the line): as a `RuleRef` names it."""
        return (getattr(span, "file", None) or main, span.line)

    def order(where: tuple[str, int]):  # the loaded file's first, then by file name and line
        return (where[0] != main, sources.name(where[0]), where)

    def label(span) -> str:
        file, line = place(span)
        text = sources.line(file, line).split("§")[0]
        text = re.split(r"\s{2,}assumed\b|\s+#", text)[0].strip().rstrip(":")
        return f"{sources.label(file, line)} {text}".rstrip()

    def ran(span) -> bool:
        file, line = place(span)
        last = _last_line(span)
        return any(f == file and line <= n <= last for f, n in hit_lines)

    # Rules: each declaration that can cause events; exercised if one of its lines did.
    decls = []  # (label, hit)
    blocks = []
    phase_decls = p.turn.phases if p.turn is not None else ()
    for phase in phase_decls:
        decls.append((phase.span, None))
        blocks.append(phase.body)
    for h in p.hooks:
        decls.append((h.span, None))
        blocks.append(h.body)
    for h in p.handlers:
        decls.append((h.span, None))
        blocks.append(h.body)
    for a in p.actions.values():
        decls.append((a.span, None))
        blocks.append(a.body)
    drawn_cards = {(deck, card) for deck, card in cov.drawn}
    for deck in p.decks.values():
        for card in deck.cards:
            decls.append((card.span, (deck.name, card.name)))
            blocks.append(card.body)
    if p.trade is not None:
        decls.append((p.trade.span, None))
    for e in p.ends:
        decls.append((e.span, None))
    decls.sort(key=lambda d: order(place(d[0])))
    rule_total, rule_missed = [], []
    for span, card in decls:
        hit = card in drawn_cards if card is not None else ran(span)
        rule_total.append(label(span))
        if not hit:
            rule_missed.append(label(span))

    statements: list = []
    for block in blocks:
        _statements(block, statements)
    statement_spans = sorted({place(s.span): s.span for s in statements}.items(), key=lambda kv: order(kv[0]))
    stmt_total = [label(span) for _, span in statement_spans]
    stmt_missed = [label(span) for where, span in statement_spans if where not in hit_lines]

    squares = list(dict.fromkeys(rules.board))
    square_missed = [s for s in squares if s not in cov.landed]

    cards = [(d.name, c.name) for d in p.decks.values() for c in d.cards]
    card_total = [f"{d}/{c}" for d, c in cards]
    card_missed = [f"{d}/{c}" for d, c in cards if (d, c) not in drawn_cards]

    phase_total, phase_missed = [], []
    for phase in phase_decls:
        phase_total.append(phase.name)
        if phase.name not in cov.phases and not ran(phase.span):
            phase_missed.append(phase.name)

    return [
        CoverageItem("rules", rule_total, rule_missed),
        CoverageItem("statements", stmt_total, stmt_missed),
        CoverageItem("squares", squares, square_missed),
        CoverageItem("cards", card_total, card_missed),
        CoverageItem("phases", phase_total, phase_missed),
    ]


# ---- the text report -------------------------------------------------------------------------------

COVERAGE_VERBS = {"rules": "declarations produced events", "statements": "statement lines produced events",
                  "squares": "squares landed on", "cards": "cards drawn", "phases": "phases ran"}


def _format_event(e: dict) -> str:
    fields = " ".join(f"{k}={_show(v)}" for k, v in e.items() if k not in ("seq", "turn", "event", "rule"))
    text = f"#{e['seq']:<5} turn {e['turn']:<4} {e['event']:<9} {fields}"
    if e.get("rule"):
        text = f"{text:<72} {e['rule']}"
    return text.rstrip()


def _show(value) -> str:
    if isinstance(value, list):
        return "[" + ", ".join(_show(v) for v in value) + "]"
    if value is None:
        return "none"
    return str(value)


def _format_failure(f: Failure, debug: bool = False) -> list[str]:
    why = {"crash": " (the rules crashed)", "internal": " (rulesc itself crashed: please report this bug)"}
    lines = [f"FAILED: {f.invariant}" + why.get(f.kind, ""), f"  {f.message}"]
    label = "rule" if f.kind != "internal" else "last rule to run"
    if f.rule:
        lines.append(f"  {label}: {f.rule.text}" + (f"    {f.rule_text}" if f.rule_text else ""))
    else:
        lines.append(f"  {label}: none (the engine itself, before or between rules)")
    found = f" (found by the search with a cap of {f.cap} turns)" if f.cap is not None else ""
    lines.append(f"  minimal game: {_count(f.players, 'player')}, {_count(f.turns, 'turn')}, "
                 f"{_count(len(f.trace), 'event')}{found}")
    if f.trace:
        end = len(f.trace)
        start = max(0, end - TRACE_TAIL)
        if f.event_index is not None and f.event_index < start:
            start = max(0, f.event_index - 3)
        shown = f.trace[start:end]
        lines.append(f"  trace (events {start}..{end - 1} of {end}; >> marks the event that broke it):")
        if start > 0:
            lines.append("       ...")
        for e in shown:
            mark = ">>" if e["seq"] == f.event_index else "  "
            lines.append(f"    {mark} {_format_event(e)}")
    if f.detail:
        if debug:
            lines.append("  traceback:")
            lines.extend("    " + line for line in f.detail.rstrip().splitlines())
        else:
            lines.append("  (the Python traceback is shown with --debug)")
    return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def format_report(report: PropertyReport, debug: bool = False) -> str:
    """The report as text for the CLI; `debug` adds the traceback of an internal error."""
    low, high = report.players_range
    players = f"{low}..{high}" if low != high else f"{low}"
    caps = ", ".join(str(c) for c in report.caps)
    out = [f"property check: {report.examples} games, players {players}, up to {report.max_turns} turns each",
           f"  {report.title} ({report.path}), seed {report.seed}",
           f"  searched at turn caps {caps}: {report.games} games played in all, shrinking included"
           + (f"; {report.stopped} stopped early at Hypothesis's data limit" if report.stopped else ""),
           "", "invariants:"]
    width = max(len(n) for n in report.invariants)
    for name in report.invariants:
        failure = report.failure_of(name)
        where = f"  (declared at {report.declared_at[name].text})" if name in report.declared_at else ""
        status = "FAILED" if failure is not None else "ok"
        out.append(f"  {status:<7} {name:<{width}}{where}".rstrip())
    for failure in report.failures:
        out.append("")
        out.extend(_format_failure(failure, debug))
    out += ["", "coverage:"]
    for item in report.coverage:
        total = len(item.total)
        out.append(f"  {item.what:<11} exercised {item.exercised} of {total} ({COVERAGE_VERBS[item.what]})")
        if item.missed:
            if item.what in ("rules", "statements"):
                out.append("    never:")
                out.extend(f"      {m}" for m in item.missed[:MISSED_SHOWN])
                if len(item.missed) > MISSED_SHOWN:
                    out.append(f"      ... and {len(item.missed) - MISSED_SHOWN} more")
            else:
                out.append("    never: " + ", ".join(item.missed))
    out.append("")
    out.append("result: " + ("all invariants hold" if report.ok else
                             f"{len(report.failures)} invariant{'s' if len(report.failures) != 1 else ''} broken"))
    return "\n".join(out) + "\n"
