"""What an agent may see while it decides: the other players' `hidden` fields are out of its reach.

A rulebook can make a player's state secret ("keep your cash hidden in your bank book",
which is what makes bluffing at an auction possible). The engine, the scenarios and the checker read
the whole state; an agent answering a decision must not read another player's hidden field.

Rather than hand each agent a copy of the state (every decision would pay for the copy, and any
reference the copy missed — a thing's owner, a trade's partner — would lead back to the real
thing), the engine hands the agent the real game with the other players put in a masked class for
the length of the call (`masked_class`: the rules file's class of players whose hidden fields are
properties that raise): whatever path the agent takes to another player, rules written out
included, it meets the mask. Reading a hidden field there (`p.f["cash"]`, `p.f_cash`) raises
`HiddenFieldRead`, an `AgentError`: an agent that peeks is broken, like one that answers with an
illegal move. `.f.get()` answers None, so a display can show "hidden". Rules with no hidden field
pay nothing: the agents are used as they are. `view` gives the state as a player may see it, as JSON.
"""

from __future__ import annotations

import contextlib
import functools

from .agents import Agent
from .errors import AgentError
from .state import Player, field_attr, state_to_json


class HiddenFieldRead(AgentError):
    """An agent read another player's `hidden` field."""


@functools.lru_cache(maxsize=256)
def masked_class(players: type[Player], hidden: frozenset, viewer: str) -> type:
    """`players` (a rules file's class of players) as the agent of `viewer` sees them: each hidden
    field a property that raises. It adds no slot, so a player's class can be swapped for it and back."""
    def hiding(field: str):
        def read(player):
            raise HiddenFieldRead(f"the agent of {viewer} read {player.name}'s hidden field `{field}`")
        return property(read)
    attributes = {field_attr(field): hiding(field) for field in hidden if field in players.declared}
    return type(players.__name__, (players,), {"__slots__": (), "masked": hidden, **attributes})


class Blindfolded:
    """An agent whose every answer is given with the other players' hidden fields masked (a game
    keeps one per seat: `Game.agent`)."""

    def __init__(self, agent, hidden: frozenset):
        self.inner, self._hidden = agent, hidden  # (not the game: the game keeps its blindfolds)

    def _masked(self, game, viewer, question: str, *args):
        saved = _mask(game, viewer, self._hidden)  # (`seen_by` without a context manager's cost: the hot path)
        try:
            return getattr(self.inner, question)(game, viewer, *args)
        finally:
            _unmask(game, saved)

    def bid(self, game, player, thing, low, high):
        return self._masked(game, player, "bid", thing, low, high)

    def bidder(self, game, player, thing, cash):
        """Each bid asked of `bid`, masked as it is made (`Agent.bidder`)."""
        return lambda low: self.bid(game, player, thing, low, cash)

    def choose(self, game, player, name, options):
        return self._masked(game, player, "choose", name, options)

    def wants_window(self, game, player, own_turn):
        if type(self.inner).wants_window is Agent.wants_window:  # answers `own_turn`, reading nothing
            return own_turn
        return self._masked(game, player, "wants_window", own_turn)

    def act(self, game, player, options, raising):
        return self._masked(game, player, "act", options, raising)

    def accept(self, game, player, offer):
        return self._masked(game, player, "accept", offer)

    def __getattr__(self, name):  # save, restore and an agent's own attributes
        return getattr(self.inner, name)


@contextlib.contextmanager
def seen_by(game, viewer, hidden: frozenset | None = None):
    """The game as `viewer`'s agent sees it, for the length of the `with`: the other players in the
    masked class (their `hidden` fields raise `HiddenFieldRead`), and defines keeping their answers
    for this viewer apart (kept.py)."""
    saved = _mask(game, viewer, game.rules.hidden_fields if hidden is None else hidden)
    try:
        yield game
    finally:
        _unmask(game, saved)


def _mask(game, viewer, hidden: frozenset) -> tuple:
    """Put the other players in the masked class; what `_unmask` needs to undo it."""
    players = game.rules.player_class
    masked = masked_class(players, hidden, viewer.name)
    saved = [(p, p.__class__) for p in game.state.players]  # (unmasked, unless asked within another's call)
    for p in game.state.players:
        p.__class__ = players if p is viewer else masked
    outer, game.masking = game.masking, viewer.name
    return saved, outer


def _unmask(game, saved: tuple) -> None:
    classes, game.masking = saved
    for p, kind in classes:
        p.__class__ = kind


@contextlib.contextmanager
def unmasked(game):
    """The whole state, for the length of the `with`, even inside an agent's masked call: for a
    scenario's scripted agent, which reads what the scenario reads (its windows' conditions)."""
    saved = [(p, p.__class__) for p in game.state.players]
    for p in game.state.players:
        p.__class__ = game.rules.player_class
    outer, game.masking = game.masking, None
    try:
        yield game
    finally:
        game.masking = outer
        for p, kind in saved:
            p.__class__ = kind


def consulted(agent, game, known=None):
    """The agent as the engine consults it: blindfolded where the rules hide fields, else as it is.
    `known`, the blindfold the game last made for the seat, is used again if it is this agent's."""
    hidden = game.rules.hidden_fields
    if not hidden:
        return agent
    if known is not None and known.inner is agent:
        return known
    return Blindfolded(agent, hidden)


def view(game, viewer) -> dict:
    """The state as `viewer` may see it (JSON-ready, as `state_to_json`): the other players'
    `hidden` fields are left out, and so is the dice generator. Agents read other players
    through this (or through hints, which the checker keeps from other players' hidden
    fields, R0212); the engine, scenarios and the checker read the whole state."""
    data = state_to_json(game.state)
    del data["rng"]
    hidden = game.rules.hidden_fields
    if hidden:
        for p in data["players"]:
            if p["name"] != viewer.name:
                p["fields"] = {k: v for k, v in p["fields"].items() if k not in hidden}
    return data
