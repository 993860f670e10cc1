"""The landing odds on a game's documentation page: a heat map of the board and a line on how exact.

docpage.py calls this once per page, for the game itself (not its variants): the section's lines
and the heat map's SVG, which the page writes beside its other pictures.
"""

from __future__ import annotations

from .figures import odds
from .heatmap import heatmap_svg
from .report import EXPLAINED, pct


def odds_section(checked, stem: str) -> tuple[list, str]:
    """(markdown lines, SVG) of the section `## Where turns end` for the checked program."""
    from rulesc.interpreter.rules import compile_rules
    o = odds(compile_rules(checked))
    top = sorted(o.squares, key=lambda s: (-s.ends, s.index))[:3]
    lines = ["", "## Where turns end", "", f"![{o.title}: where a turn ends]({stem}-odds.svg)", "",
             f"The share of a player's turns that end on each square, from the rules' Markov chain "
             f"(`rulesc odds`, {o.states} states); {EXPLAINED[o.exactness]}. The likeliest: "
             + ", ".join(f"{s.name} ({pct(s.ends)})" for s in top) + "."]
    if o.caveats:
        lines += ["", "The rules the chain does not follow exactly:", ""]
        lines += [f"- {c.rule}: {c.what}" for c in o.caveats]
    return lines, heatmap_svg(o)
