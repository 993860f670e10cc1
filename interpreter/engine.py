"""The running game: state, dice, movement, money, decisions, auctions, trades, debt, turns.

`Game` is what compiled rules act on. Every change goes through one of its methods,
which applies the change and appends an event carrying the rule (file:line) that
asked for it. Randomness comes from one seeded generator per game; decisions are
put to agents with only legal options, so the same file, seed and agents always give
the same event log. A step budget per turn stops rules that loop.
"""

from __future__ import annotations

import itertools
import random
from typing import NamedTuple

import attrs

from .codegen import GLOBAL, OUT, POSITION, UNTRACKED
from .errors import GameEnded, RuleRuntimeError, StepBudgetExceeded, TurnEnded
from .rules import Rules
from .state import Bank, GameState, Held, Player, Square, Thing

STEP_BUDGET = 20_000  # statements one turn may run before the rules are judged to loop
MAX_DEPTH = 40  # moves and draws nested inside each other, well within Python's stack
DEFAULT_TURN_LIMIT = 10_000  # for games whose header sets no `turn limit`: a game must end
MAX_WINDOW_ACTIONS = 30  # actions and trade offers one player may make in one window


@attrs.frozen
class Roll:
    faces: tuple
    total: int
    doubles: bool


@attrs.frozen
class Sale:
    winner: Player
    price: int


class ActionChoice(NamedTuple):
    """One legal action an agent may pick in an action window (a tuple: made by the thousand)."""

    action: str
    argument: Thing | None


@attrs.frozen
class TradeOffer:
    """A proposed trade: `proposer` gives `gives` and `cash` (negative: receives) for `takes`."""

    proposer: Player
    partner: Player
    gives: tuple
    takes: tuple
    cash: int


class AgentError(Exception):
    """An agent answered a decision with something the rules do not allow."""


