"""Benchmark: start-up of `rulesc check --static` against `python -c "import lark"`. Run by hand, never as a test.

    python bench/bench_startup.py [games/wheeler.rules] [--runs 15] [--cold] [--breakdown]

Runs the two commands alternately, each a fresh process, and reports the CPU time (user + system)
each child took — best and median of `--runs` — and the ratio of the medians.

The runs use a cache folder of their own (`RULESC_CACHE_DIR`, a scratch folder): a warm-up run
first builds the parser's tables and keeps the file's parsed tree there, as the first `rulesc`
run after installing or editing does, so the timed runs are what a user sees every time after.
`--cold` removes the file's tree before each timed run (the parser's tables stay cached): what
the first run after editing the file costs. The warm-up also writes the bytecode of rulesc's
modules, as pip does when it installs a package (PYTHONDONTWRITEBYTECODE is ignored for it), so
that rulesc is timed as installed, like Lark. `--breakdown` adds where a run's time goes, measured
inside fresh processes (the median of `--runs` of each step; the interpreter's own start-up is not
in it).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _children_cpu() -> float:
    """The CPU time (user + system) of the children waited for so far: from getrusage where there
    is one (microseconds), else from os.times (clock ticks, 10 ms on Linux)."""
    try:
        import resource
    except ImportError:  # Windows
        times = os.times()
        return times.children_user + times.children_system
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cpu_of(command: list[str], env: dict | None = None) -> float:
    """The CPU time (user + system) of one run of `command`, a child process."""
    before = _children_cpu()
    subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return _children_cpu() - before


# One `check --static`, step by step, in a fresh process; prints `step milliseconds` lines.
STEPS = """
import sys, time
marks = [time.process_time()]
def mark(step):
    marks.append(time.process_time())
    print(step, (marks[-1] - marks[-2]) * 1000)
import attrs
mark("import attrs")
import rulesc.dsl.ast
mark("import the AST classes (rulesc.dsl.ast)")
import rulesc.cli
mark("import the rest of rulesc.cli")
rulesc.cli.build_parser()
mark("build the command line's parser")
from rulesc.dsl import cache
from rulesc.dsl.source import read_source
text = read_source(sys.argv[1])
tree = cache.load_ast(sys.argv[1], text)
mark("read the file, load its cached tree" if tree is not None else "read the file, find no cached tree")
if tree is None:
    import lark
    mark("import lark")
    from rulesc.dsl import parser
    mark("import the parser and transformer")
    parser._parser()
    mark("load the parser's tables")
    tree = parser.parse_text(text, sys.argv[1])
    mark("parse")
    cache.store_ast(sys.argv[1], text, tree)
    mark("store the tree")
from rulesc.dsl.checker import check_program
from rulesc.dsl.variants import resolve
checked = check_program(resolve(tree, sys.argv[1]))
mark("check")
from rulesc import report
report.format_diagnostics(checked), report.format_static(checked, False)
mark("format the report")
"""


def breakdown(file: str, runs: int, env: dict, cold: bool) -> None:
    """Print the median time of each step of `check --static`, over `runs` fresh processes."""
    steps: dict = {}
    for _ in range(runs):
        if cold:
            for tree in Path(env["RULESC_CACHE_DIR"]).glob("ast-*.pickle"):
                tree.unlink()
        out = subprocess.run([sys.executable, "-c", STEPS, file], check=True, capture_output=True, text=True,
                             env=env).stdout
        for line in out.splitlines():
            step, ms = line.rsplit(" ", 1)
            steps.setdefault(step, []).append(float(ms))
    print(f"  where the time goes (one process, median of {runs}):")
    for step, values in steps.items():
        print(f"    {step:<44} {statistics.median(values):6.1f} ms")
    print(f"    {'total':<44} {sum(statistics.median(v) for v in steps.values()):6.1f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "games" / "wheeler.rules"))
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--cold", action="store_true",
                        help="time rulesc without the file's cached tree (the parser's tables stay cached)")
    parser.add_argument("--breakdown", action="store_true", help="also show where a run's time goes")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="rulesc-bench-") as folder:
        env = dict(os.environ, RULESC_CACHE_DIR=folder)
        commands = {
            'python -c "import lark"': [sys.executable, "-c", "import lark"],
            f"rulesc check --static {Path(args.file).name}": [sys.executable, "-m", "rulesc", "check", "--static",
                                                              args.file],
        }
        warm_up = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}
        for command in commands.values():  # the file cache, the bytecode, the parser's tables, the tree
            cpu_of(command, warm_up)
        times: dict = {name: [] for name in commands}
        for _ in range(args.runs):
            for name, command in commands.items():
                if args.cold:
                    for tree in Path(folder).glob("ast-*.pickle"):
                        tree.unlink()
                times[name].append(cpu_of(command, env))
        lark_median = statistics.median(times[next(iter(commands))])
        print(f"start-up, CPU time of each process (user + system), {args.runs} interleaved runs"
              f"{', without the cached tree' if args.cold else ''}")
        for name, values in times.items():
            median = statistics.median(values)
            print(f"  {name:<40} best {min(values) * 1000:6.0f} ms  median {median * 1000:6.0f} ms"
                  f"  ({median / lark_median:.1f}x import lark)")
        if args.breakdown:
            breakdown(args.file, args.runs, env, args.cold)


if __name__ == "__main__":
    main()
