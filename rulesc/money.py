"""Where a game's money comes from and goes: the payments of a rules file, and their picture.

`payments(program)` lists every way money moves: each `pay` statement of every rule (found with
the one AST walk, `dsl/walk.py`, so a new statement that holds a `pay` is searched the day it is
declared) and a trade with cash. Each names its source and target *account*: the Bank, players'
cash, an `account` field of the players (a deposit) or of the game (a pot), or the player a
thing's field names (the owner of a thing). `build_money_diagram` draws the accounts as nodes
and the payments as edges, one line of an edge's label per payment rule (its amount as written,
the rule and its file:line), so that every source and sink of money shows.

No game's names appear here: accounts are named by what the file declares.
"""

from __future__ import annotations

from pathlib import Path

import attrs
import graphviz

from rulesc.dsl import ast, walk
from rulesc.dsl.model import Program, declared_handlers

from .diagram import FONT, _esc, _shorten, _Text

__all__ = ["Account", "Payment", "build_money_diagram", "payments"]

AMOUNT_WIDTH = 44  # an amount's text is shortened to about this many characters in a label


@attrs.frozen
class Account:
    """A place money is held: `key` is stable (a DOT id), `title` says it in words."""

    key: str
    title: str
    note: str = ""


@attrs.frozen
class Payment:
    """One way money moves: a `pay` statement (or a trade with cash) of a rule."""

    source: Account
    target: Account
    amount: str  # as written in the file
    rule: str  # the rule that holds it, in words: `on land Square`, `card “A gift”`
    file: str  # the file's name (a variant's base for inherited rules)
    line: int
    cite: str | None  # the payment's own citation, else its rule's


BANK = Account("bank", "the Bank")
PLAYERS = Account("players", "players' cash")
OTHER_PLAYER = Account("another_player", "another player's cash", "money from one player to another")
CREDITOR = Account("creditor", "the creditor", "the Bank or a player, whoever is owed")


class _Accounts:
    """Names the account an expression of a `pay` stands for."""

    def __init__(self, program: Program, types: dict | None):
        self.p = program
        self.types = types or {}

    def of(self, expr) -> Account:
        p = self.p
        if isinstance(expr, ast.Name):
            if expr.id == "bank":
                return BANK
            if expr.id == "creditor":
                return CREDITOR
            field = p.global_fields.get(expr.id)
            if field is not None and field.type.name == "account":
                return Account(f"game_{expr.id}", f"the game's {expr.id}", "an account of the game (a pot)")
        if isinstance(expr, ast.Attr):
            field = p.player_fields.get(expr.name)
            if field is not None and field.type.name == "account":
                return Account(f"player_{expr.name}", f"players' {expr.name}", "an account of each player")
            kind = self.kind_holding(expr)
            if kind is not None:
                return Account(f"{kind}_{expr.name}", f"a {kind}'s {expr.name}", f"a player's cash: the {expr.name} of the {kind}")
        return PLAYERS

    def kind_holding(self, expr: ast.Attr) -> str | None:
        """The kind whose player field `expr` reads (`p.owner` of a thing), if it is one."""
        t = self.types.get(id(expr.obj))
        name = t.name if t is not None else None
        if name in self.p.groups:
            name = self.p.groups[name].kind
        if name in self.p.kinds:
            return name if self.player_field(name, expr.name) else None
        # No types (a program that was only built): the one kind with such a field, if only one.
        holders = [k for k in self.p.kinds if self.player_field(k, expr.name)]
        return holders[0] if len(holders) == 1 else None

    def player_field(self, kind: str, field: str) -> bool:
        found = [f for f in self.p.kinds[kind].fields if f.name == field]
        return bool(found) and found[0].type.name == "player"


