"""A Pygments lexer for .rules files, so that ```rules blocks (and `pygmentize x.rules`) are highlighted.

It is registered with Pygments through the `pygments.lexers` entry point (see pyproject.toml), so
once rulesc is installed, `pygments.lexers.get_lexer_by_name("rules")` finds it, and so do the
tools built on Pygments (Sphinx, MkDocs, rich). The words come from `rulesc.syntax`, shared with
the TextMate grammar. Anything the lexer does not know is an `Error` token; a test checks that the
shipped games have none.
"""

from __future__ import annotations

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import (Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Text,
                            Whitespace)

from . import syntax as S


class RulesLexer(RegexLexer):
    name = "Rules"
    aliases = ["rules", "rulesc"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-rules"]
    url = "https://pypi.org/project/rulesc/"

    tokens = {
        "root": [
            (r"[ \t\f]+", Whitespace),
            (r"\n", Whitespace),
            (r"\\\n", Text),
            (r"#.*?$", Comment.Single),
            (r"(§|\bcite\b)(\s*)(" + S.STRING + ")", bygroups(Keyword.Pseudo, Whitespace, String.Doc)),
            (r"\bassumed\b", Keyword.Pseudo),
            (r"\ballow\b", Keyword.Pseudo),
            (S.STRING, String.Double),
            (S.MONEY, Number),
            (r"[0-9]+%", Number),
            (r"[0-9]+\b", Number.Integer),
            (r"\b(" + "|".join(S.NAMED_TYPES) + r")(\s+)(" + S.NAME + r")\b",
             bygroups(Keyword.Declaration, Whitespace, Name.Class)),
            (r"\b(" + "|".join(S.NAMED_FUNCTIONS) + r")(\s+)(" + S.NAME + r")\b",
             bygroups(Keyword.Declaration, Whitespace, Name.Function)),
            (r"\b(" + "|".join(S.NAMED_CONSTANTS) + r")(\s+)(" + S.NAME + r")\b",
             bygroups(Keyword.Declaration, Whitespace, Name.Constant)),
            (words(S.CONSTANTS, suffix=r"\b"), Keyword.Constant),
            (words(S.OPERATOR_WORDS, suffix=r"\b"), Operator.Word),
            (words(S.DECLARATIONS, prefix=r"\b", suffix=r"\b"), Keyword.Declaration),
            (words(S.KEYWORDS, prefix=r"\b", suffix=r"\b"), Keyword),
            (words(S.TYPES, prefix=r"\b", suffix=r"\b"), Keyword.Type),
            (words(S.FUNCTIONS, prefix=r"\b", suffix=r"(?=\s*\()"), Name.Builtin),
            (words(S.BUILTIN_NAMES, prefix=r"\b", suffix=r"\b"), Name.Builtin),
            (S.NAME, Name),
            (S.OPERATORS, Operator),
            (S.PUNCTUATION, Punctuation),
            (r".", Error),
        ],
    }
