"""Inline-expectation tests for the parser and the static checker.

Every file in `checker_cases/` is a small game broken in one way. The diagnostics it
must produce are written as comments on the line they apply to:

    pay fee + 5 from player to bank   # error: R0305
    param bonus = $50                 # warning: R0404

A line may carry several (`# error: R0202, warning: R0404`; write one twice if it is
reported twice). The test parses and checks each file and asserts that the
(line, severity, code) reported equal those written in the file, exactly and with
their counts: a missing diagnostic, an unexpected one and a repeated one all fail. Syntax errors come from `RulesError` raised by `parse_text`; everything else
from `check_program`.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError, render_text
from rulesc.dsl.parser import parse_text

CASES_DIR = Path(__file__).parent / "checker_cases"
CASES = sorted(CASES_DIR.glob("*.rules"))

# `error: R0305` / `warning: R0404` / `note: R0000` anywhere in a line's trailing comment.
EXPECTATION = re.compile(r"\b(error|warning|note)\s*:\s*(R\d{4})\b")


def expectations(text: str) -> Counter:
    expected: Counter = Counter()
    for number, line in enumerate(text.splitlines(), start=1):
        if "#" not in line:
            continue
        comment = line[line.index("#"):]
        for severity, code in EXPECTATION.findall(comment):
            expected[(number, severity, code)] += 1
    return expected


def diagnose(text: str, path: str) -> list:
    """Every diagnostic for `text`: the parser's if it fails, else the checker's."""
    try:
        rules = parse_text(text, path)
    except RulesError as exc:
        return exc.diagnostics
    return check_program(rules).diagnostics


def relative(path: Path) -> str:
    return path.relative_to(CASES_DIR.parent.parent).as_posix()


def test_there_are_enough_cases():
    assert len(CASES) >= 30


def test_every_case_expects_something():
    empty = [p.name for p in CASES if not expectations(p.read_text(encoding="utf-8"))]
    assert not empty, f"cases without any `# error:`/`# warning:` expectation: {empty}"


@pytest.mark.parametrize("case", CASES, ids=[p.stem for p in CASES])
def test_case(case: Path):
    text = case.read_text(encoding="utf-8")
    path = relative(case)
    diags = diagnose(text, path)
    actual = Counter((d.span.line if d.span else 0, d.severity, d.code) for d in diags)
    expected = expectations(text)
    rendered = "\n".join(render_text(d, text) for d in diags)
    assert actual == expected, (
        f"\nmissing:    {sorted((expected - actual).elements())}\n"
        f"unexpected: {sorted((actual - expected).elements())}\n"
        f"reported:\n{rendered}"
    )
    assert len(diags) == len(set(diags)), f"a diagnostic is reported twice:\n{rendered}"
    for d in diags:
        assert d.path == path
        assert d.message and d.message[0].islower() or d.message[0] == "`", d.message


# ---- things the (line, severity, code) sets do not show ---------------------------------------

def _only(case: str, code: str):
    text = (CASES_DIR / f"{case}.rules").read_text(encoding="utf-8")
    found = [d for d in diagnose(text, case) if d.code == code]
    assert len(found) == 1, found
    return found[0]


def test_unknown_name_suggests_the_nearest_name():
    diag = _only("unknown_name", "R0205")
    assert "`fees`" in diag.message
    assert diag.help is not None and "`fee`" in diag.help and "did you mean" in diag.help


def test_unknown_field_suggests_the_nearest_field():
    diag = _only("unknown_field", "R0206")
    assert "`ownr`" in diag.message
    assert diag.help is not None and "`owner`" in diag.help


def test_unknown_type_suggests_the_nearest_type():
    diag = _only("unknown_type", "R0201")
    assert diag.help is not None and "`money`" in diag.help


def test_unknown_deck_suggests_the_nearest_deck():
    text = (CASES_DIR / "unknown_deck.rules").read_text(encoding="utf-8")
    text = text.replace("turn:", 'deck Chance cut:\n    card Gift:\n        pay $5 from bank to player\n\nturn:', 1)
    diags = [d for d in diagnose(text, "x.rules") if d.code == "R0205"]
    assert len(diags) == 1
    assert diags[0].help is not None and "`Chance`" in diags[0].help


def test_unknown_kind_in_handler_suggests_the_kind():
    diag = _only("unknown_kind_in_handler", "R0205")
    assert diag.help is not None and "`Lot`" in diag.help


def test_unknown_setting_suggests_the_setting():
    diag = _only("unknown_setting", "R0503")
    assert diag.help is not None and "`turn limit`" in diag.help


def test_player_outside_a_rule_explains_where_it_exists():
    diag = _only("unknown_name_player_outside_rule", "R0205")
    assert diag.help is not None and "only defined" in diag.help


def test_single_quote_hint():
    diag = _only("syntax_single_quote", "R0102")
    assert diag.help is not None and "double quotes" in diag.help


def test_missing_colon_hint():
    diag = _only("syntax_missing_colon", "R0101")
    assert "`:`" in diag.message or (diag.help and "`:`" in diag.help)


def test_missing_block_hint():
    diag = _only("syntax_missing_block", "R0101")
    assert diag.help is not None and "indented block" in diag.help


def test_duplicate_points_at_the_first_definition():
    text = (CASES_DIR / "duplicate_definition.rules").read_text(encoding="utf-8")
    first = next(i for i, line in enumerate(text.splitlines(), 1) if line.startswith('square Go "Go"'))
    for diag in (d for d in diagnose(text, "x.rules") if d.code == "R0202"):
        assert [label.span.line for label in diag.labels] == [first]


def test_unexpected_indent_points_at_the_indented_line():
    diag = _only("syntax_unexpected_indent", "R0101")
    text = (CASES_DIR / "syntax_unexpected_indent.rules").read_text(encoding="utf-8")
    line = text.splitlines()[diag.span.line - 1]
    assert diag.span.column == len(line) - len(line.lstrip()) + 1
    assert diag.help is not None and "indented more" in diag.help


def test_bad_dedent_points_at_the_dedented_line():
    diag = _only("syntax_bad_dedent", "R0103")
    text = (CASES_DIR / "syntax_bad_dedent.rules").read_text(encoding="utf-8")
    line = text.splitlines()[diag.span.line - 1]
    assert diag.span.column == len(line) - len(line.lstrip()) + 1


def test_unterminated_string_hint():
    diag = _only("syntax_unterminated_string", "R0102")
    assert diag.help is not None and "closing" in diag.help


def test_unknown_type_is_reported_once():
    text = (CASES_DIR / "unknown_type.rules").read_text(encoding="utf-8")
    assert [d.code for d in diagnose(text, "x.rules")] == ["R0201"]


def test_unknown_handler_kind_does_not_cascade():
    text = (CASES_DIR / "unknown_kind_in_handler.rules").read_text(encoding="utf-8")
    assert [d.code for d in diagnose(text, "x.rules")] == ["R0205"]


def test_multiple_syntax_errors_in_one_run():
    text = (CASES_DIR / "syntax_multiple.rules").read_text(encoding="utf-8")
    with pytest.raises(RulesError) as info:
        parse_text(text, "x.rules")
    assert len(info.value.diagnostics) == 3
    assert len({d.span.line for d in info.value.diagnostics}) == 3


def test_chain_error_underlines_the_inner_link():
    diag = _only("chain_span", "R0305")
    text = (CASES_DIR / "chain_span.rules").read_text(encoding="utf-8")
    line = text.splitlines()[diag.span.line - 1]
    assert line[diag.span.column - 1:diag.span.end_column - 1] == "fee + 5"


@pytest.mark.parametrize("word,rest", [("global", "pot: money = $0"), ("player", "lives: count = 3")])
def test_a_block_declaration_written_on_one_line_says_how_to_write_it(word, rest):
    """`global pot: money = $0` is a newcomer's first guess: the help shows the block it must be."""
    (diag,) = diagnose(f'game "G":\n    players: 2 to 4\n\n{word} {rest}   # a note\n', "x.rules")
    assert diag.code == "R0101" and (diag.span.line, diag.span.column) == (4, len(word) + 2)
    assert diag.help == (f"`{word}` opens a block: write `{word}:` on its own line, then what it declares "
                         f"indented below it: `    {rest}`")
