"""The board as a heat map: each square coloured by the share of turns that end on it (plain SVG).

The ring is laid round the four sides of a square, clockwise from the top left as the board's
order goes; squares off the ring sit in the middle. The darker the red, the likelier a turn ends
there; each cell shows its name and share, and the title says how exact the figures are.
"""

from __future__ import annotations

import math
from html import escape

from .figures import Odds

CELL = 74


def _ring_cells(n: int) -> list:
    """(column, row) of each ring place, clockwise round a square of side `side` cells."""
    side = max(2, math.ceil(n / 4) + 1)
    cells = [(c, 0) for c in range(side - 1)] + [(side - 1, r) for r in range(side - 1)]
    cells += [(c, side - 1) for c in range(side - 1, 0, -1)] + [(0, r) for r in range(side - 1, 0, -1)]
    return cells[:n], side


def _colour(share: float, top: float) -> str:
    t = 0.0 if top <= 0 else min(1.0, share / top)
    g = int(round(245 - 190 * t))
    return f"rgb(250,{g},{int(round(240 - 200 * t))})"


def heatmap_svg(o: Odds) -> str:
    cells, side = _ring_cells(o.ring)
    top = max((float(s.ends) for s in o.squares), default=0.0)
    size = side * CELL
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 20}" height="{size + 60}" '
           f'viewBox="0 0 {size + 20} {size + 60}" font-family="sans-serif">',
           f'<text x="10" y="22" font-size="14">{escape(o.title)}: where a turn ends</text>',
           f'<text x="10" y="40" font-size="11">figures {escape(o.exactness)}; darker is likelier</text>']

    def cell(x: int, y: int, name: str, share: float) -> None:
        out.append(f'<g><title>{escape(name)}: {share * 100:.3f}%</title>'
                   f'<rect x="{x}" y="{y}" width="{CELL - 2}" height="{CELL - 2}" fill="{_colour(share, top)}" '
                   f'stroke="#555"/>')
        out.append(f'<text x="{x + 4}" y="{y + 16}" font-size="9">{escape(name[:13])}</text>')
        out.append(f'<text x="{x + 4}" y="{y + CELL - 10}" font-size="11">{share * 100:.2f}%</text></g>')

    for s, (c, r) in zip(o.squares[:o.ring], cells):
        cell(10 + c * CELL, 50 + r * CELL, s.name, float(s.ends))
    for k, s in enumerate(o.squares[o.ring:]):
        cell(10 + (1 + k % max(1, side - 2)) * CELL, 50 + (1 + k // max(1, side - 2)) * CELL, s.name, float(s.ends))
    out.append("</svg>")
    return "\n".join(out) + "\n"
