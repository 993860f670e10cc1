"""The abstract syntax tree of a .rules file.

Plain attrs classes, one per construct, each carrying the `Span` it came from so that
the checker and the interpreter can point back at the source. The tree is what the
parser produces and what the checker and the interpreter's compiler consume; it holds
no behaviour of its own.
"""

from __future__ import annotations

import threading
from typing import TYPE_CHECKING, Any, TypeVar, Union, cast

import attrs

from .diagnostics import Diagnostic, Span

if TYPE_CHECKING:
    from typing_extensions import TypeAlias, dataclass_transform
else:
    def dataclass_transform(**_options):
        """For the type checker only (PEP 681): at run time `node` and `statement` are as written."""
        return lambda function: function


@attrs.frozen
class Meta:
    """What a line says about itself: whether its data is assumed, what it cites, and which warnings
    about it are meant (`allow`: diagnostic codes or names, as written)."""

    assumed: bool = False
    assumed_note: str | None = None
    cite: str | None = None
    allow: tuple = ()


NO_META = Meta()


NODE_CLASSES: list[type] = []  # every node class, in declaration order: the one walk (walk.py) knows these
STATEMENT_CLASSES: list[type] = []  # the node classes that are statements of a rule's body


_Class = TypeVar("_Class", bound=type)


# `dataclass_transform` tells a type checker what `node` makes of a class (frozen, keyword-only
# fields): mypy then knows each node's constructor and fields, as it knows an `attrs.frozen` class's.
@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(attrs.field,))
def node(cls: _Class) -> _Class:
    """Declare an AST node: frozen attrs class with `span` (and `meta`) last, keyword-only. Its
    `__repr__` is `_node_repr`, one for every node class, rather than one attrs compiles for each:
    the same text, for a quarter less start-up time in this module."""
    cls.__repr__ = _node_repr  # type: ignore[method-assign, assignment]  # (the class's own, a function of the node)
    made = attrs.frozen(kw_only=True, repr=False)(cls)
    NODE_CLASSES.append(made)
    return made


_repr_context = threading.local()  # the nodes being written out in this thread: a cycle prints `...`


def _node_repr(self) -> str:
    """`Name(field=value, ...)`, every field attrs would show, as attrs's own `__repr__` writes it."""
    active = getattr(_repr_context, "active", None)
    if active is None:
        active = _repr_context.active = set()
    if id(self) in active:
        return "..."
    active.add(id(self))
    try:
        shown = ", ".join(f"{field.name}={(field.repr if callable(field.repr) else repr)(getattr(self, field.name))}"
                          for field in self.__attrs_attrs__ if field.repr)
        return f"{self.__class__.__qualname__.rsplit('>.', 1)[-1]}({shown})"
    finally:
        active.discard(id(self))


_Node = TypeVar("_Node")


def evolve(original: _Node, **changes: Any) -> _Node:
    """`attrs.evolve` of a node: a copy of it with `changes`. (mypy knows the node classes through
    `dataclass_transform`, not as attrs classes, so its attrs plugin would refuse `attrs.evolve` of one.)"""
    return attrs.evolve(cast(Any, original), **changes)


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(attrs.field,))
def statement(cls: _Class) -> _Class:
    """Declare an AST node that is a statement (a line of a rule's body, compiled to one step)."""
    made = node(cls)
    STATEMENT_CLASSES.append(made)
    return made


# ---- expressions ---------------------------------------------------------------

@node
class Literal:
    value: int | str | bool | None
    type: str  # "count" | "money" | "percent" | "text" | "bool" | "none"
    span: Span


@node
class Name:
    id: str
    span: Span


@node
class Attr:
    obj: Expr
    name: str
    span: Span


@node
class Index:
    obj: Expr
    index: Expr
    span: Span


@node
class Call:
    func: str
    args: tuple[Expr, ...]
    span: Span


@node
class Aggregate:
    """`count(q in coll: cond)`, `sum(q in coll: expr)`, `all`, `any`, `min`, `max`."""

    func: str
    var: str
    collection: Expr
    where: Expr | None
    body: Expr | None
    span: Span


@node
class Conditional:
    """`if cond then a else b` as an expression."""

    condition: Expr
    then: Expr
    orelse: Expr
    span: Span


