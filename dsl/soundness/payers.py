"""Who pays for a thing: the player who gets a thing should be the one who pays its price.

Why: in an auction's won block the lot goes to `sale.winner`, and the price is `sale.price`; written
`pay sale.price from player to bank`, the player who started the auction pays for what the winner gets.
The same slip in a sale to a chosen player (`choose "buyer" … for q …: pay p.cost from player to q; set
p.owner = q`) makes the seller pay the buyer. Both check and play without a fault, and money is conserved;
only the wrong player is poorer.

On each path of a rule (flow.py), a thing given to a player (`set T.owner = R`, `give card T … to R`) is
compared with the payments of its price on the same path: an amount that reads T (`p.cost`, `value(p)`),
or the `sale.price` of an auction of T. If some player pays the price and R pays none of it, the payment
is reported. "The same player" is decided by what the names stand for — `let`s, procedure parameters and
the equalities the path's conditions prove (`if sale.winner == player:`) — not by their spelling. A
commission another player pays beside the receiver's own payment is not a finding.
"""

from __future__ import annotations

from typing import Iterable

from .. import ast, codes
from ..builtins import SALE_FIELDS
from ..diagnostics import Diagnostic, Label
from .flow import OWNER, Flow, flow_of

_PRICE = next(name for name in SALE_FIELDS if name == "price")


def _gives(flow: Flow, events) -> list:
    """(thing Sym, receiver Sym, visit) for each thing handed to a player on a path."""
    found = []
    for v in events:
        stmt = v.stmt
        if isinstance(stmt, ast.Set) and isinstance(stmt.target, ast.Attr) and stmt.target.name == OWNER:
            if not flow.has_owner(flow.kind_of_type(stmt.target.obj)):
                continue
            receiver = flow.resolve(stmt.value, v.env, v.fields)
            t = flow.type_of(stmt.value)
            if receiver == ("none",) or t is None or t.name != "player":
                continue
            found.append((flow.resolve(stmt.target.obj, v.env, v.fields), receiver, v))
        elif isinstance(stmt, ast.DiscardHeld) and stmt.to is not None:
            found.append((flow.resolve(stmt.card, v.env, v.fields), flow.resolve(stmt.to, v.env, v.fields), v))
    return found


def analyse(checked) -> Iterable[Diagnostic]:
    flow = flow_of(checked)
    p = flow.p
    reported: set = set()
    for path in flow.paths:
        if path.lossy:
            continue
        events = path.events
        gives = _gives(flow, events)
        if not gives:
            continue
        lots = {}  # Sym of an auction's sale -> Sym of its lot
        for v in events:
            if isinstance(v.stmt, ast.Auction):
                lots[("var", id(v.stmt), v.stmt.var)] = flow.resolve(v.stmt.thing, v.env, v.fields)
        pays = [v for v in events if isinstance(v.stmt, ast.Pay)]
        for thing, receiver, given in gives:
            if thing[0] == "opaque":
                continue
            price_pays = []
            for v in pays:
                mentioned = flow.syms_in(v.stmt.amount, v.env, v.fields)
                prices = thing in mentioned or any(
                    s[0] == "field" and s[2] == _PRICE and lots.get(s[1]) == thing for s in mentioned)
                if not prices:
                    continue
                payer_type = flow.type_of(v.stmt.source)
                if payer_type is None or payer_type.name != "player":
                    continue
                price_pays.append(v)
            if not price_pays:
                continue
            def pays_himself(v):
                payer = flow.resolve(v.stmt.source, v.env, v.fields)
                return flow.same(payer, receiver, v.eq + given.eq)
            if any(pays_himself(v) for v in price_pays):
                continue
            wrong = price_pays[0]
            if id(wrong.stmt) in reported:
                continue
            reported.add(id(wrong.stmt))
            payer = p.text_at(wrong.stmt.source.span)
            who = p.text_at(given.stmt.value.span if isinstance(given.stmt, ast.Set) else given.stmt.to.span)
            thing_node = (given.stmt.target.obj if isinstance(given.stmt, ast.Set) and isinstance(given.stmt.target, ast.Attr)
                          else given.stmt.card)  # `_gives` takes only a `set … .owner`, whose target is an Attr
            thing_text = p.text_at(thing_node.span)
            yield codes.PRICE_PAID_BY_ANOTHER_PLAYER.diagnostic(
                f"`{payer}` pays the price of `{thing_text}`, but `{who}` gets it and pays nothing",
                wrong.stmt.span.file or p.path, wrong.stmt.span,
                labels=(Label(given.stmt.span, f"`{thing_text}` goes to `{who}` here", given.stmt.span.file or p.path),),
                help=f"the player who gets the thing pays for it: `from {who}`")
