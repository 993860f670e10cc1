"""Parse .rules text into the AST, turning every syntax problem into a diagnostic.

The Lark LALR parser is made once per process (its tables cached between runs: `cache.py`).
The file is split at its top-level declarations (lines that start in column 1) and each
declaration is parsed on its own, so one syntax error does not hide the others: a run reports
every broken declaration. Nesting deeper than MAX_NESTING is refused before it can exhaust
the Python stack. Where a syntax error comes from a common slip (`=` for `==`, `&&`, `$10.50`,
a tab among spaces, a misspelt keyword), its help names the slip (slips.py).
"""

from __future__ import annotations

import functools
import re
from importlib import resources

import attrs
from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError
from lark.indenter import DedentError, Indenter

from . import ast, codes
from .cache import cached_parser
from .diagnostics import TAB_WIDTH, Diagnostic, RulesError, Span
from .fixes import fixes_of
from .slips import slip_hint
from .transform import ToAst
from .walk import walk_depth

MAX_NESTING = 64
# The AST may be deeper than the source's nesting (`a + b + c …` and `x.f.g …` nest without brackets);
# every later stage walks it recursively, so it is bounded too.
MAX_AST_DEPTH = 3 * MAX_NESTING


class NestingTooDeep(Exception):
    def __init__(self, token: Token):
        self.token = token


class RulesIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = TAB_WIDTH  # each tab adds 4 columns to a line's indentation (Lark's Indenter has no tab stops)

    def _process(self, stream):
        for token in super()._process(stream):
            if self.paren_level > MAX_NESTING or len(self.indent_level) > MAX_NESTING:
                raise NestingTooDeep(token)
            yield token

    def handle_NL(self, token: Token):
        try:
            yield from super().handle_NL(token)
        except DedentError as exc:
            # the newline run ends on the badly indented line: report that line (Lark's DedentError has no token)
            exc.token = token  # type: ignore[attr-defined]
            raise


PARSER_OPTIONS = {"parser": "lalr", "propagate_positions": True, "maybe_placeholders": True}


def build_parser(grammar: str | None = None) -> Lark:
    """The LALR parser of the grammar (`rules.lark` unless given), its tables loaded from the
    user's cache when they were built before (see `cache.py`)."""
    if grammar is None:
        grammar = resources.files(__package__).joinpath("rules.lark").read_text(encoding="utf-8")
    key = f"{grammar}\n{sorted(PARSER_OPTIONS.items())}\npostlex {RulesIndenter.__module__}.{RulesIndenter.__qualname__}"
    return cached_parser(key, lambda: Lark(grammar, postlex=RulesIndenter(), **PARSER_OPTIONS))


@functools.lru_cache(maxsize=1)
def _parser() -> Lark:
    return build_parser()


TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a number",
    "MONEY": "an amount like `$100`",
    "PERCENT": "a percentage like `10%`",
    "STRING": "a quoted string",
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the block",
    "$END": "the end of the file",
    "COMP_OP": "a comparison",
    "MUL_OP": "`*` or `/`",
}


def _describe_terminal(name: str) -> str:
    if name in TERMINAL_WORDS:
        return TERMINAL_WORDS[name]
    for term in _parser().terminals:
        if term.name == name:
            if term.pattern.type == "str":
                return f"`{term.pattern.value}`"
            break
    return name.lower()


def _describe_token(token: Token) -> str:
    if token.type == "$END":
        return "end of file"
    if token.type == "_NL":
        return "end of line"
    if token.type == "_INDENT":
        return "indentation"
    if token.type == "_DEDENT":
        return "end of block"
    text = str(token)
    if len(text) > 30:
        text = text[:27] + "..."
    return f"`{text}`"


# The keywords a statement starts with: when a statement may come, say "a statement" rather
# than list them all.
STATEMENT_WORDS = {"roll", "move", "send", "place", "pay", "set", "let", "draw", "discard", "give", "eliminate",
                   "end", "raise", "extra", "use", "play", "do", "window", "pass", "if", "for", "auction", "choose",
                   "put", "release", "split"}


