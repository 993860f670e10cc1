"""The long fuzzing hunt of issue #13, run by hand: `python scripts/fuzz.py [N] [SEED] [--static] [--no-oracle]`.

Makes N mutants of the shipped games and N grammar-generated games (tests/fuzzing.py), takes
each as far as it goes (parse, check, compile, play, scenarios) and prints the figures: how many
were tried, how far they got, and every internal error, hang or disagreement, each with the file
that caused it saved under `fuzz-findings/` to become a regression test. Every game played is
played again under every combination of the execution options (events on/off, invariant checks
on/off, saved and loaded midway: the differential oracle, rulesc/differential.py), and a game
that is not the same game under all of them is a finding (`DISAGREED`); `--no-oracle` leaves
that out. With `--static`, files stop after the checker (parse and check only: many more inputs
a minute). The suite runs a seeded slice of the same fuzzers (tests/test_fuzz_play.py); this is
the slow tier.
"""

from __future__ import annotations

import collections
import random
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))

from fuzzing import Chooser, Disagreed, Hang, exercise, generated, mutant, no_hang  # noqa: E402


def main(argv: list[str]) -> int:
    play = "--static" not in argv
    oracle = play and "--no-oracle" not in argv
    argv = [a for a in argv if a not in ("--static", "--no-oracle")]
    count = int(argv[0]) if argv else 1000
    seed = int(argv[1]) if len(argv) > 1 else 0
    found = Path("fuzz-findings")
    outcomes: collections.Counter = collections.Counter()
    bugs: collections.Counter = collections.Counter()
    disagreed = 0
    started = time.perf_counter()
    for i in range(count):
        for source in ("mutant", "generated"):
            choose = Chooser(random.Random(f"{seed}:{source}:{i}"))
            name, text = mutant(choose) if source == "mutant" else ("generated.rules", generated(choose))
            try:
                with no_hang():
                    outcomes[source, exercise(text, name, seed=i, play=play, oracle=oracle)] += 1
            except Disagreed as exc:  # the same game played under two combinations of options gave two games
                disagreed += 1
                outcomes[source, "DISAGREED"] += 1
                found.mkdir(exist_ok=True)
                (found / f"disagreed-{source}-{seed}-{i}.rules").write_text(text, encoding="utf-8")
                print(f"{source} {i}: {str(exc).splitlines()[0]}", file=sys.stderr)
            except (Exception, Hang) as exc:  # noqa: BLE001 - every one is a finding
                where = traceback.extract_tb(exc.__traceback__)[-1]
                key = f"{type(exc).__name__} at {Path(where.filename).name}:{where.lineno}"
                bugs[key] += 1
                outcomes[source, "BUG"] += 1
                if bugs[key] <= 3:
                    found.mkdir(exist_ok=True)
                    (found / f"{source}-{seed}-{i}.rules").write_text(text, encoding="utf-8")
                    print(f"{source} {i}: {key}: {exc}", file=sys.stderr)
        if (i + 1) % 100 == 0:  # a running total, for a hunt stopped early
            played = sum(n for (_s, outcome), n in outcomes.items() if outcome == "played")
            print(f"... {2 * (i + 1)} files, {played} played, {sum(bugs.values())} internal errors or hangs, "
                  f"{disagreed} disagreements", flush=True)
    elapsed = time.perf_counter() - started
    how = ", static only" if not play else ", no oracle" if not oracle else ""
    print(f"{2 * count} files in {elapsed:.0f} s (seed {seed}{how})")
    for (source, outcome), n in sorted(outcomes.items()):
        print(f"  {source:9} {outcome:9} {n}")
    for key, n in bugs.most_common():
        print(f"  BUG {n} x {key}")
    return 1 if bugs or disagreed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
