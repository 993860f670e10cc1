"""Negative payments: a `pay` whose amount, computed from the file's fixed data, is below zero.

Why: `pay` moves a non-negative amount; a negative one stops the game when it runs (`R1001`). A
parameter, a table cell or a never-changed field written `-$5` (a typo, or a "prize" meant to be paid the
other way) passes the checker's types and is found only in play, and only in the games that reach it.

The amount is evaluated over what the file fixes: literals, parameters (as a variant overrides them),
table cells of the thing a rule is about (each row of the kind in turn, for a handler's, an action's or a
choice's thing), fields and globals no rule ever `set`s (their starting value), rolls (1 to 6 a die),
`+ - * /`, percentages, `min`, `max`, `if … then … else`, `let`s and `define`s. An unknown value (a
player's cash, a count) is an interval: a count is at least 0, cash, balances, prices and debts too. The
conditions that hold at the payment (the `when`, `where`, enclosing `if`s) are evaluated with the same
values, so `if fee > $0: pay fee …` is no finding. A finding needs the amount to be negative whatever
the unknowns are (or never positive, and negative because a declared value is); an amount that cannot be
decided is not reported.
"""

from __future__ import annotations

import itertools
import math
from typing import Iterable

import attrs

from .. import ast, codes
from ..diagnostics import Diagnostic, Label
from .flow import Flow, flow_of

INF = math.inf
ALTERNATIVES = 64  # alternatives of one value followed; more are not decided
ASSIGNMENTS = 4096  # rows of the things a payment reads, tried together
NON_NEGATIVE_FIELDS = frozenset({"cash", "balance", "owing", "bidding", "price", "total", "left", "discarded",
                                 "size", "seat", "extra_turns", "status_turns"})


@attrs.frozen
class Val:
    lo: float
    hi: float
    src: object = None  # (span, path, what): a declared negative value this one comes from


UNKNOWN = Val(-INF, INF)
NON_NEGATIVE = Val(0, INF)


