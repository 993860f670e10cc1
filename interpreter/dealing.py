"""Decisions, for the running game: choices, auctions, action windows and trades.

`Dealing` is part of `Game` (a mixin). Every decision is put to the deciding player's agent
with the legal options only: the rules say what is legal (an action's `when`, a trade's
conditions, a bid's range), agents only pick, and an answer outside the options is an
`AgentError`.
"""

from __future__ import annotations

import functools

import attrs

from .actiongen import ActionChoice, write_legal_actions
from .codegen import COUNTED, counters_key, fixed_fields
from .errors import STEP_BUDGET, AgentError
from .events import NO_RULE, RuleRef
from .state import Held, Player, Thing, field_attr, name_of

MAX_WINDOW_ACTIONS = 30  # actions and trade offers one player may make in one window
MAX_AMOUNTS = 10_000  # the most amounts one action may offer at once (`from … to … step …`)

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


class Dealing:
    __slots__ = ()  # a part of `Game`, whose attributes are slots
    # ---- choices and auctions ----------------------------------------------------------------------------------
    def choose(self, player: Player, name: str, options: list, where: RuleRef):
        # `Game.agent`, without the call where no field is hidden (then it is the agent as it is)
        agent = self.agents[player.seat] if not self.rules.hidden_fields else self.agent(player)
        picked = agent.choose(self, player, name, options)
        if picked not in options:
            raise AgentError(f"{player.name}'s agent chose {picked!r} for `{name}`; legal: {options}")
        if self.emitting:
            self.event_sink((self.state.turn, "choose", where, player.name, name, name_of(picked)))
        return picked

    def auction(self, thing, minimum: int, bidders, where: RuleRef, windows: bool = False):
        """Open ascending auction: bidders in turn raise or drop out until one bid stands.

        `windows` (`auction … with window`): before each of his bids, a bidder whose agent wants
        one gets an action window, in which his `bidding` is the lowest bid he may make, so that
        he may raise the cash for it (a bid is "an immediate use" of a loan)."""
        order = self._from_current(bidders)
        if self.emitting:
            self.emit("auction", where, thing.name, minimum, [p.name for p in order])
        high, price = None, minimum - 1
        active = [p for p in order if p.f_cash >= minimum]
        # Each bidder's agent, asked for once per auction rather than at every bid (an auction makes a
        # dozen bids or more): `Game.agent` answers the same for a player throughout a game.
        agent_of = {p.seat: self.agent(p) for p in active}
        # Without windows nothing changes between bids: each agent's bids, from what it knows now.
        bidder_of = None if windows else {p.seat: agent_of[p.seat].bidder(self, p, thing, p.f_cash) for p in active}
        while active and not (len(active) == 1 and active[0] is high):
            for bidder in list(active):
                if bidder is high:
                    continue
                low = price + 1 if high is not None else minimum
                if windows:
                    self._bid_window(bidder, agent_of[bidder.seat], low, where)
                cash = bidder.f_cash
                if cash < low:
                    active.remove(bidder)
                    continue
                if bidder_of is None:
                    bid = agent_of[bidder.seat].bid(self, bidder, thing, low, cash)
                else:
                    bid = bidder_of[bidder.seat](low)
                if bid is None:
                    active.remove(bidder)
                    continue
                if not low <= bid <= cash:
                    raise AgentError(f"{bidder.name}'s agent bid {bid}; legal bids are {low} to {cash}")
                high, price = bidder, bid
                if self.emitting:  # `emit`, written out: most of an auction's events are bids
                    self.event_sink((self.state.turn, "bid", where, bidder.name, bid))
                if len(active) == 1:
                    break
        return self._auction_result(thing, high, price, where)

    def _from_current(self, bidders) -> list:
        """The bidders still in, each once (a list like `[players[0], current]` may repeat one), in
        seat order from the current player's."""
        state = self.state
        current = state.current
        if bidders is self.active:  # the players still in, in seat order, as most auctions have it
            k = next((i for i, p in enumerate(bidders) if p.seat >= current), 0)
            return bidders[k:] + bidders[:k] if k else list(bidders)
        unique = {p.seat: p for p in bidders if not p.out}.values()
        seats = len(state.players)
        return sorted(unique, key=lambda p: (p.seat - current) % seats)

    def round_auction(self, thing, minimum: int, bidders, where: RuleRef, windows: bool, after, passes: int,
                      bluffing: bool):
        """Round-robin auction (`in turn after P`, `passes N`, `bluffing`): the bidders bid in seat
        order starting with the one after `after` (default: after the current player, who then bids
        last), each in his turn bidding higher than the standing bid or passing; a bidder is out at
        his `passes`-th pass. It ends when every other bidder is out (the standing bid wins) or when
        all are out with no bid. With `bluffing`, a bid may exceed the bidder's cash: he is offered
        bids up to `bluff_limit` (the more of his cash and the opening bid, doubled), so it ends."""
        seats = len(self.state.players)
        start = after.seat if after is not None else self.state.current
        unique = {p.seat: p for p in bidders if not p.out}.values()
        order = sorted(unique, key=lambda p: (p.seat - start - 1) % seats)
        if self.emitting:
            self.emit("auction", where, thing.name, minimum, [p.name for p in order])
        passed = {p.seat: 0 for p in order}
        active = list(order)
        agent_of = {p.seat: self.agent(p) for p in order}  # asked for once (see `auction`)
        high, price = None, minimum - 1
        i = 0
        while active and not (len(active) == 1 and active[0] is high):
            self.steps += 1  # each bid or pass is a step of the turn: `passes 1000000` stops, never hangs
            if self.steps > STEP_BUDGET:
                raise self.error(f"an auction ran past {STEP_BUDGET:,} steps of one turn in bids and passes",
                                 help="give its bidders fewer `passes`", budget=True)
            i %= len(active)
            bidder = active[i]
            if bidder is high:  # the standing bid's holder waits for the others
                i += 1
                continue
            low = price + 1 if high is not None else minimum
            if windows:
                self._bid_window(bidder, agent_of[bidder.seat], low, where)
            cash = bidder.f_cash
            top = self.bluff_limit(cash, minimum) if bluffing else cash
            bid = agent_of[bidder.seat].bid(self, bidder, thing, low, top) if top >= low and not bidder.out else None
            if bid is None:
                passed[bidder.seat] += 1
                if self.emitting:
                    self.emit("pass_bid", where, bidder.name, passed[bidder.seat])
                if passed[bidder.seat] >= passes or bidder.out:
                    active.remove(bidder)  # the next bidder moves into his place in the list
                    continue
                i += 1
                continue
            if not low <= bid <= top:
                raise AgentError(f"{bidder.name}'s agent bid {bid}; legal bids are {low} to {top}")
            high, price = bidder, bid
            if self.emitting:
                self.emit("bid", where, bidder.name, bid)
            i += 1
        return self._auction_result(thing, high, price, where)

    def _auction_result(self, thing, high, price: int, where: RuleRef):
        """How an auction ended, for either kind: sold to the highest bidder, or unsold (None)."""
        if high is None:
            if self.emitting:
                self.emit("unsold", where, thing.name)
            return None
        if self.emitting:
            self.emit("sold", where, thing.name, high.name, price)
        return Sale(high, price)

    @staticmethod
    def bluff_limit(cash: int, minimum: int) -> int:
        """The highest bid offered to a bidder in a `bluffing` auction: a bluff, but a bounded one."""
        return 2 * max(cash, minimum)

    def covers_bid(self, sale: Sale, where: RuleRef) -> bool:
        """A `bluffing` auction's winner short of the price may raise cash (a window, as a debtor
        does); True if he can then pay, else he is exposed as a bluffer."""
        winner = sale.winner
        if winner.f_cash < sale.price and not winner.out:
            self.raise_cash(winner, sale.price, where)
        if winner.f_cash >= sale.price and not winner.out:
            return True
        if self.emitting:
            self.emit("bluff", where, winner.name, sale.price)
        return False

    def _bid_window(self, bidder: Player, agent, low: int, where: str) -> None:
        current = self.state.players[self.state.current]
        if bidder.out or not agent.wants_window(self, bidder, bidder is current):
            return
        bidder.bidding = low
        self._changed(BIDDING)
        self.descend("windows open windows", help="look for an action whose body opens a `window` again")
        try:
            self.window(bidder, where=where)
        finally:
            self.depth -= 1
            bidder.bidding = 0
            self._changed(BIDDING)


    def legal_actions(self, player: Player, own_turn: bool, raising: bool = False, wanted=None) -> list:
        """Every legal (action, argument) for the player now; with `wanted` (names), the actions not
        wanted are left out where testing their conditions cannot fail (so leaving them out hides no
        failure: see `Agent.wanted_actions`).

        The stable part of an action's condition is re-evaluated only when something it
        reads has changed since it was last evaluated for this player (the codegen lists
        what each condition reads; the engine counts changes); otherwise the previous
        answer stands. The volatile part (cash...) is tested every time: once for all the
        things offered when it does not read the action's argument (`player.owing > $0`),
        else for each. The loop over the actions is written out once for the rules (actiongen.py)."""
        legal = self.rules.legal_actions
        if legal is None:
            self._make_plan()
            legal = self.rules.legal_actions
        return legal(self, player, own_turn, wanted)

    def _selected(self, action, player: Player, found: list) -> list:
        """The options whose thing passes a volatile part that matches a fixed field first (see
        `rules._selector`): the value to match worked out once, the rest tested where it matches."""
        field, value_of, identity, rest = action.select
        env = {"player": player}
        value = value_of(self, env)
        matching = self._matching(action.name, found, field, value)
        if matching is None:  # a value that cannot be looked up: compared with each
            attr = field_attr(field)
            if identity:
                matching = [choice for choice in found if getattr(choice.argument, attr) is value]
            else:
                matching = [choice for choice in found if getattr(choice.argument, attr) == value]
        if rest is None:
            return matching
        var = action.var
        passed = []
        for choice in matching:
            env[var] = choice.argument
            if rest(self, env):
                passed.append(choice)
        return passed

    def _make_plan(self) -> list:
        rules = self.rules
        if rules.action_plan is None:  # made once for every game of these rules, and written out (actiongen.py)
            rules.action_plan = _action_plan(rules.actions, fixed_fields(rules.program))
            rules.legal_actions = write_legal_actions(rules.action_plan)
        self._plan = rules.action_plan
        self._some_safe = any(entry[8] for entry in self._plan)
        return self._plan

    def _allowed_now(self, action, player: Player) -> bool:
        """An action's `once per turn` (or visit) not used up, and its `own turn before/in/after PHASE` now."""
        if action.limit is not None and self._times_taken(action, player) >= action.limit:
            return False
        return action.relation is None or self._in_time(action)

    def _legal_amounts(self, action, player: Player) -> list:
        """Every amount from the lowest to the highest in steps, for which the action's `when` holds."""
        env = {"player": player}
        lowest, highest, stepping = action.amount
        low, high, step = lowest(self, env), highest(self, env), stepping(self, env)
        if step <= 0:
            raise self.error(f"the step of `{action.var}` in action `{action.name}` is {step}; it must be above 0")
        if low > high:
            return []
        if (high - low) // step + 1 > MAX_AMOUNTS:
            raise self.error(f"action `{action.name}` offers {(high - low) // step + 1:,} amounts, more than "
                             f"{MAX_AMOUNTS:,}", help="choose a larger step")
        guard, when, volatile = self._amount_tests(action)
        if guard is not None and not guard(self, env):  # the same for every amount
            return []
        options = []
        for value in range(low, high + 1, step):
            env[action.var] = value
            if (when is None or when(self, env)) and (volatile is None or volatile(self, env)):
                options.append(ActionChoice(action.name, value))
        return options

    def _matching(self, name: str, found: list, field: str, value) -> list | None:
        """The options in `found` whose thing's fixed `field` is `value`, in their order, from an index
        of `found` by that field made once per list of options (the kept options change far less
        often than the value asked for, the player's square). A field's values are the things,
        players and squares compared by identity (their hash) or plain values compared by `==`, as
        the dict compares keys; None where a value cannot be a key."""
        known = self._matched.get(name)
        if known is None or known[0] is not found:
            index: dict | None = {}
            attr = field_attr(field)
            try:
                for choice in found:
                    index.setdefault(getattr(choice.argument, attr), []).append(choice)
            except TypeError:  # an unhashable value (a list)
                index = None
            self._matched[name] = known = (found, index)
        if known[1] is None:
            return None
        try:
            return known[1].get(value, ())
        except TypeError:
            return None

    def _amount_tests(self, action) -> tuple:
        """An amount action's condition as (guard, when, volatile): `guard` the conjuncts it tests first
        that do not read the amount (`on_bankomat(player)`), tested once for all amounts (or None);
        `when` and `volatile` what is left of its two parts, tested for each amount. Each part keeps
        the whole's place, so a failure is reported as the whole's would be. Worked out once for every
        game of these rules."""
        known = self._amount_plans.get(action.name)
        if known is not None:
            return known
        var, guards, when, volatile = action.var, [], action.when, action.volatile
        for part in ("when", "volatile"):
            condition = when if part == "when" else volatile
            if condition is None:
                continue
            conjuncts = condition.conjuncts()
            count = len(conjuncts.operands)
            lead = next((k for k in range(count) if var in conjuncts.part(k, k + 1).locals), count)
            if lead:
                guards.append(conjuncts.part(0, lead))
            rest = conjuncts.part(lead, count) if lead < count else None
            if part == "when":
                when = rest
                if rest is not None:  # the volatile part is tested after it: no more can go first
                    break
            else:
                volatile = rest
        guard = None
        if len(guards) == 1:
            guard = guards[0]
        elif guards:
            first, second = guards
            guard = lambda g, e: first(g, e) and second(g, e)  # noqa: E731 (the stable part's, then the volatile's)
        self._amount_plans[action.name] = known = (guard, when, volatile)
        return known

    def _legal(self, action, player: Player) -> list:
        if action.var is None:
            if action.when is None or action.when(self, {"player": player}):
                return [ActionChoice(action.name, None)]
            return []
        options = []
        env = {"player": player}
        candidates = self._candidates(action, player)
        name, var, when = action.name, action.var, action.when
        if when is None:
            return [_new_tuple(ActionChoice, (name, thing)) for thing in candidates]
        for thing in candidates:
            env[var] = thing
            if when(self, env):
                options.append(_new_tuple(ActionChoice, (name, thing)))  # a named tuple, made as `tuple` makes one
        return options

    def _candidates(self, action, player: Player):
        """The things an action on a kind may be taken on, before its condition: those whose field the
        condition first compares with the player (`p.owner == player`) holds him, else all."""
        field = action.prefilter
        if field is None:
            return self.kind_things.get(action.kind, ())
        if self.cache_actions:
            return self.held_by(action.kind, field, player)
        return _holding(field)(self.kind_things.get(action.kind, ()), player)

    def held_by(self, kind: str, field: str, player: Player) -> list:
        """The things of a kind whose field that names a player (`owner`) names `player`, in their
        order (a list kept: not to be changed): kept for him beside his kept actions, and found
        again only when the field changed to or from him (`Game.set_field` counts those changes by
        seat): what he holds changes far less often than the other things a condition reads. Found
        again, the same things are the same list (see `actiongen._write_layers`)."""
        version = self.versions[(field, player.seat)]
        kept = self.kept_actions[player.seat]
        known = kept.get((kind, field))
        if known is not None and known[0] == version:
            return known[1]
        things = _holding(field)(self.kind_things.get(kind, ()), player)
        if known is not None and known[1] == things:
            things = known[1]
        kept[(kind, field)] = (version, things)
        return things

    def _in_time(self, action) -> bool:
        """`own turn before/in/after PHASE`: where the current turn is against that phase."""
        at, index = self.phase_at, action.phase_index
        if action.relation == "before":
            return at < index
        if action.relation == "in":
            return at == index
        return at > index

    def _stamp(self, action, player: Player) -> int:
        """The turn (or, for `per visit`, the visit) an action's limit counts in now."""
        return player.visits if action.per == "visit" else self.state.turn

    def _times_taken(self, action, player: Player) -> int:
        used = player.uses.get(action.name)
        return used[1] if used is not None and used[0] == self._stamp(action, player) else 0

    def perform(self, player: Player, choice: ActionChoice) -> None:
        action = self.rules.action_named[choice.action]
        if action.limit is not None:
            player.uses[action.name] = [self._stamp(action, player), self._times_taken(action, player) + 1]
        env = {"player": player}
        if action.var is not None:
            env[action.var] = choice.argument
        if self.emitting:
            self.event_sink((self.state.turn, "action", action.where, player.name, action.name,
                             name_of(choice.argument)))
        action.body(self, env)

    def trade_is_legal(self, offer: TradeOffer) -> bool:
        rules = self.rules
        if not (rules.trade_kinds or rules.trade_cards) or offer.partner is offer.proposer \
                or offer.partner.out or offer.proposer.out:
            return False
        if self.window_only is not None:  # a window restricted to named actions allows no trades
            return False
        if not (offer.gives or offer.cash > 0) or not (offer.takes or offer.cash < 0):
            return False  # a trade has two sides: nothing may be given, or lent, for nothing
        if offer.cash and not rules.trade_cash:
            return False
        payer, amount = (offer.proposer, offer.cash) if offer.cash >= 0 else (offer.partner, -offer.cash)
        if payer.f_cash < amount:
            return False
        for side, owner in ((offer.gives, offer.proposer), (offer.takes, offer.partner)):
            for thing in side:
                if isinstance(thing, Held):
                    if not self._card_is_tradable(thing, owner, side):
                        return False
                elif not isinstance(thing, Thing) or thing.kind not in rules.trade_kinds \
                        or getattr(thing, "f_owner", None) is not owner:
                    return False
        if rules.trade_when is not None:
            return bool(rules.trade_when(self, {"player": offer.proposer, "partner": offer.partner}))
        return True

    def _card_is_tradable(self, held: Held, holder: Player, side: tuple) -> bool:
        """A kept card may be traded if the trade lists `cards`, its holder keeps as many copies as
        the side names, and the card is `tradable` (and its `when` holds for the holder)."""
        if not self.rules.trade_cards or holder.hand.count(held) < side.count(held):
            return False
        card = self.cards[held.deck][held.card]
        if not card.tradable:
            return False
        return card.tradable_when is None or bool(card.tradable_when(self, {"player": holder}))

    def trade(self, offer: TradeOffer, where: RuleRef) -> bool:
        if not self.trade_is_legal(offer):
            raise AgentError(f"{offer.proposer.name}'s agent offered a trade the rules do not allow: {offer}")
        if not self.agent(offer.partner).accept(self, offer.partner, offer):
            return False
        self.complete_trade(offer, where)
        return True

    def complete_trade(self, offer: TradeOffer, where: str) -> None:
        """An agreed trade, on the spot: ownership and cash move in one step."""
        if self.emitting:
            self.emit("trade", where, offer.proposer.name, offer.partner.name, [t.name for t in offer.gives],
                      [t.name for t in offer.takes], offer.cash)
        for giver, receiver, side in ((offer.proposer, offer.partner, offer.gives),
                                      (offer.partner, offer.proposer, offer.takes)):
            for t in side:
                if isinstance(t, Held):
                    self.discard_held(giver, t, where, to=receiver)
                else:
                    self.set_field(t, "owner", receiver, where)
        if offer.cash > 0:
            self.pay(offer.cash, offer.proposer, offer.partner, where)
        elif offer.cash < 0:
            self.pay(-offer.cash, offer.partner, offer.proposer, where)

    def window(self, player: Player, raising: int | None = None, where: RuleRef = NO_RULE, only=None) -> None:
        """Let a player act: legal actions and trade offers, until the agent passes.

        At the end of a turn every player whose agent `wants_window` gets one; a debtor
        raising cash (`raising` = what he owes) gets one until the debt is covered. With
        `only`, just those actions."""
        outer, self.window_only = self.window_only, only  # a debt inside it opens an ordinary window
        try:
            if self.emitting:  # `emit`, written out: one of the events made every turn
                self.event_sink((self.state.turn, "window", where, player.name))
            own_turn = player.seat == self.state.current
            kit = self.window_kits[player.seat]
            if kit is None or kit[0] is not self.agents[player.seat]:
                kit = self._window_kit(player)
            agent, wanted = kit
            legal = self.rules.legal_actions  # `legal_actions`, called without the method in between
            for _ in range(MAX_WINDOW_ACTIONS):
                if player.out or (raising is not None and player.f_cash >= raising):
                    return
                options = legal(self, player, own_turn, wanted(self, player, raising) if wanted is not None else None)
                choice = agent.act(self, player, options, raising)
                if choice is None:
                    return
                if isinstance(choice, TradeOffer):
                    self.trade(choice, self.rules.trade_where)
                elif choice in options:
                    self.perform(player, choice)
                else:
                    raise AgentError(f"{player.name}'s agent chose {choice!r}, which is not a legal action now")
        finally:
            self.window_only = outer

    def _window_kit(self, player: Player) -> tuple:
        """(the agent that answers in `player`'s windows, what it wants as `wanted(game, player,
        raising)` or None for every action), kept for the game while his agent stays (`window_kits`):
        asked in every window. Only an agent of its own asks for fewer actions (a blindfolded one,
        as in `choose`, is asked for all, and made for each window), and only where some action may
        be left out."""
        if self._plan is None:
            self._make_plan()
        if self.rules.hidden_fields:
            return self.agent(player), None
        agent = self.agents[player.seat]
        kit = self.window_kits[player.seat] = (agent, agent.wanted_for(self.rules) if self._some_safe else None)
        return kit

    def open_window(self, player: Player, where: RuleRef, only=None) -> None:
        """`window for P [only A, B]`: an action window in the middle of the turn, if P's agent wants
        one; with `only`, just those actions (a frozenset of names) and no trades."""
        if not player.out and self.agent(player).wants_window(self, player, player.seat == self.state.current):
            self.descend("windows open windows", help="look for an action whose body opens a `window` again")
            try:
                self.window(player, where=where, only=only)
            finally:
                self.depth -= 1


