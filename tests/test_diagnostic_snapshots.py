"""Snapshot tests: the exact text `render_text` gives for representative broken files.

Each `snapshot_cases/NAME.rules` has its diagnostics (the parser's if it does not parse,
else the checker's) rendered with the relative path `tests/snapshot_cases/NAME.rules`
and compared with `snapshots/NAME.txt`. To accept a deliberate change in wording or
layout, regenerate them with `scripts/test.sh --bless` and review the diff.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError, render_text
from rulesc.dsl.parser import parse_text

TESTS = Path(__file__).resolve().parent
CASES = sorted((TESTS / "snapshot_cases").glob("*.rules"))
SNAPSHOTS = TESTS / "snapshots"


def render_file(case: Path) -> str:
    text = case.read_text(encoding="utf-8")
    path = case.relative_to(TESTS.parent).as_posix()  # machine-independent: tests/snapshot_cases/x.rules
    try:
        diags = check_program(parse_text(text, path)).diagnostics
    except RulesError as exc:
        diags = exc.diagnostics
    return "\n\n".join(render_text(d, text) for d in diags) + "\n"


def test_there_are_snapshot_cases():
    assert len(CASES) >= 6


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_snapshot(case: Path, expect_file):
    expect_file(SNAPSHOTS / f"{case.stem}.txt", render_file(case))


def test_no_stale_snapshots(expect_no_stale):
    names = {c.stem for c in CASES}
    expect_no_stale(s for s in SNAPSHOTS.glob("*.txt") if s.stem not in names)


def test_snapshots_hold_no_absolute_paths():
    for snapshot in SNAPSHOTS.glob("*.txt"):
        text = snapshot.read_text(encoding="utf-8")
        assert str(TESTS.parent) not in text, snapshot.name
        for line in text.splitlines():
            if "error[" in line or "warning[" in line:
                assert line.startswith("tests/snapshot_cases/"), line