@node
class BinOp:
    op: str
    left: Expr
    right: Expr
    span: Span


@node
class Compare:
    op: str
    left: Expr
    right: Expr
    span: Span


@node
class BoolOp:
    op: str  # "and" | "or"
    operands: tuple[Expr, ...]
    span: Span


@node
class Not:
    operand: Expr
    span: Span


@node
class Neg:
    operand: Expr
    span: Span


@node
class PercentOf:
    """`10% of player.cash rounded down`: a percentage with its declared rounding, to the currency's
    unit or, with `to U`, to a multiple of U (`rounded up to $100`)."""

    percent: Expr
    base: Expr
    rounding: str
    span: Span
    unit: Expr | None = None


@node
class Rounded:
    """`X rounded R to U`: X to a multiple of U (money or a count), down, up or to the nearest; after a
    `/` (`bonus / count(tied) rounded up to $100`) the exact quotient is rounded, not the whole-number one."""

    value: Expr
    rounding: str  # "down" | "up" | "nearest"
    unit: Expr
    span: Span


@node
class ListExpr:
    items: tuple[Expr, ...]
    span: Span


# An expression: every node class above (tests/test_types.py checks that the union holds them all).
Expr: TypeAlias = Union[Literal, Name, Attr, Index, Call, Aggregate, Conditional, BinOp, Compare, BoolOp, Not, Neg,
                        PercentOf, Rounded, ListExpr]


# ---- statements ----------------------------------------------------------------

@statement
class Roll:
    count: Expr
    var: str
    span: Span
    meta: Meta = NO_META


@statement
class RollAgain:
    """`roll 2 dice as d again on doubles up to 3 times:` BODY [`too many doubles:` TOO_MANY]: roll and run
    BODY; while the dice show doubles, roll again and run it again, in the same turn, at most `limit`
    rolls in all. If the last roll allowed shows doubles too, TOO_MANY (when given) runs instead of BODY."""

    count: Expr
    var: str
    limit: int
    body: Block
    too_many: Block | None
    span: Span
    limit_span: Span
    meta: Meta = NO_META


@statement
class Move:
    who: Expr
    how: str  # "by" | "to" | "back" | "send" (to, landing but not passing) | "place" (at, nothing happens)
    amount: Expr
    span: Span
    meta: Meta = NO_META
    marks: tuple[str, ...] = ()  # `with double_rent`: names the `on land`/`on pass` handlers of this move see as `true`
    marks_span: Span | None = None


@statement
class Pay:
    amount: Expr
    source: Expr
    target: Expr
    span: Span
    meta: Meta = NO_META


@statement
class Split:
    """`split A from X among PS rounded R to U`: each player of PS is paid A / count(PS), rounded to a
    multiple of U; the payer keeps what rounding down leaves (nothing happens for no one)."""

    amount: Expr
    source: Expr
    among: Expr
    rounding: str  # "" when none is written (an error the checker reports)
    unit: Expr | None
    span: Span
    meta: Meta = NO_META


@statement
class Set:
    target: Expr
    value: Expr
    span: Span
    meta: Meta = NO_META


@statement
class Let:
    name: str
    value: Expr
    span: Span
    meta: Meta = NO_META


@statement
class Draw:
    """`draw from Deck [for P]`: the next card, its effect run for P (`player` without `for`)."""

    deck: str
    deck_span: Span
    span: Span
    meta: Meta = NO_META
    who: Expr | None = None  # `for P`: whom the card is drawn for


@statement
class DrawAs:
    """`draw from Deck [for P] as x:` block [`else:` block]: what was drawn (a card, or a thing of a
    deck of things) is `x` in the block; `else` runs when the pile is empty."""

    deck: str
    deck_span: Span
    who: Expr | None
    var: str
    body: Block
    orelse: Block | None
    span: Span
    meta: Meta = NO_META


@statement
class Discard:
    """`discard from Deck`: the top card goes to the discards unread (its effect does not run)."""

    deck: str
    deck_span: Span
    span: Span
    meta: Meta = NO_META


@statement
class DiscardHeld:
    """`discard card C from P`: P gives up a card he keeps, unused; `give card C from P to Q`: Q
    keeps it instead (`to` is None for a discard)."""

    card: Expr
    who: Expr
    to: Expr | None
    span: Span
    meta: Meta = NO_META


