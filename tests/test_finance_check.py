"""The one real game checks clean, and its list of assumptions is the right one."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import render_text
from rulesc.dsl.parsed import parse_file

FINANCE = Path(__file__).resolve().parent.parent / "games" / "finance.rules"


@pytest.fixture(scope="module")
def checked():
    rules = parse_file(FINANCE)
    return rules, check_program(rules)


def test_finance_has_no_errors(checked):
    rules, result = checked
    errors = [render_text(d, rules.source) for d in result.diagnostics if d.is_error]
    assert not errors, "\n".join(errors)
    assert result.ok


def test_finance_has_no_warnings(checked):
    rules, result = checked
    warnings = [render_text(d, rules.source) for d in result.diagnostics if d.severity == "warning"]
    assert not warnings, "\n".join(warnings)


def _assumed(result, needle: str):
    return [a for a in result.assumptions if needle in a.what]


def test_assumed_rents_are_listed(checked):
    _, result = checked
    rubeville = _assumed(result, "`Rubeville`")
    assert len(rubeville) == 1
    assert "rents" in rubeville[0].what
    # Rubeville's rents and lease number are assumed (the rulebook states only WAYBACK's "No. 1"),
    # its value is not (the published series list gives it).
    assert "number" in rubeville[0].what and "value" not in rubeville[0].what


def test_only_the_values_the_rulebook_does_not_state_are_assumed(checked):
    _, result = checked
    (lasalle,) = _assumed(result, "`LaSalleStreet`")
    assert "number" in lasalle.what and "rents" in lasalle.what
    assert not _assumed(result, "`Wayback`")  # "on WAYBACK (lease No. 1) ... the ordinary $2 rent to $10"


def test_assumption_points_at_its_row(checked):
    rules, result = checked
    (rubeville,) = _assumed(result, "`Rubeville`")
    assert rules.source.splitlines()[rubeville.span.line - 1].strip().startswith("Rubeville ")


def test_opening_bid_is_assumed(checked):
    _, result = checked
    (bid,) = _assumed(result, "`opening_bid`")
    assert bid.note == "the rulebook names no lowest bid"


def test_rulebook_facts_are_not_assumed(checked):
    _, result = checked
    # The rulebook states Wayback's rents, the starting cash and the circuit income.
    assert not _assumed(result, "Wayback")
    assert not _assumed(result, "`starting_cash`")
    assert not _assumed(result, "`circuit_income`")


def test_every_assumed_row_of_the_lease_table_is_listed(checked):
    rules, result = checked
    rows = [line.split()[0] for line in rules.source.splitlines()
            if line.startswith("    ") and "assumed" in line and "[$" in line]
    assert len(rows) == 27  # every Lease but Wayback
    for name in rows:
        assert len(_assumed(result, f"`{name}`")) == 1, name
