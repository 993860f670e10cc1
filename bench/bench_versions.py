"""Benchmark: two installs of rulesc (say, a commit and today's main) play the same games, alternately.
Run by hand, never as a test.

    git worktree add --detach /tmp/then COMMIT && python -m venv /tmp/then/.venv && /tmp/then/.venv/bin/pip install -e /tmp/then
    python bench/bench_versions.py /tmp/then/.venv/bin/python .venv/bin/python --file games/wheeler.rules \
        [--games 60] [--rounds 5] [--batch 10]

Each install plays in a process of its own, started once: it loads FILE, plays a warm-up game
(seed 999, not timed: what an install compiles on first use — rulesc writes a rules file's turns,
conditions and agent decisions out as Python when the first game needs them, about 10 ms for
Wheeler Dealer — is paid once a process, and a simulation plays hundreds of games or more), then
plays what it is told. A round is seeds 0..games-1 (heuristic agents, 4 players) in batches of
`--batch` games: each batch is played by both installs, one right after the other (who goes
first alternates), with events recorded and then off, each timed in CPU time. The machine is
shared and its speed drifts from second to second, by more than the difference to be measured
between two runs of a few seconds each; a batch takes a fraction of a second, so the two
installs' times of one batch are taken under the same conditions. Printed: the medians of the
batches' player-turns per second and their quotient (how many times faster the second install
is), the median of the batches' own quotients, and the best batches' (the least disturbed).
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
rules = load_rules(sys.argv[1])
Game(rules, 4, seed=999, agents=make_agents("heuristic", 999, 4)).play()  # warm-up, not timed
print("ready", flush=True)
for line in sys.stdin:
    mode, first, count = line.split()
    turns, start = 0, time.process_time()
    for seed in range(int(first), int(first) + int(count)):
        game = Game(rules, 4, seed=seed, agents=make_agents("heuristic", seed, 4), record=mode == "recorded")
        turns += game.play().turn
    print(json.dumps(turns / (time.process_time() - start)), flush=True)
"""

MODES = ("recorded", "off")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pythons", nargs=2, metavar="PYTHON", help="the Python of each install (then, now)")
    parser.add_argument("--file", default="games/wheeler.rules")
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--batch", type=int, default=10, help="games a batch (each install plays it in turn)")
    args = parser.parse_args()
    children = {python: subprocess.Popen([python, "-c", CHILD, args.file], stdin=subprocess.PIPE,
                                         stdout=subprocess.PIPE, text=True) for python in args.pythons}
    for child in children.values():
        if child.stdout.readline().strip() != "ready":
            raise SystemExit("an install could not load the rules")
    rates: dict = {python: {mode: [] for mode in MODES} for python in args.pythons}
    turn = 0
    try:
        for _ in range(args.rounds):
            for first in range(0, args.games, args.batch):
                count = min(args.batch, args.games - first)
                for mode in MODES:
                    turn += 1
                    for python in (args.pythons if turn % 2 else args.pythons[::-1]):
                        child = children[python]
                        child.stdin.write(f"{mode} {first} {count}\n")
                        child.stdin.flush()
                        rates[python][mode].append(json.loads(child.stdout.readline()))
    finally:
        for child in children.values():
            child.stdin.close()
            child.wait()
    then, now = args.pythons
    batches = len(rates[then][MODES[0]])
    print(f"{args.file}: {args.rounds} rounds of {args.games} games of 4 players, {batches} batches of "
          f"{args.batch} a mode, each played by both installs in turn; CPU time")
    for mode in MODES:
        a, b = statistics.median(rates[then][mode]), statistics.median(rates[now][mode])
        paired = statistics.median(y / x for x, y in zip(rates[then][mode], rates[now][mode]))
        print(f"  events {mode:8}  then {a:9,.0f}  now {b:9,.0f} player-turns/s (medians)   now/then {b / a:.2f}x"
              f"   (median of the batches' quotients {paired:.2f}x)")
    for mode in MODES:  # on a busy machine the fastest batch is the one least disturbed
        a, b = max(rates[then][mode]), max(rates[now][mode])
        print(f"  events {mode:8}  then {a:9,.0f}  now {b:9,.0f} player-turns/s (best)      now/then {b / a:.2f}x")


if __name__ == "__main__":
    main()
