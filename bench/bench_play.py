"""Benchmark: how fast rulesc plays and checks a game. Run by hand, never as a test.

    python bench/bench_play.py [games/finance.rules] [--games 300] [--players 4]

Reports, on one core (this is a single process): whole games per second and
player-turns per second with the heuristic agents (events recorded, as `simulate`
does), the same with event recording off — best, median and worst of `--repeat` runs,
since a shared machine's speed varies from run to run — and the time of the static check
(`rulesc check --static`: parse + check) and of compiling the rules. For FINANCE, the reference
is bench/bench_yardstick.py: rulesc against a hand-written simulator that plays the same games.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

from rulesc.dsl.checker import check_program
from rulesc.dsl.parsed import parse_file
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import load_rules

ROOT = Path(__file__).resolve().parent.parent


def best_of(fn, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def play(rules, games: int, players: int, record: bool) -> tuple[float, int]:
    turns = 0
    start = time.perf_counter()
    for seed in range(games):
        game = Game(rules, players, seed=seed, agents=make_agents("heuristic", seed, players), record=record)
        turns += game.play().turn
    return time.perf_counter() - start, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "games" / "finance.rules"))
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--repeat", type=int, default=5, help="timed runs; this machine's speed varies, so take the best")
    args = parser.parse_args()

    static = best_of(lambda: check_program(parse_file(args.file)))
    compile_time = best_of(lambda: load_rules(args.file))
    rules = load_rules(args.file)
    play(rules, 10, args.players, True)  # warm up: first games pay for caches and allocations
    print(f"{rules.title} ({args.file}), {args.players} players, heuristic agents, {args.games} games")
    print(f"  static check (parse + check):  {static * 1000:8.1f} ms")
    print(f"  load (parse + check + compile): {compile_time * 1000:7.1f} ms")
    for record in (True, False):
        runs = [play(rules, args.games, args.players, record) for _ in range(args.repeat)]
        rates = sorted(turns / elapsed for elapsed, turns in runs)
        elapsed, turns = min(runs)
        label = "events recorded" if record else "events off     "
        print(f"  play, {label}: best {args.games / elapsed:7.1f} games/s {turns / elapsed:9,.0f} player-turns/s;"
              f" median {statistics.median(rates):9,.0f}; worst {rates[0]:9,.0f}"
              f"  ({turns / args.games:.0f} turns a game, {args.repeat} runs)")
    per_game = [Game(rules, args.players, seed=s, agents=make_agents("heuristic", s, args.players)).play().turn
                for s in range(50)]
    print(f"  turns a game (first 50 seeds): median {statistics.median(per_game):.0f}, max {max(per_game)}")


if __name__ == "__main__":
    main()
