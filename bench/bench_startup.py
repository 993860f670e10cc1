"""Benchmark: start-up of `rulesc check --static` against `python -c "import lark"`. Run by hand, never as a test.

    python bench/bench_startup.py [games/wheeler.rules] [--runs 15]

Runs the two commands alternately, each a fresh process, and reports the CPU time (user + system)
each child took — best and median of `--runs` — and the ratio of the medians. The first run of
`rulesc` after a change of the grammar (or of Lark, or of Python) builds the parser's tables and
caches them; the runs after it load them. Run it once before timing to warm the cache.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def cpu_of(command: list[str]) -> float:
    """The CPU time (user + system) of one run of `command`, a child process."""
    before = os.times()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "games" / "wheeler.rules"))
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    commands = {
        'python -c "import lark"': [sys.executable, "-c", "import lark"],
        f"rulesc check --static {Path(args.file).name}": [sys.executable, "-m", "rulesc", "check", "--static",
                                                          args.file],
    }
    for command in commands.values():  # warm up: the file cache, and the parser cache
        cpu_of(command)
    times: dict = {name: [] for name in commands}
    for _ in range(args.runs):
        for name, command in commands.items():
            times[name].append(cpu_of(command))
    lark_median = statistics.median(times[next(iter(commands))])
    print(f"start-up, CPU time of each process (user + system), {args.runs} interleaved runs")
    for name, values in times.items():
        median = statistics.median(values)
        print(f"  {name:<40} best {min(values) * 1000:6.0f} ms  median {median * 1000:6.0f} ms"
              f"  ({median / lark_median:.1f}x import lark)")


if __name__ == "__main__":
    main()