class _Eval:
    def __init__(self, flow: Flow, assignment: dict, set_names: set):
        self.flow = flow
        self.p = flow.p
        self.assignment = assignment
        self.set_names = set_names

    # ---- values --------------------------------------------------------------------------------------------

    def value(self, expr, env, fields, depth=0) -> list:
        if depth > 24:
            return [UNKNOWN]
        flow = self.flow
        if isinstance(expr, ast.Literal):
            if expr.type in ("money", "count", "percent") and isinstance(expr.value, (int, float)):
                v = expr.value
                return [Val(v, v, (expr.span, f"`{self.p.text_at(expr.span)}`") if v < 0 else None)]
            return [UNKNOWN]
        if isinstance(expr, ast.Neg):
            out = []
            for a in self.value(expr.operand, env, fields, depth + 1):  # negative where the operand is positive
                out.append(Val(-a.hi, -a.lo, (expr.span, f"`{self.p.text_at(expr.span)}`") if a.hi > 0 else None))
            return out
        if isinstance(expr, ast.BinOp) and expr.op in "+-*/":
            left = self.value(expr.left, env, fields, depth + 1)
            right = self.value(expr.right, env, fields, depth + 1)
            return self._combine(left, right, lambda a, b: _arith(expr.op, a, b))
        if isinstance(expr, ast.PercentOf):
            pct = self.value(expr.percent, env, fields, depth + 1)
            base = self.value(expr.base, env, fields, depth + 1)
            rounding = {"down": math.floor, "up": math.ceil}.get(expr.rounding, round)
            return self._combine(pct, base, lambda a, b: _rounded(_scale(_mul(a, b), 0.01), rounding))
        if isinstance(expr, ast.Conditional):
            c = self.truth(expr.condition, env, fields, depth + 1)
            if c is True:
                return self.value(expr.then, env, fields, depth + 1)
            if c is False:
                return self.value(expr.orelse, env, fields, depth + 1)
            return self._cap(self.value(expr.then, env, fields, depth + 1) + self.value(expr.orelse, env, fields, depth + 1))
        if isinstance(expr, ast.Call):
            if expr.func in ("min", "max") and expr.args:
                vals = self.value(expr.args[0], env, fields, depth + 1)
                pick = min if expr.func == "min" else max
                for arg in expr.args[1:]:
                    vals = self._combine(vals, self.value(arg, env, fields, depth + 1),
                                         lambda a, b: Val(pick(a.lo, b.lo), pick(a.hi, b.hi), _src(a, b)))
                return vals
            if expr.func in self.p.defines:
                define = self.p.defines[expr.func]
                inner = {}
                for (name, _t), arg in zip(define.params, expr.args):
                    inner[name] = flow.resolve(arg, env, fields)
                    if inner[name][0] in ("opaque", "lit"):
                        inner[name] = ("expr", arg, tuple(env.items()), tuple(fields.items()))
                return self.value(define.value, inner, {}, depth + 1)
            if expr.func == "count":
                return [NON_NEGATIVE]
            return [UNKNOWN]
        if isinstance(expr, ast.Index):
            elements = self.elements(expr.obj, env, fields, depth + 1)
            if elements is None:
                return [UNKNOWN]
            index = self.value(expr.index, env, fields, depth + 1)
            if len(index) == 1 and index[0].lo == index[0].hi and 0 <= index[0].lo < len(elements):
                return elements[int(index[0].lo)]
            return self._cap([v for element in elements for v in element])
        if isinstance(expr, ast.Aggregate):
            if expr.func == "count":
                return [NON_NEGATIVE]
            if expr.func in ("sum", "min", "max") and expr.body is not None:  # of counts kept in fields
                body = expr.body
                t = flow.type_of(body)
                if isinstance(body, ast.Attr) and t is not None and t.name == "count":
                    return [NON_NEGATIVE]
            return [UNKNOWN]
        if isinstance(expr, (ast.Name, ast.Attr)):
            return self.symbol(flow.resolve(expr, env, fields), expr, depth)
        return [UNKNOWN]

    def symbol(self, sym, expr, depth) -> list:
        flow, p = self.flow, self.p
        kind = sym[0]
        if kind == "expr":
            _, arg, env, fields = sym
            return self.value(arg, dict(env), dict(fields), depth + 1)
        if kind == "param" and sym[1] in p.params:
            param = p.params[sym[1]]
            vals = self.value(param.value, {}, {}, depth + 1)
            return [attrs.evolve(v, src=(param.span, f"`{sym[1]}`")) if v.lo < 0 else v for v in vals]
        if kind == "global" and sym[1] in p.global_fields:
            f = p.global_fields[sym[1]]
            if sym[1] not in self.set_names and f.default is not None:
                vals = self.value(f.default, {}, {}, depth + 1)
                return [attrs.evolve(v, src=(f.span, f"`{sym[1]}`")) if v.lo < 0 else v for v in vals]
            return self._by_type(f.type.name, sym[1])
        if kind == "var":
            if sym in flow.lets:
                let_expr, env, fields = flow.lets[sym]
                return self.value(let_expr, env, fields, depth + 1)
            if sym in flow.amount_ranges:
                rng, env = flow.amount_ranges[sym]
                low = self.value(rng.low, env, {}, depth + 1)
                high = self.value(rng.high, env, {}, depth + 1)
                return self._cap([Val(v.lo, v.lo, v.src) if v.lo == v.hi else v for v in low + high])
            return [UNKNOWN]
        if kind == "field":
            base, name = sym[1], sym[2]
            row = None
            if base[0] == "thing" and base[1] in p.things:
                row = base[1]
            elif base in self.assignment:
                row = self.assignment[base]
            if row is not None:
                thing = p.things[row]
                if name in thing.values:
                    return self._cell(thing.values[name], row, name, depth)
                k = p.kinds.get(thing.kind)
                f = next((f for f in k.fields if f.name == name), None) if k else None
                if f is not None and f.is_state and name not in self.set_names and f.default is not None:
                    return self.value(f.default, {}, {}, depth + 1)
                if f is not None:
                    return self._by_type(f.type.name, name)
                return [UNKNOWN]
            if base in flow.rolls and name == "total":
                count_expr, env = flow.rolls[base]
                counts = self.value(count_expr, env, {}, depth + 1)
                lo = min((c.lo for c in counts), default=1)
                hi = max((c.hi for c in counts), default=INF)
                return [Val(max(lo, 0), 6 * hi)]
            if name in p.player_fields and name not in self.set_names and name not in flow.account_player_fields:
                f = p.player_fields[name]
                if f.default is not None and f.type.name in ("money", "count", "percent"):
                    vals = self.value(f.default, {}, {}, depth + 1)
                    return [attrs.evolve(v, src=(f.span, f"`{name}`")) if v.lo < 0 else v for v in vals]
            if name in NON_NEGATIVE_FIELDS:
                return [NON_NEGATIVE]
            t = flow.type_of(expr)
            return self._by_type(t.name if t is not None else "", name)
        if kind == "builtin" and sym[1] in ("owed", "turn"):
            return [NON_NEGATIVE]
        t = flow.type_of(expr)
        return self._by_type(t.name if t is not None else "", None)

    def _cell(self, cell, row, column, depth) -> list:
        if isinstance(cell, ast.ListExpr):
            return self._cap([v for item in cell.items for v in self._cell(item, row, column, depth)])
        vals = self.value(cell, {}, {}, depth + 1)
        return [attrs.evolve(v, src=(cell.span, f"`{column}` of `{row}`")) if v.lo < 0 else v for v in vals]

    def elements(self, expr, env, fields, depth) -> list | None:
        """The values of each element of a list a list expression gives, when it is fixed data."""
        if isinstance(expr, ast.ListExpr):
            return [self.value(item, env, fields, depth + 1) for item in expr.items]
        if isinstance(expr, (ast.Name, ast.Attr)):
            sym = self.flow.resolve(expr, env, fields)
            if sym[0] == "param" and sym[1] in self.p.params:
                param = self.p.params[sym[1]]
                if isinstance(param.value, ast.ListExpr):
                    return [[attrs.evolve(v, src=(param.span, f"`{sym[1]}`")) if v.lo < 0 else v
                             for v in self.value(item, {}, {}, depth + 1)] for item in param.value.items]
            if sym[0] == "field":
                base, name = sym[1], sym[2]
                row = base[1] if base[0] == "thing" and base[1] in self.p.things else self.assignment.get(base)
                if row is not None:
                    cell = self.p.things[row].values.get(name)
                    if isinstance(cell, ast.ListExpr):
                        return [self._cell(item, row, name, depth) for item in cell.items]
        return None

    @staticmethod
    def _by_type(type_name: str, name) -> list:
        return [NON_NEGATIVE] if type_name == "count" or name in NON_NEGATIVE_FIELDS else [UNKNOWN]

    @staticmethod
    def _cap(vals: list) -> list:
        return vals if len(vals) <= ALTERNATIVES else [Val(min(v.lo for v in vals), max(v.hi for v in vals))]

    def _combine(self, left, right, op) -> list:
        if len(left) * len(right) > ALTERNATIVES:
            left = self._cap(left) if len(left) > 1 else left
            left = [Val(min(v.lo for v in left), max(v.hi for v in left), _first_src(left))]
            right = [Val(min(v.lo for v in right), max(v.hi for v in right), _first_src(right))]
        return [op(a, b) for a in left for b in right]

    # ---- conditions ----------------------------------------------------------------------------------------

    def truth(self, expr, env, fields, depth=0):
        if depth > 24:
            return None
        if isinstance(expr, ast.BoolOp):
            values = [self.truth(o, env, fields, depth + 1) for o in expr.operands]
            if expr.op == "and":
                return False if False in values else (True if all(v is True for v in values) else None)
            return True if True in values else (False if all(v is False for v in values) else None)
        if isinstance(expr, ast.Not):
            v = self.truth(expr.operand, env, fields, depth + 1)
            return None if v is None else not v
        if isinstance(expr, ast.Literal) and expr.type == "bool":
            return bool(expr.value)
        if isinstance(expr, ast.Compare):
            lt = self.flow.type_of(expr.left)
            if lt is None or lt.name not in ("money", "count", "percent"):
                return None
            left = self.value(expr.left, env, fields, depth + 1)
            right = self.value(expr.right, env, fields, depth + 1)
            a = Val(min(v.lo for v in left), max(v.hi for v in left))
            b = Val(min(v.lo for v in right), max(v.hi for v in right))
            return _compare(expr.op, a, b)
        if isinstance(expr, ast.Call) and expr.func in self.p.defines:
            define = self.p.defines[expr.func]
            inner = {}
            for (name, _t), arg in zip(define.params, expr.args):
                inner[name] = self.flow.resolve(arg, env, fields)
                if inner[name][0] in ("opaque", "lit"):
                    inner[name] = ("expr", arg, tuple(env.items()), tuple(fields.items()))
            return self.truth(define.value, inner, {}, depth + 1)
        return None