def _rules(p: Program):
    """Every rule that can pay: (its name in words, its body or declaration, its citation)."""
    if p.setup is not None:
        yield "setup", p.setup.body, p.setup.body.meta.cite
    for hook in p.hooks:
        yield f"{hook.which} turn", hook.body, hook.body.meta.cite
    for phase in (p.turn.phases if p.turn is not None else ()):
        yield f"phase {phase.name}", phase.body, phase.body.meta.cite
    for status in p.statuses.values():  # a status's own turn
        for phase in status.phases:
            yield f"phase {phase.name} ({status.title or status.name})", phase.body, phase.body.meta.cite
    for h in declared_handlers(p):
        head = f"on {h.event}" + (f" {h.header_target}" if h.target else "") + (f" ({h.name.replace('_', ' ')})" if h.name else "")
        yield head, h.body, h.body.meta.cite
    for action in p.actions.values():
        yield f"action {action.name}", action.body, action.body.meta.cite
    for deck in p.decks.values():
        for card in deck.cards:
            yield f"card “{card.title or card.name}”", card.body, card.body.meta.cite or deck.meta.cite
    for proc in p.procedures.values():
        yield f"procedure {proc.name}", proc.body, proc.body.meta.cite


def _program_and_types(obj) -> tuple[Program, dict]:
    if isinstance(obj, Program):
        return obj, {}
    program = getattr(obj, "program", None)
    if isinstance(program, Program):
        return program, getattr(obj, "types", {}) or {}
    raise TypeError(f"needs a Program or the checker's result, not {type(obj).__name__}")


def payments(checked) -> list[Payment]:
    """Every payment of a program (or of the checker's result, whose types name accounts more
    exactly), in the order of the rules."""
    p, types = _program_and_types(checked)
    accounts = _Accounts(p, types)
    text = _Text(p.source or "", p.sources)
    found = []
    for rule, body, cite in _rules(p):
        for node in walk.walk(body):
            if isinstance(node, ast.Split):  # each share goes to a player of those it is split among
                source = accounts.of(node.source)
                found.append(Payment(source, OTHER_PLAYER if source == PLAYERS else PLAYERS,
                                     f"({text.of(node.amount)}) split", rule, Path(node.span.file or p.path).name,
                                     node.span.line, node.meta.cite or cite))
            elif isinstance(node, ast.Pay):
                source, target = accounts.of(node.source), accounts.of(node.target)
                if source == target == PLAYERS:  # from one player to another: drawn as two nodes, not a loop
                    target = OTHER_PLAYER
                found.append(Payment(source, target, text.of(node.amount), rule, Path(node.span.file or p.path).name, node.span.line,
                                     node.meta.cite or cite))
    if p.trade is not None and p.trade.with_cash:
        found.append(Payment(PLAYERS, OTHER_PLAYER, "the cash agreed", "a trade", Path(p.trade.span.file or p.path).name,
                             p.trade.span.line, p.trade.meta.cite))
    return found


# ---- the picture ----------------------------------------------------------------------------------

COLOURS = {  # (fill, border) by account
    "bank": ("#d6eaf8", "#2e86c1"),
    "players": ("#d5f5e3", "#229954"),
    "other": ("#fdebd0", "#ca6f1e"),
}


def _account_label(account: Account, p: Program) -> str:
    lines = [f"<B>{_esc(account.title)}</B>"]
    if account is BANK and p.bank is not None:
        lines.append("never runs out" if p.bank.unlimited else f"starts with {_esc(p.text_at(p.bank.amount.span))}")
    elif account is PLAYERS:
        cash = p.player_fields.get("cash")
        if cash is not None and cash.default is not None:
            lines.append(f"each starts with {_esc(p.text_at(cash.default.span))}")
    elif account.note:
        lines.append(_esc(account.note))
    return "<" + "<BR/>".join(lines[:1] + [f'<FONT POINT-SIZE="9">{t}</FONT>' for t in lines[1:]]) + ">"


