"""Benchmark: rulesc against the hand-written FINANCE simulator (the yardstick). Run by hand, never as a test.

    python bench/bench_yardstick.py [--games 200] [--players 4] [--rounds 7] [--also games/wheeler.rules]

bench/finance_by_hand.py plays exactly the games rulesc plays from games/finance.rules, seed for
seed (tests/test_yardstick.py checks it), so the same seeds mean the same work. Each round plays
the same `--games` seeds three ways, one after the other in this one process: by hand, with
rulesc recording events (as `simulate` does), and with rulesc's events off; the order rotates
from round to round. Times are CPU time (`time.process_time`), since the machine is shared; the
figures are the best and the median of the rounds, and the ratio is rulesc's median over the
hand-written median (1.0: as fast as hand-written Python); beside it, the median of each round's
own quotient, which a machine that slows down for a while moves less (both play in that round).

`--also FILE` (repeatable) plays FILE's games with rulesc in the same rounds (events recorded and
off; the same seeds and players). No hand-written simulator exists for it, so its figure is
player-turns/s, with its median over the hand-written FINANCE median beside it: on a shared
machine that quotient, not the raw rate, is what compares across runs (Wheeler Dealer's speed-up
in issue #14 is measured so).
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


def by_hand(games: int, players: int) -> int:
    return sum(finance_by_hand.play(players, seed).turn for seed in range(games))


def with_rulesc(rules, games: int, players: int, record: bool) -> int:
    turns = 0
    for seed in range(games):
        game = Game(rules, players, seed=seed, agents=make_agents("heuristic", seed, players), record=record)
        turns += game.play().turn
    return turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--rounds", type=int, default=7, help="interleaved rounds; best and median are reported")
    parser.add_argument("--also", action="append", default=[], metavar="FILE",
                        help="another rules file to play with rulesc in the same rounds (repeatable)")
    args = parser.parse_args()

    rules = load_rules(str(ROOT / "games" / "finance.rules"))
    runners = {
        "hand-written": lambda: by_hand(args.games, args.players),
        "rulesc, events recorded": lambda: with_rulesc(rules, args.games, args.players, True),
        "rulesc, events off": lambda: with_rulesc(rules, args.games, args.players, False),
    }
    others = {}
    for path in args.also:
        other = load_rules(path)
        for record in (True, False):
            name = f"{Path(path).stem}, events {'recorded' if record else 'off'}"
            others[name] = (lambda r, rec: lambda: with_rulesc(r, args.games, args.players, rec))(other, record)
    names = list(runners)
    runners.update(others)
    everything = list(runners)
    for name in everything:  # warm up (and check that the three play the same games)
        runners[name]()
    rates: dict = {name: [] for name in everything}
    turns_seen: dict = {name: set() for name in everything}
    for r in range(args.rounds):
        k = r % len(everything)
        for name in everything[k:] + everything[:k]:
            start = time.process_time()
            turns = runners[name]()
            elapsed = time.process_time() - start
            rates[name].append(turns / elapsed)
            turns_seen[name].add(turns)
    if len(set().union(*(turns_seen[name] for name in names))) != 1:
        sys.exit(f"the simulators played different games: player-turns {turns_seen}")
    turns = turns_seen[names[0]].pop()
    print(f"FINANCE (1932), {args.players} players, heuristic agents, seeds 0..{args.games - 1} "
          f"({turns:,} player-turns a round), {args.rounds} interleaved rounds, CPU time")
    hand = statistics.median(rates[names[0]])
    for name in names:
        median = statistics.median(rates[name])
        ratio = ""
        if name != names[0]:  # and each round's quotient (played minutes apart at most), their median
            rounds = statistics.median(r / h for r, h in zip(rates[name], rates[names[0]]))
            ratio = f"   ratio {median / hand:.2f}x hand-written (medians), {rounds:.2f}x (rounds' median)"
        print(f"  {name:<24} best {max(rates[name]):9,.0f}  median {median:9,.0f} player-turns/s{ratio}")
    for name in others:
        median = statistics.median(rates[name])
        print(f"  {name:<24} best {max(rates[name]):9,.0f}  median {median:9,.0f} player-turns/s"
              f"   ({median / hand:.3f}x hand-written FINANCE; {turns_seen[name].pop():,} player-turns a round)")


if __name__ == "__main__":
    main()
