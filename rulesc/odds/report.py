"""`rulesc odds` written out: a table, JSON or CSV, for one rules file or a base and a variant.

Every figure says how it was found: the label of the whole table (exact, exact for the card model,
approximate) heads it, each rule the chain could not follow is named with its line, and where the
figures are approximate the simulated ones stand beside them with their intervals.
"""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from .figures import APPROXIMATE, EXACT, MODEL, Odds

EXPLAINED = {
    EXACT: "exact: every rule that moves the token is in the chain",
    MODEL: "exact for the card model: each draw independent, each card with its share of its deck (a shuffled "
           "pile's order is not followed)",
    APPROXIMATE: "approximate: the chain leaves out the rules below; the simulated figures are the game's",
}


def pct(x) -> str:
    return f"{float(x) * 100:.3f}%"


def _interval(e) -> str:
    return f"{e.value * 100:.2f}% [{e.low * 100:.2f}, {e.high * 100:.2f}]"


def explained(o: Odds) -> str:
    """The figures' label, with the stated policy they hold under."""
    text = EXPLAINED[o.exactness]
    if o.policy and o.exactness != APPROXIMATE:
        text += f"; under the stated policy {', '.join(o.policy)}"
    elif o.policy:
        text += f" (policy stated: {', '.join(o.policy)})"
    return text


def format_table(o: Odds, measured=None, incomes=()) -> str:
    lines = [f"{o.title}: where a player's turn ends, from the rules' Markov chain ({o.states} states)",
             f"figures: {explained(o)}",
             f"laps per turn: {float(o.laps):.4f} ({float(o.steps):.4f} squares moved a turn)"]
    if measured is not None:
        lines.append(f"simulated: {measured.games} games, {measured.turns:,} turns, heuristic agents; "
                     f"{measured.confidence:.0%} intervals, simultaneous over the table")
    lines.append("")
    head = f"{'':>3} {'square':<22} {'turn ends':>10} {'landings/turn':>14} {'landings/lap':>13}"
    if measured is not None:
        head += f"   {'simulated: turn ends':<28} {'simulated: landings/turn':<28}"
    lines.append(head.rstrip())
    for s in o.squares:
        per_lap = o.per_lap(s.landings)
        row = (f"{s.index:>3} {s.name:<22} {pct(s.ends):>10} {float(s.landings):>14.5f} "
               f"{float(per_lap) if per_lap is not None else 0:>13.5f}")
        if measured is not None:
            row += f"   {_interval(measured.ends[s.index]):<28} {_interval(measured.landings[s.index]):<28}"
        lines.append(row.rstrip())
    if o.groups:
        lines += ["", f"{'group':<26} {'turn ends':>10} {'landings/turn':>14} {'landings/lap':>13}  places"]
        for name in o.groups:
            g = o.group(name)
            per_lap = o.per_lap(g.landings)
            lines.append(f"{name:<26} {pct(g.ends):>10} {float(g.landings):>14.5f} "
                         f"{float(per_lap) if per_lap is not None else 0:>13.5f}  {len(o.groups[name])}")
    statuses = {k: v for k, v in o.statuses.items() if k is not None}
    if statuses:
        lines += ["", "turns that end in a status:"]
        for name, share in statuses.items():
            lines.append(f"  {name:<24} {pct(share):>10}")
    if incomes:
        lines += ["", f"{'owned':<22} {'buildings':>9} {'rent/landing':>13} {'rent/opp. turn':>15} "
                      f"{'break-even':>11} {'next building':>14} {'its break-even':>15}"]
        for i in incomes:
            even = f"{float(i.break_even):.1f}" if i.break_even is not None else "-"
            more = _money(i.next_rent) if i.next_rent is not None else "-"
            more_even = f"{float(i.building_break_even):.1f}" if i.building_break_even is not None else "-"
            lines.append(f"{i.name:<22} {i.buildings:>9} {_money(i.rent):>13} {_money(i.per_turn):>15} "
                         f"{even:>11} {more:>14} {more_even:>15}")
        lines.append("(rent per landing exact over the dice, by the rules' own handlers; break-even in opponent "
                     "turns: price / rent per opponent turn)")
    if o.caveats:
        lines += ["", "rules the chain does not follow exactly:"]
        for c in o.caveats:
            lines.append(f"  {c.rule}: {c.kind}: {c.what}")
            if c.text:
                lines.append(f"      {c.text[:110]}")
    return "\n".join(lines) + "\n"


def _q(x) -> dict:
    x = Fraction(x)
    return {"value": float(x), "exact": f"{x.numerator}/{x.denominator}"}


