"""Benchmark: rulesc against the hand-written FINANCE simulator (the yardstick). Run by hand, never as a test.

    python bench/bench_yardstick.py [--games 200] [--players 4] [--rounds 7] [--batch 10] [--also games/wheeler.rules]

bench/finance_by_hand.py plays exactly the games rulesc plays from games/finance.rules, seed for
seed (tests/test_yardstick.py checks it), so the same seeds mean the same work. A round plays
seeds 0..games-1 in batches of `--batch` games; each batch is played three ways, one right after
the other in this one process: by hand, with rulesc recording events (as `simulate` does), and
with rulesc's events off; the order rotates from batch to batch. A batch takes a fraction of a
second, so the three times of one batch are taken under the same conditions on a machine whose
speed drifts from second to second. Times are CPU time (`time.process_time`), since the machine
is shared; the figures are the best and the median of the batches, and the ratio is rulesc's
median over the hand-written median (1.0: as fast as hand-written Python); beside it, the median
of each batch's own quotient.

`--also FILE` (repeatable) plays FILE's games with rulesc in the same batches (events recorded and
off; the same seeds and players). No hand-written simulator exists for it, so its figure is
player-turns/s, with its median over the hand-written FINANCE median beside it: on a shared
machine that quotient, not the raw rate, is what compares across runs.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import load_rules

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))

import finance_by_hand  # noqa: E402  (a file next to this one, not a package)


def by_hand(seeds, players: int) -> int:
    return sum(finance_by_hand.play(players, seed).turn for seed in seeds)


def with_rulesc(rules, seeds, players: int, record: bool) -> int:
    turns = 0
    for seed in seeds:
        game = Game(rules, players, seed=seed, agents=make_agents("heuristic", seed, players), record=record)
        turns += game.play().turn
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7, help="rounds of all the games; best and median are reported")
    parser.add_argument("--batch", type=int, default=10, help="games a batch (each way plays it in turn)")
    parser.add_argument("--also", action="append", default=[], metavar="FILE",
                        help="another rules file to play with rulesc in the same rounds (repeatable)")
    args = parser.parse_args()

    rules = load_rules(str(ROOT / "games" / "finance.rules"))
    runners = {
        "hand-written": lambda seeds: by_hand(seeds, args.players),
        "rulesc, events recorded": lambda seeds: with_rulesc(rules, seeds, args.players, True),
        "rulesc, events off": lambda seeds: with_rulesc(rules, seeds, args.players, False),
    }
    others = {}
    for path in args.also:
        other = load_rules(path)
        for record in (True, False):
            name = f"{Path(path).stem}, events {'recorded' if record else 'off'}"
            others[name] = (lambda r, rec: lambda seeds: with_rulesc(r, seeds, args.players, rec))(other, record)
    names = list(runners)
    runners.update(others)
    everything = list(runners)
    batches = [range(first, min(first + args.batch, args.games)) for first in range(0, args.games, args.batch)]
    for name in everything:  # warm up
        runners[name](batches[0])
    rates: dict = {name: [] for name in everything}
    turns_seen: dict = {name: [] for name in everything}
    for r in range(args.rounds):
        for b, seeds in enumerate(batches):
            k = (r * len(batches) + b) % len(everything)
            for name in everything[k:] + everything[:k]:
                start = time.process_time()
                turns = runners[name](seeds)
                elapsed = time.process_time() - start
                rates[name].append(turns / elapsed)
                turns_seen[name].append(turns)
    if any(turns_seen[name] != turns_seen[names[0]] for name in names):  # the same games, batch for batch
        sys.exit(f"the simulators played different games: player-turns {turns_seen}")
    turns = sum(turns_seen[names[0]][:len(batches)])
    print(f"FINANCE (1932), {args.players} players, heuristic agents, seeds 0..{args.games - 1} "
          f"({turns:,} player-turns a round), {args.rounds} rounds in batches of {args.batch} games, CPU time")
    hand = statistics.median(rates[names[0]])
    for name in names:
        median = statistics.median(rates[name])
        ratio = ""
        if name != names[0]:  # and each batch's quotient (played a second apart at most), their median
            paired = statistics.median(r / h for r, h in zip(rates[name], rates[names[0]]))
            ratio = f"   ratio {median / hand:.2f}x hand-written (medians), {paired:.2f}x (batches' median)"
        print(f"  {name:<24} best {max(rates[name]):9,.0f}  median {median:9,.0f} player-turns/s{ratio}")
    for name in others:
        median = statistics.median(rates[name])
        print(f"  {name:<24} best {max(rates[name]):9,.0f}  median {median:9,.0f} player-turns/s"
              f"   ({median / hand:.3f}x hand-written FINANCE; {sum(turns_seen[name][:len(batches)]):,} "
              "player-turns a round)")


if __name__ == "__main__":
    main()
