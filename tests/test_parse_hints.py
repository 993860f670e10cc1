"""Syntax errors name the slip behind them: the help line of a parse error says what to write.

Each test takes a small valid game, changes one line the way users do (`=` for `==`, `&&`,
`$10.50`, a tab among spaces, a misspelt keyword) and asserts the help, and that the error keeps
its code and its position at the offending token. A hint is only offered where it fits: the
negative cases check that a plausible-looking hint that would be wrong is not given.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl.diagnostics import RulesError, render_text
from rulesc.dsl.parser import RulesIndenter, parse_text

from clirun import rulesc

ROOT = Path(__file__).resolve().parent.parent

# A small valid game of 24 lines; each test adds a declaration after it (line 25 on).
BASE = '''game "Hints":
    players: 2 to 2
    start: Home
    turn limit: 50

player:
    cash: money = $100

square Home "Home"
square Tax "Tax"

board:
    Home, Tax

turn:
    phase move "Move":
        roll 1 die as d
        move player by d.total

on debt:
    eliminate debtor

end when count(players) == 1 winner players[0] as "last"
'''


def only_error(added: str):
    """The one syntax error of the base game with `added` at its end."""
    with pytest.raises(RulesError) as info:
        parse_text(BASE + "\n" + added, "hints.rules")
    [diag] = info.value.diagnostics
    return diag


def where(diag) -> tuple[str, int, int]:
    return diag.code, diag.span.line, diag.span.column


def test_the_base_game_parses():
    parse_text(BASE, "hints.rules")


# ---- `=` where a comparison is meant -------------------------------------------------------------

@pytest.mark.parametrize("added, position", [
    ("on land Tax:\n    if player.cash = $3:\n        pass\n", (26, 20)),
    ("on land Tax when player.cash = $0:\n    pass\n", (25, 30)),
    ('end when count(players) = 1 winner players[0] as "one"\n', (25, 25)),
])
def test_a_single_equals_where_a_comparison_fits_hints_double_equals(added, position):
    diag = only_error(added)
    assert where(diag) == ("R0101", *position)
    assert "to compare, write `==`" in diag.help


def test_a_single_equals_that_double_equals_would_not_mend_gets_no_such_hint():
    # `set` forgotten: `player` lexes as the keyword `play`, and `play er.cash == $5` is no better
    diag = only_error("on land Tax:\n    player.cash = $5\n")
    assert diag.code == "R0101"
    assert diag.help is None or "==" not in diag.help


# ---- C's `&&`, `||` and `!` ----------------------------------------------------------------------

@pytest.mark.parametrize("condition, written, word, column", [
    ("player.cash > $3 && player.cash < $50", "&&", "and", 25),
    ("player.cash > $3 & player.cash < $50", "&", "and", 25),
    ("player.out || player.cash < $50", "||", "or", 19),
    ("!player.out", "!", "not", 8),
])
def test_c_operators_hint_the_words(condition, written, word, column):
    diag = only_error(f"on land Tax:\n    if {condition}:\n        pass\n")
    assert where(diag) == ("R0102", 26, column)
    assert f"write `{word}` for `{written}`" in diag.help


def test_a_table_drawn_with_bars_gets_no_or_hint():
    diag = only_error("kind Lot:\n    price: money\n\ntable Lot:\n    | name | price |\n")
    assert diag.code == "R0102" and diag.help is None


# ---- decimal money -------------------------------------------------------------------------------

RULE = "`$100.00` is not money: write `$100`"


@pytest.mark.parametrize("added, position, written", [
    ("on land Tax:\n    pay $10.50 from player to bank\n", (26, 13), "$10.50"),
    ("param fee = $1,000.50\n", (25, 20), "$1,000.50"),
    ("param fee = $.50\n", (25, 13), "$.50"),
    ("kind Lot:\n    price: money\n\ntable Lot:\n    name   price\n    Alpha  $60.50\n", (30, 15), "$60.50"),
])
def test_money_with_cents_is_said_not_to_be_money(added, position, written):
    diag = only_error(added)
    assert (diag.span.line, diag.span.column) == position and diag.code in ("R0101", "R0102")
    assert f"`{written}` is not money" in diag.help and RULE in diag.help


def test_the_money_rule_quoted_is_the_reference_s():
    assert RULE in (ROOT / "docs" / "language.md").read_text(encoding="utf-8")


# ---- tabs among spaces ---------------------------------------------------------------------------

def test_a_tab_then_spaces_says_how_the_tab_was_counted():
    # the line after a tab-indented line, indented 8 spaces: 8 > 4, a block nobody opened
    diag = only_error("on land Tax:\n\tpay $10 from player to bank\n        pay $1 from player to bank\n")
    assert where(diag) == ("R0101", 27, 9)
    assert diag.help == (f"a tab counts as {RulesIndenter.tab_len} columns: line 26 is indented 4 columns (a tab) "
                         "and this line 8 (8 spaces); indent with spaces only")


def test_a_tab_that_dedents_to_no_block_says_so():
    diag = only_error("on land Tax:\n\tif player.out:\n\t\tpass\n\t  pay $1 from player to bank\n")
    assert where(diag) == ("R0103", 28, 4)
    assert "line 27 is indented 8 columns (2 tabs) and this line 6 (a tab and 2 spaces)" in diag.help


def test_a_tab_where_a_block_must_start_says_so():
    diag = only_error("on land Tax:\n    if player.out:\n\tpass\n")
    assert where(diag) == ("R0101", 27, 2)
    assert "line 26 is indented 4 columns (4 spaces) and this line 4 (a tab)" in diag.help


def test_indentation_errors_without_tabs_keep_their_help():
    diag = only_error("on land Tax:\n    pay $10 from player to bank\n        pay $1 from player to bank\n")
    assert "tab" not in diag.help and "indented more than the one before it" in diag.help


def test_the_caret_stands_under_a_token_after_a_tab():
    text = BASE + "\non land Tax:\n    if player.out:\n\tpass\n"
    with pytest.raises(RulesError) as info:
        parse_text(text, "hints.rules")
    rendered = render_text(info.value.diagnostics[0], text).splitlines()
    assert rendered[2] == "27 |     pass"
    assert rendered[3] == "   |     ^^^^"


# ---- misspelt keywords ---------------------------------------------------------------------------

@pytest.mark.parametrize("added, position, hint", [
    ("on lnad Tax:\n    pass\n", (25, 4), "did you mean `land`?"),
    ("on land Tax:\n    pya $10 from bank to player\n", (26, 5), "did you mean `pay`?"),
    ("pram fee = $10\n", (25, 1), "did you mean `param`?"),
    ("on land Tax:\n    roll 2 dise as d\n", (26, 12), "did you mean `die` or `dice`?"),
])
def test_a_misspelt_keyword_gets_the_nearest_keywords(added, position, hint):
    diag = only_error(added)
    assert where(diag) == ("R0101", *position)
    assert diag.help == hint


def test_a_near_keyword_that_would_not_mend_the_line_is_not_offered():
    # `plyr` is near the keyword `play`, but `play.cash = $5` is no statement either
    diag = only_error("on land Tax:\n    plyr.cash = $5\n")
    assert where(diag) == ("R0101", 26, 5)
    assert diag.help == "to change a value, write `set` before it: `set NAME = VALUE`"  # what does mend it


def test_a_misspelt_keyword_in_a_variant_keeps_what_a_variant_can_write():
    with pytest.raises(RulesError) as info:
        parse_text('extends "base.rules"\nremove phse move\n', "house.rules")
    [diag] = info.value.diagnostics
    assert where(diag) == ("R0101", 2, 8)
    assert diag.help.startswith("did you mean `phase`?; a variant can write `remove phase NAME`")


# ---- the command line ----------------------------------------------------------------------------

def test_rulesc_check_prints_the_hint_at_the_token_and_exits_1(tmp_path):
    path = tmp_path / "hints.rules"
    path.write_text(BASE + "\non land Tax:\n    if player.cash = $3:\n        pass\n", encoding="utf-8")
    proc = rulesc("check", "--static", str(path))
    assert proc.returncode == 1
    assert f"{path}:26:20: error[R0101]: unexpected `=`" in proc.stderr
    assert "  help: to compare, write `==`" in proc.stderr
    assert "Traceback" not in proc.stderr


# ---- a value given with no statement word -------------------------------------------------------------------

@pytest.mark.parametrize("added", [
    "on land Tax:\n    player.cash = $5\n",  # lexed `play er.cash`: it said only "expected `by`"
    "on land Tax:\n    cash = $5\n",
    "on land Tax:\n    pay $1 from player to bank\n    player.cash = player.cash + $5\n",
])
def test_a_forgotten_set_is_named(added):
    diag = only_error(added)
    assert diag.code == "R0101" and diag.help == "to change a value, write `set` before it: `set NAME = VALUE`"


def test_a_comparison_is_not_taken_for_a_forgotten_set():
    diag = only_error("on land Tax:\n    if player.cash = $5:\n        pass\n")
    assert diag.help.startswith("to compare, write `==`")


# ---- an auction's `bluffing` without its limit ---------------------------------------------------------------

def test_bluffing_without_up_to_asks_for_the_rules_limit():
    diag = only_error("on land Tax:\n    auction Tax from $1 in turn after player passes 2 bluffing as sale:\n"
                      "        pass\n")
    assert where(diag) == ("R0101", 26, 64)  # at `as`
    assert diag.help.startswith("write the highest bid a bidder may make: `bluffing up to EXPR`")
