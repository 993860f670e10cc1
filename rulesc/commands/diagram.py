"""`rulesc diagram`: a rules file drawn with Graphviz.

It exists so that a designer can see a rulebook as its readers picture it, for the docs or to
spot a rule that goes nowhere: the turn flow (phases, handlers, what each leads to), or with
`--money` every account and each payment rule between them, with `--deck` one deck's cards, or with
`--graph` a board graph (a grid drawn as a grid).
DOT is always written; SVG, PNG and PDF are rendered by Graphviz's `dot` where it is installed.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulesc import report
from rulesc.dsl.checker import check_program
from rulesc.dsl.variants import load_file

from .shared import check_writable, fail, with_file

EXAMPLE = "rulesc diagram mygame.rules -o turn.svg"


def add_parser(sub):
    p = sub.add_parser("diagram", help="draw the turn flow with Graphviz (DOT; SVG/PNG with `dot` installed)")
    with_file(p)
    p.add_argument("-o", "--output", help="output file (.dot, .svg, .png, .pdf)")
    p.add_argument("--format", choices=["dot", "svg", "png", "pdf"], default=None,
                   help="the picture's format (default: from the output's name)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--money", action="store_true",
                      help="draw the money flow instead: accounts, and each payment rule between them")
    what.add_argument("--deck", metavar="NAME", help="draw the cards of deck NAME instead (the turn flow counts them)")
    what.add_argument("--graph", metavar="NAME", help="draw board graph NAME instead (a grid as a grid)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from rulesc.diagram import DiagramError, build_diagram, write_graph
    check_writable(args.output)
    checked = check_program(load_file(args.file))
    if not checked.ok:
        sys.stderr.write(report.format_diagnostics(checked))
        return 1
    stem = Path(args.file).stem
    if args.money:
        from rulesc.money import build_money_diagram
        graph, stem = build_money_diagram(checked), f"{stem}-money"
    elif args.deck is not None:
        from rulesc.deck_diagram import build_deck_diagram
        if args.deck not in checked.program.decks:
            decks = ", ".join(checked.program.decks) or "none"
            return fail(f"`{args.file}` has no deck `{args.deck}` (its decks: {decks})")
        graph, stem = build_deck_diagram(checked, args.deck), f"{stem}-deck-{args.deck}"
    elif args.graph is not None:
        from rulesc.graph_diagram import build_graph_diagram
        if args.graph not in checked.program.graphs:
            graphs = ", ".join(checked.program.graphs) or "none"
            return fail(f"`{args.file}` has no board graph `{args.graph}` (its graphs: {graphs})")
        graph, stem = build_graph_diagram(checked, args.graph), f"{stem}-graph-{args.graph}"
    else:
        graph = build_diagram(checked)
    try:
        written = write_graph(graph, args.output or f"{stem}.dot", args.format)
    except DiagramError as exc:
        return fail(str(exc))
    for path in written:
        print(f"wrote {path}")
    return 0
