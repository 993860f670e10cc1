"""`rulesc lsp`: the language server, for editors.

It exists so that any editor with a Language Server Protocol client shows the checker's
diagnostics as the user types, hover, go to definition, completion and an outline of a rules
file (rulesc/lsp.py), by running this command over stdin and stdout.
"""

from __future__ import annotations

EXAMPLE = "rulesc lsp"


def add_parser(sub):
    p = sub.add_parser("lsp", help="a language server for editors, over stdin and stdout")
    p.add_argument("--stdio", action="store_true", help="speak over stdin and stdout (the default and only way)")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from rulesc.lsp import serve
    return serve()
