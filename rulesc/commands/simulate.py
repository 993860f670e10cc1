"""`rulesc simulate`: many whole games played by the agents, and what they add up to.

It exists to measure a game rather than read it: game length, how games end, wins by seat and
final wealth, each with its interval; `--check` every invariant in every game, listing the games
that break one; `--format csv` one row per game for pandas; `--plot` the figures drawn. Game `i`
is played with seed `S + i`, so any game of a summary can be played alone with `rulesc run`, and
the summary is the same in one process, in many, or on a Dask cluster.
"""

from __future__ import annotations

import json
import shlex
import sys
import time

from .shared import (at_least, check_plot, fail, load, players, plot_written, progress_bar, with_agents, with_file,
                     with_parallel, with_plot, with_set)

EXAMPLE = "rulesc simulate mygame.rules -n 500 --seed 1"


def add_parser(sub):
    p = sub.add_parser("simulate", help="play many games and summarise them")
    with_file(p)
    p.add_argument("-n", "--games", dest="n", metavar="N", type=at_least(1), default=1000,
                   help="number of games (default 1000; `--games` as in diff, sweep and check)")
    p.add_argument("--seed", type=int, default=0, help="game i is played with seed SEED + i (default 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bar or timing")
    p.add_argument("--check", action="store_true",
                   help="check every invariant after every event; list the games that break one (exit 1)")
    p.add_argument("--format", choices=["text", "json", "csv"], default="text",
                   help="text; JSON (the table with its intervals); or CSV, one row per game (for pandas)")
    with_parallel(p)
    with_plot(p, "game lengths, wins by seat with intervals, wealth over the game")
    with_agents(p)
    with_set(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from rulesc.runner import RunError, Where
    from rulesc.simulate import format_broken, format_summary, simulate, summary_csv, summary_json
    check_plot(args.plot)
    rules = load(args)
    count = players(rules, args.players)
    started, where = time.perf_counter(), Where()
    try:
        with progress_bar("simulating", args.n, quiet=args.quiet or args.format != "text") as progress:
            summary = simulate(rules, args.n, args.seed, count, args.agents, progress=progress, jobs=args.jobs,
                               overrides=args.set, dask=args.dask, check=args.check, wealth=args.plot is not None,
                               where=where)
    except RunError as exc:
        return fail(str(exc))
    elapsed = time.perf_counter() - started
    if args.format == "json":
        print(json.dumps(summary_json(summary, rules.program.sources), indent=2))
    elif args.format == "csv":
        sys.stdout.write(summary_csv(summary))
    else:
        sys.stdout.write(format_summary(summary, rules.program.sources))
    if args.check and args.format == "text":
        replay = ["rulesc", "run", args.file] + [x for item in args.set for x in ("--set", item)] + \
            ["--players", str(count), "--agents", args.agents]
        sys.stdout.write(format_broken(summary, shlex.join(replay)))
    if args.plot is not None:
        from rulesc import plots
        plot_written(args.plot, plots.simulate_figure(summary), args.format)
    if not args.quiet:
        print(f"{args.n} games, {summary.total_turns:,} turns in {elapsed:.2f} s{where}: "
              f"{args.n / elapsed:,.1f} games/s, {summary.total_turns / elapsed:,.0f} player-turns/s", file=sys.stderr)
    return 1 if summary.broken else 0
