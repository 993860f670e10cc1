"""Benchmark: `simulate` in one process against `--workers N`. Run by hand, never as a test.

    python bench/bench_workers.py [games/finance.rules] [--games 400] [--workers 2] [--rounds 3]

Plays the same seeds both ways, alternately, and reports the wall-clock time of each (best and
median of `--rounds`), the speed-up, and that the two summaries are the same. Wall-clock time is
what more processes save, so on a shared machine the figure says as much about the other load as
about rulesc: report it as measured, with the machine's load.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from pathlib import Path

from rulesc.interpreter.rules import load_rules
from rulesc.simulate import simulate

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "games" / "finance.rules"))
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    rules = load_rules(args.file)
    times: dict = {1: [], args.workers: []}
    summaries: dict = {}
    for r in range(args.rounds):
        for workers in ((1, args.workers) if r % 2 == 0 else (args.workers, 1)):
            start = time.perf_counter()
            summaries[workers] = simulate(rules, args.games, 0, args.players, workers=workers)
            times[workers].append(time.perf_counter() - start)
    same = summaries[1] == summaries[args.workers]
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"{rules.title}: {args.games} games, {args.players} players, {args.rounds} interleaved rounds, "
          f"{os.cpu_count()} cores, load average {load:.1f}")
    for workers, values in times.items():
        print(f"  {workers} worker{'s' if workers > 1 else ' '}  best {min(values):6.2f} s  median "
              f"{statistics.median(values):6.2f} s wall")
    speedup = statistics.median(times[1]) / statistics.median(times[args.workers])
    print(f"  speed-up {speedup:.2f}x (medians); summaries {'identical' if same else 'DIFFERENT'}")


if __name__ == "__main__":
    main()
