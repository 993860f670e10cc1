"""Places in the rules' source: `file:line` as events carry it, and the source text at it.

A failure names the rule that broke an invariant and coverage lists the rules no game
reached, both by `file:line` and that line's text; a variant's lines may be in its base's
file, so places are looked up by file as well as line.
"""

from __future__ import annotations

import os

from rulesc.interpreter.rules import Rules


def source_lines(rules: Rules) -> dict:
    """Each file the rules came from (a variant brings in its base's), by base name: its lines."""
    program = rules.program
    sources = getattr(program, "sources", None) or {program.path: program.source}
    return {os.path.basename(path): text.splitlines() for path, text in sources.items()}


def split_where(where: str) -> tuple[str, int] | None:
    """`file:line` -> (file, line), or None for an event no rule caused."""
    file, _, line = (where or "").rpartition(":")
    return (file, int(line)) if file and line.isdigit() else None


def line_text(rules: Rules, where: str, sources: dict | None = None) -> str:
    """The text of the line at `where`, stripped, or "" (`sources` saves splitting the files again)."""
    place = split_where(where)
    lines = (sources if sources is not None else source_lines(rules)).get(place[0], ()) if place else ()
    if not place or not 1 <= place[1] <= len(lines):
        return ""
    return lines[place[1] - 1].strip()

