"""The turn-flow diagram: a golden DOT file for every shipped game, the parts of a small game, rendering.

Each `golden/GAME.dot` is the exact DOT that `build_diagram` gives for games/GAME.rules,
and the picture in the docs, docs/games/GAME.dot, must be that same DOT. After an
intended change to the diagram (or to a game), accept the new golden files with
`scripts/test.sh --bless`, look at the pictures, and regenerate the docs' pages and pictures with the
`rulesc doc …` command each page of docs/games/ names in its first line (tests/test_docs_pages.py).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import graphviz
import pytest

from rulesc import diagram
from rulesc.diagram import DiagramError, build_diagram, write_diagram
from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError, render_text
from rulesc.dsl.model import build_program
from rulesc.dsl.parsed import parse_file
from rulesc.dsl.variants import load_file

ROOT = Path(__file__).resolve().parent.parent
FINANCE = ROOT / "games" / "finance.rules"
GAMES = sorted((ROOT / "games").glob("*.rules"))
GOLDEN = Path(__file__).parent / "golden"
DOCS = ROOT / "docs" / "games"

MINI = '''\
game "Mini":
    players: 2 to 4
    start: Go
    first player: seat order

param wage = $100

bank unlimited

player:
    cash: money = $500
    state skips: count = 0

kind Lot:
    price: money
    state owner: player? = none

table Lot:
    name   price
    Red    $60
    Blue   $80

square Go "Go"
square Fine "Fine"

board:
    Go, Red, Fine, Blue

deck Luck cut:
    card Gift "A small gift":
        pay $10 from bank to player
    card Jump "Jump to Go" copies 2:
        move player to Go

turn:
    phase roll "Roll and move":        § "Roll the die and move."
        roll 1 die as d
        move player by d.total
    phase rest "Rest a turn" when player.skips>0:
        set player.skips = player.skips - 1
        end turn
    phase buy "Buy a lot" optional:
        pay $1 from player to bank

before turn when player.cash < $50:
    pay $5 from bank to player

after turn:
    pay $1 from player to bank

on pass Go:                            § "Collect your wage as you pass Go."
    pay wage from bank to player

on land Lot l when l.owner == none:    § "An unowned lot may be bought by the player who lands there, if he wants it."
    pay l.price from player to bank
    set l.owner = player

on land Fine:
    draw from Luck

on debt:
    eliminate debtor

end when count(players) == 1 winner players[0] as "last one left"
'''


def load(path):
    rules = parse_file(path)
    checked = check_program(rules)
    errors = [render_text(d, rules.source) for d in checked.diagnostics if d.is_error]
    assert not errors, "\n".join(errors)
    return checked.program


@pytest.fixture(scope="module")
def finance():
    return load(FINANCE)


@pytest.fixture
def mini(tmp_path):
    path = tmp_path / "mini.rules"
    path.write_text(MINI, encoding="utf-8")
    return load(path)


def edges(dot: str, tail: str, head: str) -> list[str]:
    """The DOT lines of the edges from `tail` to `head`."""
    return [line for line in dot.splitlines() if re.match(rf"\s*{re.escape(tail)} -> {re.escape(head)}\b", line)]


def node_line(dot: str, nid: str) -> str:
    found = [line for line in dot.splitlines() if re.match(rf"\s*{re.escape(nid)} \[", line)]
    assert len(found) == 1, f"expected one node `{nid}`, found {len(found)}"
    return found[0]


# ---- the shipped games: golden files, and the docs' pictures ------------------------


def game_dot(path: Path) -> str:
    """The DOT `rulesc diagram` draws for a shipped game (a variant with its base)."""
    rules = load_file(path)
    checked = check_program(rules)
    errors = [render_text(d, rules.source) for d in checked.diagnostics if d.is_error]
    assert not errors, "\n".join(errors)
    return build_diagram(checked.program).source


@pytest.mark.parametrize("game", GAMES, ids=[g.stem for g in GAMES])
def test_game_matches_golden_dot(game, expect_file):
    expect_file(GOLDEN / f"{game.stem}.dot", game_dot(game))


@pytest.mark.parametrize("game", GAMES, ids=[g.stem for g in GAMES])
def test_docs_picture_is_the_golden_one(game):
    golden, docs = GOLDEN / f"{game.stem}.dot", DOCS / f"{game.stem}.dot"
    assert golden.exists(), f"no tests/golden/{golden.name}; run `scripts/test.sh --bless` to create it"
    redo = "regenerate its page with the `rulesc doc …` command the page names in its first line"
    assert docs.exists(), f"docs/games/{docs.name} is missing; {redo}"
    assert docs.read_text(encoding="utf-8") == golden.read_text(encoding="utf-8"), (
        f"docs/games/{docs.name} is not tests/golden/{golden.name}: the picture in the docs is stale; {redo}")


def test_every_golden_file_has_its_game(expect_no_stale):
    assert {g.stem for g in GAMES} >= {"finance", "wheeler", "wheeler-level1"}
    expect_no_stale(p for p in GOLDEN.glob("*.dot") if not (ROOT / "games" / f"{p.stem}.rules").exists())


def test_diagram_is_deterministic(finance):
    again = build_program(parse_file(FINANCE))[0]
    assert build_diagram(finance).source == build_diagram(again).source == build_diagram(finance).source


def test_finance_shows_the_turn(finance):
    dot = build_diagram(finance).source
    # The one phase, the landing handlers in a cluster, both decks with their cards.
    assert "phase 1: move" in dot and "Roll the dice and move" in dot
    assert "subgraph cluster_landing" in dot
    landing = dot[dot.index("subgraph cluster_landing"):]
    landing = landing[:landing.index("\n\t}")]
    for target in ("on pass Start", "on land CommunityChest", "on land Chance", "on land Tariff",
                   "on land Taxes", "on land Luxury"):
        assert target in landing, target
    assert landing.count("on land Lease p") == 2
    # A condition the citation gives in words is shown in the rulebook's words, not as code.
    assert "It is then sold to the highest bidder" in landing and "p.withdrawn" not in landing
    assert edges(dot, "phase_1_move", "landing_entry"), "the move phase should lead to the landing cluster"
    assert edges(dot, "land_1", "deck_ChestCards") and edges(dot, "land_2", "deck_ChanceCards")
    # A deck is collapsed to its counts; its cards are a picture of their own.
    chance = node_line(dot, "deck_ChanceCards")
    assert "8 cards of 7 kinds, cut" in chance and "--deck ChanceCards" in chance
    assert "Advance to Start" not in chance
    # Debt, elimination and the end of the game.
    assert edges(dot, "debt_1", "eliminate_1")
    assert edges(dot, "eliminate_1", "end_1")
    assert "last player standing?" in node_line(dot, "end_1")  # the end condition in words: its reason
    # The action window lists `build` and the trade; `on debt` does not raise cash ("provided ...
    # his debts are settled"), so no edge leads from it to the window.
    window = node_line(dot, "action_window")
    assert "build(p: Lease), any time" in window and "trade Lease with cash" in window
    assert not edges(dot, "debt_1", "action_window")


def test_raise_cash_leads_to_the_action_window():
    dot = build_diagram(load(FINANCE.parent / "wheeler.rules")).source
    # Said in the debt's box, not with an edge across the picture.
    assert "the debtor may first raise cash in the action window" in node_line(dot, "debt_1")
    assert not edges(dot, "debt_1", "action_window")
    assert "trade Property, cards with cash" in node_line(dot, "action_window")
    # The turn goes round without an edge back up the whole picture: a second "next player's turn" at the foot.
    assert edges(dot, "end_turn_limit", "next_turn_again")
    assert not [line for line in dot.splitlines() if re.match(r"\s*\w+ -> next_turn\b", line)
                and "start" not in line and "setup" not in line]


def test_citations_are_shortened(finance):
    dot = build_diagram(finance).source
    cites = re.findall(r"<I>§ ([^<]*)</I>", dot)
    assert cites
    for cite in cites:
        assert len(cite) <= 51, cite
    assert "§ EACH PLAYER COLLECTS FROM THE BANK AN INCOME OF…" in dot


# ---- a small game written inline ------------------------------------------------


def test_small_game_shows_every_phase_handler_and_end(mini):
    dot = build_diagram(mini).source
    for nid, title in (("phase_1_roll", "Roll and move"), ("phase_2_rest", "Rest a turn"),
                       ("phase_3_buy", "Buy a lot")):
        assert title in node_line(dot, nid)
    assert "before turn" in node_line(dot, "hook_before_1")
    assert "after turn" in node_line(dot, "hook_after_1")
    assert "on pass Go" in node_line(dot, "pass_1")
    lot = node_line(dot, "land_1")
    assert "on land Lot l" in lot and "l.owner" not in lot  # the citation says it in words
    assert "§ An unowned lot may be bought by the player" in lot and "who lands there, if he wants it." in lot
    assert "on land Fine" in node_line(dot, "land_2")
    assert "on debt" in node_line(dot, "debt_1")
    assert "last one left?" in node_line(dot, "end_1")
    assert edges(dot, "end_1", "game_over_1")


def test_conditions_are_source_text(mini):
    dot = build_diagram(mini).source
    # Written `player.skips>0` in the file: shown as written, not re-printed from the AST.
    assert "when player.skips&gt;0" in node_line(dot, "phase_2_rest")
    assert "when player.cash &lt; $50" in node_line(dot, "hook_before_1")


def test_a_named_rule_without_a_citation_shows_its_name_for_its_condition(tmp_path):
    path = tmp_path / "named.rules"
    path.write_text(MINI.replace("on land Lot l when l.owner == none:    § \"An unowned lot may be bought by the player "
                                 "who lands there, if he wants it.\"", "on land Lot l as buy_a_lot when l.owner == none:"),
                    encoding="utf-8")
    lot = node_line(build_diagram(load(path)).source, "land_1")
    assert "when buy a lot" in lot and "l.owner" not in lot


def test_phase_with_when_gets_a_skip_edge(mini):
    dot = build_diagram(mini).source
    # `rest` has a condition: from the phase before it straight to the phase after it.
    skip = edges(dot, "phase_1_roll", "phase_3_buy")
    assert skip and "skip (condition false)" in skip[0] and "dashed" in skip[0]
    # `buy` is optional: dashed box, and a skip edge past it.
    assert "dashed" in node_line(dot, "phase_3_buy")
    declined = edges(dot, "phase_2_rest", "hook_after_1")
    assert any("skip (player declines)" in line for line in declined)
    # `rest` ends the turn early: its box says so (no edge to the end of the turn).
    assert "may end the turn here" in node_line(dot, "phase_2_rest")
    # The before-turn hook has a condition too.
    assert any("skip" in line for line in edges(dot, "next_turn", "phase_1_roll"))
    # The main chain, in order, and the loop back to the next player.
    for a, b in (("start", "next_turn"), ("next_turn", "hook_before_1"), ("hook_before_1", "phase_1_roll"),
                 ("phase_1_roll", "phase_2_rest"), ("phase_2_rest", "phase_3_buy"),
                 ("phase_3_buy", "hook_after_1"), ("hook_after_1", "end_1")):
        assert edges(dot, a, b), f"{a} -> {b}"
    assert edges(dot, "end_1", "next_turn_again")


def test_small_game_decks_and_debt(mini):
    dot = build_diagram(mini).source
    deck = node_line(dot, "deck_Luck")
    assert "3 cards of 2 kinds, cut" in deck and "A small gift" not in deck
    assert edges(dot, "land_2", "deck_Luck")
    # A card that moves the man leads back to the landing cluster.
    assert any("a card moves the man" in line for line in edges(dot, "landing_entry", "deck_Luck"))
    # No `on eliminate`: the debt's `eliminate` still leads somewhere, and on to the end check.
    assert edges(dot, "debt_1", "eliminate_1") and edges(dot, "eliminate_1", "end_1")
    # No actions and no trade: no action window.
    assert "action_window" not in dot


@pytest.mark.slow
def test_every_rules_file_in_the_tests_draws(tmp_path):
    """Broken games still draw: the diagram never crashes on a program that builds."""
    files = sorted((ROOT / "tests").rglob("*.rules")) + sorted((ROOT / "games").glob("*.rules"))
    drawn = 0
    for path in files:
        try:
            rules = parse_file(path)
        except RulesError:
            continue
        program, _ = build_program(rules)
        assert build_diagram(program).source.startswith("// turn flow of"), path
        drawn += 1
    assert drawn


# ---- writing and rendering ------------------------------------------------------


def test_write_dot_only(finance, tmp_path):
    out = tmp_path / "turn.dot"
    assert write_diagram(finance, str(out)) == [str(out)]
    assert out.read_text(encoding="utf-8") == build_diagram(finance).source
    assert sorted(p.name for p in tmp_path.iterdir()) == ["turn.dot"]


def test_unknown_suffix_is_refused(finance, tmp_path):
    with pytest.raises(DiagramError, match="format"):
        write_diagram(finance, str(tmp_path / "turn.txt"))
    with pytest.raises(DiagramError, match="unknown diagram format"):
        write_diagram(finance, str(tmp_path / "turn.dot"), fmt="bmpx")


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's `dot` is not installed")
def test_render_svg(finance, tmp_path):
    out = tmp_path / "turn.svg"
    written = write_diagram(finance, str(out))
    assert written == [str(out)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["turn.svg"]  # no DOT file nobody asked for
    text = out.read_text(encoding="utf-8")
    assert text.startswith("<?xml") or "<svg" in text
    assert "FINANCE (1932)" in text


@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's `dot` is not installed")
def test_render_with_explicit_format(mini, tmp_path):
    written = write_diagram(mini, str(tmp_path / "turn.dot"), fmt="png")
    assert written == [str(tmp_path / "turn.dot"), str(tmp_path / "turn.png")]
    assert (tmp_path / "turn.png").read_bytes().startswith(b"\x89PNG")


def test_missing_dot_is_explained(finance, tmp_path, monkeypatch):
    monkeypatch.setattr(diagram.shutil, "which", lambda name, *a, **k: None)
    out = tmp_path / "turn.svg"
    with pytest.raises(DiagramError) as info:
        write_diagram(finance, str(out))
    message = str(info.value)
    assert "apt-get install graphviz" in message and "`dot`" in message
    assert "turn.dot" in message
    assert (tmp_path / "turn.dot").read_text(encoding="utf-8") == build_diagram(finance).source
    assert info.value.written == [str(tmp_path / "turn.dot")]
    assert not out.exists()


def test_dot_vanishing_after_the_check_is_explained(finance, tmp_path, monkeypatch):
    """`which` finds `dot` but running it fails (graphviz's ExecutableNotFound path)."""
    monkeypatch.setattr(diagram.shutil, "which", lambda name, *a, **k: "/usr/bin/dot")

    def not_found(*args, **kwargs):
        raise graphviz.ExecutableNotFound(["dot"])

    monkeypatch.setattr(diagram.graphviz.Digraph, "pipe", not_found)
    with pytest.raises(DiagramError, match="apt-get install graphviz"):
        write_diagram(finance, str(tmp_path / "turn.pdf"))
    assert (tmp_path / "turn.dot").exists() and not (tmp_path / "turn.pdf").exists()
