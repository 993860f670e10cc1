"""`rulesc diff`: what a house rule changes in a game, and what difference that makes.

It exists so that a variant is judged against its base: the rules, parameters and scenarios it
changes, and with `--games N` both played on the same seeds, each figure's paired difference
with its 95% interval, what is significant marked apart from noise (`--plot` the two overlaid).
"""

from __future__ import annotations

import json
import sys

from .shared import (at_least, check_plot, fail, players, plot_written, progress_bar, with_agents, with_parallel,
                     with_plot, with_set)

EXAMPLE = "rulesc diff mygame.rules my-house-rules.rules --games 500"


def add_parser(sub):
    p = sub.add_parser("diff", help="what a variant changes, and (with --games) its effect on paired seeds")
    p.add_argument("base", metavar="BASE", help="the game, as its rules file")
    p.add_argument("variant", metavar="VARIANT", help="the house rule, as its rules file")
    p.add_argument("--games", type=at_least(0), default=0, help="play this many games of each on the same seeds")
    p.add_argument("--seed", type=int, default=0, help="game i of each is played with seed SEED + i (default 0)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="text, or JSON for tools")
    with_parallel(p)
    with_plot(p, "the base and the variant overlaid: game lengths, wins by seat, wealth over the game")
    with_agents(p)
    with_set(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from rulesc import diff
    from rulesc.interpreter.rules import load_rules
    from rulesc.runner import RunError
    check_plot(args.plot)
    if args.plot is not None and not args.games:
        return fail("--plot draws the games: give --games N too")
    base = load_rules(args.base, args.set)
    variant = load_rules(args.variant, args.set)
    found = diff.changes(base, variant)
    measured = None
    if args.games:
        count = players(variant, args.players)
        if not base.players_range[0] <= count <= base.players_range[1]:
            return fail(f"{base.title} is not for {count} players")
        try:
            with progress_bar("diffing", args.games, quiet=args.format == "json") as progress:
                measured = diff.measure(base, variant, args.games, args.seed, count, args.agents, progress=progress,
                                        jobs=args.jobs, dask=args.dask, overrides=args.set,
                                        wealth=args.plot is not None)
        except RunError as exc:
            return fail(str(exc))
    scenarios = diff.scenario_changes(base, variant) if measured is None else None  # cheap: said with no games too
    if args.format == "json":
        print(json.dumps(diff.diff_json(found, measured, scenarios), indent=2))
    else:
        titles = (base.title, variant.title) if base.title != variant.title else \
            (f"{base.title} ({args.base})", f"{variant.title} ({args.variant})")  # told apart by their files
        sys.stdout.write(diff.format_diff(*titles, found, measured, scenarios))
    if args.plot is not None:
        from rulesc import plots
        plot_written(args.plot, plots.diff_figure(base.title, variant.title, measured), args.format)
    return 0
