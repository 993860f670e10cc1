"""`rulesc explain`: the documentation of one diagnostic code, at the terminal.

It exists so that a code `rulesc check` prints (`error[R0205]`) can be looked up where it was
printed: the code's entry of docs/errors/, with what it means and how to fix it; a mistyped code
gets the nearest codes.
"""

from __future__ import annotations

import sys

from .shared import fail

EXAMPLE = "rulesc explain R0205"


def add_parser(sub):
    p = sub.add_parser("explain", help="print the documentation of a diagnostic code, e.g. `rulesc explain R0205`")
    p.add_argument("code", metavar="CODE", help="a diagnostic code, as `rulesc check` prints it (R0205), or its name (unknown-name)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from rulesc import explain
    code = explain.normalise(args.code)
    text = explain.entry(code)
    if text is None:
        near = explain.nearest(code)
        hint = f"; did you mean {' or '.join(f'`{c}`' for c in near)}?" if near else \
            "; the codes are listed in docs/errors/README.md"
        return fail(f"no diagnostic code `{args.code}`{hint}")
    sys.stdout.write(text)
    return 0