@statement
class PlayCard:
    """`play Deck.Card by P`: the card's effect runs for P (no card moves): a wild card's uses."""

    card: Expr
    who: Expr
    span: Span
    meta: Meta = NO_META


@statement
class ExtraTurn:
    """`extra turn for P`: P plays again after this turn."""

    who: Expr
    span: Span
    meta: Meta = NO_META


@statement
class Pass:
    """`pass`: nothing happens (an option that does nothing, like discarding a card unused)."""

    span: Span
    meta: Meta = NO_META


@statement
class Window:
    """`window for P`: P may take his actions and offer trades here, not only at the turn's end;
    `window for P only A, B`: only the actions named (no trades)."""

    who: Expr
    span: Span
    only: tuple[Name, ...] = ()  # the actions allowed in it; () for all, and trades
    meta: Meta = NO_META


@statement
class UseCard:
    """`use card by P`: P may use one of the cards he keeps."""

    who: Expr
    span: Span
    meta: Meta = NO_META


@statement
class Put:
    """`put P in S`: P is in status S from now on: his turns run S's phases (and S's `at` square holds his
    token); for the player whose turn it is, this turn ends."""

    who: Expr
    status: str
    status_span: Span
    span: Span
    meta: Meta = NO_META


@statement
class Release:
    """`release P`: P leaves his status; released in his status's turn, he plays the ordinary phases next."""

    who: Expr
    span: Span
    meta: Meta = NO_META


@statement
class Eliminate:
    who: Expr
    span: Span
    meta: Meta = NO_META


@statement
class EndTurn:
    span: Span
    meta: Meta = NO_META


@statement
class EndGame:
    winner: Expr
    reason: str
    span: Span
    meta: Meta = NO_META


@statement
class RaiseCash:
    span: Span
    meta: Meta = NO_META


@node
class Block:
    statements: tuple[Stmt, ...]
    span: Span
    meta: Meta = NO_META


@statement
class If:
    branches: tuple[tuple[Expr, Block], ...]  # (condition, block) of the `if` and each `elif`
    orelse: Block | None
    span: Span
    meta: Meta = NO_META


@statement
class For:
    var: str
    collection: Expr
    body: Block
    span: Span
    meta: Meta = NO_META


@statement
class Auction:
    thing: Expr
    minimum: Expr
    among: Expr | None
    var: str
    body: Block
    orelse: Block | None
    span: Span
    meta: Meta = NO_META
    window: bool = False  # `with window`: each bidder may act (borrow…) before each of his bids
    after: Expr | None = None  # `in turn after P`: round-robin, in seat order from the one after P
    passes: int = 1  # `passes N`: a bidder is out at his N-th pass
    passes_span: Span | None = None
    bluffing: bool = False  # `bluffing`: bids may exceed cash; an exposed winner runs `bluff:`, the auction re-runs
    limit: Expr | None = None  # `bluffing up to EXPR`: a bidder's highest bid (`bidder` names him), when above his cash
    bluff: Block | None = None


@node
class Option:
    name: str
    when: Expr | None
    body: Block
    span: Span


@statement
class ChooseFor:
    """`choose "name" by P for x in C where W:` — P picks one element; the block runs with it."""

    name: str
    by: Expr
    var: str
    collection: Expr
    where: Expr | None
    body: Block
    span: Span
    meta: Meta = NO_META


@statement
class Choose:
    name: str
    by: Expr
    options: tuple[Option, ...]
    span: Span
    meta: Meta = NO_META


# ---- declarations --------------------------------------------------------------

@node
class Setting:
    key: str
    value: Expr | tuple[str, ...]  # expression, or tuple of words
    upper: Expr | None
    span: Span
    meta: Meta = NO_META


@node
class Game:
    title: str
    settings: tuple[Setting, ...]
    span: Span
    meta: Meta = NO_META


@node
class Extends:
    path: str
    span: Span
    meta: Meta = NO_META


