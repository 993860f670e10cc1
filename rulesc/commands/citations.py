"""`rulesc citations`: each section of a rulebook, and the rules that cite it.

It exists to show how much of a rulebook a rules file implements, and where: the rules' `§ "…"`
citations matched to the rulebook's text, as a table printed or written between the markers of a
documentation page (`--update`), so that a section no rule cites stands out.
"""

from __future__ import annotations

from pathlib import Path

from .shared import fail

EXAMPLE = "rulesc citations mygame.rules --rulebook rulebook.txt"


def add_parser(sub):
    p = sub.add_parser("citations", help="which rules implement each rulebook section, from the citations")
    p.add_argument("files", nargs="+", metavar="FILE", help="the game's rules file, then any variants of it")
    p.add_argument("--rulebook", required=True, metavar="TEXT", help="the rulebook as plain text")
    p.add_argument("--update", metavar="DOC.md", help="write the table between the markers of DOC.md")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from rulesc import citations
    for path in [*args.files, args.rulebook]:
        if not Path(path).is_file():
            return fail(f"no such file: {path}")
    text = citations.table(args.files, args.rulebook)
    if args.update is None:
        print(text, end="")
        return 0
    try:
        changed = citations.update(args.update, text)
    except (OSError, ValueError) as exc:
        return fail(str(exc))
    print(f"{'updated' if changed else 'unchanged'} {args.update}")
    return 0
