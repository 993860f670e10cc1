"""The market of a running game: auctions and trades between players.

`Market` is the game's (`game.market`), an object of its own because selling is a job of its own:
who bids in what order, what a bid may be, when an auction ends, which trades the rules allow and
how an agreed one changes hands. It keeps no state between sales (an auction's bidders and their
agents live in the call); everything it changes — cash, owners, kept cards — it changes through the
game each method is handed (`g`, not kept: see engine.py), with `Game.pay`, `Game.set_field` and
`Decks.discard_held`, which make the events. Every bid and offer is put to an agent with the legal
range only; an answer outside it is an `AgentError`.
"""

from __future__ import annotations

import attrs

from .reads import COUNTED
from .errors import STEP_BUDGET, AgentError
from .events import RuleRef
from .state import Held, Player, Thing

BIDDING = COUNTED + "bidding"  # the change counter of players' `bidding`


@attrs.frozen
class Sale:
    winner: Player
    price: int


@attrs.frozen
class TradeOffer:
    """A proposed trade: `proposer` gives `gives` and `cash` (negative: receives) for `takes`."""

    proposer: Player
    partner: Player
    gives: tuple
    takes: tuple
    cash: int


class Market:
    __slots__ = ()

    # ---- auctions ---------------------------------------------------------------------------------
    def auction(self, g, thing, minimum: int, bidders, where: RuleRef, windows: bool = False):
        """Open ascending auction: bidders in turn raise or drop out until one bid stands.

        `windows` (`auction … with window`): before each of his bids, a bidder whose agent wants
        one gets an action window, in which his `bidding` is the lowest bid he may make, so that
        he may raise the cash for it (a bid is "an immediate use" of a loan)."""
        order = self._from_current(g, bidders)
        if g.emitting:
            g.emit("auction", where, thing.name, minimum, [p.name for p in order])
        high, price = None, minimum - 1
        active = [p for p in order if p.f_cash >= minimum]
        # Each bidder's agent, asked for once per auction rather than at every bid (an auction makes a
        # dozen bids or more): `Game.agent` answers the same for a player throughout a game.
        agent_of = {p.seat: g.agent(p) for p in active}
        # Without windows nothing changes between bids: each agent's bids, from what it knows now.
        bidder_of = None if windows else {p.seat: agent_of[p.seat].bidder(g, p, thing, p.f_cash) for p in active}
        while active and not (len(active) == 1 and active[0] is high):
            for bidder in list(active):
                if bidder is high:
                    continue
                low = price + 1 if high is not None else minimum
                if windows:
                    self._bid_window(g, bidder, agent_of[bidder.seat], low, where)
                cash = bidder.f_cash
                if cash < low:
                    active.remove(bidder)
                    continue
                if bidder_of is None:
                    bid = agent_of[bidder.seat].bid(g, bidder, thing, low, cash)
                else:
                    bid = bidder_of[bidder.seat](low)
                if bid is None:
                    active.remove(bidder)
                    continue
                if not low <= bid <= cash:
                    raise AgentError(f"{bidder.name}'s agent bid {bid}; legal bids are {low} to {cash}")
                high, price = bidder, bid
                if g.emitting:  # `emit`, written out: most of an auction's events are bids
                    g.event_sink((g.state.turn, "bid", where, bidder.name, bid))
                if len(active) == 1:
                    break
        return self._auction_result(g, thing, high, price, where)

    def _from_current(self, g, bidders) -> list:
        """The bidders still in, each once (a list like `[players[0], current]` may repeat one), in
        seat order from the current player's."""
        state = g.state
        current = state.current
        if bidders is g.active:  # the players still in, in seat order, as most auctions have it
            k = next((i for i, p in enumerate(bidders) if p.seat >= current), 0)
            return bidders[k:] + bidders[:k] if k else list(bidders)
        unique = {p.seat: p for p in bidders if not p.out}.values()
        seats = len(state.players)
        return sorted(unique, key=lambda p: (p.seat - current) % seats)

    def round_auction(self, g, thing, minimum: int, bidders, where: RuleRef, windows: bool, after, passes: int,
                      limit=None):
        """Round-robin auction (`in turn after P`, `passes N`, `bluffing up to`): the bidders bid in
        seat order starting with the one after `after` (default: after the current player, who then
        bids last), each in his turn bidding higher than the standing bid or passing; a bidder is out
        at his `passes`-th pass. It ends when every other bidder is out (the standing bid wins) or
        when all are out with no bid. `limit(bidder)` (`bluffing up to EXPR`, the rules' expression):
        a bid may exceed the bidder's cash up to it; the engine sets no limit of its own."""
        seats = len(g.state.players)
        start = after.seat if after is not None else g.state.current
        unique = {p.seat: p for p in bidders if not p.out}.values()
        order = sorted(unique, key=lambda p: (p.seat - start - 1) % seats)
        if g.emitting:
            g.emit("auction", where, thing.name, minimum, [p.name for p in order])
        passed = {p.seat: 0 for p in order}
        active = list(order)
        agent_of = {p.seat: g.agent(p) for p in order}  # asked for once (see `auction`)
        high, price = None, minimum - 1
        i = 0
        while active and not (len(active) == 1 and active[0] is high):
            g.steps += 1  # each bid or pass is a step of the turn: `passes 1000000` stops, never hangs
            if g.steps > STEP_BUDGET:
                raise g.error(f"an auction ran past {STEP_BUDGET:,} steps of one turn in bids and passes",
                              help="give its bidders fewer `passes`", budget=True)
            i %= len(active)
            bidder = active[i]
            if bidder is high:  # the standing bid's holder waits for the others
                i += 1
                continue
            low = price + 1 if high is not None else minimum
            if windows:
                self._bid_window(g, bidder, agent_of[bidder.seat], low, where)
            cash = bidder.f_cash
            top = cash if limit is None else max(cash, limit(bidder))
            bid = agent_of[bidder.seat].bid(g, bidder, thing, low, top) if top >= low and not bidder.out else None
            if bid is None:
                passed[bidder.seat] += 1
                if g.emitting:
                    g.emit("pass_bid", where, bidder.name, passed[bidder.seat])
                if passed[bidder.seat] >= passes or bidder.out:
                    active.remove(bidder)  # the next bidder moves into his place in the list
                    continue
                i += 1
                continue
            if not low <= bid <= top:
                raise AgentError(f"{bidder.name}'s agent bid {bid}; legal bids are {low} to {top}")
            high, price = bidder, bid
            if g.emitting:
                g.emit("bid", where, bidder.name, bid)
            i += 1
        return self._auction_result(g, thing, high, price, where)

    def _auction_result(self, g, thing, high, price: int, where: RuleRef):
        """How an auction ended, for either kind: sold to the highest bidder, or unsold (None)."""
        if high is None:
            if g.emitting:
                g.emit("unsold", where, thing.name)
            return None
        if g.emitting:
            g.emit("sold", where, thing.name, high.name, price)
        return Sale(high, price)

    def covers_bid(self, g, sale: Sale, where: RuleRef) -> bool:
        """A `bluffing` auction's winner short of the price may raise cash (a window, as a debtor
        does); True if he can then pay, else he is exposed as a bluffer."""
        winner = sale.winner
        if winner.f_cash < sale.price and not winner.out:
            g.raise_cash(winner, sale.price, where)
        if winner.f_cash >= sale.price and not winner.out:
            return True
        if g.emitting:
            g.emit("bluff", where, winner.name, sale.price)
        return False

    def _bid_window(self, g, bidder: Player, agent, low: int, where: RuleRef) -> None:
        current = g.state.players[g.state.current]
        if bidder.out or not agent.wants_window(g, bidder, bidder is current):
            return
        bidder.bidding = low
        g.versions[BIDDING] += 1
        g.descend("windows open windows", help="look for an action whose body opens a `window` again")
        try:
            g.actions.window(g, bidder, where=where)
        finally:
            g.depth -= 1
            bidder.bidding = 0
            g.versions[BIDDING] += 1

    # ---- trades -----------------------------------------------------------------------------------
    def trade_is_legal(self, g, offer: TradeOffer, partner_cash: bool = True) -> bool:
        """Whether the rules allow the offer; `partner_cash=False` leaves out whether the partner has
        the price (`trade`: he declines it if not)."""
        rules = g.rules
        if not (rules.trade_kinds or rules.trade_cards) or offer.partner is offer.proposer \
                or offer.partner.out or offer.proposer.out:
            return False
        if g.actions.only is not None:  # a window restricted to named actions allows no trades
            return False
        if not (offer.gives or offer.cash > 0) or not (offer.takes or offer.cash < 0):
            return False  # a trade has two sides: nothing may be given, or lent, for nothing
        if offer.cash and not rules.trade_cash:
            return False
        payer, amount = (offer.proposer, offer.cash) if offer.cash >= 0 else (offer.partner, -offer.cash)
        hidden = "cash" in type(payer).masked  # from the proposer's agent (blindfold.py): it cannot know
        if not hidden and (partner_cash or payer is offer.proposer) and payer.f_cash < amount:
            return False
        for side, owner in ((offer.gives, offer.proposer), (offer.takes, offer.partner)):
            for thing in side:
                if isinstance(thing, Held):
                    if not self._card_is_tradable(g, thing, owner, side):
                        return False
                elif not isinstance(thing, Thing) or thing.kind not in rules.trade_kinds \
                        or getattr(thing, "f_owner", None) is not owner:
                    return False
                else:
                    for var, when in rules.trade_things.get(thing.kind, ()):
                        if not when(g, {"player": offer.proposer, "partner": offer.partner, var: thing}):
                            return False
        if rules.trade_when is not None:
            return bool(rules.trade_when(g, {"player": offer.proposer, "partner": offer.partner}))
        return True

    def _card_is_tradable(self, g, held: Held, holder: Player, side: tuple) -> bool:
        """A kept card may be traded if the trade lists `cards`, its holder keeps as many copies as
        the side names, and the card is `tradable` (and its `when` holds for the holder)."""
        if not g.rules.trade_cards or holder.hand.count(held) < side.count(held):
            return False
        card = g.decks.cards[held.deck][held.card]
        if not card.tradable:
            return False
        return card.tradable_when is None or bool(card.tradable_when(g, {"player": holder}))

    def trade(self, g, offer: TradeOffer, where: RuleRef) -> bool:
        if not self.trade_is_legal(g, offer, partner_cash="cash" not in g.rules.hidden_fields):
            raise AgentError(f"{offer.proposer.name}'s agent offered a trade the rules do not allow: {offer}")
        if offer.cash < 0 and offer.partner.f_cash < -offer.cash:
            return False  # a price the partner cannot pay (his cash may be hidden from the proposer): declined
        if not g.agent(offer.partner).accept(g, offer.partner, offer):
            return False
        self.complete_trade(g, offer, where)
        return True

    def complete_trade(self, g, offer: TradeOffer, where: RuleRef) -> None:
        """An agreed trade, on the spot: ownership and cash move in one step. For the property checker
        the trade is one unit with its `on trade` handlers, as a rule's body is (stmtgen.write_settling):
        the game is settled when all of it is done, not between the things that change hands."""
        watching = g.on_settled
        if watching is not None:
            g.rules_running += 1
        try:
            self._complete_trade(g, offer, where)
        finally:
            if watching is not None:
                g.rules_running -= 1
        if watching is not None and not g.rules_running:
            watching()

    def _complete_trade(self, g, offer: TradeOffer, where: RuleRef) -> None:
        if g.emitting:
            g.emit("trade", where, offer.proposer.name, offer.partner.name, [t.name for t in offer.gives],
                   [t.name for t in offer.takes], offer.cash)
        for giver, receiver, side in ((offer.proposer, offer.partner, offer.gives),
                                      (offer.partner, offer.proposer, offer.takes)):
            for t in side:
                if isinstance(t, Held):
                    g.decks.discard_held(g, giver, t, where, to=receiver)
                else:
                    g.set_field(t, "owner", receiver, where)
        if offer.cash > 0:
            g.pay(offer.cash, offer.proposer, offer.partner, where)
        elif offer.cash < 0:
            g.pay(-offer.cash, offer.partner, offer.proposer, where)
        if g.rules.traded:
            self._after_trade(g, offer)

    @staticmethod
    def _after_trade(g, offer: TradeOffer) -> None:
        """`on trade` handlers, once the trade is complete: `on trade K x` for each thing of K that
        changed hands (`player` its new owner, `partner` who gave it), in the order of the sides;
        then `on trade` for the trade (`player` the proposer). Every `when` is tested before any of a
        thing's handlers runs, as for an arrival."""
        traded = g.rules.traded
        moves = [(receiver, giver, t) for giver, receiver, side in ((offer.proposer, offer.partner, offer.gives),
                                                                  (offer.partner, offer.proposer, offer.takes))
                 for t in side if not isinstance(t, Held)]
        for receiver, giver, thing in moves:
            handlers = traded.get(thing.kind, ())
            envs = [(h, {"player": receiver, "partner": giver, h.var: thing}) for h in handlers]
            for h, env in [(h, env) for h, env in envs if h.when is None or h.when(g, env)]:
                if not receiver.out:
                    h.body(g, env)
        for h in traded.get(None, ()):
            env = {"player": offer.proposer, "partner": offer.partner}
            if not offer.proposer.out and (h.when is None or h.when(g, env)):
                h.body(g, env)
