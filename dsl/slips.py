"""Hints for the slips users commonly make, behind a syntax error (parser.py asks for them).

Where the parser's own help only says what the grammar wanted there, each names the slip: `=` for
`==`, `&&` for `and`, `$10.50` for money, a tab among spaces, a misspelt keyword. The message, the
code and the span stay those of the error; only its help changes. A fix is offered only where,
put in the slip's place, it makes the line read (the chunk is parsed again with it).
"""

from __future__ import annotations

import difflib
import functools
import re
from typing import cast

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError

from .diagnostics import TAB_WIDTH, Diagnostic, Span
from .fixes import Help
from .typecheck import nearest_hint

DECIMAL_MONEY = re.compile(r"\$[0-9,]*\.[0-9]+")
# `&&`, `&`, `||` and a `!` before an operand (`!=` is a comparison and lexes as one); a lone `|` may be a
# table drawn with bars, so it gets no hint.
C_OPERATOR = re.compile(r"&&?|\|\||!(?=\s*[A-Za-z_(])")
C_OPERATOR_WORDS = {"&": "and", "|": "or", "!": "not"}


@functools.lru_cache(maxsize=1)
def _keywords(parser: Lark) -> dict[str, str]:
    """The grammar's keyword terminals and their words (`LAND` -> `land`)."""
    return {t.name: t.pattern.value for t in parser.terminals
            if t.pattern.type == "str" and t.pattern.value.isidentifier()}


def _error_offset(exc: Exception, end: int) -> int:
    """Where in the text a parse failed; `end` when the error carries no place (a recursion too deep).
    An error in a line's indentation is placed at the line's first word: its tokens (and the newline
    a DedentError carries, see parser.RulesIndenter) start at the newline before it."""
    token = getattr(exc, "token", None)
    if isinstance(exc, DedentError) or getattr(token, "type", None) in ("_INDENT", "_DEDENT"):
        pos = getattr(token, "end_pos", None)
    elif isinstance(exc, UnexpectedInput):
        pos = exc.pos_in_stream
    else:  # parser.NestingTooDeep carries the token it stopped at
        pos = getattr(token, "start_pos", None)
    return end if pos is None or pos < 0 else pos


def _mends(parser: Lark, chunk: str, token: Token, replacement: str) -> bool:
    """Whether the parser, reading `replacement` for `token`, reads the token's line to its end. A fix is
    suggested only where it mends the line: `player.cash = $5` (its `set` forgotten) lexes as `play er.cash
    = $5`, and `==` there gets further but still fails at the end of the line, so `==` is not offered."""
    assert token.start_pos is not None and token.end_pos is not None  # a token the lexer read, in place
    return _reads_with(parser, chunk, token.start_pos, token.end_pos, replacement)


def _reads_with(parser: Lark, chunk: str, start: int, end: int, replacement: str) -> bool:
    """Whether the parser, reading `replacement` for `chunk[start:end]`, reads that line to its end."""
    fixed = chunk[:start] + replacement + chunk[end:]
    line_end = fixed.find("\n", start)
    try:
        parser.parse(fixed)
    except Exception as exc:  # noqa: BLE001 - however the parse fails, where it stopped is what tells
        return line_end < 0 or _error_offset(exc, len(fixed)) > line_end
    return True


def _indentation(line: str) -> str:
    """A line's leading spaces and tabs: what the indenter measures."""
    return line[:len(line) - len(line.lstrip(" \t"))]


def _columns(indent: str) -> int:
    """The width the indenter gives an indentation: Lark's `Indenter` adds `tab_len` columns for each tab
    wherever it stands (no tab stops), so `\t` is 4 columns and ` \t` is 5."""
    return indent.count(" ") + indent.count("\t") * TAB_WIDTH


def _spelled(indent: str) -> str:
    """An indentation in words: `a tab`, `8 spaces`, `2 tabs and a space`, `no indentation`."""
    parts = []
    for char, one, many in (("\t", "a tab", "tabs"), (" ", "a space", "spaces")):
        count = indent.count(char)
        if count:
            parts.append(one if count == 1 else f"{count} {many}")
    return " and ".join(parts) or "no indentation"


def _previous_code_line(lines: list[str], number: int) -> int | None:
    """The number of the last line before line `number` with code on it: the indenter measures a line
    against that one, skipping blank and comment lines."""
    for before in range(number - 1, 0, -1):
        stripped = lines[before - 1].strip()
        if stripped and not stripped.startswith("#"):
            return before
    return None


def _is_indentation_error(exc: Exception, accepted: set[str]) -> bool:
    """Whether the parser failed on a line's indentation: deeper than allowed, back to no block's
    column, or not indented where a block must start."""
    if isinstance(exc, DedentError):
        return True
    return isinstance(exc, UnexpectedToken) and (exc.token.type in ("_INDENT", "_DEDENT") or "_INDENT" in accepted)


def _tab_hint(exc: Exception, accepted: set[str], lines: list[str], number: int) -> str | None:
    """Indentation that mixes tabs and spaces can look aligned in an editor (which shows a tab 8 wide, or
    to the next tab stop) and not be to the indenter, which counts a tab as 4 columns: an indentation
    error on such a line, or on the line after one, says so with each line's width as counted."""
    if not _is_indentation_error(exc, accepted) or not 0 < number <= len(lines):
        return None
    here = _indentation(lines[number - 1])
    before = _previous_code_line(lines, number)
    there = _indentation(lines[before - 1]) if before else ""
    if "\t" not in here + there:
        return None
    if before is None:
        widths = f"this line is indented {_columns(here)} columns ({_spelled(here)})"
    else:
        widths = (f"line {before} is indented {_columns(there)} columns ({_spelled(there)}) and this line "
                  f"{_columns(here)} ({_spelled(here)})")
    return f"a tab counts as {TAB_WIDTH} columns: {widths}; indent with spaces only"