def _expected_words(expected) -> str:
    words = {_describe_terminal(t) for t in expected if not t.startswith("__")}
    starts = {f"`{w}`" for w in STATEMENT_WORDS}
    if len(words & starts) >= 5:
        words = (words - starts) | {"a statement"}
    shown = sorted(words)
    if len(shown) > 12:
        shown = shown[:10] + ["..."]
    return ", ".join(shown)


def _span_of(token: Token, fallback_line: int) -> Span:
    line = getattr(token, "line", None) or fallback_line
    column = getattr(token, "column", None) or 1
    length = max(1, len(str(token))) if token.type not in ("_NL", "_INDENT", "_DEDENT", "$END") else 1
    if token.type == "_NL":
        # Point at the end of the line the newline token closes.
        return Span.point(line, column)
    end_line = getattr(token, "end_line", None)
    if token.type in ("_INDENT", "_DEDENT") and end_line:
        # These borrow the position of the newline before them; point at the line they indent.
        return Span.point(end_line, token.end_column or 1)
    return Span(line, column, line, column + length)


# What a variant can write after its first word (5.21): the help of a syntax error on such a line.
VARIANT_FORMS = {
    "replace": "`replace phase NAME …:`, `replace card Deck.Card …:`, `replace on EVENT [Target] [as NAME] …:`, "
               "`replace before turn …:` / `replace after turn …:`, `replace action NAME …:`",
    "remove": "`remove phase NAME`, `remove card Deck.Card`, `remove deck NAME`, `remove on EVENT [Target]`, "
              "`remove before turn` / `remove after turn`, `remove handler NAME`, `remove action NAME`, "
              "`remove row Kind.NAME`, `remove invariant \"text\"`, `remove end \"reason\"`, "
              "`remove param NAME`, `remove scenario \"title\"`",
    "override": "`override param NAME = value`, `override game \"title\"[:]`, `override table Kind:`, "
                "`override board:`",
    "insert": "`insert phase NAME [\"title\"] [when C] [optional] after OTHER:` (or `before OTHER`)",
    "extend": "`extend deck NAME:`",
}


# Syntax the language reference designs but the grammar does not build yet (docs/language.md marks it
# **designed**): a syntax error on a line written so says that, and what to write today (R0107).
# (a pattern the line matches, the form, its section, what to write instead)
DESIGNED = (
    (r"^\s*skip\s+next\s+turn\b", "`skip next turn of P`", "5.12",
     "a `status` with its own turn (`put P in S`, its phases `release P`), or a counter and a `before turn` hook "
     "that ends the turn"),
    (r"\bthen\s+ious\b", "`bank … then ious`", "5.3", "`bank unlimited` (IOUs count as cash)"),
    (r"^\s*roll\b[^#]*\bfor\b[^#]*\bas\b", "`roll N dice for P as d`", "8.1",
     "`roll N dice as d` in a rule run for P (`player`)"),
    (r"^\s*card\b[^#]*\bdiscardable\b", "the card flag `discardable`", "5.11", "`discard card C from P` in a rule"),
    (r"^\s*card\b[^#]*\btradable\s+on\s+draw\b", "the card flag `tradable on draw`", "5.11",
     "`tradable [when COND]` on a kept card"),
    (r"^\s*card\b[^#]*\buse\s+when\b", "the card flag `use when`", "5.11",
     "`use card by P` in the phase where it may be used"),
    (r"^\s*choose\b[^#]*\bfor\b[^#]*\boptional\s*:", "an `optional` `choose … for`", "8.2",
     "`choose \"…\" by P:` with an option that does nothing (`pass`) before it"),
)


