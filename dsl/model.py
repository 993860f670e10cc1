"""The program: a .rules file's declarations gathered into one symbol table.

`build_program` walks the AST once, files every declaration under its name, and
reports duplicates and declarations a game can have only once. The checker and the
interpreter both work from the `Program`, never from the raw declaration list.
"""

from __future__ import annotations

import functools

import attrs

from . import ast, codes
from .builtins import RESERVED_NAMES
from .diagnostics import Diagnostic, Label, Span



@attrs.define
class ThingDef:
    """One row of a table (or a group member): a named thing of a kind with fixed data."""

    name: str
    kind: str
    values: dict  # field name -> AST expression
    assumed: tuple  # field names whose values are assumed
    cite: str | None
    span: Span


@attrs.define
class Program:
    path: str
    source: str
    sources: dict  # path -> text, for every file the program came from
    game: ast.Game | None = None
    settings: dict = attrs.Factory(dict)
    params: dict = attrs.Factory(dict)
    bank: ast.Bank | None = None
    player_fields: dict = attrs.Factory(dict)
    global_fields: dict = attrs.Factory(dict)
    kinds: dict = attrs.Factory(dict)
    groups: dict = attrs.Factory(dict)
    squares: dict = attrs.Factory(dict)
    board: ast.Board | None = None
    tables: dict = attrs.Factory(dict)
    things: dict = attrs.Factory(dict)
    decks: dict = attrs.Factory(dict)
    setup: ast.Setup | None = None
    turn: ast.Turn | None = None
    supplies: dict = attrs.Factory(dict)  # name -> ast.Supply: limited supplies of pieces the bank holds
    statuses: dict = attrs.Factory(dict)  # name -> ast.Status: player statuses with their own turn
    handlers: list = attrs.Factory(list)
    hooks: list = attrs.Factory(list)
    actions: dict = attrs.Factory(dict)
    trade: ast.TradeDecl | None = None
    ends: list = attrs.Factory(list)
    hints: dict = attrs.Factory(dict)
    defines: dict = attrs.Factory(dict)
    procedures: dict = attrs.Factory(dict)
    invariants: list = attrs.Factory(list)
    scenarios: list = attrs.Factory(list)
    extends: list = attrs.Factory(list)
    overrides: tuple = ()  # a variant's ast.Override records: each `override param` and the base's declaration
    removals: tuple = ()  # a variant's `remove …` (ast.Variation), base's first

    def text_at(self, span) -> str:
        """The source text of a one-line span (in whichever file it is), or a stand-in."""
        lines = _lines(self.sources.get(span.file, self.source))
        if span.line == span.end_line and 0 < span.line <= len(lines):
            return lines[span.line - 1][span.column - 1:span.end_column - 1]
        return "this expression"

    @property
    def board_kinds(self) -> set[str]:
        """Kinds with at least one thing on the board (their things are squares too)."""
        if self.board is None:
            return set()
        return {self.things[n.id].kind for n in self.board.squares if n.id in self.things}


@functools.lru_cache(maxsize=16)
def _lines(text: str) -> list:
    """A file's lines, split once for every span read from it (a string keeps its hash)."""
    return text.splitlines()


def rule_roots(p: Program) -> tuple:
    """Every declaration whose statements run in play: the turn, handlers, hooks, actions, procedures,
    cards, the setup, and the scenarios' own steps."""
    return (*p.handlers, *p.hooks, *p.actions.values(), *p.procedures.values(), *p.decks.values(),
            *([p.setup] if p.setup else []), *([p.turn] if p.turn else []), *p.statuses.values(), *p.scenarios)


def move_marks(p: Program) -> dict:
    """The marks moves carry (`move … with double_rent`): each name, with the first move that gives it."""
    from .walk import walk
    marks: dict = {}
    for node in walk(rule_roots(p)):
        if isinstance(node, ast.Move):
            for mark in node.marks:
                marks.setdefault(mark, node)
    return marks