# A text's width, in points, as wide as a viewer's fonts may draw it: graphviz measures with its own
# tables of Helvetica and Courier, narrower than the fonts a browser or cairo falls back to, so a
# table sized by graphviz alone lets a long amount run into the rule beside it. Each column is
# given this width (`WIDTH`), with a gap, so that the texts of a row never meet.
EM = {"mono": 0.62, "sans": 0.58}  # average advance of a character, in ems, with a margin
GAP = 6  # points between two columns


def text_width(text: str, size: float, mono: bool = False) -> int:
    return int(len(text) * size * EM["mono" if mono else "sans"] + 0.999)


def _edge_label(group: list[Payment]) -> str:
    """A table: a row for each payment rule, its amount as written, the rule, and where it is; each
    column as wide as its widest text may be drawn (`text_width`) and a gap, so that no texts overlap."""
    cells = [(_shorten(pay.amount, AMOUNT_WIDTH), pay.rule, f"{pay.file}:{pay.line}") for pay in group]
    widths = [max(text_width(row[0], 9, mono=True) for row in cells) + GAP,
              max(text_width(row[1], 9) for row in cells) + GAP, max(text_width(row[2], 8) for row in cells)]
    rows = []
    for amount, rule, where in cells:
        rows.append(f'<TR><TD ALIGN="LEFT" WIDTH="{widths[0]}"><FONT FACE="Courier" POINT-SIZE="9">{_esc(amount)}'
                    f'</FONT></TD><TD ALIGN="LEFT" WIDTH="{widths[1]}"><FONT POINT-SIZE="9">{_esc(rule)}</FONT></TD>'
                    f'<TD ALIGN="LEFT" WIDTH="{widths[2]}"><FONT POINT-SIZE="8" COLOR="#5d6d7e">{_esc(where)}</FONT>'
                    f'</TD></TR>')
    return '<<TABLE BORDER="0" CELLBORDER="0" CELLSPACING="0" CELLPADDING="1" BGCOLOR="#ffffffcc">' + "".join(rows) + "</TABLE>>"


def build_money_diagram(checked) -> graphviz.Digraph:
    """The money flow: accounts as nodes, an edge for each pair of accounts money moves between,
    labelled with each payment rule (deterministic: same rules, same DOT)."""
    p, _types = _program_and_types(checked)
    found = payments(checked)
    title = p.game.title if p.game is not None else "rules"
    g = graphviz.Digraph(name="money_flow", comment=f"money flow of {title}")
    g.attr(rankdir="LR", nodesep="0.5", ranksep="1.2", fontname=FONT, fontsize="16", labelloc="t",
           label=f"<<B>{_esc(title)}</B><BR/>money flow: {len(found)} payment rules>")  # two lines: two fonts never meet
    g.attr("node", shape="box", style="rounded,filled", fontname=FONT, fontsize="12", margin="0.2,0.1")
    g.attr("edge", fontname=FONT, fontsize="9", arrowsize="0.8")
    accounts: dict[str, Account] = {}
    for pay in found:
        accounts.setdefault(pay.source.key, pay.source)
        accounts.setdefault(pay.target.key, pay.target)
    accounts.setdefault(BANK.key, BANK)
    accounts.setdefault(PLAYERS.key, PLAYERS)
    for key in sorted(accounts, key=lambda k: (k != "bank", k != "players", k)):
        account = accounts[key]
        fill, border = COLOURS.get(key, COLOURS["other"])
        shape = "cylinder" if key == "bank" else "box"
        g.node(key, _account_label(account, p), fillcolor=fill, color=border, shape=shape)
    groups: dict[tuple[str, str], list[Payment]] = {}
    for pay in found:
        groups.setdefault((pay.source.key, pay.target.key), []).append(pay)
    for (src, dst), group in groups.items():
        colour = COLOURS.get(src, COLOURS["other"])[1]
        g.edge(src, dst, label=_edge_label(group), color=colour, fontcolor="#1c2833",
               penwidth=str(min(1 + len(group) / 4, 4)))
    if not found:
        g.node("none", "<<I>no rule moves money</I>>", shape="plaintext")
    return g