def _designed(diag: Diagnostic, line: str) -> Diagnostic:
    """R0107 for a syntax error on a line that writes designed, unbuilt syntax."""
    for pattern, form, section, instead in DESIGNED:
        if re.search(pattern, line):
            return codes.DESIGNED_NOT_BUILT.diagnostic(
                f"{form} is designed but not built yet (docs/language.md {section})", diag.path, diag.span,
                help=f"today write {instead}")
    return diag


def _syntax_diagnostic(exc: Exception, path: str, last_line: int, first: tuple | None = None,
                       text: str = "", chunk: str = "") -> Diagnostic:
    """The diagnostic of a syntax error in `chunk`, one declaration of `text` (padded with blank lines to
    its place, so that positions in it are positions in the file)."""
    diag = _syntax_diagnostic_plain(exc, path, last_line)
    span = diag.span
    assert span is not None  # every syntax error is placed (`_syntax_diagnostic_plain`)
    lines = text.splitlines()
    if diag.code == codes.UNEXPECTED_TOKEN.code and 0 < span.line <= len(lines):
        designed = _designed(diag, lines[span.line - 1])
        if designed is not diag:
            diag = designed
    hint = None if diag.code == codes.DESIGNED_NOT_BUILT.code else slip_hint(
        exc, diag, lines, chunk, _accepted(exc) if isinstance(exc, UnexpectedToken) else set(), _parser())
    if hint is not None:
        diag = attrs.evolve(diag, help=str(hint), fixes=fixes_of(hint, diag.span))
    elif diag.code == codes.UNEXPECTED_TOKEN.code and 0 < span.line <= len(lines):
        diag = _block_header(diag, lines[span.line - 1])
    if first is not None and first[1] in VARIANT_FORMS and span.line == first[0]:
        today = f"{diag.help}; " if diag.code == codes.DESIGNED_NOT_BUILT.code or hint is not None else ""
        diag = attrs.evolve(diag, help=f"{today}a variant can write {VARIANT_FORMS[first[1]]} (docs/language.md 5.21)")
    return diag


BLOCK_HEADERS = ("global", "player", "board", "turn")  # declarations that are a bare `WORD:` and a block


def _block_header(diag: Diagnostic, line: str) -> Diagnostic:
    """`global pot: money = $0` on one line: these declarations are a word and `:`, what they declare
    indented below; say so with the line rewritten, rather than only that a `:` was expected."""
    words = line.strip().split(None, 1)
    if len(words) < 2 or words[0] not in BLOCK_HEADERS or line[:1].isspace() or words[1].startswith(":"):
        return diag
    return attrs.evolve(diag, help=f"`{words[0]}` opens a block: write `{words[0]}:` on its own line, then "
                                   f"what it declares indented below it: `    {words[1].split('#')[0].strip()}`")


def _accepted(exc: UnexpectedToken) -> set[str]:
    """The terminals the parser accepts where it failed. `exc.expected` is LALR's merged lookahead set
    (or, from the contextual lexer, what it could lex, which never includes `_INDENT`); the interactive
    parser, where there is one, says what it really accepts here."""
    if getattr(exc, "interactive_parser", None) is not None:
        return exc.interactive_parser.accepts() or set(exc.expected)
    return set(exc.expected)


