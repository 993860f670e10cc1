"""`rulesc diff` lists every declaration that differs: the fields of players, globals and kinds, the
game's settings, the bank, groups, squares, decks, statuses and the setup, besides the rules it always
listed; each as added, removed or changed, in the text report and in the JSON (a regression test: a
variant's new `global:` and `player:` fields were left out)."""

from __future__ import annotations

import pytest

import json
from pathlib import Path

import attrs

from rulesc.cli import main
from rulesc.diff import changes
from rulesc.dsl.model import Program
from rulesc.interpreter.rules import load_rules

EVERYTHING = Path(__file__).parent / "completeness" / "everything.rules"

BASE = """game "Negative move":
    players: 2 to 2
    start: A
    turn limit: 10

bank unlimited

player:
    cash: money = $100
    hidden debt: money = $0

global:
    jackpot: money = $5
    rounds: count = 0

kind Lot:
    colour: Colour
    price: money
    state owner: player? = none

group Colour of Lot: Red, Blue

table Lot:
    name  colour  price
    L1    Red     $60
    L2    Blue    $80

square A "A"
square B "B"
square C "C" stop

board:
    A, B, L1, C, L2

deck Luck reshuffle:
    card Win "Win":
        pay $10 from bank to player
    card Lose "Lose":
        pay $10 from player to bank

setup:
    pay jackpot from bank to players[0]

turn:
    phase move "Move":
        roll 1 die as d
        move player by d.total
    phase rest "Rest":
        pass

status Stuck "Stuck" at C:
    phase wait "Wait":
        release player

on land B:
    draw from Luck

on land C:
    put player in Stuck

on debt:
    eliminate debtor

end when count(players) == 1 winner players[0] as "last"
"""

# The user's report: a variant that adds globals, a player field and a handler.
VARIANT = """extends "base.rules"

global:
    pot: account
    level: count = 1

player:
    score: count = 0

on land B:
    set player.score = player.score + level
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def found(tmp_path: Path, other: str, name: str = "other.rules") -> dict:
    """The changes from BASE to `other`, by (what, category, name)."""
    base = load_rules(str(write(tmp_path, "base.rules", BASE)))
    variant = load_rules(str(write(tmp_path, name, other)))
    return {(c.what, c.category, c.name): c for c in changes(base, variant)}


def edited(*replacements: tuple[str, str]) -> str:
    """BASE with each (old, new) replaced once: another version of the game, not a variant of it."""
    text = BASE
    for old, new in replacements:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


def test_a_variant_lists_the_fields_and_globals_it_adds(tmp_path):
    c = found(tmp_path, VARIANT, "var.rules")
    assert c["added", "field", "player.score"].variant == "count = 0"
    assert c["added", "global", "pot"].variant == "account"
    assert c["added", "global", "level"].variant == "count = 1"
    assert ("added", "handler", "on land B (2)") in c
    assert len(c) == 4


def test_the_report_and_the_json_list_them(tmp_path, capsys):
    base, variant = write(tmp_path, "base.rules", BASE), write(tmp_path, "var.rules", VARIANT)
    assert main(["diff", str(base), str(variant)]) == 0
    out = capsys.readouterr().out
    assert "what the variant changes (4):" in out
    for line in (f"  + field player.score: count = 0  ({variant}:8)", f"  + global pot: account  ({variant}:4)",
                 f"  + global level: count = 1  ({variant}:5)"):
        assert line in out.splitlines(), out
    assert main(["diff", str(base), str(variant), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert {"what": "added", "category": "global", "name": "level", "base": None,
            "variant": "count = 1", "where": f"{variant}:5"} in data["changes"]


def test_fields_removed_and_changed_in_type_default_or_visibility(tmp_path):
    c = found(tmp_path, edited(("    cash: money = $100\n", "    cash: money = $150\n"),
                               ("    hidden debt: money = $0\n", "    debt: money = $0\n"),
                               ("    rounds: count = 0\n", "    rounds: money = $0\n"),
                               ("    price: money\n", "    price: money\n    state rent: money = $4\n"),
                               ("    state owner: player? = none\n", "")))
    assert (c["changed", "field", "player.cash"].base, c["changed", "field", "player.cash"].variant) == \
        ("money = $100", "money = $150")
    assert (c["changed", "field", "player.debt"].base, c["changed", "field", "player.debt"].variant) == \
        ("hidden money = $0", "money = $0")
    assert c["changed", "global", "rounds"].variant == "money = $0"
    assert c["added", "field", "Lot.rent"].variant == "state money = $4"
    assert c["removed", "field", "Lot.owner"].base == "state player? = none"
    assert len(c) == 5  # nothing else: a field is not changed by the one after it


def test_every_other_declaration_of_the_game_data(tmp_path):
    c = found(tmp_path, edited(('    turn limit: 10\n', '    turn limit: 20\n'),
                               ("bank unlimited", "bank $5,000"),
                               ("group Colour of Lot: Red, Blue", "group Colour of Lot: Red, Blue, Green"),
                               ('square C "C" stop', 'square C "C"'),
                               ("deck Luck reshuffle:", "deck Luck cut:"),
                               ('status Stuck "Stuck" at C:', 'status Stuck "Stuck here" at C:'),
                               ("    pay jackpot from bank to players[0]", "    pay jackpot from bank to players[1]"),
                               ("    L2    Blue    $80", "    L2    Blue    $90")))
    assert (c["changed", "setting", "turn limit"].base, c["changed", "setting", "turn limit"].variant) == ("10", "20")
    assert (c["changed", "bank", "bank"].base, c["changed", "bank", "bank"].variant) == ("unlimited", "$5,000")
    assert c["changed", "group", "Colour"].variant == "group Colour of Lot: Red, Blue, Green"
    assert c["changed", "square", "C"].variant == 'square C "C"'
    assert c["changed", "deck", "Luck"].variant == "deck Luck cut:"
    assert c["changed", "status", "Stuck"].variant == 'status Stuck "Stuck here" at C:'
    assert c["changed", "setup", "setup"].variant == "setup: / pay jackpot from bank to players[1]"
    assert c["changed", "row", "Lot.L2"].variant == "L2 Blue $90"
    assert len(c) == 8  # not the cards, the phases of the status, nor the rows around the changed ones


def test_a_card_or_a_phase_is_not_changed_by_the_one_after_it(tmp_path):
    c = found(tmp_path, edited(('    card Lose "Lose":', '    card Lose "Lose it":'),
                               ('    phase rest "Rest":', '    phase rest "Have a rest":')))
    assert set(c) == {("changed", "card", "Luck.Lose"), ("changed", "phase", "rest")}


def test_one_line_declarations_show_what_they_were_and_are(tmp_path, capsys):
    base = write(tmp_path, "base.rules", BASE)
    other = write(tmp_path, "other.rules", edited(("    cash: money = $100\n", "    cash: money = $150\n"),
                                                  ("    L2    Blue    $80", "    L2    Blue    $90")))
    assert main(["diff", str(base), str(other)]) == 0
    out = [line.rsplit("  (", 1)[0] for line in capsys.readouterr().out.splitlines()]  # less the line in the variant
    assert "  ~ field player.cash: money = $100 -> money = $150" in out
    assert "  ~ row Lot.L2: L2 Blue $80 -> L2 Blue $90" in out


def test_an_overridden_table_row_is_shown_as_it_now_stands(tmp_path):
    c = found(tmp_path, 'extends "base.rules"\noverride table Lot:\n    name  price\n    L1    $70\n', "var.rules")
    assert (c["changed", "row", "Lot.L1"].base, c["changed", "row", "Lot.L1"].variant) == ("L1 Red $60", "L1 Red $70")


# Each Program attribute that holds declarations, and the category `changes` files them under.
COMPARED = {"settings": "setting", "params": "parameter", "bank": "bank", "player_fields": "field",
            "global_fields": "global", "kinds": "field", "groups": "group", "squares": "square", "graphs": "graph",
            "board": "board", "copies": "board",
            "tables": "row", "decks": "deck", "setup": "setup", "turn": "phase", "supplies": "supply",
            "statuses": "status", "handlers": "handler", "hooks": "hook", "actions": "action", "trade": "trade", "trade_things": "trade",
            "ends": "end", "hints": "hint", "defines": "function", "procedures": "procedure",
            "invariants": "invariant", "scenarios": "scenario"}
# ... and those that are not declarations of their own: the file, the game's title (the report's first
# line), the things (the rows and groups), what the variant extends, overrides and removes (its changes are
# listed).
NOT_COMPARED = {"path", "source", "sources", "game", "things", "extends", "overrides", "removals"}

MINIMAL = """game "Minimal":
    players: 2 to 2
    start: A