class Game:
    def __init__(self, rules: Rules, players, seed: int = 0, agents=None, record: bool = True,
                 rng: random.Random | None = None, turn_limit: int | None = None):
        self.rules = rules
        self.seed = seed
        names = [f"P{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        low, high = rules.players_range
        if not low <= len(names) <= high:
            raise ValueError(f"{rules.title} is for {low} to {high} players, not {len(names)}")
        self.record = record
        self.turn_limit = turn_limit or rules.turn_limit or DEFAULT_TURN_LIMIT
        self.events: list = []
        self.steps = 0
        self.depth = 0
        self.forced_dice: list = []
        self.forced_cards: dict = {}
        self.observer = None
        self.started = False
        # Change counters per field name (and codegen's markers), and the legal actions
        # computed under them: see `legal_actions`.
        self.versions: dict = {}
        self.action_cache: dict = {}
        self.cache_actions = True
        self.last_node = None  # the statement running now, for errors raised by the engine

        self.squares = rules.squares
        self.things = [Thing(name, rules.thing_kinds[name], {}) for name in rules.thing_names]
        self.by_name = {t.name: t for t in self.things}
        self.board = [self.by_name.get(n) or self.squares[n] for n in rules.board]
        self.ring = len(self.board)  # squares past the ring's end are off the board
        self.board += [self.squares[n] for n in rules.off_board]
        for i, occupant in enumerate(self.board):
            if isinstance(occupant, Thing):
                occupant.index = i
        self.square_list = list(dict.fromkeys(self.board))  # each square once, in board order
        self.kind_things: dict = {}
        for t in self.things:
            self.kind_things.setdefault(t.kind, []).append(t)
        state = GameState(players=[], things=self.things, globals={}, bank=Bank(0, rules.bank_unlimited),
                          decks={}, discards={}, rng=rng if rng is not None else random.Random(seed))
        self.state = state
        for t in self.things:
            t.f.update({field: cell(self, {}) for field, cell in rules.thing_cells[t.name].items()})
            t.f.update({field: default(self, {}) for field, default in rules.state_defaults.get(t.kind, {}).items()})
        self.members: dict = {}
        for group, (kind, field) in rules.group_fields.items():
            for g in self.kind_things.get(group, []):
                self.members[g] = [t for t in self.kind_things.get(kind, []) if t.f.get(field) is g]
        if rules.bank_amount is not None:
            state.bank.balance = rules.bank_amount(self, {})
        start = rules.board.index(rules.start)
        for seat, name in enumerate(names):
            state.players.append(Player(seat=seat, name=name, f={}, at=start))
        for p in state.players:
            p.f = {field: default(self, {"player": p}) for field, default in rules.player_defaults.items()}
        state.globals = {k: d(self, {}) for k, d in rules.global_defaults.items()}
        for name, (policy, cards) in rules.decks.items():
            order = [c.name for c in cards]
            state.rng.shuffle(order)
            state.decks[name] = order
            state.discards[name] = []
        self.cards = {name: {c.name: c for c in cards} for name, (_, cards) in rules.decks.items()}
        self.active = list(state.players)
        self.land_handlers = [self._handlers_for(rules.land, o) for o in self.board]
        self.pass_handlers = [self._handlers_for(rules.passing, o) for o in self.board]
        self.agents = agents if agents is not None else {}

    def _handlers_for(self, table: dict, occupant) -> list:
        handlers = list(table.get(occupant.name, []))
        if isinstance(occupant, Thing):
            handlers = table.get(occupant.kind, []) + handlers
        return handlers

    # ---- events and budget -------------------------------------------------------------------
    def emit(self, kind: str, where: str, *payload) -> None:
        if self.record:
            self.events.append((self.state.turn, kind, where, payload))
        if self.observer is not None:
            self.observer(self, kind, where, payload)

    def tick(self, where: str, node) -> None:
        self.last_node = node
        self.steps += 1
        if self.steps > STEP_BUDGET:
            raise StepBudgetExceeded(
                f"the rules ran {STEP_BUDGET:,} statements in one turn without finishing it; they seem to loop",
                node.span.file or self.rules.path, node.span,
                help="look for a handler that triggers itself (a move that lands on a move)")

    def error(self, message: str, help: str | None = None, budget: bool = False) -> RuleRuntimeError:
        """An error at the statement running now."""
        span = self.last_node.span if self.last_node is not None else None
        cls = StepBudgetExceeded if budget else RuleRuntimeError
        return cls(message, (span.file if span is not None else None) or self.rules.path, span, help)

    def agent(self, player: Player):
        return self.agents[player.seat]

    # ---- queries used by compiled rules -------------------------------------------------------
    def iterate(self, value):
        if value is None:
            return ()
        if isinstance(value, Thing):
            return self.members.get(value, ())
        return value

    def worth(self, thing: Thing) -> int:
        """The heuristic value of a thing: the `worth` hint if the rules give one."""
        hint = self.rules.hints.get("worth")
        if hint is None or not isinstance(thing, Thing) or thing.kind != self.rules.hint_kinds.get("worth"):
            return 0
        var, fn = hint
        return fn(self, {var: thing})

    def hint(self, name: str, default):
        hint = self.rules.hints.get(name)
        if hint is None or hint[0] is not None:
            return default
        return hint[1](self, {})

    # ---- dice and movement ---------------------------------------------------------------------
    def roll(self, player, count: int, where: str) -> Roll:
        if self.forced_dice:
            faces = tuple(self.forced_dice.pop(0))
            if len(faces) != count:
                raise self.error(f"the scenario forced {len(faces)} dice but the rule rolls {count}")
        else:
            rnd = self.state.rng.random
            faces = tuple(int(rnd() * 6) + 1 for _ in range(count))
        result = Roll(faces, sum(faces), count > 1 and len(set(faces)) == 1)
        self.emit("roll", where, player.name if player is not None else None, list(faces))
        return result

    def move(self, player: Player, how: str, amount, where: str) -> None:
        n = self.ring
        start = player.at
        if how in ("to", "send", "place"):
            if isinstance(amount, Thing):
                if amount.index is None:
                    raise self.error(f"`{amount.name}` is not on the board")
                target = amount.index
            else:
                ring_start = start if start < n else -1
                target = next(((ring_start + k) % n for k in range(1, n + 1)
                               if self.board[(ring_start + k) % n] is amount), None)
                if target is None and amount in self.board[n:]:
                    target = self.board.index(amount, n)
                if target is None:
                    raise self.error(f"`{amount.name}` is not on the board, so no one can move there")
            # Into or out of a place off the ring a token goes straight there, passing nothing.
            steps = 0 if target >= n or start >= n else (target - start) % n
            dest = target
        else:
            if start >= n:
                raise self.error(f"{player.name} is at `{self.board[start].name}`, off the board; "
                                 "a token leaves it only with `move … to`")
            steps = amount if how == "by" else -amount
            dest = (start + steps) % n
        self.emit("move", where, player.name, self.board[start].name, self.board[dest].name, steps)
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"moves trigger moves more than {MAX_DEPTH} deep; the rules seem to loop",
                             help="look for a handler whose move lands on a square that moves again", budget=True)
        if how == "place":
            player.at = dest
            self._changed(POSITION)
            self.depth -= 1
            return
        try:
            if steps > 0 and how != "send":
                for k in range(1, steps + 1):
                    idx = (start + k) % n
                    handlers = self.pass_handlers[idx]
                    if handlers:
                        self.emit("pass", where, player.name, self.board[idx].name)
                        self._fire(handlers, player, self.board[idx], where)
            player.at = dest
            self._changed(POSITION)
            occupant = self.board[dest]
            self.emit("land", where, player.name, occupant.name)
            self._fire(self.land_handlers[dest], player, occupant, where)
        finally:
            self.depth -= 1

    def _fire(self, handlers, player: Player, occupant, where: str) -> None:
        """Run the handlers whose conditions hold on arrival: all are tested before any runs,
        so one handler's effect (an auction selling the square) cannot trigger the next."""
        matched = []
        for h in handlers:
            env = {"player": player}
            if h.var is not None:
                env[h.var] = occupant
            if h.when is None or h.when(self, env):
                matched.append((h, env))
        for h, env in matched:
            h.body(self, env)

    # ---- money ------------------------------------------------------------------------------------
    def pay(self, amount: int, source, target, where: str) -> None:
        if amount == 0 or source is target:
            return
        if isinstance(source, Player):
            if source.out:
                raise self.error(f"{source.name} is out of the game and cannot pay")
            if source.f["cash"] < amount and not self._resolve_debt(source, target, amount, where):
                return
            source.f["cash"] -= amount
        else:
            source.balance -= amount
            if not source.unlimited and source.balance < 0:
                raise self.error("the bank has run out of money",
                                 help="declare `bank unlimited`, or a rule for what happens when it runs dry")
        if isinstance(target, Player):
            target.f["cash"] += amount
        else:
            target.balance += amount
        self._changed("cash")
        self.emit("pay", where, amount, source.name, target.name)

    def _resolve_debt(self, debtor: Player, creditor, owed: int, where: str) -> bool:
        """Run `on debt`; True if the debtor can now pay, False if he left the game."""
        self.emit("debt", where, debtor.name, creditor.name, owed)
        if not self.rules.debt:
            raise self.error(f"{debtor.name} owes {owed} but has {debtor.f['cash']}, and the rules have no `on debt`",
                             help="add `on debt:` saying what happens")
        env = {"player": debtor, "debtor": debtor, "creditor": creditor, "owed": owed}
        for h in self.rules.debt:
            if h.when is None or h.when(self, env):
                h.body(self, env)
            if debtor.out:
                return False
        if debtor.f["cash"] < owed:
            raise self.error(f"`on debt` left {debtor.name} owing {owed} with {debtor.f['cash']} in cash",
                             help="end `on debt` by eliminating a debtor who is still short")
        return True

    def raise_cash(self, debtor: Player, owed: int, where: str) -> None:
        debtor.owing = owed
        try:
            self.window(debtor, raising=owed)
        finally:
            debtor.owing = 0

    # ---- state changes --------------------------------------------------------------------------------
    def set_field(self, target, field: str, value, where: str) -> None:
        old = target.f.get(field)
        target.f[field] = value
        self._changed(field)
        self.emit("set", where, target.name, field, _name(old), _name(value))

    def set_global(self, name: str, value, where: str) -> None:
        old = self.state.globals.get(name)
        self.state.globals[name] = value
        self._changed(GLOBAL + name)
        self.emit("set", where, "global", name, _name(old), _name(value))

    def _take(self, deck: str) -> str | None:
        """The next card of a deck, by its policy (or as a scenario forces it); None if none is left."""
        policy, _ = self.rules.decks[deck]
        state = self.state
        pile = state.decks[deck]
        forced = self.forced_cards.get(deck)
        if forced:
            name = forced.pop(0)
            if policy != "cut":
                if name not in pile:
                    raise self.error(f"the scenario forces card `{name}`, but no copy of it is left in `{deck}`")
                pile.remove(name)
            return name
        if policy == "cut":
            return pile[int(state.rng.random() * len(pile))]
        if not pile and policy == "reshuffle":
            pile.extend(state.discards[deck])
            state.discards[deck].clear()
            state.rng.shuffle(pile)
        return pile.pop(0) if pile else None

    def _to_discards(self, deck: str, name: str) -> None:
        if self.rules.decks[deck][0] != "cut":
            self.state.discards[deck].append(name)

    def draw(self, deck: str, player: Player, where: str) -> None:
        """Draw a card: a kept card goes to the hand; any other is discarded and its effect runs.
        The card is in its new place before the `draw` event, so cards are always accounted for."""
        name = self._take(deck)
        if name is None:
            return
        card = self.cards[deck][name]
        if card.keep:
            held = Held(deck, name)
            player.hand.append(held)  # in his hand while he decides
            self.emit("draw", where, player.name, deck, name)
            if self.choose(player, "keep", ["keep", "use"], where) == "keep":
                return
            player.hand.remove(held)
            self._to_discards(deck, name)
        else:
            self._to_discards(deck, name)
            self.emit("draw", where, player.name, deck, name)
        self._run_card(card, player)

    def _run_card(self, card, player: Player) -> None:
        """Run a card's effect (the card itself is already where it goes: the discard pile)."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"cards draw cards more than {MAX_DEPTH} deep; the rules seem to loop",
                             help="look for a card whose effect draws from its own deck again", budget=True)
        try:
            card.body(self, {"player": player})
        finally:
            self.depth -= 1

    def discard(self, deck: str, where: str) -> None:
        name = self._take(deck)
        if name is not None:
            self._to_discards(deck, name)
            self.emit("discard", where, deck, name)

    def use_card(self, player: Player, where: str) -> None:
        """The player uses one card he kept: its effect runs, then it is discarded."""
        if not player.hand:
            return
        held = self.choose(player, "use card", list(player.hand), where)
        player.hand.remove(held)
        self._to_discards(held.deck, held.card)
        self.emit("use", where, player.name, held.deck, held.card)
        self._run_card(self.cards[held.deck][held.card], player)

    def run_procedure(self, body, env: dict, where: str) -> None:
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"procedures call procedures more than {MAX_DEPTH} deep; the rules seem to loop",
                             budget=True)
        try:
            body(self, env)
        finally:
            self.depth -= 1

    def discard_held(self, player: Player, held: Held, where: str, to: Player | None = None) -> None:
        """A kept card leaves its holder: to the discard pile, or (`to`) into another's hand."""
        if held not in player.hand:
            return
        player.hand.remove(held)
        if to is not None:
            to.hand.append(held)
            self.emit("give", where, player.name, to.name, held.deck, held.card)
        else:
            self._to_discards(held.deck, held.card)
            self.emit("discard", where, held.deck, held.card)

    def play_card(self, player: Player, held: Held, where: str) -> None:
        """Another card's effect, for a wild card: the card itself stays where it is."""
        self.emit("use", where, player.name, held.deck, held.card)
        self._run_card(self.cards[held.deck][held.card], player)

    def ahead(self, player: Player) -> list:
        """The board's squares from the one after the player's, once round, in moving order."""
        n = self.ring
        at = player.at if player.at < n else -1
        return [self.board[(at + k) % n] for k in range(1, n + 1)]

    def open_window(self, player: Player, where: str) -> None:
        """`window for P`: an action window in the middle of the turn, if P's agent wants one."""
        if not player.out and self.agent(player).wants_window(self, player, player.seat == self.state.current):
            self.window(player)

    def extra_turn(self, player: Player, where: str) -> None:
        player.extra_turns += 1
        self.emit("extra", where, player.name)

    def eliminate(self, player: Player, where: str) -> None:
        if player.out:
            return
        player.out = True
        self._changed(OUT)
        self.active = [p for p in self.state.players if not p.out]
        self.emit("eliminate", where, player.name)
        for h in self.rules.eliminate:
            env = {"player": player}
            if h.when is None or h.when(self, env):
                h.body(self, env)
        self.check_end()
        if player is self.state.players[self.state.current]:
            raise TurnEnded()

    def end_turn(self, where: str) -> None:
        raise TurnEnded()

    def end_game(self, reason: str, winner, where: str) -> None:
        state = self.state
        state.over = True
        state.winner = winner
        state.end_reason = reason
        self.emit("end", where, reason, winner.name if winner is not None else None)
        raise GameEnded()

    def check_end(self) -> None:
        for condition, winner, reason, where in self.rules.ends:
            if condition(self, {}):
                self.end_game(reason, winner(self, {}), where)

    # ---- decisions ----------------------------------------------------------------------------------
    def choose(self, player: Player, name: str, options: list, where: str):
        picked = self.agent(player).choose(self, player, name, options)
        if picked not in options:
            raise AgentError(f"{player.name}'s agent chose {picked!r} for `{name}`; legal: {options}")
        self.emit("choose", where, player.name, name, _name(picked))
        return picked

    def auction(self, thing, minimum: int, bidders, where: str):
        """Open ascending auction: bidders in turn raise or drop out until one bid stands."""
        current = self.state.players[self.state.current]
        order = sorted((p for p in bidders if not p.out), key=lambda p: (p.seat - current.seat) % len(self.state.players))
        self.emit("auction", where, thing.name, minimum, [p.name for p in order])
        high, price = None, minimum - 1
        active = [p for p in order if p.f["cash"] >= minimum]
        while active and not (len(active) == 1 and active[0] is high):
            for bidder in list(active):
                if bidder is high:
                    continue
                low = price + 1 if high is not None else minimum
                cash = bidder.f["cash"]
                if cash < low:
                    active.remove(bidder)
                    continue
                bid = self.agent(bidder).bid(self, bidder, thing, low, cash)
                if bid is None:
                    active.remove(bidder)
                    continue
                if not low <= bid <= cash:
                    raise AgentError(f"{bidder.name}'s agent bid {bid}; legal bids are {low} to {cash}")
                high, price = bidder, bid
                self.emit("bid", where, bidder.name, bid)
                if len(active) == 1:
                    break
        if high is None:
            self.emit("unsold", where, thing.name)
            return None
        self.emit("sold", where, thing.name, high.name, price)
        return Sale(high, price)

    # ---- action windows and trades --------------------------------------------------------------------
    def _changed(self, name: str) -> None:
        self.versions[name] = self.versions.get(name, 0) + 1

    def legal_actions(self, player: Player, own_turn: bool, raising: bool = False) -> list:
        """Every legal (action, argument) for the player now.

        An action's condition is re-evaluated only when something it reads has changed
        since it was last evaluated for this player (the codegen lists what each condition
        reads; the engine counts changes); otherwise the previous answer stands."""
        options = []
        for action in self.rules.actions:
            if action.timing == "own turn" and not own_turn:
                continue
            reads = action.when.reads if action.when is not None else frozenset()
            if self.cache_actions and UNTRACKED not in reads:
                # Counters only grow, so their sum changes exactly when one of them does.
                key = sum(map(self.versions.get, action.sorted_reads, _ZEROS))
                cached = self.action_cache.get((action.name, player.seat))
                if cached is not None and cached[0] == key:
                    options.extend(cached[1])
                    continue
                found = self._legal(action, player)
                self.action_cache[(action.name, player.seat)] = (key, found)
                options.extend(found)
            else:
                options.extend(self._legal(action, player))
        return options

    def _legal(self, action, player: Player) -> list:
        if action.var is None:
            if action.when is None or action.when(self, {"player": player}):
                return [ActionChoice(action.name, None)]
            return []
        options = []
        env = {"player": player}
        candidates = self.kind_things.get(action.kind, ())
        if action.prefilter is not None:
            field = action.prefilter
            candidates = [t for t in candidates if t.f[field] is player]
        for thing in candidates:
            env[action.var] = thing
            if action.when is None or action.when(self, env):
                options.append(ActionChoice(action.name, thing))
        return options

    def perform(self, player: Player, choice: ActionChoice) -> None:
        action = next(a for a in self.rules.actions if a.name == choice.action)
        env = {"player": player}
        if action.var is not None:
            env[action.var] = choice.argument
        self.emit("action", action.where, player.name, action.name,
                  choice.argument.name if choice.argument is not None else None)
        action.body(self, env)

    def trade_is_legal(self, offer: TradeOffer) -> bool:
        rules = self.rules
        if not rules.trade_kinds or offer.partner is offer.proposer or offer.partner.out or offer.proposer.out:
            return False
        if not (offer.gives or offer.cash > 0) or not (offer.takes or offer.cash < 0):
            return False  # a trade has two sides: nothing may be given, or lent, for nothing
        if offer.cash and not rules.trade_cash:
            return False
        payer, amount = (offer.proposer, offer.cash) if offer.cash >= 0 else (offer.partner, -offer.cash)
        if payer.f["cash"] < amount:
            return False
        for thing, owner in [(t, offer.proposer) for t in offer.gives] + [(t, offer.partner) for t in offer.takes]:
            if thing.kind not in rules.trade_kinds or thing.f.get("owner") is not owner:
                return False
        if rules.trade_when is not None:
            return bool(rules.trade_when(self, {"player": offer.proposer, "partner": offer.partner}))
        return True

    def trade(self, offer: TradeOffer, where: str) -> bool:
        if not self.trade_is_legal(offer):
            raise AgentError(f"{offer.proposer.name}'s agent offered a trade the rules do not allow: {offer}")
        if not self.agent(offer.partner).accept(self, offer.partner, offer):
            return False
        self.emit("trade", where, offer.proposer.name, offer.partner.name, [t.name for t in offer.gives],
                  [t.name for t in offer.takes], offer.cash)
        for t in offer.gives:
            self.set_field(t, "owner", offer.partner, where)
        for t in offer.takes:
            self.set_field(t, "owner", offer.proposer, where)
        if offer.cash > 0:
            self.pay(offer.cash, offer.proposer, offer.partner, where)
        elif offer.cash < 0:
            self.pay(-offer.cash, offer.partner, offer.proposer, where)
        return True

    def window(self, player: Player, raising: int | None = None) -> None:
        """Let a player act: legal actions and trade offers, until the agent passes.

        At the end of a turn every player whose agent `wants_window` gets one; a debtor
        raising cash (`raising` = what he owes) gets one until the debt is covered."""
        own_turn = player is self.state.players[self.state.current]
        trade_where = self.rules.trade_where
        for _ in range(MAX_WINDOW_ACTIONS):
            if player.out or (raising is not None and player.f["cash"] >= raising):
                return
            options = self.legal_actions(player, own_turn, raising is not None)
            choice = self.agent(player).act(self, player, options, raising)
            if choice is None:
                return
            if isinstance(choice, TradeOffer):
                self.trade(choice, trade_where)
            elif choice in options:
                self.perform(player, choice)
            else:
                raise AgentError(f"{player.name}'s agent chose {choice!r}, which is not a legal action now")

    # ---- turns ---------------------------------------------------------------------------------------------
    def setup(self) -> None:
        """Choose the first player as the header says."""
        self.started = True
        state = self.state
        self.emit("setup", "", [p.name for p in state.players], self.seed)
        rule = self.rules.first_player
        if rule[:2] == ("highest", "roll"):
            count = int(rule[2]) if len(rule) > 2 and rule[2].isdigit() else 2
            contenders = list(state.players)
            rolls = {}
            while len(contenders) > 1:
                rolls = {p: sum(self.roll(p, count, "").faces) for p in contenders}
                best = max(rolls.values())
                contenders = [p for p in contenders if rolls[p] == best]
            state.current = contenders[0].seat
            self.emit("first", "", state.players[state.current].name, {p.name: t for p, t in rolls.items()})
            return
        self.emit("first", "", state.players[state.current].name, None)

    def play_turn(self) -> None:
        state = self.state
        player = state.players[state.current]
        state.turn += 1
        self.steps = 0
        self.emit("turn", "", player.name)
        env = {"player": player}
        rules = self.rules
        try:
            for h in rules.hooks["before"]:
                if h.when is None or h.when(self, env):
                    h.body(self, env)
            for name, when, optional, body, where in rules.phases:
                if when is not None and not when(self, env):
                    continue
                if optional and self.choose(player, name, ["play", "skip"], where) == "skip":
                    continue
                self.emit("phase", where, name)
                body(self, env)
        except TurnEnded:
            pass
        if not player.out:
            try:
                for h in rules.hooks["after"]:
                    if h.when is None or h.when(self, env):
                        h.body(self, env)
            except TurnEnded:
                pass
        if rules.actions or rules.trade_kinds:
            seat = self.active.index(player) if player in self.active else 0
            for p in self.active[seat:] + self.active[:seat]:
                if not self.agents[p.seat].wants_window(self, p, p is player):
                    continue
                try:
                    self.window(p)
                except TurnEnded:
                    pass
        self.check_end()
        if self.turn_limit is not None and state.turn >= self.turn_limit:
            self.end_game("turn limit", None, "")
        self._advance()

    def _advance(self) -> None:
        state = self.state
        player = state.players[state.current]
        if player.extra_turns and not player.out:
            player.extra_turns -= 1
            return
        n = len(state.players)
        for k in range(1, n + 1):
            p = state.players[(state.current + k) % n]
            if not p.out:
                state.current = p.seat
                return

    def play(self) -> GameState:
        """Play from the start to the end of the game."""
        try:
            if not self.started:
                self.setup()
            while True:
                self.play_turn()
        except GameEnded:
            pass
        return self.state


_ZEROS = itertools.repeat(0)


def _name(value):
    if isinstance(value, (Player, Thing, Square, Held)):
        return value.name
    if isinstance(value, Bank):
        return "bank"
    return value
