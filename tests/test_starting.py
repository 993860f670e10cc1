"""Every game of a rules file starts as its first did (starting.py): the same fields, in the same
order, the groups' members, and nothing that one game changes in place shared with the next."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import load_rules
from rulesc.interpreter.starting import PLAIN

ROOT = Path(__file__).resolve().parent.parent
FILES = sorted(str(p) for p in [*(ROOT / "games").glob("*.rules"), *(ROOT / "examples").glob("*.rules")])


def _start(game: Game) -> list:
    """The things' fields (by thing name where a value is a thing) and the members, as plain data."""
    def plain(value):
        if isinstance(value, list):
            return [plain(v) for v in value]
        return ("thing", value.name) if hasattr(value, "kind") and hasattr(value, "f") else value
    return ([(t.name, [(k, plain(v)) for k, v in t.f.items()]) for t in game.things],
            [(g.name, [t.name for t in members]) for g, members in game.members.items()])


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=lambda p: Path(p).name)
def test_a_later_game_starts_as_one_worked_out_afresh(path):
    rules = load_rules(path)
    players = rules.players_range[0]
    first = Game(rules, players, seed=1)
    assert rules.thing_start is not None  # the first game kept what the others copy
    later = Game(rules, players, seed=2)
    kept = rules.thing_start
    rules.thing_start = None  # as if it were the first game again
    try:
        fresh = Game(rules, players, seed=2)
    finally:
        rules.thing_start = kept
    assert _start(later) == _start(fresh) == _start(first)
    for mine, other in zip(later.things, first.things):
        for field, value in mine.f.items():
            assert isinstance(value, PLAIN) or value is not other.f[field], (mine.name, field)  # no list shared
            if hasattr(value, "kind"):
                assert value is later.by_name[value.name]  # a thing of its own game
    for group, members in later.members.items():
        assert group is later.by_name[group.name] and all(t is later.by_name[t.name] for t in members)


@pytest.mark.slow
def test_a_field_computed_from_the_state_is_computed_in_every_game():
    """A list is never copied from the first game: one game's list changed in place leaves the next's alone."""
    rules = load_rules(str(ROOT / "games" / "finance.rules"))
    first = Game(rules, 4, seed=1)
    lists = [(t, k) for t in first.things for k, v in t.f.items() if isinstance(v, list)]
    assert lists  # FINANCE's rents are lists
    thing, field = lists[0]
    first.by_name[thing.name].f[field].append("changed")
    second = Game(rules, 4, seed=1)
    assert "changed" not in second.by_name[thing.name].f[field]
