"""Benchmark: two installs of rulesc (say, a commit and today's main) play the same games, alternately.
Run by hand, never as a test.

    git worktree add --detach /tmp/then COMMIT && python -m venv /tmp/then/.venv && /tmp/then/.venv/bin/pip install -e /tmp/then
    python bench/bench_versions.py /tmp/then/.venv/bin/python .venv/bin/python --file games/wheeler.rules [--games 60] [--rounds 5]

Each round runs one fresh process per install, in alternating order, each playing seeds
0..games-1 of FILE with heuristic agents (4 players), once with events recorded and once off, and
printing its player-turns per second of CPU time. The machine is shared, so the figures are the
medians of the rounds and their quotient (how many times faster the second install is), and the
best rounds' (the least disturbed: on a busy machine the medians move by ±10% from run to run).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess

CHILD = r"""
import json, sys, time
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import load_rules
path, games = sys.argv[1], int(sys.argv[2])
rules = load_rules(path)
rates = {}
for record in (True, False):
    turns, start = 0, time.process_time()
    for seed in range(games):
        game = Game(rules, 4, seed=seed, agents=make_agents("heuristic", seed, 4), record=record)
        turns += game.play().turn
    rates["recorded" if record else "off"] = turns / (time.process_time() - start)
print(json.dumps(rates))
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pythons", nargs=2, metavar="PYTHON", help="the Python of each install (then, now)")
    parser.add_argument("--file", default="games/wheeler.rules")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    rates: dict = {python: {"recorded": [], "off": []} for python in args.pythons}
    for r in range(args.rounds):
        for python in (args.pythons if r % 2 == 0 else args.pythons[::-1]):
            out = subprocess.run([python, "-c", CHILD, args.file, str(args.games)], check=True,
                                 capture_output=True, text=True).stdout
            for mode, rate in json.loads(out).items():
                rates[python][mode].append(rate)
    then, now = args.pythons
    print(f"{args.file}, {args.games} games of 4 players a round, {args.rounds} alternating rounds, CPU time")
    for mode in ("recorded", "off"):
        a, b = statistics.median(rates[then][mode]), statistics.median(rates[now][mode])
        print(f"  events {mode:8}  then {a:9,.0f}  now {b:9,.0f} player-turns/s (medians)   now/then {b / a:.2f}x")
    for mode in ("recorded", "off"):  # on a busy machine the fastest round is the one least disturbed
        a, b = max(rates[then][mode]), max(rates[now][mode])
        print(f"  events {mode:8}  then {a:9,.0f}  now {b:9,.0f} player-turns/s (best)      now/then {b / a:.2f}x")


if __name__ == "__main__":
    main()
