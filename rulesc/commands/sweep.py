"""`rulesc sweep`: the balance table for each value of one parameter, on the same seeds.

It exists to choose a number rather than guess it: `--set NAME=FROM..TO step S` plays the same
seeded games with each value (other `--set NAME=VALUE`s fixed) and tabulates each figure with
its interval against the value, as text, JSON or CSV, or drawn with `--plot`.
"""

from __future__ import annotations

import json
import re
import sys
import time

from rulesc import report
from rulesc.dsl.checker import check_program
from rulesc.dsl.variants import load_file

from .shared import (at_least, check_plot, fail, players, plot_written, progress_bar, with_agents, with_file,
                     with_parallel, with_plot)

EXAMPLE = "rulesc sweep mygame.rules --set starting_cash=1000..2000 step 250 --games 300"

NEGATIVE_VALUE = re.compile(r"-\$?[\d,.]+%?")  # `-$100`, `-5%`: argparse takes them for options


def add_parser(sub):
    p = sub.add_parser("sweep", help="the balance table for each value of a parameter, on the same seeds")
    with_file(p)
    p.add_argument("--set", action="append", nargs="+", required=True, metavar="NAME=FROM..TO [step S]",
                   help="the parameter to sweep and its values, e.g. --set starting_cash=500..2000 step 250 "
                        "(once; more `--set NAME=VALUE` fix other parameters)")
    p.add_argument("--games", type=at_least(1), default=200, help="games played with each value (default 200)")
    p.add_argument("--seed", type=int, default=0, help="game i of each value is played with seed SEED + i (default 0)")
    p.add_argument("--format", choices=["text", "json", "csv"], default="text",
                   help="text; JSON; or CSV, one row per value with each figure's interval (for pandas)")
    with_parallel(p)
    with_plot(p, "each figure against the parameter, its interval as a band")
    with_agents(p)
    p.set_defaults(func=run)
    return p


def negative_steps(sets: list, unknown: list) -> list:
    """`--set NAME=FROM..TO step -$100`: argparse takes `-$100` (not a plain negative number) for an unknown
    option and leaves the `--set` ending in `step`; give the value back to that `--set`, so that sweep says
    what is wrong with the step. Returns the words still unknown."""
    left = list(unknown)
    for words in sets or ():
        if words[-1] == "step" and left and NEGATIVE_VALUE.fullmatch(left[0]):
            words.append(left.pop(0))
    return left


def run(args) -> int:
    from rulesc import sweep
    from rulesc.interpreter.rules import compile_rules
    from rulesc.runner import RunError, Where
    from rulesc.sources import RuleSources
    check_plot(args.plot)
    ranges = [words for words in args.set if ".." in words[0]]
    fixed = [" ".join(words) for words in args.set if ".." not in words[0]]
    if len(ranges) != 1:
        return fail("sweep needs one `--set NAME=FROM..TO step S` (and any number of `--set NAME=VALUE`)")
    swept = sweep.parse_range(ranges[0])
    checked = check_program(load_file(args.file))
    if not checked.ok:
        sys.stderr.write(report.format_diagnostics(checked))
        return 1
    rules_by_value = [compile_rules(checked, [*fixed, f"{swept.name}={swept.text(v)}"]) for v in swept.values]
    count = players(rules_by_value[0], args.players)
    started, where = time.perf_counter(), Where()
    try:
        with progress_bar("sweeping", args.games * len(swept.values), quiet=args.format != "text") as progress:
            result = sweep.sweep(rules_by_value, swept, args.games, args.seed, count, args.agents, fixed,
                                 args.jobs, args.dask, progress, where)
    except RunError as exc:
        return fail(str(exc))
    elapsed = time.perf_counter() - started
    if args.format == "json":
        print(json.dumps(sweep.sweep_json(result, RuleSources.of(checked.program)), indent=2))
    elif args.format == "csv":
        sys.stdout.write(sweep.sweep_csv(result))
    else:
        sys.stdout.write(sweep.format_sweep(result))
    if args.plot is not None:
        from rulesc import plots
        plot_written(args.plot, plots.sweep_figure(result), args.format)
    print(f"{len(swept.values)} values x {args.games} games in {elapsed:.2f} s{where}",
          file=sys.stderr)
    return 0
