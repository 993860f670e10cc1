"""The yardstick (bench/finance_by_hand.py) plays the very same games as rulesc plays games/finance.rules.

The hand-written simulator is what bench/bench_yardstick.py measures rulesc against, so it must
play the same games, seed for seed: the same number of turns, the same end and winner, the same
cash, positions and eliminations, the same owners, houses and withdrawn leases, and the random
generator left in the same state (the same dice and card cuts, in the same order). When
games/finance.rules or the heuristic agent changes, this test fails until the yardstick follows.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from pathlib import Path

import pytest

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import load_rules

ROOT = Path(__file__).resolve().parent.parent


def _load_yardstick():
    spec = importlib.util.spec_from_file_location("finance_by_hand", ROOT / "bench" / "finance_by_hand.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


by_hand = _load_yardstick()


@pytest.fixture(scope="module")
def rules():
    return load_rules(str(ROOT / "games" / "finance.rules"))


def rulesc_game(rules, players: int, seed: int, turn_limit: int | None = None) -> dict:
    game = Game(rules, players, seed=seed, agents=make_agents("heuristic", seed, players), record=False,
                turn_limit=turn_limit)
    state = game.play()
    return {
        "turns": state.turn,
        "end": state.end_reason,
        "winner": state.winner.name if state.winner is not None else None,
        "players": [(p.name, p.f["cash"], p.at, p.out) for p in state.players],
        "leases": [(t.name, t.f["owner"].name if t.f["owner"] is not None else None, t.f["houses"], t.f["withdrawn"])
                   for t in game.kind_things["Lease"]],
        "rng": state.rng.getstate(),
    }


def hand_game(players: int, seed: int, turn_limit: int | None = None) -> dict:
    game = by_hand.play(players, seed, turn_limit or by_hand.TURN_LIMIT)
    return {
        "turns": game.turn,
        "end": game.end_reason,
        "winner": game.winner.name if game.winner is not None else None,
        "players": [(p.name, p.cash, p.at, p.out) for p in game.players],
        "leases": [(lease.name, lease.owner.name if lease.owner is not None else None, lease.houses,
                    lease.withdrawn) for lease in game.leases],
        "rng": game.rng.getstate(),
    }


def test_whole_games_are_the_same_seed_for_seed(rules):
    seen = Counter()
    for seed in range(100):
        players = 2 + seed % 5
        expected = rulesc_game(rules, players, seed)
        assert hand_game(players, seed) == expected, f"seed {seed}, {players} players"
        seen[expected["end"]] += 1
        seen["houses"] += any(houses for _, _, houses, _ in expected["leases"])
    # The games are not trivial: both ways a game ends, and houses built, occur among them.
    assert seen["last player standing"] and seen["turn limit"] and seen["houses"] > 50


def test_the_start_of_games_is_the_same_at_every_turn_count(rules):
    for seed in range(300):
        players = 2 + seed % 5
        limit = 1 + seed % 60
        assert hand_game(players, 1000 + seed, limit) == rulesc_game(rules, players, 1000 + seed, limit), \
            f"seed {1000 + seed}, {players} players, {limit} turns"


def test_a_different_rule_is_noticed(rules, monkeypatch):
    """The comparison is sharp enough to see a small change in the yardstick's rules."""
    monkeypatch.setattr(by_hand, "TARIFF_PERCENT", 11)
    assert any(hand_game(4, seed) != rulesc_game(rules, 4, seed) for seed in range(5))
