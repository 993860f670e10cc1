"""The static checker: everything that can be known about a rules file without playing it.

It resolves every name (suggesting the nearest ones when a name is unknown), infers
and checks the type of every expression, checks tables against their kinds and the
board against the things, finds unreachable and unused declarations, and lists every
value marked `assumed`. It keeps going after an error so one run reports them all.
The inferred types are kept (`Checked.types`) for the interpreter's compiler.
"""

from __future__ import annotations

import os
import re
from typing import Any

import attrs

from . import ast, codes, soundness, walk
from .allow import allowances, is_allowed
from . import types as T
from .diagnostics import Diagnostic, Label, Span
from .model import Program, build_program, move_marks, rule_roots
from .soundness._common import always_ends, movers_are_current
from .soundness.dead_rules import dead_handlers
from .builtins import BUILTIN_TYPES, FIRST_PLAYER_RULES, GLOBAL_HINTS, MOVE_NAMES, PLAYER, PLAYER_FIELDS, SETTINGS
from .typecheck import (Assumption, TypeChecker, a_type, plural,
                        nearest_hint, narrow)
from .types import Type


MAX_PLAYERS = 100  # more seats than any table has; the engine keeps state for each
MAX_FIRST_DICE = 100
SETUP_UNKNOWN = frozenset({"players", "current"})  # not there yet when defaults are computed
MAX_DECK = 10_000  # cards in one deck, counting copies; the engine holds each copy  # `first player: highest roll N dice`


# What the engine asks agents itself, with the answers it takes (None: amounts, actions, truth values
# or cards, not a fixed set of names).
ENGINE_DECISIONS = {"bid": None, "act": None, "accept": None, "keep": frozenset({"keep", "use"}), "use card": None}


def decision_options(program: Program) -> dict:
    """Every decision the rules may put to a player, with the names its answers may be: the engine's
    own, each `choose`'s (its options; several `choose`s of one name share them), each `choose …
    for`'s (None: an item of its collection) and each optional phase's (play or skip)."""
    options: dict = dict(ENGINE_DECISIONS)
    for node in walk.walk(rule_roots(program)):
        if isinstance(node, ast.Choose):
            known = options.get(node.name, frozenset())
            options[node.name] = None if known is None else known | {o.name for o in node.options}
        elif isinstance(node, ast.ChooseFor):
            options[node.name] = None
        elif isinstance(node, ast.Phase) and node.optional:
            known = options.get(node.name, frozenset())
            options[node.name] = None if known is None else known | {"play", "skip"}
    return options


def players_range_problem(low, high) -> str | None:
    """What is wrong with a `players: LOW to HIGH` range, or None."""
    if not isinstance(low, int) or not isinstance(high, int):
        return None
    if low < 1:
        return f"`players: {low} to {high}`: a game needs at least 1 player"
    if low > high:
        return f"`players: {low} to {high}`: the fewest is more than the most"
    if high > MAX_PLAYERS:
        return f"`players: {low} to {high}`: at most {MAX_PLAYERS} players"
    return None


TURN_LIMIT_HELP = "leave `turn limit` out for the engine's own cap (10,000 turns)"


def turn_limit_problem(limit) -> str | None:
    """What is wrong with a `turn limit: N`, or None (0 was taken for no limit, and played 10,000 turns)."""
    if isinstance(limit, int) and limit < 1:
        return f"`turn limit` is {limit}; a game needs at least 1 turn"
    return None


@attrs.define
class Checked:
    """The result of a check: the program, its diagnostics, inferred types and assumptions."""

    program: Program
    diagnostics: list
    types: dict
    assumptions: list
    allowances: list = attrs.Factory(list)  # [allow.Allowance]: the warnings said to be meant, and where
    allowed: list = attrs.Factory(list)  # the warnings they dropped

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


