"""Compile checked AST into Python closures, once, so that playing never re-walks the tree.

Every expression becomes `f(g, e) -> value` and every statement `s(g, e) -> None`,
where `g` is the running `Game` and `e` the dict of local names (`player`, a handler's
thing, a roll...). The static types the checker inferred pick the right closure for
each node (a player's field, a thing's field, a roll's total), so no closure asks
what kind of node it is while the game runs. Statements call the engine for anything
that changes state, passing their own `file:line` for the event they cause.
"""

from __future__ import annotations

import operator
import os

from rulesc.dsl import ast
from rulesc.dsl.checker import Checked

from .errors import RuleRuntimeError
from .state import Bank, Square

COMPARE = {"==": operator.is_, "!=": operator.is_not, "<": operator.lt, "<=": operator.le,
           ">": operator.gt, ">=": operator.ge}
VALUE_COMPARE = {"==": operator.eq, "!=": operator.ne}
PLAYER_BUILTINS = {"name", "seat", "out", "position"}


class Compiler:
    """Turns the checked program's AST into closures; one instance per loaded program."""

    def __init__(self, checked: Checked, squares: dict[str, Square], thing_index: dict[str, int]):
        self.checked = checked
        self.program = checked.program
        self.types = checked.types
        self.squares = squares
        self.thing_index = thing_index
        self.file = os.path.basename(self.program.path)
        self.params: dict[str, object] = {}

    def where(self, node) -> str:
        return f"{self.file}:{node.span.line}"

    def fail(self, message: str, node, help: str | None = None):
        raise RuleRuntimeError(message, self.program.path, node.span, help)

    # ---- expressions ------------------------------------------------------------------------
    def expr(self, node, local: frozenset = frozenset()):
        """Compile an expression; `local` holds the names bound in the enclosing rule."""
        method = getattr(self, "_" + type(node).__name__)
        return method(node, local)

    def _Literal(self, node, local):
        value = node.value
        return lambda g, e: value

    def _Name(self, node, local):
        name = node.id
        if name in local:
            return lambda g, e: e[name]
        p = self.program
        if name in self.params:
            value = self.params[name]
            return lambda g, e: value
        if name == "players":
            return lambda g, e: g.active
        if name == "bank":
            return lambda g, e: g.state.bank
        if name in p.global_fields:
            return lambda g, e: g.state.globals[name]
        if name in self.thing_index:
            index = self.thing_index[name]
            return lambda g, e: g.things[index]
        if name in p.squares:
            square = self.squares[name]
            return lambda g, e: square
        if name in p.kinds or name in p.groups:
            return lambda g, e: g.kind_things[name]
        if name == "winner":
            return lambda g, e: g.state.winner
        if name == "game_over":
            return lambda g, e: g.state.over
        raise RuleRuntimeError(f"unknown name `{name}`", p.path, node.span)

    def _Attr(self, node, local):
        obj = self.expr(node.obj, local)
        field = node.name
        base = self.types.get(id(node.obj))
        base_name = base.name if base is not None else "any"
        fail = self._none_failure(node)
        if base_name == "player" and field in PLAYER_BUILTINS:
            if field == "position":
                def position(g, e):
                    p = obj(g, e)
                    return g.board[p.at]
                return position
            getter = operator.attrgetter(field)
            return lambda g, e: getter(obj(g, e))
        if base_name in ("roll", "sale"):
            getter = operator.attrgetter(field)
            return lambda g, e: getter(obj(g, e))
        if field == "name":
            def name_of(g, e):
                value = obj(g, e)
                return value.name if value is not None else fail()
            return name_of

        if isinstance(node.obj, ast.Name) and node.obj.id in local:
            name = node.obj.id

            def get_local(g, e):
                try:
                    return e[name].f[field]
                except AttributeError:
                    fail()
            return get_local

        def get(g, e):
            try:
                return obj(g, e).f[field]
            except AttributeError:
                fail()
        return get

    def _none_failure(self, node):
        def fail():
            self.fail(f"`{_source(self.program, node.obj)}` is `none` here, so it has no `{node.name}`", node,
                      help="guard the rule with `when … != none`")
        return fail

    def _Index(self, node, local):
        obj, index = self.expr(node.obj, local), self.expr(node.index, local)

        def get(g, e):
            items, i = obj(g, e), index(g, e)
            if not 0 <= i < len(items):
                self.fail(f"index {i} is outside the list (it has {len(items)} items)", node)
            return items[i]
        return get

    def _Call(self, node, local):
        args = [self.expr(a, local) for a in node.args]
        if node.func == "count":
            arg = args[0]
            return lambda g, e: len(g.iterate(arg(g, e)))
        fn = min if node.func == "min" else max
        return lambda g, e: fn(a(g, e) for a in args)

    def _Aggregate(self, node, local):
        var = node.var
        inner = local | {var}
        coll = self.expr(node.collection, local)
        where = self.expr(node.where, inner) if node.where is not None else None
        body = self.expr(node.body, inner) if node.body is not None else None
        func = node.func

        if func in ("all", "any"):
            want = func == "any"  # the body value that decides the result early

            def quantifier(g, e):
                saved = e.get(var, _MISSING)
                result = not want
                for item in g.iterate(coll(g, e)):
                    e[var] = item
                    if (where is None or where(g, e)) and bool(body(g, e)) is want:
                        result = want
                        break
                _restore(e, var, saved)
                return result
            return quantifier

        def values(g, e):
            saved = e.get(var, _MISSING)
            out = []
            for item in g.iterate(coll(g, e)):
                e[var] = item
                if where is None or where(g, e):
                    if func == "count":
                        if body is None or body(g, e):
                            out.append(1)
                    else:
                        out.append(body(g, e))
            _restore(e, var, saved)
            return out

        if func in ("count", "sum"):
            return lambda g, e: sum(values(g, e))
        reduce = min if func == "min" else max

        def extreme(g, e):
            found = values(g, e)
            if not found:
                self.fail(f"`{func}` of an empty list", node)
            return reduce(found)
        return extreme

    def _BinOp(self, node, local):
        left, right = self.expr(node.left, local), self.expr(node.right, local)
        if node.op == "+":
            return lambda g, e: left(g, e) + right(g, e)
        if node.op == "-":
            return lambda g, e: left(g, e) - right(g, e)
        if node.op == "*":
            return lambda g, e: left(g, e) * right(g, e)

        def divide(g, e):
            divisor = right(g, e)
            if divisor == 0:
                self.fail("division by zero", node)
            return left(g, e) // divisor
        return divide

    def _Compare(self, node, local):
        left, right = self.expr(node.left, local), self.expr(node.right, local)
        if isinstance(node.right, ast.Literal) and node.right.type == "none" and node.op in ("==", "!="):
            if node.op == "==":
                return lambda g, e: left(g, e) is None
            return lambda g, e: left(g, e) is not None
        t = self.types.get(id(node.left))
        scalar = t is not None and t.name in ("money", "count", "percent", "bool", "text", "any")
        op = VALUE_COMPARE[node.op] if scalar and node.op in VALUE_COMPARE else COMPARE[node.op]
        return lambda g, e: op(left(g, e), right(g, e))

    def _BoolOp(self, node, local):
        parts = [self.expr(o, local) for o in node.operands]
        # Fold right into two-operand closures: cheaper than a generator per evaluation.
        combined = parts[-1]
        for part in reversed(parts[:-1]):
            combined = _and(part, combined) if node.op == "and" else _or(part, combined)
        return combined

    def _Not(self, node, local):
        operand = self.expr(node.operand, local)
        return lambda g, e: not operand(g, e)

    def _Neg(self, node, local):
        operand = self.expr(node.operand, local)
        return lambda g, e: -operand(g, e)

    def _PercentOf(self, node, local):
        pct, base = self.expr(node.percent, local), self.expr(node.base, local)
        if node.rounding == "down":
            return lambda g, e: base(g, e) * pct(g, e) // 100
        if node.rounding == "up":
            return lambda g, e: -(-base(g, e) * pct(g, e) // 100)
        return lambda g, e: (base(g, e) * pct(g, e) * 2 + 100) // 200

    def _ListExpr(self, node, local):
        items = [self.expr(i, local) for i in node.items]
        return lambda g, e: [i(g, e) for i in items]

    def _Conditional(self, node, local):
        cond, then, orelse = (self.expr(n, local) for n in (node.condition, node.then, node.orelse))
        return lambda g, e: then(g, e) if cond(g, e) else orelse(g, e)

    # ---- statements ----------------------------------------------------------------------------
    def block(self, block: ast.Block, local: frozenset):
        stmts = []
        for stmt in block.statements:
            compiled, local = self.stmt(stmt, local)
            stmts.append(compiled)
        if len(stmts) == 1:
            return stmts[0]

        def run(g, e):
            for s in stmts:
                s(g, e)
        return run

    def stmt(self, node, local: frozenset):
        """Compile one statement; returns the closure and the local names visible after it."""
        method = getattr(self, "_s_" + type(node).__name__)
        return method(node, local, self.where(node))

    def _s_Roll(self, node, local, where):
        count, var = self.expr(node.count, local), node.var

        def roll(g, e):
            g.tick(where, node)
            e[var] = g.roll(e.get("player"), count(g, e), where)
        return roll, local | {var}

    def _s_Move(self, node, local, where):
        who, amount, how = self.expr(node.who, local), self.expr(node.amount, local), node.how

        def move(g, e):
            g.tick(where, node)
            g.move(who(g, e), how, amount(g, e), where)
        return move, local

    def _s_Pay(self, node, local, where):
        amount, source, target = (self.expr(n, local) for n in (node.amount, node.source, node.target))

        def pay(g, e):
            g.tick(where, node)
            value = amount(g, e)
            if value < 0:
                self.fail(f"cannot pay a negative amount ({value})", node)
            g.pay(value, source(g, e), target(g, e), where)
        return pay, local

    def _s_Set(self, node, local, where):
        value = self.expr(node.value, local)
        if isinstance(node.target, ast.Name):
            name = node.target.id

            def set_global(g, e):
                g.tick(where, node)
                g.set_global(name, value(g, e), where)
            return set_global, local
        obj, field = self.expr(node.target.obj, local), node.target.name
        fail = self._none_failure(node.target)

        def set_field(g, e):
            g.tick(where, node)
            target = obj(g, e)
            if target is None:
                fail()
            g.set_field(target, field, value(g, e), where)
        return set_field, local

    def _s_Let(self, node, local, where):
        value, name = self.expr(node.value, local), node.name

        def let(g, e):
            e[name] = value(g, e)
        return let, local | {name}

    def _s_Draw(self, node, local, where):
        deck = node.deck

        def draw(g, e):
            g.tick(where, node)
            g.draw(deck, e["player"], where)
        return draw, local

    def _s_Eliminate(self, node, local, where):
        who = self.expr(node.who, local)

        def eliminate(g, e):
            g.tick(where, node)
            g.eliminate(who(g, e), where)
        return eliminate, local

    def _s_EndTurn(self, node, local, where):
        def end_turn(g, e):
            g.end_turn(where)
        return end_turn, local

    def _s_EndGame(self, node, local, where):
        winner, reason = self.expr(node.winner, local), node.reason

        def end_game(g, e):
            g.end_game(reason, winner(g, e), where)
        return end_game, local

    def _s_RaiseCash(self, node, local, where):
        def raise_cash(g, e):
            g.tick(where, node)
            g.raise_cash(e["debtor"], e["owed"], where)
        return raise_cash, local

    def _s_If(self, node, local, where):
        branches = [(self.expr(c, local), self.block(b, local)) for c, b in node.branches]
        orelse = self.block(node.orelse, local) if node.orelse is not None else None
        if len(branches) == 1:
            (cond, body), = branches

            def if_(g, e):
                g.tick(where, node)
                if cond(g, e):
                    body(g, e)
                elif orelse is not None:
                    orelse(g, e)
            return if_, local

        def if_chain(g, e):
            g.tick(where, node)
            for cond, body in branches:
                if cond(g, e):
                    body(g, e)
                    return
            if orelse is not None:
                orelse(g, e)
        return if_chain, local

    def _s_For(self, node, local, where):
        coll, var = self.expr(node.collection, local), node.var
        body = self.block(node.body, local | {var})

        def for_(g, e):
            g.tick(where, node)
            for item in list(g.iterate(coll(g, e))):
                e[var] = item
                body(g, e)
        return for_, local

    def _s_Auction(self, node, local, where):
        thing, minimum = self.expr(node.thing, local), self.expr(node.minimum, local)
        among = self.expr(node.among, local) if node.among is not None else None
        var = node.var
        body = self.block(node.body, local | {var})
        orelse = self.block(node.orelse, local) if node.orelse is not None else None

        def auction(g, e):
            g.tick(where, node)
            bidders = among(g, e) if among is not None else g.active
            sale = g.auction(thing(g, e), minimum(g, e), bidders, where)
            if sale is not None:
                e[var] = sale
                body(g, e)
            elif orelse is not None:
                orelse(g, e)
        return auction, local

    def _s_Choose(self, node, local, where):
        by = self.expr(node.by, local)
        options = [(o.name, self.expr(o.when, local) if o.when is not None else None, self.block(o.body, local))
                   for o in node.options]
        name = node.name

        def choose(g, e):
            g.tick(where, node)
            chooser = by(g, e)
            legal = [(n, body) for n, when, body in options if when is None or when(g, e)]
            if not legal:
                return
            picked = g.choose(chooser, name, [n for n, _ in legal], where)
            dict(legal)[picked](g, e)
        return choose, local


_MISSING = object()


def _restore(e: dict, var: str, saved) -> None:
    if saved is _MISSING:
        e.pop(var, None)
    else:
        e[var] = saved


def _and(a, b):
    return lambda g, e: a(g, e) and b(g, e)


def _or(a, b):
    return lambda g, e: a(g, e) or b(g, e)


def owner_prefilter(when, var: str) -> str | None:
    """The field F if `when` starts with `VAR.F == player`: candidates can be filtered by it cheaply."""
    first = when.operands[0] if isinstance(when, ast.BoolOp) and when.op == "and" else when
    if (isinstance(first, ast.Compare) and first.op == "==" and isinstance(first.left, ast.Attr)
            and isinstance(first.left.obj, ast.Name) and first.left.obj.id == var
            and isinstance(first.right, ast.Name) and first.right.id == "player"):
        return first.left.name
    return None


def _source(program, node) -> str:
    lines = program.source.splitlines()
    span = node.span
    if span.line == span.end_line and 0 < span.line <= len(lines):
        return lines[span.line - 1][span.column - 1:span.end_column - 1]
    return "this value"


def is_account(value) -> bool:
    return isinstance(value, Bank) or hasattr(value, "seat")
