"""What a failed game becomes: a `Failure` record with the rule to blame and the whole trace.

The search raises a `PropertyFailure` inside Hypothesis (an invariant broke, or the rules
crashed); once Hypothesis has shrunk it, the minimal game it carries is turned into plain
data here, for the text report and for JSON.
"""

from __future__ import annotations


import attrs

from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.events import NO_RULE, RuleRef, event_to_json
from rulesc.interpreter.rules import Rules

from .invariants import PropertyFailure
from rulesc.sources import RuleSources


@attrs.define
class Failure:
    """The minimal game Hypothesis found for one broken invariant, as plain data."""

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
    before: dict | None = None  # what the invariant reads, before the event that broke it
    after: dict | None = None  # ... and after it
    found_by: str = "search"  # "search" (Hypothesis, shrunk) or "whole games" (seeded heuristic agents)
    seed: int = 0  # the game's seed: for a whole game, all its dice; for a drawn one, only the log's header
    draws: list | None = None  # a drawn game's every value (players, dice, cards, decisions), to replay it
    replay: list = attrs.Factory(list)  # the `rulesc` arguments that play this very game again
    shrunk: bool = True  # False for a game too long to shrink quickly, reported as found
    rule_path: str = ""  # the path of the file `rule` is in, as the rules were loaded


def crash_message(exc: BaseException) -> str:
    """What a crash of the rules (or an agent's refused answer) says to the user."""
    if isinstance(exc, RecursionError):
        return "the rules nest handlers too deeply (Python's recursion limit); they seem to loop"
    message = getattr(exc, "message", None) or str(exc)
    help_text = getattr(exc, "help", None)
    label = "the rules crashed" if isinstance(exc, RuleRuntimeError) else "an agent's answer was refused"
    return f"{label}: {message}" + (f" (help: {help_text})" if help_text else "")


def crash_where(rules: Rules, game: Game, exc: BaseException) -> RuleRef:
    """The `file:line` to blame for a crash: the failing expression's, else the last rule to run."""
    span = getattr(exc, "span", None)
    if span is not None:
        return RuleRef(getattr(exc, "path", rules.path) or rules.path, span.line)
    return next((e.rule for e in reversed(game.events) if e.rule), NO_RULE)


def failure_record(rules: Rules, found: PropertyFailure) -> Failure:
    """The record of the game a shrunk `PropertyFailure` carries."""
    game = found.game
    trace = [event_to_json(i, e) for i, e in enumerate(game.events)] if game is not None else []
    return Failure(
        invariant=found.invariant, kind=found.kind, message=found.message, rule=found.where,
        rule_text=RuleSources.of(rules.program).text(found.where), event_index=found.event_index,
        players=len(game.state.players) if game is not None else 0,
        turns=game.state.turn if game is not None else 0, trace=trace, detail=found.detail,
        before=found.before, after=found.after, seed=game.seed if game is not None else 0,
        rule_path=found.where.file,
    )


def failure_json(f: Failure) -> dict:
    """A failure as data for `--format json`: the invariant, the values before and after, the rule's
    span, the replay command and the trace as events."""
    import shlex
    return {
        "invariant": f.invariant, "kind": f.kind, "message": f.message,
        "before": f.before, "after": f.after,
        "rule": {"file": f.rule.file, "line": f.rule.line, "text": f.rule_text} if f.rule else None,
        "event_index": f.event_index, "found_by": f.found_by, "cap": f.cap, "shrunk": f.shrunk,
        "players": f.players, "turns": f.turns, "seed": f.seed,
        "replay": ("rulesc " + shlex.join(f.replay)) if f.replay else None, "replay_args": f.replay,
        "events": f.trace, "detail": f.detail,
    }

