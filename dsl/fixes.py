"""Machine-applicable fixes: a help line that knows the edit it suggests, and applying that edit.

A help such as "did you mean `bank`?" is text for people; an editor's quick fix, SARIF's `fixes` and
the test that every suggested fix checks clean once applied (tests/test_fixes.py) need the edit itself.
`Help` is that text carrying its edit (what to replace, by which alternatives, and optionally where),
so a report site writes its help as before and `codes.Code.diagnostic` turns it into the diagnostic's
`fixes`. `apply` makes the edit on a file's text, and refuses one whose text is not where it says.
"""

from __future__ import annotations

import difflib
import re

from .diagnostics import MACHINE_APPLICABLE, MAYBE_INCORRECT, Diagnostic, Fix, Span


class Help(str):
    """A help line that suggests replacing `original` by one of `replacements`: within `span` when
    given, else within the span of the diagnostic it helps."""

    original: str
    replacements: tuple[str, ...]
    span: Span | None
    applicability: str

    def __new__(cls, text: str, original: str, replacements, span: Span | None = None,
                applicability: str = MACHINE_APPLICABLE) -> "Help":
        self = super().__new__(cls, text)
        self.original = original
        self.replacements = tuple(replacements)
        self.span = span
        self.applicability = applicability
        return self

    def fixes(self, span: Span | None) -> tuple[Fix, ...]:
        where = self.span or span
        if where is None:
            return ()
        return tuple(Fix(where, self.original, r, self.applicability) for r in self.replacements if r != self.original)


def fixes_of(help: str | None, span: Span | None) -> tuple[Fix, ...]:
    """The fixes a help line suggests (none for plain text)."""
    return help.fixes(span) if isinstance(help, Help) else ()


def nearest(name: str, candidates, prefix: str = "did you mean ") -> Help | None:
    """"did you mean `a` or `b`?" for the names nearest to a misspelt one, each a fix that may be the
    wrong one (a near name may be of another type); None when none is near."""
    matches = difflib.get_close_matches(name, list(candidates), n=3, cutoff=0.6)
    if not matches:
        return None
    return Help(prefix + " or ".join(f"`{m}`" for m in matches) + "?", name, matches, applicability=MAYBE_INCORRECT)


def _offset(lines: list[str], line: int, column: int) -> int:
    """The offset in the text (lines kept with their ends) of a 1-based line and column."""
    line = max(1, min(line, len(lines) + 1))
    return sum(len(x) for x in lines[:line - 1]) + column - 1


def _found(source: str, fix: Fix) -> int | None:
    """The offset of the one occurrence of `fix.original` that overlaps the fix's span (on the span's
    lines; a name only as a whole word), or None when there is none, or more than one."""
    lines = source.splitlines(keepends=True)
    span = fix.span
    if not 1 <= span.line <= len(lines) or not fix.original:
        return None
    start = _offset(lines, span.line, span.column)
    end = max(_offset(lines, span.end_line, span.end_column), start + 1)
    first = _offset(lines, span.line, 1)
    last = _offset(lines, span.last_line + 1, 1)
    word = re.escape(fix.original)
    if fix.original[:1].isidentifier():
        word = r"(?<![\w$])" + word
    if fix.original[-1:].isalnum() or fix.original[-1:] == "_":
        word += r"(?!\w)"
    found = [m for m in re.finditer(word, source[first:last]) if first + m.start() < end and first + m.end() > start]
    return first + found[0].start() if len(found) == 1 else None


def apply(source: str, fix: Fix) -> str | None:
    """`source` with the fix made, or None when its text is not where it says (`_found`)."""
    at = _found(source, fix)
    if at is None:
        return None
    return source[:at] + fix.replacement + source[at + len(fix.original):]


def region(source: str, fix: Fix) -> Span | None:
    """The exact region the fix replaces (1-based, end exclusive; an edit is on one line), or None."""
    at = _found(source, fix)
    if at is None:
        return None
    line = source.count("\n", 0, at) + 1
    column = at - (source.rfind("\n", 0, at) + 1) + 1
    return Span(line, column, line, column + len(fix.original), fix.span.file)


def applicable(diag: Diagnostic, source: str) -> list[tuple[Fix, str]]:
    """The diagnostic's fixes that apply to `source` (the text of its file), each with the text it gives."""
    out = []
    for fix in diag.fixes:
        fixed = apply(source, fix)
        if fixed is not None:
            out.append((fix, fixed))
    return out
