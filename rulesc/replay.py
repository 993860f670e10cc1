"""Replay a game from its event log: the same rules, seed and decisions, checked event by event.

Dice come from the seed, which the log's `setup` event records; decisions come from the
log itself. A `ReplayAgent` answers each decision by looking at the event the game is
about to write next: a `bid` of this player is his bid (anything else: he passed), a
`choose` is his choice, a `window` means he spoke up, an `action` or a `trade` is what he
did in that window, and a
`trade` right after an offer means it was accepted. Replaying a game someone played at
the terminal (`rulesc play --log`) therefore gives back the very same game, and any
difference — a changed rule, a different engine — shows as the first event that differs.
"""

from __future__ import annotations

import hashlib
import json
import os

import attrs

from rulesc.interpreter.agents import Agent
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import AgentError
from rulesc.interpreter.events import event_to_json
from rulesc.interpreter.market import TradeOffer


@attrs.define
class ReplayResult:
    game: Game
    events: int
    first_difference: int | None  # index of the first event that differs, or None
    expected: dict | None
    actual: dict | None


class ReplayAgent(Agent):
    """Answers as the log says the player answered, by peeking at the next logged event."""

    def __init__(self, log: list[dict]):
        self.log = log

    def _next(self, game) -> dict:
        index = len(game.events)
        return self.log[index] if index < len(self.log) else {}

    def bid(self, game, player, thing, low, high):
        event = self._next(game)
        return event["amount"] if event.get("event") == "bid" and event.get("player") == player.name else None

    def choose(self, game, player, name, options):
        event = self._next(game)
        if event.get("event") == "choose" and event.get("decision") == name:
            for option in options:
                if getattr(option, "name", option) == event.get("option"):
                    return option
        return options[0]

    def wants_window(self, game, player, own_turn):
        event = self._next(game)
        return event.get("event") == "window" and event.get("player") == player.name

    def act(self, game, player, options, raising):
        event = self._next(game)
        if event.get("player") != player.name:
            return None
        if event.get("event") == "action":
            for option in options:
                argument = getattr(option.argument, "name", option.argument)  # a thing by name; an amount as it is
                if option.action == event["action"] and argument == event["argument"]:
                    return option
        if event.get("event") == "trade":
            partner = next(p for p in game.state.players if p.name == event["partner"])
            return TradeOffer(player, partner, tuple(game.by_name[n] for n in event["gives"]),
                              tuple(game.by_name[n] for n in event["takes"]), event["cash"])
        return None

    def accept(self, game, player, offer):
        return self._next(game).get("event") == "trade"


PLAYED_WITH = "played with"  # the first line of a log `rulesc run --log` writes: how the game was played


def rules_hash(rules) -> str:
    """A digest of every source the rules came from (a variant and its bases), in load order."""
    digest = hashlib.sha256()
    for text in rules.program.sources.values():
        digest.update(text.encode("utf-8"))
        digest.update(b"\0")
    return digest.hexdigest()


def log_header(rules, path: str, overrides: list[str], agents: str, left: str | None = None) -> str:
    """The log's first line: the rules file, its digest, the `--set` values and agents it was played with;
    `left`, for a game left before its end (`rulesc play`'s `quit`), where and how: its log stops there."""
    header = {"event": PLAYED_WITH, "file": path, "sha256": rules_hash(rules), "set": list(overrides),
              "agents": agents, **({"left": left} if left else {})}
    return json.dumps(header, separators=(",", ":")) + "\n"


def read_log(text: str) -> list[dict]:
    """The logged events (a `played with` first line is left out: see `read_header`)."""
    events = [json.loads(line) for line in text.splitlines() if line.strip()]
    if events and not all(isinstance(e, dict) for e in events):
        raise ValueError("a line is not a JSON object")
    return events[1:] if events and events[0].get("event") == PLAYED_WITH else events


def read_header(text: str) -> dict | None:
    first = next((line for line in text.splitlines() if line.strip()), None)
    try:
        header = json.loads(first) if first else None
    except ValueError:
        return None
    return header if isinstance(header, dict) and header.get("event") == PLAYED_WITH else None


def explain(header: dict | None, rules, overrides: list[str]) -> list[str]:
    """Why a replay may differ: what the log was played with that the replay is not."""
    if header is None:
        return []
    reasons = []
    if list(header.get("set", [])) != list(overrides):
        was = " ".join(f"--set {s}" for s in header.get("set", [])) or "no --set"
        now = " ".join(f"--set {s}" for s in overrides) or "no --set"
        reasons.append(f"this log was played with {was}; the replay has {now}")
    if header.get("sha256") not in (None, rules_hash(rules)):
        played = header.get("file")
        if played is not None and os.path.realpath(played) != os.path.realpath(rules.path):
            reasons.append(f"this log was played with `{played}`, not `{rules.path}`")
        else:
            reasons.append(f"the rules have changed since this log was played with `{played}`")
    return reasons


class _Diverged(Exception):
    """The replay wrote an event the log does not have: stop there."""


def replay(rules, log: list[dict], unfinished: bool = False) -> ReplayResult:
    """Play the logged game again, comparing each event with the log as it is written;
    the replay stops at the first event that differs. An `unfinished` log (of a game left before its
    end) is the same game if the replay has every logged event: it stops where the log does."""
    setup = log[0] if log and log[0].get("event") == "setup" else None
    if setup is None:
        raise ValueError("the log does not start with a `setup` event")
    agent = ReplayAgent(log)
    names = setup["players"]
    game = Game(rules, names, seed=setup["seed"], agents={seat: agent for seat in range(len(names))})

    def compare(g, kind, where, payload):
        i = len(g.events) - 1
        if i >= len(log) or event_to_json(i, g.events[i]) != log[i]:
            raise _Diverged()

    game.observer = compare
    try:
        game.play()
    except _Diverged:  # the last event written is the first that differs
        i = len(game.events) - 1
        if unfinished and i == len(log):
            return ReplayResult(game, i, None, None, None)
        return ReplayResult(game, len(game.events), i, log[i] if i < len(log) else None,
                            event_to_json(i, game.events[i]))
    except AgentError:  # a logged answer the rules no longer allow: the next event is where it departs
        i = len(game.events)
        return ReplayResult(game, i, i, log[i] if i < len(log) else None, None)
    if len(game.events) != len(log):
        i = len(game.events)
        return ReplayResult(game, i, i, log[i] if i < len(log) else None, None)
    return ReplayResult(game, len(game.events), None, None, None)
