"""Events: every change of a game's state, each carrying the rule that made it.

While a game runs an event is an `Event` (a named tuple) of the turn, its kind, the rule and a
payload; a game's log (`EventLog`) keeps their values flat, one event after another in one list
(the cheapest thing to keep: a recorded game makes several every turn), and hands them out as
`Event`s; the payload is a tuple whose field names are listed in FIELDS (`field_index` gives a
field's position once, for tools).
The rule is a `RuleRef`: the file (its path as loaded, so a variant's base is told apart
from a file of the same name elsewhere) and the line. The compiler makes one `RuleRef` per
rule location, so an event only points at it. `event_to_json` gives the readable form that
`rulesc run --log` writes, one JSON object a line, with the rule as `"file.rules:12"`
(`RuleRef.text`). The log is the replay, the trace of a counterexample and the source of
rule coverage.
"""

from __future__ import annotations

import json
import os
from typing import NamedTuple

import attrs


@attrs.frozen(cache_hash=True)
class RuleRef:
    """Where a rule is: `file`, the path of the rules file it is in (as loaded: a variant's
    base keeps its own path), and the 1-based `line`. `NO_RULE` (empty file, line 0) marks
    events the engine makes by itself (setup, a new turn); it is false.

    `text` is its form in the event log, `file.rules:12` (the file's base name), made once."""

    file: str
    line: int
    text: str = attrs.field(init=False, eq=False, repr=False)

    @text.default
    def _text(self) -> str:
        return f"{os.path.basename(self.file)}:{self.line}" if self.file else ""

    def __bool__(self) -> bool:
        return bool(self.file)

    def __str__(self) -> str:
        return self.text


NO_RULE = RuleRef("", 0)


class Event(NamedTuple):
    """One change of state: the turn, the kind (a key of FIELDS), the rule that caused it
    (NO_RULE for the engine's own) and the payload, a tuple in the order of FIELDS[kind]."""

    turn: int
    kind: str
    rule: RuleRef
    payload: tuple


PAYLOAD = 3  # where a row's payload begins (see `EventLog.rows`)
_new_event = tuple.__new__


class EventLog:
    """A game's events in order, kept flat: each event's values, `turn, kind, rule, *payload`, one
    after another in one list (`values`), read as `Event`s by index, slice, iteration, reversed
    iteration and `pop`. A recorded game makes several events a turn and keeps thousands: a row
    of its own for each (a tuple) was as many objects to make, to keep in memory and to free,
    and keeping them cost more than making them; flat, the log is one list that grows. The engine
    hands each event to `append` (or to `values.extend`, the same): a plain tuple, copied in.

    Where each event starts is found when the log is read (a kind's event has the size its
    FIELDS give), as far as it has grown since it was last read."""

    __slots__ = ("values", "_starts", "_found")

    def __init__(self):
        self.values: list = []
        self._starts: list = []  # where each event found so far starts in `values` ...
        self._found = 0  # ... and where the next would start

    def append(self, row: tuple) -> None:
        """One event, `(turn, kind, rule, *payload)`, its payload as FIELDS[kind] lists it."""
        self.values.extend(row)

    def _index(self) -> list:
        values, starts, at = self.values, self._starts, self._found
        end = len(values)
        if at < end:
            sizes = _SIZES
            while at < end:
                starts.append(at)
                at += sizes[values[at + 1]]
            self._found = at
        return starts

    def _event(self, at: int) -> Event:
        values = self.values
        return _new_event(Event, (values[at], values[at + 1], values[at + 2],
                                  tuple(values[at + PAYLOAD:at + _SIZES[values[at + 1]]])))

    def _row(self, at: int) -> tuple:
        values = self.values
        return tuple(values[at:at + _SIZES[values[at + 1]]])

    def __len__(self) -> int:
        return len(self._index())

    def __bool__(self) -> bool:
        return bool(self.values)

    def __getitem__(self, index):
        starts = self._index()
        if isinstance(index, slice):
            return [self._event(at) for at in starts[index]]
        return self._event(starts[index])

    def __iter__(self):
        i = 0
        while i < len(self):  # (a log read while it grows is read to its end)
            yield self._event(self._starts[i])
            i += 1

    def __reversed__(self):
        return map(self._event, reversed(self._index()[:]))

    def __eq__(self, other) -> bool:
        if isinstance(other, EventLog):
            return self.values == other.values
        return NotImplemented if not isinstance(other, list) else list(self) == other

    __hash__ = None  # type: ignore[assignment]  # unhashable, as the list it stands for

    def __repr__(self) -> str:
        return f"EventLog({list(self)!r})"

    def pop(self, index: int = -1) -> Event:
        starts = self._index()
        at = starts[index]
        event = self._event(at)
        del self.values[at:at + _SIZES[event.kind]]
        position = starts.index(at)
        del starts[position:]  # the events after it start elsewhere now: found again when read
        self._found = at
        return event

    def clear(self) -> None:
        self.values.clear()
        self._starts.clear()
        self._found = 0

    def rows(self):
        """The events as flat tuples, `(turn, kind, rule, *payload)` (a payload field is at
        `PAYLOAD + field_index(…)`): for a reader that goes through a whole log (no `Event` made)."""
        return map(self._row, self._index()[:])


FIELDS = {
    "setup": ("players", "seed"),
    "first": ("player", "rolls"),
    "turn": ("player",),
    "phase": ("phase",),
    "roll": ("player", "faces"),
    "again": ("player", "roll"),  # a roll again on doubles: the roll's number in the run, from 2
    "move": ("player", "from", "to", "steps"),
    "pass": ("player", "square"),
    "land": ("player", "square"),
    "pay": ("amount", "from", "to"),
    "set": ("target", "field", "old", "new"),
    "draw": ("player", "deck", "card"),
    "auction": ("thing", "minimum", "bidders"),
    "bid": ("player", "amount"),
    "pass_bid": ("player", "passes"),
    "bluff": ("player", "price"),
    "sold": ("thing", "player", "price"),
    "unsold": ("thing",),
    "choose": ("player", "decision", "option"),
    "action": ("player", "action", "argument"),
    "trade": ("player", "partner", "gives", "takes", "cash"),
    "debt": ("player", "creditor", "owed"),
    "discard": ("deck", "card"),
    "use": ("player", "deck", "card"),
    "give": ("player", "to", "deck", "card"),
    "extra": ("player",),
    "status": ("player", "status"),  # `put P in S` (the status) or `release P` (null)
    "do": ("procedure", "arguments"),
    "window": ("player",),
    "eliminate": ("player",),
    "end": ("reason", "winner"),
}


_SIZES = {kind: PAYLOAD + len(fields) for kind, fields in FIELDS.items()}  # an event's values in the flat log


def field_index(kind: str, name: str) -> int:
    """The position of field `name` in the payload of a `kind` event."""
    return FIELDS[kind].index(name)


def event_to_json(seq: int, event: Event) -> dict:
    """The event as JSON has it: a tuple in the payload (a roll's faces, shared) is a list there."""
    out = {"seq": seq, "turn": event.turn, "event": event.kind}
    out.update((name, list(value) if type(value) is tuple else value)
               for name, value in zip(FIELDS[event.kind], event.payload))
    out["rule"] = event.rule.text
    return out


def events_to_jsonl(events) -> str:
    return "".join(json.dumps(event_to_json(i, e), separators=(",", ":")) + "\n" for i, e in enumerate(events))
