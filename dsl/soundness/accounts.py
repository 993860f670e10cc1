"""Money flow through accounts: where each `pay` takes money from and puts it.

Why: an account field (`pot: account`, `deposit: account`) holds money apart from cash. Money paid into
one that no rule ever pays out of is gone from the game for good (the fines pot nobody collects); one paid
out of that no rule pays into is always empty, so its payouts pay nothing. A payout sized by an account's
`balance` but paid by someone else (`pay pot.balance from bank to player`) hands out the account's worth
while the account keeps it, so the same money can be won again and again. A payment from an account to
itself moves nothing. The checker's types say each of these is well formed; only following the money says
it is not a game.

Accounts are told apart by meaning, not spelling: `let`s and procedure parameters are followed to the
account they stand for (flow.py). A payment from or to an account the walk cannot name (`creditor`, a
computed account) could be any: it silences the findings it might contradict.
"""

from __future__ import annotations

from typing import Iterable

from .. import ast, codes
from ..builtins import ACCOUNT_BALANCE
from ..diagnostics import Diagnostic, Label
from ..variants import header_of
from ..walk import walk
from .flow import Flow, Visit, flow_of


def account_key(flow: Flow, sym, expr=None):
    """Which account a payer or payee is: ("bank",), ("global", g), ("player-account", f), ("cash",) for
    a player's cash; None for an account the walk cannot name."""
    if sym == ("bank",):
        return ("bank",)
    if sym[0] == "global" and sym[1] in flow.account_globals:
        return ("global", sym[1])
    if sym[0] == "field" and sym[2] in flow.account_player_fields:
        return ("player-account", sym[2])
    t = flow.type_of(expr) if expr is not None else None
    if t is not None and t.name == "player":
        return ("cash",)
    return None


def _declaration(flow: Flow, key):
    if key[0] == "global":
        return flow.p.global_fields[key[1]]
    if key[0] == "player-account":
        return flow.p.player_fields[key[1]]
    return None


def _shown(key) -> str:
    return {"global": lambda: key[1], "player-account": lambda: f"player.{key[1]}"}.get(key[0], lambda: "bank")()


def _balance_accounts(flow: Flow, expr, env, fields, depth=0) -> list:
    """The accounts whose whole balance an amount is: `a.balance`, and such a term of `+`, `min`, `max`
    or a branch of `if … then … else`, through `let`s."""
    if isinstance(expr, ast.Attr) and expr.name == ACCOUNT_BALANCE:
        return [(flow.resolve(expr.obj, env, fields), flow.p.text_at(expr.obj.span))]
    if isinstance(expr, ast.Name) and depth < 8:
        sym = flow.resolve(expr, env, fields)
        if sym[0] == "field" and sym[2] == ACCOUNT_BALANCE:  # `let prize = pot.balance`
            return [(sym[1], _sym_text(sym[1]))]
        if sym in flow.lets:
            let_expr, let_env, let_fields = flow.lets[sym]
            return _balance_accounts(flow, let_expr, let_env, let_fields, depth + 1)
        return []
    if isinstance(expr, ast.BinOp) and expr.op == "+":
        return (_balance_accounts(flow, expr.left, env, fields, depth + 1)
                + _balance_accounts(flow, expr.right, env, fields, depth + 1))
    if isinstance(expr, ast.Call) and expr.func in ("min", "max"):
        return [found for arg in expr.args for found in _balance_accounts(flow, arg, env, fields, depth + 1)]
    if isinstance(expr, ast.Conditional):
        return (_balance_accounts(flow, expr.then, env, fields, depth + 1)
                + _balance_accounts(flow, expr.orelse, env, fields, depth + 1))
    return []


def _sym_text(sym) -> str:
    if sym[0] in ("global", "param", "thing", "builtin"):
        return sym[1]
    if sym == ("player",):
        return "player"
    if sym[0] == "field":
        return f"{_sym_text(sym[1])}.{sym[2]}"
    if sym[0] == "var":
        return sym[2]
    return "the account"


def _scored(flow: Flow) -> set:
    """The accounts whose balance an end of the game reads (directly or through `define`s): money kept there
    still counts, as a score, and is not lost."""
    found: set = set()
    pending = [n for end in flow.p.ends for n in (end.condition, end.winner)]
    seen: set = set()
    while pending:
        for node in walk(pending.pop()):
            if isinstance(node, ast.Attr) and node.name == ACCOUNT_BALANCE:
                key = account_key(flow, flow.resolve(node.obj, {}, {}))
                if key is not None:
                    found.add(key)
            elif isinstance(node, ast.Call) and node.func in flow.p.defines and node.func not in seen:
                seen.add(node.func)
                pending.append(flow.p.defines[node.func].value)
    return found


