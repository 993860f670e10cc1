"""Benchmark: `simulate` (or `diff`) in one process against `--jobs N`. Run by hand, never as a test.

    python bench/bench_workers.py [games/finance.rules] [--games 400] [--jobs 2] [--rounds 3]
    python bench/bench_workers.py games/wheeler.rules --variant examples/wheeler-no-auctions.rules --games 2000

Plays the same seeds both ways, alternately, and reports the wall-clock time of each (best and
median of `--rounds`), the speed-up, and that the two results are the same (with `--variant`, the
`rulesc diff` measurement of the variant against the file, on paired seeds). Wall-clock time is
what more processes save, so on a shared machine the figure says as much about the other load as
about rulesc: report it as measured, with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from rulesc.diff import format_diff, measure
from rulesc.interpreter.rules import load_rules
from rulesc.simulate import format_summary, simulate

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "games" / "finance.rules"))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--variant", help="time `diff FILE VARIANT --games N` instead of `simulate`")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rules = load_rules(args.file)
    variant = load_rules(args.variant) if args.variant else None

    def once(jobs: int) -> str:
        if variant is None:
            return format_summary(simulate(rules, args.games, args.seed, args.players, jobs=jobs),
                                  rules.program.sources)
        measured = measure(rules, variant, args.games, args.seed, args.players, jobs=jobs)
        return format_diff(rules.title, variant.title, [], measured)

    times: dict = {1: [], args.jobs: []}
    outputs: dict = {}
    for r in range(args.rounds):
        for jobs in ((1, args.jobs) if r % 2 == 0 else (args.jobs, 1)):
            start = time.perf_counter()
            outputs[jobs] = once(jobs)
            times[jobs].append(time.perf_counter() - start)
    same = outputs[1] == outputs[args.jobs]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    what = f"diff against {variant.title}" if variant else "simulate"
    print(f"{rules.title}, {what}: {args.games} games, {args.players} players, {args.rounds} interleaved rounds, "
          f"{os.cpu_count()} cores, load average {load:.1f}")
    for jobs, values in times.items():
        print(f"  --jobs {jobs}  best {min(values):6.2f} s  median {statistics.median(values):6.2f} s wall")
    speedup = statistics.median(times[1]) / statistics.median(times[args.jobs])
    print(f"  speed-up {speedup:.2f}x (medians); outputs {'identical' if same else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
