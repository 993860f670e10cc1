"""The property check's report as the CLI shows it: text for people, and the same inside JSON for tools.

Kept apart from the search so that the wording and layout of the report can change without
touching how games are generated, and the other way round.
"""

from __future__ import annotations

import shlex

from .failures import Failure, failure_json
from .search import PropertyReport, examples_at

TRACE_TAIL = 25  # events of a counterexample the text report shows
MISSED_SHOWN = 20  # never-exercised rules (or statements) the text report lists
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
    if f.found_by == "run":
        lines.append(f"  game: {_count(f.players, 'player')}, {_count(f.turns, 'turn')}, {_count(len(f.trace), 'event')}")
    elif f.found_by == "whole games":
        lines.append(f"  whole game: seed {f.seed}, {_count(f.players, 'player')}, {_count(f.turns, 'turn')}, "
                     f"{_count(len(f.trace), 'event')} (heuristic agents, not shrunk)")
    else:
        found = f" (found by the search with a cap of {f.cap} turns)" if f.cap is not None else ""
        if not f.shrunk:
            found = f" (found by the search with a cap of {f.cap} turns; too long to shrink quickly)"
        lines.append(f"  {'minimal game' if f.shrunk else 'game'}: {_count(f.players, 'player')}, "
                     f"{_count(f.turns, 'turn')}, {_count(len(f.trace), 'event')}{found}")
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
    if f.replay:
        lines.append("  replay this game: rulesc " + shlex.join(f.replay))
    if f.detail:
        if debug:
            lines.append("  traceback:")
            lines.extend("    " + line for line in f.detail.rstrip().splitlines())
        else:
            lines.append("  (the Python traceback is shown with --debug)")
    return lines


def _search_end(report: PropertyReport) -> str:
    """How the games of the search ended, when not all by a rule: every game ends or is counted here."""
    parts = []
    if report.capped:
        parts.append(f"{report.capped} reached the turn cap")
    if report.stopped:
        parts.append(f"{report.stopped} stopped early at Hypothesis's data limit")
    if report.caps and report.caps[-1] < report.max_turns:
        parts.append(f"no game reached {report.caps[-1]} turns, so higher caps would play the same games")
    text = "; ".join(parts)
    return f"; {text}; the longest played {report.longest} turns" if text else ""


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def format_report(report: PropertyReport, debug: bool = False) -> str:
    """The report as text for the CLI; `debug` adds the traceback of an internal error."""
    low, high = report.players_range
    players = f"{low}..{high}" if low != high else f"{low}"
    caps = ", ".join(str(c) for c in report.caps)
    top = report.caps[-1] if report.caps else 0
    fewer = examples_at(report.examples, report.caps, top) if report.caps else report.examples
    long = f" ({fewer} at cap {top})" if fewer != report.examples else ""
    out = [f"property check: {report.examples} games{long}, players {players}, up to {report.max_turns} turns each",
           f"  {report.title} ({report.path}), seed {report.seed}",
           (f"  searched at turn caps {caps}: {report.games - report.whole_games} games played in all, "
            "shrinking included" + _search_end(report)) if report.caps else "  no search (--examples 0)"]
    if report.whole_games:
        turns = sorted(report.whole_turns)
        limited = report.whole_limited
        out.append(f"  whole games: {report.whole_games} with the heuristic agents, {report.whole_seats} players (seeds "
                   f"{report.seed}..{report.seed + report.whole_games - 1}, as `rulesc simulate` plays them), "
                   f"{turns[0]}..{turns[-1]} turns"
                   + (f"; seed{'s' if len(limited) > 1 else ''} {', '.join(map(str, limited))} reached the turn "
                      f"limit of {report.max_turns} unbroken" if limited else ""))
    out += ["", "invariants:"]
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


def report_json(report: PropertyReport) -> dict:
    """The report for `--format json`, as data: each invariant's status, each failure (invariant,
    values before and after, rule span, replay command, events), how the games ended, coverage."""
    return {
        "ok": report.ok, "title": report.title, "path": report.path, "seed": report.seed,
        "examples": report.examples, "max_turns": report.max_turns, "players": list(report.players_range),
        "invariants": [{"name": name, "ok": report.failure_of(name) is None,
                        "declared_at": report.declared_at[name].text if name in report.declared_at else None} for name in report.invariants],
        "failures": [failure_json(f) for f in report.failures],
        "search": {"caps": report.caps, "games": report.games - report.whole_games, "capped": report.capped,
                   "stopped_at_data_limit": report.stopped, "longest": report.longest},
        "whole_games": {"games": report.whole_games, "turns": report.whole_turns,
                        "reached_turn_limit": report.whole_limited},
        "coverage": [{"what": item.what, "total": len(item.total), "exercised": item.exercised,
                      "missed": item.missed} for item in report.coverage],
    }
