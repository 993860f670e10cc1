"""`rulesc diff`: what a house rule changes in a game, and what difference that makes.

It exists so that a variant is judged against its base: the rules, parameters and scenarios it
changes, each at its line in the variant, and with `--games N` both played on the same seeds, each
figure's paired difference with its 95% interval, what is significant marked apart from noise
(`--plot` draws them), and the seeds of the pairs that show each notable difference; `--show-seed N`
plays one pair again and prints the two games side by side.
"""

from __future__ import annotations

import json
import shlex
import shutil
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
    p.add_argument("--show-seed", type=int, metavar="N",
                   help="play the pair of seed N (as --games plays it) and print the two games side by side")
    p.add_argument("--format", choices=["text", "json"], default="text", help="text, or JSON for tools")
    with_parallel(p)
    with_plot(p, "the paired differences: game lengths, wins by seat, wealth over the game (variant - base)")
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
    count = players(variant, args.players)
    if not base.players_range[0] <= count <= base.players_range[1]:
        return fail(f"{base.title} is not for {count} players")
    if args.show_seed is not None:
        given = [o for o, v in (("--games", args.games), ("--plot", args.plot), ("--format json", args.format == "json"))
                 if v]
        if given:
            return fail(f"--show-seed plays one pair of games: {', '.join(given)} cannot apply")
        from rulesc.sidebyside import side_by_side
        width = shutil.get_terminal_size((160, 24)).columns
        sys.stdout.write(side_by_side(base, variant, count, args.show_seed, args.agents, width))
        return 0
    found = diff.changes(base, variant)
    measured = None
    if args.games:
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
        sys.stdout.write(diff.format_diff(*titles, found, measured, scenarios, show=_show_command(args)))
    if args.plot is not None:
        from rulesc import plots
        plot_written(args.plot, plots.diff_figure(base.title, variant.title, measured), args.format)
    return 0


def _show_command(args) -> str:
    """`rulesc diff BASE VARIANT --show-seed` with the options that decide the games (`--players`, `--agents`,
    `--set`), to be followed by a seed: the command that plays that pair as this diff did."""
    words = ["rulesc", "diff", args.base, args.variant]
    if args.players is not None:
        words += ["--players", str(args.players)]
    if args.agents != "heuristic":
        words += ["--agents", args.agents]
    for override in args.set or ():
        words += ["--set", override]
    return " ".join(shlex.quote(w) for w in words) + " --show-seed"