class Checker(TypeChecker):
    """The declarations' checks: header, fields, tables, board, decks, turn, handlers, actions,
    ends, scenarios, and what is never used."""

    # ---- declarations -------------------------------------------------------------------------------
    def run(self) -> None:
        p = self.p
        scope = self.global_scope()
        self.scope = scope
        self.check_header(scope)
        for define in p.defines.values():
            self.assume(f"function `{define.name}`", define.meta, define.span)
            self.function_type(define)
        for proc in p.procedures.values():
            self.assume(f"procedure `{proc.name}`", proc.body.meta, proc.span)
            for env in reversed(self.each_kind(proc.params, scope)):  # the first kind's last: its names stay
                self.block(proc.body, env, "procedure")
        for name, param in p.params.items():
            self.assume(f"param `{name}`", param.meta, param.span)
        if p.bank is not None:
            self.assume("bank", p.bank.meta, p.bank.span)
            if p.bank.amount is not None:
                self.expect(p.bank.amount, T.MONEY, scope, "the bank's money")
                self.check_initial(p.bank.amount, "the bank's money")
        self.check_fields(p.player_fields.values(), scope, "player")
        if "cash" not in p.player_fields:
            self.report(codes.PLAYERS_WITHOUT_CASH,
                        "players have no `cash: money` field", p.game.span if p.game else Span(1, 1, 1, 2),
                        help="add `player:` with `cash: money = $…`")
        self.check_fields(p.global_fields.values(), scope, "global")
        for kind in p.kinds.values():
            self.assume(f"kind `{kind.name}`", kind.meta, kind.span)
            self.check_fields(kind.fields, scope, kind.name)
        for group in p.groups.values():
            self.assume(f"group `{group.name}`", group.meta, group.span)
            if group.kind not in p.kinds:
                self.report(codes.UNKNOWN_NAME,
                            f"unknown kind `{group.kind}`", group.span, help=nearest_hint(group.kind, p.kinds))
            elif not any(self.resolve_type(f.type).name == group.name for f in p.kinds[group.kind].fields):
                self.report(codes.EMPTY_GROUP,
                            f"no field of kind `{group.kind}` has type `{group.name}`, so the group has no members",
                            group.span, help=f"add `{group.name.lower()}: {group.name}` to kind `{group.kind}`")
        self.check_tables(scope)
        self.check_board()
        self.check_graphs()
        self.check_decks(scope)
        self.check_setup(scope)
        self.check_turn(scope)
        self.check_statuses(scope)
        self.check_marks(scope)
        self.check_handlers(scope)
        self.check_actions(scope)
        self.check_supplies(scope)
        self.check_ends(scope)
        self.check_scenarios(scope)
        self.check_unused()
        self.check_unread_marks()
        self.check_unput_statuses()
        self.check_kept_cards()
        self.check_procedure_recursion()

    def check_header(self, scope):
        p = self.p
        for ext in p.extends:
            self.report(codes.UNRESOLVED_EXTENDS, "`extends` is resolved when a file is loaded, not by the checker", ext.span,
                        help="load the file with `rulesc.dsl.variants.load_file`, as `rulesc` does")
        if p.game is None:
            self.report(codes.NO_GAME_HEADER, "the file has no `game` header", Span(1, 1, 1, 2),
                        help='start the file with `game "Name":` and its settings')
            return
        self.assume("game header", p.game.meta, p.game.span)
        for key, setting in p.settings.items():
            self.assume(f"setting `{key}`", setting.meta, setting.span)
            if key not in SETTINGS:
                self.report(codes.UNKNOWN_SETTING, f"unknown setting `{key}`", setting.span,
                            help=nearest_hint(key, SETTINGS) or f"settings are {', '.join(sorted(SETTINGS))}")
            elif key == "players":
                if isinstance(setting.value, tuple) or setting.upper is None:
                    self.report(codes.BAD_SETTING_VALUE, "`players` is a range like `2 to 6`", setting.span)
                else:
                    self.expect(setting.value, T.COUNT, scope, "the fewest players")
                    self.expect(setting.upper, T.COUNT, scope, "the most players")
                    self.check_players_range(setting)
            elif key == "start":
                if not isinstance(setting.value, ast.Name):
                    self.report(codes.BAD_SETTING_VALUE, "`start` names a square", setting.span)
                else:
                    self.expect(setting.value, T.SQUARE, scope, "the start")
                    name = setting.value.id
                    if p.board is not None and (name in p.squares or name in p.things) \
                            and not any(sq.id == name for sq in p.board.squares):
                        self.report(codes.BAD_SETTING_VALUE, f"`start: {name}` names a square that is not on the board",
                                    setting.value.span, help="tokens begin on a square of `board:`")
            elif key == "first player":
                words = " ".join(setting.value) if isinstance(setting.value, tuple) else ""
                if not isinstance(setting.value, tuple) and setting.upper is None:
                    # a rule: the player it names once the setup has run (`best(p in players: …)`)
                    self.expect(setting.value, T.PLAYER.maybe(), scope, "the first player")
                elif not any(words.startswith(rule) for rule in FIRST_PLAYER_RULES):
                    self.report(codes.BAD_SETTING_VALUE, "`first player` is `highest roll N dice`, `seat order` or an "
                                "expression naming a player", setting.span)
                elif words.startswith("highest roll") and len(setting.value) > 2 and setting.value[2].isdigit() \
                        and not 1 <= int(setting.value[2]) <= MAX_FIRST_DICE:
                    self.report(codes.BAD_SETTING_VALUE, f"`first player: highest roll` of {setting.value[2]} dice; "
                                f"it takes 1 to {MAX_FIRST_DICE}", setting.span,
                                help="ties roll again, so with no dice the players would tie for ever")
            elif key == "turn limit":
                if isinstance(setting.value, tuple):
                    self.report(codes.BAD_SETTING_VALUE, "`turn limit` is a number", setting.span)
                else:
                    self.expect(setting.value, T.COUNT, scope, "the turn limit")
                    problem = turn_limit_problem(setting.value.value) if isinstance(setting.value, ast.Literal) else None
                    if problem:
                        self.report(codes.BAD_SETTING_VALUE, problem, setting.span, help=TURN_LIMIT_HELP)
        if "start" not in p.settings:
            self.report(codes.NO_START_SQUARE, "the game header has no `start:` square", p.game.span,
                        help="add `start: NAME` naming the square where tokens begin")

    def check_initial(self, node, what: str) -> None:
        """A value computed while the game is set up (a default, the bank's money) cannot read the players
        or whose turn it is: neither exists yet."""
        from .walk import walk
        for n in walk(node):
            if isinstance(n, ast.Name) and n.id in SETUP_UNKNOWN:
                self.report(codes.SETUP_READS_PLAYERS, f"{what} reads `{n.id}`, which does not exist while the game is set up",
                            n.span, help="start from a value that does not depend on the players, and change it "
                                        "in `setup:`, which runs once the players are seated")
                return

    def check_players_range(self, setting):
        """`players: LOW to HIGH` with literal bounds: 1 <= LOW <= HIGH <= MAX_PLAYERS (parameters are checked
        when the rules are compiled, with their values)."""
        low, high = setting.value, setting.upper
        if not (isinstance(low, ast.Literal) and isinstance(high, ast.Literal)):
            return
        problem = players_range_problem(low.value, high.value)
        if problem:
            self.report(codes.BAD_SETTING_VALUE, problem, setting.span, help="e.g. `players: 2 to 6`")

    def check_fields(self, fields, scope, owner: str):
        for f in fields:
            self.assume(f"{owner}.{f.name}", f.meta, f.span)
            if owner == "player" and f.name in PLAYER_FIELDS:
                self.report(codes.BUILT_IN_NAME_DECLARED,
                            f"`{f.name}` is a built-in field of every player and cannot be declared", f.span,
                            help="remove this line; the engine keeps it" + (
                               " (the start square is the header's `start:`)" if f.name == "position" else ""))
            t = self.resolve_type(f.type)
            declared = f"state {f.name}" if f.is_state else f.name
            if f.hidden and owner != "player":
                self.report(codes.HIDDEN_NON_PLAYER_FIELD,
                            f"only a player's fields can be `hidden`; `{f.name}` is {'a global' if owner == 'global' else f'a field of `{owner}`'}",
                            f.span, help="`hidden` keeps a player's field from the other players' agents (`hidden cash: money`)")
            if "account" in (t.name, t.element.name if t.is_list and t.element is not None else None) and (
                    owner not in ("player", "global") or t.is_list or t.optional or f.default is not None
                    or f.is_state):
                # An account field is a player's or the game's own pot, made empty by the engine.
                where = "a list or an optional account" if (t.is_list or t.optional) else (
                    "an account with a default" if f.default is not None else f"an account on `{owner}`")
                self.report(codes.MISPLACED_ACCOUNT_FIELD, f"{where} is not an account field", f.type.span,
                            help="accounts are fields of `player:` or `global:`, written `NAME: account` with no "
                                f"default (each starts empty); else keep an amount (`{declared}: money = $0`)")
            elif t.name == "account":
                pass  # starts empty
            elif f.default is not None:
                self.expect(f.default, t, scope, f"the default of `{f.name}`")
                self.check_initial(f.default, f"the default of `{f.name}`")
            elif not t.optional and (f.is_state or owner in ("player", "global")):
                # Every field a game reads must hold a value from the start; only `T?` starts as `none`.
                what = {"player": "player field", "global": "global"}.get(owner, "state")
                self.report(codes.MISSING_DEFAULT, f"{what} `{f.name}` needs a default value", f.span,
                            help=f"e.g. `{declared}: {t} = …`, or `{declared}: {t}?` to start as `none`")

    def check_tables(self, scope):
        p = self.p
        for kind, tables in p.tables.items():
            for table in tables:
                self.assume(f"table `{kind}`", table.meta, table.span)
                if kind not in p.kinds:
                    self.report(codes.UNKNOWN_NAME, f"unknown kind `{kind}`", table.span, help=nearest_hint(kind, p.kinds))
                    continue
                fixed = [f for f in p.kinds[kind].fields if not f.is_state]
                fixed_names = [f.name for f in fixed]
                columns = [c.id for c in table.columns]
                if columns and columns[0] != "name":
                    self.report(codes.FIRST_COLUMN_NOT_NAME, "a table's first column is `name`", table.columns[0].span)
                for col in table.columns[1:]:
                    if col.id not in fixed_names:
                        self.report(codes.UNKNOWN_COLUMN, f"kind `{kind}` has no fixed field `{col.id}`", col.span,
                                    help=nearest_hint(col.id, fixed_names) or f"its fixed fields are {', '.join(fixed_names)}")
                for name in fixed_names:
                    if name not in columns:
                        self.report(codes.MISSING_COLUMN, f"table `{kind}` has no column for field `{name}`", table.span)
                types = {f.name: self.resolve_type(f.type) for f in fixed}
                for row in table.rows:
                    if len(row.cells) != len(columns) - 1:
                        self.report(codes.ROW_WIDTH_MISMATCH,
                                    f"row `{row.name}` has {plural(len(row.cells), 'value')} for {plural(len(columns) - 1, 'column')}",
                                    row.span)
                        continue
                    for col, cell in zip(columns[1:], row.cells):
                        if col in types:
                            self.expect(cell, types[col], scope, f"`{col}` of `{row.name}`")
                    for assumed in row.assumed_columns or ():
                        col = assumed.column
                        if col not in columns:
                            self.report(codes.UNKNOWN_COLUMN,
                                        f"`assumed {assumed}`: table `{kind}` has no column `{col}`", assumed.span)
                        elif assumed.index is not None:
                            cell = row.cells[columns.index(col) - 1]
                            if not isinstance(cell, ast.ListExpr) or assumed.index >= len(cell.items):
                                self.report(codes.UNKNOWN_COLUMN, f"`assumed {assumed}`: `{col}` of `{row.name}` has no element "
                                            f"{assumed.index} (elements count from 0)", assumed.span)
                    thing = p.things.get(row.name)
                    if thing is not None and thing.assumed:
                        note = ", ".join(thing.assumed)
                        self.assumptions.append(Assumption(f"{kind} `{row.name}`: {note}", None, row.span))

    def check_board(self):
        p = self.p
        if p.board is None:
            self.report(codes.NO_BOARD, "the file has no `board`", p.game.span if p.game else Span(1, 1, 1, 2),
                        help="add `board:` listing the squares in order")
            return
        self.assume("board", p.board.meta, p.board.span)
        seen: dict[str, Span] = {}
        for sq in p.board.squares:
            if sq.id in p.things:
                if sq.id in seen:
                    self.report(codes.THING_ON_BOARD_TWICE, f"`{sq.id}` is on the board twice", sq.span)
                seen[sq.id] = sq.span
            elif sq.id in p.squares and p.squares[sq.id].off_board:
                self.report(codes.OFF_BOARD_SQUARE_ON_BOARD,
                            f"`{sq.id}` is declared `off board`, so it cannot be on the board", sq.span,
                            help="remove it from `board:`; tokens reach it with `move … to`")
            elif sq.id not in p.squares:
                self.report(codes.UNKNOWN_NAME, f"unknown square `{sq.id}`", sq.span,
                            help=nearest_hint(sq.id, list(p.squares) + list(p.things)) or "declare it with `square NAME`")
        for copy in p.board.copies:  # `X as X2`: a place of a square the board repeats
            if copy.square in p.things:
                self.report(codes.NAMED_PLACE_OF_THING,
                            f"`{copy.square}` is on the board once: its own name names its place, `{copy.name}` is not needed",
                            copy.span, help=f"write `{copy.square}` alone, and `{copy.square}` where a rule means its place")
            elif copy.square in p.squares and sum(s.id == copy.square for s in p.board.squares) < 2:
                self.report(codes.NAMED_PLACE_OF_THING,
                            f"`{copy.square}` is on the board once: its own name names its place, `{copy.name}` is not needed",
                            copy.span, help=f"write `{copy.square}` alone; name a place only of a square the board repeats")
        for name, thing in p.things.items():
            if thing.kind in self.board_kinds and name not in seen:
                self.report(codes.THING_MISSING_FROM_BOARD, f"`{name}` ({thing.kind}) is not on the board", thing.span,
                            help=f"every {thing.kind} must be on the board once")
        for name, sq in p.squares.items():
            if sq.stop and sq.off_board:
                self.report(codes.STOP_SQUARE_OFF_BOARD,
                            f"`{name}` is `off board`, so no move along the ring can stop on it", sq.span,
                            help="drop `stop`, or put the square on the board")
            if not sq.off_board and not any(s.id == name for s in p.board.squares):
                self.report(codes.UNUSED_DECLARATION, f"square `{name}` is declared but not on the board", sq.span,
                            help="add it to `board:`, or declare it `off board` if tokens reach it only by `move … to`")
            self.assume(f"square `{name}`", sq.meta, sq.span)

    def check_graphs(self):
        """Each board graph: of a known kind, no kind in two; a grid of a size it can name, its kind's fixed
        fields only `row` and `column` (which it fills); each link between things of its kind."""
        p = self.p
        kinds: dict[str, ast.GraphDecl] = {}
        for graph in p.graphs.values():
            self.assume(f"graph `{graph.name}`", graph.meta, graph.span)
            kind = p.kinds.get(graph.kind)
            if kind is None:
                self.report(codes.UNKNOWN_NAME, f"unknown kind `{graph.kind}`", graph.kind_span,
                            help=nearest_hint(graph.kind, p.kinds) or "declare it: `kind NAME:` and its state fields")
                continue
            if graph.kind in kinds:
                self.report(codes.KIND_IN_TWO_GRAPHS, f"the things of `{graph.kind}` are already in graph "
                            f"`{kinds[graph.kind].name}` (line {kinds[graph.kind].span.line})", graph.kind_span,
                            help="a kind's things are the squares of one graph; join them all in one")
                continue
            kinds[graph.kind] = graph
            if graph.rows is not None:
                self.check_grid(graph, kind)
                continue
            for link in graph.links:
                for square in (link.node, *link.neighbours):
                    thing = p.things.get(square.id)
                    if thing is None or thing.kind != graph.kind:
                        self.report(codes.GRAPH_SQUARE_NOT_OF_KIND, f"`{square.id}` is not a thing of `{graph.kind}`",
                                    square.span, help=nearest_hint(square.id, [n for n, t in p.things.items()
                                                                               if t.kind == graph.kind])
                                    or f"graph `{graph.name}` joins things of `{graph.kind}`, its table's rows")

    def check_grid(self, graph, kind):
        from .model import ROW_LETTERS, MAX_GENERATED
        assert graph.rows is not None and graph.columns is not None
        if not (0 < graph.rows <= len(ROW_LETTERS) and 0 < graph.columns and graph.rows * graph.columns <= MAX_GENERATED):
            self.report(codes.BAD_GRID, f"a grid of {graph.rows} by {graph.columns} cannot be made: it has 1 to "
                        f"{len(ROW_LETTERS)} rows (named A to Z) and at most {MAX_GENERATED:,} squares", graph.span,
                        help="`grid 9 by 12`: 9 rows, A to I, of 12 columns")
        for f in kind.fields:
            if not f.is_state and (f.name not in ("row", "column") or self.resolve_type(f.type) != T.COUNT):
                self.report(codes.BAD_GRID, f"grid `{graph.name}` makes the things of `{kind.name}`, so it cannot fill "
                            f"their fixed field `{f.name}`", f.span,
                            help="a grid's kind has fixed fields `row: count` and `column: count` only (the grid "
                                 "fills them); make the others `state` fields")
        if kind.name in self.p.tables:
            self.report(codes.BAD_GRID, f"grid `{graph.name}` makes the things of `{kind.name}`, which a table "
                        "declares too", self.p.tables[kind.name][0].span,
                        help="a grid's squares are all its kind's things: remove the table, or use a graph of links")

    def check_decks(self, scope):
        for deck in self.p.decks.values():
            self.assume(f"deck `{deck.name}`", deck.meta, deck.span)
            if deck.of is not None:
                if deck.of not in self.p.kinds:
                    self.report(codes.UNKNOWN_NAME, f"unknown kind `{deck.of}`", deck.of_span or deck.span,
                                help=nearest_hint(deck.of, self.p.kinds))
                if deck.policy != "once":
                    self.report(codes.THING_DECK_NOT_ONCE, f"deck `{deck.name}` of things is `{deck.policy}`; a deck of "
                                "things is drawn `once`", deck.span,
                                help="a drawn thing leaves the deck for good (the rules say where it goes): write "
                                     f"`deck {deck.name} of {deck.of} once`")
            size = sum(card.copies for card in deck.cards)
            if size > MAX_DECK:
                big = max(deck.cards, key=lambda card: card.copies)
                self.report(codes.DECK_TOO_LARGE, f"deck `{deck.name}` has {size:,} cards; a deck holds at most {MAX_DECK:,}",
                            big.span, help=f"is `copies {big.copies:,}` of `{big.name}` a slip?")
            for card in deck.cards:
                self.assume(f"card `{deck.name}.{card.name}`", card.body.meta, card.span)
                if card.keep and deck.policy == "cut":
                    self.report(codes.KEPT_CARD_IN_CUT_DECK,
                                f"card `{card.name}` is kept, but a `cut` deck never gives its cards away",
                                card.span, help="kept cards come from `reshuffle`, `once` or `cycle` decks")
                if card.keep and card.lasting:
                    self.report(codes.KEPT_LASTING_CARD, f"card `{card.name}` is both kept and `lasting`", card.span,
                                help="a lasting card is in force from its draw until the next card of its deck; "
                                    "a kept card waits in a hand: drop one of the two")
                if card.tradable and not card.keep:
                    self.report(codes.TRADABLE_CARD_NOT_KEPT,
                                f"card `{card.name}` is `tradable`, but it is not kept, so nobody ever holds it",
                                card.span, help="flag it `keep` too, or drop `tradable`")
                elif card.tradable and not (self.p.trade is not None and self.p.trade.cards):
                    self.report(codes.TRADABLE_CARD_NEVER_TRADED,
                                f"card `{card.name}` is `tradable`, but no `trade` lists `cards`",
                                card.span, help="add `cards` to the trade: `trade Property, cards with cash`")
                if card.tradable_when is not None:
                    self.expect(card.tradable_when, T.BOOL, {**scope, "player": T.PLAYER}, "a card's trade condition")
                self.block(card.body, {**scope, "player": T.PLAYER}, "card")

    def check_setup(self, scope):
        setup = self.p.setup
        if setup is None:
            return
        self.assume("setup", setup.body.meta, setup.span)
        self.block(setup.body, scope, "setup")  # no `player`: no one's turn has begun

    def check_turn(self, scope):
        p = self.p
        if p.turn is None:
            self.report(codes.NO_TURN, "the file has no `turn`", p.game.span if p.game else Span(1, 1, 1, 2),
                        help="add `turn:` with at least one `phase`")
            return
        self.check_phases(p.turn.phases, {**scope, "player": T.PLAYER})

    def check_phases(self, phases, env):
        """The phases of a turn (the ordinary one or a status's): unique names, conditions, bodies, and
        what a phase that always ends the turn makes unreachable."""
        names = set()
        for phase in phases:
            self.assume(f"phase `{phase.name}`", phase.body.meta, phase.span)
            if phase.name in names:
                self.report(codes.DEFINED_TWICE, f"phase `{phase.name}` is defined more than once", phase.span)
            names.add(phase.name)
            if phase.when is not None:
                self.expect(phase.when, T.BOOL, env, "a phase's condition")
                if isinstance(phase.when, ast.Literal) and phase.when.value is False:
                    self.report(codes.UNREACHABLE_PHASE,
                                f"phase `{phase.name}` can never run: its condition is `false`", phase.span)
            self.block(phase.body, env, "turn")
        for i, phase in enumerate(phases[:-1]):
            last = phase.body.statements[-1]
            if isinstance(last, (ast.EndTurn, ast.EndGame)) and phase.when is None:
                for later in phases[i + 1:]:
                    self.report(codes.UNREACHABLE_PHASE,
                                f"phase `{later.name}` can never run: phase `{phase.name}` always ends the turn",
                                later.span)
                break

    def check_supplies(self, scope):
        """A supply counts the pieces on a `state` count field of a kind (R0516); an action that takes
        from it should test what is left (R0415, a warning)."""
        p = self.p
        counted: dict[tuple[str, str], str] = {}  # (kind, field) -> the name of the supply counting it
        for supply in p.supplies.values():
            self.assume(f"supply `{supply.name}`", supply.meta, supply.span)
            errors = len(self.diags)
            self.expect(supply.size, T.COUNT, scope, "the size of a supply")
            variable = next((n for n in walk.walk(supply.size) if isinstance(n, ast.Name) and n.id not in p.params), None)
            if variable is not None:
                self.report(codes.BAD_SUPPLY, f"the size of a supply is a number or a parameter; `{variable.id}` changes in play",
                            variable.span, help="write the number (`32`), or a `param` a house rule can override")
            kind = p.kinds.get(supply.kind)
            field = next((f for f in kind.fields if f.name == supply.field), None) if kind is not None else None
            if kind is None:
                self.report(codes.UNKNOWN_NAME,
                            f"unknown kind `{supply.kind}`", supply.kind_span, help=nearest_hint(supply.kind, p.kinds))
            elif field is None:
                self.report(codes.UNKNOWN_FIELD, f"kind `{supply.kind}` has no field `{supply.field}`", supply.field_span,
                            help=nearest_hint(supply.field, [f.name for f in kind.fields]))
            elif not field.is_state or self.resolve_type(field.type) != T.COUNT:
                self.report(codes.BAD_SUPPLY, f"a supply counts pieces on a `state` field of type `count`; `{supply.field}` of "
                            f"`{supply.kind}` is {'fixed data' if not field.is_state else a_type(self.resolve_type(field.type))}",
                            supply.field_span, help=f"declare it `state {supply.field}: count = 0` in kind `{supply.kind}`")
            elif (supply.kind, supply.field) in counted:
                self.report(codes.BAD_SUPPLY, f"`{supply.kind}.{supply.field}` is already counted by the supply "
                            f"`{counted[supply.kind, supply.field]}`", supply.field_span,
                            help="one supply per field: count another field for another kind of piece")
            if len(self.diags) > errors:
                continue
            counted[supply.kind, supply.field] = supply.name
            for action in p.actions.values():
                takes = any(isinstance(n, ast.Set) and isinstance(n.target, ast.Attr) and n.target.name == supply.field
                            and getattr(self.types.get(id(n.target.obj)), "name", None) == supply.kind
                            and not _returns_pieces(n) and not _at_most_left(n, supply.name) for n in walk.walk(action.body))
                tests = action.when is not None and any(isinstance(n, ast.Name) and n.id == supply.name
                                                        for n in walk.walk(action.when))
                if takes and not tests:
                    self.report(codes.UNTESTED_SUPPLY,
                                f"action `{action.name}` sets `{supply.field}` of a `{supply.kind}`, which the supply "
                                f"`{supply.name}` limits, but its `when` does not test `{supply.name}.left`", action.span,
                                help=f"add `and {supply.name}.left > 0` to its `when`, so that it is not offered when "
                                   "the bank has none left")

    def check_statuses(self, scope):
        """A status's own turn: its `at` square, its phases (checked as the turn's), and a way out:
        R0804 when no rule can ever `release` a player."""
        p = self.p
        # The rules are walked for a `release` only when there is a status to be released from.
        releases = bool(p.statuses) and any(isinstance(n, ast.Release) for n in walk.walk(rule_roots(p)))
        for status in p.statuses.values():
            self.assume(f"status `{status.name}`", status.meta, status.span)
            if status.at is not None:
                on_board = p.board is not None and any(s.id == status.at for s in p.board.squares)
                off_board = status.at in p.squares and p.squares[status.at].off_board
                if not (on_board or off_board or status.at in p.copies):  # (a named place: that place)
                    known = status.at in p.squares or status.at in p.things
                    self.report(codes.UNKNOWN_NAME,
                                f"`{status.at}` is not on the board" if known else f"unknown square `{status.at}`",
                                status.at_span, help=None if known else nearest_hint(status.at, list(p.squares) + list(p.things)))
            self.check_phases(status.phases, {**scope, "player": T.PLAYER})
            if not releases:
                self.report(codes.STATUS_NEVER_RELEASED,
                            f"no rule releases a player from `{status.name}`: once put in it, he never plays "
                            "an ordinary turn again", status.span,
                            help="`release player` in one of its phases (paid a fine, rolled doubles, served his turns)")

    def check_marks(self, scope):
        """A move's marks (`move … with double_rent`): each a name of its own (R0213), and read by a
        handler (R0414, after the handlers are checked)."""
        self.marks = {}
        for mark, move in move_marks(self.p).items():
            if mark in scope or mark in MOVE_NAMES or mark == PLAYER:
                self.report(codes.MARK_NAME_TAKEN, f"the mark `{mark}` is already the name of something else", move.marks_span,
                            help="handlers would read the mark in its place: give the mark a name of its own")
            else:
                self.marks[mark] = move

    def check_unput_statuses(self):
        for name, status in self.p.statuses.items():
            if name not in self.used:
                self.report(codes.UNUSED_DECLARATION, f"status `{name}` is never used: no rule puts a player in it", status.span,
                            help=f"`put player in {name}` where a player enters it")

    def check_unread_marks(self):
        for mark, move in self.marks.items():
            if mark not in self.used:
                self.report(codes.UNREAD_MOVE_MARK, f"no `on land` or `on pass` handler reads the mark `{mark}`", move.marks_span,
                            help=f"read it in the handler it should change: `if {mark}:` or `when {mark}`")

    def check_handlers(self, scope):
        p = self.p
        named: dict[str, ast.Handler | ast.Hook] = {}
        for h in list(p.handlers) + list(p.hooks):  # `as NAME` names one handler or hook (5.21)
            if h.name is None:
                continue
            if h.name in named and named[h.name] is not h and not _copies(named[h.name], h):
                other = named[h.name].span
                self._add(codes.DEFINED_TWICE.diagnostic(
                    f"two handlers are named `{h.name}`", h.span.file or p.path, h.span,
                    labels=(Label(other, "the other one", other.file or p.path),),
                    help="a handler's `as NAME` is what a variant replaces or removes it by: give each its own"))
            named[h.name] = h
        for h in p.handlers:
            self.assume(f"on {h.event}{' ' + h.target if h.target else ''}", h.body.meta, h.span)
            env = {**scope, "player": T.PLAYER}
            if h.event in ("land", "pass"):
                if h.target is None:
                    self.report(codes.BAD_HANDLER_TARGET, f"`on {h.event}` needs a square or a kind", h.span,
                                help=f"e.g. `on {h.event} Start:` or `on {h.event} Property p:`")
                elif h.target in p.kinds:
                    if h.var is None:
                        self.report(codes.UNNAMED_HANDLER_THING,
                                    f"`on {h.event} {h.target}` needs a name for the thing", h.target_span,
                                    help=f"e.g. `on {h.event} {h.target} x:`")
                    else:
                        env[h.var] = Type(h.target)
                    if h.target not in self.board_kinds:
                        self.report(codes.UNREACHABLE_HANDLER,
                                    f"no `{h.target}` is on the board, so this handler never runs", h.target_span)
                elif h.target in p.squares:
                    if (p.board is not None and not p.squares[h.target].off_board
                            and not any(s.id == h.target for s in p.board.squares)):
                        self.report(codes.UNREACHABLE_HANDLER,
                                    f"square `{h.target}` is not on the board, so this handler never runs",
                                    h.target_span)
                elif h.target in p.things or h.target in p.copies:  # a copy: its handlers run at its place only
                    pass
                else:
                    self.report(codes.UNKNOWN_NAME, f"unknown square or kind `{h.target}`", h.target_span,
                                help=nearest_hint(h.target, list(p.squares) + list(p.kinds) + list(p.things)))
                    if h.var is not None:
                        env[h.var] = T.ANY  # already reported: don't report every use of the name too
            elif h.event == "trade":  # `on trade:` each completed trade; `on trade K x:` each thing of K traded
                env["partner"] = T.PLAYER
                traded = [k.id for k in p.trade.kinds] if p.trade is not None else []
                if h.target is not None and h.target not in p.kinds:
                    self.report(codes.BAD_HANDLER_TARGET, f"`on trade` takes a kind, and `{h.target}` is not one",
                                h.target_span, help=nearest_hint(h.target, traded) or "e.g. `on trade Property p:`")
                elif h.target is not None and h.var is None:
                    self.report(codes.UNNAMED_HANDLER_THING, f"`on trade {h.target}` needs a name for the thing",
                                h.target_span, help=f"e.g. `on trade {h.target} x:`")
                elif h.target is not None:
                    env[h.var] = Type(h.target)
                if p.trade is None or (h.target is not None and h.target in p.kinds and h.target not in traded):
                    self.report(codes.UNREACHABLE_HANDLER,
                                "no `trade` declaration lets " + (f"a `{h.target}`" if h.target else "anything")
                                + " be traded, so this handler never runs", h.target_span or h.span,
                                help="list the kind in the file's `trade` line")
            elif h.target is not None:
                self.report(codes.BAD_HANDLER_TARGET, f"`on {h.event}` takes no square or kind", h.target_span,
                            help=f"write `on {h.event}:`; it applies to every player")
            if h.event == "debt":
                env.update(debtor=T.PLAYER, creditor=T.ACCOUNT, owed=T.MONEY)
            if h.event in ("land", "pass"):  # what the move that arrived says about itself (5.13)
                env.update(MOVE_NAMES)
                env.update({mark: T.BOOL for mark in self.marks})
            if h.when is not None:
                self.expect(h.when, T.BOOL, env, "a handler's condition")
            self.block(h.body, narrow(env, h.when), h.event)
        for hook in p.hooks:
            self.assume(f"{hook.which} turn", hook.body.meta, hook.span)
            env = {**scope, "player": T.PLAYER}
            if hook.when is not None:
                self.expect(hook.when, T.BOOL, env, "a hook's condition")
            self.block(hook.body, env, "turn")
        self.check_overlapping_handlers()

    def check_trade_things(self, scope) -> None:
        """`trade Street or Railroad d when COND`: each kind a traded one (R0205 unknown, R0403 one the
        `trade` line does not list: the condition is never asked), COND a `bool` checked once per kind."""
        p = self.p
        traded = [k.id for k in p.trade.kinds] if p.trade is not None else []
        for rule in p.trade_things:
            self.assume("trade condition", rule.meta, rule.span)
            for kind in rule.kinds:
                if kind not in p.kinds:
                    self.report(codes.UNKNOWN_NAME, f"unknown kind `{kind}`", rule.kinds_span,
                                help=nearest_hint(kind, traded or list(p.kinds)))
                    continue
                if kind not in traded:
                    self.report(codes.UNREACHABLE_HANDLER,
                                f"no `trade` declaration lets a `{kind}` be traded, so this condition is never asked",
                                rule.kinds_span, help="list the kind in the file's `trade` line")
                env = {**scope, "player": T.PLAYER, "partner": T.PLAYER, rule.var: Type(kind)}
                self.expect(rule.when, T.BOOL, env, "a trade's condition")

    def check_overlapping_handlers(self) -> None:
        """R0410 (a warning): two `on land`/`on pass` handlers for the same squares, under the same
        condition (or none), that both move money: each arrival pays twice. Typically a variant restating
        a rule of its base beside the base's own. Reported at the later handler, with a note at the earlier.

        R0411 (an error): the same, and the two handlers are one rule written twice: the same event,
        condition and body, up to the name of the handler's variable, citations and layout. Each arrival
        then runs the same payments twice, which no rulebook means: a payment meant to be doubled is
        written once, doubled."""
        p = self.p

        def pays(h) -> bool:
            return any(isinstance(st, ast.Pay) for st in walk.statements(h.body))

        def squares(h) -> set:
            if h.target in p.kinds:
                return {name for name, thing in p.things.items() if thing.kind == h.target} | {h.target}
            return {h.target}

        def condition(h) -> str | None:
            if h.when is None:
                return None
            text = p.text_at(h.when.span)
            if text == "this expression":
                return f"#{id(h)}"  # over several lines: never taken for the same as another
            return re.sub(rf"\b{re.escape(h.var)}\b", "_", text) if h.var else text

        movers = [h for h in p.handlers if h.event in ("land", "pass") and h.target is not None and pays(h)]
        current = movers_are_current(p)
        dead = dead_handlers(p)  # a handler that never runs pays nothing (R1201 says so)

        def first_ends(earlier, later) -> bool:
            """Whether the one of the two the arrival runs first (a kind's before a square's own, else in file
            order) always ends the turn: then the other never runs after it (R1201 says when it never runs)."""
            first = later if later.target in p.kinds and earlier.target not in p.kinds else earlier
            return always_ends(first.body, p.procedures, current) is not None

        for i, later in enumerate(movers):
            for earlier in movers[:i]:
                if earlier.event != later.event or not squares(earlier) & squares(later):
                    continue
                a, b = condition(earlier), condition(later)
                if a is not None and b is not None and a != b:
                    continue
                if first_ends(earlier, later) or id(earlier) in dead or id(later) in dead:
                    continue
                file = earlier.span.file or p.path
                if (earlier.event == later.event and earlier.target == later.target
                        and _shape(earlier.when, earlier.var) == _shape(later.when, later.var)
                        and _shape(earlier.body, earlier.var) == _shape(later.body, later.var)):
                    self._add(codes.HANDLER_WRITTEN_TWICE.diagnostic(
                        f"this handler repeats the one at {os.path.basename(file)}:"
                        f"{earlier.span.line} word for word, so every time a player "
                        f"{'lands on' if later.event == 'land' else 'passes'} `{later.target}` its payments "
                        "are made twice", later.span.file or p.path, later.span,
                        labels=(Label(earlier.span, "the same rule, first written here", file),),
                        help="remove one of them: a house rule keeps every handler of its base, so a handler restated "
                             "beside it runs as well; a payment meant to be made twice is written once, doubled"))
                    break
                self._add(codes.HANDLERS_BOTH_PAY.diagnostic(
                    f"this handler and the one at {os.path.basename(file)}:{earlier.span.line} "
                    f"both run when a player {'lands on' if later.event == 'land' else 'passes'} "
                    f"`{later.target}`{' under the same condition' if a == b and a is not None else ''}, "
                    "and both move money", later.span.file or p.path, later.span,
                    labels=(Label(earlier.span, "the other handler", file),),
                    help="if this restates the other rule, one of them is enough; if both are meant, "
                         "say so in one handler"))
                break

    def check_kept_cards(self) -> None:
        """R0412: a `keep` card that nothing in play can ever reach once kept: no `use card` in any rule,
        no `holds(…)`, `discard card` or `give card` naming it (or a card not named outright), and no
        trade of cards that lets it change hands. Kept, it stays in its holder's hand for good."""
        p = self.p
        kept = [(deck, card) for deck in p.decks.values() for card in deck.cards if card.keep]
        if not kept:
            return
        roots = [*p.handlers, *p.hooks, *p.actions.values(), *p.procedures.values(), *p.decks.values(),
                 *p.defines.values()]
        roots += [x for x in (p.turn, p.setup) if x is not None]
        named: set = set()
        for node in walk.walk(tuple(roots)):
            if isinstance(node, ast.UseCard):
                return  # `use card` offers every card its player holds
            card = None
            if isinstance(node, ast.Call) and node.func == "holds" and len(node.args) == 2:
                card = node.args[1]
            elif isinstance(node, ast.DiscardHeld):
                card = node.card
            else:
                continue
            if isinstance(card, ast.Attr) and isinstance(card.obj, ast.Name):
                named.add((card.obj.id, card.name))
            else:
                return  # a card chosen at run time may be any of them
        trades_cards = p.trade is not None and p.trade.cards
        for deck, card in kept:
            if (deck.name, card.name) in named or (card.tradable and trades_cards):
                continue
            self.report(codes.UNUSABLE_KEPT_CARD, f"card `{deck.name}.{card.name}` is kept, but no rule can ever use it: no "
                        "`use card`, and no `holds`, `discard card`, `give card` or trade reaches it", card.span,
                        help=f"add `use card by player` where the rulebook lets a kept card be played, or test "
                           f"`holds(player, {deck.name}.{card.name})` in the rule it changes; or drop `keep`")

    def check_procedure_recursion(self) -> None:
        """R0413: a procedure every path through whose body runs `do` of itself (directly, or through
        procedures that always do), before anything can end the turn: once run it never returns."""
        procs = self.p.procedures
        for name, proc in procs.items():
            via = _always_does(proc.body, name, procs, frozenset({name}))
            if via is None:
                continue
            chain = "" if via.name == name else f" (through `{via.name}`)"
            self._add(codes.ENDLESS_PROCEDURE.diagnostic(
                f"procedure `{name}` always runs itself again{chain}, so once run it never "
                f"returns", proc.span.file or self.p.path, via.span,
                labels=(Label(proc.span, f"procedure `{name}`", proc.span.file or self.p.path),),
                help="put the `do` under a condition that ends the repeat (`if …:`), or loop with `for`"))

    def _checked_once_more(self, env, action) -> None:
        """Check an action's condition and body with its thing of another kind (a problem found again
        is reported once: `_add`)."""
        if action.when is not None:
            self.expect(action.when, T.BOOL, env, "an action's condition")
        self.block(action.body, narrow(env, action.when), "action")

    def check_actions(self, scope):
        p = self.p
        for action in p.actions.values():
            self.assume(f"action `{action.name}`", action.body.meta, action.span)
            env = {**scope, "player": T.PLAYER}
            if action.param is not None and action.amount is not None:
                var, kind = action.param.name, action.param.kind
                amount_type = Type(kind) if kind in ("money", "count") else T.ANY
                if amount_type is T.ANY:
                    self.report(codes.WRONG_TYPE, f"an amount chosen in a range is `money` or a `count`, not `{kind}`",
                                action.amount.span, help=f"write `({var}: money from … to … step …)`")
                for node, what in ((action.amount.low, "the lowest amount"), (action.amount.high, "the highest amount"),
                                   (action.amount.step, "the step")):
                    self.expect(node, amount_type, env, what)
                step = action.amount.step
                if isinstance(step, ast.Literal) and isinstance(step.value, int) and step.value <= 0:
                    self.report(codes.NON_POSITIVE_STEP, f"the step of `{var}` must be above 0", step.span,
                                help="amounts go from the lowest up in steps of this size")
                env[var] = amount_type
            elif action.param is not None:
                var, kind = action.param.name, action.param.kind
                for k in action.param.kinds:
                    if k not in p.kinds and (k not in p.groups or action.param.also):
                        self.report(codes.UNKNOWN_NAME, f"unknown kind `{k}`", action.param.span,
                                    help=nearest_hint(k, p.kinds))
                env[var] = Type(kind)
            if action.phase is not None and (p.turn is None or all(ph.name != action.phase for ph in p.turn.phases)):
                phases = [ph.name for ph in p.turn.phases] if p.turn is not None else []
                self.report(codes.UNKNOWN_NAME, f"unknown phase `{action.phase}`", action.span,
                            help=nearest_hint(action.phase, phases) or f"the phases are {', '.join(f'`{n}`' for n in phases)}")
            if action.limit == 0:
                self.report(codes.ACTION_LIMIT_ZERO,
                            f"action `{action.name}` may be taken 0 times per {action.per}, that is never",
                            action.span, help="write `once per …` or a number above 0, or remove the action")
            if action.limit_expr is not None:  # `(EXPR) per turn`: computed when offered, with `player` bound
                self.expect(action.limit_expr, T.COUNT, {**scope, "player": T.PLAYER}, "how many times per "
                            f"{action.per}")
            # An action over several kinds (`(p: Street or Railroad)`) is checked once for each, as if written
            # once for each: a field it reads must be on every one. The first kind's types are the ones kept.
            if action.param is not None and action.param.also and action.amount is None:
                for other in reversed(action.param.also):
                    if other in p.kinds:
                        self._checked_once_more({**env, action.param.name: Type(other)}, action)
                env[action.param.name] = Type(action.param.kind)
            if action.when is not None:
                self.expect(action.when, T.BOOL, env, "an action's condition")
            self.block(action.body, narrow(env, action.when), "action")
        if p.trade is not None:
            self.assume("trade", p.trade.meta, p.trade.span)
            for k in p.trade.kinds:
                if k.id not in p.kinds:
                    self.report(codes.UNKNOWN_NAME, f"unknown kind `{k.id}`", k.span, help=nearest_hint(k.id, p.kinds))
                elif not any(f.name == "owner" and f.is_state for f in p.kinds[k.id].fields):
                    self.report(codes.TRADED_KIND_WITHOUT_OWNER,
                                f"kind `{k.id}` has no `state owner: player?`, so it cannot be traded", k.span)
            if p.trade.when is not None:
                self.expect(p.trade.when, T.BOOL, {**scope, "player": T.PLAYER, "partner": T.PLAYER},
                            "a trade's condition")
        self.check_trade_things(scope)
        for name, hint in p.hints.items():
            env = dict(scope)
            if name not in GLOBAL_HINTS:
                env["player"] = T.PLAYER  # a preference among options is the chooser's
            if hint.param is not None:
                var, kind = hint.param.name, hint.param.kind
                for k in hint.param.kinds:
                    if k not in p.kinds and (hint.param.also or (k not in p.groups and k not in BUILTIN_TYPES)):
                        self.report(codes.UNKNOWN_NAME, f"unknown kind `{k}`", hint.span,
                                    help=nearest_hint(k, list(p.kinds) + ([] if hint.param.also else sorted(BUILTIN_TYPES))))
                        kind = "any"
                # A hint over several kinds (`worth(d: Street or Railroad)`) is checked once for each, as an
                # action over several kinds is: what it reads must be on every one.
                for other in hint.param.also if kind != "any" else ():
                    if other in p.kinds:
                        self.infer(hint.value, {**env, var: Type(other)})
                env[var] = Type(kind)
            t = self.infer(hint.value, env)
            if name in GLOBAL_HINTS and t.name not in ("money", "any"):
                self.report(codes.WRONG_TYPE, f"hint `{name}` must be money; this is {a_type(t)}", hint.value.span)
            self.check_hint_sees(name, hint)
        for inv in p.invariants:
            self.expect(inv.condition, T.BOOL, scope, "an invariant")

    def check_hint_sees(self, name: str, hint) -> None:
        """A hint is the agent's judgement, so it sees what its player may see: no other player's
        `hidden` field (`player.cash` is his own; `q.cash` of another is not). The functions it
        calls are held to the same rule."""
        hidden = {f.name for f in self.p.player_fields.values() if f.hidden}
        if not hidden:
            return
        pending, seen = [hint.value], set()
        while pending:
            root = pending.pop()
            for node in walk.walk(root):
                if isinstance(node, ast.Call) and node.func in self.p.defines and node.func not in seen:
                    seen.add(node.func)
                    pending.append(self.p.defines[node.func].value)
                if not (isinstance(node, ast.Attr) and node.name in hidden):
                    continue
                if isinstance(node.obj, ast.Name) and node.obj.id == PLAYER and root is hint.value:
                    continue
                obj_type = self.types.get(id(node.obj))
                if obj_type is not None and obj_type.name != "player":
                    continue
                self.report(codes.HINT_READS_HIDDEN_FIELD,
                            f"hint `{name}` reads `{node.name}`, a hidden field, of a player other than "
                                    f"its own", node.span,
                           help=f"a hint sees what its player may see: his own `player.{node.name}`, not another's")
                return

    def check_ends(self, scope):
        for end in self.p.ends:
            self.expect(end.condition, T.BOOL, scope, "an end condition")
            self.expect_winner(end.winner, scope)
        if not self.p.ends and not any(isinstance(n, ast.EndGame) for n in walk.walk(rule_roots(self.p))):
            self.report(codes.NO_END_CONDITION, "the game has no `end when`; only the turn limit will end it",
                        self.p.game.span if self.p.game else Span(1, 1, 1, 2))

    def check_scenarios(self, scope):
        self.decisions = decision_options(self.p)
        for scenario in self.p.scenarios:
            self.assume(f"scenario \"{scenario.title}\"", scenario.meta, scenario.span)
            env = dict(scope)
            env["winner"] = T.PLAYER.maybe()
            env["winners"] = T.list_of(T.PLAYER)
            env["game_over"] = T.BOOL
            first_players = None
            self.scenario_players: set[str] = set()
            played: object | None = None  # the first step that plays (a `setup` must come before it)
            set_up: ast.ScenarioSetup | None = None
            for item in scenario.items:
                if isinstance(item, ast.ScenarioSetup):
                    if set_up is not None or played is not None:
                        first: Any = set_up or played
                        self.report(codes.SCENARIO_SETUP_MISPLACED, "the game is set up once, before the scenario "
                                    f"plays: line {first.span.line} " + ("set it up already" if set_up else "began to play"),
                                    item.span, help="write `setup` after `players`, `dice` and `cards`, before any "
                                    "`play turn`, `as`, `do` or `forbid`")
                    set_up = item
                elif played is None and isinstance(item, (ast.ScenarioTurn, ast.ScenarioAs, ast.ScenarioAction)) \
                        or isinstance(item, ast.ScenarioTrade) and item.mode in ("do", "forbid"):
                    played = played or item
                if isinstance(item, ast.ScenarioPlayers):
                    if first_players is not None:
                        self.report(codes.DEFINED_TWICE, "the scenario names its players twice", item.span,
                                    help=f"name them all on the first `players` line (line {first_players.span.line})")
                        continue
                    first_players = item
                    for n in item.names:
                        if n.id in self.scenario_players:
                            self.report(codes.DEFINED_TWICE, f"player `{n.id}` is named twice", n.span)
                        self.scenario_players.add(n.id)
                        env[n.id] = T.PLAYER
                elif isinstance(item, ast.ScenarioAs):
                    self.need_player(item.player, env, item.span)
                    self.block(item.body, {**env, "player": T.PLAYER}, "turn")
                elif isinstance(item, ast.ScenarioTurn):
                    self.need_player(item.player, env, item.span)
                elif isinstance(item, ast.ScenarioExpect):
                    self.expect(item.condition, T.BOOL, env, "an expectation")
                elif isinstance(item, ast.Set):
                    self.statement(item, env, "scenario")
                elif isinstance(item, ast.ScenarioCards):
                    deck = self.p.decks.get(item.deck)
                    if deck is None:
                        self.report(codes.UNKNOWN_NAME,
                                    f"unknown deck `{item.deck}`", item.span, help=nearest_hint(item.deck, self.p.decks))
                    else:
                        cards = {c.name for c in deck.cards} if deck.of is None else \
                            {n for n, t in self.p.things.items() if t.kind == deck.of}
                        for c in item.cards:
                            if c.id not in cards:
                                self.report(codes.UNKNOWN_NAME, f"deck `{item.deck}` has no card `{c.id}`", c.span,
                                            help=nearest_hint(c.id, cards))
                elif isinstance(item, ast.ScenarioAction):
                    self.need_player(item.player, env, item.span)
                    action = self.p.actions.get(item.action)
                    if action is None:
                        self.report(codes.UNKNOWN_NAME, f"unknown action `{item.action}`", item.span,
                                    help=nearest_hint(item.action, self.p.actions))
                    elif (action.param is None) != (item.argument is None):
                        self.report(codes.WRONG_ARGUMENT_COUNT,
                                    f"action `{item.action}` takes {'one argument' if action.param else 'no argument'}",
                                    item.span)
                    elif item.argument is not None:
                        kinds = action.param.kinds if action.amount is None else (action.param.kind,)
                        argument = self.infer(item.argument, env)
                        if argument.name not in kinds or len(kinds) == 1:  # one kind: `expect` says what is wrong
                            self.expect(item.argument, Type(kinds[0]), env, "the action's argument")
                elif isinstance(item, ast.ScenarioSees):
                    self.need_player(item.player, env, item.span)
                    self.infer(item.value, env)
                elif isinstance(item, ast.ScenarioTrade):
                    self.need_player(item.player, env, item.span)
                    self.need_player(item.partner, env, item.span)
                    self.answer_window(item.window, env)
                    if self.p.trade is None:
                        self.report(codes.UNKNOWN_NAME, "the scenario trades, but the file has no `trade` declaration", item.span,
                                    help="declare what may be traded: `trade Kind with cash`")
                    kinds = {k.id for k in self.p.trade.kinds} if self.p.trade is not None else set()
                    for side in (item.gives, item.takes):
                        amounts = 0
                        for thing in side:
                            t = self.infer(thing, env)
                            if t.name == "money":
                                amounts += 1
                            elif t.name == "card":
                                if self.p.trade is not None and not self.p.trade.cards:
                                    self.report(codes.UNTRADABLE_IN_SCENARIO_TRADE,
                                                "the scenario trades a card, but the `trade` declaration does "
                                                "not list `cards`", thing.span)
                            elif t.name not in kinds:
                                self.report(codes.UNTRADABLE_IN_SCENARIO_TRADE, f"a trade's side lists things of a traded kind "
                                            f"({', '.join(f'`{k}`' for k in sorted(kinds)) or 'none'}), kept cards and "
                                            f"money, not a `{t}`", thing.span)
                        if amounts > 1:
                            self.report(codes.UNTRADABLE_IN_SCENARIO_TRADE,
                                        "a trade's side has at most one amount of money", item.span)
                elif isinstance(item, ast.ScenarioAnswer):
                    self.need_player(item.player, env, item.span)
                    self.need_decision(item)
                    self.answer_window(item.window, env)
                    if item.refused:
                        self.need_refusable(item)
                    for v in item.values:
                        if not isinstance(v, (ast.Name, ast.Literal)):  # a bare name is an option's name
                            self.report(codes.COMPUTED_SCENARIO_ANSWER,
                                        "an answer is a value like `$60`, `true` or `none`, or an option's name",
                                        v.span, help="scripted answers are written out, not computed")
                        elif item.decision == "bid" and not (isinstance(v, ast.Literal) and v.type in ("money", "none")):
                            self.report(codes.COMPUTED_SCENARIO_ANSWER,
                                        "a bid is an amount like `$60`, or `none` to drop out", v.span,
                                        help="scripted bids are amounts of money")
                elif isinstance(item, ast.ScenarioDice):
                    for faces in item.rolls:
                        if any(not 1 <= f <= 6 for f in faces):
                            self.report(codes.IMPOSSIBLE_DIE_FACE,
                                        f"a die shows 1 to 6, not {' '.join(map(str, faces))}", item.span)

    def need_decision(self, answer: ast.ScenarioAnswer) -> None:
        """A scenario's answers are for a decision the rules ask, and name one of its options: a misspelt
        decision was never asked, and a misspelt option was not taken (the first was, in both cases).
        An option that exists but is not offered at that moment is a fair answer (it tests that it is
        not offered). Not for a scenario a variant inherits: a house rule may drop a decision its
        base's scenarios answer (a house rule that drops a `choose` leaves its answers unasked)."""
        if answer.span.file not in (None, self.p.path):
            return
        if answer.decision not in self.decisions:
            self.report(codes.UNKNOWN_SCENARIO_ANSWER, f"the rules never ask a decision `{answer.decision}`", answer.span,
                        help=nearest_hint(answer.decision, self.decisions)
                        or "decisions are " + ", ".join(f"`{d}`" for d in sorted(self.decisions)))
            return
        names = self.decisions[answer.decision]
        for value in answer.values if names is not None else ():
            name = value.id if isinstance(value, ast.Name) else value.value if isinstance(value, ast.Literal) \
                and isinstance(value.value, str) else None  # a name, or a text
            if name is not None and name not in names:
                self.report(codes.UNKNOWN_SCENARIO_ANSWER, f"`{name}` is not an option of `{answer.decision}`", value.span,
                            help=nearest_hint(name, names)
                            or "its options are " + ", ".join(f"`{n}`" for n in sorted(names)))

    def answer_window(self, window: ast.AnswerWindow | None, env) -> None:
        """`in|before|after PHASE [of P] [while COND]`: a phase of the turn (`in`: or of a status), a player,
        a condition."""
        if window is None:
            return
        inherited = window.span.file not in (None, self.p.path)  # a house rule may remove its phase (see `need_decision`)
        if window.phase is not None and not inherited:
            phases = {ph.name for ph in self.p.turn.phases} if self.p.turn else set()
            if window.relation == "in":  # a status's phase too; before and after are of the turn's order
                phases |= {ph.name for status in self.p.statuses.values() for ph in status.phases}
            if window.phase not in phases:
                self.report(codes.UNKNOWN_NAME, f"unknown phase `{window.phase}`", window.phase_span or window.span,
                            help=nearest_hint(window.phase, phases)
                            or "phases are " + ", ".join(f"`{n}`" for n in sorted(phases)))
        if window.of is not None:
            self.need_player(window.of, env, window.span)
        if window.condition is not None:
            self.expect(window.condition, T.BOOL, {**env, "player": T.PLAYER}, "a window's condition")

    def need_refusable(self, answer: ast.ScenarioAnswer) -> None:
        """A `refuse`d answer is one a rule could refuse: an action, a bid, a `choose`'s option or item.
        A trade partner's `accept`, `keep` and an optional phase's `play`/`skip` are always allowed,
        and so is dropping out of an auction (`none`)."""
        names = self.decisions.get(answer.decision)
        always = answer.decision in ("accept", "keep") or (
            names is not None and names and all(n in ("play", "skip") for n in names))
        if always:
            self.report(codes.UNREFUSABLE_ANSWER, f"no rule refuses an answer to `{answer.decision}`: every answer "
                        "it allows is always allowed", answer.span,
                        help="refuse an action (`refuse Ann act: build, Lot1`), a bid, or a `choose`'s option")
        elif answer.decision == "bid":
            for v in answer.values:
                if isinstance(v, ast.Literal) and v.type == "none":
                    self.report(codes.UNREFUSABLE_ANSWER, "dropping out of an auction (`none`) is never refused",
                                v.span, help="refuse an amount: `refuse Ann bid: $500`")

    def need_player(self, name: str, env, span):
        if env.get(name) != T.PLAYER or name not in self.scenario_players:
            self.report(codes.UNKNOWN_NAME, f"unknown player `{name}`", span, help="name the players first: `players Ann, Bob`")

    def check_unused(self):
        for name, param in self.p.params.items():
            if name not in self.used:
                self.report(codes.UNUSED_DECLARATION, f"parameter `{name}` is never used", param.span)
        for name, deck in self.p.decks.items():
            if name not in self.drawn_decks:
                self.report(codes.UNUSED_DECLARATION, f"deck `{name}` is never drawn from", deck.span)
        for what, table in (("function", self.p.defines), ("procedure", self.p.procedures)):
            for name, decl in table.items():
                if name not in self.used:
                    self.report(codes.UNUSED_DECLARATION, f"{what} `{name}` is never used", decl.span)


