"""A scenario's players: scripted answers, each for the window it names, and answers the rules must refuse.

`answer Ann bid: $60` is taken by the first decision of its name put to Ann; `answer Bob act in
step_five of Bob while player.owing > $0: borrow, E1` only by one put while the turn is in that
phase (the last `phase` event of the turn, until the end-of-turn windows; `before`/`after PHASE`
by the turn's order of phases), in Bob's turn, with the condition true (`player` the one deciding). A queue is taken in order, skipping the answers whose
window is not this one. `refuse …` is an answer the rules must refuse when its decision is put: a
bid outside the bids allowed (or an auction opened without the player), an option not offered, an
action or trade not legal in the window. Each refusal is noted with the rule that refuses it
(refusals.py); an answer that is accepted, or a refused or windowed answer never asked, fails the
scenario. After a refusal the same decision takes the next answer, as a player refused tries again.

The agent is the scenario's, and reads the whole state as the scenario does: where the rules hide
fields it is consulted blindfolded like any agent, and takes the blindfold off (`unmasked`) to test
its windows and find its reasons.
"""

from __future__ import annotations

from typing import Any, Callable

import attrs

from .agents import Agent, ScriptedAct
from .blindfold import unmasked
from .errors import AgentError
from .refusals import action_refusal, bid_refusal, choice_refusal, not_bidding, trade_refusal


@attrs.define
class Scripted:
    """One scripted answer: its value (a ScriptedAct for `act`, a TradeOffer for a trade), the line
    it is written on, what it is called in a report, its window (or None: any) and whether the rules
    must refuse it."""

    value: Any
    line: int
    shown: str
    window: Callable | None = None  # window(game, player) -> bool
    refused: bool = False


@attrs.define
class Watch:
    """What the scenario's agents share: the phase the turn is in (from the game's events), and what
    they found: refusals (line, message) and failures (line, message)."""

    phases: list = attrs.Factory(list)  # the names of the turn's phases, in order
    phase: str | None = None
    stage: int = -1  # where the turn is in `phases`: -1 before the first, len(phases) in the end-of-turn windows
    window: Any = None  # the RuleRef of the last window opened
    refusals: list = attrs.Factory(list)
    failures: list = attrs.Factory(list)
    agents: dict = attrs.Factory(dict)  # seat -> ScenarioAgent

    def observe(self, game, kind: str, where, payload: tuple) -> None:
        """The game's observer: the turn's phase, and each auction's bidders."""
        if kind == "turn":
            self.phase, self.stage = None, -1
        elif kind == "phase":
            self.phase = payload[0]
            if payload[0] in self.phases:  # (a status's phase leaves the turn's order where it was)
                self.stage = self.phases.index(payload[0])
        elif kind == "window":
            self.window = where
            if not where:  # (NO_RULE: the end-of-turn windows, after the phases)
                self.phase, self.stage = None, len(self.phases)
        elif kind == "auction":
            bidders = set(payload[2])
            for player in game.state.players:
                if player.name not in bidders and not player.out:
                    self.agents[player.seat].left_out(game, player)

    def at(self, relation: str, phase: str) -> bool:
        """Whether the turn is now in, before or after `phase`."""
        if relation == "in":
            return self.phase == phase
        if phase not in self.phases:  # a phase a variant removed: its window never comes
            return False
        index = self.phases.index(phase)
        return self.stage < index if relation == "before" else self.stage > index


