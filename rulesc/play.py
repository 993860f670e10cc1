"""`rulesc play`: one game at the terminal, a person in one seat and bots in the others.

The person sees every event as a line of text and answers each decision the rules put to
their seat, choosing among the legal options the engine lists (the rules decide legality,
as for any agent). When the input ends, the heuristic agent takes over that seat so the
game still finishes.
"""

from __future__ import annotations

import sys
from typing import TextIO

from rulesc.interpreter.agents import Agent, HeuristicAgent, make_agents
from rulesc.interpreter.dealing import ActionChoice
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import FIELDS

ENDED = object()  # what a question returns once the input has run out


def describe(kind: str, payload: tuple) -> str:
    """One event as a line a player reads: `pay: amount=200 from=Ann to=Bob`."""
    parts = [f"{name}={value}" for name, value in zip(FIELDS[kind], payload) if value not in (None, "")]
    return f"{kind}: " + " ".join(parts)


def _label(option) -> str:
    if isinstance(option, ActionChoice):
        return option.action + (f" {getattr(option.argument, 'name', option.argument)}" if option.argument is not None else "")
    return str(getattr(option, "name", option))


class TerminalAgent(Agent):
    """Asks a person, on `out`, and reads the answers from `inp`."""

    def __init__(self, inp: TextIO, out: TextIO, seed=0, seat: int = 0):
        self.inp, self.out = inp, out
        self.fallback = HeuristicAgent(seed, seat)
        self.ended = False

    def _ask(self, prompt: str) -> str | None:
        if self.ended:
            return None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.ended = True
            self.out.write("\n(input ended: the heuristic agent plays this seat from here)\n")
            return None
        return line.strip()

    def _pick(self, question: str, options: list, allow_none: bool):
        """A numbered menu; returns an option, None for 'pass' where allowed, or ENDED."""
        lines = [f"{question}"]
        lines += [f"  {i}) {_label(o)}" for i, o in enumerate(options, 1)]
        if allow_none:
            lines.append("  0) pass")
        self.out.write("\n".join(lines) + "\n")
        while True:
            answer = self._ask("> ")
            if answer is None:
                return ENDED
            if allow_none and answer == "0":
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            self.out.write(f"please answer with a number from {0 if allow_none else 1} to {len(options)}\n")

    def choose(self, game, player, name, options):
        picked = self._pick(f"{player.name}, choose `{name}`:", options, allow_none=False)
        return self.fallback.choose(game, player, name, options) if picked is ENDED else picked

    def bid(self, game, player, thing, low, high):
        while True:
            answer = self._ask(f"{player.name}, bid on {_label(thing)}: {low} to {high}, or empty to pass > ")
            if answer is None:
                return self.fallback.bid(game, player, thing, low, high)
            if answer == "":
                return None
            amount = answer.lstrip("$").replace(",", "")
            if amount.isdigit() and low <= int(amount) <= high:
                return int(amount)
            self.out.write(f"a bid is a whole amount from {low} to {high}\n")

    def wants_window(self, game, player, own_turn):
        return own_turn and not self.ended or self.ended and self.fallback.wants_window(game, player, own_turn)

    def act(self, game, player, options, raising):
        if self.ended:
            return self.fallback.act(game, player, options, raising)
        if not options:
            return None
        why = f" (you owe {raising} and have {player.f['cash']})" if raising is not None else ""
        picked = self._pick(f"{player.name}, any action{why}?", options, allow_none=True)
        return self.fallback.act(game, player, options, raising) if picked is ENDED else picked

    def accept(self, game, player, offer):
        answer = self._ask(f"{player.name}: {offer.proposer.name} offers {[t.name for t in offer.gives]} "
                           f"for {[t.name for t in offer.takes]}, cash {offer.cash}; accept? [y/N] > ")
        if answer is None:
            return self.fallback.accept(game, player, offer)
        return answer.lower().startswith("y")


def play_at_terminal(rules, players: int, seat: int, seed: int, inp: TextIO = sys.stdin,
                     out: TextIO = sys.stdout) -> Game:
    agents = make_agents("heuristic", seed, players)
    agents[seat] = TerminalAgent(inp, out, seed, seat)
    game = Game(rules, players, seed=seed, agents=agents)
    game.observer = lambda g, kind, where, payload: out.write(
        f"[turn {g.state.turn}] {describe(kind, payload)}\n")
    game.play()
    return game
