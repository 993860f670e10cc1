"""Compile a checked rules file into a runnable `Rules`.

The pipeline is one-way, each phase taking the previous one's result: `load_file` (parse,
resolve `extends`) -> `check_program` (a `Checked`) -> `compile_rules(checked)` (a `Rules`).
`load_rules(path)` does all three. A `Rules` holds everything games of that file share: the
board layout, the compiled handlers, phases, actions, cards, end conditions and hints, and
parameter values (with any `--set NAME=VALUE` overrides applied), each as a record with
named fields; every rule carries its `RuleRef` (`where`). Each `Game` makes its own state.
"""

from __future__ import annotations

import re
from typing import Callable

import attrs

from rulesc.dsl import ast
from rulesc.dsl.builtins import DEBT_NAMES, GLOBAL_HINTS, PLAYER, TRADE_NAMES
from rulesc.dsl.checker import TURN_LIMIT_HELP, Checked, check_program, players_range_problem, turn_limit_problem
from rulesc.dsl import codes
from rulesc.dsl.diagnostics import RulesError
from rulesc.dsl.parser import parse_text
from rulesc.dsl.variants import load_file
from rulesc.dsl.types import Type, compatible

from .compiler import Compiler, owner_prefilter
from .events import NO_RULE, RuleRef
from .reads import POSITION, UNTRACKED, fixed_fields
from .state import Account, Copy, Player, Square, Supply, Thing, with_fields
from .pysource import Body, Expression
from .turngen import WrittenTurn, write_turn


@attrs.define
class Handler:
    var: str | None
    when: Expression | None
    body: Body
    where: RuleRef
    node: ast.Handler | ast.Hook  # the declaration, and the names its body may read (`local`): for turngen.py
    local: frozenset


@attrs.define
class ActionDef:
    name: str
    var: str | None
    kind: str | None
    timing: str
    when: Expression | None
    body: Body
    where: RuleRef
    prefilter: str | None = None  # a field that must hold the acting player (e.g. `owner`)
    sorted_reads: tuple = ()  # what `when` reads, in a fixed order (see Actions.legal_actions)
    volatile: Expression | None = None  # the part of the condition that reads what changes all the time
    relation: str | None = None  # `own turn before/in/after PHASE`: "before" | "in" | "after" ...
    phase_index: int | None = None  # ... the index of that phase in `phases`
    # (low, high, step) compiled: the amounts a player may choose, for an amount action
    amount: tuple[Expression, Expression, Expression] | None = None
    limit: int | None = None  # times a player may take it per turn or per visit (`once per turn`)
    per: str | None = None  # "turn" | "visit"
    select: tuple | None = None  # the volatile part as a fixed field to match and the rest: see `_selector`
    limit_expr: Expression | None = None  # `(EXPR) per turn`: the limit, computed with `player` bound


def thing_kinds_key(kinds: tuple) -> str:
    """The key in `Game.kind_things` of the things an action ranges over: its kind, or for several
    (`(p: Street or Railroad)`) their things together in table order, under `Street or Railroad`."""
    return " or ".join(kinds)


@attrs.define
class CardDef:
    name: str
    title: str
    keep: bool
    body: Body
    where: RuleRef
    lasting: bool = False
    later: bool = False  # `keep later`: once kept, usable only from its holder's next turn on
    tradable: bool = False  # `tradable`: while kept, it may be traded
    tradable_when: Expression | None = None  # its condition, with `player` = the holder


@attrs.define
class PhaseDef:
    name: str
    when: Expression | None  # compiled condition, or None: the phase always runs
    optional: bool  # the player may skip it
    body: Body
    where: RuleRef
    node: ast.Phase  # the declaration: for turngen.py


@attrs.define
class StatusDef:
    """A player status with its own turn (`status InJail at Jail:`): its phases, and the square that
    holds a player put in it (None: his token stays where it is)."""

    phases: list  # [PhaseDef]
    at: str | None


