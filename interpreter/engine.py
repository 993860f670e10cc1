"""The running game: state, dice, movement, money, debt, turns, and the agents it asks.

`Game` is what compiled rules act on. Every change goes through one of its methods, or one of
its collaborators' (`decks`: the cards, decks.py; `market`: auctions and trades, market.py;
`actions`: the legal actions and the windows to take them in, actions.py; `hints`: what the rules
advise the agents, hints.py), which applies the change and appends an event carrying the rule
(its `RuleRef`: file and line) that asked for it. Randomness comes from one seeded generator per
game; decisions are put to agents with only legal options, so the same file, seed and agents
always give the same event log. A step budget per turn stops rules that loop.

The game owns its collaborators, and they keep no reference to it: each of their methods is
handed the game, `g`, as generated code names it. A collaborator that kept its game would make
the two a reference cycle, and a game dropped (a simulation drops thousands) would then wait for
Python's cycle collector, which `play` pauses, instead of being freed at once by reference
counting.
"""

from __future__ import annotations

import gc
import random
from collections import defaultdict
from typing import Callable

from . import operations
from .actions import Actions
from .agents import Agent
from .blindfold import consulted
from .decks import Decks
from .errors import (MAX_DEPTH, MAX_DICE, MAX_MOVE, STEP_BUDGET, AgentError, GameEnded, RuleRuntimeError,
                     StepBudgetExceeded, TurnEnded)
from .hints import Hints
from .market import Market
from .events import NO_RULE, EventLog, RuleRef
from .reads import COUNTED, GLOBAL, OUT, POSITION, UNTRACKED, counters_key
from .rules import Rules
from .starting import lay_out
from .state import ONE_DIE, Account, Copy, GameState, Player, Roll, Square, Thing, field_attr, name_of

DEFAULT_TURN_LIMIT = 10_000  # for games whose header sets no `turn limit`: a game must end
OWING = COUNTED + "owing"  # the change counter of players' `owing`


