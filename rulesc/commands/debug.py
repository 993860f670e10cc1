"""`rulesc debug`: a look inside rulesc, for its developers and the curious.

It exists because a rules file runs as Python that rulesc writes when it loads the file, and a
wrong answer or a slow game is easiest to understand by reading that Python. `rulesc debug codegen
FILE` loads the file as every other command does (`--set` overrides included) and prints every
generated function as one Python text that compiles (interpreter/listing.py).
"""

from __future__ import annotations

import argparse
import sys

from .shared import load, with_file, with_set

EXAMPLE = "rulesc debug codegen mygame.rules"


def add_parser(sub):
    p = sub.add_parser("debug", help="look inside rulesc: the Python generated for a rules file")
    what = p.add_subparsers(dest="what", required=True, metavar="WHAT", help="what to show: codegen")
    c = what.add_parser("codegen", help="print the Python generated for a rules file (one text that compiles)")
    c.description = "Print the Python generated for a rules file: every generated function, each after a\n" \
                    "comment saying where it is kept and what it was written for."
    c.epilog = "example:\n  rulesc debug codegen mygame.rules --set starting_cash=1500"
    c.formatter_class = argparse.RawDescriptionHelpFormatter
    with_file(c)
    with_set(c)
    c.set_defaults(func=run_codegen)
    return p


def run_codegen(args) -> int:
    from rulesc.interpreter.listing import generated_source
    sys.stdout.write(generated_source(load(args)))
    return 0
