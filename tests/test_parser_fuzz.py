"""Hypothesis tests: no input makes the parser (or the checker) fail with anything but diagnostics.

For arbitrary text, and for mutations of games/finance.rules (deleted, duplicated and
re-indented lines, inserted characters), `parse_text` either returns an AST or raises
`RulesError` whose diagnostics all carry the path and, where they have a span, a line
inside the file. Whatever parses is also given to `check_program`, which must return
diagnostics rather than raise.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesc.dsl import ast
from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError, render_text
from rulesc.dsl.parser import parse_text

# A warning raised by rulesc code while parsing is a bug too (it was how bad string escapes showed).
pytestmark = pytest.mark.filterwarnings("error:::rulesc")

ROOT = Path(__file__).resolve().parent.parent
FINANCE = (ROOT / "games" / "finance.rules").read_text(encoding="utf-8")
FINANCE_LINES = FINANCE.splitlines(keepends=True)
PATH = "fuzz.rules"

# RULESC_FUZZ_EXAMPLES=5000 for a long hunt by hand; the suite itself stays fast.
EXAMPLES = int(os.environ.get("RULESC_FUZZ_EXAMPLES", "0"))
FUZZ = settings(max_examples=EXAMPLES or 200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
# ...and a quarter as many of a whole FINANCE file mutated (each one parsed and checked whole: 80 ms). They
# are drawn afresh on every run (no fixed seed), so the runs add up to a longer hunt.
WHOLE_FILE_FUZZ = settings(FUZZ, max_examples=EXAMPLES or 50)

# Characters that matter to the lexer and the indenter, mixed into the random text.
SPECIAL = list(' \t\n:()[],.$%"\'#§=<>!+-*/?\\') + ["\r\n", "    ", "\x00", "\u00e9", "\ufeff"]


def parse_or_diagnose(text: str):
    """Parse `text`; return the AST, or check the RulesError's diagnostics and return None."""
    try:
        rules = parse_text(text, PATH)
    except RulesError as exc:
        assert exc.diagnostics, "a RulesError with no diagnostics"
        lines = text.count("\n") + 1
        for d in exc.diagnostics:
            assert d.path == PATH
            assert d.severity == "error"
            assert d.code.startswith("R0")
            if d.span is not None:
                assert 1 <= d.span.line <= lines + 1, (d, lines)
                assert d.span.column >= 1, d
            render_text(d, text)  # rendering never fails either
        return None
    assert isinstance(rules, ast.RulesFile)
    return rules


def check_does_not_crash(rules: ast.RulesFile, text: str):
    checked = check_program(rules)
    for d in checked.diagnostics:
        assert d.path == PATH
        render_text(d, text)


# ---- arbitrary text -------------------------------------------------------------------------

@FUZZ
@given(st.text())
def test_arbitrary_text(text):
    parse_or_diagnose(text)


@pytest.mark.slow
@FUZZ
@given(st.lists(st.one_of(st.sampled_from(SPECIAL),
                          st.sampled_from(["game", "player", "kind", "table", "board", "turn", "phase", "on",
                                           "land", "pay", "from", "to", "if", "else", "end", "when", "$10",
                                           "10%", "x", "Lease", '"s"', '"\\x"', '"\\N{"', '"\u00e9\\n"', "assumed",
                                           "cite"]),
                          st.text(max_size=3)),
                max_size=60).map("".join))
def test_token_soup(text):
    parse_or_diagnose(text)


# ---- mutations of a real game --------------------------------------------------------------------

def _delete(lines, i, _data):
    return lines[:i] + lines[i + 1:]


def _duplicate(lines, i, _data):
    return lines[:i + 1] + [lines[i]] + lines[i + 1:]


def _reindent(lines, i, data):
    shift = data.draw(st.sampled_from([-4, -2, -1, 1, 2, 4]))
    line = lines[i]
    if shift < 0:
        line = line[min(-shift, len(line) - len(line.lstrip(" "))):]
    else:
        line = " " * shift + line
    return lines[:i] + [line] + lines[i + 1:]


def _insert_char(lines, i, data):
    line = lines[i]
    at = data.draw(st.integers(0, len(line)))
    char = data.draw(st.one_of(st.sampled_from(SPECIAL), st.characters()))
    return lines[:i] + [line[:at] + char + line[at:]] + lines[i + 1:]


def _truncate(lines, i, data):
    line = lines[i]
    at = data.draw(st.integers(0, len(line)))
    return lines[:i] + [line[:at] + "\n"] + lines[i + 1:]


MUTATIONS = [_delete, _duplicate, _reindent, _insert_char, _truncate]


@st.composite
def mutated_finance(draw):
    lines = list(FINANCE_LINES)
    for _ in range(draw(st.integers(1, 4))):
        if not lines:
            break
        mutate = draw(st.sampled_from(MUTATIONS))
        i = draw(st.integers(0, len(lines) - 1))
        lines = mutate(lines, i, _Draw(draw))
    return "".join(lines)


class _Draw:
    """Lets the mutation helpers draw more values from the same composite strategy."""

    def __init__(self, draw):
        self.draw = draw


@pytest.mark.slow
@WHOLE_FILE_FUZZ
@given(mutated_finance())
def test_mutated_finance(text):
    rules = parse_or_diagnose(text)
    if rules is not None:
        check_does_not_crash(rules, text)


@pytest.mark.slow
@WHOLE_FILE_FUZZ
@given(st.lists(st.integers(0, len(FINANCE_LINES) - 1), min_size=1, max_size=40, unique=True))
def test_finance_with_many_lines_deleted(deleted):
    text = "".join(line for i, line in enumerate(FINANCE_LINES) if i not in set(deleted))
    rules = parse_or_diagnose(text)
    if rules is not None:
        check_does_not_crash(rules, text)


@pytest.mark.slow
@WHOLE_FILE_FUZZ
@given(st.lists(st.integers(0, len(FINANCE_LINES) - 1), min_size=1, max_size=12))
def test_finance_with_declarations_shuffled_in(picks):
    """Lines copied to the end of the file, out of their context."""
    text = FINANCE + "".join(FINANCE_LINES[i] for i in picks)
    rules = parse_or_diagnose(text)
    if rules is not None:
        check_does_not_crash(rules, text)


def test_finance_itself_parses():
    assert parse_or_diagnose(FINANCE) is not None
