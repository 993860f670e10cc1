"""Why the rules refuse an answer: the rule, and the part of it, that keeps an action, a trade, a bid
or a choice from being taken now, for a scenario's `forbid` and `refuse` to report.

The engine offers agents the legal options only and never says why one is missing: finding them
is kept fast (actiongen.py), and a reason is wanted only where a scenario shows a "may not". So
this module asks again, slowly, in the order the engine tests: the window's restriction, the
timing, the limit, then the rule's condition conjunct by conjunct, and names the first that
fails with its file:line and its text. Each function answers None where nothing refuses.
"""

from __future__ import annotations

import os
from typing import Any

from rulesc.dsl import ast

from .state import Held, Player, Thing


def _at(rules, span) -> str:
    """`file.rules:12` for a rule's span."""
    return f"{os.path.basename(span.file or rules.path)}:{span.line}"


def _quoted(rules, node) -> str:
    """A node's source text in backquotes; one written over several lines, on one."""
    span = node.span
    program = rules.program
    if span.line == span.end_line:
        return f"`{program.text_at(span)}`"
    lines = program.sources.get(span.file, program.source).splitlines()[span.line - 1:span.end_line]
    if len(lines) != span.end_line - span.line + 1:
        return f"the condition at line {span.line}"
    lines[-1] = lines[-1][:span.end_column - 1]
    lines[0] = lines[0][span.column - 1:]
    return f"`{' '.join(line.strip() for line in lines)}`"


def _money(amount: int, money: bool) -> str:
    return f"${amount:,}" if money else f"{amount:,}"


def conjuncts(node) -> list:
    """`A and B and …` as its parts, nested `and`s taken apart too (one part if it is not an `and`)."""
    if isinstance(node, ast.BoolOp) and node.op == "and":
        return [part for operand in node.operands for part in conjuncts(operand)]
    return [node]


def false_conjunct(g, node, env: dict, rule_line: int = 0) -> str | None:
    """The first conjunct of condition `node` that is false with `env`, quoted (with its line where
    it is not the rule's own)."""
    rules = g.rules
    names = frozenset(env)
    for part in conjuncts(node):
        if not rules.compiler.expr(part, names)(g, dict(env)):
            where = f" ({_at(rules, part.span)})" if part.span.line != rule_line else ""
            return f"{_quoted(rules, part)}{where} is false"
    return None


def _window_only(g, window) -> str:
    """The restriction of the window open now (`window for P only …`), opened by the rule at `window`
    (a RuleRef, or None where it is not known)."""
    where = f" ({window.text})" if window else ""
    return f"the window open now{where} allows only {', '.join(f'`{a}`' for a in sorted(g.actions.only))}"


def action_refusal(g, player: Player, name: str, argument, window=None) -> str | None:
    """Why `player` may not take action `name` on `argument` now, or None if he may (`window`: the
    RuleRef of the window open now, if known)."""
    rules = g.rules
    decl = rules.program.actions[name]
    action = rules.action_named[name]
    what = f"action `{name}` ({_at(rules, decl.span)})"
    if g.actions.only is not None and name not in g.actions.only:
        return _window_only(g, window)
    if decl.timing == "own turn" and player.seat != g.state.current:
        return f"{what} is taken in one's own turn only, and it is {g.state.players[g.state.current].name}'s"
    if action.limit is not None:
        taken = g.actions._times_taken(g, action, player)
        if taken >= action.limit:
            times = "once" if action.limit == 1 else f"{action.limit} times"
            return f"{what} is taken {times} per {action.per} at most, and {player.name} has taken it"
    if action.relation is not None and not g.actions._in_time(g, action):
        return f"{what} is taken in one's own turn {action.relation} `{decl.phase}` only"
    env: dict[str, Any] = {"player": player}
    if action.amount is not None:
        lowest, highest, stepping = action.amount
        low, high, step = lowest(g, env), highest(g, env), stepping(g, env)
        money = decl.param is not None and decl.param.kind == "money"
        if low > high:
            return f"{what} offers no amount now: from {_money(low, money)} up to {_money(high, money)}"
        if not isinstance(argument, int) or not low <= argument <= high or (argument - low) % step:
            return f"{what} takes amounts from {_money(low, money)} to {_money(high, money)} " \
                   f"in steps of {_money(step, money)} now"
    if action.var is not None:
        if action.amount is None and action.kind is not None and getattr(argument, "kind", None) != action.kind:
            return f"{what} is taken on a `{action.kind}`"
        env[action.var] = argument
    if decl.when is not None:
        failed = false_conjunct(g, decl.when, env, decl.span.line)
        if failed is not None:
            return f"{what}: its condition {failed}"
    return None


