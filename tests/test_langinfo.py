"""What the language server answers, asked directly (tests/test_lsp.py drives the same over stdio): on
the files that use every construct, every declaration is outlined and every name can be asked about."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesc import langinfo
from rulesc.dsl import ast
from rulesc.dsl.parser import parse_text

ROOT = Path(__file__).resolve().parent.parent
EVERYTHING = sorted((ROOT / "tests" / "completeness").glob("*.rules"))
GAMES = sorted((ROOT / "games").glob("*.rules"))
FILES = EVERYTHING + GAMES


def ids(paths):
    return [p.relative_to(ROOT).as_posix() for p in paths]


@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_every_declaration_is_in_the_outline_with_its_name_inside_its_range(path):
    text = path.read_text("utf-8")
    decls = parse_text(text, str(path)).decls
    symbols = langinfo.outline(text, str(path))
    assert len(symbols) == len(decls), "a declaration the outline does not know: add it to langinfo._symbol"

    def check(symbol):
        s, n = symbol.span, symbol.name_span
        assert (s.line, s.column) <= (n.line, n.column) and (n.end_line, n.end_column) <= (s.end_line, s.end_column)
        for child in symbol.children:
            check(child)
    for symbol in symbols:
        check(symbol)


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_every_name_can_be_asked_about(path):
    text = path.read_text("utf-8")
    analysis = langinfo.analyse(text, str(path))
    assert analysis.checked is not None and not [d for d in analysis.diagnostics if d.is_error]
    declared = langinfo.declarations(analysis)
    answered = 0
    for number, line in enumerate(text.splitlines(), 1):
        for m in langinfo.WORD.finditer(line):
            column = m.start() + 1
            found = langinfo.hover(analysis, number, column)
            targets = langinfo.definition(analysis, number, column)
            if m.group() in declared and langinfo.word_at(text, number, column) is not None:
                assert found is not None and targets, f"{path.name}:{number}:{column} `{m.group()}`"
                answered += 1
            for decl in targets:  # each definition points at the name itself, in its own file
                source = (Path(decl.file).read_text("utf-8") if not langinfo.same_file(decl.file, str(path))
                          else text).splitlines()[decl.span.line - 1]
                written = source[decl.span.column - 1:decl.span.end_column - 1]
                if written.startswith('"'):  # a generated row: its name's template, `"Halt{n}"` for Halt1
                    pattern = re.sub(r"\\{\w+\\}", r"\\w+", re.escape(written.strip('"')))
                    assert re.fullmatch(pattern, decl.name), (written, decl.name)
                elif written.startswith("graph "):  # a grid's square: its graph's declaration
                    assert " grid " in written, written
                else:
                    assert written == decl.name
    assert answered > 5  # even a short variant names a few things of its base


def test_hover_shows_an_expression_type_for_a_local_name():
    path = ROOT / "games" / "finance.rules"
    text = path.read_text("utf-8")
    analysis = langinfo.analyse(text, str(path))
    number = next(i for i, s in enumerate(text.splitlines(), 1) if s.startswith("    pay p.rents[p.houses]"))
    markdown, span = langinfo.hover(analysis, number, 9)  # the `p` of `p.rents`
    assert markdown == '**`p`**: `Lease`\n\n---\n\n§ "House Rents"' and (span.column, span.end_column) == (9, 10)


def test_completion_after_a_dot_offers_the_fields_of_what_is_before_it():
    path = ROOT / "games" / "finance.rules"
    text = path.read_text("utf-8")
    analysis = langinfo.analyse(text, str(path))
    probe = langinfo.Analysis(analysis.path, text + "\nplayer.\n", [], analysis.rules, analysis.checked)
    line = text.count("\n") + 2
    labels = {c.label for c in langinfo.completions(probe, line, len("player.") + 1)}
    assert {"cash", "position", "out", "owing"} <= labels and "Lease" not in labels


def test_a_variant_buffer_is_checked_with_its_base_and_a_base_problem_is_shown_on_extends(tmp_path):
    base = tmp_path / "base.rules"
    base.write_text((ROOT / "tests" / "cli_data" / "minimal.rules").read_text("utf-8")
                    .replace("pay salary from bank", "pay salry from bank", 1), encoding="utf-8")
    variant = tmp_path / "variant.rules"
    text = 'extends "base.rules"\n\noverride param salary = $200\n'
    analysis = langinfo.analyse(text, str(variant))  # the variant is not on disk: the buffer is read
    (diagnostic,) = [d for d in analysis.diagnostics if d.is_error]
    assert diagnostic.code == "R0205" and diagnostic.span.line == 1 and "the base has 1 problem" in diagnostic.message
    assert not variant.exists()
    base.write_text((ROOT / "tests" / "cli_data" / "minimal.rules").read_text("utf-8"), encoding="utf-8")
    loaded = langinfo.load_text(text, str(variant))
    assert isinstance(loaded, ast.RulesFile) and set(loaded.sources) == {str(base), str(variant)}
    assert langinfo.analyse(text, str(variant)).diagnostics == []
    (problem,) = langinfo.analyse(text.replace("salary", "wages"), str(variant)).diagnostics
    assert problem.code == "R0510" and problem.span.line == 3


FINANCE = ROOT / "games" / "finance.rules"


def _finance():
    text = FINANCE.read_text("utf-8")
    return text, langinfo.analyse(text, str(FINANCE))


def _typed(analysis, text: str, line: int, prefix: str) -> set:
    """The labels offered with `prefix` typed at the start of line `line` of the rule there (the buffer as
    the editor has it: a line being typed, the last analysis that parsed)."""
    lines = text.splitlines()
    indent = lines[line - 1][:len(lines[line - 1]) - len(lines[line - 1].lstrip())]
    lines.insert(line, indent + prefix)
    probe = langinfo.Analysis(analysis.path, "\n".join(lines) + "\n", [], analysis.rules, analysis.checked)
    return {c.label for c in langinfo.completions(probe, line + 1, len(indent + prefix) + 1)}


def _line(text: str, start: str) -> int:
    return next(i for i, s in enumerate(text.splitlines(), 1) if s.lstrip().startswith(start))


def test_completion_after_a_dot_offers_only_the_fields_of_the_names_type():
    text, analysis = _finance()
    rent = _line(text, "pay p.rents[p.houses]")
    lease = _typed(analysis, text, rent, "pay p.")
    assert lease == {"houses", "name", "number", "owner", "rents", "series", "value", "withdrawn"}
    roll = _typed(analysis, text, _line(text, "move player by d.total"), "move player by d.")
    assert roll == {"total", "doubles", "faces"}
    sale = _typed(analysis, text, _line(text, "pay sale.price from sale.winner"), "pay sale.")
    assert sale == {"price", "winner"}
    player = _typed(analysis, text, rent, "pay player.")
    assert {"cash", "position", "out"} <= player and "rents" not in player and "total" not in player


def test_completion_after_pay_from_or_to_offers_what_pays_and_is_paid():
    text, analysis = _finance()
    rent = _line(text, "pay p.rents[p.houses]")
    payers = _typed(analysis, text, rent, "pay $1 from ")
    assert {"player", "bank", "current"} <= payers and not payers & {"Lease", "pay", "Wayback", "p", "count"}
    assert _typed(analysis, text, rent, "pay $1 from player to ") == payers


def test_hover_on_a_rules_keywords_shows_its_citation_and_its_assumed_mark():
    text, analysis = _finance()
    rent = _line(text, "on land Lease p as rent")
    markdown, _ = langinfo.hover(analysis, rent, 2)  # `on`
    assert markdown.startswith('§ "The owner may collect the amount of rent stipulated')
    tariff = _line(text, "pay tariff of player.cash rounded down")
    markdown, _ = langinfo.hover(analysis, tariff, 6)  # `pay`
    assert markdown == '§ "he must pay 10% of all his cash"\n\nassumed: the rulebook gives no rounding'
    bid = _line(text, "param opening_bid")
    markdown, _ = langinfo.hover(analysis, bid, 8)  # the parameter's name: its declaration says it once
    assert markdown.count("assumed: the rulebook names no lowest bid") == 1
