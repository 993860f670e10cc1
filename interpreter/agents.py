"""Agents answer the decisions the rules put to players; they never decide what is legal.

Every decision arrives with its legal options (or a legal range, for a bid), and an
agent returns one of them:

- `RandomAgent` picks uniformly, from its own generator seeded by game seed and seat;
- `HeuristicAgent` plays sensibly with no knowledge of any game: it values things by
  the rules' `hint worth(...)`, keeps the `hint reserve` in cash, bids up to worth,
  takes every action it can afford, trades to complete groups and sells to raise cash;
- `ScriptedAgent` answers from a script (for scenarios), falling back to "no".
"""

from __future__ import annotations

import random
from itertools import repeat
from typing import Any, NamedTuple, Sequence

from rulesc.dsl.builtins import HINT_RESERVE, HINT_WORTH, action_hint, decision_hint

from .actiongen import ActionChoice
from .agentgen import write_wanted
from .errors import AgentError
from .market import TradeOffer
from .reads import OUT, UNTRACKED, counters_key, fixed_fields
from .state import GameState


class Agent:
    """The decisions an agent answers; subclasses override what they need."""

    def bid(self, game, player, thing, low: int, high: int) -> int | None:
        return None

    def bidder(self, game, player, thing, cash: int):
        """bid(low): this agent's bids in one open auction in which nothing changes between bids (no
        windows), `cash` the most it may bid: each is `bid`'s answer, asked when it is needed. An
        agent whose bids follow from what it knows when the auction opens works them out once."""
        return lambda low: self.bid(game, player, thing, low, cash)

    def choose(self, game, player, name: str, options: list):
        return options[0]

    def wants_window(self, game, player, own_turn: bool) -> bool:
        """Whether to speak up now ("Excuse me!"); a quiet player lets the game go on."""
        return own_turn

    def act(self, game, player, options: list, raising: int | None):
        return None

    def wanted_actions(self, game, player, raising: int | None) -> frozenset | None:
        """The actions whose options `act` may answer with or weigh now (None: all). The engine may
        leave the others out of `options`, where testing their conditions cannot fail."""
        return None

    def wanted_for(self, rules):
        """`wanted_actions` for games of `rules`, as a function of (game, player, raising), or None
        where it answers None always: the engine asks for it once a game, and calls it in every window."""
        return None if type(self).wanted_actions is _EVERY_ACTION else self.wanted_actions

    def accept(self, game, player, offer: TradeOffer) -> bool:
        return False

    def save(self) -> dict:
        """What the agent remembers, as JSON: with the game's state, a saved game continues exactly."""
        return {}

    def restore(self, data: dict) -> None:
        pass


_EVERY_ACTION = Agent.wanted_actions  # an agent whose class has this one wants every action


