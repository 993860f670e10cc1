"""Events: every change of a game's state, each carrying the rule that made it.

While a game runs an event is an `Event` (a named tuple) of the turn, its kind, the rule and a
payload; a game's log (`EventLog`) keeps each as one flat plain tuple, the turn, kind and rule
followed by the payload's fields (the cheapest thing to make: a recorded game makes several every
turn), and hands them out as `Event`s; the payload is a tuple whose field names are listed in
FIELDS (`field_index` gives a field's position once, for tools).
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


def _as_event(row: tuple) -> Event:
    """The `Event` of a row of the log, `(turn, kind, rule, *payload)`."""
    return _new_event(Event, (row[0], row[1], row[2], row[3:]))


class EventLog(list):
    """A game's events in order: appended as flat plain tuples `(turn, kind, rule, *payload)` (one
    allocation each, where an `Event` with its payload takes three), read as `Event`s — by index,
    slice, iteration, reversed iteration and `pop`."""

    __slots__ = ()

    def __getitem__(self, index):
        item = list.__getitem__(self, index)
        return list(map(_as_event, item)) if isinstance(index, slice) else _as_event(item)

    def __iter__(self):
        return map(_as_event, list.__iter__(self))

    def __reversed__(self):
        return map(_as_event, list.__reversed__(self))

    def pop(self, index: int = -1) -> Event:
        return _as_event(list.pop(self, index))

    def rows(self):
        """The events as the flat tuples kept, `(turn, kind, rule, *payload)` (a payload field is at
        `PAYLOAD + field_index(…)`): for a reader that goes through a whole log (no `Event` made)."""
        return list.__iter__(self)


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


def field_index(kind: str, name: str) -> int:
    """The position of field `name` in the payload of a `kind` event."""
    return FIELDS[kind].index(name)


def event_to_json(seq: int, event: Event) -> dict:
    out = {"seq": seq, "turn": event.turn, "event": event.kind}
    out.update(zip(FIELDS[event.kind], event.payload))
    out["rule"] = event.rule.text
    return out


def events_to_jsonl(events) -> str:
    return "".join(json.dumps(event_to_json(i, e), separators=(",", ":")) + "\n" for i, e in enumerate(events))