_SKIPPED_FIELDS = ("span", "meta", "target_span", "deck_span", "passes_span")


def _copies(a: ast.Handler | ast.Hook, b: ast.Handler | ast.Hook) -> bool:
    """Two copies of one handler written over several kinds (`on land Street or Railroad d`)."""
    return (isinstance(a, ast.Handler) and isinstance(b, ast.Handler) and bool(a.kinds) and a.kinds == b.kinds
            and a.span == b.span and a.span.file == b.span.file)


def _shape(node, var: str | None):
    """A node as plain data, for telling two rules written alike: no spans, no citations, and the
    handler's variable `var` written `_` wherever it is named."""
    if isinstance(node, (tuple, list)):
        return tuple(_shape(n, var) for n in node)
    if not walk.is_node(node):
        return node
    if isinstance(node, ast.Name) and var is not None and node.id == var:
        return ("Name", "_")
    return (type(node).__name__,) + tuple(
        (f.name, "_" if f.name == "var" and var is not None and getattr(node, f.name) == var
         else _shape(getattr(node, f.name), var))
        for f in node.__attrs_attrs__ if f.name not in _SKIPPED_FIELDS)


def _always_does(block, target: str, procs: dict, seen: frozenset):
    """The `do` that every path through `block` reaches, running procedure `target` again (directly,
    or through a procedure that always does), before an `end turn` or `end game`; None if some path
    does not. Loops may run no time, and a choice's options are all followed."""
    for st in block.statements:
        if isinstance(st, (ast.EndTurn, ast.EndGame)):
            return None
        if isinstance(st, ast.Do):
            if st.name == target:
                return st
            if st.name in procs and st.name not in seen:
                if _always_does(procs[st.name].body, target, procs, seen | {st.name}) is not None:
                    return st
        elif isinstance(st, ast.If) and st.orelse is not None:
            found = [_always_does(b, target, procs, seen) for _, b in st.branches]
            found.append(_always_does(st.orelse, target, procs, seen))
            if all(f is not None for f in found):
                return found[0]
        elif isinstance(st, ast.Choose) and st.options:
            found = [_always_does(o.body, target, procs, seen) for o in st.options]
            if all(f is not None for f in found):
                return found[0]
    return None