@attrs.define
class DeckDef:
    policy: str  # "reshuffle", "cut", "once" or "cycle"
    cards: list  # [CardDef], expanded by copies
    of: str | None = None  # a deck of things (`deck Bag of K once`): K's things are its cards


@attrs.define
class EndDef:
    condition: Expression
    winner: Expression  # compiled: the winning player, or none
    reason: str
    where: RuleRef
    after_turn: bool = False  # `end after turn when`: not checked after an elimination in the middle of a turn


@attrs.define
class HintDef:
    var: str | None  # the name of the hint's parameter, if it takes one
    value: Expression


@attrs.define
class InvariantDef:
    text: str
    condition: Expression
    where: RuleRef


@attrs.define
class GroupMembers:
    """A group's members: the things of `kind` whose fixed `field` names the group."""

    kind: str
    field: str


@attrs.define
class FirstPlayer:
    """Who moves first: `highest roll` of `dice` dice (ties roll again), `seat order`, or `by rule`: the
    player an expression names once the setup has run (`pick`; seat order if it names none)."""

    rule: str  # "highest roll" | "seat order" | "by rule"
    dice: int = 2
    pick: Expression | None = None


@attrs.define
class Rules:
    """A loaded, checked and compiled rules file, shared by every game played from it."""

    checked: Checked
    title: str
    path: str
    params: dict
    squares: dict  # name -> Square
    board: list  # names, in order: the ring
    off_board: list  # squares off the ring, reached only by `move … to`
    thing_names: list  # in declaration order
    thing_kinds: dict  # name -> kind
    thing_cells: dict  # name -> {field: compiled closure}
    state_defaults: dict  # kind -> {field: compiled closure}
    player_defaults: dict  # field -> compiled closure
    hidden_fields: frozenset  # player fields other players' agents may not read (`hidden cash: money`)
    global_defaults: dict
    bank_unlimited: bool
    bank_amount: Expression | None
    group_fields: dict  # group -> GroupMembers
    players_range: tuple  # (fewest, most)
    start: str
    first_player: FirstPlayer
    turn_limit: int | None
    phases: list  # [PhaseDef]
    hooks: dict  # "before"/"after" -> [Handler]
    land: dict  # square or kind or thing name -> [Handler]
    passing: dict
    debt: list
    eliminate: list
    actions: list
    action_named: dict  # name -> ActionDef
    trade_kinds: tuple
    trade_cash: bool
    trade_when: Expression | None
    trade_where: RuleRef
    decks: dict  # name -> DeckDef
    cards_by_name: dict  # deck name -> {card name: CardDef}
    ends: list  # [EndDef]
    hints: dict  # name -> HintDef
    hint_kinds: dict  # name -> the kinds its parameter is declared with (`(d: Street or Railroad)`: two)
    invariants: list  # [InvariantDef]
    compiler: Compiler
    setup: Body | None = None  # the `setup:` block, compiled; run once before the first turn
    trade_cards: bool = False  # `trade …, cards`: kept cards flagged `tradable` may be traded
    statuses: dict = attrs.Factory(dict)  # name -> StatusDef
    # `trade Street s when COND`: kind -> [(the thing's name, COND)], each asked of every thing of the kind a trade moves
    trade_things: dict = attrs.Factory(dict)
    traded: dict = attrs.Factory(dict)  # `on trade` handlers: kind -> [Handler] (None: the whole trade's)
    supplies: dict = attrs.Factory(dict)  # name -> Supply
    written: WrittenTurn | None = None  # the turn and the arrivals written out as Python (set by `compile_rules`)
    # What the engine works out from the rules alone, once for every game of them, on first use:
    action_plan: list | None = None  # the actions as `Actions.legal_actions` walks them (actions._action_plan)
    legal_actions: Callable[..., list] | None = None  # legal(acts, g, player, own_turn, wanted): `legal_actions` written out (actiongen.py)
    amount_tests: dict = attrs.Factory(dict)  # an amount action's tests taken apart (`Actions._amount_tests`)
    thing_start: tuple | None = None  # the things' starting fields as far as every game has them the same (starting.py)
    layout: tuple | None = None  # where the things lie, by position in the list of things (`starting.board_layout`)
    thing_class: type = Thing  # every thing's class: a slot for each field of every kind (state.with_fields)
    player_class: type = Player  # every player's class: a slot for each declared player field
    adjacency: dict = attrs.Factory(dict)  # thing name -> the names of its neighbours in its graph (`graph_links`)
    places: dict = attrs.Factory(dict)  # board index -> Copy: the places of a repeated square one of which is named

    @property
    def program(self):
        return self.checked.program


