"""One deck's cards as a picture of their own (`rulesc diagram --deck NAME`).

The turn flow shows a deck as one node with its counts, so that a sixty-card deck does not
swamp it; this picture shows each card: its title, copies, whether it may be kept (and traded)
or stays in force, what it does (its statements as written, shortened) and its citation or
assumption. Cards are laid out in a grid, in the file's order, coloured by what they do.
"""

from __future__ import annotations

import graphviz

from rulesc.dsl import ast, walk
from rulesc.dsl.model import Program

from .diagram import COND_WIDTH, FONT, _esc, _Label, _program_of, _shorten, _Text, _wrap

__all__ = ["build_deck_diagram", "deck_names"]

COLUMNS = 4  # cards per row of the grid
LINES = 4  # statements shown per card at most

# Colours by what a card does (fill, border), with the legend's words.
EFFECTS = (
    ("moves", "#d6eaf8", "#2e86c1", "moves a token"),
    ("charges", "#fadbd8", "#c0392b", "the player pays"),
    ("pays", "#d5f5e3", "#229954", "the player is paid"),
    ("other", "#fef9e7", "#b9770e", "something else"),
)


def deck_names(program) -> list[str]:
    return list(_program_of(program).decks)


def _effect(card: ast.Card) -> str:
    statements = list(walk.statements(card.body))
    if any(isinstance(s, ast.Move) for s in statements):
        return "moves"
    pays = [s for s in statements if isinstance(s, ast.Pay)]
    if any(not (isinstance(s.source, ast.Name) and s.source.id == "bank") for s in pays):
        return "charges"
    if pays:
        return "pays"
    return "other"


def _statements(statements, depth: int = 0):
    """(depth, statement) for a card's effect: each statement, and indented under it those of its blocks
    (an `if`'s, a loop's), so that a card that pays only if uninsured shows the payment, not the `if` alone."""
    for stmt in statements:
        yield depth, stmt
        for child in walk.children(stmt):
            if isinstance(child, ast.Block):
                yield from _statements(child.statements, depth + 1)


def build_deck_diagram(program, name: str) -> graphviz.Digraph:
    """The cards of deck `name` (a KeyError names the decks there are)."""
    p: Program = _program_of(program)
    deck = p.decks.get(name)
    if deck is None:
        raise KeyError(name)
    text = _Text(p.source or "", p.sources)
    title = p.game.title if p.game is not None else "rules"
    total = sum(c.copies for c in deck.cards)
    g = graphviz.Digraph(name=f"deck_{name}", comment=f"deck {name} of {title}")
    g.attr(rankdir="TB", nodesep="0.25", ranksep="0.25", fontname=FONT, fontsize="16", labelloc="t",
           label=f"<<B>{_esc(title)}</B>: deck {_esc(name)} ({total} card{'' if total == 1 else 's'}, {deck.policy})>")
    g.attr("node", shape="box", style="rounded,filled", fontname=FONT, fontsize="11", margin="0.12,0.05",
           width="2.6")
    colours = {key: (fill, border) for key, fill, border, _ in EFFECTS}
    ids = []
    for i, card in enumerate(deck.cards, 1):
        nid = f"card_{i}_{card.name}"
        label = _Label()
        for piece in _wrap(_shorten(card.title or card.name, 80), 40):
            label.title(piece)
        facts = [f"×{card.copies}"] if card.copies != 1 else []
        if card.keep:
            facts.append("kept for a later turn" if card.later else "may be kept")
        if card.tradable:
            facts.append("tradable")
        if card.lasting:
            facts.append("in force until the next draw")
        if facts:
            label.line(", ".join(facts), size=9)
        shown = list(_statements(card.body.statements))
        for depth, stmt in shown[:LINES]:
            label.code(_shorten(text.head(stmt), COND_WIDTH - 8 - 2 * depth), prefix="  " * depth, width=COND_WIDTH)
        if len(shown) > LINES:
            label.line(f"… and {len(shown) - LINES} more", size=9)
        label.cite(card.body.meta)
        fill, border = colours[_effect(card)]
        g.node(nid, str(label), fillcolor=fill, color=border)
        ids.append(nid)
    # A grid: each card hangs under the one a row above it (invisible edges keep the file's order).
    for a, b in zip(ids, ids[COLUMNS:]):
        g.edge(a, b, style="invis")
    rows = [ids[i:i + COLUMNS] for i in range(0, len(ids), COLUMNS)]
    for row in rows:
        with g.subgraph() as same:
            same.attr(rank="same")
            for nid in row:
                same.node(nid)
    legend = " ".join(f'<FONT COLOR="{border}">■</FONT> {_esc(words)} ' for _, _, border, words in EFFECTS)
    g.node("legend", f"<{legend}>", shape="plaintext", style="", fontsize="10")
    if ids:
        g.edge(rows[-1][0], "legend", style="invis")
    return g
