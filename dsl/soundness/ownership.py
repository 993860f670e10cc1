"""Ownership tests on transfers: a thing a player picks from all things of its kind, then takes, gives up or
is paid for, must be tested for who owns it.

Why: `action sell(p: Lot) any time: pay p.value from bank to player; set p.owner = none` checks and plays;
its `when` forgot `p.owner == player`, so any player may sell any lot, his opponents' too, and be paid for
it. A `choose … for p in Lot` in a card or a handler is the same slip. Nothing breaks while the game
runs: money is conserved and each thing keeps one owner. Only the rule's meaning is wrong.

A thing is "chosen" when an action's parameter or a `choose … by A for p in K` ranges over a whole kind
K that has an `owner`. The conditions that hold where the transfer happens (the action's `when`, the
choice's `where`, options' `when`s, enclosing `if`s and `elif`/`else` branches, with `define`s expanded)
are evaluated for each case of `p.owner`: no one, the actor A, another player. By the transfer:

- `set p.owner = A` (the actor takes it) or `set p.owner = …` (he gives it up or away): some condition
  must read `p.owner` — a purchase tests `== none`, a seizure `!= player`, a claim `== none or p.debt_ridden`;
- a payment to A from the bank or an account whose amount reads p (sold or mortgaged to the bank): the
  tests must rule out that another player owns p.

Whether a condition rules a case out is decided on its meaning: `p.owner == player`, `player == p.owner`,
`not (p.owner != player)`, `owns(player, p)` with `define owns(q: player, x: Lot) = x.owner == q`, or a
`let me = player` compared, all count.
"""

from __future__ import annotations

from typing import Iterable

from .. import ast, codes
from ..diagnostics import Diagnostic, Label
from ..walk import walk
from .flow import OWNER, Flow, Sym, flow_of

CASES = ("none", "actor", "other")


def _owner_is(case: str, value: str):
    """Is an owner in `case` equal to a value known as "none", "actor" or "player" (some player)?"""
    if value == "none":
        return case == "none"
    if value == "actor":
        return True if case == "actor" else False
    # some player, maybe the actor, maybe another
    if case == "none":
        return False
    return None


def truth(flow: Flow, expr, env, fields, thing, case, actor, eq, depth=0):
    """The truth of a condition when `thing`'s owner is in `case` (True, False, or None: unknown)."""
    if depth > 12:
        return None
    if isinstance(expr, ast.BoolOp):
        values = [truth(flow, o, env, fields, thing, case, actor, eq, depth + 1) for o in expr.operands]
        if expr.op == "and":
            return False if False in values else (True if all(v is True for v in values) else None)
        return True if True in values else (False if all(v is False for v in values) else None)
    if isinstance(expr, ast.Not):
        value = truth(flow, expr.operand, env, fields, thing, case, actor, eq, depth + 1)
        return None if value is None else not value
    if isinstance(expr, ast.Compare) and expr.op in ("==", "!="):
        owner = ("field", thing, OWNER)
        left = flow.resolve(expr.left, env, fields)
        right = flow.resolve(expr.right, env, fields)
        if left == owner:
            other, other_expr = right, expr.right
        elif right == owner:
            other, other_expr = left, expr.left
        else:
            return None
        if other == ("none",):
            value = "none"
        elif flow.same(other, actor, eq):
            value = "actor"
        else:
            t = flow.type_of(other_expr)
            if t is None or t.name != "player" or t.optional:
                return None
            value = "player"
        result = _owner_is(case, value)
        if result is None:
            return None
        return result if expr.op == "==" else not result
    if isinstance(expr, ast.Call) and expr.func in flow.p.defines:
        define = flow.p.defines[expr.func]
        inner = {name: flow.resolve(arg, env, fields) for (name, _t), arg in zip(define.params, expr.args)}
        return truth(flow, define.value, inner, fields, thing, case, actor, eq, depth + 1)
    if isinstance(expr, ast.Aggregate) and expr.func == "any":
        # `any(q in Lot where q.owner == player: q == p)`: if q must be the thing, the rest is said of it
        bound = ("var", id(expr), expr.var)
        inner = {**env, expr.var: bound}
        parts = [part for part in (expr.where, expr.body) if part is not None]
        if any(_is_member(flow, c, inner, fields, bound, thing) for part in parts for c in _conjuncts(part)):
            values = [truth(flow, part, {**env, expr.var: thing}, fields, thing, case, actor, eq, depth + 1)
                      for part in parts]
            return False if False in values else (True if all(v is True for v in values) else None)
        return None
    if isinstance(expr, ast.Conditional):
        c = truth(flow, expr.condition, env, fields, thing, case, actor, eq, depth + 1)
        if c is True:
            return truth(flow, expr.then, env, fields, thing, case, actor, eq, depth + 1)
        if c is False:
            return truth(flow, expr.orelse, env, fields, thing, case, actor, eq, depth + 1)
    return None