@node
class Variation:
    """A change a variant makes to the file it extends: `override param`, `replace phase`,
    `remove card Deck.Card`... `what` names the change, `target` what it changes, `node`
    the new declaration (the class `what` says: a Param, a Phase, a Card, the cards an
    `extend deck` adds...; None for a removal)."""

    what: str  # "override param" | "override game" | "replace phase" | "remove phase" |
    #            "replace card" | "remove card" | "extend deck" | "remove scenario" |
    #            "replace handler" | "remove handler" | "replace action" | "remove action" |
    #            "remove invariant" | "remove end" | "remove row" | "remove deck" | "remove param" |
    #            "override table" | "insert phase after" | "insert phase before" | "override board" |
    #            "replace case" (`replace on … only when C:`: the node is the case, a Handler or Hook)
    # A handler or hook is named by `as NAME` (target "NAME") or by its header (target
    # "on land Square", "before turn").
    target: str
    node: Decl | Phase | Card | tuple[Card, ...] | None
    span: Span
    meta: Meta = NO_META


@node
class Param:
    name: str
    value: Expr
    span: Span
    meta: Meta = NO_META


@node
class Bank:
    unlimited: bool
    amount: Expr | None
    span: Span
    meta: Meta = NO_META


@node
class Supply:
    """`supply Houses = 32 on Lot.houses`: the bank holds `size` pieces; those out of it are the sum of
    the count field `field` over the things of `kind`. Taking more than it holds stops the game."""

    name: str
    size: Expr
    kind: str
    field: str
    kind_span: Span
    field_span: Span
    span: Span
    meta: Meta = NO_META


@node
class TypeRef:
    name: str
    optional: bool
    is_list: bool
    element: TypeRef | None
    span: Span
    # a parameter over several kinds (`define f(d: Street or Railroad)`): the others; `name` is the first.
    # The body is checked once for each kind, and an argument may be a thing of any of them.
    also: tuple[str, ...] = ()

    @property
    def kinds(self) -> tuple[str, ...]:
        return (self.name, *self.also)


@node
class Field:
    name: str
    type: TypeRef
    default: Expr | None
    is_state: bool
    span: Span
    meta: Meta = NO_META
    hidden: bool = False  # `hidden cash: money`: other players' agents cannot read it (player fields)


@node
class PlayerDecl:
    fields: tuple[Field, ...]
    span: Span
    meta: Meta = NO_META


@node
class GlobalDecl:
    fields: tuple[Field, ...]
    span: Span
    meta: Meta = NO_META


@node
class Kind:
    name: str
    fields: tuple[Field, ...]
    span: Span
    meta: Meta = NO_META


@node
class GroupDecl:
    name: str
    kind: str
    members: tuple[Name, ...]
    span: Span
    meta: Meta = NO_META


@node
class SquareDecl:
    name: str
    title: str | None
    off_board: bool  # a place off the ring (a building in the middle): reached only by `move … to`
    stop: bool = False  # every `move … by` that would pass it ends on it
    span: Span
    meta: Meta = NO_META


@node
class Board:
    squares: tuple[Name, ...]
    span: Span
    copies: tuple[BoardCopy, ...] = ()  # the places named with `as`, in board order
    meta: Meta = NO_META


@node
class BoardCopy:
    """`Corner as Corner2` in `board:`: one place of a square the board repeats, named. `index` is the
    place's position on the board (from 0)."""

    name: str
    square: str
    index: int
    span: Span


@node
class GraphLink:
    """One line of a graph's links: `Lyon - Paris, Marseille` (Lyon is next to each, and each to Lyon)."""

    node: Name
    neighbours: tuple[Name, ...]
    span: Span


@node
class GraphDecl:
    """`graph NAME of K: grid R by C` (R x C things of K named A1 … by row letter and column, each next
    to the four beside it) or `graph NAME of K:` with lines of links between K's things."""

    name: str
    kind: str
    kind_span: Span
    rows: int | None  # a grid's size; None for a graph of links
    columns: int | None
    links: tuple[GraphLink, ...]
    span: Span
    meta: Meta = NO_META


@node
class AssumedValue:
    """One entry of a row's `assumed` list: a column (`rents`), or one element of a list column
    (`income[2]`, counting from 0) when the rulebook states the others."""

    column: str
    index: int | None
    span: Span

    def __str__(self) -> str:
        return self.column if self.index is None else f"{self.column}[{self.index}]"


