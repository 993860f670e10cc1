"""A board graph as a picture of its own (`rulesc diagram --graph NAME`).

The turn flow shows what happens; a board graph is where it happens, and a reader pictures it as the
board is printed: a grid as rows and columns of squares (A1 top left, as the squares are named), a map
of links as its places joined by lines. A grid is one table, so it keeps its shape in any Graphviz
layout; each square shows its name, and a graph of links draws each link once.
"""

from __future__ import annotations

import graphviz

from rulesc.dsl.model import Program, grid_squares

from .diagram import FONT, _esc, _program_of

__all__ = ["build_graph_diagram"]

FILL, BORDER = "#fef9e7", "#b9770e"


def build_graph_diagram(program, name: str) -> graphviz.Graph:
    """The picture of board graph `name` of a checked program (or its `Program`)."""
    p: Program = _program_of(program)
    graph = p.graphs[name]
    g = graphviz.Graph(name=f"graph_{name}", graph_attr={"fontname": FONT, "labelloc": "t",
                                                          "label": f"{name}: squares of {graph.kind}"},
                       node_attr={"fontname": FONT, "fontsize": "10"})
    if graph.rows is not None:
        rows: dict[int, list[str]] = {}
        for r, _c, square in grid_squares(graph):
            rows.setdefault(r, []).append(square)
        cells = "".join("<TR>" + "".join(f'<TD WIDTH="34" HEIGHT="28" BGCOLOR="{FILL}">{_esc(s)}</TD>' for s in row)
                        + "</TR>" for row in rows.values())
        g.node("grid", label=f'<<TABLE BORDER="1" CELLBORDER="1" CELLSPACING="0" COLOR="{BORDER}">{cells}</TABLE>>',
               shape="plaintext")
        return g
    squares = [n for n, t in p.things.items() if t.kind == graph.kind]
    for square in squares:
        g.node(square, label=square, shape="box", style="rounded,filled", fillcolor=FILL, color=BORDER)
    drawn: set = set()
    for link in graph.links:
        for other in link.neighbours:
            pair = frozenset((link.node.id, other.id))
            if pair not in drawn and len(pair) == 2:
                drawn.add(pair)
                g.edge(link.node.id, other.id, color=BORDER)
    return g