def _names_account(expr, key) -> bool:
    """Does a payer or payee, as written, name the account (`pot`, `player.deposit`)?"""
    if key[0] == "global":
        return isinstance(expr, ast.Name) and expr.id == key[1]
    return isinstance(expr, ast.Attr) and expr.name == key[1]


def _replaced(base_decls: list, v) -> list:
    """The base's declarations a variant's `remove …`/`replace …` takes away."""
    kind, _, target = v.what.partition(" ")[2], None, v.target
    if kind == "handler":
        by_name = " " not in target
        return [d for d in base_decls if isinstance(d, (ast.Handler, ast.Hook))
                and (d.name == target if by_name else header_of(d) == target)]
    if kind == "action":
        return [d for d in base_decls if isinstance(d, ast.ActionDecl) and d.name == target]
    if kind == "phase":
        return [ph for d in base_decls if isinstance(d, (ast.Turn, ast.Status)) for ph in d.phases if ph.name == target]
    if kind == "card":
        deck, _, card = target.partition(".")
        return [c for d in base_decls if isinstance(d, ast.Deck) and d.name == deck for c in d.cards if c.name == card]
    if kind == "deck":
        return [d for d in base_decls if isinstance(d, ast.Deck) and d.name == target]
    return []


def _variant_culprit(flow: Flow, key, side: str):
    """In a variant, the `remove …`/`replace …` of the checked file that took away the base's rule paying
    out of (`side` "source") or into ("target") the account, and that payment; None if there is none."""
    p = flow.p
    if len(p.sources) < 2 or p.path not in p.sources:  # not a variant
        return None
    from ..diagnostics import RulesError
    from ..parser import parse_text
    try:
        variations = [d for d in parse_text(p.sources[p.path], p.path).decls
                      if isinstance(d, ast.Variation) and d.what.split()[0] in ("remove", "replace")]
        if not variations:
            return None
        base_decls = [d.node if isinstance(d, ast.Variation) else d  # a base's own `replace …` is its rule
                      for path, text in p.sources.items() if path != p.path
                      for d in parse_text(text, path).decls]
    except RulesError:
        return None
    for v in variations:
        for old in _replaced(base_decls, v):
            for stmt in walk(old):
                if isinstance(stmt, ast.Pay) and _names_account(getattr(stmt, side), key):
                    return v, stmt
    return None


def _path(flow: Flow, stmt) -> str:
    return stmt.span.file or flow.p.path