def trade_refusal(g, offer, window=None) -> str | None:
    """Why the rules do not allow trade `offer` now, or None if they do (`Market.trade_is_legal`'s
    tests, in its order; `window` as for `action_refusal`)."""
    rules = g.rules
    decl = rules.program.trade
    if decl is None:
        return "the rules declare no `trade`"
    what = f"`trade` ({_at(rules, decl.span)})"
    proposer, partner = offer.proposer, offer.partner
    if partner is proposer:
        return "a player does not trade with himself"
    for p in (proposer, partner):
        if p.out:
            return f"{p.name} is out of the game"
    if g.actions.only is not None:
        return _window_only(g, window) + ", and no trade"
    if not (offer.gives or offer.cash > 0) or not (offer.takes or offer.cash < 0):
        return "a trade has two sides: nothing is given for nothing"
    if offer.cash and not rules.trade_cash:
        return f"{what} is without cash"
    payer, amount = (proposer, offer.cash) if offer.cash >= 0 else (partner, -offer.cash)
    if payer.f_cash < amount:
        return f"{payer.name} has {payer.f_cash:,} in cash, not the {amount:,} he would pay"
    for side, owner in ((offer.gives, proposer), (offer.takes, partner)):
        for thing in side:
            if isinstance(thing, Held):
                card = g.decks.cards[thing.deck][thing.card]
                if not rules.trade_cards:
                    return f"{what} does not list `cards`"
                if owner.hand.count(thing) < side.count(thing):
                    return f"{owner.name} does not keep `{thing.name}`"
                if not card.tradable:
                    return f"card `{thing.name}` is not `tradable`"
                if card.tradable_when is not None and not card.tradable_when(g, {"player": owner}):
                    decl = next((c for c in rules.program.decks[thing.deck].cards if c.name == thing.card), None)
                    when = decl.tradable_when if decl is not None else None
                    if when is None:
                        return f"card `{thing.name}` is tradable only when its condition holds, and it does not"
                    return f"card `{thing.name}` is tradable only when {_quoted(rules, when)} " \
                           f"({_at(rules, when.span)}), and for {owner.name} it is not"
            elif not isinstance(thing, Thing) or thing.kind not in rules.trade_kinds:
                return f"`{getattr(thing, 'name', thing)}` is not of a kind {what} names"
            elif getattr(thing, "f_owner", None) is not owner:
                return f"`{thing.name}` is not {owner.name}'s"
            else:
                for rule in rules.program.trade_things:
                    if thing.kind not in rule.kinds:
                        continue
                    names = {"player": proposer, "partner": partner, rule.var: thing}
                    failed = false_conjunct(g, rule.when, names, rule.span.line)
                    if failed is not None:
                        return f"`{thing.name}` may not be traded now ({_at(rules, rule.span)}): its condition {failed}"
    if decl.when is not None:
        failed = false_conjunct(g, decl.when, {"player": proposer, "partner": partner}, decl.span.line)
        if failed is not None:
            return f"{what}: its condition {failed}"
    return None


def bid_refusal(g, player: Player, amount: int, low: int, high: int) -> str | None:
    """Why a bid of `amount` is refused when bids from `low` to `high` are allowed, or None."""
    auction = _auction(g)
    if amount < low:
        return f"the lowest bid allowed now{auction} is ${low:,}"
    if amount > high:
        cash = " (his cash)" if high == player.f_cash else ""
        return f"the highest bid {player.name} may make now{auction} is ${high:,}{cash}"
    return None


def not_bidding(g, player: Player) -> str:
    """Why `player`'s bid is refused in an auction that opened without him."""
    node = g.last_node
    if isinstance(node, ast.Auction) and node.among is not None:
        return f"{player.name} is not among the bidders{_auction(g)}: " \
               f"`among {g.rules.program.text_at(node.among.span)}`"
    return f"{player.name} is not among the bidders{_auction(g)}"


def _auction(g) -> str:
    node = g.last_node
    return f" in the auction at {_at(g.rules, node.span)}" if isinstance(node, ast.Auction) else ""


def choice_refusal(g, name: str, answer, options: list) -> str | None:
    """Why `answer` is not among the `options` offered for decision `name` now, or None if it is."""
    if any(option == answer or getattr(option, "name", None) == answer for option in options):
        return None
    rules = g.rules
    node = g.last_node
    shown = [f"`{getattr(o, 'name', o)}`" for o in options]
    offered = ", ".join(shown[:6]) + (f" and {len(shown) - 6} more" if len(shown) > 6 else "")
    if isinstance(node, ast.Choose) and node.name == name:
        where = f"`choose \"{name}\"` ({_at(rules, node.span)})"
        for option in node.options:
            if option.name == answer and option.when is not None:
                return f"option `{answer}` of {where} is offered only when {_quoted(rules, option.when)} " \
                       f"({_at(rules, option.when.span)}), and it is not"
        return f"{where} offers {offered} now"
    if isinstance(node, ast.ChooseFor) and node.name == name:
        where = f"`choose \"{name}\"` ({_at(rules, node.span)})"
        chosen_from = rules.program.text_at(node.collection.span)
        if node.where is not None:
            chosen_from += f" where {rules.program.text_at(node.where.span)}"
        return f"{where} chooses from `{chosen_from}`: {offered} now"
    return f"the options offered now are {offered}"