class Game:
    """One game of a `Rules`: its state, and every change to it (the cards, the market, the actions
    and the hints through the collaborators it owns: `decks`, `market`, `actions`, `hints`)."""

    # Every attribute a game has, as slots: the generated code reads `g.…` more than anything else,
    # and an object with this many attributes in a `__dict__` is read through its dict's hash table
    # (Python shares the keys of instance dicts of up to 30 only), where a slot is read in place. Those
    # read every turn come first, so that they share the object's first cache lines.
    __slots__ = (
        "state", "emitting", "event_sink", "_record", "_observer", "events", "steps", "last_node", "depth", "versions",
        "board", "land_fire", "pass_ahead", "pass_fire", "ring", "stops", "agents", "rules", "forced_dice",
        "on_settled", "all_quiet", "active", "phase_at", "actions", "decks", "market", "square_places",
        "hints", "_ends_false_at", "_end_key", "_end_reads", "define_answers", "masking", "moving_roll",
        "move_marks", "members", "kind_things", "adjacent", "things", "by_name", "squares", "square_list",
        "_blindfolds", "rules_running", "started", "paid_by_rule", "first_seat", "turn_limit",
        "seed",
    )
    # Where each event goes while `emitting` (see `_sink`). It is None while not, and is called only where
    # `emitting` is true: a test each event's maker makes anyway, which its type cannot tell.
    event_sink: Callable[[tuple], object]
    _observer: Callable[[Game, str, RuleRef, tuple], object] | None
    # Set out by `lay_out` (starting.py), with the pieces of a new game:
    state: GameState
    squares: dict[str, Square]  # the special squares by name
    things: list[Thing]
    by_name: dict[str, Thing]
    board: list[Thing | Square]  # each place of the ring, then those off it
    ring: int  # the places on the ring (`board[:ring]`)
    stops: frozenset[int]  # the places of the `stop` squares
    square_places: dict[Square, tuple[int, ...]]  # each square's places on the ring, in order
    square_list: list[Thing | Square]  # each square once, in board order
    kind_things: dict[str, list[Thing]]
    members: dict[Thing, list[Thing]]  # each group's
    adjacent: dict[Thing, list[Thing]]  # each square of a board graph's neighbours (`neighbours(x)`)

    def __init__(self, rules: Rules, players, seed: int = 0, agents=None, record: bool = True,
                 rng: random.Random | None = None, turn_limit: int | None = None):
        self.rules = rules
        self.seed = seed
        names = [f"P{i + 1}" for i in range(players)] if isinstance(players, int) else list(players)
        low, high = rules.players_range
        if not low <= len(names) <= high:
            raise ValueError(f"{rules.title} is for {low} to {high} players, not {len(names)}")
        self._record = record
        self._observer = None
        self.turn_limit = turn_limit or rules.turn_limit or DEFAULT_TURN_LIMIT
        self.events = EventLog()
        self._sink()  # `emitting`: True when an event would be recorded or observed; `event_sink` (see `emit`)
        # Tools that need only a game's figures, not its log (simulate, diff, sweep), play with events
        # off and read these: the money paid by each rule (when set to a dict before play) and the
        # seat that moved first (set by `setup`).
        self.paid_by_rule: dict | None = None
        self.first_seat: int | None = None
        self.steps = 0
        self.depth = 0
        self.forced_dice: list = []
        # `on_settled`, when set (by the property checker), is called whenever a rule's body has
        # finished and no other rule is running: the game is settled there. `rules_running` counts
        # the rule bodies under way (see stmtgen.write_settling).
        self.on_settled = None
        self.rules_running = 0
        self.started = False
        self.phase_at = -1  # the phase the current turn has reached: -1 before the first, len(phases) after the last
        # Change counters per field name (and the read markers of reads.py), which what is kept (legal
        # actions, worths, end conditions) is kept under. A counter not yet moved counts 0, read as
        # `versions[name]` (a subscript, not a call of `get`: generated code reads them all the time).
        self.versions: defaultdict = defaultdict(int)
        self.last_node = None  # the statement running now, for errors raised by the engine
        self.moving_roll = None  # while a move's handlers run: the roll that moved the token (`moved_by`) ...
        self.move_marks: frozenset[str] = frozenset()  # ... and the move's marks (`move … with double_rent`)

        lay_out(self, rules, names, rng if rng is not None else random.Random(seed))  # the pieces (starting.py)
        self.decks = Decks(self, rules)  # (the decks shuffled here, after the defaults: the generator's order)
        self.market = Market()
        self.actions = Actions(rules, len(self.state.players))
        self.hints = Hints(rules)
        self.active = list(self.state.players)
        written = rules.written
        assert written is not None  # (`compile_rules` writes it)
        self.land_fire = written.land  # board index -> the arrival's handlers, written out (turngen.py)
        self.pass_fire = written.passing
        self.pass_ahead = written.pass_ahead
        end_reads = frozenset().union(*(end.condition.reads for end in rules.ends))
        self._end_reads = tuple(sorted(end_reads)) if UNTRACKED not in end_reads else None
        self._end_key = counters_key(self._end_reads) if self._end_reads is not None else None
        self._ends_false_at: int | None = None  # the change counters' sum when the end conditions were last all false
        self.agents = agents if agents is not None else {}
        self._blindfolds: dict = {}  # seat -> the agent's blindfold (see `agent`)
        # While `play` plays: whether every agent speaks only in its own turn (keeps `Agent.wants_window`),
        # so that the turn's end opens the player's window alone without asking the others (turngen.py).
        self.all_quiet = False
        self.masking: str | None = None  # whose agent answers blindfolded now (blindfold.py): defines keep its answers apart
        self.define_answers: dict = {}  # the answers defines keep while what they read stands (kept.py)

    # ---- events and budget -------------------------------------------------------------------
    # An event is made only when something takes it: the log (`record`) or an `observer` (the
    # property checker, coverage, replay, play). Every caller tests `emitting` first, so that with
    # events off not even the payload (names, lists) is built, then hands the event, a tuple
    # `(turn, kind, rule, *payload)`, to `event_sink`: the log's own list's `extend` when only the
    # log takes events (a call of a list method, no Python function between), else `_take_event`.
    @property
    def record(self) -> bool:
        return self._record

    @record.setter
    def record(self, value: bool) -> None:
        self._record = value
        self._sink()

    @property
    def observer(self):
        """Called as `observer(game, kind, rule, payload)` after every event, recorded or not."""
        return self._observer

    @observer.setter
    def observer(self, value) -> None:
        self._observer = value
        self._sink()

    def _sink(self) -> None:
        self.emitting = self._record or self._observer is not None
        self.event_sink = self._take_event if self._observer is not None else self.events.values.extend \
            if self._record else None  # type: ignore[assignment]  # (None while not emitting: see `event_sink`)

    def _take_event(self, event: tuple) -> None:
        """An event for the log, if it records, and for the observer."""
        if self._record:
            self.events.append(event)
        self._observer(self, event[1], event[2], event[3:])  # type: ignore[misc]  # (the sink only with an observer)

    def emit(self, kind: str, where: RuleRef, *payload) -> None:
        if self.emitting:
            self.event_sink((self.state.turn, kind, where, *payload))

    def tick(self, where: RuleRef, node) -> None:
        self.last_node = node
        self.steps += 1
        if self.steps > STEP_BUDGET:
            self.over_budget(node)

    def over_budget(self, node) -> None:
        """The step budget is spent (compiled statements count their steps themselves, then call this)."""
        raise StepBudgetExceeded(
            f"the rules ran {STEP_BUDGET:,} statements in one turn without finishing it; they seem to loop",
            node.span.file or self.rules.path, node.span,
            help="look for a handler that triggers itself (a move that lands on a move)")

    def error(self, message: str, help: str | None = None, budget: bool = False) -> RuleRuntimeError:
        """An error at the statement running now."""
        span = self.last_node.span if self.last_node is not None else None
        cls = StepBudgetExceeded if budget else RuleRuntimeError
        return cls(message, (span.file if span is not None else None) or self.rules.path, span, help)

    def descend(self, what: str, help: str | None = None) -> None:
        """One level deeper in rules that set off rules (a move's handlers, a card, a procedure, a debt,
        a window); the caller comes back up with `depth -= 1`. Too deep means the rules loop, and is
        reported as such before Python's own stack runs out."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise self.error(f"{what} more than {MAX_DEPTH} deep; the rules seem to loop", help=help, budget=True)

    def agent(self, player: Player):
        """The agent that answers for `player`, blindfolded to the others' hidden fields (blindfold.py)."""
        agent = self.agents[player.seat]
        if not self.rules.hidden_fields:  # no hidden field: as it is
            return agent
        blindfold = self._blindfolds[player.seat] = consulted(agent, self, self._blindfolds.get(player.seat))
        return blindfold

    def choose(self, player: Player, name: str, options: list, where: RuleRef):
        """Put a named decision to the player's agent: one of `options`, or an `AgentError`. A player who is
        out decides nothing: asking him is the rule's error (R1001), not a question for his agent."""
        if player.out:
            raise self._out_decides(player, name)
        # `agent`, without the call where no field is hidden (then it is the agent as it is)
        agent = self.agents[player.seat] if not self.rules.hidden_fields else self.agent(player)
        picked = agent.choose(self, player, name, options)
        if picked not in options:
            raise AgentError(f"{player.name}'s agent chose {picked!r} for `{name}`; legal: {options}")
        if self.emitting:
            self.event_sink((self.state.turn, "choose", where, player.name, name, name_of(picked)))
        return picked

    def _out_decides(self, player: Player, name: str) -> RuleRuntimeError:
        """The error of a decision put to a player who is out: `who` as the rule names him, where it can."""
        node = self.last_node
        who = getattr(node, "by", None) if node is not None else None
        if who is None and type(node).__name__ == "UseCard":  # `use card by P`
            who = getattr(node, "who", None)
        shown = self.rules.program.text_at(who.span) if who is not None and who.span is not None else player.name
        named = f"`{shown}` ({player.name})" if shown != player.name else player.name
        return self.error(f"{named} is out of the game, so cannot decide `{name}`",
                          help="put decisions only to players still in: test `not P.out`, or ask one of `players`")

    # ---- queries used by compiled rules -------------------------------------------------------
    def iterate(self, value):
        if value is None:
            return ()
        if isinstance(value, Thing):
            return self.members.get(value, ())
        return value

    # ---- dice and movement ---------------------------------------------------------------------
    def roll(self, player, count: int, where: RuleRef) -> Roll:
        if not 0 <= count <= MAX_DICE:
            raise self.error(f"the rule rolls {count:,} dice; a roll is of 0 to {MAX_DICE:,} dice",
                             help="look at how the number of dice is computed")
        if self.forced_dice:
            faces = tuple(self.forced_dice.pop(0))
            if len(faces) != count:
                raise self.error(f"the scenario forced {len(faces)} dice but the rule rolls {count}")
        elif count == 2:  # the common roll, as a statement rolling two dice writes it
            return operations.two_dice(self, player, where)
        elif count == 1:  # one die, as shared
            result = ONE_DIE[int(self.state.rng.random() * 6)]
            if self.emitting:
                self.event_sink((self.state.turn, "roll", where, player.name if player is not None else None,
                                 result.faces))
            return result
        else:
            rnd = self.state.rng.random
            faces = tuple(int(rnd() * 6) + 1 for _ in range(count))
        result = Roll(faces, sum(faces), count > 1 and len(set(faces)) == 1)
        if self.emitting:
            self.event_sink((self.state.turn, "roll", where, player.name if player is not None else None, faces))
        return result

    def move(self, player: Player, how: str, amount, where: RuleRef) -> None:
        n = self.ring
        start = player.at
        if how in ("to", "send", "place"):
            target: int | None
            if isinstance(amount, Copy):  # one place of a repeated square, named
                target = amount.index
            elif isinstance(amount, Thing):
                if amount.index is None:
                    raise self.error(f"`{amount.name}` is not on the board")
                target = amount.index
            else:
                target = None
                places = self.square_places.get(amount)  # (its places on the ring, in order)
                if places is not None:  # the first one after the token's, going round
                    ring_start = start if start < n else -1
                    for target in places:
                        if target > ring_start:
                            break
                    else:
                        target = places[0]
                elif amount in self.board[n:]:
                    target = self.board.index(amount, n)
                if target is None:
                    raise self.error(f"`{amount.name}` is not on the board, so no one can move there")
            # Forward to the next such square: a token already on it goes all the way round (n steps).
            # Into or out of a place off the ring a token goes straight there, passing nothing.
            steps = 0 if target >= n or start >= n else (target - start - 1) % n + 1
            dest = target
        else:
            if start >= n:
                raise self.error(f"{player.name} is at `{self.board[start].name}`, off the board; "
                                 "a token leaves it only with `move … to`")
            if amount < 0:  # as a payment is never negative: `by` goes forward, `back` backward
                other = "back" if how == "by" else "by"
                raise self.error(f"a move `{how}` {amount:,} squares: `move … {how}` needs 0 or more",
                                 help=f"to go the other way write `move … {other} {-amount:,}`; else look at how the "
                                      "distance is computed")
            steps = amount if how == "by" else -amount
            if abs(steps) > MAX_MOVE:
                raise self.error(f"a move of {steps:,} squares; one move may go at most {MAX_MOVE:,}",
                                 help="look at how the distance is computed", budget=True)
            if how == "by" and self.stops and steps > 1:  # a `stop` square on the way ends the move there
                steps = next((k for k in range(1, steps) if (start + k) % n in self.stops), steps)
            dest = (start + steps) % n
        self.arrive(player, how, start, dest, steps, where)

    # The token goes from `start` to `dest`, `steps` squares on (`move` comes here): every case,
    # compiled from the writer a statement's code inlines for a move by less than a round.
    arrive = operations.arrive

    def moves_too_deep(self) -> None:
        raise self.error(f"moves trigger moves more than {MAX_DEPTH} deep; the rules seem to loop",
                         help="look for a handler whose move lands on a square that moves again", budget=True)

    def _pass(self, player: Player, index: int, where: RuleRef) -> None:
        if self.emitting:
            self.emit("pass", where, player.name, self.board[index].name)
        self.pass_fire[index](self, player, self.board[index])

    def move_marked(self, player: Player, how: str, amount, where: RuleRef, roll, marks: frozenset) -> None:
        """`move`, its handlers seeing `roll` as `moved_by` and `marks` as true; a move they make sees its own."""
        saved = self.moving_roll, self.move_marks
        self.moving_roll, self.move_marks = roll, marks
        try:
            self.move(player, how, amount, where)
        finally:
            self.moving_roll, self.move_marks = saved

    # ---- money ------------------------------------------------------------------------------------
    pay = operations.pay  # `pay`: every case, compiled from the writer a statement's code inlines

    def out_cannot_pay(self, source: Player) -> None:
        raise self.error(f"{source.name} is out of the game and cannot pay")

    def account_cannot_pay(self, source: Account, amount: int) -> None:
        raise self.error(f"`{source.name}` holds {source.balance} and cannot pay {amount}",
                         help="an account never goes below 0: test its `balance` before paying out of it")

    def bank_ran_out(self) -> None:
        raise self.error("the bank has run out of money",
                         help="declare `bank unlimited`, or a rule for what happens when it runs dry")

    def _resolve_debt(self, debtor: Player, creditor, owed: int, where: RuleRef) -> bool:
        """Run `on debt`; True if the debtor can now pay, False if he left the game."""
        if self.emitting:
            self.emit("debt", where, debtor.name, creditor.name, owed)
        if not self.rules.debt:
            raise self.error(f"{debtor.name} owes {owed} but has {debtor.f_cash}, and the rules have no `on debt`",
                             help="add `on debt:` saying what happens")
        env = {"player": debtor, "debtor": debtor, "creditor": creditor, "owed": owed}
        self.descend("debts raise debts", help="look for an `on debt` that asks the debtor for more than his cash")
        try:
            for h in self.rules.debt:
                if h.when is None or h.when(self, env):
                    h.body(self, env)
                if debtor.out:
                    return False
        finally:
            self.depth -= 1
        if debtor.f_cash < owed:
            raise self.error(f"`on debt` left {debtor.name} owing {owed} with {debtor.f_cash} in cash",
                             help="end `on debt` by eliminating a debtor who is still short")
        return True

    def raise_cash(self, debtor: Player, owed: int, where: RuleRef) -> None:
        debtor.owing = owed
        self._changed(OWING)
        try:
            self.actions.window(self, debtor, raising=owed, where=where)
        finally:
            debtor.owing = 0
            self._changed(OWING)

    # ---- state changes --------------------------------------------------------------------------------
    def _changed(self, name: str) -> None:
        self.versions[name] += 1

    set_field = operations.set_field  # `set TARGET.FIELD = VALUE`, compiled from the writer a `set` inlines

    def supply_left(self, supply) -> int:
        """The pieces of a supply the bank still holds: its size less those on the things of its kind."""
        attr = field_attr(supply.field)
        return supply.size - sum(getattr(t, attr) for t in self.kind_things.get(supply.kind, ()))

    def set_supplied(self, target, field: str, value, where: RuleRef, supply) -> None:
        """`set` of a field a supply counts: raising it takes pieces from the bank, which must hold them;
        lowering it gives them back."""
        taken = value - getattr(target, field_attr(field))
        left = self.supply_left(supply)
        if taken > left:
            raise self.error(f"the bank has {left} of `{supply.name}` left, and this takes {taken}",
                             help=f"test `{supply.name}.left` first: `when … and {supply.name}.left > 0`")
        self.set_field(target, field, value, where)

    def set_global(self, name: str, value, where: RuleRef) -> None:
        old = self.state.globals.get(name)
        self.state.globals[name] = value
        self._changed(GLOBAL + name)
        if self.emitting:
            self.emit("set", where, "global", name, name_of(old), name_of(value))

    def procedures_too_deep(self) -> None:
        """`descend`'s error for a procedure (a `do` counts the depth itself: stmtgen `_w_Do`)."""
        self.depth -= 1
        self.descend("procedures call procedures")

    def ahead(self, player: Player) -> list:
        """The board's squares from the one after the player's, once round, in moving order."""
        n = self.ring
        at = player.at if player.at < n else -1
        return [self.board[(at + k) % n] for k in range(1, n + 1)]

    def extra_turn(self, player: Player, where: RuleRef) -> None:
        player.extra_turns += 1
        if self.emitting:
            self.emit("extra", where, player.name)

    def eliminate(self, player: Player, where: RuleRef) -> None:
        if player.out:
            return
        player.out = True
        self._changed(OUT)
        self.active = [p for p in self.state.players if not p.out]
        if self.emitting:
            self.emit("eliminate", where, player.name)
        for h in self.rules.eliminate:
            env = {"player": player}
            if h.when is None or h.when(self, env):
                h.body(self, env)
        self.check_end(turn_over=False)
        if player is self.state.players[self.state.current]:
            raise TurnEnded()

    def put(self, player: Player, status: str, where: RuleRef) -> None:
        """`put P in S`: P's turns run S's phases from now on; S's `at` square takes his token (passing
        nothing, landing nowhere). Put in it in his own turn, that turn ends there."""
        player.status, player.status_turns = status, 0
        self.emit("status", where, player.name, status)
        at = self.rules.statuses[status].at
        if at is not None:  # the first such square of the board
            square = self.by_name.get(at) or self.squares[at]
            self.emit("move", where, player.name, self.board[player.at].name, square.name, 0)
            player.at = square.index if isinstance(square, Copy) else self.board.index(square)
            player.visits += 1
            self._changed(POSITION)
        if player is self.state.players[self.state.current]:
            raise TurnEnded()

    def release(self, player: Player, where: RuleRef) -> None:
        """`release P`: P's turns are ordinary again; released in his status's own turn, the ordinary
        phases follow in this one."""
        if player.status is None:
            return
        player.status, player.status_turns = None, 0
        self.emit("status", where, player.name, None)

    def status_turn(self, player: Player, env: dict) -> bool:
        """Play the phases of P's status in his turn; True if he was released in it (the ordinary phases
        follow). The ordinary turn's phases are not reached in it (`own turn before P` actions are legal)."""
        player.status_turns += 1
        status = player.status
        for phase in self.rules.statuses[status].phases:
            if phase.when is not None and not phase.when(self, env):
                continue
            if phase.optional and self.choose(player, phase.name, ["play", "skip"], phase.where) == "skip":
                continue
            self.emit("phase", phase.where, phase.name)
            phase.body(self, env)
            if player.status != status:
                break
        return player.status is None

    def end_turn(self, where: RuleRef) -> None:
        raise TurnEnded()

    def end_game(self, reason: str, winner, where: RuleRef) -> None:
        """End the game; `winner` a player, None, or a list of the players who share the win (the first
        of them, in seat order, is `state.winner` for the tools that count one winner a game)."""
        state = self.state
        state.over = True
        winners = sorted(winner, key=lambda p: p.seat) if isinstance(winner, list) else [winner] if winner else []
        state.winner = winners[0] if winners else None
        state.winners = winners
        state.end_reason = reason
        if self.emitting:
            shown = [w.name for w in winners] if len(winners) > 1 else winners[0].name if winners else None
            self.emit("end", where, reason, shown)
        raise GameEnded()

    def check_end(self, turn_over: bool = True) -> None:
        """End the game if an end condition holds. The conditions are tested again only when
        something they read has changed since they were last all false (the change counters), unless
        one reads state without a counter. In the middle of a turn (`turn_over` false: after an
        elimination) an `end after turn` condition waits for the turn's end."""
        end_key = self._end_key
        if end_key is not None:
            key = end_key(self.versions)
            if key == self._ends_false_at:
                return
        waiting = False
        for end in self.rules.ends:
            if end.after_turn and not turn_over:
                waiting = True
            elif end.condition(self, {}):
                self.end_game(end.reason, end.winner(self, {}), end.where)
        if end_key is not None and not waiting:
            self._ends_false_at = key

    # ---- turns ---------------------------------------------------------------------------------------------
    def setup(self) -> None:
        """Choose the first player as the header says, then run the rules' `setup:` block."""
        self.started = True
        state = self.state
        if self.emitting:
            self.emit("setup", NO_RULE, [p.name for p in state.players], self.seed)
        first = self.rules.first_player
        if first.rule == "highest roll":
            count = first.dice
            contenders = list(state.players)
            rolls = {}
            while len(contenders) > 1:
                rolls = {p: sum(self.roll(p, count, NO_RULE).faces) for p in contenders}
                best = max(rolls.values())
                contenders = [p for p in contenders if rolls[p] == best]
            state.current = contenders[0].seat
            if self.emitting:
                self.emit("first", NO_RULE, state.players[state.current].name, {p.name: t for p, t in rolls.items()})
        elif first.rule != "by rule":
            if self.emitting:
                self.emit("first", NO_RULE, state.players[state.current].name, None)
        self.first_seat = state.current
        if self.rules.setup is not None:
            self.steps = 0
            try:
                self.rules.setup(self, {})
            except TurnEnded:  # an `end turn` in a procedure the setup runs: the setup stops there
                pass
            except GameEnded:  # `end game` in the setup: the game is over before it began
                return
        if first.pick is not None:  # a rule over what the setup did (the tile each drew): seat order if none
            chosen = first.pick(self, {})
            state.current = chosen.seat if chosen is not None else state.current
            self.first_seat = state.current
            if self.emitting:
                self.emit("first", NO_RULE, state.players[state.current].name, None)

    def play_turn(self) -> None:
        """One turn: the rules' turn, written out for them (turngen.py)."""
        written = self.rules.written
        assert written is not None  # (`compile_rules` writes it)
        written.play_turn(self)

    def _all_quiet(self) -> bool:
        """Whether every seat's agent keeps `Agent.wants_window` (speaks only in its own turn)."""
        try:
            return all(type(self.agents[p.seat]).wants_window is Agent.wants_window for p in self.state.players)
        except (KeyError, IndexError):  # a seat with no agent: the turn asks as it always does
            return False

    def play(self) -> GameState:
        """Play from the start to the end of the game.

        Python's cycle collector is paused meanwhile: playing makes no cyclic garbage (what a turn
        drops is freed by reference counting), but a recorded game keeps every event, and the
        collector would trace them again and again (about 15% of the time of a game with events);
        it is switched back on, as it was, when the game ends or fails."""
        collecting = gc.isenabled()
        if collecting:
            gc.disable()
        self.all_quiet = self._all_quiet()
        try:
            if not self.started:
                self.setup()
            written = self.rules.written
            assert written is not None  # (`compile_rules` writes it)
            written.play_turn(self, True)  # the turns until the game is over (turngen.py)
        except GameEnded:
            pass
        finally:
            self.all_quiet = False
            if collecting:
                gc.enable()
        return self.state
