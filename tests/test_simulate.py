"""`rulesc simulate`: a full, reproducible summary on stdout, timings on stderr only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GAMES = Path(__file__).resolve().parent.parent / "games"


def simulate(*args):
    proc = subprocess.run([sys.executable, "-m", "rulesc", "simulate", *map(str, args)], capture_output=True,
                          text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, proc.stderr


def test_the_summary_has_every_section_and_is_the_same_twice():
    first, err = simulate(GAMES / "finance.rules", "-n", "20", "--seed", "1")
    second, _ = simulate(GAMES / "finance.rules", "-n", "20", "--seed", "1")
    assert first == second
    assert first.startswith("FINANCE (1932): 20 games, 4 players, heuristic agents, seeds 1..20")
    for section in ("turns per game:", "how games ended:", "wins by seat", "where money went"):
        assert section in first
    assert "pay circuit_income from bank to player" in first  # money is attributed to its rule's text
    assert "player-turns/s" in err and "player-turns/s" not in first


def test_a_variant_quotes_the_rules_it_inherits_from_its_base():
    out, _ = simulate(GAMES / "wheeler-level1.rules", "-n", "5", "--seed", "1", "--players", "3")
    assert out.startswith("Wheeler Dealer, Level One: 5 games, 3 players")
    money = out.split("where money went")[1]
    assert "wheeler.rules:" in money and "pay c.stake from p to bank" in money
