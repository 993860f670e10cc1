"""The money-flow picture (`rulesc diagram --money`) and a deck's own picture (`--deck NAME`).

Each `golden/money/GAME.dot` is the exact DOT of games/GAME.rules's money flow; after an intended
change accept the new files with `scripts/test.sh --bless` and look at the pictures
(`rulesc diagram games/GAME.rules --money -o /tmp/GAME-money.png`).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from rulesc.deck_diagram import build_deck_diagram
from rulesc.dsl.checker import check_program
from rulesc.dsl.model import build_program
from rulesc.dsl.parsed import parse_file
from rulesc.dsl.variants import load_file
from rulesc.money import build_money_diagram, payments

from clirun import rulesc
from svgtext import overlapping, text_boxes

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "games").glob("*.rules"))
GOLDEN = Path(__file__).parent / "golden" / "money"
EVERYTHING = ROOT / "tests" / "completeness" / "everything.rules"


def checked(path):
    result = check_program(load_file(path))
    assert result.ok, [d.message for d in result.diagnostics if d.is_error]
    return result


@pytest.mark.parametrize("game", GAMES, ids=[g.stem for g in GAMES])
def test_money_flow_matches_golden_dot(game, expect_file):
    expect_file(GOLDEN / f"{game.stem}.dot", build_money_diagram(checked(game)).source)


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's `dot` is not installed")
@pytest.mark.parametrize("game", [*GAMES, EVERYTHING], ids=[g.stem for g in [*GAMES, EVERYTHING]])
def test_no_two_labels_of_the_money_flow_overlap(game):
    """Each text's box, as wide as a reader's fonts draw it (font size x characters), meets no other:
    a long amount ran into the rule beside it, the title's two fonts into each other."""
    svg = build_money_diagram(checked(game)).pipe(format="svg").decode("utf-8")
    boxes = text_boxes(svg)
    assert len(boxes) > 10 and any(b.text.endswith(f":{pay.line}") for b in boxes for pay in payments(checked(game)))
    assert overlapping(svg) == []


def test_the_overlap_check_finds_texts_that_meet():
    """The check itself: two texts of a row, the second starting before the first one's end, overlap;
    the same texts a row apart do not."""
    svg = ('<svg xmlns="http://www.w3.org/2000/svg"><text x="0" y="10" font-size="9" font-family="Courier">'
           '$25 * sum(q in Lease)</text><text x="100" y="10" font-size="9">on land Tax</text>'
           '<text x="100" y="30" font-size="9">on land Tax</text></svg>')
    assert overlapping(svg) == [("$25 * sum(q in Lease)", "on land Tax")]  # 21 x 9 x 0.6 = 113 > 100


def test_every_money_golden_file_has_its_game(expect_no_stale):
    expect_no_stale(p for p in GOLDEN.glob("*.dot") if not (ROOT / "games" / f"{p.stem}.rules").exists())


def pay_lines(path) -> list[int]:
    """The lines of a file's `pay` statements outside scenarios (by reading the text, not the tree)."""
    lines, in_scenario = [], False
    for n, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if line and not line[0].isspace():
            in_scenario = line.startswith("scenario")
        code = line.split("#", 1)[0]
        if not in_scenario and re.match(r"\s*(pay|split)\s", code):  # a split is a payment to each
            lines.append(n)
    return lines


@pytest.mark.parametrize("path", [ROOT / "games" / "finance.rules", ROOT / "games" / "wheeler.rules",
                                  ROOT / "games" / "wallstreet.rules", EVERYTHING], ids=lambda p: p.name)
def test_every_pay_statement_is_an_edge(path):
    found = payments(checked(path))
    assert sorted(p.line for p in found if p.rule != "a trade") == pay_lines(path)
    dot = build_money_diagram(checked(path)).source
    for pay in found:
        assert f"{pay.file}:{pay.line}<" in dot


def test_accounts_are_named_by_what_the_file_declares():
    found = payments(checked(ROOT / "games" / "finance.rules"))
    by_line = {p.line: p for p in found}
    income = next(p for p in found if p.amount == "circuit_income")
    assert (income.source.title, income.target.title, income.rule) == ("the Bank", "players' cash", "on pass Start")
    rent = next(p for p in found if p.amount == "p.rents[p.houses]")
    assert rent.target.title == "a Lease's owner" and rent.rule == "on land Lease (rent)"
    assert any(p.target.key == "creditor" for p in found)
    assert any(p.rule == "a trade" and (p.source.key, p.target.key) == ("players", "another_player") for p in found)
    assert any(p.rule.startswith("card “") for p in by_line.values())
    # Wall Street's bank book is an account of each player: money goes in and comes out of it.
    street = payments(checked(ROOT / "games" / "wallstreet.rules"))
    assert any(p.target.key == "player_deposit" for p in street)
    assert any(p.source.key == "player_deposit" for p in street)


def test_a_variant_names_the_file_of_each_rule():
    found = payments(checked(ROOT / "games" / "wheeler-level1.rules"))
    assert found and {p.file for p in found} == {"wheeler.rules"}  # every payment rule is inherited


def test_the_money_flow_of_a_built_program_draws_without_types():
    program, _ = build_program(parse_file(ROOT / "games" / "finance.rules"))
    assert "a Lease's owner" in build_money_diagram(program).source


def test_a_deck_has_a_picture_of_its_cards():
    dot = build_deck_diagram(checked(ROOT / "games" / "finance.rules"), "ChanceCards").source
    assert "deck ChanceCards (8 cards, cut)" in dot
    assert "Advance to Start" in dot and "×2" in dot and "move player to Start" in dot
    assert dot.count("[label=") == 7 + 1  # a node per card, and the legend
    with pytest.raises(KeyError):
        build_deck_diagram(checked(ROOT / "games" / "finance.rules"), "Nope")


def test_a_deck_diagram_shows_what_a_card_does_inside_its_if():
    """A card whose payment stands under `if not player.insured:` showed the `if` alone."""
    from rulesc.deck_diagram import build_deck_diagram
    from rulesc.dsl.checker import check_program
    from rulesc.dsl.variants import load_file

    root = Path(__file__).resolve().parent.parent
    source = build_deck_diagram(check_program(load_file(root / "games/wallstreet.rules")).program, "NewsCards").source
    crash = next(line for line in source.splitlines() if "_Crash [label=" in line)
    assert "if not player.insured:" in crash and "  pay $100,000 from player to bank" in crash


def test_the_command_draws_money_and_decks(tmp_path):
    run = ["diagram", "games/finance.rules"]
    out = rulesc(*run, "--money", "-o", str(tmp_path / "m.dot"), cwd=ROOT)
    assert out.returncode == 0, out.stderr
    assert (tmp_path / "m.dot").read_text(encoding="utf-8").startswith("// money flow of FINANCE")
    out = rulesc(*run, "--deck", "ChestCards", "-o", str(tmp_path / "d.dot"), cwd=ROOT)
    assert out.returncode == 0 and "Doctor" in (tmp_path / "d.dot").read_text(encoding="utf-8")
    out = rulesc(*run, "--deck", "Nope", cwd=ROOT)
    assert out.returncode == 2 and "no deck `Nope` (its decks: ChanceCards, ChestCards)" in out.stderr
