"""Turn Lark's parse tree into the attrs AST of dsl.ast, one method per grammar rule.

Literal values are decoded here (money `$1,000` to 1000, `10%` to 10), so later stages
see numbers, not text. Every node gets the span of the rule that produced it.
"""

from __future__ import annotations

import re

import attrs
from lark import Token, Transformer, v_args

from . import ast, codes
from .builtins import AGGREGATES
from .diagnostics import RulesError, Span


_current_file: str | None = None  # the file being transformed; spans record it (see ToAst.transform)


def span_of(meta) -> Span:
    if getattr(meta, "empty", True):
        return Span(0, 0, 0, 0, _current_file)
    return Span(meta.line, meta.column, meta.end_line, meta.end_column, _current_file)


def token_span(tok: Token) -> Span:
    assert tok.line is not None and tok.column is not None  # the lexer places every token it makes
    return Span(tok.line, tok.column, tok.end_line or tok.line, tok.end_column or tok.column + len(tok),
                _current_file)


MAX_NUMBER = 10 ** 15  # larger literals are mistakes (and over 4,300 digits Python refuses to convert them)


def _number(tok: Token, text: str | None = None) -> int:
    """The value of a number token (`text`: its digits, when the token has a `$` or `%`);
    a number over MAX_NUMBER is refused with R0106, before Python converts it."""
    digits = (str(tok) if text is None else text).replace(",", "")
    if len(digits.lstrip("0")) > len(str(MAX_NUMBER)) or int(digits) > MAX_NUMBER:
        raise RulesError([codes.NUMBER_TOO_LARGE.diagnostic(
            f"number too large ({len(digits):,} digits; the largest is {MAX_NUMBER:,})", _current_file or "<string>",
            token_span(tok), help="no game needs a number this large: is a digit repeated?")])
    return int(digits)


_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}
_ESCAPE = re.compile(r"\\(.)", re.DOTALL)


def _handler_header(h) -> str:
    """How a variant names a handler or hook it has no `as` name for: its header."""
    if isinstance(h, ast.Hook):
        return f"{h.which} turn"
    return f"on {h.event}" + (f" {h.target}" if h.target else "")


def _through(first: Token, last: Token) -> Span:
    """From the start of one token to the end of another (`Street or Railroad`)."""
    a, b = token_span(first), token_span(last)
    return Span(a.line, a.column, b.end_line, b.end_column, _current_file)


def _unquote(tok: Token) -> str:
    # `\n`, `\t`, `\"` and `\\`; any other backslash is kept as written. (Python's unicode_escape
    # codec mangled non-ASCII text and raised on `\x` or `\N`.)
    body = str(tok)[1:-1]
    if "\\" not in body:
        return body
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), body)


def _meta(children) -> ast.Meta:
    for child in children:
        if isinstance(child, ast.Meta):
            return child
    return ast.NO_META


