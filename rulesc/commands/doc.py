"""`rulesc doc`: a game's documentation page, generated from its rules file.

It exists so that the page of a game (and of its variants) cannot drift from the rules it
describes: the page, its pictures (the turn flow, the money flow, each deck) and, given the
rulebook, its sections with the rules citing each, all written from the files. Text a person
wrote between the page's markers is kept when the page is written again.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulesc import report
from rulesc.dsl.checker import check_program
from rulesc.dsl.variants import load_file

from .shared import check_writable, fail, source_of, write_output

EXAMPLE = "rulesc doc mygame.rules --rulebook rulebook.txt -o docs/mygame.md"


def add_parser(sub):
    p = sub.add_parser("doc", help="write a game's documentation page, with its pictures, from its rules file")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="the rules file, then any variants of it to document on the same page")
    p.add_argument("-o", "--output", required=True, metavar="PAGE.md",
                   help="the page to write; its pictures (SVG and DOT) are written beside it")
    p.add_argument("--rulebook", metavar="TEXT", help="the rulebook as text: adds its sections and the rules citing each")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from rulesc.diagram import DiagramError, render_file
    from rulesc.docpage import DocError, render
    for path in [*args.files, *([args.rulebook] if args.rulebook else [])]:
        if not Path(path).is_file():
            return fail(f"no such file: {path}")
    check_writable(args.output)
    for path in args.files:  # each file's own diagnostics, as `check` shows them
        checked = check_program(load_file(path))
        if not checked.ok:
            sys.stderr.write(report.format_diagnostics(checked))
            return 1
    existing = source_of(args.output) if Path(args.output).is_file() else None
    try:
        page = render(args.files, args.output, args.rulebook, existing)
    except DocError as exc:
        return fail(str(exc), 1)
    for path, text in page.files.items():
        write_output(str(path), text)
        print(f"wrote {path}")
    for dot_path, image in page.pictures.items():
        try:
            render_file(dot_path, image, "svg")
        except DiagramError as exc:
            return fail(str(exc))
        print(f"wrote {image}")
    return 0