class ScenarioAgent(Agent):
    """Answers from per-decision queues of `Scripted` answers (see the module's docstring)."""

    def __init__(self, queues: dict, watch: Watch):
        self.queues = queues  # decision -> [Scripted]; trades to refuse under "trade"
        self.offers: list = []  # trade offers to propose, each in the first window where it is legal
        self.watch = watch

    def _take(self, game, player, name: str) -> Scripted | None:
        """The first answer to `name` whose window this is, taken off its queue."""
        queue = self.queues.get(name)
        if not queue:
            return None
        with unmasked(game):
            for index, answer in enumerate(queue):
                if answer.window is None or answer.window(game, player):
                    return queue.pop(index)
        return None

    def _refused(self, answer: Scripted, player, reason: str | None, accepted: str) -> bool:
        """Note a refusal, or the failure of an accepted answer; True if it was refused."""
        if reason is None:
            self.watch.failures.append((answer.line, f"{player.name}'s {answer.shown} was accepted ({accepted}), "
                                                     "but the scenario expects it refused"))
            return False
        self.watch.refusals.append((answer.line, f"{player.name}'s {answer.shown} refused: {reason}"))
        return True

    def left_out(self, game, player) -> None:
        """An auction opened without `player`: his bid to be refused in this window is refused."""
        queue = self.queues.get("bid")
        if queue and any(a.refused for a in queue):
            with unmasked(game):
                for index, answer in enumerate(queue):
                    if answer.refused and (answer.window is None or answer.window(game, player)):
                        queue.pop(index)
                        self._refused(answer, player, not_bidding(game, player), "")
                        return

    # ---- the decisions ----------------------------------------------------------------------------
    def bid(self, game, player, thing, low, high):
        while True:
            answer = self._take(game, player, "bid")
            if answer is None:
                return None
            amount = answer.value
            if not answer.refused:
                if amount is not None and (isinstance(amount, bool) or not isinstance(amount, int)):
                    raise AgentError(f"{player.name}'s scripted bid `{amount}` is not an amount")
                return amount
            with unmasked(game):
                reason = bid_refusal(game, player, amount, low, high)
            if not self._refused(answer, player, reason, f"bids from ${low:,} to ${high:,} are allowed"):
                return amount

    def choose(self, game, player, name, options):
        while True:
            answer = self._take(game, player, name)
            if answer is None:
                return options[0]
            picked = next((o for o in options if o == answer.value or getattr(o, "name", None) == answer.value), None)
            if not answer.refused:
                return picked if picked is not None else options[0]
            with unmasked(game):
                reason = choice_refusal(game, name, answer.value, options)
            if not self._refused(answer, player, reason, "it is offered"):
                return picked

    def wants_window(self, game, player, own_turn):
        """Any window while answers to `act` or trades wait: whether one is for this window is known in
        `act` (the end-of-turn windows are asked for before they begin: only then are the phases over)."""
        return bool(self.offers) or bool(self.queues.get("act")) or bool(self.queues.get("trade"))

    def act(self, game, player, options, raising):
        for offer in self.offers:
            if game.market.trade_is_legal(game, offer):
                self.offers.remove(offer)
                return offer
        while True:
            answer = self._take(game, player, "trade")
            if answer is None:
                break
            with unmasked(game):
                reason = trade_refusal(game, answer.value, self.watch.window)
            if not self._refused(answer, player, reason, "the rules allow it now"):
                return answer.value
        while True:
            answer = self._take(game, player, "act")
            if answer is None or answer.value is None:
                return None
            wanted: ScriptedAct = answer.value
            picked = next((o for o in options if o.action == wanted.action and (
                o.argument is None or getattr(o.argument, "name", o.argument) == wanted.argument)), None)
            if not answer.refused:
                return picked
            if picked is None:
                with unmasked(game):
                    argument = game.by_name.get(wanted.argument, wanted.argument) \
                        if isinstance(wanted.argument, str) else wanted.argument
                    reason = action_refusal(game, player, wanted.action, argument, self.watch.window) or \
                        "it is not among the actions offered in this window"
            else:
                reason = None
            if not self._refused(answer, player, reason, "it is legal in this window"):
                return picked

    def accept(self, game, player, offer):
        answer = self._take(game, player, "accept")
        return bool(answer.value) if answer is not None else False

    def unasked(self, player) -> list:
        """(line, message) for each refused or windowed answer still waiting when the scenario ends."""
        left = []
        for name, queue in self.queues.items():
            for answer in queue:
                if answer.refused:
                    left.append((answer.line, f"{player.name}'s {answer.shown} was never put to the rules: "
                                              f"no `{name}` was asked of {player.name}"
                                              f"{' in that window' if answer.window else ''}"))
                elif answer.window is not None:
                    left.append((answer.line, f"{player.name}'s {answer.shown} was never given: no `{name}` "
                                              f"was asked of {player.name} in that window"))
        return left