@node
class Row:
    name: str
    cells: tuple[Expr, ...]
    assumed_columns: tuple[AssumedValue, ...] | None  # None: nothing assumed; (): the whole row
    cite: str | None
    span: Span


@node
class RowRange:
    """One loop of a generated row: `n in 1 to 25` (low, high) or `c in Chain` (a kind's things or a
    group's values, `names`)."""

    var: str
    low: int | None
    high: int | None
    names: Name | None
    span: Span


@node
class RowGenerator:
    """`for c in Chain, n in 1 to 25: "{c}{n}" c n`: a row for each combination of the loops' values
    (the last loop varies fastest), named by the template with each `{var}` replaced by the value's name
    or number; a cell that names a loop's variable takes its value."""

    ranges: tuple[RowRange, ...]
    template: str
    template_span: Span
    cells: tuple[Expr, ...]
    assumed_columns: tuple[AssumedValue, ...] | None
    cite: str | None
    span: Span

    @property
    def name(self) -> str:
        """The rows' name template, where a variant looks for a row by name (`remove row`)."""
        return self.template


@node
class Table:
    kind: str
    columns: tuple[Name, ...]
    rows: tuple[Row | RowGenerator, ...]
    span: Span
    meta: Meta = NO_META


@node
class Card:
    name: str
    title: str | None
    copies: int
    keep: bool  # "now or later": the player may keep it to use in a later turn
    body: Block
    span: Span
    lasting: bool = False  # in force until the next card of its deck is drawn (`Deck.showing`)
    later: bool = False  # `keep later`: once kept, `use card` offers it only from the next turn on
    tradable: bool = False  # `tradable [when COND]`: while kept, it may be traded (`trade …, cards`)
    tradable_when: Expr | None = None  # COND, with `player` = its holder


@node
class Deck:
    name: str
    policy: str  # "cut" | "reshuffle" | "once" | "cycle"
    cards: tuple[Card, ...]
    span: Span
    meta: Meta = NO_META
    of: str | None = None  # `deck Bag of K once`: its cards are K's things, drawn with no effect
    of_span: Span | None = None


@node
class Phase:
    name: str
    title: str | None
    when: Expr | None
    optional: bool
    body: Block
    span: Span


@node
class Status:
    """`status InJail "In jail" at Jail:` and phases: a player status with its own turn."""

    name: str
    title: str | None
    at: str | None  # the square that holds a player put in it
    at_span: Span | None
    phases: tuple[Phase, ...]
    span: Span
    meta: Meta = NO_META


@node
class Setup:
    """`setup:` a block run once when the game is set up, after the first player is chosen and before
    the first turn (the opening interest level). `player` is not bound: no one's turn has begun."""

    body: Block
    span: Span


@node
class Turn:
    phases: tuple[Phase, ...]
    span: Span
    meta: Meta = NO_META


@node
class Handler:
    """`on land Property p when ...:`, `on land Square:`, `on pass Start:`, `on debt:`."""

    event: str
    target: str | None
    var: str | None
    when: Expr | None
    body: Block
    target_span: Span | None
    span: Span
    name: str | None = None  # `on land Square as NAME:`: the name a variant uses to replace or remove it
    # `on land Street or Railroad d:` every kind named, in order (empty for one). The program holds one copy
    # of the handler for each (model.py), with `target` that copy's kind: each is checked and runs as if
    # written for its kind alone; the passes that show the rule show it once, by these.
    kinds: tuple[str, ...] = ()
    cases: tuple[Span, ...] = ()  # where variants changed one case of it (`replace on … only when C:`, 5.21)

    @property
    def header_target(self) -> str | None:
        """The target as written: `Street or Railroad` for several kinds."""
        return " or ".join(self.kinds) if self.kinds else self.target


@node
class Hook:
    """`before turn:` / `after turn:`."""

    which: str
    when: Expr | None
    body: Block
    span: Span
    name: str | None = None  # `before turn as NAME:`
    cases: tuple[Span, ...] = ()  # where variants changed one case of it (`replace before turn only when C:`)


@node
class ParamDecl:
    """`(x: Kind)` of an action or a hint: the local name and the kind (or group) it ranges over."""

    name: str
    kind: str
    span: Span
    also: tuple[str, ...] = ()  # `(p: Street or Railroad or Utility)`: the other kinds it ranges over

    @property
    def kinds(self) -> tuple[str, ...]:
        return (self.kind, *self.also)