def _no_default(g, e):
    """A state field declared with no default starts as none."""
    return None


_no_default.reads = frozenset()  # type: ignore[attr-defined]  # reads nothing, as a compiled expression says (see starting.py)


def _setting_value(compiler, setting, default=None):
    if setting is None:
        return default
    return compiler.expr(setting.value)(None, {})


DECIMAL = re.compile(r"-?\$?[\d,]*\.\d+%?")  # `1.5`, `$2.50`, `2.5%`: no value of a rules file


def parse_override(text: str) -> tuple[str, object]:
    """`NAME=VALUE` from `--set`, VALUE written as in a rules file (`$500`, `5`, `10%`)."""
    if "=" not in text:
        raise RulesError([codes.MALFORMED_SET.diagnostic(f"`--set {text}` is not `NAME=VALUE`", "--set",
                                     help="e.g. `--set starting_cash=1500`")])
    name, value = (part.strip() for part in text.split("=", 1))
    if not name.isidentifier():
        raise RulesError([codes.MALFORMED_SET.diagnostic(f"`--set {text}`: `{name}` is not a parameter name", "--set",
                                     help="e.g. `--set starting_cash=1500`")])
    if DECIMAL.fullmatch(value):  # the parser's own message (`unexpected 5; expected a name`) says nothing useful
        raise RulesError([codes.BAD_SET_VALUE.diagnostic(f"`--set {name}`: `{value}` is not a value: values are whole "
                                     "numbers (no decimals)", "--set",
                                     help="write a whole amount, count or percentage, as in a rules file: "
                                          "`$1,500`, `5`, `10%`")])
    try:
        if "\n" in value or "\r" in value:  # a second line would be parsed as more declarations
            raise RulesError([])
        snippet = parse_text(f"param {name} = {value}\n", "--set")
        if len(snippet.decls) != 1 or not isinstance(snippet.decls[0], ast.Param):
            raise RulesError([])
    except RulesError as exc:
        why = "; ".join(d.message for d in exc.diagnostics[:1])
        raise RulesError([codes.BAD_SET_VALUE.diagnostic(f"`--set {name}`: `{value.splitlines()[0] if value.strip() else value}`"
                                     f"{' and more lines' if len(value.splitlines()) > 1 else ''} is not a value"
                                     + (f" ({why})" if why else ""), "--set",
                                     help="write a value as in a rules file: `1500` (money: `$` may be left out, a shell may eat it), `5`, `10%`, `true`")]) from None
    return name, snippet.decls[0].value


VOLATILE = {"cash", POSITION, UNTRACKED}  # they change every turn: a condition reading them is re-tested


def _split_condition(compiler: Compiler, when, local: frozenset, var: str | None = None, kind: str | None = None):
    """An action's condition as (stable, volatile, select): compiled parts, any may be None.

    The conjuncts that read cash or positions (or state with no change counter) change
    every turn; the others (ownership, buildings, debts...) rarely do. Keeping them apart lets the
    engine reuse the stable part's answers and re-test only the volatile part. `select` is the
    volatile part taken apart for the engine where it can be (see `_selector`)."""
    if when is None:
        return None, None, None
    operands = when.operands if isinstance(when, ast.BoolOp) and when.op == "and" else (when,)
    stable: list[ast.Expr] = []
    volatile: list[ast.Expr] = []
    for operand in operands:
        (volatile if compiler.expr(operand, local).reads & VOLATILE else stable).append(operand)

    def node_of(parts):
        return parts[0] if len(parts) == 1 else ast.BoolOp(op="and", operands=tuple(parts), span=when.span)

    volatile_node = node_of(volatile) if volatile else None
    return (compiler.expr(node_of(stable), local) if stable else None,
            compiler.expr(volatile_node, local) if volatile else None,
            _selector(compiler, volatile, volatile_node, var, kind, local))


