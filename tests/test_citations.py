"""The game pages' rulebook tables are generated from the citations and are current; the
generator finds sections, places quotes (ellipses and all) and shows a section nobody cites."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc import citations

from clirun import rulesc

ROOT = Path(__file__).resolve().parent.parent
PAGES = [
    (["games/wheeler.rules", "games/wheeler-level1.rules"], "docs/rulebooks/wheeler-dealer.txt", "docs/games/wheeler.md"),
    (["games/finance.rules"], "docs/rulebooks/finance-1932.txt", "docs/games/finance.md"),
    (["games/wallstreet.rules", "games/wallstreet-short.rules"], "docs/rulebooks/wall-street.txt",
     "docs/games/wallstreet.md"),
]


@pytest.mark.slow
@pytest.mark.parametrize("files, rulebook, page", PAGES, ids=lambda x: x if isinstance(x, str) else None)
def test_the_game_page_table_is_current(files, rulebook, page):
    expected = citations.table([ROOT / f for f in files], ROOT / rulebook)
    assert citations.current(ROOT / page) == expected, (
        f"{page} is out of date: run `rulesc citations {' '.join(files)} --rulebook {rulebook} --update {page}`")


def test_the_wheeler_sections_are_the_table_of_contents():
    secs = citations.sections((ROOT / "docs/rulebooks/wheeler-dealer.txt").read_text(encoding="utf-8"))
    titles = [s.title for s in secs]
    assert titles[0] == "Game Equipment" and titles[-1] == "\"Insider Tips\" on Playing the Game"
    assert "\"Combo Platter\" Card" in titles and "Bankruptcy" in titles and len(titles) == 33


def test_a_quote_with_ellipses_goes_to_the_section_holding_its_pieces():
    secs = citations.sections((ROOT / "docs/rulebooks/wheeler-dealer.txt").read_text(encoding="utf-8"))
    sec = citations.place("Simply pay to the Bank the debt ... (Nothing need be paid to the property's owner!)", secs)
    assert sec.title == "Poaching"
    assert citations.place("a rule no rulebook has", secs) is None


def test_a_section_no_rule_cites_shows(tmp_path):
    rules = tmp_path / "tiny.rules"
    rules.write_text((ROOT / "tests/checker_cases/scenario_trade_items.rules").read_text(encoding="utf-8")
                     .replace("trade Lot with cash", 'trade Lot with cash   § "Lots may be traded for cash."'))
    book = tmp_path / "book.txt"
    book.write_text("Players may trade. Lots may be traded for cash.\n\nEach player rolls two dice and moves.\n")
    text = citations.table(rules, book)
    assert "| Players may trade. Lots may be traded… | `trade Lot with cash` (28) |  |  |" in text
    assert "| Each player rolls two dice and moves. | **no rule cites this paragraph** |  |  |" in text
    assert "2 paragraphs: 1 cited by a rule, 0 by a worked example only, 1 by neither." in text


def test_every_paragraph_of_a_section_is_a_row_with_what_is_assumed_there(tmp_path):
    """A rulebook with headings: each paragraph under its section's heading, a list's lead-in with
    its list, and beside a citing line what it marks assumed (its reason, or a row's columns)."""
    rules = tmp_path / "tiny.rules"
    rules.write_text((ROOT / "tests/checker_cases/scenario_trade_items.rules").read_text(encoding="utf-8")
                     .replace("trade Lot with cash", 'trade Lot with cash   assumed "for cash only"   § "Lots may be traded."'))
    book = tmp_path / "book.txt"
    book.write_text("Table of Contents\n\n  • Trading\n  • Moving\n\nTrading\n\nLots may be traded.\n\n"
                    "Nothing may be owed.\n\nMoving\n\nThe dice:\n\n  1. roll two\n  2. move\n\n7\n")
    text = citations.table(rules, book)
    assert "| **Trading** | | | |\n| Lots may be traded. | `trade Lot with cash` (28) |  | line 28: for cash only |" in text
    assert "| Nothing may be owed. | **no rule cites this paragraph** |  |  |\n| **Moving** | | | |" in text
    assert "| The dice: 1. roll two 2. move | **no rule cites this paragraph** |  |  |\n\n3 paragraphs" in text


def test_the_command_prints_and_updates(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(f"# Page\n\n{citations.BEGIN}\nold\n{citations.END}\n\nafter\n")
    run = ["citations", "games/finance.rules", "--rulebook", "docs/rulebooks/finance-1932.txt"]
    out = rulesc(*run, cwd=ROOT)
    assert out.returncode == 0 and "| A player may buy, sell or trade" in out.stdout
    out = rulesc(*run, "--update", str(page), cwd=ROOT)
    assert out.returncode == 0 and "updated" in out.stdout
    assert citations.current(page) == citations.table(ROOT / "games/finance.rules", ROOT / "docs/rulebooks/finance-1932.txt")
    assert page.read_text().endswith(f"{citations.END}\n\nafter\n")
    missing = rulesc("citations", "nope.rules", "--rulebook", "x.txt", cwd=ROOT)
    assert missing.returncode == 2 and "Traceback" not in missing.stderr


def test_a_variant_alone_cites_what_it_keeps_of_its_base_and_not_what_it_drops(tmp_path):
    """`rulesc citations variant.rules` said no rule cites the sections its base's rules cite."""
    variant = tmp_path / "no-bumping.rules"
    variant.write_text(f'extends "{ROOT / "games/wheeler.rules"}"\n\n'
                       'remove phase bump   § "Bumping Another Player"\n')
    found = citations.citations(variant)
    assert {c.file for c in found} == {"wheeler.rules", "no-bumping.rules"}
    assert [c.label for c in found if c.file == "no-bumping.rules"] == ["remove phase bump"]
    assert found[-1].file == "no-bumping.rules"  # the base's first
    assert any(c.file == "wheeler.rules" and c.label.startswith("phase invest") for c in found)
    bump = next(c for c in citations.citations(ROOT / "games/wheeler.rules") if c.label.startswith("phase bump"))
    assert (bump.file, bump.line) not in {(c.file, c.line) for c in found}  # the phase the variant removes
