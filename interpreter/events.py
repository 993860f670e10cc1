"""Events: every change of a game's state, each carrying the rule (file:line) that made it.

While a game runs an event is a cheap tuple `(turn, kind, rule, payload)`; the payload
is a tuple whose field names are listed in FIELDS. `event_to_json` gives the readable
form that `rulesc run --log` writes, one JSON object a line. The log is the replay, the
trace of a counterexample and the source of rule coverage.
"""

from __future__ import annotations

import json

FIELDS = {
    "setup": ("players", "seed"),
    "first": ("player", "rolls"),
    "turn": ("player",),
    "phase": ("phase",),
    "roll": ("player", "faces"),
    "move": ("player", "from", "to", "steps"),
    "pass": ("player", "square"),
    "land": ("player", "square"),
    "pay": ("amount", "from", "to"),
    "set": ("target", "field", "old", "new"),
    "draw": ("player", "deck", "card"),
    "auction": ("thing", "minimum", "bidders"),
    "bid": ("player", "amount"),
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
    "do": ("procedure", "arguments"),
    "window": ("player",),
    "eliminate": ("player",),
    "end": ("reason", "winner"),
}


def event_to_json(seq: int, event: tuple) -> dict:
    turn, kind, rule, payload = event
    out = {"seq": seq, "turn": turn, "event": kind}
    out.update(zip(FIELDS[kind], payload))
    out["rule"] = rule
    return out


def events_to_jsonl(events) -> str:
    return "".join(json.dumps(event_to_json(i, e), separators=(",", ":")) + "\n" for i, e in enumerate(events))