@functools.cache
def _holding(field: str):
    """holding(things, player): those of `things` whose `field` is `player`, in their order (the
    field's attribute read as an attribute: a list comprehension written for it)."""
    return eval(f"lambda things, player: [t for t in things if t.{field_attr(field)} is player]")  # noqa: S307 (our own source)


def _counted(reads, fixed: frozenset) -> tuple:
    """What an expression reads whose change counters may move (see `fixed_fields`), in a fixed order."""
    return tuple(sorted(r for r in reads if r not in fixed))


def _key(reads, fixed: frozenset):
    """The key of what an expression reads (`codegen.counters_key`), fixed fields left out."""
    return counters_key(_counted(reads, fixed))


def _action_plan(actions, fixed: frozenset) -> list:
    """Per action, what `legal_actions` asks of it, worked out once: (action, name, own turn only,
    limited in number or time, the key of what its stable condition reads (fixed fields left out:
    `codegen.counters_key`), its volatile condition, whether that reads the action's argument and
    so is tested for each option, its stable condition's layers or None, whether testing it cannot
    fail, whether its stable answer is the same for every player: no layers, no holder to filter
    by, a condition that does not read `player` (`s.owner == none`), so it is kept once for all)."""
    plan = []
    for a in actions:
        layers = _layers(a, fixed)
        plan.append((a, a.name, a.timing == "own turn", a.limit is not None or a.relation is not None,
                     _key(a.sorted_reads, fixed), a.volatile,
                     a.volatile is not None and a.var is not None and a.var in a.volatile.locals, layers,
                     a.amount is None and all(part is None or part.cannot_fail() for part in (a.when, a.volatile)),
                     layers is None and a.prefilter is None and (a.when is None or "player" not in a.when.locals)))
    return plan


