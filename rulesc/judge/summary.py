"""What a variant did to its game, in figures: its whole games beside its base's, on the same seeds and seats.

The findings (findings.py) name what is probably wrong; this says what changed, right or wrong, which is
what a house-rule author asks first: are games longer, do they end differently, does a seat win more.
"""

from __future__ import annotations

import os
import statistics

from .findings import Side


def against_base(side: Side, base: Side) -> dict:
    """The figures of both sides: median length, how the games ended, first-round ends, wins by seat."""
    return {"base": base.rules.path, "games": len(side.profiles), "seats": side.profiles[0].players,
            "variant_figures": _figures(side), "base_figures": _figures(base)}


def _figures(side: Side) -> dict:
    profiles = side.profiles
    ends: dict = {}
    for p in profiles:
        reason = p.end_reason or "stopped by a broken invariant"
        ends[reason] = ends.get(reason, 0) + 1
    seats = max(p.players for p in profiles)
    wins = [sum(p.winner_seat == seat for p in profiles) for seat in range(seats)]
    return {"median_turns": statistics.median(p.turns for p in profiles), "ends": ends,
            "first_round": sum(p.first_round for p in profiles), "wins_by_seat": wins}


def format_against(summary: dict) -> str:
    """The figures as the check prints them: the base's, then the variant's."""
    v, b = summary["variant_figures"], summary["base_figures"]
    reasons = list(dict.fromkeys([*b["ends"], *v["ends"]]))
    ends = ", ".join(f"{r} {b['ends'].get(r, 0)} -> {v['ends'].get(r, 0)}" for r in reasons)
    seats = "/".join(map(str, b["wins_by_seat"])) + " -> " + "/".join(map(str, v["wins_by_seat"]))
    rows = [("turns (median)", f"{b['median_turns']:g} -> {v['median_turns']:g}"),
            ("how games ended", ends),
            ("ended in round 1", f"{b['first_round']} -> {v['first_round']}"),
            ("wins by seat", seats)]
    width = max(len(name) for name, _ in rows)
    shown = os.path.relpath(summary["base"]) if not os.path.relpath(summary["base"]).startswith("..") else summary["base"]
    return (f"\nagainst the base ({shown}), {summary['games']} games on the same seeds, "
            f"{summary['seats']} players (base -> this variant):\n"
            + "".join(f"  {name:<{width}}  {value}\n" for name, value in rows))
