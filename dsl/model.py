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
    copies: dict = attrs.Factory(dict)  # name -> ast.BoardCopy: one place of a repeated square, named (`X as X2`)
    graphs: dict = attrs.Factory(dict)  # name -> ast.GraphDecl: board graphs (a grid, a map of links)
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
    trade_things: list = attrs.Factory(list)  # [ast.TradeThing]: conditions on what a trade may move
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


def declared_handlers(p: Program) -> list:
    """The handlers as the file declares them: one written over several kinds (`on land Street or Railroad d`)
    is held once per kind in `p.handlers`, and shown once (its first copy; `header_target` names them all)."""
    seen: set[int] = set()
    out = []
    for h in p.handlers:
        if id(h.body) not in seen:
            seen.add(id(h.body))
            out.append(h)
    return out


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


ROW_LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
MAX_GENERATED = 10_000  # rows one generator may make, as a deck may hold


def grid_squares(graph: ast.GraphDecl) -> list[tuple[int, int, str]]:
    """A grid's squares, row by row: (row, column, name), counting from 1, named by the row's letter and the
    column's number (A1, A2, … B1, …). Nothing for a graph of links, or a grid too large to name."""
    if graph.rows is None or graph.columns is None or not 0 < graph.rows <= len(ROW_LETTERS) \
            or not 0 < graph.rows * graph.columns <= MAX_GENERATED:
        return []
    return [(r, c, f"{ROW_LETTERS[r - 1]}{c}") for r in range(1, graph.rows + 1) for c in range(1, graph.columns + 1)]


def _range_values(rng: ast.RowRange, decls, report) -> list | None:
    """The values a generated row's loop takes: numbers, or the names of a kind's things or a group's values."""
    if rng.names is None:
        assert rng.low is not None and rng.high is not None
        return list(range(rng.low, rng.high + 1))
    name = rng.names.id
    for d in decls:
        if isinstance(d, ast.GroupDecl) and d.name == name:
            return [m.id for m in d.members]
    rows = [r.name for d in decls if isinstance(d, ast.Table) and d.kind == name for r in d.rows
            if isinstance(r, ast.Row)]
    if rows:
        return rows
    report(codes.BAD_GENERATED_ROW, f"`{name}` is neither a group nor a kind with table rows: a generated row "
           "loops over numbers (`n in 1 to 25`), a group's values or a kind's rows", rng.names.span,
           help="name a group or a kind whose table writes its rows out")
    return None


def _substitute(cell, values: dict):
    """A generated row's cell with each loop variable it names replaced by that loop's value."""
    if isinstance(cell, ast.Name) and cell.id in values:
        value = values[cell.id]
        if isinstance(value, int):
            return ast.Literal(value=value, type="count", span=cell.span)
        return ast.Name(id=value, span=cell.span)
    if isinstance(cell, ast.ListExpr):
        return ast.evolve(cell, items=tuple(_substitute(x, values) for x in cell.items))
    return cell


def generated_rows(table: ast.Table, decls, report) -> tuple:
    """A table's rows with each generator (`for n in 1 to 3: "T{n}" n`) written out as the rows it makes."""
    import itertools
    import re as _re
    if not any(isinstance(r, ast.RowGenerator) for r in table.rows):
        return table.rows
    rows: list = []
    for row in table.rows:
        if not isinstance(row, ast.RowGenerator):
            rows.append(row)
            continue
        loops = [_range_values(rng, decls, report) for rng in row.ranges]
        if any(loop is None for loop in loops):
            continue
        names = [rng.var for rng in row.ranges]
        unused = [n for n in names if "{" + n + "}" not in row.template]
        total = 1
        for loop in loops:
            total *= len(loop or ())
        if unused or total == 0 or total > MAX_GENERATED:
            problem = (f"its name `\"{row.template}\"` does not use `{{{unused[0]}}}`, so rows would share a name"
                       if unused else "its loops make no row" if total == 0
                       else f"its loops make {total:,} rows; the most is {MAX_GENERATED:,}")
            report(codes.BAD_GENERATED_ROW, f"this generated row cannot be made: {problem}", row.template_span,
                   help="write `{VAR}` in the name for each loop (`\"S{c}_{n}\"`), and loops that make 1 to 10,000 rows")
            continue
        for combination in itertools.product(*(values or () for values in loops)):
            chosen = dict(zip(names, combination))
            name = _re.sub(r"\{(\w+)\}", lambda m: str(chosen.get(m.group(1), m.group(0))), row.template)
            if not _re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):
                report(codes.BAD_GENERATED_ROW, f"this generated row cannot be made: its name `{name}` is not a name",
                       row.template_span, help="a name is letters, digits and `_`, starting with a letter")
                break
            rows.append(ast.Row(name=name, cells=tuple(_substitute(c, chosen) for c in row.cells),
                                assumed_columns=row.assumed_columns, cite=row.cite, span=row.template_span))  # its name's template
    return tuple(rows)


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
            for copy in decl.copies if prog.board is decl else ():
                if declare(copy.name, f"place of square {copy.square} on the board", copy.span):
                    prog.copies[copy.name] = copy
        elif isinstance(decl, ast.GraphDecl):
            if declare(decl.name, "graph", decl.span):
                prog.graphs[decl.name] = decl
                for r, c, name in grid_squares(decl):
                    if declare(name, f"square of grid {decl.name}", decl.span):
                        coordinates = {"row": ast.Literal(value=r, type="count", span=decl.span),
                                       "column": ast.Literal(value=c, type="count", span=decl.span)}
                        prog.things[name] = ThingDef(name, decl.kind, coordinates, (), decl.meta.cite, decl.span)
        elif isinstance(decl, ast.Table):
            decl = ast.evolve(decl, rows=generated_rows(decl, rules.decls, report))
            prog.tables.setdefault(decl.kind, []).append(decl)
            for row in decl.rows:
                assert isinstance(row, ast.Row)  # (generated rows are written out above)
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
            # over several kinds: one copy for each, checked and run as if written for that kind alone
            prog.handlers.extend([ast.evolve(decl, target=k) for k in decl.kinds] if decl.kinds else [decl])
        elif isinstance(decl, ast.Hook):
            prog.hooks.append(decl)
        elif isinstance(decl, ast.ActionDecl):
            if decl.name in prog.actions:
                report(codes.DEFINED_TWICE, f"action `{decl.name}` is defined more than once", decl.span,
                       labels=[Label(prog.actions[decl.name].span, "first defined here")])
            else:
                prog.actions[decl.name] = decl
        elif isinstance(decl, ast.TradeThing):
            prog.trade_things.append(decl)
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