def _layers(action, fixed: frozenset) -> tuple | None:
    """How to keep an action's stable condition in layers (see `actiongen._write_layers`), or None.

    The candidates come first: for `p.owner == player and …` (the action's prefilter), the things
    the player holds, a list kept while they are the same. Then the condition `A and B and …` is
    split before the longest rest that reads something the first part does not, so a change only
    the rest reads re-tests only the rest (`… and all(q in p.group: q.owner == player) and p.level
    < 3` is not asked again who owns what when a level is raised). Returns (first part, the key of
    what it reads, rest, the key of what it reads: `codegen.counters_key`); a part may be None
    (nothing to test: its options all pass). A part that reads the holder's field only against the
    player (`all(q in p.group: q.owner == player)`) is kept by the candidates instead: it stands
    while the player's things are the same. None when there is nothing to gain: no argument,
    amounts (never kept), or no such split."""
    if action.var is None or action.amount is not None or action.when is None:
        return None
    conjuncts = action.when.conjuncts()
    count = len(conjuncts.operands)
    held = action.prefilter is not None and conjuncts.holder == (action.var, action.prefilter)
    start = 1 if held else 0  # the holder's test is passed by every candidate
    split = next((k for k in range(count - 1, start, -1)
                  if frozenset().union(*conjuncts.reads[k:]) - frozenset().union(*conjuncts.reads[start:k])),
                 start if held else None)
    if split is None:
        return None
    first = conjuncts.part(start, split) if split > start else None
    rest = conjuncts.part(split, count) if count > split else None

    def reads(part, begin: int, end: int) -> tuple:
        """What a part's answer is kept by: its counted reads, less the holder's field where the part
        reads it only against the player (the candidates, the player's things, stand for it then)."""
        if part is None:
            return ()
        counted = _counted(part.reads, fixed)
        if held and conjuncts.held_only(begin, end, action.prefilter, action.kind):
            counted = tuple(r for r in counted if r != action.prefilter)
        return counted
    return first, counters_key(reads(first, start, split)), rest, counters_key(reads(rest, split, count))


BIDDING = COUNTED + "bidding"  # the change counter of players' `bidding`
_new_tuple = tuple.__new__  # makes an ActionChoice without the named tuple's slower constructor