player:
    cash: money = $1

square A "A"

board:
    A

turn:
    phase move:
        pass
"""


def test_every_kind_of_declaration_is_compared(tmp_path):
    """Every construct, in tests/completeness/everything.rules, against a game that has almost none of
    them: each kind of declaration a program holds is listed; a new kind fails here until diff has it."""
    assert {f.name for f in attrs.fields(Program)} == set(COMPARED) | NOT_COMPARED
    minimal = write(tmp_path, "minimal.rules", MINIMAL)
    listed = {c.category for c in changes(load_rules(str(EVERYTHING)), load_rules(str(minimal)))}
    assert set(COMPARED.values()) <= listed, set(COMPARED.values()) - listed


def test_parameters_are_shown_as_a_file_writes_them_and_a_handler_once(tmp_path, capsys):
    """A percent was shown `10 -> 15`, a negative amount `$-5`, a changed handler with its head twice,
    and two files of one title as `X against X`."""
    base = write(tmp_path, "base.rules", BASE + "\nparam cut = 10%\nparam fee = $5\n")
    other = write(tmp_path, "other.rules", 'extends "base.rules"\n\noverride param cut = 15%\noverride param fee = -$5\n'
                  "\nreplace on land B:\n    pay $1 from bank to player\n")
    assert main(["diff", str(base), str(other)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == f"Negative move ({other}) against Negative move ({base})"
    assert f"  ~ parameter cut: 10% -> 15%  ({other}:3)" in out and f"  ~ parameter fee: $5 -> -$5  ({other}:4)" in out
    assert f"  ~ handler on land B: pay $1 from bank to player  ({other}:6)" in out


@pytest.mark.slow
def test_the_scenarios_a_variant_changes_are_said_without_games(tmp_path, capsys):
    """Only `--games` compared the base's scenarios, which plays no game and costs little."""
    root = Path(__file__).resolve().parent.parent
    assert main(["diff", str(root / "games/wheeler.rules"), str(root / "examples/wheeler-no-poaching.rules")]) == 0
    out = capsys.readouterr().out
    assert "base scenarios whose outcome changes:\n  poaching a debt-ridden property: passes in the base, " \
           "removed in the variant\n" in out
    assert main(["diff", str(root / "games/wheeler.rules"), str(root / "examples/wheeler-no-poaching.rules"),
                 "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["scenarios"] == [{"title": title, "base": True, "variant": None} for title in
                                 ("poaching a debt-ridden property", "poaching only a debt-ridden property",
                                  "borrowing before poaching the debt-ridden property landed on")]
