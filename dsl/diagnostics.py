"""Diagnostics as data, and their two renderings (text for people, JSON for tools).

Every problem the parser, the checker or the interpreter finds in a .rules file is a
`Diagnostic`: a severity, a stable code (documented in docs/errors/), a lowercase
message, the primary span, optional secondary labels, notes and a help line. Keeping
them as data lets the CLI choose the format and lets tests assert on codes and spans
instead of on English text.
"""

from __future__ import annotations

import json
from typing import Iterable

import attrs


@attrs.frozen
class Span:
    """A region of a source file: 1-based line and column, end exclusive. `file` is the path
    of the file it is in, which matters once a variant brings in its base's declarations."""

    line: int
    column: int
    end_line: int
    end_column: int
    file: str | None = attrs.field(default=None, eq=False, repr=False)

    @classmethod
    def point(cls, line: int, column: int) -> "Span":
        return cls(line, column, line, column + 1)

    @property
    def last_line(self) -> int:
        """The last line the region covers: a declaration's span ends at the start of what follows
        (column 1 of the next line), which is not its own."""
        if self.end_line > self.line and self.end_column == 1:
            return self.end_line - 1
        return self.end_line


@attrs.frozen
class Label:
    """A secondary span with a short note, e.g. where a name was first defined."""

    span: Span
    message: str
    path: str | None = None


MACHINE_APPLICABLE = "machine-applicable"  # applied alone, the file checks with no error it did not have
MAYBE_INCORRECT = "maybe-incorrect"  # the diagnostic goes, but the fix may be the wrong one (a near name)


@attrs.frozen
class Fix:
    """A suggested edit: within `span`, the one occurrence of `original` becomes `replacement`. Naming
    the text it replaces (not only a region) lets a fix be attached where the span covers more than the
    slip (a whole statement for a misspelt procedure) and refused where the text is not there
    (`dsl.fixes.apply`). Each fix of a diagnostic is an alternative, applied alone; applied, the file has
    no more that diagnostic, and a machine-applicable one no error it did not have (tests/test_fixes.py
    holds every fix raised on the examples to it). A near name is only maybe right: `deposit` is near
    `position`, which is of another type."""

    span: Span
    original: str
    replacement: str
    applicability: str = MACHINE_APPLICABLE


@attrs.frozen
class Diagnostic:
    severity: str  # "error" | "warning" | "note"
    code: str
    message: str
    path: str
    span: Span | None = None
    labels: tuple[Label, ...] = ()
    notes: tuple[str, ...] = ()
    help: str | None = None
    fixes: tuple[Fix, ...] = ()  # alternatives, each machine-applicable to the file at `path`

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def to_json(self) -> dict:
        return attrs.asdict(self, recurse=True)


class RulesError(Exception):
    """Raised to stop work on a file; carries the diagnostics that explain why."""

    def __init__(self, diagnostics: Iterable[Diagnostic]):
        self.diagnostics = list(diagnostics)
        super().__init__("; ".join(d.message for d in self.diagnostics))


TAB_WIDTH = 4  # the columns of a tab, as the indenter counts it (`parser.RulesIndenter`) and a source line shows it


def _source_line(source: str | None, line: int) -> str | None:
    if source is None:
        return None
    lines = source.splitlines()
    if 1 <= line <= len(lines):
        return lines[line - 1]
    return None


def _shown_column(line: str, column: int) -> int:
    """Where character column `column` of `line` shows once the line's tabs are expanded: a span's columns
    count a tab as one character, and the caret must stand under the token, not inside the tab."""
    return len(line[:column - 1].expandtabs(TAB_WIDTH)) + max(0, column - 1 - len(line)) + 1


def render_text(diag: Diagnostic, source: str | None) -> str:
    """`path:line:col: severity[CODE]: message`, the source line, a caret, help and notes."""
    where = diag.path
    if diag.span is not None:
        where = f"{diag.path}:{diag.span.line}:{diag.span.column}"
    out = [f"{where}: {diag.severity}[{diag.code}]: {diag.message}"]
    if diag.span is not None:
        raw = _source_line(source, diag.span.line)
        if raw is not None and len(text := raw.expandtabs(TAB_WIDTH)) <= 400:
            gutter = str(diag.span.line)
            pad = " " * len(gutter)
            column = _shown_column(raw, diag.span.column)
            if diag.span.end_line == diag.span.line:
                width = max(1, _shown_column(raw, diag.span.end_column) - column)
            else:  # a span over several lines: underline the rest of its first line, comments aside
                width = len(text.split("#")[0].rstrip()) - column + 1
            width = max(1, min(width, len(text) - column + 1))
            out.append(f"{pad} |")
            out.append(f"{gutter} | {text}")
            out.append(f"{pad} | {' ' * (column - 1)}{'^' * width}")
    for label in diag.labels:
        out.append(f"  note: {label.message} at {label.path or diag.path}:{label.span.line}:{label.span.column}")
    for note in diag.notes:
        out.append(f"  note: {note}")
    if diag.help:
        out.append(f"  help: {diag.help}")
    return "\n".join(out)


def render_json(diags: Iterable[Diagnostic]) -> str:
    return json.dumps([d.to_json() for d in diags], indent=2)