def _selector(compiler: Compiler, operands: list, whole, var: str | None, kind: str | None, local: frozenset):
    """For a volatile part whose first conjunct matches a fixed field of the action's thing with a
    value that is the same for every thing (`s.bank == player.position`: buy a share of the bank
    you are on): (the field, that value compiled, whether it is compared by identity, the rest of
    the part compiled or None). The engine works the value out once and tests the field of each
    thing against it, the rest only where it matches: what testing the whole for each thing does,
    failures reported as the whole's, for far less. None where the part is not of that form."""
    if var is None or not operands:
        return None
    first = operands[0]
    if not (isinstance(first, ast.Compare) and first.op == "=="):
        return None
    declared = compiler.program.kinds.get(kind)
    if declared is None:
        return None
    codegen = compiler.codegen
    fixed = fixed_fields(compiler.program) & {f.name for f in declared.fields}
    failure = codegen._failure(whole)
    for mine, other in ((first.left, first.right), (first.right, first.left)):
        if isinstance(mine, ast.Attr) and isinstance(mine.obj, ast.Name) and mine.obj.id == var and mine.name in fixed:
            value = codegen.function(other, local, failure)
            if var in value.locals:
                continue
            rest = None
            if len(operands) > 1:
                rest = codegen.function(ast.BoolOp(op="and", operands=tuple(operands[1:]), span=whole.span),
                                        local, failure)
            return mine.name, value, codegen._by_identity(codegen.type_of(mine)), rest
    return None


def _overrides(checked: Checked, texts) -> dict:
    """`--set NAME=VALUE`s as {name: value}, each checked against the parameter it replaces."""
    p = checked.program
    values = {}
    for text in texts:
        name, value_node = parse_override(text)
        if name not in p.params:
            raise RulesError([codes.UNKNOWN_SET_PARAMETER.diagnostic(f"`--set {name}`: the rules have no parameter `{name}`",
                                         p.path, help="parameters are " + ", ".join(f"`{n}`" for n in p.params))])
        expected = checked.types.get(id(p.params[name].value))
        literal = literal_of(value_node)
        if literal is not None and literal.type == "count" and expected is not None and expected.name == "money":
            literal = ast.evolve(literal, type="money")  # `--set starting_cash=1500`: no `$` for the shell to eat
        if literal is None or (expected is not None and not compatible(expected, Type(literal.type))):
            shown = text.split("=", 1)[1].strip()
            raise RulesError([codes.BAD_SET_VALUE.diagnostic(f"`--set {name}` needs {expected}, not `{shown}`",
                                         p.path, p.params[name].span)])
        values[name] = literal.value
    return values


def literal_of(node) -> ast.Literal | None:
    """A value written out, as `--set` takes one: a literal, or a number's negative (`-$5`, as a file may
    write it), else None."""
    if isinstance(node, ast.Neg) and isinstance(node.operand, ast.Literal) \
            and node.operand.type in ("money", "count", "percent") and isinstance(node.operand.value, int):
        return ast.Literal(value=-node.operand.value, type=node.operand.type, span=node.span)
    return node if isinstance(node, ast.Literal) else None


def load_rules(path: str, overrides: list[str] | None = None) -> Rules:
    """Parse, check and compile; raise RulesError if the file has errors."""
    return compile_rules(check_program(load_file(path)), overrides)


def _first_player(setting, compiler) -> FirstPlayer:
    if setting is None:
        return FirstPlayer("seat order")
    if not isinstance(setting.value, tuple):  # an expression: the checker typed it a player
        return FirstPlayer("by rule", pick=compiler.expr(setting.value))
    words = tuple(setting.value)  # the checker made sure it is `highest roll N dice` or `seat order`
    if words[:2] == ("highest", "roll"):
        return FirstPlayer("highest roll", int(words[2]) if len(words) > 2 and words[2].isdigit() else 2)
    return FirstPlayer("seat order")


