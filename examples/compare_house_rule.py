"""Compare a game with a house-rule variant of it, over many simulated games.

    python examples/compare_house_rule.py games/finance.rules examples/finance-fast-money.rules [-n 300]

Plays the same seeds with both files (heuristic agents, 4 players) and prints, side by side,
how long games last and how they end: what a house rule changes, in numbers. It uses only
the public API: `load_rules` and `rulesc.simulate.simulate`.
"""

from __future__ import annotations

import argparse
import statistics

from rulesc.interpreter.rules import load_rules
from rulesc.simulate import simulate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base")
    parser.add_argument("variant")
    parser.add_argument("-n", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    summaries = [simulate(load_rules(path), args.n, args.seed, args.players) for path in (args.base, args.variant)]
    width = max(len(s.title) for s in summaries)
    print(f"{args.n} games each, {args.players} players, seeds {args.seed}..{args.seed + args.n - 1}\n")
    print(f"{'':<{width}}  {'mean turns':>10}  {'median':>6}  end reasons")
    for s in summaries:
        reasons = ", ".join(f"{reason} {100 * n / s.games:.0f}%" for reason, n in s.reasons.most_common())
        print(f"{s.title:<{width}}  {statistics.fmean(s.turns):>10.1f}  {statistics.median(s.turns):>6.0f}  {reasons}")


if __name__ == "__main__":
    main()