@node
class AmountRange:
    """`(amount: money from LOW to HIGH step STEP)`: an action's amount, chosen by the player among
    LOW, LOW + STEP, … up to HIGH (evaluated when the action is offered, with `player` bound)."""

    low: Expr
    high: Expr
    step: Expr
    span: Span


@node
class ActionDecl:
    name: str
    param: ParamDecl | None
    timing: str  # "any time" | "own turn"
    when: Expr | None
    body: Block
    span: Span
    relation: str | None = None  # `own turn before PHASE` / `in PHASE` / `after PHASE`: "before" | "in" | "after"
    phase: str | None = None  # ... that PHASE
    amount: AmountRange | None = None  # `param` is (var, "money" or "count") chosen in this range
    limit: int | None = None  # how many times a player may take it ...
    per: str | None = None  # ... per "turn" (each turn of the game) or per "visit" (each arrival of his token)
    limit_expr: Expr | None = None  # `(EXPR) per turn`: the limit computed when the action is offered (`player` bound)


@node
class TradeDecl:
    kinds: tuple[Name, ...]
    with_cash: bool
    when: Expr | None
    span: Span
    meta: Meta = NO_META
    cards: bool = False  # `trade Property, cards …`: kept cards flagged `tradable` may be traded too


@node
class TradeThing:
    """`trade Street or Railroad d when COND`: a thing of these kinds may change hands in a trade only while
    COND holds for it (`d` the thing, `player` the proposer, `partner` the other side)."""

    kinds: tuple[str, ...]
    var: str
    when: Expr
    span: Span
    kinds_span: Span
    meta: Meta = NO_META


@node
class EndDecl:
    condition: Expr
    winner: Expr
    reason: str
    span: Span
    meta: Meta = NO_META
    after_turn: bool = False  # `end after turn when`: checked when a turn is over, never after an elimination in it


@node
class Define:
    """`define NAME(x: T, ...) = expression`: a named expression usable wherever one is."""

    name: str
    params: tuple[tuple[str, TypeRef], ...]  # (name, type) of each
    value: Expr
    span: Span
    meta: Meta = NO_META


@node
class Procedure:
    """`procedure NAME(x: T, ...):` a block of statements that rules run with `do NAME(...)`."""

    name: str
    params: tuple[tuple[str, TypeRef], ...]  # (name, type) of each
    body: Block
    span: Span
    meta: Meta = NO_META


@statement
class Do:
    """`do NAME(args)`: run a procedure."""

    name: str
    args: tuple[Expr, ...]
    span: Span
    meta: Meta = NO_META


@node
class Hint:
    name: str
    param: ParamDecl | None
    value: Expr
    span: Span
    meta: Meta = NO_META


@node
class Invariant:
    text: str
    condition: Expr
    span: Span
    meta: Meta = NO_META


# ---- scenarios -----------------------------------------------------------------

@node
class ScenarioPlayers:
    names: tuple[Name, ...]
    span: Span


@node
class ScenarioDice:
    rolls: tuple[tuple[int, ...], ...]  # each roll's faces
    span: Span


@node
class ScenarioCards:
    deck: str
    cards: tuple[Name, ...]
    span: Span


@node
class AnswerWindow:
    """When a scripted answer applies: `in PHASE` (the turn is in that phase: from the phase's start
    to the next phase's or the end-of-turn windows), `before PHASE` / `after PHASE` (a phase of the
    turn: before it began, or once it is over, the end-of-turn windows included), `of P` (in P's
    turn), `while COND` (COND holds as the decision is put, `player` the one deciding). A scripted
    answer without one is for the first decision of its name."""

    phase: str | None
    phase_span: Span | None
    of: str | None
    condition: Expr | None
    span: Span
    relation: str | None = None  # "in" | "before" | "after", with `phase`


@node
class ScenarioAnswer:
    """`answer Ann bid: $60` (scripted answers, taken in order) / `refuse Ann bid: $900` (an answer
    the rules must refuse when the decision is put: then the next answer, or the default, is given)."""

    player: str
    decision: str
    values: tuple[Expr, ...]
    span: Span
    window: AnswerWindow | None = None
    refused: bool = False