def to_json(o: Odds, measured=None, incomes=()) -> dict:
    def est(e):
        return {"value": e.value, "low": e.low, "high": e.high}
    data = {
        "title": o.title, "file": o.path, "figures": o.exactness, "states": o.states, "policy": list(o.policy),
        "moves": o.moves,
        "laps_per_turn": _q(o.laps), "steps_per_turn": _q(o.steps),
        "squares": [{"index": s.index, "name": s.name, "turn_ends": _q(s.ends), "landings_per_turn": _q(s.landings),
                     "landings_per_lap": _q(o.per_lap(s.landings)) if o.laps else None,
                     **({"simulated": {"turn_ends": est(measured.ends[s.index]),
                                       "landings_per_turn": est(measured.landings[s.index])}}
                        if measured is not None else {})}
                    for s in o.squares],
        "groups": {name: {"places": o.groups[name], "turn_ends": _q(o.group(name).ends),
                          "landings_per_turn": _q(o.group(name).landings)} for name in o.groups},
        "statuses": {str(k): _q(v) for k, v in o.statuses.items() if k is not None},
        "caveats": [{"rule": c.rule, "kind": c.kind, "what": c.what, "text": c.text} for c in o.caveats],
    }
    if measured is not None:
        data["simulated"] = {"games": measured.games, "turns": measured.turns, "confidence": measured.confidence}
    if incomes:
        data["incomes"] = [{"name": i.name, "buildings": i.buildings, "rent_per_landing": _q(i.rent),
                            "rent_per_opponent_turn": _q(i.per_turn), "price": i.price,
                            "break_even_turns": float(i.break_even) if i.break_even is not None else None,
                            "building_price": i.building_price,
                            "building_break_even_turns": (float(i.building_break_even)
                                                          if i.building_break_even is not None else None)}
                           for i in incomes]
    return data


def to_csv(o: Odds, measured=None) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    head = ["index", "square", "turn_ends", "landings_per_turn", "landings_per_lap", "figures"]
    if measured is not None:
        head += ["sim_turn_ends", "sim_low", "sim_high",
                 "sim_landings_per_turn", "sim_landings_low", "sim_landings_high"]
    w.writerow(head)
    for s in o.squares:
        per_lap = o.per_lap(s.landings)
        row = [s.index, s.name, f"{float(s.ends):.8f}", f"{float(s.landings):.8f}",
               f"{float(per_lap):.8f}" if per_lap is not None else "", o.exactness]
        if measured is not None:
            for e in (measured.ends[s.index], measured.landings[s.index]):
                row += [f"{e.value:.6f}", f"{e.low:.6f}", f"{e.high:.6f}"]
        w.writerow(row)
    return out.getvalue()


# ---- a base and a variant ----------------------------------------------------------------------

def diff_table(base: Odds, variant: Odds) -> str:
    """What the variant changes in where turns end and how often each square is landed on."""
    lines = [f"{base.title} -> {variant.title}",
             f"base: {explained(base)}", f"variant: {explained(variant)}",
             f"laps per turn: {float(base.laps):.4f} -> {float(variant.laps):.4f}", "",
             f"{'':>3} {'square':<22} {'turn ends':>10} {'->':>3} {'variant':>10} {'change':>9}   "
             f"{'landings/turn':>13} {'->':>3} {'variant':>9}"]
    by_name = {(s.index, s.name): s for s in variant.squares}
    for s in base.squares:
        v = by_name.get((s.index, s.name))
        if v is None:
            lines.append(f"{s.index:>3} {s.name:<22} {pct(s.ends):>10}  (not on the variant's board)")
            continue
        change = (v.ends - s.ends) * 100
        mark = "" if v.ends == s.ends and v.landings == s.landings else " *"
        lines.append(f"{s.index:>3} {s.name:<22} {pct(s.ends):>10} {'->':>3} {pct(v.ends):>10} "
                     f"{float(change):>+8.3f}   "
                     f"{float(s.landings):>13.5f} {'->':>3} {float(v.landings):>9.5f}{mark}")
    extra = [s for s in variant.squares if (s.index, s.name) not in {(b.index, b.name) for b in base.squares}]
    for s in extra:
        lines.append(f"{s.index:>3} {s.name:<22} {'':>10} {'->':>3} {pct(s.ends):>10}  (new in the variant)")
    lines.append("(* the square's figures change; change in percentage points)")
    for label, o in (("base", base), ("variant", variant)):
        if o.caveats:
            lines += ["", f"{label}: rules the chain does not follow exactly:"]
            lines += [f"  {c.rule}: {c.kind}: {c.what}" for c in o.caveats]
    return "\n".join(lines) + "\n"


def diff_json(base: Odds, variant: Odds) -> dict:
    return {"base": to_json(base), "variant": to_json(variant)}


def _money(amount) -> str:
    """An expected amount as the other commands write money: `$14,000.00`, `$400.00`."""
    return f"${float(amount):,.2f}"
