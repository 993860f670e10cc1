"""The invariants checked after every event of a game: the built-in ones and those the rules file declares.

This is what the property checker checks; how games are generated and searched lives in
`drawing` and `search`. The checker is the game's `observer`, and looks at each invariant after
the events that can change what it reads (see `InvariantChecker`):

- money is conserved: all players' cash, the bank's balance and every account field's (a player's
  deposit, a global pot) never change in sum;
- no player has negative cash;
- cards are conserved: for every deck, its pile, its discards and the copies kept in
  players' hands add up to the same number;
- an out player holds nothing: no thing's `owner` is a player who is out, he keeps no
  cards in his hand, and his cash and every account of his are 0 (checked at
  the next `turn` or `end` event, since `on eliminate` rules clear them after the
  `eliminate` event);
- the game progresses: no player takes `RUN_LIMIT` turns in a row while others are in
  the game (a rule that gives a turn after every turn), and something changes — money,
  a field, an owner, a card — at least once every `STALL_TURNS` turns;
- every `invariant` the rules file declares, where the game is settled: when no rule is in the
  middle of its statements (after each rule's body — a phase, a hook, an action, a handler, a
  card, the setup — that no other rule is running around, after each event the engine makes
  outside any rule, at each new turn and at the end). A rule that sets two fields in turn may
  leave an invariant relating them false between the two `set`s. A declared invariant is still
  evaluated after the events that can change it, so a failure points at the event after which
  it became false (and stayed false until the game settled), not at the settling.

A game whose rules crash counts as breaking one more invariant, `CRASH`; the search
detects that one, since a crash is an exception rather than a state.
"""

from __future__ import annotations

from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.events import NO_RULE, RuleRef, field_index
from rulesc.interpreter.reads import UNTRACKED
from rulesc.interpreter.rules import Rules
from rulesc.interpreter.state import Account, field_attr

MONEY = "money is conserved"
NEGATIVE = "no player has negative cash"
CARDS = "cards are conserved"
OUT = "an out player holds nothing"
PROGRESS = "the game progresses"
CRASH = "the rules run without crashing"
BUILTIN = (MONEY, NEGATIVE, CARDS, OUT, PROGRESS)
# Payload fields the checks read, by name (see interpreter/events.py FIELDS).
ELIMINATED_PLAYER, TURN_PLAYER = field_index("eliminate", "player"), field_index("turn", "player")
PAY_AMOUNT, PAY_FROM, PAY_TO = field_index("pay", "amount"), field_index("pay", "from"), field_index("pay", "to")
SET_TARGET, SET_FIELD, SET_OLD = field_index("set", "target"), field_index("set", "field"), field_index("set", "old")

RUN_LIMIT = 30  # turns in a row one player may take while others are in the game
STALL_TURNS = 60  # turns in a row in which nothing but positions may change
# The events that change what a game is about (money, fields, owners, cards, who is in);
# moves, rolls, phases and decisions alone are no progress.
CHANGES = frozenset({"pay", "set", "sold", "trade", "eliminate", "draw", "discard", "use", "give", "end"})


def money_fields(rules: Rules) -> list[str]:
    """The player's fields that hold money, what an out player must not keep: his `cash`, and every
    field of type `account` (a deposit, a pot). A plain `money` field is a figure (a tally of fines,
    a debt owed), not money held: money conservation does not count it either."""
    fields = rules.program.player_fields.values()
    return [f.name for f in fields if f.name == "cash" or (f.type.name == "account" and not f.type.is_list)]


class PropertyFailure(Exception):
    """An invariant broke, or the rules crashed, in a generated game.

    Carries the invariant's name, a message with the values, the index of the event that
    broke it (None before the first event) and that event's rule `file:line`. The
    checker makes one subclass per invariant so that Hypothesis tells them apart.
    """

    def __init__(self, invariant: str, message: str, event_index: int | None, where: RuleRef, game=None,
                 kind: str = "invariant", detail: str | None = None, before=None, after=None):
        super().__init__(f"{invariant}: {message}")
        self.invariant = invariant
        self.message = message
        self.event_index = event_index
        self.where = where
        self.game = game
        self.kind = kind
        self.detail = detail
        self.before = before  # what the invariant reads, before the event that broke it (JSON data)
        self.after = after  # ... and after it


# The events after which the cards' places may have changed; at `turn` and `end` they are counted too.
CARD_EVENTS = frozenset({"draw", "discard", "use", "give", "trade", "turn", "end"})
_ZEROS = __import__("itertools").repeat(0)