class RandomAgent(Agent):
    def __init__(self, seed, seat: int):
        self.rng = random.Random(f"{seed}:{seat}")

    def save(self) -> dict:
        version, internal, gauss = self.rng.getstate()
        return {"rng": [version, list(internal), gauss]}

    def restore(self, data: dict) -> None:
        version, internal, gauss = data["rng"]
        self.rng.setstate((version, tuple(internal), gauss))

    def bid(self, game, player, thing, low, high):
        if self.rng.random() < 0.4:
            return None
        return self.rng.randint(low, min(high, low + max(1, high // 10)))

    def choose(self, game, player, name, options):
        return self.rng.choice(options)

    def wants_window(self, game, player, own_turn):
        return own_turn or self.rng.random() < 0.2

    def act(self, game, player, options, raising):
        if options and self.rng.random() < 0.5:
            return self.rng.choice(options)
        return None

    def accept(self, game, player, offer):
        return self.rng.random() < 0.3


class HeuristicAgent(Agent):
    """A generic sensible player, guided only by the rules' strategy hints."""

    def __init__(self, seed=0, seat: int = 0):
        self.seat = seat
        self._constant_reserve: tuple | None = None  # (rules, value): the reserve, when the hint reads nothing that changes
        self._last_offer: tuple | None = None  # (offer, state stamp) of the last trade this agent offered
        self._sellers_known: tuple = (None, None, None, [])  # (player, key, lowest price, sellers): see `_sellers`
        self._missing_known: tuple = (None, None, [])  # (player, his change count of `owner`, members): see `_missing`
        # What an agent keeps of a game is kept by the game's state, never by the game: the game holds its
        # agents, and an agent holding the game would make the two a cycle, which only Python's cycle
        # collector frees (after tracing everything the game keeps, its whole event log).
        self._tradable_groups: tuple = (None, [], 0)  # see `_find_groups`
        self._trade_kit: tuple = (None,)  # see `_new_trade_kit`
        self._act_hints: tuple = (None, {}, False)  # see `_learn_hints`
        self._choice_hints: tuple = (None, {})  # (rules, {decision: its `hint NAME` or None}): see `choose`
        self._acted_game: GameState | None
        self._acted_in, self._acted_game = -1, None  # the turn (of which game: its state) the two below are of:
        self._last_acted: dict = {}  # thing (or amount, or None) -> the action last taken on it in the turn
        self._looping: set = set()  # (action, thing) that would go round a loop if taken again this turn

    def reserve(self, game) -> int:
        """Money kept back; a negative `hint reserve` keeps nothing back (it must never let a bid exceed cash)."""
        known = self._constant_reserve
        if known is not None and known[0] is game.rules:
            return known[1]
        value = game.hints.value(game, HINT_RESERVE, 0)
        hint = game.rules.hints.get(HINT_RESERVE)
        if hint is None or not getattr(hint.value, "reads", True):  # a constant: parameters and literals only
            self._constant_reserve = (game.rules, max(0, value))
        return max(0, value)

    def bid(self, game, player, thing, low, high):
        known = self._constant_reserve  # `reserve`, its usual answer written out: asked at every bid
        reserve = known[1] if known is not None and known[0] is game.rules else self.reserve(game)
        limit = min(game.hints.worth(game, thing) if thing is not None else 0, high - reserve)
        if limit < low:
            return None
        step = max(1, limit // 10)
        return min(limit, max(low, low + step - 1))

    def bidder(self, game, player, thing, cash):
        """`bid`, with its limit worked out once: the worth and the reserve stand while nothing changes."""
        if type(self).bid is not HeuristicAgent.bid:  # a subclass that bids otherwise
            return super().bidder(game, player, thing, cash)
        known = self._constant_reserve
        reserve = known[1] if known is not None and known[0] is game.rules else self.reserve(game)
        limit = min(game.hints.worth(game, thing) if thing is not None else 0, cash - reserve)
        raise_by = max(1, limit // 10) - 1  # `bid`'s step, less the 1 that `low` is above the standing bid

        def bid(low):
            if limit < low:
                return None
            raised = low + raise_by  # `min(limit, max(low, low + step - 1))`, step >= 1
            return raised if raised < limit else limit
        return bid

    def choose(self, game, player, name, options):
        """The option the rules' `hint NAME(x: …)` scores highest (NAME: the decision's name with
        `_` for spaces), else the first."""
        known = self._choice_hints
        if known[0] is not game.rules:
            known = self._choice_hints = (game.rules, _of_rules(game.rules).setdefault("choices", {}))
        prefer = known[1].get(name, _UNKNOWN)
        if prefer is _UNKNOWN:  # its hint's `best` (the loop written out), looked up once a decision for these rules
            hint = game.rules.hints.get(decision_hint(name))
            prefer = known[1][name] = hint.value.best(hint.var) if hint is not None and hint.var is not None else None
        if prefer is None:
            return options[0]
        return prefer(game, player, options)

    def act(self, game, player, options, raising):
        """Take the action its rules hint scores best (`hint act_NAME(x: …)`, positive to want
        it; the first of equals); then, raising cash, sell; else buy what is affordable above
        the reserve. Never an action that would go round a loop in this turn (`_taking`).

        What most windows do (no option, nothing owed: look for a thing to buy) runs through the
        fewest lines: the rest is in methods of its own, out of the way of the code a turn runs."""
        known = self._act_hints
        if known[0] is not game.rules:
            known = self._learn_hints(game.rules)
        plain: Sequence = ()
        if options:
            if known[2]:  # a loop takes two actions
                options = self._not_looping(game, options)
            best, plain = self._scored(game, player, options, known[1])
            if best is not None:
                return self._taking(best)
        if raising is not None:
            return self._offer(game, self._sell_for_cash(game, player, raising))
        if plain:
            affordable = self._affordable(game, player, plain)
            if affordable is not None:
                return self._taking(affordable)
        offer = self._buy_to_complete(game, player)
        return self._offer(game, offer) if offer is not None else None

    def _not_looping(self, game, options: list) -> list:
        """The options that would not go round a loop this turn (see `_taking`)."""
        if self._acted_in != game.state.turn or self._acted_game is not game.state:
            self._new_turn(game)
        elif self._looping:
            looping = self._looping
            options = [option for option in options if (option.action, option.argument) not in looping]
        return options

    @staticmethod
    def _scored(game, player, options: list, hints: dict) -> tuple:
        """(the option the hints score highest above 0, or None; the options with no hint or no opinion)."""
        best, best_score, plain = None, 0, []
        env = {"player": player}  # one for all options: a hint reads only its own names from it
        action = hint = var = None
        score: Any = None  # the value of `hint`, the hint of the options of `action`
        for option in options:
            if option.action != action:  # the options of one action come together
                action = option.action
                hint = hints.get(action)
                if hint is not None:
                    score, var = hint.value, hint.var
            if hint is None:
                plain.append(option)
                continue
            if var is None:
                value = score(game, env)
            elif var != "player":
                env[var] = option.argument
                value = score(game, env)
            else:  # the parameter hides the player
                value = score(game, {"player": option.argument})
            if value is None:  # no opinion
                plain.append(option)
            elif value > best_score:
                best, best_score = option, value
        return best, plain

    def _affordable(self, game, player, plain: Sequence):
        """The most valuable of the options with no opinion that the player can afford above his reserve."""
        spare = player.f_cash - self.reserve(game)
        affordable = [o for o in plain if not isinstance(o.argument, int) and self._cost(game, o) <= spare]
        if not affordable:
            return None
        return max(affordable, key=lambda o: (game.hints.worth(game, o.argument) if o.argument is not None else 0,
                                              -(o.argument.index or 0) if o.argument is not None else 0))

    def _new_turn(self, game) -> None:
        """Forget the actions of another turn (see `_taking`)."""
        self._acted_in, self._acted_game = game.state.turn, game.state
        if self._last_acted:
            self._last_acted, self._looping = {}, set()

    def _taking(self, choice: ActionChoice) -> ActionChoice:
        """`choice`, noting what taking it rules out for the rest of the turn: the action last taken
        on the same thing, if another (borrow on C1, then repay C1: borrowing on C1 again would go
        round a loop, paying the difference each time, until the window's cap). The same action on
        the same thing again is no loop (a second house on a lot, after one on each of its group)."""
        if self._acted_game is None:  # one action in these rules: nothing to note
            return choice
        before = self._last_acted.get(choice.argument)
        if before is not None and before != choice.action:
            self._looping.add((before, choice.argument))
        self._last_acted[choice.argument] = choice.action
        return choice

    def wanted_actions(self, game, player, raising):
        """The actions `act` may take or weigh now: those with no hint (only when not raising cash:
        then it sells), and those whose hint may score an option above 0. A hint `if C then A else B`
        whose C and chosen branch read no option and cannot fail is worked out once: `if player.owing
        > $0 then p.loan else $0` scores every loan 0 when nothing is owed, and then no loan is wanted."""
        return self.wanted_for(game.rules)(game, player, raising)

    def wanted_for(self, rules):
        if type(self).wanted_actions is not _WRITTEN_OUT:  # a subclass that wants otherwise
            return self.wanted_actions
        return _relevance_of(rules)

    def _offer(self, game, offer):
        """The trade to offer, or None where it would be the very offer this agent made last and
        nothing has changed since: it was refused, and a heuristic partner, deciding by the game's
        state alone, would refuse it again. Offering it once more changes nothing but the time the
        window takes (until its cap), so the agent passes instead; the game is the same."""
        if offer is None:
            return None
        stamp = _stamp(game)
        if self._last_offer is not None and self._last_offer == (offer, stamp) \
                and type(game.agents[offer.partner.seat]) is HeuristicAgent:
            return None
        self._last_offer = (offer, stamp)
        return offer

    def _learn_hints(self, rules) -> tuple:
        """(rules, {action name: its `hint act_NAME`, or None}, whether they have two actions or more,
        so that the agent could go round a loop): looked up once for these rules."""
        known = _of_rules(rules)
        if "act hints" not in known:
            known["act hints"] = (rules, {a.name: rules.hints.get(action_hint(a.name)) for a in rules.actions},
                                  len(rules.actions) > 1)
        self._act_hints = known["act hints"]
        return self._act_hints

    def _cost(self, game, option: ActionChoice) -> int:
        """What taking an action on a thing costs: its `value` if it has one, else a quarter of its worth."""
        thing = option.argument
        if thing is None:
            return 0
        value = getattr(thing, "f_value", None)
        return value if isinstance(value, int) else game.hints.worth(game, thing) // 4

    def _owned(self, game, player, kinds: tuple) -> list:
        """The things of `kinds` (which have an `owner`) the player owns, in the game's order."""
        if len(kinds) == 1:  # the game keeps them (a list not to be changed)
            return game.actions.held_by(game, kinds[0], "owner", player)
        return [t for t in game.things if t.kind in kinds and t.f_owner is player]

    def _sell_for_cash(self, game, player, owed):
        if not game.rules.trade_kinds:
            return None
        worth = game.hints.worth
        mine = sorted(self._owned(game, player, game.rules.trade_kinds), key=lambda thing: worth(game, thing))
        buyers = sorted((p for p in game.active if p is not player), key=lambda p: -(_seen_cash(p) or 0))
        for thing in mine:
            for buyer in buyers:
                cash = _seen_cash(buyer)
                price = worth(game, thing) if cash is None else min(worth(game, thing), cash)
                if price <= 0:
                    continue
                offer = TradeOffer(player, buyer, (thing,), (), -price)
                if game.market.trade_is_legal(game, offer) and self._would_accept(game, buyer, offer):
                    return offer
        return None

    def _buy_to_complete(self, game, player):
        """Offer to buy the one missing member of a group the player nearly owns, at twice its worth."""
        kit = self._trade_kit  # asked in every window: what it needs of the game, found once a game
        if kit[0] is not game.state:
            kit = self._new_trade_kit(game)
        _, kinds, key_of, priced_every_time, twice_reserve, lowest = kit
        if kinds is None:  # nothing to trade, or trades without cash
            return None
        spare = player.f_cash - (twice_reserve if twice_reserve is not None else 2 * self.reserve(game))
        if spare <= 0 or spare < lowest:  # less than any price asked in this game: who sells what need not be known
            return None
        key = key_of(game.versions)  # the sum of the counters: they only grow, so it changes when one does
        known = self._sellers_known
        if known[0] is not player or known[1] != key or priced_every_time:  # (a player is of one game)
            known = self._sellers(game, player, kinds, key, priced_every_time)
        cheapest, sellers = known[2], known[3]
        if cheapest is None or cheapest > spare:  # the common case: nothing he could pay for
            return None
        for thing, owner, price in sellers:
            if price > spare:
                continue
            offer = TradeOffer(player, owner, (), (thing,), price)
            if game.market.trade_is_legal(game, offer):
                return offer
        return None

    def _new_trade_kit(self, game) -> tuple:
        """(game state, the kinds that may be traded or None, the key of what sellers depend on, whether
        they are priced every time (see `_find_seller_reads`), twice the reserve where the hint keeps
        it constant (else None: worked out each time), the lowest price a seller could ask in this game
        (see `_find_groups`)), kept as `_trade_kit`."""
        _, kinds, key_of, priced_every_time, priced_once = self._find_seller_reads(game.rules)
        reserve = self.reserve(game)
        constant = self._constant_reserve is not None and self._constant_reserve[0] is game.rules
        lowest = self._find_groups(game, kinds, priced_once)[2] if kinds is not None else _NO_PRICE
        self._trade_kit = (game.state, kinds, key_of, priced_every_time, 2 * reserve if constant else None, lowest)
        return self._trade_kit

    def _sellers(self, game, player, kinds, key, priced_every_time: bool) -> tuple:
        """(player, key, the lowest price, [(member, owner, price)]) for the one member the player lacks of
        each tradable group of two or more he nearly owns, in group order, where a player still in owns
        it, kept as `_sellers_known`. Asked at the end of every turn, it is mostly the same: it is found
        again only when an `owner` changed, a player left or what `worth` reads changed (`key`: the
        engine counts all three; a worth that reads uncounted state is priced every time)."""
        known = self._sellers_known
        if known[0] is not player or known[1] != key:
            sellers = []
            for thing in self._missing(game, player):
                owner = thing.f_owner
                if owner is not None and not owner.out:
                    sellers.append((thing, owner, game.hints.worth(game, thing) * 2))
        else:  # priced every time: the same members and owners, priced again
            sellers = [(thing, owner, game.hints.worth(game, thing) * 2) for thing, owner, _ in known[3]]
        self._sellers_known = known = (player, key, min([s[2] for s in sellers]) if sellers else None, sellers)
        return known

    def _missing(self, game, player) -> list:
        """The one member the player lacks of each tradable group he nearly owns, in group order: kept
        while what he owns stands (the engine counts changes of `owner` to or from him, by seat)."""
        version = game.versions[("owner", player.seat)]
        known = self._missing_known
        if known[0] is not player or known[1] != version:
            missing = [thing for thing in map(_only_missing, self._tradable_groups[1], repeat(player))
                       if thing is not None]  # (the groups found by `_buy_to_complete` for this game)
            known = self._missing_known = (player, version, missing)
        return known[2]

    def _find_groups(self, game, kinds, priced_once: bool) -> tuple:
        """(game state, its groups of two or more of a kind that may be traded, the lowest price a
        seller could ask for one of their members in this game where `worth` is of fixed data alone,
        else -inf), kept as `_tradable_groups`."""
        groups = [members for members in game.members.values() if len(members) >= 2 and members[0].kind in kinds]
        lowest = -_NO_PRICE
        if priced_once:  # the same in every game of these rules: worked out in the first
            known = _of_rules(game.rules)
            if "lowest price" not in known:
                worth = game.hints.worth
                known["lowest price"] = min((worth(game, thing) * 2 for members in groups for thing in members),
                                            default=_NO_PRICE)
            lowest = known["lowest price"]
        self._tradable_groups = (game.state, groups, lowest)
        return self._tradable_groups

    @staticmethod
    def _find_seller_reads(rules) -> tuple:
        """(rules, the kinds that may be traded or None where there are none or no trade takes cash,
        the key of what the sellers depend on: `owner`, who is out and what the `worth` hint reads,
        whether the hint reads uncounted state too, whether it reads fixed data alone), found once
        for these rules."""
        known = _of_rules(rules)
        if "seller reads" not in known:
            hint = rules.hints.get(HINT_WORTH)
            worth = hint.value.reads if hint is not None else frozenset()
            fixed = fixed_fields(rules.program)  # a worth of fixed data (a title's cost) is priced once
            changing = {r for r in worth if r != UNTRACKED and r not in fixed}
            reads = tuple(sorted({"owner", OUT} | changing))
            kinds = rules.trade_kinds if rules.trade_kinds and rules.trade_cash else None
            known["seller reads"] = (rules, kinds, counters_key(reads), UNTRACKED in worth,
                                     not changing and UNTRACKED not in worth)
        return known["seller reads"]

    def _would_accept(self, game, player, offer: TradeOffer) -> bool:
        received = sum(game.hints.worth(game, t) for t in offer.gives) + offer.cash
        given = sum(game.hints.worth(game, t) for t in offer.takes)
        cash = _seen_cash(player)  # (None: another player's hidden cash, asked by the proposer's agent)
        return received >= given and (cash is None or cash + min(0, offer.cash) >= self.reserve(game))

    def accept(self, game, player, offer):
        # The agent's own view: what it gets is what the proposer gives.
        return self._would_accept(game, player, offer) and not self._breaks_own_group(game, player, offer)

    def _breaks_own_group(self, game, player, offer) -> bool:
        for thing in offer.takes:
            for group, members in game.members.items():
                if thing in members and all(getattr(t, "f_owner", None) is player for t in members):
                    return True
        return False


_WRITTEN_OUT = HeuristicAgent.wanted_actions  # the one `wanted_for` writes out (a replacement is called as it is)


_LAST_RULES: list = [None, {}]  # [the last rules file the heuristic agent played, what it worked out from them]


def _of_rules(rules) -> dict:
    """What the heuristic agent works out from the rules alone (their hints, what a seller's price
    reads, the lowest price, `wanted_actions` written out), kept for the last rules file played:
    agents are made anew for each game, and simulate plays thousands of games of one file."""
    if _LAST_RULES[0] is not rules:
        _LAST_RULES[:] = rules, {}
    return _LAST_RULES[1]


def _relevance_of(rules):
    """`HeuristicAgent.wanted_actions` for `rules`, written out (agentgen.py) from `_relevance(rules)`:
    the actions wanted unless raising cash (those without a hint and those always wanted), those
    always wanted, and (name, C, A, B) for those whose hint it works out. Made once for the rules."""
    known = _of_rules(rules)
    if "wanted" not in known:
        entries = _relevance(rules)
        known["wanted"] = write_wanted(
            frozenset(name for name, hinted, condition, *_ in entries if not hinted or condition is None),
            frozenset(name for name, hinted, condition, *_ in entries if hinted and condition is None),
            tuple((name, *parts) for name, hinted, *parts in entries if hinted and parts[0] is not None))
    return known["wanted"]


def _relevance(rules) -> list:
    """Per action, what `HeuristicAgent.wanted_actions` works from: (name, whether it has a hint,
    and for a hint `if C then A else B` whose C reads no option and cannot fail, C and each branch:
    its value if it is a constant, the branch if it reads no option and cannot fail, else None;
    without such a hint, None three times: the action is always wanted)."""
    found = []
    for action in rules.actions:
        hint = rules.hints.get(action_hint(action.name))
        parts = hint.value.branches() if hint is not None and hint.var != "player" else None
        condition = parts[0] if parts is not None else None
        if parts is None or condition is None or hint.var in condition.locals or not condition.cannot_fail():
            found.append((action.name, hint is not None, None, None, None))
            continue
        branches: list = []
        for branch in parts[1:]:
            if hint.var in branch.locals or not branch.cannot_fail():
                branches.append(None)
            elif not branch.reads and not branch.locals:  # a constant (literals and parameters)
                branches.append(branch(None, {}))
            else:
                branches.append(branch)
        found.append((action.name, True, condition, *branches))
    return found


def _stamp(game) -> tuple:
    """Changes whenever anything an agent may decide by has changed: the turn and whose it is, the
    statements run in it, the engine's change counters (which only grow) and who is still in, and
    what the engine keeps of each player without a counter (debts, bids, hands, extra turns)."""
    return (game.state.turn, game.state.current, game.steps, sum(game.versions.values()), len(game.active),
            tuple((p.owing, p.bidding, len(p.hand), p.extra_turns) for p in game.state.players))


def _seen_cash(player) -> int | None:
    """The player's cash as the agent deciding may see it: None where it is hidden from it (blindfold.py)."""
    return None if "cash" in type(player).masked else player.f_cash


def _only_missing(members, player):
    """The one member of a group that `player` does not own, or None if none or several (a group of
    a kind that may be traded: its things have an `owner`, R0903)."""
    missing = None
    for member in members:
        if member.f_owner is not player:
            if missing is not None:
                return None
            missing = member
    return missing


_UNKNOWN = object()  # not looked up yet
_NO_PRICE = float("inf")  # the lowest price where nothing is for sale



class ScriptedAct(NamedTuple):
    """A scripted action: the action's name and its argument's name (None: it takes none)."""

    action: str
    argument: str | None


class ScriptedAgent(Agent):
    """Answers from per-decision queues: {"bid": [60, None], "act": [ScriptedAct(...)], "accept": [True]}
    (an `act` answer may also be given as an (action, argument) pair, or None to pass)."""

    def __init__(self, script: dict | None = None):
        self.script = {k: list(v) for k, v in (script or {}).items()}
        if "act" in self.script:
            self.script["act"] = [ScriptedAct(*a) if a is not None else None for a in self.script["act"]]  # None: pass
        self.offers: list = []  # trade offers to propose, each in the first window where it is legal

    def save(self) -> dict:
        """The answers not given yet (trade offers still to make are objects of the running game: not saved)."""
        return {"script": {k: [list(a) if isinstance(a, ScriptedAct) else a for a in v] for k, v in self.script.items()}}

    def restore(self, data: dict) -> None:
        self.script = {k: [ScriptedAct(*a) if k == "act" and a is not None else a for a in v]
                       for k, v in data["script"].items()}

    def _next(self, name):
        queue = self.script.get(name)
        if queue:
            return queue.pop(0)
        return None

    def bid(self, game, player, thing, low, high):
        answer = self._next("bid")
        if answer is not None and (isinstance(answer, bool) or not isinstance(answer, int)):
            raise AgentError(f"{player.name}'s scripted bid `{answer}` is not an amount")
        return answer

    def choose(self, game, player, name, options):
        answer = self._next(name)
        for option in options:
            if option == answer or getattr(option, "name", None) == answer:
                return option
        return options[0]

    def wants_window(self, game, player, own_turn):
        return bool(self.script.get("act")) or bool(self.offers)

    def act(self, game, player, options, raising):
        for offer in self.offers:
            if game.market.trade_is_legal(game, offer):
                self.offers.remove(offer)
                return offer
        wanted = self._next("act")
        if wanted is None:
            return None
        for option in options:
            argument = option.argument
            if option.action == wanted.action and (argument is None or getattr(argument, "name", argument) == wanted.argument):
                return option
        return None

    def accept(self, game, player, offer):
        answer = self._next("accept")
        return bool(answer)


AGENTS = {"random": RandomAgent, "heuristic": HeuristicAgent}


def agents_to_json(agents: dict) -> dict:
    """Every seat's agent state, to save beside `state_to_json` (seats as strings, as JSON keys are)."""
    return {str(seat): agent.save() for seat, agent in agents.items()}


def agents_from_json(agents: dict, data: dict) -> None:
    """Restore saved agent states into agents of the same kinds, made for the same seats."""
    for seat, agent in agents.items():
        agent.restore(data.get(str(seat), {}))


def make_agents(kind: str, seed, count: int) -> dict:
    cls = AGENTS[kind]
    return {seat: cls(seed, seat) for seat in range(count)}