def _trade_things(p, compiler) -> dict:
    """`trade Street or Railroad d when COND`: for each kind, the conditions a thing of it must meet to be traded."""
    conditions: dict = {}
    for rule in p.trade_things:
        when = compiler.expr(rule.when, frozenset({PLAYER, rule.var, *TRADE_NAMES}))
        for kind in rule.kinds:
            conditions.setdefault(kind, []).append((rule.var, when))
    return conditions


def compile_rules(checked: Checked, overrides: list[str] | None = None) -> Rules:
    """Compile the checker's result (not a file: it is checked once, by `check_program`);
    raise RulesError if the check found errors."""
    if not isinstance(checked, Checked):
        raise TypeError(f"compile_rules takes the checker's result (`check_program(...)`), "
                        f"not {type(checked).__name__}")
    errors = [d for d in checked.diagnostics if d.is_error]
    if errors:
        raise RulesError(errors)
    p = checked.program
    game, board, turn = p.game, p.board, p.turn
    assert game is not None and board is not None and turn is not None  # (without them, the check found errors)
    squares = {name: Square(name, decl.title or name) for name, decl in p.squares.items()}
    places = _places(p, squares)
    thing_names = list(p.things)
    named = {copy.copy: copy for copy in places.values() if copy.copy is not None}
    compiler = Compiler(checked, {**squares, **named}, {n: i for i, n in enumerate(thing_names)})

    overridden = _overrides(checked, overrides or ())
    for name, param in p.params.items():  # in order: a parameter may use those above it
        compiler.params[name] = overridden[name] if name in overridden else compiler.expr(param.value)(None, {})

    supplies = {name: Supply(name, compiler.expr(s.size)(None, {}), s.kind, s.field) for name, s in p.supplies.items()}
    compiler.codegen.supplies.update(supplies)  # before any rule is compiled: rules name them

    def handler(h) -> Handler:
        local = frozenset({"player"} | ({h.var} if getattr(h, "var", None) else set())
                          | (set(DEBT_NAMES) if getattr(h, "event", "") == "debt" else set())
                          | (set(TRADE_NAMES) if getattr(h, "event", "") == "trade" else set()))
        when = compiler.expr(h.when, local) if h.when is not None else None
        return Handler(getattr(h, "var", None), when, compiler.block(h.body, local, settles=True), compiler.where(h),
                       h, local)

    land: dict = {}
    passing: dict = {}
    debt, eliminate = [], []
    traded: dict = {}
    for h in p.handlers:
        if h.event == "land":
            land.setdefault(h.target, []).append(handler(h))
        elif h.event == "pass":
            passing.setdefault(h.target, []).append(handler(h))
        elif h.event == "debt":
            debt.append(handler(h))
        elif h.event == "trade":  # by the kind of thing traded; None: once for the whole trade
            traded.setdefault(h.target, []).append(handler(h))
        else:
            eliminate.append(handler(h))
    hooks: dict[str, list[Handler]] = {"before": [], "after": []}
    for hook in p.hooks:
        hooks[hook.which].append(handler(hook))

    def phase_defs(declared) -> list:
        phases = []
        for phase in declared:
            when = compiler.expr(phase.when, frozenset({"player"})) if phase.when is not None else None
            phases.append(PhaseDef(phase.name, when, phase.optional,
                                   compiler.block(phase.body, frozenset({"player"}), settles=True), compiler.where(phase),
                                   phase))
        return phases

    phases = phase_defs(turn.phases)
    statuses = {name: StatusDef(phase_defs(s.phases), s.at) for name, s in p.statuses.items()}

    actions = []
    phase_names = [phase.name for phase in turn.phases]
    for a in p.actions.values():
        var, kind = (a.param.name, thing_kinds_key(a.param.kinds)) if a.param else (None, None)
        local = frozenset({"player"} | ({var} if var else set()))
        when, volatile, select = _split_condition(compiler, a.when, local, var, kind)
        prefilter = owner_prefilter(a.when, var) if var and a.when is not None else None
        actions.append(ActionDef(a.name, var, kind, a.timing, when, compiler.block(a.body, local, settles=True), compiler.where(a),
                                 prefilter, tuple(sorted(when.reads)) if when is not None else (), volatile,
                                 a.relation, phase_names.index(a.phase) if a.phase is not None else None,
                                 tuple(compiler.expr(n, frozenset({"player"}))
                                       for n in (a.amount.low, a.amount.high, a.amount.step)) if a.amount else None,
                                 a.limit if a.limit_expr is None else 0, a.per, select,
                                 compiler.expr(a.limit_expr, frozenset({"player"})) if a.limit_expr is not None else None))

    decks = {}
    for deck in p.decks.values():
        cards = []
        for card in deck.cards:
            body = compiler.block(card.body, frozenset({"player"}), settles=True)
            cards.extend([CardDef(card.name, card.title or card.name, card.keep, body, compiler.where(card),
                                  card.lasting, card.later, card.tradable,
                                  compiler.expr(card.tradable_when, frozenset({PLAYER}))
                                  if card.tradable_when is not None else None)] * card.copies)
        decks[deck.name] = DeckDef(deck.policy, cards, deck.of)

    ends = [EndDef(compiler.expr(e.condition), compiler.expr(e.winner), e.reason, compiler.where(e), e.after_turn)
            for e in p.ends]
    hints = {}
    for name, hint in p.hints.items():
        var = hint.param.name if hint.param else None
        local = frozenset(({var} if var else set()) | ({"player"} if name not in GLOBAL_HINTS else set()))
        hints[name] = HintDef(var, compiler.expr(hint.value, local))
    invariants = [InvariantDef(inv.text, compiler.expr(inv.condition), compiler.where(inv)) for inv in p.invariants]

    thing_cells = {}
    for name, thing in p.things.items():  # (a grid offers `row` and `column`, which its kind may not declare)
        declared = {f.name for f in p.kinds[thing.kind].fields} if thing.kind in p.kinds else set()
        thing_cells[name] = {field: compiler.expr(cell) for field, cell in thing.values.items()
                             if field in declared or thing.kind not in p.kinds}
    state_defaults = {}
    group_fields = {}
    for kind in p.kinds.values():
        state_defaults[kind.name] = {f.name: compiler.expr(f.default) if f.default is not None else _no_default
                                     for f in kind.fields if f.is_state}
        for f in kind.fields:
            if f.type.name in p.groups and not f.is_state:
                group_fields[f.type.name] = GroupMembers(kind.name, f.name)

    def defaults(fields):
        return {f.name: compiler.expr(f.default) if f.default is not None
                else _new_account(f.name) if f.type.name == "account" and not f.type.is_list else (lambda g, e: None)
                for f in fields.values()}

    settings = p.settings
    players = settings.get("players")
    players_range = (2, 6)
    if players is not None:
        players_range = (compiler.expr(players.value)(None, {}), compiler.expr(players.upper)(None, {}))
        problem = players_range_problem(*players_range)  # bounds computed from parameters (maybe `--set`)
        if problem:
            raise RulesError([codes.BAD_SETTING_VALUE.diagnostic(problem, players.span.file or p.path, players.span,
                                         help="e.g. `players: 2 to 6`")])
    limit = settings.get("turn limit")
    turn_limit = _setting_value(compiler, limit)
    problem = turn_limit_problem(turn_limit)  # computed from parameters (maybe `--set`)
    if problem and limit is not None:  # (no `turn limit:`, no problem)
        raise RulesError([codes.BAD_SETTING_VALUE.diagnostic(problem, limit.span.file or p.path, limit.span,
                                     help=TURN_LIMIT_HELP)])
    rules = Rules(
        checked=checked, title=game.title, path=p.path, params=dict(compiler.params), squares=squares,
        board=[n.id for n in board.squares], off_board=[n for n, d in p.squares.items() if d.off_board],
        thing_names=thing_names,
        thing_kinds={n: t.kind for n, t in p.things.items()}, thing_cells=thing_cells,
        state_defaults=state_defaults, player_defaults=defaults(p.player_fields),
        hidden_fields=frozenset(n for n, f in p.player_fields.items() if f.hidden),
        global_defaults=defaults(p.global_fields),
        bank_unlimited=p.bank is None or p.bank.unlimited,
        bank_amount=compiler.expr(p.bank.amount) if p.bank is not None and p.bank.amount is not None else None,
        group_fields=group_fields, players_range=players_range, start=settings["start"].value.id,
        first_player=_first_player(settings.get("first player"), compiler), turn_limit=turn_limit, phases=phases, hooks=hooks,
        land=land, passing=passing, debt=debt, eliminate=eliminate, actions=actions, traded=traded,
        action_named={a.name: a for a in actions},
        trade_kinds=tuple(k.id for k in p.trade.kinds) if p.trade else (),
        trade_cash=bool(p.trade and p.trade.with_cash),
        trade_when=compiler.expr(p.trade.when, frozenset({PLAYER, *TRADE_NAMES})) if p.trade and p.trade.when else None,
        trade_things=_trade_things(p, compiler),
        trade_where=compiler.where(p.trade) if p.trade else NO_RULE,
        decks=decks, cards_by_name={name: {c.name: c for c in deck.cards} for name, deck in decks.items()},
        ends=ends, hints=hints, hint_kinds={n: h.param.kinds for n, h in p.hints.items() if h.param},
        invariants=invariants, compiler=compiler,
        setup=compiler.block(p.setup.body, frozenset(), settles=True) if p.setup is not None else None,
        trade_cards=bool(p.trade and p.trade.cards), statuses=statuses, supplies=supplies,
        adjacency=graph_links(p), places=places,
    )
    rules.thing_class = with_fields(Thing, [*(f.name for k in p.kinds.values() for f in k.fields),
                                            *(n for cells in thing_cells.values() for n in cells)])
    rules.player_class = with_fields(Player, list(p.player_fields))
    rules.written = write_turn(rules)
    return rules