class InvariantChecker:
    """For one game: built-in and declared invariants, checked after every event that can change them.

    What each invariant reads decides when it is looked at again (the engine counts every change to
    a field, to cash and to who is out, in `Game.versions`, as the legal-actions cache does): money
    and negative cash when cash has changed (a payment, a `set` of cash); cards after a card event
    and at each turn; a declared invariant when something it reads has changed (its compiled
    condition lists what it reads; one that reads untracked state, such as `turn`, every time).
    An invariant whose reads have not changed has the value it had, so the findings are those of
    checking everything after every event.

    `skip` holds the invariants set aside (already broken in an earlier search);
    `failure_types` maps each invariant to the `PropertyFailure` subclass to raise.
    """

    def __init__(self, game: Game, rules: Rules, skip: set, failure_types: dict):
        self.game = game
        self.skip = skip
        self.types = failure_types
        self.declared = [inv for inv in rules.invariants if inv.text not in skip]
        state = game.state
        self.cards = {d: self._cards(d) for d in state.decks}
        self.owned_things = [t for t in game.things if "owner" in t.f]
        # The players' fields that are accounts (`deposit: account`), by attribute: money too.
        self.account_attrs = [field_attr(n) for n, v in state.players[0].f.items() if isinstance(v, Account)] \
            if state.players else []
        self.money = self._money()
        self.money_fields = money_fields(rules)
        # player name -> index of its `eliminate` event; -1 for a player already out when the checker began
        # watching (a game loaded midway)
        self.eliminated: dict = {p.name: -1 for p in state.players if p.out}
        self.run_player = None  # who took the last turn, and how many turns in a row
        self.run = 0
        self.last_extra = None  # index of the last `extra` event (a turn given again)
        self.changed_turn = state.turn  # the last turn in which something changed (for a game watched from
        # midway, a loaded one, the turn it was first watched in)
        self.last_rule = None  # index of the last event a rule caused
        # Declared invariants false since an event, waiting for the game to settle: text -> the
        # failure's arguments (the event after which it became false, its rule, the values).
        self.pending: dict = {}
        game.on_settled = self.settle
        self.cash_version = -1  # the count of cash changes when money was last looked at
        # Per declared invariant, what it reads (None: state without a change counter, so always
        # evaluated), and the sum of those reads' change counts when it was last evaluated.
        self.reads = [None if reads is None or UNTRACKED in reads else tuple(sorted(reads))
                      for reads in (getattr(inv.condition, "reads", None) for inv in self.declared)]
        self.seen = [-1] * len(self.declared)

    def _held(self, deck: str) -> int:
        return sum(1 for p in self.game.state.players for h in getattr(p, "hand", ()) if h.deck == deck)

    def _cards(self, deck: str) -> int:
        state = self.game.state
        return len(state.decks[deck]) + len(state.discards[deck]) + self._held(deck)

    def _money(self) -> int:
        state = self.game.state
        accounts = sum(v.balance for p in state.players for v in (getattr(p, a, None) for a in self.account_attrs)
                       if isinstance(v, Account)) \
            + sum(v.balance for v in state.globals.values() if isinstance(v, Account))
        return sum(getattr(p, "f_cash", 0) for p in state.players) + state.bank.balance + accounts

    def fail(self, invariant: str, message: str, index: int | None, where: RuleRef, before=None, after=None):
        raise self.types[invariant](invariant, message, index, where, self.game, before=before, after=after)

    def _cash_before(self, name: str, after: int, kind: str, payload) -> int | None:
        """A player's cash before this event, where the event says (a payment, a `set`)."""
        if kind == "pay" and payload[PAY_FROM] == name:
            return after + payload[PAY_AMOUNT]
        if kind == "pay" and payload[PAY_TO] == name:
            return after - payload[PAY_AMOUNT]
        if kind == "set" and payload[SET_TARGET] == name and payload[SET_FIELD] == "cash":
            return payload[SET_OLD]
        return None

    def __call__(self, game, kind, where, payload) -> None:
        index = len(game.events) - 1
        state = game.state
        skip = self.skip
        cash_version = game.versions.get("cash", 0)
        if cash_version != self.cash_version:
            self.cash_version = cash_version
            self._check_money(index, where, kind, payload)
        if kind in CARD_EVENTS and CARDS not in skip:
            for deck, count in self.cards.items():
                now = self._cards(deck)
                if now != count:
                    self.fail(CARDS, f"deck `{deck}` had {count} cards after setup and has {now} now "
                                     f"({len(state.decks[deck])} in the pile, {len(state.discards[deck])} discarded, "
                                     f"{self._held(deck)} kept in players' hands)", index, where,
                              {"deck": deck, "cards": count}, {"deck": deck, "cards": now})
        if where:
            self.last_rule = index
        if kind in CHANGES:
            self.changed_turn = state.turn
        if kind == "eliminate":
            self.eliminated.setdefault(payload[ELIMINATED_PLAYER], index)
        elif kind == "extra":
            self.last_extra = index
        elif kind == "turn" or kind == "end":
            if OUT not in skip and self.eliminated:
                self._check_out()
            if kind == "turn" and PROGRESS not in skip:
                self._check_progress(payload[TURN_PLAYER], index)
        if self.declared:
            self._check_declared(index, kind, where, payload)
        if self.pending and (not game.rules_running or kind == "turn" or kind == "end"):
            self.settle()

    def _check_money(self, index, where, kind, payload) -> None:
        state = self.game.state
        skip = self.skip
        if MONEY not in skip:
            total = self._money()
            if total != self.money:
                self.fail(MONEY, f"players' cash plus the bank came to {self.money} after setup and "
                                 f"{total} now ({total - self.money:+d})", index, where,
                          {"total": self.money}, {"total": total})
        if NEGATIVE not in skip:
            for p in state.players:
                cash = getattr(p, "f_cash", 0)
                if cash < 0:
                    self.fail(NEGATIVE, f"{p.name} has {cash} in cash", index, where,
                              {"player": p.name, "cash": self._cash_before(p.name, cash, kind, payload)},
                              {"player": p.name, "cash": cash})

    def _check_declared(self, index, kind, where, payload) -> None:
        """Evaluate each declared invariant whose reads have changed; one that is false waits in
        `pending`, with this event, until the game settles (or it holds again)."""
        game = self.game
        versions = game.versions
        pending = self.pending
        seen = self.seen
        for i, inv in enumerate(self.declared):
            reads = self.reads[i]
            if reads is not None:
                key = sum(map(versions.get, reads, _ZEROS))
                if key == seen[i]:
                    continue  # nothing it reads has changed: it has the value it had
                seen[i] = key
            text, condition, declared = inv.text, inv.condition, inv.where
            try:
                holds = condition(game, {})
            except RuleRuntimeError as exc:
                self.fail(text, f"the invariant could not be evaluated: {exc.message}", index, where or declared)
            if holds:
                if text in pending:
                    del pending[text]
            elif text not in pending:
                after = {"holds": False, "event": kind}
                if kind == "set":
                    after.update(target=payload[SET_TARGET], field=payload[SET_FIELD], old=payload[SET_OLD],
                                 new=payload[SET_OLD + 1])
                pending[text] = (text, f"`{text}` (declared at {declared}) is false after this event", index,
                                 where or declared, {"holds": True}, after)

    def settle(self) -> None:
        """The game is settled: a declared invariant still false since an event breaks here, at that
        event. (What changed since the last event without one, a token placed, is looked at first.)"""
        events = self.game.events
        if self.declared and events:
            last = events[-1]
            self._check_declared(len(events) - 1, last.kind, last.rule, last.payload)
        if self.pending:
            first = min(self.pending.values(), key=lambda args: args[2])
            self.fail(*first)

    def _where(self, index: int | None) -> RuleRef:
        events = self.game.events
        return events[index].rule if index is not None and 0 <= index < len(events) else NO_RULE

    def _check_progress(self, player: str, index: int) -> None:
        """At each `turn` event: one player taking every turn, or turns in which nothing changes."""
        game = self.game
        turn = game.state.turn
        self.run = self.run + 1 if player == self.run_player else 1
        self.run_player = player
        if self.run >= RUN_LIMIT and len(game.active) > 1:
            blame = self.last_extra if self.last_extra is not None else self.last_rule
            self.fail(PROGRESS, f"{player} has taken {self.run} turns in a row while {len(game.active) - 1} other "
                                f"player(s) wait; a rule gives him turn after turn, so the game need never end",
                      blame, self._where(blame), {"player": player, "turns_in_a_row": self.run - 1},
                      {"player": player, "turns_in_a_row": self.run})
        if turn - self.changed_turn > STALL_TURNS:
            blame = self.last_rule
            self.fail(PROGRESS, f"nothing but positions has changed in {turn - self.changed_turn - 1} turns "
                                f"(turns {self.changed_turn + 1}..{turn - 1}): no payment, field, owner or card; "
                                "the game is stuck", blame, self._where(blame),
                      {"last_change_turn": self.changed_turn}, {"turn": turn})

    def _check_out(self) -> None:
        held: dict = {}
        for t in self.owned_things:
            owner = t.f_owner
            if owner is not None and getattr(owner, "out", False):
                held.setdefault(owner.name, []).append(t.name)
        for p in self.game.state.players:
            if not p.out:
                continue
            for field in self.money_fields:
                value = p.f.get(field)
                if isinstance(value, Account):  # an account field: what it holds
                    value = value.balance
                if value:
                    held.setdefault(p.name, []).append(f"{value} in `{field}`")
            if getattr(p, "hand", None):
                held.setdefault(p.name, []).extend(f"the kept card {h.deck}/{h.card}" for h in p.hand)
        if not held:
            return
        name = min(held, key=lambda n: self.eliminated.get(n, -1))
        index = self.eliminated.get(name)
        if index is not None and index < 0:  # out before the game was watched: his elimination was not seen
            index = None
        where = self._where(index)
        things = held[name]
        shown = ", ".join(things[:6]) + (f" and {len(things) - 6} more" if len(things) > 6 else "")
        when = f"eliminated at event #{index}" if index is not None else "eliminated before the checks began"
        self.fail(OUT, f"{name} is out ({when}) but still holds {shown} at the end of the "
                       f"turn; no rule took them from him", index, where,
                  {"player": name, "holds": []}, {"player": name, "holds": things})