def _src(a: Val, b: Val):
    return a.src or b.src


def _first_src(vals):
    return next((v.src for v in vals if v.src), None)


def _mul(a: Val, b: Val) -> Val:
    products = [_times(x, y) for x in (a.lo, a.hi) for y in (b.lo, b.hi)]
    return Val(min(products), max(products), _src(a, b))


def _times(x, y):
    if x == 0 or y == 0:
        return 0
    return x * y


def _scale(a: Val, k: float) -> Val:
    return Val(a.lo * k, a.hi * k, a.src)


def _rounded(a: Val, rounding) -> Val:
    return Val(a.lo if math.isinf(a.lo) else rounding(a.lo), a.hi if math.isinf(a.hi) else rounding(a.hi), a.src)


def _arith(op: str, a: Val, b: Val) -> Val:
    if op == "+":
        return Val(a.lo + b.lo, a.hi + b.hi, _src(a, b))
    if op == "-":
        return Val(a.lo - b.hi, a.hi - b.lo, a.src or (b.src if b.lo < 0 else None))
    if op == "*":
        return _mul(a, b)
    if b.lo > 0 or b.hi < 0:  # division by a number of known sign
        quotients = [x / y for x in (a.lo, a.hi) for y in (b.lo, b.hi) if not (math.isinf(x) and math.isinf(y))]
        if len(quotients) == 4:
            return Val(min(quotients), max(quotients), _src(a, b))
    return UNKNOWN


