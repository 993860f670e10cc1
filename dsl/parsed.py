"""A rules file's tree: loaded from the user's cache when this very file was parsed before, else parsed.

Loading the parser's tables and parsing cost most of `rulesc check --static`'s time, and a
file is checked far more often than it changes; so the tree of a file that parsed cleanly is
kept in the cache folder (`cache.py`, keyed by the file's exact text and path and by the
source of this package) and loaded on the next run. Lark and the grammar are imported only
when a file must really be parsed. The tree loaded is the tree the parser would build: same
nodes, same spans, same diagnostics (a file with a syntax error is never kept).

A process that loads the same file again (a variant's check loads its base twice, the language
server re-checks on every edit, a test run loads the shipped games hundreds of times) also keeps
the last trees it got, by path and exact text: the tree is immutable (frozen nodes, tuples), so
the same one is handed out again rather than unpickled or parsed anew.
"""

from __future__ import annotations

import functools

from . import ast, cache
from .source import read_source

TREES_KEPT = 64  # trees a process keeps (the largest shipped game's takes 1.3 MB of memory)


def parse_file(path) -> ast.RulesFile:
    """The tree of the rules file at `path`; raise RulesError for an unreadable file or any
    syntax error in it."""
    return _tree(str(path), read_source(path))


@functools.lru_cache(maxsize=TREES_KEPT)
def _tree(shown: str, text: str) -> ast.RulesFile:
    """The tree of `text`, read from the file `shown` (the spans name it): kept, cached, or parsed."""
    tree = cache.load_ast(shown, text)
    if tree is None:
        from .parser import parse_text  # the parser: only for a file not parsed before (see above)
        tree = parse_text(text, shown)
        cache.store_ast(shown, text, tree)
    return tree