def _blame_removal(program: Program, diag: Diagnostic) -> Diagnostic:
    """An unknown name in a variant's base that the variant removed (`remove card NewsCards.Boom`,
    still named by a base rule): the error stands where the name is, in the base, and a note points at
    the variant's line that removed it, the user's to change."""
    if diag.code not in (codes.UNKNOWN_NAME.code, codes.UNKNOWN_FIELD.code) or diag.span is None or diag.path == program.path:
        return diag
    named = program.text_at(diag.span).split(".")[-1].strip()
    for removal in reversed(program.removals):
        if removal.target.split(".")[-1] == named:
            note = Label(removal.span, f"the variant's `{removal.what} {removal.target}` removed it",
                         removal.span.file or program.path)
            return attrs.evolve(diag, labels=(*diag.labels, note))
    return diag


def check_program(rules: ast.RulesFile) -> Checked:
    program, diags = build_program(rules)
    checker = Checker(program, diags)
    checker.run()
    checked = Checked(program, diags, checker.types, checker.assumptions)
    diags.extend(getattr(rules, "warnings", ()))  # what applying a variant's changes found (R0517)
    if checked.ok:  # the soundness analyses read names and types the checker found sound
        diags.extend(soundness.analyse(checked))
    checked.allowances, problems = allowances((*rules.decls, *getattr(rules, "removals", ())), program.path)
    diags.extend(problems)
    checked.allowed = [d for d in diags if is_allowed(d, checked.allowances)]
    diags[:] = [_blame_removal(program, d) for d in diags if not is_allowed(d, checked.allowances)]
    # A variant's diagnostics come from several files: group them by file, then in reading order.
    diags.sort(key=lambda d: (d.path, d.span.line if d.span else 0, d.span.column if d.span else 0))
    return checked


