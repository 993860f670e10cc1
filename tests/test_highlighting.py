"""The highlighters: the Pygments lexer (found through its entry point) and the TextMate grammar in
editors/ (run by a port of VS Code's tokenizer over Oniguruma) read every shipped game without an
error token, and their words cover every keyword of the parser's grammar."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Error, Keyword, Name, Number, String

from rulesc import langinfo, syntax
from rulesc.pygments_lexer import RulesLexer

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "editors" / "rules.tmLanguage.json"
SHIPPED = sorted([*(ROOT / "games").glob("*.rules"), *(ROOT / "examples").glob("*.rules"),
                  *(ROOT / "examples" / "games").glob("*.rules"),
                  *(ROOT / "tests" / "completeness").glob("*.rules")])  # the files that use every construct
BROKEN = ROOT / "tests" / "checker_cases" / "syntax_single_quote.rules"  # a quote the language has not
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *sorted((ROOT / "docs" / "games").glob("*.md"))]


def ids(paths):
    return [p.relative_to(ROOT).as_posix() for p in paths]


def test_every_keyword_of_the_grammar_is_highlighted_and_no_other_word_is_a_keyword():
    highlighted = set(syntax.DECLARATIONS) | set(syntax.KEYWORDS) | set(syntax.OPERATOR_WORDS) | \
        set(syntax.CONSTANTS) | set(syntax.META_WORDS)
    grammar = set(langinfo.keywords())
    assert grammar - highlighted == set(), "keywords of dsl/rules.lark that rulesc/syntax.py does not list"
    assert highlighted - grammar == set(), "words rulesc/syntax.py lists that are no keyword of dsl/rules.lark"


def test_the_textmate_grammar_in_editors_is_the_generated_one(expect_file):
    expect_file(GRAMMAR, syntax.textmate_json())
    expect_file(ROOT / "editors" / "vscode" / "syntaxes" / "rules.tmLanguage.json", syntax.textmate_json())


def test_the_vscode_extension_declares_the_language_its_grammar_and_the_server():
    folder = ROOT / "editors" / "vscode"
    package = json.loads((folder / "package.json").read_text("utf-8"))
    (language,) = package["contributes"]["languages"]
    assert language["id"] == "rules" and language["extensions"] == [".rules"]
    assert json.loads((folder / language["configuration"]).read_text("utf-8"))["comments"] == {"lineComment": "#"}
    (grammar,) = package["contributes"]["grammars"]
    assert grammar["scopeName"] == syntax.textmate_grammar()["scopeName"] and (folder / grammar["path"]).is_file()
    assert package["contributes"]["configuration"]["properties"]["rulesc.command"]["default"] == ["rulesc", "lsp"]
    assert '"lsp"' in (folder / package["main"]).read_text("utf-8")


# ---- Pygments ---------------------------------------------------------------------------------------

def test_the_lexer_is_registered_through_its_entry_point():
    assert isinstance(get_lexer_by_name("rules"), RulesLexer)
    assert isinstance(get_lexer_for_filename("wheeler.rules"), RulesLexer)


@pytest.mark.parametrize("path", SHIPPED, ids=ids(SHIPPED))
def test_pygments_reads_the_shipped_games_without_error_tokens(path):
    text = path.read_text("utf-8")
    tokens = list(get_lexer_by_name("rules").get_tokens(text))
    assert [v for t, v in tokens if t is Error] == []
    assert "".join(v for _, v in tokens) == (text if text.endswith("\n") else text + "\n")


def test_pygments_gives_each_part_of_a_line_its_kind():
    text = 'param starting_cash = $1,000   § "Each player take $1,000"\n' \
           "kind Lease:\n    state owner: player? = none\n"
    tokens = [(t, v) for t, v in get_lexer_by_name("rules").get_tokens(text) if v.strip()]
    assert tokens[:4] == [(Keyword.Declaration, "param"), (Name.Constant, "starting_cash"),
                          (tokens[2][0], "="), (Number, "$1,000")]
    assert (Keyword.Pseudo, "§") in tokens and (String.Doc, '"Each player take $1,000"') in tokens
    assert (Name.Class, "Lease") in tokens and (Keyword.Constant, "none") in tokens


def test_pygments_marks_what_is_not_the_language():
    tokens = list(get_lexer_by_name("rules").get_tokens(BROKEN.read_text("utf-8")))
    assert [v for t, v in tokens if t is Error] == ["'", "'"]


@pytest.mark.parametrize("path", DOCS, ids=ids(DOCS))
def test_the_rules_blocks_of_the_docs_highlight_without_error_tokens(path):
    """The docs' ```rules blocks, where `…` stands for elided text."""
    text = path.read_text("utf-8")
    for block in re.finditer(r"```rules\n(.*?)```", text, re.S):
        code = block.group(1).replace("…", "")
        errors = [v for t, v in get_lexer_by_name("rules").get_tokens(code) if t is Error]
        assert errors == [], f"{path.name}:{text.count(chr(10), 0, block.start()) + 1}"


# ---- TextMate ----------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def textmate():
    from textmate_grammar.parsers.base import LanguageParser
    parser = LanguageParser(json.loads(GRAMMAR.read_text("utf-8")))

    def tokens(text: str) -> list[tuple[tuple[int, int], str, list[str]]]:
        return parser.parse_string(text).flatten()
    return tokens


@pytest.mark.slow
@pytest.mark.parametrize("path", SHIPPED, ids=ids(SHIPPED))
def test_the_textmate_grammar_reads_the_shipped_games_without_illegal_tokens(textmate, path):
    text = path.read_text("utf-8")
    tokens = textmate(text)
    assert [t for t in tokens if any("invalid" in scope for scope in t[2])] == []
    # Every character but spaces has a scope of its own: nothing is left as plain `source.rules`.
    assert [t for t in tokens if t[1].strip() and len(t[2]) < 2] == []
    covered = sum(len(t[1]) for t in tokens if t[1].strip())
    assert covered >= len(re.sub(r"\s+", "", text))


def test_the_textmate_grammar_gives_each_part_of_a_line_its_scope(textmate):
    text = 'param starting_cash = $1,000   § "Each player take $1,000"\nkind Lease:\n    pay 10% of x rounded down from player to bank\n'
    scopes = {value: scope[-1] for _, value, scope in textmate(text) if value.strip()}
    assert scopes["param"] == "storage.type.rules"
    assert scopes["starting_cash"] == "variable.other.constant.rules"
    assert scopes["$1,000"] == "constant.numeric.money.rules"
    assert scopes["§"] == "keyword.other.citation.rules"
    assert scopes['"Each player take $1,000"'] == "string.quoted.double.citation.rules"
    assert scopes["Lease"] == "entity.name.type.rules"
    assert scopes["pay"] == "keyword.control.rules" and scopes["10%"] == "constant.numeric.percent.rules"
    assert scopes["of"] == "keyword.operator.word.rules" and scopes["bank"] == "storage.type.rules"


def test_the_textmate_grammar_marks_what_is_not_the_language(textmate):
    illegal = [t[1] for t in textmate(BROKEN.read_text("utf-8")) if any("invalid" in s for s in t[2])]
    assert illegal and all("'" in value for value in illegal)