def _decimal_money_hint(line: str, column: int) -> str | None:
    """`$10.50` lexes as `$10`, `.` and `50`, so the error names the `.` or the `50` (or, for `$.50`, the
    `$`): say that money has no cents, in the words of the reference."""
    for found in DECIMAL_MONEY.finditer(line):
        if found.start() <= column - 1 < found.end():
            return (f"`{found.group()}` is not money: money is whole units of the currency "
                    "(docs/language.md 2: \"`$100.00` is not money: write `$100`\")")
    return None


def _c_operator_hint(exc: Exception, chunk: str) -> str | None:
    """`&&`, `||` and `!` are no characters of the language: whoever writes them means `and`, `or`, `not`."""
    if not isinstance(exc, UnexpectedCharacters):
        return None
    found = C_OPERATOR.match(chunk, cast(int, exc.pos_in_stream))  # where lexing stopped (Lark declares it None)
    if found is None:
        return None
    word = C_OPERATOR_WORDS[found.group()[0]]
    before = "" if chunk[found.start() - 1:found.start()].isspace() or found.start() == 0 else " "
    after = "" if chunk[found.end():found.end() + 1].isspace() else " "
    return Help(f"write `{word}` for `{found.group()}`: conditions combine with `and`, `or` and `not`",
                found.group(), [before + word + after])


def _comparison_hint(exc: Exception, chunk: str, parser: Lark) -> str | None:
    """`if a = b:`: a single `=` where `==` would make the line read. The parser has already closed the
    expression before the `=` (one may be followed by `=`, in `set x = …`), so what it accepts there no
    longer tells that a comparison could come (it says it expected `:`); trying `==` in its place does."""
    if isinstance(exc, UnexpectedToken) and exc.token.type == "EQUAL" and _mends(parser, chunk, exc.token, "=="):
        return Help("to compare, write `==`; a single `=` gives a value (`set x = …`, `let x = …`, `param x = …`)",
                    "=", ["=="])
    return None


def _keyword_hint(exc: Exception, accepted: set[str], chunk: str, parser: Lark) -> str | None:
    """A name where the grammar wants a keyword (`on lnad Tax:`, `pya $10 …`) is most often a misspelt
    keyword: offer the nearest of the keywords accepted there, as a misspelt name is offered the nearest
    names (`typecheck.nearest_hint`), and only those that mend the line."""
    if not isinstance(exc, UnexpectedToken) or exc.token.type != "NAME":
        return None
    keywords = _keywords(parser)
    near = difflib.get_close_matches(str(exc.token), [keywords[t] for t in accepted if t in keywords],
                                     n=3, cutoff=0.6)
    mending = [word for word in near if _mends(parser, chunk, exc.token, word)]
    hint = nearest_hint(str(exc.token), mending)
    return hint and Help(hint, str(exc.token), mending)  # each mends the line: no near guess


def _bluffing_hint(line: str, column: int) -> str | None:
    """`bluffing as sale:`: an auction's `bluffing` names its highest bid, which the rules must give
    (the engine sets none of its own)."""
    if re.search(r"\bbluffing\s*$", line[:column - 1]):
        return ("write the highest bid a bidder may make: `bluffing up to EXPR` (`bidder` names him, "
                "`bluffing up to bidder.cash * 2`); mark a limit the rulebook does not give `assumed`")
    return None


ASSIGNMENT = re.compile(r"[ \t]*[A-Za-z_]\w*(?:\.\w+)*[ \t]*=(?!=)")  # `player.cash = …`: a value given


def _set_hint(line_number: int, chunk: str, parser: Lark) -> str | None:
    """A line that gives a value with no statement word (`player.cash = $5`, its `set` forgotten) fails
    wherever the lexer went astray (`player` read as the keyword `play` and `er`): offer `set` where it
    makes the line read."""
    starts = [0, *(i + 1 for i, char in enumerate(chunk) if char == "\n")]
    if not 0 < line_number <= len(starts) or not ASSIGNMENT.match(chunk, starts[line_number - 1]):
        return None
    start = starts[line_number - 1]
    indent = len(chunk[start:]) - len(chunk[start:].lstrip(" \t"))
    if _reads_with(parser, chunk, start + indent, start + indent, "set "):
        target = chunk[start + indent:chunk.index("=", start + indent)].rstrip()
        column = indent + 1
        return Help("to change a value, write `set` before it: `set NAME = VALUE`", target, [f"set {target}"],
                    Span(line_number, column, line_number, column + len(target)))
    return None


def slip_hint(exc: Exception, diag: Diagnostic, lines: list[str], chunk: str, accepted: set[str],
              parser: Lark) -> str | None:
    """The help for the first recognised slip behind this syntax error in `chunk` (a declaration of the
    file whose `lines` are given, padded to its place), or None; `accepted` are the terminals the
    parser accepted where it failed, `parser` reads a mended chunk again."""
    span = diag.span
    if span is None:  # a syntax error is always placed; without a place there is no line to read
        return None
    line = lines[span.line - 1] if 0 < span.line <= len(lines) else ""
    return (_tab_hint(exc, accepted, lines, span.line) or _decimal_money_hint(line, span.column)
            or _c_operator_hint(exc, chunk) or _comparison_hint(exc, chunk, parser)
            or _keyword_hint(exc, accepted, chunk, parser) or _set_hint(span.line, chunk, parser)
            or _bluffing_hint(line, span.column))
