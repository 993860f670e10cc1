"""A rules file's tree: loaded from the user's cache when this very file was parsed before, else parsed.

Loading the parser's tables and parsing cost most of `rulesc check --static`'s time, and a
file is checked far more often than it changes; so the tree of a file that parsed cleanly is
kept in the cache folder (`cache.py`, keyed by the file's exact text and path and by the
source of this package) and loaded on the next run. Lark and the grammar are imported only
when a file must really be parsed. The tree loaded is the tree the parser would build: same
nodes, same spans, same diagnostics (a file with a syntax error is never kept).
"""

from __future__ import annotations

from . import ast, cache
from .source import read_source


def parse_file(path) -> ast.RulesFile:
    """The tree of the rules file at `path`; raise RulesError for an unreadable file or any
    syntax error in it."""
    text = read_source(path)
    shown = str(path)
    tree = cache.load_ast(shown, text)
    if tree is None:
        from .parser import parse_text  # the parser: only for a file not parsed before (see above)
        tree = parse_text(text, shown)
        cache.store_ast(shown, text, tree)
    return tree
