"""The one walk over the AST, used by every pass that visits nodes.

A node's children are derived from its attrs fields, so a new node class is walked the day it is
declared, with nothing to add here. What a field may hold is closed: another node, a tuple of
them (nested tuples too, as in `If.branches`), or a plain leaf (text, a number, a flag, None, a
`Span` or a `Meta`). Anything else is an `UnknownNode` error, never silently skipped: a pass that
meets something it does not know must fail loudly, as starlark-go's `syntax.Walk` does.

The walk is iterative, so a deeply nested file cannot exhaust Python's stack.
"""

from __future__ import annotations

from typing import Iterator

import attrs

from . import ast
from .diagnostics import Span

_NODES = frozenset(ast.NODE_CLASSES)
_LEAVES = (str, int, float, bool, type(None), Span, ast.Meta)
_LEAF_TYPES = frozenset(_LEAVES)  # the leaves themselves, found by a set lookup before isinstance


class UnknownNode(TypeError):
    """A value in the tree that is neither a known node nor a leaf: a pass would skip it silently."""


def is_node(value) -> bool:
    return type(value) in _NODES


def _check_leaf(value, parent) -> None:
    if not isinstance(value, _LEAVES):
        raise UnknownNode(f"{type(value).__name__} inside {type(parent).__name__} is not an AST node "
                          f"(declare it with @node in dsl/ast.py)")


# Each node class's fields that can hold nodes, in declaration order (RulesFile's `sources`, the
# texts, `overrides`, the overridden params, and `removals`, what a variant removed, are data, not
# tree): looked up once per class.
_TREE_FIELDS = {cls: tuple(f.name for f in attrs.fields(cls) if f.name not in ("sources", "overrides", "removals"))
                for cls in _NODES}


def children(node) -> list:
    """The nodes directly inside `node`, in field (source) order."""
    names = _TREE_FIELDS.get(type(node))
    if names is None:
        raise UnknownNode(f"{type(node).__name__} is not an AST node")
    found: list = []
    for name in names:
        value = getattr(node, name)
        kind = type(value)
        if kind in _NODES:
            found.append(value)
        elif kind not in _LEAF_TYPES:  # a tuple, or something to refuse (most fields are one or the other)
            _collect(value, node, found)
    return found


def _collect(value, parent, found: list) -> None:
    """Append the nodes in a field's value to `found` (a plain list: the walk's hot loop)."""
    kind = type(value)
    if kind in _NODES:
        found.append(value)
    elif kind is tuple or isinstance(value, (tuple, list)):
        for item in value:
            _collect(item, parent, found)
    elif kind not in _LEAF_TYPES:
        _check_leaf(value, parent)


def walk(root, *, into=None) -> Iterator:
    """Every node under `root` (itself included; a tuple of roots too), parents before children,
    in source order. `into(node)` may return False to leave a node's children out."""
    for node, _depth in walk_depth(root, into=into):
        yield node


def walk_depth(root, *, into=None) -> Iterator[tuple[object, int]]:
    """`walk`, with each node's depth (the root is at depth 1)."""
    roots: list = []
    _collect(root, root, roots)
    stack = [(n, 1) for n in reversed(roots)]
    while stack:
        node, depth = stack.pop()
        yield node, depth
        if into is None or into(node):
            stack.extend([(child, depth + 1) for child in reversed(children(node))])


def statements(block, *, procedures: dict | None = None) -> Iterator:
    """Every statement in a block, nested ones included, in source order. With `procedures`
    (name -> Procedure), a `do NAME(...)` is followed into the procedure's body, each one once."""
    entered: set[str] = set()
    pending = [block]
    while pending:
        root = pending.pop(0)
        for node in walk(root):
            if type(node) in _STATEMENTS:
                yield node
                if procedures is not None and isinstance(node, ast.Do) and node.name not in entered:
                    entered.add(node.name)
                    if node.name in procedures:
                        pending.append(procedures[node.name].body)


def blocks(node) -> Iterator:
    """The blocks directly nested in a statement (branches, bodies, options), not deeper ones."""
    def into(n):
        return n is node or not isinstance(n, ast.Block)
    for inner in walk(node, into=into):
        if isinstance(inner, ast.Block) and inner is not node:
            yield inner


_STATEMENTS = frozenset(ast.STATEMENT_CLASSES)