def _places(p, squares: dict) -> dict:
    """Board index -> its Copy (state.Copy), at every place of each square the board repeats and names
    one place of (`Corner as Corner2`): those places tell themselves apart."""
    if p.board is None or not p.board.copies:
        return {}
    named = {copy.index: copy.name for copy in p.board.copies}
    repeated = {copy.square for copy in p.board.copies if copy.square in squares}
    return {i: Copy(name=sq.id, title=squares[sq.id].title, square=squares[sq.id], index=i, copy=named.get(i))
            for i, sq in enumerate(p.board.squares) if sq.id in repeated}


def graph_links(p) -> dict:
    """Each square of a board graph with its neighbours' names, in the order of its kind's things: a grid's
    four beside it (above, left, right, below), a graph's links both ways."""
    from ..dsl.model import grid_squares
    links: dict = {}
    order = {name: i for i, name in enumerate(p.things)}
    for graph in p.graphs.values():
        squares = [name for name, t in p.things.items() if t.kind == graph.kind]
        for name in squares:
            links[name] = set()
        if graph.rows is not None:
            at = {(r, c): name for r, c, name in grid_squares(graph)}
            for (r, c), name in at.items():
                links[name] = {at[x] for x in ((r - 1, c), (r, c - 1), (r, c + 1), (r + 1, c)) if x in at}
        for link in graph.links:
            for n in link.neighbours:
                if link.node.id != n.id:
                    links[link.node.id].add(n.id)
                    links[n.id].add(link.node.id)
    return {name: tuple(sorted(around, key=order.__getitem__)) for name, around in links.items()}


def _new_account(field: str):
    """An account field's default: an empty account, named after its player (`Ann.deposit`) or the
    global (`pot`)."""
    def new(g, e):
        owner = e.get("player")
        return Account(f"{owner.name}.{field}" if owner is not None else field)
    return new
