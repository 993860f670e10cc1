"""Benchmark: machine instructions per player-turn, counted by valgrind. Run by hand, never as a test.

    python bench/bench_instructions.py [--file games/finance.rules] [--games 20] [--python PY ...] [--by-hand]
                                       [--cache] [--events]

On a shared machine a timed run moves by ±10% from one run to the next, too much to tell a change
of a few per cent. The number of instructions a run executes does not move: valgrind's callgrind
tool counts them (Debian's `valgrind` package). Each `--python` (an install of rulesc: its
`python`, default this one) plays `--games` games of `--file` (seeds 0.., 4 players, heuristic
agents, events off unless `--events`) twice in fresh processes, once with no games; the difference over the
player-turns played is the figure, so loading the rules and Python's own start-up are left out (a
run before them, not counted, caches the file's parsed tree if an edit made it stale). A
warm-up game (seed 999) is played first in both, so that what rulesc compiles on first use (a
procedure, a card) is left out too. `PYTHONHASHSEED=0`: the same hashes, the same work.
`--by-hand` counts bench/finance_by_hand.py on the same seeds (FINANCE only). `--cache` adds
valgrind's simulated first-level data-cache misses and mispredicted branches per turn: at about
the same instructions, these are what still makes one run slower than another.

Instructions are a proxy, not the time: a run that misses the cache more takes longer for as
many instructions (rulesc against the hand-written simulator is the case in point). Report times
from bench_yardstick.py and bench_versions.py; use this to see whether a change does less work.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import sys
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import load_rules
rules = load_rules(sys.argv[1])
record = sys.argv[4] == "events"
Game(rules, 4, seed=999, agents=make_agents("heuristic", 999, 4), record=record).play()
turns = 0
for seed in range(int(sys.argv[2])):
    game = Game(rules, 4, seed=seed, agents=make_agents("heuristic", seed, 4), record=record)
    turns += game.play().turn
print("TURNS", turns)
"""

BY_HAND = r"""
import sys
sys.path.insert(0, sys.argv[3])
import finance_by_hand
print("TURNS", sum(finance_by_hand.play(4, seed).turn for seed in range(int(sys.argv[2]))))
"""

EVENTS = ("Ir", "D1mr", "D1mw", "Bcm", "Bim")  # callgrind's names: instructions, data-cache misses, mispredictions


def count(python: str, script: str, args: list, cache: bool) -> tuple[dict, int]:
    """What callgrind counted for one run, and the player-turns it printed."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        options = ["--cache-sim=yes", "--branch-sim=yes"] if cache else []
        done = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *options,
                               python, "-c", script, *args],
                              capture_output=True, text=True, env={**os.environ, "PYTHONHASHSEED": "0"}, check=True)
        with open(out) as f:
            text = f.read()
    names = re.search(r"^events: (.*)$", text, re.M).group(1).split()
    totals = [int(v) for v in re.search(r"^totals: (.*)$", text, re.M).group(1).split()]
    turns = re.search(r"TURNS (\d+)", done.stdout)
    return dict(zip(names, totals)), int(turns.group(1)) if turns else 0


def per_turn(python: str, script: str, rules: str, games: int, cache: bool, events: str) -> tuple[dict, int]:
    # Uncounted first: a rules file's parsed tree is cached on its first load after an edit (of it or of rulesc).
    subprocess.run([python, "-c", script, rules, "0", str(ROOT / "bench"), events], capture_output=True, check=True)
    base, _ = count(python, script, [rules, "0", str(ROOT / "bench"), events], cache)
    played, turns = count(python, script, [rules, str(games), str(ROOT / "bench"), events], cache)
    return {k: (played[k] - base[k]) / turns for k in EVENTS if k in played}, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", default=str(ROOT / "games" / "finance.rules"))
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--python", action="append", default=[], metavar="PY",
                        help="an install's python (repeatable; default: this one)")
    parser.add_argument("--by-hand", action="store_true", help="also bench/finance_by_hand.py, on the same seeds")
    parser.add_argument("--cache", action="store_true", help="also simulated data-cache misses and mispredictions")
    parser.add_argument("--events", action="store_true", help="rulesc records its events (the hand-written makes none)")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("bench_instructions: needs valgrind (Debian: apt-get install valgrind)")
    runs = [(python, CHILD) for python in (args.python or [sys.executable])]
    if args.by_hand:
        runs.append((sys.executable, BY_HAND))
    events = "events" if args.events else "off"
    print(f"{args.file}, {args.games} games of 4 players, events {'recorded' if args.events else 'off'}, "
          "per player-turn (valgrind)")
    for python, script in runs:
        figures, turns = per_turn(python, script, args.file, args.games, args.cache, events)
        name = "hand-written" if script is BY_HAND else python
        shown = "  ".join(f"{k} {v:,.0f}" for k, v in figures.items())
        print(f"  {name:40s} {turns:,} player-turns  {shown}")


if __name__ == "__main__":
    main()