def _syntax_diagnostic_plain(exc: Exception, path: str, last_line: int) -> Diagnostic:
    if isinstance(exc, UnexpectedToken):
        token = exc.token
        help = None
        expected = _accepted(exc)
        if token.type == "_INDENT":
            help = "this line is indented more than the one before it; only a line ending in `:` opens a block"
        elif "_INDENT" in expected and token.type != "_INDENT":
            help = "a line ending in `:` must be followed by an indented block"
        elif "COLON" in expected:
            help = "blocks open with `:` at the end of the line"
        return codes.UNEXPECTED_TOKEN.diagnostic(
            f"unexpected {_describe_token(token)}; expected {_expected_words(expected)}", path,
            _span_of(token, last_line), help=help)
    if isinstance(exc, UnexpectedCharacters):
        char = exc.char
        help = None
        if char == "'":
            help = 'strings use double quotes: "like this"'
        elif char == "\t":
            help = "indent with spaces"
        elif char == '"':
            help = 'this string has no closing `"` on its line'
        return codes.UNEXPECTED_CHARACTER.diagnostic(f"unexpected character `{char}`", path,
                                                     Span.point(exc.line, exc.column), help=help)
    if isinstance(exc, UnexpectedEOF):
        return codes.UNEXPECTED_TOKEN.diagnostic(
            f"unexpected end of file; expected {_expected_words(exc.expected)}", path, Span.point(last_line, 1))
    if isinstance(exc, DedentError):
        token = getattr(exc, "token", None)  # the line's newline (`RulesIndenter.handle_NL`)
        end_line = getattr(token, "end_line", None)
        span = Span.point(end_line, getattr(token, "end_column", None) or 1) if end_line else Span.point(last_line, 1)
        return codes.UNMATCHED_INDENTATION.diagnostic(
            "this line's indentation matches no enclosing block", path, span,
            help="indent it to the same column as a line above it")
    raise exc


_TOP_LEVEL = re.compile(r"^[^\s#]", re.MULTILINE)


def split_declarations(text: str) -> list[tuple[int, str]]:
    """Split source at lines starting in column 1; returns (first line number, chunk)."""
    starts = [m.start() for m in _TOP_LEVEL.finditer(text)]
    if not starts:
        return [(1, text)]
    if starts[0] != 0:
        starts[0] = 0
    chunks = []
    for i, start in enumerate(starts):
        end = starts[i + 1] if i + 1 < len(starts) else len(text)
        line = text.count("\n", 0, start) + 1
        chunks.append((line, text[start:end]))
    return chunks


def _too_deep(node, limit: int):
    """The first AST node found deeper than `limit`, or None."""
    for found, depth in walk_depth(node, into=lambda _n: True):
        if depth > limit:
            return found
    return None


def parse_text(text: str, path: str = "<string>") -> ast.RulesFile:
    """Parse source text; raise RulesError with every syntax error found."""
    diags: list[Diagnostic] = []
    decls: list = []
    transformer = ToAst(path)
    for first_line, chunk in split_declarations(text):
        if not chunk.endswith("\n"):
            chunk += "\n"
        padded = "\n" * (first_line - 1) + chunk
        last_line = first_line + chunk.count("\n")
        try:
            tree = _parser().parse(padded)
            try:
                new = transformer.transform(tree)
            except VisitError as exc:  # Lark wraps what a transformer method raises
                raise exc.orig_exc from None
            deep = _too_deep(new, MAX_AST_DEPTH)
            if deep is not None:
                span = getattr(deep, "span", None)
                diags.append(codes.NESTING_TOO_DEEP.diagnostic(
                    f"this expression is nested too deeply (more than {MAX_AST_DEPTH} levels)", path,
                    span if span and span.line >= 1 else Span.point(first_line, 1),
                    help="split it with `let` names or parameters"))
                continue
            decls.extend(new)
        except NestingTooDeep as exc:
            diags.append(codes.NESTING_TOO_DEEP.diagnostic(
                f"nesting is too deep (more than {MAX_NESTING} levels)", path, _span_of(exc.token, last_line),
                help="split the expression or block with `let` names"))
        except RecursionError:
            diags.append(codes.NESTING_TOO_DEEP.diagnostic(
                "nesting is too deep to parse", path, Span.point(first_line, 1),
                help="split the expression with `let` names"))
        except (UnexpectedInput, DedentError) as exc:
            words = chunk.split(None, 1)
            diags.append(_syntax_diagnostic(exc, path, last_line, (first_line, words[0] if words else ""), text,
                                            padded))
        except RulesError as exc:
            diags.extend(exc.diagnostics)
    if diags:
        raise RulesError(diags)
    end = text.count("\n") + 1
    return ast.RulesFile(path=path, source=text, decls=tuple(decls), span=Span(1, 1, end, 1, path))
