"""Drawing every die, card cut and decision of a game from Hypothesis, so that Hypothesis can shrink the game.

The property checker's games have no seed of their own: the number of players, every die,
every card cut (`DataRandom`, the game's only source of randomness) and every decision
(`HypothesisAgent`) are drawn from one Hypothesis example (`_Source`). When an invariant
breaks, shrinking that example shrinks the game itself: fewer players, small dice, fewer
bids and actions, fewer turns. The engine still decides what is legal; the agent only
picks among the options it is given.

- each turn's choices form one Hypothesis span, so the shrinker can delete whole turns;
- a game that has drawn as much as one Hypothesis example may hold stops there, unbroken
  (`OutOfData`), rather than being thrown away or going on from a seed nobody can shrink.

Every value a game drew is kept (`_Source.drawn`); `encode_draws` writes them as one short
word, and `DrawnSource` plays them back without Hypothesis, so that `rulesc run --draws`
replays exactly the game the checker found, through the same agent and dice.
"""

from __future__ import annotations

import base64
import random
import zlib

from hypothesis import strategies as st

from rulesc.interpreter.agents import Agent
from rulesc.interpreter.market import TradeOffer

try:  # how much drawn data one example may hold
    from hypothesis.internal.conjecture.engine import BUFFER_SIZE as _BUFFER_SIZE
except ImportError:  # pragma: no cover - a Hypothesis without this internal
    _BUFFER_SIZE = 8 * 1024

TURN_LABEL = 0x7275_6C65_7363_7475  # Hypothesis span label of one turn's choices
# A drawn `random()` is i / 2**8. Hypothesis draws small ranges about uniformly but wide
# ones mostly near 0 (at 16 bits three dice in four would show 1); 256 steps still reach
# every face of a die and every card of a cut deck of up to 256 cards.
RANDOM_BITS = 8
DATA_BUDGET = int(_BUFFER_SIZE * 0.75)  # a game that has drawn this much stops, unbroken (OutOfData)


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


class DrawnSource(_Source):
    """The values of a game the checker drew, played back in order: the same game, without Hypothesis.

    A value out of the range the game now asks for (the rules changed since) is a `ValueError`;
    a game that asks for more values than were drawn stops there (`OutOfData`), as it did
    when the checker played it."""

    def __init__(self, values: list):
        super().__init__(None, budget=1 << 62)
        self.values = list(values)
        self.next = 0

    def _take(self):
        if self.next >= len(self.values):
            raise OutOfData()
        value = self.values[self.next]
        self.next += 1
        self.drawn.append(value)
        return value

    def integer(self, low: int, high: int) -> int:
        if high <= low:
            return low
        value = self._take()
        if not low <= value <= high:
            raise ValueError(f"drawn value #{self.next - 1} is {value}, but the game now asks for "
                             f"{low}..{high}: these draws are of another game")
        return value

    def boolean(self) -> bool:
        return bool(self._take())


DRAWS_PREFIX = "d1."  # the encoding's version


def encode_draws(values) -> str:
    """A game's drawn values as one word for a command line: zigzag varints, deflated, base64url."""
    out = bytearray()
    for v in values:
        v = int(v)
        z = v * 2 if v >= 0 else -v * 2 - 1
        while True:
            byte = z & 0x7F
            z >>= 7
            out.append(byte | (0x80 if z else 0))
            if not z:
                break
    return DRAWS_PREFIX + base64.urlsafe_b64encode(zlib.compress(bytes(out), 9)).decode("ascii").rstrip("=")


def decode_draws(word: str) -> list[int]:
    """The values `encode_draws` wrote; ValueError if `word` is not such a word."""
    if not word.startswith(DRAWS_PREFIX):
        raise ValueError(f"draws start with `{DRAWS_PREFIX}`")
    body = word[len(DRAWS_PREFIX):]
    try:
        raw = zlib.decompress(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    except (ValueError, zlib.error) as exc:
        raise ValueError(f"not a word of draws ({exc})") from None
    values, z, shift = [], 0, 0
    for byte in raw:
        z |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            values.append(z // 2 if z % 2 == 0 else -(z + 1) // 2)
            z, shift = 0, 0
    return values


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
            theirs = partner.f.get("cash")  # (None: hidden from this player, blindfold.py: his own is the guide)
            cash = self.source.integer(-((player.f["cash"] if theirs is None else theirs) // 4), player.f["cash"] // 4)
        offer = TradeOffer(player, partner, gives, takes, cash)
        return offer if game.market.trade_is_legal(game, offer) else None

    def accept(self, game, player, offer):
        return self.source.boolean()
