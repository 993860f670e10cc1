"""What the players-and-information analyses share: conditions as data (compared and implied up to
the names of rules' variables), what always ends the turn, and where a finding is reported.

It reads the AST only (dsl/ast.py, dsl/walk.py): the checker imports the soundness package, so these
modules never import dsl/checker.py.
"""

from __future__ import annotations

import os

from .. import ast, walk
from ..diagnostics import Label

_SKIPPED = frozenset({"span", "meta", "target_span", "deck_span", "passes_span", "limit_span", "marks_span",
                      "status_span", "at_span"})
_FLIPPED = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}


def shape(node, renames: dict | None = None):
    """A node as plain data, for telling two expressions alike: no spans, no citations, each `Name` in
    `renames` written as what it maps to, `a == b` and `b == a` (and `a < b`, `b > a`) written alike."""
    renames = renames or {}
    if isinstance(node, (tuple, list)):
        return tuple(shape(n, renames) for n in node)
    if not walk.is_node(node):
        return node
    if isinstance(node, ast.Name) and node.id in renames:
        return renames[node.id]
    if isinstance(node, ast.Compare):
        left, right = shape(node.left, renames), shape(node.right, renames)
        op = node.op
        if op in ("==", "!=") and repr(right) < repr(left):
            left, right = right, left
        elif op in (">", ">="):
            left, right, op = right, left, _FLIPPED[op]
        return ("Compare", op, left, right)
    return (type(node).__name__,) + tuple(
        (f.name, shape(getattr(node, f.name), renames)) for f in node.__attrs_attrs__ if f.name not in _SKIPPED)


def is_true(node) -> bool:
    return node is None or (isinstance(node, ast.Literal) and node.value is True)


def implies(a, ra: dict, b, rb: dict) -> bool:
    """Whether condition `a` (its names renamed by `ra`) holds only where `b` (renamed by `rb`) holds too,
    as far as can be told from how they are written; None is a condition that always holds."""
    if is_true(b):
        return True
    if is_true(a):
        return False
    if isinstance(b, ast.BoolOp) and b.op == "and":
        return all(implies(a, ra, x, rb) for x in b.operands)
    if isinstance(a, ast.BoolOp) and a.op == "or":
        return all(implies(x, ra, b, rb) for x in a.operands)
    if isinstance(a, ast.BoolOp) and a.op == "and" and any(implies(x, ra, b, rb) for x in a.operands):
        return True
    if isinstance(b, ast.BoolOp) and b.op == "or":
        return any(implies(a, ra, x, rb) for x in b.operands)
    if shape(a, ra) == shape(b, rb):
        return True
    return _bound_implies(_bound(a, ra), _bound(b, rb))


def _bound(node, renames):
    """(what, op, number) for a comparison of something with a number written out (`x > 3`, `$5 <= x`)."""
    if not isinstance(node, ast.Compare):
        return None
    for subject, k, op in ((node.left, node.right, node.op), (node.right, node.left, _FLIPPED[node.op])):
        if isinstance(k, ast.Literal) and isinstance(k.value, int) and not isinstance(k.value, bool):
            return shape(subject, renames), op, k.value
    return None


def _bound_implies(a, b) -> bool:
    """Whether `x OPa ka` holds only where `x OPb kb` does (the same x)."""
    if a is None or b is None or a[0] != b[0]:
        return False
    _, opa, ka = a
    _, opb, kb = b
    if opb in (">", ">="):
        return opa in (">", ">=", "==") and (ka > kb or (ka == kb and (opb == ">=" or opa == ">")))
    if opb in ("<", "<="):
        return opa in ("<", "<=", "==") and (ka < kb or (ka == kb and (opb == "<=" or opa == "<")))
    if opb == "!=":
        return (opa == "==" and ka != kb) or (opa in (">", ">=") and ka > kb) or (opa in ("<", "<=") and ka < kb)
    return False


def conjuncts(node) -> list:
    """The parts of a condition that must all hold: `a and (b and c)` is [a, b, c]."""
    if node is None:
        return []
    if isinstance(node, ast.BoolOp) and node.op == "and":
        return [c for operand in node.operands for c in conjuncts(operand)]
    return [node]


def player_is(node) -> bool:
    return isinstance(node, ast.Name) and node.id == "player"


def movers_are_current(program) -> bool:
    """Whether every token that moves is the current player's: each `move`, `send` and `place` moves
    `player`, no action any player may take at any time moves one, and every card is played by `player`.
    Then the player an arrival's handlers run for is the one whose turn it is, and a `put` or an
    `eliminate` of him there ends the turn."""
    for decl in (*program.handlers, *program.hooks, *program.procedures.values(), *program.decks.values(),
                 *([program.turn] if program.turn else []), *program.statuses.values(),
                 *([program.setup] if program.setup else [])):
        for node in walk.walk(decl):
            if isinstance(node, ast.Move) and not player_is(node.who):
                return False
            if isinstance(node, (ast.PlayCard, ast.UseCard)) and not player_is(node.who):
                return False
    for action in program.actions.values():
        for node in walk.walk(action.body):
            if isinstance(node, ast.Move) and (action.timing != "own turn" or not player_is(node.who)):
                return False
            if isinstance(node, (ast.PlayCard, ast.UseCard)):
                return False
    return True


def always_ends(block, procs: dict, current: bool, seen: frozenset = frozenset()):
    """The statement that ends the turn (or the game) on every path through `block`, or None when some
    path goes on. `current`: `player` is the player whose turn it is, so that putting him in a status or
    eliminating him ends the turn too. Loops may run no time; a choice ends the turn when every option
    does and one of them is always offered."""
    if block is None:
        return None
    for st in block.statements:
        found = _ends(st, procs, current, seen)
        if found is not None:
            return found
    return None


def _ends(st, procs, current, seen):
    if isinstance(st, (ast.EndTurn, ast.EndGame)):
        return st
    if isinstance(st, (ast.Put, ast.Eliminate)) and current and player_is(st.who):
        return st
    if isinstance(st, ast.Do) and st.name in procs and st.name not in seen:
        # a procedure does not see `player`: only what it ends itself counts
        return always_ends(procs[st.name].body, procs, False, seen | {st.name})
    if isinstance(st, ast.If) and st.orelse is not None:
        found = [always_ends(b, procs, current, seen) for _, b in st.branches]
        found.append(always_ends(st.orelse, procs, current, seen))
        return found[0] if all(f is not None for f in found) else None
    if isinstance(st, ast.Choose) and any(o.when is None for o in st.options):
        found = [always_ends(o.body, procs, current, seen) for o in st.options]
        return found[0] if all(f is not None for f in found) else None
    if isinstance(st, ast.Auction) and st.orelse is not None and st.bluff is None:
        found = [always_ends(st.body, procs, current, seen), always_ends(st.orelse, procs, current, seen)]
        return found[0] if all(f is not None for f in found) else None
    if isinstance(st, ast.RollAgain):
        body = always_ends(st.body, procs, current, seen)
        too_many = always_ends(st.too_many, procs, current, seen) if st.too_many is not None else body
        return body if body is not None and too_many is not None else None
    return None


def where(program, span) -> str:
    """The path of the file a span is in."""
    return span.file or program.path


def short(program, span) -> str:
    """`file.rules:LINE`, as a message names another rule."""
    return f"{os.path.basename(where(program, span))}:{span.line}"


def label(program, span, message: str) -> Label:
    return Label(span, message, where(program, span))


def in_main(program, span) -> bool:
    """Whether a span is in the file being checked (a variant's own file), not in its base."""
    return (span.file or program.path) == program.path