def _returns_pieces(s: ast.Set) -> bool:
    """A `set` of a supply's field that can only lower it (`set p.houses = p.houses - 1`, `= 0`): it gives
    pieces back to the bank, so it needs no test of what the bank has left (R0415)."""
    value, target = s.value, s.target
    if isinstance(value, ast.Literal) and value.value == 0:
        return True
    return (isinstance(value, ast.BinOp) and value.op == "-" and isinstance(value.left, ast.Attr)
            and isinstance(target, ast.Attr) and value.left.name == target.name
            and _same_path(value.left.obj, target.obj))


def _at_most_left(s: ast.Set, supply: str) -> bool:
    """A `set` of a supply's field to `min(…, SUPPLY.left, …)` (a hotel sold back comes down to as many
    houses as the bank has, at most four): it never takes more pieces than the bank has left, so it
    needs no test of the supply in the action's `when` (R0415)."""
    value = s.value
    return (isinstance(value, ast.Call) and value.func == "min"
            and any(isinstance(a, ast.Attr) and a.name == "left" and isinstance(a.obj, ast.Name) and a.obj.id == supply
                    for a in value.args))


def _same_path(a, b) -> bool:
    if isinstance(a, ast.Name) and isinstance(b, ast.Name):
        return a.id == b.id
    return isinstance(a, ast.Attr) and isinstance(b, ast.Attr) and a.name == b.name and _same_path(a.obj, b.obj)
