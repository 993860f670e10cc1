"""Money changed by `set`: cash that no payment moved.

Why: money in a game moves from one account to another (`pay`), so the total is conserved and every
change has a payer and a payee that the event log, the money diagram and the invariants see. A rule
that writes `set player.cash = player.cash + $50` makes $50 from nothing (or, with `-`, destroys it):
it checks, plays, and breaks conservation only where a game happens to run it.

A `set` in a rule (a phase, handler, hook, action, procedure or card; not the setup, which deals out
the starting money, nor a scenario, which sets a position up) of a player's or a global field of type
money is reported, unless the field's declaration says such a field is meant to change by `set`: the
`allow money-set-without-payment` of its declaration (a figure kept beside the money, such as a record
of what was deposited elsewhere) covers every `set` of it.
"""

from __future__ import annotations

from typing import Iterable

from .. import ast, codes, walk
from ..diagnostics import Diagnostic
from ._common import label, where

_CODE = codes.MONEY_SET_WITHOUT_PAYMENT


def _money_fields(fields: dict) -> dict:
    """The fields of type money (not a list), except those whose declaration allows a `set` of them."""
    allowed = {_CODE.code, _CODE.name}
    return {name: f for name, f in fields.items()
            if f.type.name == "money" and not f.type.is_list and not allowed & set(f.meta.allow)}


def analyse(checked) -> Iterable[Diagnostic]:
    p = checked.program
    players, globals_ = _money_fields(p.player_fields), _money_fields(p.global_fields)
    if not players and not globals_:
        return []
    roots = (*p.handlers, *p.hooks, *p.actions.values(), *p.procedures.values(), *p.decks.values(),
             *([p.turn] if p.turn else []), *p.statuses.values())
    found = []
    for node in walk.walk(roots):
        if not isinstance(node, ast.Set):
            continue
        target = node.target
        field = None
        if isinstance(target, ast.Attr) and target.name in players:
            owner = checked.types.get(id(target.obj))
            if owner is not None and owner.name == "player":
                field = players[target.name]
        elif isinstance(target, ast.Name) and target.id in globals_:
            field = globals_[target.id]
        if field is None:
            continue
        written = p.text_at(target.span) if hasattr(target, "span") else field.name
        found.append(_CODE.diagnostic(
            f"`set {written}` changes money with no payment: the amount is made from nothing or lost",
            where(p, node.span), node.span,
            labels=(label(p, field.span, f"`{field.name}` is declared as money here"),),
            help=f"move it with a payment (`pay AMOUNT from bank to {_payee(target)}`, or from it to the bank); "
                 f"if `{field.name}` only records money held elsewhere, say so on its declaration: "
                 f"`allow {_CODE.name}`"))
    return found


def _payee(target) -> str:
    return target.obj.id if isinstance(target, ast.Attr) and isinstance(target.obj, ast.Name) else "player"
