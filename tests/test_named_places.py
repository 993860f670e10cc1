"""A named place of a repeated square (docs/language.md 5.10): `CommunityChest as MiddleChest` in `board:`
makes `MiddleChest` a square value meaning that one place. `move … to` it goes there; `position ==` it is
true only there while `position == CommunityChest` is true on every copy; `on land MiddleChest` runs at that
place only, after the square's own handlers; naming the place of a thing or of a square the board has
once is R0709, a name taken twice R0202."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.variants import load_file
from rulesc.interpreter.rules import load_rules
from rulesc.interpreter.scenario import run_scenarios

FINANCE = Path(__file__).resolve().parent.parent / "games" / "finance.rules"
SIDES = ["Start, Wayback, CommunityChest, Rubeville, Tariff, PennsylvaniaRR, SylvanDell, Chance, VenetianLagoon, YeOldeManor",
         "Taxes, Boomtown, UGI, RicketyRow, EasyStreet, NewYorkCentralRR, GoldbergSquare, {chest}, EpsteinRoad, CohenBoulevard",
         "Rest, MaguireStreet, Chance, DeLanceyStreet, OLearyAvenue, SouthernPacificRR, MainLine, ChevyChase, APL, GrossePoint",
         "Rest, CommonwealthAve, Broadway, CommunityChest, RittenhouseSquare, SantaFeRR, Chance, WallStreet, Luxury, LaSalleStreet"]


def house(tmp_path, chest: str = "CommunityChest as MiddleChest", extra: str = "") -> Path:
    board = "\n".join("    " + side.format(chest=chest) for side in SIDES)
    path = tmp_path / "house.rules"
    path.write_text(f'''extends "{FINANCE}"
override board:
{board}
global:
    middle_bonus: count = 0
on land MiddleChest:        assumed "house rule"
    set middle_bonus = middle_bonus + 1
{extra}''', encoding="utf-8")
    return path


SCENARIOS = '''
scenario "the named place and the others":
    players Ann, Bob
    as Ann:
        move player to MiddleChest
    expect Ann.position == MiddleChest and Ann.position == CommunityChest
    expect middle_bonus == 1
    as Bob:
        move player to CommunityChest
    expect Bob.position == CommunityChest and Bob.position != MiddleChest
    expect middle_bonus == 1
    as Bob:
        move player to CommunityChest
    expect Bob.position == MiddleChest and middle_bonus == 2
    as Ann:
        place player at CommunityChest
    expect Ann.position != MiddleChest and Ann.position == CommunityChest
'''


def test_a_named_place_is_that_place_only(tmp_path):
    rules = load_rules(str(house(tmp_path, extra=SCENARIOS)))
    results = [r for r in run_scenarios(rules) if r.title == "the named place and the others"]
    assert results and not results[0].failures, results[0].failures if results else "no scenario"


def test_without_the_name_the_handler_has_no_place(tmp_path):
    checked = check_program(load_file(house(tmp_path, chest="CommunityChest")))
    assert [d.code for d in checked.diagnostics if d.is_error] == ["R0205"]


@pytest.mark.parametrize("chest, code", [("CommunityChest as Start", "R0202"),
                                         ("GoldbergSquare as MiddleChest", "R0709")])
def test_bad_names(tmp_path, chest, code):
    path = house(tmp_path, chest=chest)
    checked = check_program(load_file(path))
    assert code in [d.code for d in checked.diagnostics if d.is_error]
