"""What an editor asks about a rules file, answered from the checker's own data.

The language server (`rulesc/lsp.py`) is a thin layer over this module, which knows nothing of
the Language Server Protocol: positions here are the spans' own 1-based lines and columns (in
characters). Every answer comes from the parsed and checked program (`check_program`), so the
editor sees exactly what `rulesc check` sees:

- `analyse(text, path)`: the diagnostics of a buffer (resolving `extends` relative to `path`),
  and the checked program for the questions below;
- `declarations(analysis)`: every declared name with what it is, its type, where it is declared
  (in a variant, perhaps in its base) and the rulebook passage it cites;
- `hover`, `definition`, `completions`, `outline`.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import attrs

from rulesc.dsl import ast, codes, variants
from rulesc.dsl import builtins as B
from rulesc.dsl import types as T
from rulesc.dsl.checker import Checked, check_program
from rulesc.dsl.model import rule_roots
from rulesc.dsl.typecheck import TypeChecker
from rulesc.dsl.diagnostics import RulesError, Span
from rulesc.dsl.parser import _parser, parse_text, split_declarations
from rulesc.dsl.source import MAX_BYTES, decode_source
from rulesc.dsl.walk import walk

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


# ---- loading a buffer ---------------------------------------------------------------------------------

def load_text(text: str, path: str) -> ast.RulesFile:
    """`variants.load_file` for a buffer that is not saved: the text is the file at `path`, and an
    `extends` is resolved relative to it, from disk. The buffer gets the checks a file gets when it
    is read (too large, binary, empty)."""
    data = text.encode("utf-8", errors="surrogatepass")
    if len(data) > MAX_BYTES:
        raise RulesError([codes.FILE_TOO_LARGE.diagnostic(
            f"file is too large ({len(data):,} bytes; the limit is {MAX_BYTES:,})", path,
            help="a rules file is text written by hand")])
    decode_source(data, path)
    return variants.resolve(parse_text(text, path), path)


def same_file(a: str | None, b: str | None) -> bool:
    if not a or not b:
        return False
    try:
        return Path(a).resolve() == Path(b).resolve()
    except OSError:
        return a == b


@attrs.define
class Analysis:
    """A buffer's diagnostics and, when it parsed, the checked program (its base's declarations too)."""

    path: str
    text: str
    diagnostics: list  # of Diagnostic, in this file (a base's problems are summed up on `extends`)
    rules: ast.RulesFile | None = None
    checked: Checked | None = None
    _cache: dict = attrs.field(factory=dict, repr=False, eq=False)  # worked out once per analysis


def analyse(text: str, path: str) -> Analysis:
    try:
        rules = load_text(text, path)
    except RulesError as exc:
        return Analysis(path, text, _own(exc.diagnostics, path, text))
    checked = check_program(rules)
    return Analysis(path, text, _own(checked.diagnostics, path, text), rules, checked)


def _own(diagnostics: list, path: str, text: str) -> list:
    """The diagnostics in this file; those in other files (a variant's base) as one on its `extends`."""
    own = [d for d in diagnostics if same_file(d.path, path) or not d.path]
    others = [d for d in diagnostics if d not in own]
    if others:
        line = next((i for i, s in enumerate(text.splitlines(), 1) if s.startswith("extends")), 1)
        errors = [d for d in others if d.is_error]
        first = (errors or others)[0]
        where = f"{first.path}:{first.span.line}:{first.span.column}" if first.span else first.path
        own.append(codes.lookup(first.code).diagnostic(  # an error if the base has one, else its first warning
            f"the base has {len(others)} problem{'s' if len(others) > 1 else ''}; the first: {first.message}", path,
            Span(line, 1, line, len(_line(text, line)) + 1), notes=(f"at {where}",)))
    return own


def _line(text: str, line: int) -> str:
    lines = _lines(text)
    return lines[line - 1] if 1 <= line <= len(lines) else ""


@functools.lru_cache(maxsize=8)
def _lines(text: str) -> tuple[str, ...]:
    """The lines of a text an editor asks about, split once: it asks word by word (a string keeps its
    hash, so finding them again costs nothing like splitting a large file at each question)."""
    return tuple(text.splitlines())


# ---- declarations -------------------------------------------------------------------------------------

@attrs.frozen
class Decl:
    """A declared name: what it is, its type, where its name is written, and what it cites."""

    name: str
    what: str  # "parameter", "kind", "field of `K`", "a `K`" (a row of its table), ...
    type: str | None
    file: str
    span: Span  # of the name itself
    cite: str | None = None
    assumed: str | None = None  # the note of an `assumed` (or "" for a bare one); None: not assumed
    source_line: str = ""


def _meta(node) -> tuple[str | None, str | None]:
    meta = getattr(node, "meta", None)
    if meta is None:
        return None, None
    return meta.cite, (meta.assumed_note or "") if meta.assumed else None


def _name_span(sources: dict, span: Span, name: str, default_file: str) -> Span:
    """The span of `name` written on the first line of a declaration; for a name the declaration does not
    write (a generated row, a grid's square) what of it is on that line."""
    file = span.file or default_file
    line = _line(sources.get(file, ""), span.line)
    for m in WORD.finditer(line, max(0, span.column - 1)):
        if m.group() == name:
            return Span(span.line, m.start() + 1, span.line, m.end() + 1, file)
    end = span.end_column if span.end_line == span.line else len(line) + 1
    return Span(span.line, span.column, span.line, max(end, span.column + 1), file)


def declarations(analysis: Analysis) -> dict[str, list[Decl]]:
    """Every declared name of the program (a variant's base's too), each with its declarations."""
    if "declarations" not in analysis._cache:
        analysis._cache["declarations"] = _declarations(analysis)
    return analysis._cache["declarations"]


def _declarations(analysis: Analysis) -> dict[str, list[Decl]]:
    if analysis.checked is None:
        return {}
    p = analysis.checked.program
    types = analysis.checked.types
    sources = dict(p.sources)
    sources.setdefault(analysis.path, analysis.text)
    out: dict[str, list[Decl]] = {}

    def add(name, what, type_, node_span, node=None, cite=None, assumed=None):
        if node is not None:
            c, a = _meta(node)
            cite, assumed = cite or c, assumed if assumed is not None else a
        span = _name_span(sources, node_span, name, p.path)
        out.setdefault(name, []).append(Decl(name, what, type_, span.file, span, cite, assumed,
                                             _line(sources.get(span.file, ""), node_span.line).strip()))

    for name, param in p.params.items():
        t = types.get(id(param.value))
        add(name, "parameter", str(t) if t else None, param.span, param)
    for f in p.player_fields.values():
        add(f.name, "field of every player", _type_text(f.type), f.span, f)
    for f in p.global_fields.values():
        add(f.name, "global", _type_text(f.type), f.span, f)
    for kind in p.kinds.values():
        add(kind.name, "kind", None, kind.span, kind)
        for f in kind.fields:
            add(f.name, f"{'state ' if f.is_state else ''}field of `{kind.name}`", _type_text(f.type), f.span, f)
    for group in p.groups.values():
        add(group.name, f"group of `{group.kind}`", None, group.span, group)
    for thing in p.things.values():
        assumed = ", ".join(thing.assumed) if thing.assumed else None
        add(thing.name, f"a `{thing.kind}`", thing.kind, thing.span, cite=thing.cite, assumed=assumed)
    for square in p.squares.values():
        title = f" \"{square.title}\"" if square.title else ""
        add(square.name, f"square{title}", "square", square.span, square)
    for deck in p.decks.values():
        add(deck.name, f"deck ({deck.policy}, {len(deck.cards)} cards)", "deck", deck.span, deck)
        for card in deck.cards:
            title = f" \"{card.title}\"" if card.title else ""
            add(card.name, f"card{title} in deck `{deck.name}`", "card", card.span, card.body)
    if p.turn is not None:
        for phase in p.turn.phases:
            title = f" \"{phase.title}\"" if phase.title else ""
            add(phase.name, f"phase{title} of the turn", None, phase.span, phase.body)
    for supply in p.supplies.values():
        add(supply.name, f"supply of the bank's pieces on `{supply.kind}.{supply.field}`", "supply", supply.span, supply)
    for status in p.statuses.values():
        title = f" \"{status.title}\"" if status.title else ""
        add(status.name, f"status{title}, with its own turn", "status", status.span, status)
        for phase in status.phases:
            title = f" \"{phase.title}\"" if phase.title else ""
            add(phase.name, f"phase{title} of the turn in `{status.name}`", None, phase.span, phase.body)
    for action in p.actions.values():
        param = f"({action.param.name}: {' or '.join(action.param.kinds)})" if action.param else ""
        add(action.name, f"action{param}, {action.timing}", None, action.span, action.body)
    for define in p.defines.values():
        add(define.name, "function", None, define.span, define)
    for proc in p.procedures.values():
        add(proc.name, "procedure", None, proc.span, proc)
    for hint in p.hints.values():
        add(hint.name, "hint for the heuristic agent", None, hint.span, hint)
    return out


def _type_text(ref: ast.TypeRef) -> str:
    if ref.is_list:
        return f"[{_type_text(ref.element)}]" + ("?" if ref.optional else "")
    return ref.name + ("?" if ref.optional else "")


BUILTIN_DOCS = {
    **{name: f"built-in: `{name}: {t}`" for name, t in B.GLOBAL_NAMES.items()},
    B.PLAYER: "built-in: the player the rule runs for (`player`)",
    **{name: f"built-in in `on debt`: `{name}: {t}`" for name, t in B.DEBT_NAMES.items()},
    **{name: f"built-in in a `trade`'s `when`: `{name}: {t}`" for name, t in B.TRADE_NAMES.items()},
    **{name: f"built-in in an auction's `bluffing up to`: `{name}: {t}`, each bidder in turn"
       for name, t in B.BID_NAMES.items()},
    **{name: f"built-in in `on land` and `on pass`: `{name}: {t}`, the roll that moved the token"
       for name, t in B.MOVE_NAMES.items()},
    **{name: f"built-in function `{name}(…)`" for name in B.FUNCTIONS},
    **{name: f"built-in aggregate `{name}(x in …: …)`" for name in B.AGGREGATES if name not in B.FUNCTIONS},
    **{name: f"built-in type `{name}`" for name in sorted(B.BUILTIN_TYPES)},
    **{name: f"player field kept by the engine: `{name}: {t}`" for name, t in B.PLAYER_FIELDS.items()},
}


# ---- what is under the cursor ------------------------------------------------------------------------

def word_at(text: str, line: int, column: int) -> tuple[str, Span] | None:
    """The name at (1-based) line and column, with its span, or None."""
    s = _line(text, line)
    for m in WORD.finditer(s):
        if m.start() < column <= m.end() + 1 and (m.start() + 1 <= column <= m.end() or column == m.end() + 1):
            if _in_comment_or_string(s, m.start()):
                return None
            return m.group(), Span(line, m.start() + 1, line, m.end() + 1)
    return None


def _in_comment_or_string(line: str, index: int) -> bool:
    quoted = False
    for i, ch in enumerate(line[:index]):
        if ch == '"':
            quoted = not quoted
        elif ch == "#" and not quoted:
            return True
    return quoted


def _contains(span: Span, line: int, column: int) -> bool:
    return (span.line, span.column) <= (line, column) < (span.end_line, span.end_column) or \
        (span.line == span.end_line == line and span.column <= column <= span.end_column)


def expression_at(analysis: Analysis, line: int, column: int):
    """The innermost name or field access (`Name`, `Attr`) of this file at the position, or None."""
    if analysis.rules is None:
        return None
    if "names" not in analysis._cache:  # this file's names and field accesses, by line
        by_line: dict[int, list] = {}
        own = [d for d in analysis.rules.decls if same_file(d.span.file or analysis.path, analysis.path)]
        for node in walk(tuple(own)):
            if isinstance(node, (ast.Name, ast.Attr)):
                for n in range(node.span.line, node.span.end_line + 1):
                    by_line.setdefault(n, []).append(node)
        analysis._cache["names"] = by_line
    best = None
    for node in analysis._cache["names"].get(line, ()):
        if _contains(node.span, line, column):
            if isinstance(node, ast.Attr):  # only the field's own name: `x.f` at `f`
                end = node.span.end_column
                if not (node.span.end_line == line and end - len(node.name) <= column <= end):
                    continue
            if best is None or (node.span.line, node.span.column) >= (best.span.line, best.span.column):
                best = node
    return best


def _lookup(analysis: Analysis, name: str, node) -> list[Decl]:
    decls = declarations(analysis).get(name, [])
    if isinstance(node, ast.Attr) and analysis.checked is not None:
        owner = analysis.checked.types.get(id(node.obj))
        kind = owner.element.name if owner is not None and owner.is_list and owner.element else \
            owner.name if owner is not None else None
        fields = [d for d in decls if d.what.endswith(f"field of `{kind}`")]
        if kind == "player":
            fields = [d for d in decls if d.what == "field of every player"]
        if fields:
            return fields
        return [d for d in decls if "field" in d.what] or decls
    if node is not None and isinstance(node, ast.Name):
        not_fields = [d for d in decls if "field of `" not in d.what]
        return not_fields or decls
    return decls


def hover(analysis: Analysis, line: int, column: int) -> tuple[str, Span] | None:
    """Markdown for the name at the position: its declaration, type and citation."""
    found = word_at(analysis.text, line, column)
    if found is None:
        return None
    name, span = found
    node = expression_at(analysis, line, column)
    t = analysis.checked.types.get(id(node)) if node is not None and analysis.checked is not None else None
    decls = _lookup(analysis, name, node)
    parts = []
    for d in decls[:3]:
        text = [f"```rules\n{d.source_line}\n```", f"**`{name}`**: {d.what}"]
        shown = str(t) if t is not None else d.type
        if shown:
            text.append(f"type: `{shown}`")
        if d.cite:
            text.append(f'§ "{d.cite}"')
        if d.assumed is not None:
            text.append("assumed" + (f": {d.assumed}" if d.assumed else ""))
        if not same_file(d.file, analysis.path):
            text.append(f"declared in `{Path(d.file).name}` line {d.span.line}")
        parts.append("\n\n".join(text))
    if not parts:
        if name in BUILTIN_DOCS:
            parts.append(BUILTIN_DOCS[name])
        elif t is not None:
            parts.append(f"**`{name}`**: `{t}`")
    said = _line_meta(analysis, line)
    if said is not None and not any(said in part for part in parts):
        parts.append(said)
    if not parts:
        return None
    return "\n\n---\n\n".join(parts), span


def _line_meta(analysis: Analysis, line: int) -> str | None:
    """What the rule or statement written on `line` says of itself: its citation (the rulebook's words)
    and its `assumed` mark, for a hover on its keywords (`pay`, `on land …`), where no name is declared."""
    if analysis.rules is None:
        return None
    if "meta" not in analysis._cache:  # each line's last rule or statement that says something of itself
        by_line: dict[int, ast.Meta] = {}
        mine: dict = {}  # file -> whether it is this one

        def in_this_file(file: str) -> bool:
            if file not in mine:
                mine[file] = same_file(file, analysis.path)
            return mine[file]

        for node in walk(tuple(analysis.rules.decls)):
            span = getattr(node, "span", None)
            if span is None or not in_this_file(span.file or analysis.path):
                continue
            meta = getattr(node, "meta", None)
            body = getattr(node, "body", None)
            if not isinstance(meta, ast.Meta) or not (meta.cite or meta.assumed):
                meta = body.meta if isinstance(body, ast.Block) else None
            if isinstance(meta, ast.Meta) and (meta.cite or meta.assumed):
                by_line[span.line] = meta
        analysis._cache["meta"] = by_line
    best = analysis._cache["meta"].get(line)
    if best is None:
        return None
    text = []
    if best.cite:
        text.append(f'§ "{best.cite}"')
    if best.assumed:
        text.append("assumed" + (f": {best.assumed_note}" if best.assumed_note else ""))
    return "\n\n".join(text)


def definition(analysis: Analysis, line: int, column: int) -> list[Decl]:
    """Where the name at the position is declared (in a variant's base, too)."""
    found = word_at(analysis.text, line, column)
    if found is None:
        return []
    node = expression_at(analysis, line, column)
    return _lookup(analysis, found[0], node)


# ---- completion ---------------------------------------------------------------------------------------

@functools.lru_cache(maxsize=1)
def keywords() -> tuple[str, ...]:
    """Every word of the language, read from its grammar."""
    words = set()
    for term in _parser().terminals:
        pattern = term.pattern
        if pattern.type == "str" and re.fullmatch(r"[a-z]+", pattern.value):
            words.add(pattern.value)
    return tuple(sorted(words))


@attrs.frozen
class Completion:
    label: str
    kind: str  # "keyword" | "name" | "field" | "function" | "type"
    detail: str = ""


def completions(analysis: Analysis, line: int, column: int) -> list[Completion]:
    """What may be written at the position: after `x.` the fields, otherwise names and keywords."""
    s = _line(analysis.text, line)[:column - 1]
    decls = declarations(analysis)
    m = re.search(r"([A-Za-z_][A-Za-z0-9_]*)\.([A-Za-z_0-9]*)$", s)
    if m:
        typed = _typed_field_completions(analysis, m.group(1), line)
        return typed if typed is not None else _field_completions(analysis, decls, m.group(1))
    if PAYER.search(s):
        accounts = _account_completions(analysis, line)
        if accounts is not None:
            return accounts
    items = {}
    for name, ds in decls.items():
        if all("field of `" in d.what for d in ds):
            continue
        items[name] = Completion(name, "name", ds[0].what)
    for name in [*B.GLOBAL_NAMES, B.PLAYER]:
        items.setdefault(name, Completion(name, "name", BUILTIN_DOCS.get(name, "built-in")))
    for name in sorted(set(B.FUNCTIONS) | B.AGGREGATES):
        items.setdefault(name, Completion(name, "function", BUILTIN_DOCS.get(name, "built-in")))
    for name in sorted(B.BUILTIN_TYPES):
        items.setdefault(name, Completion(name, "type", "built-in type"))
    for word in keywords():
        items.setdefault(word, Completion(word, "keyword", "keyword"))
    return sorted(items.values(), key=lambda c: ({"name": 0, "function": 1, "type": 2, "keyword": 3}[c.kind], c.label))


PAYER = re.compile(r"\bpay\b.*\b(from|to)\s+[A-Za-z_0-9]*$")  # `pay AMOUNT from |`, `… to |`: an account


def _typed_names(analysis: Analysis, line: int) -> dict[str, object]:
    """The names used in the rule around `line` of the file (its declaration's lines) with the types the
    checker inferred for them, the nearest use first: a rule's `p`, `sale`, `d`, a parameter."""
    checked = analysis.checked
    if checked is None:
        return {}
    p = checked.program
    here = [d for d in rule_roots(p) if same_file(d.span.file or p.path, analysis.path)
            and d.span.line <= line <= max(d.span.last_line, d.span.line)]
    found: dict[str, tuple[int, object]] = {}
    for root in here:
        if isinstance(root, ast.Handler) and root.var and root.target in p.kinds:
            found[root.var] = (0, T.Type(root.target))
        for node in walk(root):
            if isinstance(node, ast.Name) and id(node) in checked.types:
                distance = abs(node.span.line - line)
                if node.id not in found or distance < found[node.id][0]:
                    found[node.id] = (distance, checked.types[id(node)])
    return {name: t for name, (_, t) in found.items()}


def _typed_field_completions(analysis: Analysis, owner: str, line: int) -> list[Completion] | None:
    """After `x.`, the fields of x's type where the checker knows it (a name of the rule around the
    cursor, a thing, a deck, a global), or None where it does not."""
    checked = analysis.checked
    if checked is None:
        return None
    p = checked.program
    t = _typed_names(analysis, line).get(owner)
    if t is None and owner in p.things:
        t = T.Type(p.things[owner].kind)
    elif t is None and owner in p.decks:
        t = T.Type("deck")
    elif t is None and owner in B.GLOBAL_NAMES:
        t = B.GLOBAL_NAMES[owner]
    elif t is None and owner == B.PLAYER:
        t = T.PLAYER
    if t is None or t.name == "any" or t.is_list:
        return None
    fields = TypeChecker(p, []).fields_of(t.required() if t.optional else t, owner)
    if fields is None:
        return []
    where = f"field of `{t.name}`" if t.name in p.kinds else f"{t.name} field"
    return [Completion(n, "field", f"{ft}, {where}") for n, ft in sorted(fields.items())]


def _account_completions(analysis: Analysis, line: int) -> list[Completion] | None:
    """After `pay … from` or `to`: what may pay or be paid, the players and accounts the rule names (its
    `player`, the bank, a rule's player-valued names, the global account fields), or None where the file
    is not checked."""
    checked = analysis.checked
    if checked is None:
        return None
    p = checked.program
    items = {name: Completion(name, "name", str(t)) for name, t in B.GLOBAL_NAMES.items()
             if t.name in ("player", "account") and not t.is_list}
    for name, t in _typed_names(analysis, line).items():
        if not t.is_list and t.name in ("player", "account"):
            items[name] = Completion(name, "name", str(t))
    rule = [d for d in rule_roots(p) if same_file(d.span.file or p.path, analysis.path)
            and d.span.line <= line <= max(d.span.last_line, d.span.line)]
    if rule and not any(isinstance(d, ast.Procedure) for d in rule):  # a procedure sees only its parameters
        items.setdefault(B.PLAYER, Completion(B.PLAYER, "name", "the player the rule runs for"))
    for name, f in p.global_fields.items():
        if f.type.name == "account" and not f.type.is_list:
            items.setdefault(name, Completion(name, "name", "account (global)"))
    return sorted(items.values(), key=lambda c: c.label)


def _field_completions(analysis: Analysis, decls: dict, owner: str) -> list[Completion]:
    p = analysis.checked.program if analysis.checked else None
    fields: dict[str, str] = {}
    kind = None
    if p is not None:
        if owner in p.things:
            kind = p.things[owner].kind
        elif owner in p.kinds:
            kind = owner
    player_like = owner in {B.PLAYER, "current", "debtor", "partner"} or (
        kind is None and owner[:1].isupper() and p is not None and owner not in p.decks and owner not in p.squares)
    if p is not None and owner in p.decks:
        fields.update({n: f"deck field: {t}" for n, t in B.DECK_FIELDS.items()})
    elif kind is not None and p is not None:
        k = p.kinds.get(kind)
        if k is None and kind in p.groups:
            k = p.kinds.get(p.groups[kind].kind)
        for f in (k.fields if k else ()):
            fields[f.name] = f"{_type_text(f.type)}, field of `{k.name}`"
        fields.update({n: f"{t}" for n, t in B.NAME_FIELDS.items()})
    elif player_like:
        fields.update({n: f"{t}, kept by the engine" for n, t in B.PLAYER_FIELDS.items()})
        if p is not None:
            fields.update({f.name: _type_text(f.type) for f in p.player_fields.values()})
    else:  # a local name whose type is not known here: every field there is
        for ds in decls.values():
            for d in ds:
                if "field" in d.what:
                    fields.setdefault(d.name, d.what)
        for table in (B.PLAYER_FIELDS, B.ROLL_FIELDS, B.SALE_FIELDS, B.DECK_FIELDS, B.NAME_FIELDS):
            fields.update({n: str(t) for n, t in table.items() if n not in fields})
    return [Completion(n, "field", d) for n, d in sorted(fields.items())]


# ---- outline ------------------------------------------------------------------------------------------

@attrs.frozen
class Symbol:
    name: str
    detail: str
    kind: str  # "game" | "parameter" | "kind" | "field" | "group" | "table" | "row" | "square" | "board"
    #            | "deck" | "card" | "turn" | "phase" | "handler" | "action" | "trade" | "end" | "hint"
    #            | "function" | "invariant" | "scenario" | "variant" | "setup"
    span: Span  # the whole declaration
    name_span: Span
    children: tuple = ()


def outline(text: str, path: str) -> list[Symbol]:
    """The file's own declarations as a tree; a declaration that does not parse is left out, the
    others are still listed."""
    decls = []
    if len(text) > MAX_BYTES:
        return []
    for first_line, chunk in split_declarations(text):
        try:
            decls.extend(parse_text("\n" * (first_line - 1) + chunk, path).decls)
        except RulesError:
            continue
    sources = {path: text}
    return [s for d in decls if (s := _symbol(d, sources, path)) is not None]


def _sym(name, detail, kind, node, sources, path, children=(), at=None) -> Symbol:
    span = _whole(node.span, sources.get(path, ""))
    name_span = _name_span(sources, at or node.span, name, path) if name else Span(span.line, span.column,
                                                                                   span.line, span.column + 1)
    return Symbol(name or detail, detail, kind, span, name_span, tuple(children))


def _whole(span: Span, text: str) -> Span:
    """A declaration's span ends at the start of the line after it: end it on its own last line."""
    end_line, end_col = span.end_line, span.end_column
    if end_col == 1 and end_line > span.line:
        end_line -= 1
        end_col = len(_line(text, end_line)) + 1
    return Span(span.line, span.column, end_line, max(end_col, 1), span.file)


def _symbol(d, sources, path) -> Symbol | None:
    s = lambda *a, **k: _sym(*a, sources=sources, path=path, **k)  # noqa: E731
    if isinstance(d, ast.Game):
        return Symbol(f'game "{d.title}"', "game", "game", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 4),
                      tuple(s(st.key.split()[0], st.key, "field", st) for st in d.settings))
    if isinstance(d, ast.Extends):
        return Symbol(f'extends "{d.path}"', "base file", "variant", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 7))
    if isinstance(d, ast.Variation):
        target = d.target.split(".")[-1]
        return s(target, d.what, "variant", d)
    if isinstance(d, ast.Param):
        return s(d.name, "param", "parameter", d)
    if isinstance(d, ast.Bank):
        return Symbol("bank", "unlimited" if d.unlimited else "limited", "parameter", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 4))
    if isinstance(d, (ast.PlayerDecl, ast.GlobalDecl)):
        word = "player" if isinstance(d, ast.PlayerDecl) else "global"
        return Symbol(word, "fields", "kind", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + len(word)),
                      tuple(s(f.name, _type_text(f.type), "field", f) for f in d.fields))
    if isinstance(d, ast.Kind):
        return s(d.name, "kind", "kind", d, children=[s(f.name, _type_text(f.type), "field", f) for f in d.fields])
    if isinstance(d, ast.GroupDecl):
        return s(d.name, f"group of {d.kind}", "group", d)
    if isinstance(d, ast.SquareDecl):
        return s(d.name, "square", "square", d)
    if isinstance(d, ast.Board):
        return Symbol("board", f"{len(d.squares)} squares", "board", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 5))
    if isinstance(d, ast.GraphDecl):
        shape = f"grid {d.rows} by {d.columns}" if d.rows is not None else f"{len(d.links)} lines of links"
        return s(d.name, f"graph of {d.kind}, {shape}", "board", d,
                 children=[s(link.node.id, "links", "square", link) for link in d.links])
    if isinstance(d, ast.Table):
        return s(d.kind, "table", "table", d, at=Span(d.span.line, d.span.column + 5, d.span.line, d.span.column + 6),
                 children=[s(r.name, d.kind, "row", r) for r in d.rows])
    if isinstance(d, ast.Deck):
        return s(d.name, f"deck of {d.of}, {d.policy}" if d.of else f"deck, {d.policy}", "deck", d, children=[s(c.name, c.title or "card", "card", c)
                                                                     for c in d.cards])
    if isinstance(d, ast.Setup):
        return Symbol("setup", "setup", "setup", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 5))
    if isinstance(d, ast.Turn):
        return Symbol("turn", f"{len(d.phases)} phases", "turn", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 4),
                      tuple(s(ph.name, ph.title or "phase", "phase", ph) for ph in d.phases))
    if isinstance(d, ast.Supply):
        return s(d.name, f"supply of {d.kind}.{d.field}", "parameter", d)
    if isinstance(d, ast.Status):
        return s(d.name, d.title or "status", "turn", d, children=[s(ph.name, ph.title or "phase", "phase", ph)
                                                                 for ph in d.phases])
    if isinstance(d, ast.Handler):
        label = " ".join(x for x in ("on", d.event, d.header_target, d.var) if x)
        return Symbol(label, "handler", "handler", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 2))
    if isinstance(d, ast.Hook):
        return Symbol(f"{d.which} turn", "hook", "handler", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + len(d.which)))
    if isinstance(d, ast.ActionDecl):
        return s(d.name, f"action, {d.timing}", "action", d)
    if isinstance(d, ast.TradeDecl):
        return Symbol("trade", ", ".join(k.id for k in d.kinds), "trade", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 5))
    if isinstance(d, ast.TradeThing):
        return Symbol(f"trade {' or '.join(d.kinds)} {d.var}", "what a trade may move", "trade",
                      _whole(d.span, sources[path]), Span(d.span.line, d.span.column, d.span.line, d.span.column + 5))
    if isinstance(d, ast.EndDecl):
        return Symbol(f'end "{d.reason}"', "end of game", "end", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 3))
    if isinstance(d, ast.Hint):
        return s(d.name, "hint", "hint", d)
    if isinstance(d, ast.Define):
        return s(d.name, "function", "function", d)
    if isinstance(d, ast.Procedure):
        return s(d.name, "procedure", "function", d)
    if isinstance(d, ast.Invariant):
        return Symbol(f'invariant "{d.text}"', "invariant", "invariant", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 9))
    if isinstance(d, ast.Scenario):
        return Symbol(f'scenario "{d.title}"', "scenario", "scenario", _whole(d.span, sources[path]),
                      Span(d.span.line, d.span.column, d.span.line, d.span.column + 8))
    return None