@v_args(meta=True)
class ToAst(Transformer):
    def __init__(self, path: str):
        super().__init__()
        self.path = path
        # Lark's `v_args` wraps a method anew each time it is looked up, which is once per tree node;
        # bound once here instead (an instance attribute is found before the class's): a third of the
        # transform's time.
        for name, method in vars(ToAst).items():
            if hasattr(method, "visit_wrapper"):
                setattr(self, name, getattr(self, name))

    def transform(self, tree):
        global _current_file
        outer, _current_file = _current_file, self.path
        try:
            return super().transform(tree)
        finally:
            _current_file = outer

    # ---- file and metadata ----------------------------------------------------
    def start(self, meta, children):
        return [c for c in children if c is not None]

    def meta(self, meta, children):
        assumed = None
        cite = None
        allow: tuple = ()
        for child in children:
            if isinstance(child, tuple) and child[0] == "assumed":
                assumed = child
            elif isinstance(child, tuple) and child[0] == "cite":
                cite = child[1]
            elif isinstance(child, tuple) and child[0] == "allow":
                allow = child[1]
        return ast.Meta(assumed=assumed is not None, assumed_note=assumed[1] if assumed else None, cite=cite,
                        allow=allow)

    def allow(self, meta, children):
        return ("allow", tuple(str(c) for c in children))

    def assumed(self, meta, children):
        note = children[0]
        return ("assumed", _unquote(note) if note is not None else None)

    def cite(self, meta, children):
        return ("cite", _unquote(children[-1]))

    def _word(self, meta, children):
        return str(children[0])

    deck_policy = event_name = hook = move_how = rounding = add_op = limit_unit = phase_relation = _word

    # ---- header and simple declarations --------------------------------------
    def game_decl(self, meta, c):
        return ast.Game(title=_unquote(c[0]), settings=tuple(x for x in c[2:] if isinstance(x, ast.Setting)),
                        span=span_of(meta), meta=c[1])

    def setting(self, meta, c):
        words = [str(t) for t in c if isinstance(t, Token) and t.type == "NAME"]
        value = next(x for x in c if isinstance(x, tuple) and x and x[0] in ("expr", "words"))
        m = _meta(c)
        if value[0] == "words":
            return ast.Setting(key=" ".join(words), value=value[1], upper=None, span=span_of(meta), meta=m)
        return ast.Setting(key=" ".join(words), value=value[1], upper=value[2], span=span_of(meta), meta=m)

    def setting_expr(self, meta, c):
        return ("expr", c[0], c[1])

    def setting_words(self, meta, c):
        return ("words", tuple(str(_number(t)) if t.type == "INT" else str(t) for t in c))

    def override_param(self, meta, c):
        return ast.Variation(what="override param", target=c[0].name, node=c[0], span=span_of(meta), meta=c[0].meta)

    def override_game(self, meta, c):
        return ast.Variation(what="override game", target="game", node=c[0], span=span_of(meta), meta=c[0].meta)

    def override_title(self, meta, c):
        game = ast.Game(title=_unquote(c[0]), settings=(), span=span_of(meta), meta=c[1])
        return ast.Variation(what="override game", target="game", node=game, span=span_of(meta), meta=c[1])

    def replace_phase(self, meta, c):
        return ast.Variation(what="replace phase", target=c[0].name, node=c[0], span=span_of(meta))

    def remove_phase(self, meta, c):
        return ast.Variation(what="remove phase", target=str(c[0]), node=None, span=span_of(meta), meta=c[1])

    def replace_card(self, meta, c):
        deck, name, title, copies, keep, lasting, tradable, body = c
        card = ast.Card(name=str(name), title=_unquote(title) if title is not None else None,
                        copies=copies if copies is not None else 1, keep=keep is not None, body=body,
                        lasting=lasting is not None, span=span_of(meta), later=keep == "later",
                        tradable=tradable is not None, tradable_when=tradable[1] if tradable is not None else None)
        return ast.Variation(what="replace card", target=f"{deck}.{name}", node=card, span=span_of(meta))

    def remove_card(self, meta, c):
        return ast.Variation(what="remove card", target=f"{c[0]}.{c[1]}", node=None, span=span_of(meta), meta=c[2])

    def remove_scenario(self, meta, c):
        return ast.Variation(what="remove scenario", target=_unquote(c[0]), node=None, span=span_of(meta), meta=c[1])

    def extend_deck(self, meta, c):
        return ast.Variation(what="extend deck", target=str(c[0]), node=tuple(c[2:]), span=span_of(meta), meta=c[1])

    def replace_handler(self, meta, c):
        h = c[0]
        target = h.name or _handler_header(h)
        return ast.Variation(what="replace handler", target=target, node=h, span=span_of(meta))

    def replace_handler_case(self, meta, c):
        h = self.handler_decl(meta, c)
        return ast.Variation(what="replace case", target=h.name or _handler_header(h), node=h, span=span_of(meta))

    def replace_hook_case(self, meta, c):
        h = self.hook_decl(meta, c)
        return ast.Variation(what="replace case", target=h.name or _handler_header(h), node=h, span=span_of(meta))

    def remove_handler_header(self, meta, c):
        event, target, m = c
        header = f"on {event}" + (f" {target[0]}" if target is not None else "")
        return ast.Variation(what="remove handler", target=header, node=None, span=span_of(meta), meta=m)

    def remove_hook_header(self, meta, c):
        return ast.Variation(what="remove handler", target=f"{c[0]} turn", node=None, span=span_of(meta), meta=c[1])

    def remove_handler(self, meta, c):
        return ast.Variation(what="remove handler", target=str(c[0]), node=None, span=span_of(meta), meta=c[1])

    def replace_action(self, meta, c):
        return ast.Variation(what="replace action", target=c[0].name, node=c[0], span=span_of(meta))

    def remove_action(self, meta, c):
        return ast.Variation(what="remove action", target=str(c[0]), node=None, span=span_of(meta), meta=c[1])

    def remove_invariant(self, meta, c):
        return ast.Variation(what="remove invariant", target=_unquote(c[0]), node=None, span=span_of(meta),
                             meta=c[1])

    def remove_end(self, meta, c):
        return ast.Variation(what="remove end", target=_unquote(c[0]), node=None, span=span_of(meta), meta=c[1])

    def remove_row(self, meta, c):
        return ast.Variation(what="remove row", target=f"{c[0]}.{c[1]}", node=None, span=span_of(meta), meta=c[2])

    def remove_deck(self, meta, c):
        return ast.Variation(what="remove deck", target=str(c[0]), node=None, span=span_of(meta), meta=c[1])

    def remove_param(self, meta, c):
        return ast.Variation(what="remove param", target=str(c[0]), node=None, span=span_of(meta), meta=c[1])

    def insert_phase_after(self, meta, c):
        return self._insert_phase("after", meta, c)

    def insert_phase_before(self, meta, c):
        return self._insert_phase("before", meta, c)

    def _insert_phase(self, place: str, meta, c):
        name, title, when, optional, anchor, body = c
        phase = ast.Phase(name=str(name), title=_unquote(title) if title is not None else None, when=when,
                          optional=optional is not None, body=body, span=span_of(meta))
        return ast.Variation(what=f"insert phase {place}", target=str(anchor), node=phase, span=span_of(meta))

    def replace_status_phase(self, meta, c):
        status, name, title, when, optional, body = c
        phase = ast.Phase(name=str(name), title=_unquote(title) if title is not None else None, when=when,
                          optional=optional is not None, body=body, span=span_of(meta))
        return ast.Variation(what="replace status phase", target=f"{status}.{name}", node=phase, span=span_of(meta))

    def remove_status_phase(self, meta, c):
        return ast.Variation(what="remove status phase", target=f"{c[0]}.{c[1]}", node=None, span=span_of(meta),
                             meta=c[2])

    def replace_procedure(self, meta, c):
        return ast.Variation(what="replace procedure", target=c[0].name, node=c[0], span=span_of(meta))

    def replace_define(self, meta, c):
        return ast.Variation(what="replace define", target=c[0].name, node=c[0], span=span_of(meta))

    def override_board(self, meta, c):
        return ast.Variation(what="override board", target="board", node=c[0], span=span_of(meta))

    def override_table(self, meta, c):
        return ast.Variation(what="override table", target=c[0].kind, node=c[0], span=span_of(meta))

    def extends_decl(self, meta, c):
        return ast.Extends(path=_unquote(c[0]), span=span_of(meta), meta=c[1])

    def param_decl(self, meta, c):
        return ast.Param(name=str(c[0]), value=c[1], span=span_of(meta), meta=c[2])

    def bank_decl(self, meta, c):
        kind = c[0]
        return ast.Bank(unlimited=kind is None, amount=kind, span=span_of(meta), meta=c[1])

    def bank_unlimited(self, meta, c):
        return None

    def bank_limited(self, meta, c):
        return c[0]

    def player_decl(self, meta, c):
        return ast.PlayerDecl(fields=tuple(c[1:]), span=span_of(meta), meta=c[0])

    def global_decl(self, meta, c):
        return ast.GlobalDecl(fields=tuple(c[1:]), span=span_of(meta), meta=c[0])

    def kind_decl(self, meta, c):
        return ast.Kind(name=str(c[0]), fields=tuple(c[2:]), span=span_of(meta), meta=c[1])

    def field(self, meta, c):
        state, hidden, name, type_, default, m = c
        return ast.Field(name=str(name), type=type_, default=default, is_state=state is not None,
                         span=span_of(meta), meta=m, hidden=hidden is not None)

    def type_simple(self, meta, c):
        return ast.TypeRef(name=str(c[0]), optional=c[1] is not None, is_list=False, element=None,
                           span=span_of(meta))

    def type_list(self, meta, c):
        return ast.TypeRef(name="list", optional=c[1] is not None, is_list=True, element=c[0], span=span_of(meta))

    def name_list(self, meta, c):
        return tuple(ast.Name(id=str(t), span=token_span(t)) for t in c)

    def group_decl(self, meta, c):
        return ast.GroupDecl(name=str(c[0]), kind=str(c[1]), members=c[2], span=span_of(meta), meta=c[3])

    def square_decl(self, meta, c):
        title = _unquote(c[1]) if c[1] is not None else None
        return ast.SquareDecl(name=str(c[0]), title=title, off_board=c[3] is not None, stop=c[2] is not None,
                              span=span_of(meta), meta=c[4])

    def off_board(self, meta, c):
        return True

    def board_decl(self, meta, c):
        entries = [entry for line in c[1:] for entry in line]
        copies = tuple(ast.BoardCopy(name=str(copy), square=square.id, index=i, span=token_span(copy))
                       for i, (square, copy) in enumerate(entries) if copy is not None)
        return ast.Board(squares=tuple(square for square, _ in entries), copies=copies, span=span_of(meta), meta=c[0])

    def board_line(self, meta, c):
        return c

    def board_entry(self, meta, c):
        return ast.Name(id=str(c[0]), span=token_span(c[0])), c[1]

    def graph_grid(self, meta, c):
        name, kind, rows, columns, m = c
        return ast.GraphDecl(name=str(name), kind=str(kind), kind_span=token_span(kind), rows=_number(rows),
                             columns=_number(columns), links=(), span=span_of(meta), meta=m)

    def graph_links(self, meta, c):
        name, kind, m, *links = c
        return ast.GraphDecl(name=str(name), kind=str(kind), kind_span=token_span(kind), rows=None, columns=None,
                             links=tuple(links), span=span_of(meta), meta=m)

    def graph_line(self, meta, c):
        names = [ast.Name(id=str(t), span=token_span(t)) for t in c]
        return ast.GraphLink(node=names[0], neighbours=tuple(names[1:]), span=span_of(meta))

    def row_generator(self, meta, c):
        ranges = [x for x in c if isinstance(x, ast.RowRange)]
        template = next(x for x in c if isinstance(x, Token) and x.type == "STRING")
        cells, assumed_columns, cite = _row_parts(c[len(ranges) + 1:])
        return ast.RowGenerator(ranges=tuple(ranges), template=_unquote(template), template_span=token_span(template),
                                cells=cells, assumed_columns=assumed_columns, cite=cite, span=span_of(meta))

    def range_numbers(self, meta, c):
        return ast.RowRange(var=str(c[0]), low=_number(c[1]), high=_number(c[2]), names=None, span=span_of(meta))

    def range_names(self, meta, c):
        return ast.RowRange(var=str(c[0]), low=None, high=None, names=ast.Name(id=str(c[1]), span=token_span(c[1])),
                            span=span_of(meta))

    def table_decl(self, meta, c):
        header = c[2]
        return ast.Table(kind=str(c[0]), columns=header, rows=tuple(c[3:]), span=span_of(meta), meta=c[1])

    def table_header(self, meta, c):
        return tuple(ast.Name(id=str(t), span=token_span(t)) for t in c)

    def table_row(self, meta, c):
        name = c[0]
        cells, assumed_columns, cite = _row_parts(c[1:])
        return ast.Row(name=str(name), cells=cells, assumed_columns=assumed_columns, cite=cite,
                       span=span_of(meta))

    def row_assumed(self, meta, c):
        return ("row_assumed", tuple(c))

    def assumed_value(self, meta, c):
        return ast.AssumedValue(column=str(c[0]), index=_number(c[1]) if c[1] is not None else None,
                                span=span_of(meta))

    def neg_money(self, meta, c):
        return ast.Literal(value=-_number(c[0], str(c[0])[1:]), type="money", span=span_of(meta))

    def neg_int(self, meta, c):
        return ast.Literal(value=-_number(c[0]), type="count", span=span_of(meta))

    # ---- decks ------------------------------------------------------------------
    def deck_decl(self, meta, c):
        return ast.Deck(name=str(c[0]), policy=str(c[1]), cards=tuple(c[3:]), span=span_of(meta), meta=c[2])

    def thing_deck_decl(self, meta, c):
        name, kind, policy, m = c
        return ast.Deck(name=str(name), policy=str(policy), cards=(), span=span_of(meta), meta=m, of=str(kind),
                        of_span=token_span(kind))

    def card_decl(self, meta, c):
        name, title, copies, keep, lasting, tradable, body = c
        return ast.Card(name=str(name), title=_unquote(title) if title is not None else None,
                        copies=copies if copies is not None else 1, keep=keep is not None, body=body,
                        lasting=lasting is not None, span=span_of(meta), later=keep == "later",
                        tradable=tradable is not None, tradable_when=tradable[1] if tradable is not None else None)

    def tradable_flag(self, meta, c):
        return ("tradable", c[0])

    def keep_flag(self, meta, c):
        return "later" if c[0] is not None else "keep"

    def copies(self, meta, c):
        return _number(c[0])

    # ---- turn, handlers, actions ---------------------------------------------------
    def setup_decl(self, meta, c):
        return ast.Setup(body=c[0], span=span_of(meta))

    def turn_decl(self, meta, c):
        return ast.Turn(phases=tuple(c[1:]), span=span_of(meta), meta=c[0])

    def supply_decl(self, meta, c):
        name, size, kind, field, m = c
        return ast.Supply(name=str(name), size=size, kind=str(kind), field=str(field), kind_span=token_span(kind),
                          field_span=token_span(field), span=span_of(meta), meta=m)

    def status_decl(self, meta, c):
        name, title, at, m, *phases = c
        return ast.Status(name=str(name), title=_unquote(title) if title is not None else None,
                          at=str(at) if at is not None else None, at_span=token_span(at) if at is not None else None,
                          phases=tuple(phases), span=span_of(meta), meta=m)

    def status_at(self, meta, c):
        return c[0]

    def put_stmt(self, meta, c):
        return ast.Put(who=c[0], status=str(c[1]), status_span=token_span(c[1]), span=span_of(meta))

    def release_stmt(self, meta, c):
        return ast.Release(who=c[0], span=span_of(meta))

    def phase_decl(self, meta, c):
        name, title, when, optional, body = c
        return ast.Phase(name=str(name), title=_unquote(title) if title is not None else None, when=when,
                         optional=optional is not None, body=body, span=span_of(meta))

    def phase_when(self, meta, c):
        return c[0]

    def handler_decl(self, meta, c):
        event, target, name, when, body = c
        kind_or_square, var, target_span, kinds = None, None, None, ()
        if target is not None:
            kind_or_square, var, target_span, kinds = target
        return ast.Handler(event=str(event), target=kind_or_square, var=var, when=when, body=body,
                           target_span=target_span, span=span_of(meta), name=name, kinds=kinds)

    def handler_name(self, meta, c):
        return str(c[0])

    def handler_target(self, meta, c):
        return (str(c[0]), str(c[1]) if c[1] is not None else None, token_span(c[0]), ())

    def kinds_target(self, meta, c):
        """`Street or Railroad d`: the first kind stands as the target; `kinds` holds them all."""
        kinds = tuple(str(k) for k in c[:-1])
        return (kinds[0], str(c[-1]), _through(c[0], c[-2]), kinds)

    def hook_decl(self, meta, c):
        which, name, when, body = c
        return ast.Hook(which=str(which), when=when, body=body, span=span_of(meta), name=name)

    def action_decl(self, meta, c):
        name, param, timing, limit, when, body = c
        count, per = limit if limit is not None else (None, None)
        limit_expr = None
        if not isinstance(count, (int, type(None))):  # `(EXPR) per turn`
            count, limit_expr = None, count
        amount = None
        if isinstance(param, _AmountParam):
            amount = param.range
            param = ast.ParamDecl(name=param.var, kind=param.type, span=param.range.span)
        relation, phase = None, None
        if isinstance(timing, tuple):  # `own turn before PHASE`
            timing, relation, phase = timing
        return ast.ActionDecl(name=str(name), param=param, timing=timing, when=when, body=body, limit=count, per=per,
                              relation=relation, phase=phase, amount=amount, span=span_of(meta),
                              limit_expr=limit_expr)

    def action_limit(self, meta, c):
        count = _number(c[0]) if len(c) == 2 else 1  # `once per …` has no INT token
        return (count, str(c[-1]))

    def action_limit_expr(self, meta, c):
        return (c[0], str(c[1]))

    def kinds_param(self, meta, c):
        return ast.ParamDecl(name=str(c[0]), kind=str(c[1]), also=tuple(str(k) for k in c[2:]), span=span_of(meta))

    def action_param(self, meta, c):
        return ast.ParamDecl(name=str(c[0]), kind=str(c[1]), span=span_of(meta))

    def action_head_param(self, meta, c):
        return c[0]

    def amount_param(self, meta, c):
        var, type_, low, high, step = c
        return _AmountParam(str(var), str(type_), ast.AmountRange(low=low, high=high, step=step, span=span_of(meta)))

    def timing_any(self, meta, c):
        return "any time"

    def timing_own(self, meta, c):
        return "own turn"

    def timing_phase(self, meta, c):
        return ("own turn", str(c[0]), str(c[1]))

    def trade_decl(self, meta, c):
        kinds, with_cash, when, m = c
        # `cards` in the list is not a kind: it lets kept cards flagged `tradable` be traded.
        cards = any(k.id == "cards" for k in kinds)
        kinds = tuple(k for k in kinds if k.id != "cards")
        return ast.TradeDecl(kinds=kinds, with_cash=with_cash is not None, when=when, span=span_of(meta), meta=m,
                             cards=cards)

    def trade_cash(self, meta, c):
        return True

    def trade_thing_decl(self, meta, c):
        *names, when, m = c
        kinds, var = tuple(str(k) for k in names[:-1]), str(names[-1])
        kinds_span = _through(names[0], names[-2])
        return ast.TradeThing(kinds=kinds, var=var, when=when, span=span_of(meta), kinds_span=kinds_span, meta=m)

    def end_decl(self, meta, c):
        after_turn, condition, winner, reason, meta_ = c
        return ast.EndDecl(condition=condition, winner=winner, reason=_unquote(reason), span=span_of(meta), meta=meta_,
                           after_turn=after_turn is not None)

    def end_after_turn(self, meta, c):
        return True

    def hint_param(self, meta, c):
        return c[0]

    def hint_decl(self, meta, c):
        return ast.Hint(name=str(c[0]), param=c[1], value=c[2], span=span_of(meta), meta=c[3])

    def invariant_decl(self, meta, c):
        return ast.Invariant(text=_unquote(c[0]), condition=c[1], span=span_of(meta), meta=c[2])

    # ---- scenarios --------------------------------------------------------------------
    def scenario_decl(self, meta, c):
        return ast.Scenario(title=_unquote(c[0]), items=tuple(c[2:]), span=span_of(meta), meta=c[1])

    def scenario_players(self, meta, c):
        return ast.ScenarioPlayers(names=c[0], span=span_of(meta))

    def scenario_dice(self, meta, c):
        return ast.ScenarioDice(rolls=tuple(g for g in c if isinstance(g, tuple)), span=span_of(meta))

    def dice_group(self, meta, c):
        return tuple(_number(t) for t in c)

    def scenario_cards(self, meta, c):
        return ast.ScenarioCards(deck=str(c[0]), cards=c[1], span=span_of(meta))

    def scenario_answer(self, meta, c, refused: bool = False):
        values = tuple(x for x in c[3:] if not isinstance(x, ast.Meta))
        decision = _unquote(c[1]) if c[1].type == "STRING" else str(c[1])
        return ast.ScenarioAnswer(player=str(c[0]), decision=decision, values=values, span=span_of(meta),
                                  window=c[2], refused=refused)

    def scenario_refuse(self, meta, c):
        return self.scenario_answer(meta, c, refused=True)

    def answer_window_in(self, meta, c):
        return ast.AnswerWindow(phase=str(c[1]), phase_span=token_span(c[1]), of=str(c[2]) if c[2] is not None else None,
                                condition=c[3], span=span_of(meta), relation=str(c[0]))

    def answer_window_while(self, meta, c):
        return ast.AnswerWindow(phase=None, phase_span=None, of=None, condition=c[0], span=span_of(meta))

    def scenario_setup(self, meta, c):
        return ast.ScenarioSetup(span=span_of(meta))

    def scenario_sees(self, meta, c, visible: bool = True):
        return ast.ScenarioSees(player=str(c[0]), value=c[1], visible=visible, span=span_of(meta))

    def scenario_cannot_see(self, meta, c):
        return self.scenario_sees(meta, c, visible=False)

    def scenario_turn(self, meta, c):
        return ast.ScenarioTurn(player=str(c[0]), span=span_of(meta))

    def scenario_as(self, meta, c):
        return ast.ScenarioAs(player=str(c[0]), body=c[1], span=span_of(meta))

    def scenario_expect(self, meta, c):
        return ast.ScenarioExpect(condition=c[0], span=span_of(meta), meta=c[1])

    def scenario_do(self, meta, c):
        return ast.ScenarioAction(player=str(c[0]), action=str(c[1]), argument=c[2], expect_legal=True,
                                  span=span_of(meta), meta=c[3])

    def scenario_forbid(self, meta, c):
        return ast.ScenarioAction(player=str(c[0]), action=str(c[1]), argument=c[2], expect_legal=False,
                                  span=span_of(meta), meta=c[3])

    def _scenario_trade(self, mode, meta, c):
        window = c[4] if len(c) > 4 and isinstance(c[4], ast.AnswerWindow) else None
        return ast.ScenarioTrade(mode=mode, player=str(c[0]), gives=c[1], partner=str(c[2]), takes=c[3],
                                 span=span_of(meta), window=window, meta=c[-1])

    def scenario_trade_do(self, meta, c):
        return self._scenario_trade("do", meta, c)

    def scenario_trade_forbid(self, meta, c):
        return self._scenario_trade("forbid", meta, c)

    def scenario_trade_offer(self, meta, c):
        return self._scenario_trade("offer", meta, c)

    def scenario_trade_refuse(self, meta, c):
        return self._scenario_trade("refuse", meta, c)

    def trade_side(self, meta, c):
        return tuple(c)

    def set_stmt_line(self, meta, c):
        stmt = c[0]
        return ast.Set(target=stmt.target, value=stmt.value, span=stmt.span, meta=c[1])

    # ---- statements -----------------------------------------------------------------------
    def block(self, meta, c):
        return ast.Block(statements=tuple(c[1:]), span=span_of(meta), meta=c[0])

    def simple_stmt(self, meta, c):
        stmt, m = c
        return ast.evolve(stmt, meta=m)

    def roll_stmt(self, meta, c):
        return ast.Roll(count=c[0], var=str(c[1]), span=span_of(meta))

    def roll_again_stmt(self, meta, c):
        count, var, limit, body, too_many = c
        return ast.RollAgain(count=count, var=str(var), limit=int(limit), body=body, too_many=too_many,
                             span=span_of(meta), limit_span=token_span(limit), meta=body.meta)

    def too_many_clause(self, meta, c):
        return ast.evolve(c[0], span=span_of(meta))  # the block from its `too many doubles:`

    def move_stmt(self, meta, c):
        return ast.Move(who=c[0], how=str(c[1]), amount=c[2], span=span_of(meta), **(c[3] or {}))

    def move_marks(self, meta, c):
        return {"marks": tuple(str(t) for t in c), "marks_span": span_of(meta)}

    def pay_stmt(self, meta, c):
        return ast.Pay(amount=c[0], source=c[1], target=c[2], span=span_of(meta))

    def split_stmt(self, meta, c):
        among: ast.Expr = c[2]
        rounding, unit = "", None  # no rounding written: the checker says to write one
        if isinstance(c[2], ast.Rounded):  # `among PS rounded up to $100`: the share's rounding
            among, rounding, unit = c[2].value, c[2].rounding, c[2].unit
        return ast.Split(amount=c[0], source=c[1], among=among, rounding=rounding, unit=unit, span=span_of(meta))

    def set_stmt(self, meta, c):
        return ast.Set(target=c[0], value=c[1], span=span_of(meta))

    def let_stmt(self, meta, c):
        return ast.Let(name=str(c[0]), value=c[1], span=span_of(meta))

    def send_stmt(self, meta, c):
        return ast.Move(who=c[0], how="send", amount=c[1], span=span_of(meta), **(c[2] or {}))

    def place_stmt(self, meta, c):
        return ast.Move(who=c[0], how="place", amount=c[1], span=span_of(meta))

    def discard_stmt(self, meta, c):
        return ast.Discard(deck=str(c[0]), deck_span=token_span(c[0]), span=span_of(meta))

    def discard_held_stmt(self, meta, c):
        return ast.DiscardHeld(card=c[0], who=c[1], to=None, span=span_of(meta))

    def give_held_stmt(self, meta, c):
        return ast.DiscardHeld(card=c[0], who=c[1], to=c[2], span=span_of(meta))

    def play_card_stmt(self, meta, c):
        return ast.PlayCard(card=c[0], who=c[1], span=span_of(meta))

    def extra_turn_stmt(self, meta, c):
        return ast.ExtraTurn(who=c[0], span=span_of(meta))

    def pass_stmt(self, meta, c):
        return ast.Pass(span=span_of(meta))

    def window_stmt(self, meta, c):
        return ast.Window(who=c[0], only=c[1] if c[1] is not None else (), span=span_of(meta))

    def use_card_stmt(self, meta, c):
        return ast.UseCard(who=c[0], span=span_of(meta))

    def choose_for_stmt(self, meta, c):
        name, by, var, coll, where, body = c
        return ast.ChooseFor(name=_unquote(name), by=by, var=str(var), collection=coll, where=where, body=body,
                             span=span_of(meta), meta=body.meta)

    def define_decl(self, meta, c):
        params = tuple(x for x in c[1:-2] if x is not None)
        return ast.Define(name=str(c[0]), params=params, value=c[-2], span=span_of(meta), meta=c[-1])

    def procedure_decl(self, meta, c):
        params = tuple(x for x in c[1:-1] if x is not None)
        return ast.Procedure(name=str(c[0]), params=params, body=c[-1], span=span_of(meta), meta=c[-1].meta)

    def do_stmt(self, meta, c):
        return ast.Do(name=str(c[0]), args=tuple(a for a in c[1:] if a is not None), span=span_of(meta))

    def define_param(self, meta, c):
        return (str(c[0]), c[1])

    def define_kinds_param(self, meta, c):
        kinds = [str(k) for k in c[1:]]
        ref = ast.TypeRef(name=kinds[0], optional=False, is_list=False, element=None, span=_through(c[1], c[-1]),
                          also=tuple(kinds[1:]))
        return (str(c[0]), ref)

    def draw_stmt(self, meta, c):
        return ast.Draw(deck=str(c[0]), deck_span=token_span(c[0]), span=span_of(meta), who=c[1])

    def draw_as_stmt(self, meta, c):
        deck, who, var, body, orelse = c
        return ast.DrawAs(deck=str(deck), deck_span=token_span(deck), who=who, var=str(var), body=body,
                          orelse=orelse[1] if orelse else None, span=span_of(meta), meta=body.meta)

    def eliminate_stmt(self, meta, c):
        return ast.Eliminate(who=c[0], span=span_of(meta))

    def end_turn_stmt(self, meta, c):
        return ast.EndTurn(span=span_of(meta))

    def end_game_stmt(self, meta, c):
        return ast.EndGame(winner=c[0], reason=_unquote(c[1]), span=span_of(meta))

    def raise_cash_stmt(self, meta, c):
        return ast.RaiseCash(span=span_of(meta))

    def if_stmt(self, meta, c):
        branches = [(c[0], c[1])]
        orelse = None
        for child in c[2:]:
            if isinstance(child, tuple) and child[0] == "elif":
                branches.append((child[1], child[2]))
            elif isinstance(child, tuple) and child[0] == "else":
                orelse = child[1]
        return ast.If(branches=tuple(branches), orelse=orelse, span=span_of(meta), meta=c[1].meta)

    def elif_clause(self, meta, c):
        return ("elif", c[0], c[1])

    def else_clause(self, meta, c):
        return ("else", c[0])

    def for_stmt(self, meta, c):
        return ast.For(var=str(c[0]), collection=c[1], body=c[2], span=span_of(meta), meta=c[2].meta)

    def auction_stmt(self, meta, c):
        thing, minimum, among, window, after, passes, bluffing, var, body, orelse, bluff = c
        return ast.Auction(thing=thing, minimum=minimum, among=among, var=str(var), body=body,
                           orelse=orelse[1] if orelse else None, span=span_of(meta), meta=body.meta,
                           window=window is not None, after=after,
                           passes=passes[0] if passes else 1, passes_span=passes[1] if passes else None,
                           bluffing=bluffing is not None, limit=bluffing, bluff=bluff)

    def bid_window(self, meta, c):
        return True

    def bid_round(self, meta, c):
        return c[0]

    def bid_passes(self, meta, c):
        return (int(c[0]), span_of(meta))

    def bid_bluffing(self, meta, c):
        return c[0]  # the highest bid a bidder may make: `bluffing up to EXPR`

    def bluff_clause(self, meta, c):
        return ast.evolve(c[0], span=span_of(meta))  # the block from its `bluff:`

    def choose_stmt(self, meta, c):
        return ast.Choose(name=_unquote(c[0]), by=c[1], options=tuple(c[3:]), span=span_of(meta), meta=c[2])

    def option_clause(self, meta, c):
        return ast.Option(name=str(c[0]), when=c[1], body=c[2], span=span_of(meta))

    # ---- expressions -------------------------------------------------------------------------
    def _binary_chain(self, meta, c, make):
        result = c[0]
        for i in range(1, len(c), 2):
            right = c[i + 1]
            span = span_of(meta)
            if i + 2 < len(c) and result.span.line and right.span.line:  # an inner link: `a + b` of `a + b + c`
                span = attrs.evolve(result.span, end_line=right.span.end_line, end_column=right.span.end_column)
            result = make(str(c[i]), result, right, span)
        return result

    def or_expr(self, meta, c):
        return ast.BoolOp(op="or", operands=tuple(c), span=span_of(meta))

    def and_expr(self, meta, c):
        return ast.BoolOp(op="and", operands=tuple(c), span=span_of(meta))

    def not_(self, meta, c):
        return ast.Not(operand=c[0], span=span_of(meta))

    def comparison(self, meta, c):
        return ast.Compare(op=str(c[1]), left=c[0], right=c[2], span=span_of(meta))

    def sum(self, meta, c):
        return self._binary_chain(meta, c, lambda op, l, r, s: ast.BinOp(op=op, left=l, right=r, span=s))

    def product(self, meta, c):
        """`*`, `/` and `P of X rounded R` are one level, read left to right: `50% of x rounded down * n`
        is `(50% of x rounded down) * n`. Each link spans from the chain's start to its own end."""
        result = c[0]
        for make, end in c[1:]:
            span = span_of(meta)
            if result.span.line:
                span = attrs.evolve(result.span, end_line=end.end_line, end_column=end.end_column)
            result = make(result, span)
        return result

    def mul_link(self, meta, c):
        op, right = str(c[0]), c[1]
        return (lambda left, span: ast.BinOp(op=op, left=left, right=right, span=span)), span_of(meta)

    def of_link(self, meta, c):
        base, rounding, unit = c
        return (lambda percent, span: ast.PercentOf(percent=percent, base=base, rounding=rounding, span=span,
                                                    unit=unit), span_of(meta))

    def round_link(self, meta, c):
        rounding, unit = c
        return (lambda value, span: ast.Rounded(value=value, rounding=rounding, unit=unit, span=span), span_of(meta))

    def neg(self, meta, c):
        return ast.Neg(operand=c[0], span=span_of(meta))

    def attr(self, meta, c):
        return ast.Attr(obj=c[0], name=str(c[1]), span=span_of(meta))

    def index(self, meta, c):
        return ast.Index(obj=c[0], index=c[1], span=span_of(meta))

    def call(self, meta, c):
        args = tuple(a for a in c[1:] if a is not None)
        return ast.Call(func=str(c[0]), args=args, span=span_of(meta))

    def aggregate(self, meta, c):
        func, var, coll, where, body = c
        if str(func) not in AGGREGATES:
            raise RulesError([codes.NOT_AN_AGGREGATE.diagnostic(
                f"`{func}(… in …)` is not an aggregate", self.path, token_span(func),
                help=f"aggregates are {', '.join(f'`{a}`' for a in sorted(AGGREGATES))}")])
        return ast.Aggregate(func=str(func), var=str(var), collection=coll, where=where, body=body,
                             span=span_of(meta))

    def agg_where(self, meta, c):
        return c[0]

    def cond_expr(self, meta, c):
        return ast.Conditional(condition=c[0], then=c[1], orelse=c[2], span=span_of(meta))

    def name(self, meta, c):
        return ast.Name(id=str(c[0]), span=span_of(meta))

    def list_expr(self, meta, c):
        return ast.ListExpr(items=tuple(x for x in c if x is not None), span=span_of(meta))

    def int_lit(self, meta, c):
        return ast.Literal(value=_number(c[0]), type="count", span=span_of(meta))

    def money_lit(self, meta, c):
        return ast.Literal(value=_number(c[0], str(c[0])[1:]), type="money", span=span_of(meta))

    def percent_lit(self, meta, c):
        return ast.Literal(value=_number(c[0], str(c[0])[:-1]), type="percent", span=span_of(meta))

    def string_lit(self, meta, c):
        return ast.Literal(value=_unquote(c[0]), type="text", span=span_of(meta))

    def true_lit(self, meta, c):
        return ast.Literal(value=True, type="bool", span=span_of(meta))

    def false_lit(self, meta, c):
        return ast.Literal(value=False, type="bool", span=span_of(meta))

    def none_lit(self, meta, c):
        return ast.Literal(value=None, type="none", span=span_of(meta))


@attrs.frozen
class _AmountParam:
    """An amount parameter on its way into `ActionDecl` (never left in the tree)."""

    var: str
    type: str
    range: ast.AmountRange


def _row_parts(children) -> tuple:
    """A table row's cells (a tuple), the columns its `assumed` names, and its citation."""
    cells, assumed_columns, cite = [], None, None
    for child in children:
        if isinstance(child, tuple) and child and child[0] == "row_assumed":
            assumed_columns = child[1]
        elif isinstance(child, tuple) and child and child[0] == "cite":
            cite = child[1]
        else:
            cells.append(child)
    return tuple(cells), assumed_columns, cite
