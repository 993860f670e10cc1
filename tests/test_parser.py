"""Deterministic parser tests: hostile input becomes diagnostics, never a Python exception.

Each test here is also a regression test for a parser bug found while writing the
checker tests (see the comments).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl import ast
from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError
from rulesc.dsl.parser import MAX_AST_DEPTH, parse_text

# A warning raised by rulesc code while parsing is a bug too (it was how bad string escapes showed).
pytestmark = pytest.mark.filterwarnings("error:::rulesc")

SKELETON = (Path(__file__).parent / "checker_cases" / "unused_param.rules").read_text(encoding="utf-8")


def codes(text: str) -> list[str]:
    with pytest.raises(RulesError) as info:
        parse_text(text, "t.rules")
    return [d.code for d in info.value.diagnostics]


def test_not_an_aggregate_is_a_diagnostic():
    # Regression: R0105, raised inside the Lark transformer, escaped as lark's VisitError.
    assert codes("param x = foo(q in players: 1)\n") == ["R0105"]


DEEP = {
    "sum": lambda n: "$1 + " * n + "$1",
    "product": lambda n: "$1 * " * n + "1",
    "negation": lambda n: "-" * n + "$1",
    "not": lambda n: "not " * n + "true",
    "attributes": lambda n: "players[0]" + ".name" * n,
    "indexes": lambda n: "players" + "[0]" * n,
    "conditionals": lambda n: "if true then $1 else " * n + "$1",
    "parentheses": lambda n: "(" * n + "1" + ")" * n,
}


@pytest.mark.parametrize("shape", sorted(DEEP))
@pytest.mark.parametrize("n", [MAX_AST_DEPTH + 10, pytest.param(5000, marks=pytest.mark.slow)])
def test_deep_expressions_are_refused_by_the_parser(shape, n):
    # Regression: a long `+` chain or ~350 `not`s parsed fine and then crashed the checker with
    # RecursionError; ~500 nested `if … else` crashed the parser with lark's VisitError.
    text = SKELETON + f"\nparam big = {DEEP[shape](n)}\nhint reserve = big\n"
    assert set(codes(text)) == {"R0104"}


@pytest.mark.parametrize("shape", sorted(DEEP))
def test_moderately_deep_expressions_parse_and_check(shape):
    text = SKELETON + f"\nparam big = {DEEP[shape](40)}\nhint reserve = big\n"
    rules = parse_text(text, "t.rules")
    check_program(rules)  # whatever it reports, it does not raise


def test_deeply_nested_blocks_are_refused():
    body = "".join("    " * (i + 2) + "if true:\n" for i in range(100)) + "    " * 102 + "end turn\n"
    text = SKELETON + "\nbefore turn:\n    if true:\n" + body
    assert set(codes(text)) == {"R0104"}


def test_inner_link_of_a_chain_has_its_own_span():
    rules = parse_text("param x = $1 + 5 + $2\n", "t.rules")
    (param,) = rules.decls
    outer = param.value
    assert isinstance(outer, ast.BinOp) and isinstance(outer.left, ast.BinOp)
    assert (outer.left.span.column, outer.left.span.end_column) == (11, 17)  # `$1 + 5`
    assert (outer.span.column, outer.span.end_column) == (11, 22)           # `$1 + 5 + $2`


def test_percent_of_is_on_the_level_of_times_read_left_to_right():
    # Regression (issue #7): `P of X rounded R * n` was a syntax error, though the reference puts
    # `P of X rounded R` on the level of `*` and `/`.
    rules = parse_text("param x = 50% of $10 rounded down * 3 / 2\n", "t.rules")
    divided = rules.decls[0].value
    assert isinstance(divided, ast.BinOp) and divided.op == "/"
    times = divided.left
    assert isinstance(times, ast.BinOp) and times.op == "*" and isinstance(times.left, ast.PercentOf)
    assert (times.left.span.column, times.left.span.end_column) == (11, 34)  # `50% of $10 rounded down`
    assert (times.span.column, times.span.end_column) == (11, 38)            # `… * 3`
    assert (divided.span.column, divided.span.end_column) == (11, 42)
    after = parse_text("param x = 3 * 50% of $10 rounded down\n", "t.rules").decls[0].value
    assert isinstance(after, ast.PercentOf) and isinstance(after.percent, ast.BinOp)  # (3 * 50%) of $10


@pytest.mark.parametrize("text", ["", "\n\n", "# only a comment\n", "   \n\t\n"])
def test_empty_text_parses_to_no_declarations(text):
    assert parse_text(text, "t.rules").decls == ()


@pytest.mark.parametrize("text, code", [
    ("param x = 1)\n", "R0101"),
    ("param x = )\n", "R0101"),
    ("param x\x00 = 1\n", "R0102"),
    ("param x = 1\n  param y = 2\n", "R0101"),
    ('game "x:\n    start: Go\n', "R0102"),
])
def test_hostile_fragments(text, code):
    assert code in codes(text)


def test_windows_line_endings_parse():
    text = SKELETON.replace("\n", "\r\n")
    rules = parse_text(text, "t.rules")
    assert check_program(rules).ok


@pytest.mark.parametrize("written, value", [
    (r'"plain"', "plain"),
    (r'"say \"hi\""', 'say "hi"'),
    (r'"a \\ b"', "a \\ b"),
    (r'"two\nlines"', "two\nlines"),
    ('"caf\u00e9 \\n"', "caf\u00e9 \n"),   # non-ASCII next to an escape is not mangled
    (r'"odd \x escape"', r"odd \x escape"),  # regression: crashed with UnicodeDecodeError
    (r'"\N{nothing}"', r"\N{nothing}"),      # regression: crashed with UnicodeDecodeError
    (r'"\i"', r"\i"),                        # regression: a DeprecationWarning (an error under -W error)
])
def test_string_escapes(written, value):
    rules = parse_text(f"square Go {written}\n", "t.rules")
    assert rules.decls[0].title == value