@node
class ScenarioTurn:
    player: str
    span: Span


@node
class ScenarioAs:
    player: str
    body: Block
    span: Span


@node
class ScenarioExpect:
    condition: Expr
    span: Span
    meta: Meta = NO_META  # `§ "…"`: the sentence the expectation checks, shown when it fails


@node
class ScenarioTrade:
    """`do Ann trade F1 to Bob for E1, $5,000` (must be legal, then done as agreed) / `forbid ...`
    (must be illegal) / `offer ...` (Ann's agent proposes it in her next action window, if legal
    then; the partner's `accept` answer decides). A side lists things, kept cards and at most one
    amount of money."""

    mode: str  # "do", "forbid", "offer" or "refuse" (offered in her next window: the rules must refuse it)
    player: str
    partner: str
    gives: tuple[Expr, ...]
    takes: tuple[Expr, ...]
    span: Span
    window: AnswerWindow | None = None  # `refuse …`: which of her windows
    meta: Meta = NO_META  # `§ "…"`: the sentence the line checks, shown where its result is reported


@node
class ScenarioAction:
    """`do Ann build Lot1` (must be legal, then runs) / `forbid ...` (must be illegal)."""

    player: str
    action: str
    argument: Expr | None
    expect_legal: bool
    span: Span
    meta: Meta = NO_META  # `§ "…"`: the sentence the line checks, shown where its result is reported


@node
class ScenarioSetup:
    """`setup`: the game's setup as the rules state it (the first player, the `setup:` block), with
    the dice and cards forced before it. Without it a scenario starts from the fields' defaults."""

    span: Span


@node
class ScenarioSees:
    """`expect Bob sees Ann.position` / `expect Bob cannot see Ann.cash`: whether the expression can
    be worked out from what Bob's agent may read (the other players' `hidden` fields masked)."""

    player: str
    value: Expr
    visible: bool
    span: Span


@node
class Scenario:
    title: str
    items: tuple[ScenarioItem, ...]
    span: Span
    meta: Meta = NO_META


# ---- the unions of node classes ----------------------------------------------------

# A statement: a line of a rule's body, every class declared with @statement (STATEMENT_CLASSES;
# tests/test_types.py checks that the two agree).
Stmt: TypeAlias = Union[Roll, RollAgain, Move, Pay, Split, Set, Let, Draw, DrawAs, Discard, DiscardHeld, PlayCard, ExtraTurn, Pass,
                        Window, UseCard, Put, Release, Eliminate, EndTurn, EndGame, RaiseCash, If, For, Auction,
                        ChooseFor, Choose, Do]

# A line of a scenario: its setting up, its moves (a `set` line among them) and its expectations.
ScenarioItem: TypeAlias = Union[ScenarioPlayers, ScenarioDice, ScenarioCards, ScenarioAnswer, ScenarioTurn, ScenarioAs,
                                ScenarioExpect, ScenarioTrade, ScenarioAction, ScenarioSetup, ScenarioSees, Set]

# A declaration at the top of a rules file (`extends` and a variant's variations only until the variant
# is applied to its base, dsl/variants.py).
Decl: TypeAlias = Union[Game, Extends, Variation, Param, Bank, Supply, PlayerDecl, GlobalDecl, Kind, GroupDecl,
                        SquareDecl, Board, GraphDecl, Table, Deck, Setup, Turn, Status, Handler, Hook, ActionDecl, TradeDecl,
                        TradeThing, EndDecl, Define, Procedure, Hint, Invariant, Scenario]


@attrs.frozen
class Override:
    """A variant's `override param`, with the base's declaration it replaced: data beside the tree
    (the walk does not enter it), for the checker to compare the two values' types."""

    param: Param
    base: Param


@node
class RulesFile:
    path: str
    source: str
    decls: tuple[Decl, ...]
    span: Span
    sources: dict[str, str] = attrs.Factory(dict)  # every file's text by path, the base files of a variant too
    overrides: tuple[Override, ...] = ()  # a variant's `override param`s: Override records, base's first
    removals: tuple[Variation, ...] = ()  # a variant's `remove …` Variations, base's first: named where what they removed is missed
    warnings: tuple[Diagnostic, ...] = ()  # Diagnostics of applying a variant's changes that do not stop it (R0517), base's first