def _conjuncts(expr) -> list:
    if isinstance(expr, ast.BoolOp) and expr.op == "and":
        return [c for operand in expr.operands for c in _conjuncts(operand)]
    return [expr]


def _is_member(flow: Flow, expr, env, fields, bound, thing) -> bool:
    """Is `expr` the test `q == thing` (either way round) for the aggregate's variable `bound`?"""
    if not (isinstance(expr, ast.Compare) and expr.op == "=="):
        return False
    sides = {flow.resolve(expr.left, env, fields), flow.resolve(expr.right, env, fields)}
    return sides == {bound, thing}


def mentions_owner(flow: Flow, facts, thing) -> bool:
    """Does some condition that holds read the thing's owner at all (`p.owner == none or p.debt_ridden`)?"""
    owner = ("field", thing, OWNER)
    pending = [(fact.expr, fact.env, fact.fields, 0) for fact in facts]
    while pending:
        expr, env, fields, depth = pending.pop()
        for node in walk(expr):
            if isinstance(node, ast.Attr) and node.name == OWNER and flow.resolve(node, env, fields) == owner:
                return True
            if isinstance(node, ast.Call) and node.func in flow.p.defines and depth < 8:
                define = flow.p.defines[node.func]
                inner = {name: flow.resolve(arg, env, fields) for (name, _t), arg in zip(define.params, node.args)}
                pending.append((define.value, inner, {}, depth + 1))
    return False


def excluded(flow: Flow, facts, thing, case, actor, eq) -> bool:
    """Do the conditions that hold rule out that `thing`'s owner is in `case`?"""
    for fact in facts:
        value = truth(flow, fact.expr, fact.env, fact.fields, thing, case, actor, eq)
        if value is not None and value != fact.positive:
            return True
    return False


def analyse(checked) -> Iterable[Diagnostic]:
    flow = flow_of(checked)
    p = flow.p
    reported: set = set()
    for v in flow.visits:
        stmt = v.stmt
        if id(stmt) in reported:
            continue
        # the transfer's thing, its actor, the node that binds the thing, which case, and the statement itself
        found: tuple[Sym, Sym, ast.ActionDecl | ast.ChooseFor, str, ast.Set | ast.Pay] | None = None
        if isinstance(stmt, ast.Set) and isinstance(stmt.target, ast.Attr) and stmt.target.name == OWNER:
            thing = flow.resolve(stmt.target.obj, v.env, v.fields)
            if thing in flow.chosen_by and flow.has_owner(flow.kinds_of.get(thing)):
                actor, binder = flow.chosen_by[thing]
                if not (mentions_owner(flow, v.facts, thing)
                        or any(excluded(flow, v.facts, thing, case, actor, v.eq) for case in CASES)):
                    value = flow.resolve(stmt.value, v.env, v.fields)
                    takes = flow.same(value, actor, v.eq)
                    found = (thing, actor, binder, "take" if takes else "release", stmt)
        elif isinstance(stmt, ast.Pay):
            payer_type = flow.type_of(stmt.source)
            if payer_type is not None and payer_type.name != "player":
                payee = flow.resolve(stmt.target, v.env, v.fields)
                for thing in flow.syms_in(stmt.amount, v.env, v.fields):
                    if thing not in flow.chosen_by or not flow.has_owner(flow.kinds_of.get(thing)):
                        continue
                    actor, binder = flow.chosen_by[thing]
                    if flow.same(payee, actor, v.eq) and not excluded(flow, v.facts, thing, "other", actor, v.eq):
                        found = (thing, actor, binder, "paid", stmt)
                        break
        if found is None:
            continue
        reported.add(id(stmt))
        thing, actor, binder, what, transfer = found
        name = thing[2]
        actor_text = "player" if actor == ("player",) else (
            p.text_at(binder.by.span) if isinstance(binder, ast.ChooseFor) else "the player")
        kind = flow.kinds_of.get(thing)
        if isinstance(binder, ast.ActionDecl):
            where = f"action `{binder.name}`"
            fix = f"add `and {name}.owner == {actor_text}` to the action's `when`"
        else:
            where = f"the choice \"{binder.name}\""
            fix = f"add `where {name}.owner == {actor_text}` to the choice"
        message = {
            "take": f"`{actor_text}` picks `{name}` among every `{kind}` and takes it, whoever owns it: nothing "
                    f"tests `{name}.owner`",
            "release": f"`{actor_text}` picks `{name}` among every `{kind}`, and this takes it from its owner: "
                       f"nothing tests `{name}.owner`",
            "paid": f"this pays `{actor_text}` for `{name}`, which he picks among every `{kind}`, but nothing tests "
                    f"that he owns it: he is paid for his opponents' too",
        }[what]
        yield codes.TRANSFER_WITHOUT_OWNERSHIP_TEST.diagnostic(
            message,
            transfer.span.file or p.path, transfer.span,
            labels=(Label(binder.span, f"{where} lets `{actor_text}` pick any `{kind}`, his opponents' too",
                          binder.span.file or p.path),),
            help=f"{fix} (or `== none` for a thing bought from the bank)")
