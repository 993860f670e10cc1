"""The invariants checked after every event of a game: the built-in ones and those the rules file declares.

This is what the property checker checks; how games are generated and searched lives in
`drawing` and `search`. After every event (the checker is the game's `observer`):

- money is conserved: all players' cash, the bank's balance and every account field's (a player's
  deposit, a global pot) never change in sum;
- no player has negative cash;
- cards are conserved: for every deck, its pile, its discards and the copies kept in
  players' hands add up to the same number;
- an out player holds nothing: no thing's `owner` is a player who is out and he keeps no
  cards in his hand (checked at the next `turn` or `end` event, since `on eliminate`
  rules clear ownership after the `eliminate` event);
- every `invariant` the rules file declares.

A game whose rules crash counts as breaking one more invariant, `CRASH`; the search
detects that one, since a crash is an exception rather than a state.
"""

from __future__ import annotations

from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.events import NO_RULE, RuleRef, field_index
from rulesc.interpreter.rules import Rules
from rulesc.interpreter.state import Account

MONEY = "money is conserved"
NEGATIVE = "no player has negative cash"
CARDS = "cards are conserved"
OUT = "an out player holds nothing"
CRASH = "the rules run without crashing"
BUILTIN = (MONEY, NEGATIVE, CARDS, OUT)
ELIMINATED_PLAYER = field_index("eliminate", "player")


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


class InvariantChecker:
    """For one game: built-in and declared invariants, checked after every event.

    `skip` holds the invariants set aside (already broken in an earlier search);
    `failure_types` maps each invariant to the `PropertyFailure` subclass to raise.
    """

    def __init__(self, game: Game, rules: Rules, skip: set, failure_types: dict):
        self.game = game
        self.skip = skip
        self.types = failure_types
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
        accounts = sum(v.balance for holder in (*(p.f for p in state.players), state.globals)
                       for v in holder.values() if isinstance(v, Account))
        return sum(p.f.get("cash", 0) for p in state.players) + state.bank.balance + accounts

    def fail(self, invariant: str, message: str, index: int | None, where: RuleRef):
        raise self.types[invariant](invariant, message, index, where, self.game)

    def __call__(self, game, kind, where, payload) -> None:
        index = len(game.events) - 1
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