def build_program(rules: ast.RulesFile) -> tuple[Program, list[Diagnostic]]:
    prog = Program(path=rules.path, source=rules.source, sources=dict(rules.sources) or {rules.path: rules.source},
                   overrides=tuple(getattr(rules, "overrides", ())), removals=tuple(getattr(rules, "removals", ())))
    diags: list[Diagnostic] = []
    seen: dict[str, tuple[str, Span]] = {}

    def report(code: codes.Code, message, span, help=None, labels=()):
        diags.append(code.diagnostic(message, span.file or rules.path, span, labels=tuple(labels), help=help))

    def declare(name: str, what: str, span: Span) -> bool:
        if name in RESERVED_NAMES:
            report(codes.BUILT_IN_NAME_DECLARED, f"`{name}` is a built-in name and cannot be declared", span,
                   help="choose another name")
            return False
        if name in seen:
            first_what, first_span = seen[name]
            report(codes.DEFINED_TWICE, f"`{name}` is defined more than once", span,
                   labels=[Label(first_span, f"`{name}` was first defined here as a {first_what}")],
                   help="rename one of them, or remove the duplicate")
            return False
        seen[name] = (what, span)
        return True

    def single(attr: str, node, what: str):
        existing = getattr(prog, attr)
        if existing is not None:
            report(codes.SECOND_ONE_PER_GAME, f"a game has one {what}; this is a second", node.span,
                   labels=[Label(existing.span, f"the first {what} is here")])
            return
        setattr(prog, attr, node)

    for decl in rules.decls:
        if isinstance(decl, ast.Game):
            single("game", decl, "`game` header")
            for setting in decl.settings:
                if setting.key in prog.settings:
                    report(codes.DEFINED_TWICE, f"setting `{setting.key}` is given twice", setting.span)
                prog.settings[setting.key] = setting
        elif isinstance(decl, ast.Extends):
            prog.extends.append(decl)
        elif isinstance(decl, ast.Param):
            if declare(decl.name, "parameter", decl.span):
                prog.params[decl.name] = decl
        elif isinstance(decl, ast.Bank):
            single("bank", decl, "`bank` declaration")
        elif isinstance(decl, (ast.PlayerDecl, ast.GlobalDecl)):
            target = prog.player_fields if isinstance(decl, ast.PlayerDecl) else prog.global_fields
            for f in decl.fields:
                if f.name in target:
                    report(codes.DEFINED_TWICE, f"field `{f.name}` is defined more than once", f.span)
                    continue
                target[f.name] = f
                if isinstance(decl, ast.GlobalDecl):
                    declare(f.name, "global", f.span)
        elif isinstance(decl, ast.Kind):
            if declare(decl.name, "kind", decl.span):
                prog.kinds[decl.name] = decl
                names = set()
                for f in decl.fields:
                    if f.name in names:
                        report(codes.DEFINED_TWICE, f"field `{f.name}` is defined more than once in kind `{decl.name}`", f.span)
                    names.add(f.name)
        elif isinstance(decl, ast.GroupDecl):
            if declare(decl.name, "group", decl.span):
                prog.groups[decl.name] = decl
                for member in decl.members:
                    if declare(member.id, f"member of group {decl.name}", member.span):
                        prog.things[member.id] = ThingDef(member.id, decl.name, {}, (), decl.meta.cite, member.span)
        elif isinstance(decl, ast.SquareDecl):
            if declare(decl.name, "square", decl.span):
                prog.squares[decl.name] = decl
        elif isinstance(decl, ast.Board):
            single("board", decl, "`board`")
        elif isinstance(decl, ast.Table):
            prog.tables.setdefault(decl.kind, []).append(decl)
            for row in decl.rows:
                if declare(row.name, f"row of table {decl.kind}", row.span):
                    columns = [c.id for c in decl.columns[1:]]
                    values = dict(zip(columns, row.cells))
                    assumed: tuple[str, ...]
                    if row.assumed_columns is None:
                        assumed = ()
                    else:
                        assumed = tuple(str(a) for a in row.assumed_columns) or tuple(columns)
                    if decl.meta.assumed:
                        assumed = tuple(columns)
                    prog.things[row.name] = ThingDef(row.name, decl.kind, values, assumed,
                                                     row.cite or decl.meta.cite, row.span)
        elif isinstance(decl, ast.Deck):
            if declare(decl.name, "deck", decl.span):
                prog.decks[decl.name] = decl
                card_names = set()
                for card in decl.cards:
                    if card.name in card_names:
                        report(codes.DEFINED_TWICE,
                               f"card `{card.name}` is defined more than once in deck `{decl.name}`", card.span)
                    card_names.add(card.name)
        elif isinstance(decl, ast.Turn):
            single("turn", decl, "`turn`")
        elif isinstance(decl, ast.Setup):
            single("setup", decl, "`setup`")
        elif isinstance(decl, ast.Supply):
            if declare(decl.name, "supply", decl.span):
                prog.supplies[decl.name] = decl
        elif isinstance(decl, ast.Status):
            if declare(decl.name, "status", decl.span):
                prog.statuses[decl.name] = decl
        elif isinstance(decl, ast.Handler):
            prog.handlers.append(decl)
        elif isinstance(decl, ast.Hook):
            prog.hooks.append(decl)
        elif isinstance(decl, ast.ActionDecl):
            if decl.name in prog.actions:
                report(codes.DEFINED_TWICE, f"action `{decl.name}` is defined more than once", decl.span,
                       labels=[Label(prog.actions[decl.name].span, "first defined here")])
            else:
                prog.actions[decl.name] = decl
        elif isinstance(decl, ast.TradeDecl):
            single("trade", decl, "`trade` declaration")
        elif isinstance(decl, ast.EndDecl):
            prog.ends.append(decl)
        elif isinstance(decl, ast.Define):
            if declare(decl.name, "function", decl.span):
                prog.defines[decl.name] = decl
        elif isinstance(decl, ast.Procedure):
            if declare(decl.name, "procedure", decl.span):
                prog.procedures[decl.name] = decl
        elif isinstance(decl, ast.Hint):
            prog.hints[decl.name] = decl
        elif isinstance(decl, ast.Invariant):
            prog.invariants.append(decl)
        elif isinstance(decl, ast.Scenario):
            prog.scenarios.append(decl)
    return prog, diags
