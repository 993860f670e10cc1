"""`allow`: saying that a warning is meant, where it is found.

A warning may be right and still not wanted: a house rule that drops a base feature on purpose, a
rule kept for a rare case. `allow base-rule-lost` (a code's name, or the code itself, `R1302`) written
on a line says so: a warning of that code found at that line, or anywhere inside the declaration or
statement it heads, is dropped from the report (and counted as allowed), so `rulesc check --strict`
passes. Only warnings can be allowed: an error is a file that cannot be played as written.
"""

from __future__ import annotations

from typing import NamedTuple

from . import ast, codes, walk
from .diagnostics import Diagnostic
from .typecheck import nearest_hint


class Allowance(NamedTuple):
    """`allow` on a line: the codes it allows, in the lines of the node it is written on."""

    file: str
    first: int
    last: int
    codes: frozenset


def allowances(roots, path: str) -> tuple[list[Allowance], list[Diagnostic]]:
    """Every `allow` of the declarations `roots` (the node whose meta or whose body's meta says it), and
    a diagnostic for each that names no warning."""
    names = {c.name: c for c in codes.REGISTRY.values()}
    found: list[Allowance] = []
    problems: list[Diagnostic] = []
    for node in walk.walk(tuple(roots)):
        meta = getattr(node, "meta", None)
        body = getattr(node, "body", None)
        written = tuple(meta.allow if isinstance(meta, ast.Meta) else ()) + tuple(
            body.meta.allow if isinstance(body, ast.Block) else ())
        if not written or not hasattr(node, "span"):
            continue
        span = node.span
        file = span.file or path
        allowed = set()
        for word in written:
            code = codes.REGISTRY.get(word) or names.get(word)
            if code is None:
                problems.append(codes.UNKNOWN_NAME.diagnostic(
                    f"`allow {word}`: no diagnostic has that code or name", file, span,
                    help=nearest_hint(word, list(names)) or "`rulesc explain` lists every code and its name"))
            elif code.severity != codes.WARNING:
                problems.append(codes.BAD_ALLOW.diagnostic(
                    f"`allow {word}`: {code.code} `{code.name}` is an error, and an error cannot be allowed", file,
                    span, help="an error is a file that cannot be played as written: fix what it says"))
            else:
                allowed.add(code.code)
        if allowed:
            found.append(Allowance(file, span.line, span.last_line, frozenset(allowed)))
    return found, problems


def is_allowed(d: Diagnostic, found: list[Allowance]) -> bool:
    """Whether warning `d` is at a line whose `allow` names its code."""
    if d.is_error or d.span is None:
        return False
    return any(a.file == d.path and a.first <= d.span.line <= a.last and d.code in a.codes for a in found)
