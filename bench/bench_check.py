"""Benchmark: what `rulesc check` costs, part by part. Run by hand, never as a test.

    python bench/bench_check.py [games/finance.rules] [--games 50] [--examples 100] [--cost-only]

Reports the CPU time of each part of a default check — the scenarios, the Hypothesis search,
the seeded whole games — and the cost of checking every invariant after every event: the same
whole games played plain and played with the invariant checker as their observer.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import load_rules
from rulesc.interpreter.scenario import run_scenarios
from rulesc.properties import check_properties, play_checked

ROOT = Path(__file__).resolve().parent.parent


def timed(fn):
    started = time.process_time()
    result = fn()
    return time.process_time() - started, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file", nargs="?", default=str(ROOT / "games" / "finance.rules"))
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--examples", type=int, default=100)
    parser.add_argument("--cost-only", action="store_true",
                        help="only the cost of checking invariants (plain against checked whole games)")
    args = parser.parse_args()
    rules = load_rules(args.file)
    low, high = rules.players_range

    if not args.cost_only:
        scenarios, _ = timed(lambda: run_scenarios(rules))
        search, report = timed(lambda: check_properties(rules, examples=args.examples, games=0))
        whole, _ = timed(lambda: check_properties(rules, examples=0, games=args.games))
        print(f"{rules.title}: check parts (CPU seconds)")
        print(f"  scenarios      {scenarios:7.2f}")
        print(f"  search         {search:7.2f}  (caps {', '.join(map(str, report.caps))}, {report.games} games)")
        print(f"  whole games    {whole:7.2f}  ({args.games} games, coverage and invariants)")

    def games(checked: bool) -> int:
        turns = 0
        for i in range(args.games):
            players = low + i % (high - low + 1)
            game = Game(rules, players, seed=i, agents=make_agents("heuristic", i, players))
            if checked:
                play_checked(rules, game)
            else:
                game.play()
            turns += game.state.turn
        return turns

    plain, turns = timed(lambda: games(False))
    checked, _ = timed(lambda: games(True))
    print(f"{rules.title}: invariants checked, {args.games} whole games, {turns:,} turns (CPU seconds):")
    print(f"  plain play     {plain:7.2f}")
    print(f"  checked play   {checked:7.2f}  ({checked / plain:.2f}x plain)")


if __name__ == "__main__":
    main()