def analyse(checked) -> Iterable[Diagnostic]:
    flow = flow_of(checked)
    p = flow.p
    # each payment's visit, with its statement (a Pay: `v.stmt` alone is any statement to the type check)
    pays: list[tuple[Visit, ast.Pay]] = [(v, v.stmt) for v in flow.visits if isinstance(v.stmt, ast.Pay)]
    ins: dict = {}
    outs: dict = {}
    unknown_in = unknown_out = False
    outs_by_root: dict = {}
    for v, stmt in pays:
        src = flow.resolve(stmt.source, v.env, v.fields)
        dst = flow.resolve(stmt.target, v.env, v.fields)
        src_key = account_key(flow, src, stmt.source)
        dst_key = account_key(flow, dst, stmt.target)
        if src_key is None and src != ("builtin", "creditor"):
            unknown_out = True
        if dst_key is None and dst != ("builtin", "creditor"):
            unknown_in = True
        if src_key is not None:
            outs.setdefault(src_key, []).append(v)
            outs_by_root.setdefault(id(v.root), set()).add(src_key)
        if dst_key is not None:
            ins.setdefault(dst_key, []).append(v)

    reported: set = set()
    # A payment from an account to itself.
    for v, stmt in pays:
        if id(stmt) in reported:
            continue
        src = flow.resolve(stmt.source, v.env, v.fields)
        dst = flow.resolve(stmt.target, v.env, v.fields)
        if src[0] == "opaque" or not flow.same(src, dst, v.eq):
            continue
        reported.add(id(stmt))
        who = p.text_at(stmt.source.span)
        proved = "" if src == dst else f" (here `{who}` and `{p.text_at(stmt.target.span)}` are one)"
        yield codes.PAYMENT_TO_ITSELF.diagnostic(
            f"this payment is from `{who}` to the same account{proved}: no money moves",
            _path(flow, stmt), stmt.span,
            help="pay from the account that gives the money to the one that gets it")

    # A payout of an account's balance that another account pays.
    for v, stmt in pays:
        if id(stmt) in reported:
            continue
        src = flow.resolve(stmt.source, v.env, v.fields)
        dst = flow.resolve(stmt.target, v.env, v.fields)
        src_key = account_key(flow, src, stmt.source)
        dst_key = account_key(flow, dst, stmt.target)
        for base, account in _balance_accounts(flow, stmt.amount, v.env, v.fields):
            key = account_key(flow, base)
            if key is None or key in (("bank",), ("cash",)) or src_key is None:
                continue
            if src_key == key or dst_key == key or key in outs_by_root.get(id(v.root), ()):
                continue
            reported.add(id(stmt))
            payer = p.text_at(stmt.source.span)
            decl = _declaration(flow, key)
            labels = (Label(decl.span, f"`{_shown(key)}` is declared here", decl.span.file or p.path),) if decl else ()
            yield codes.BALANCE_PAID_FROM_ELSEWHERE.diagnostic(
                f"this payment is the balance of `{account}`, but `{payer}` pays it: `{account}` keeps its money",
                _path(flow, stmt), stmt.span, labels=labels,
                help=f"pay it from the account itself: `pay {p.text_at(stmt.amount.span)} from {account} to "
                     f"{p.text_at(stmt.target.span)}`")
            break

    # Accounts paid into and never out of (unless the game's end counts them), or out of and never into.
    scored = _scored(flow)
    for key in sorted({*ins, *outs}):
        if key[0] not in ("global", "player-account"):
            continue
        decl = _declaration(flow, key)
        label = Label(decl.span, f"`{_shown(key)}` is declared here", decl.span.file or p.path)
        if key in ins and key not in outs and not unknown_out and key not in scored:
            culprit = _variant_culprit(flow, key, "source")
            if culprit is not None:
                v, taken = culprit
                yield codes.ACCOUNT_NEVER_PAID_OUT.diagnostic(
                    f"`{v.what.split()[0]} {v.target}` takes away a rule that paid out of `{_shown(key)}`, and no rule "
                    f"left does: the money paid into it leaves the game",
                    p.path, v.span, labels=(Label(taken.span, f"the base paid out of `{_shown(key)}` here",
                                                  taken.span.file or p.path), label),
                    help=f"keep a rule that pays it out (`pay {_shown(key)}.balance from {_shown(key)} to player`)")
                continue
            first = _first_in_file(p, ins[key])
            yield codes.ACCOUNT_NEVER_PAID_OUT.diagnostic(
                f"money is paid into `{_shown(key)}` here, but no rule pays out of it: the money leaves the game",
                _path(flow, first.stmt), first.stmt.span, labels=(label,),
                help=f"add a rule that pays it out (`pay {_shown(key)}.balance from {_shown(key)} to player`), "
                     f"or pay this money to another account")
        elif key in outs and key not in ins and not unknown_in:
            culprit = _variant_culprit(flow, key, "target")
            if culprit is not None:
                v, taken = culprit
                yield codes.ACCOUNT_NEVER_PAID_INTO.diagnostic(
                    f"`{v.what.split()[0]} {v.target}` takes away a rule that paid into `{_shown(key)}`, and no rule "
                    f"left does: it is always empty, and the rules that pay out of it pay nothing",
                    p.path, v.span, labels=(Label(taken.span, f"the base paid into `{_shown(key)}` here",
                                                  taken.span.file or p.path), label),
                    help=f"keep a rule that pays into it (`pay … from player to {_shown(key)}`)")
                continue
            first = _first_in_file(p, outs[key])
            yield codes.ACCOUNT_NEVER_PAID_INTO.diagnostic(
                f"this pays out of `{_shown(key)}`, but no rule pays into it: it is always empty",
                _path(flow, first.stmt), first.stmt.span, labels=(label,),
                help=f"add the rule that pays into it (`pay … from player to {_shown(key)}`), or pay this from "
                     f"another account")


def _first_in_file(p, visits):
    """The first of some statements in the checked file itself (a variant's line), else the first."""
    mine = [v for v in visits if (v.stmt.span.file or p.path) == p.path]
    chosen = mine or visits
    return min(chosen, key=lambda v: (v.stmt.span.file or "", v.stmt.span.line, v.stmt.span.column))