def _compare(op: str, a: Val, b: Val):
    if op == "<":
        return True if a.hi < b.lo else (False if a.lo >= b.hi else None)
    if op == "<=":
        return True if a.hi <= b.lo else (False if a.lo > b.hi else None)
    if op == ">":
        return _compare("<", b, a)
    if op == ">=":
        return _compare("<=", b, a)
    if op == "==":
        if a.lo == a.hi == b.lo == b.hi:
            return True
        return False if a.hi < b.lo or b.hi < a.lo else None
    if op == "!=":
        v = _compare("==", a, b)
        return None if v is None else not v
    return None


def _money(value: float) -> str:
    whole = int(value) if float(value).is_integer() else value
    sign = "-" if whole < 0 else ""
    return f"{sign}${abs(whole):,}" if isinstance(whole, int) else f"{sign}${abs(whole):,.2f}"


def _set_names(flow: Flow) -> set:
    """The names of the globals and fields some rule `set`s (the others keep their starting values)."""
    names = set()
    for v in flow.visits:
        if isinstance(v.stmt, ast.Set):
            target = v.stmt.target
            if isinstance(target, ast.Attr):
                names.add(target.name)
            elif isinstance(target, ast.Name):
                names.add(target.id)
    return names


def _negative(val) -> bool:
    """A payment's amount that is below $0: always, or at best $0 with a declared value below it."""
    return val.hi < 0 or (val.hi <= 0 and val.lo < 0 and val.src is not None)


def analyse(checked) -> Iterable[Diagnostic]:
    flow = flow_of(checked)
    p = flow.p
    set_names = _set_names(flow)
    reported: set = set()
    for v in flow.visits:
        stmt = v.stmt
        if not isinstance(stmt, ast.Pay) or id(stmt) in reported:
            continue
        reads = flow.syms_in(stmt.amount, v.env, v.fields)
        if not any(s in flow.over_kind for s in reads) and not any(
                _negative(val) for val in _Eval(flow, {}, set_names).value(stmt.amount, v.env, v.fields)):
            continue  # an amount that reads no thing's row is never negative here, whatever the facts say
        for fact in v.facts:
            reads |= flow.syms_in(fact.expr, fact.env, fact.fields)
        over = sorted((s for s in reads if s in flow.over_kind), key=repr)
        rows = [[n for n, t in p.things.items() if t.kind == flow.over_kind[s]] for s in over]
        if math.prod(len(r) for r in rows) > ASSIGNMENTS:
            continue
        finding = None
        for combo in itertools.product(*rows):
            assignment = dict(zip(over, combo))
            ev = _Eval(flow, assignment, set_names)
            if any(ev.truth(f.expr, f.env, f.fields) is (not f.positive) for f in v.facts):
                continue
            for val in ev.value(stmt.amount, v.env, v.fields):
                if _negative(val):
                    finding = (val, assignment)
                    break
            if finding:
                break
        if finding is None:
            continue
        reported.add(id(stmt))
        val, assignment = finding
        amount = p.text_at(stmt.amount.span)
        shown = _money(val.hi) if val.lo == val.hi else (f"at most {_money(val.hi)}" if val.hi < 0 else
                                                        "at best $0, and below it whenever it is not $0")
        where = ""
        if assignment:
            where = " for " + ", ".join(f"`{row}`" for row in assignment.values())
        labels = []
        span, path = stmt.amount.span, stmt.span.file or p.path
        if val.src is not None:
            src_span, what = val.src
            src_path = src_span.file or p.path
            if path != p.path and src_path == p.path:  # a variant's value makes its base's payment negative
                labels.append(Label(stmt.span, f"the payment `{amount}` is here", path))
                span, path = src_span, src_path
                message = f"{what} is negative, and a payment uses it: `pay {amount}` is {shown}{where}"
            else:
                if src_span != stmt.amount.span:
                    labels.append(Label(src_span, f"{what} is declared negative here", src_path))
                message = f"this pays `{amount}`, which is {shown}{where}: a payment cannot be negative"
        else:
            message = f"this pays `{amount}`, which is {shown}{where}: a payment cannot be negative"
        yield codes.NEGATIVE_PAYMENT.diagnostic(
            message, path, span, labels=tuple(labels),
            help="write the amount as a positive number and swap `from` and `to` if the money goes the other way")
