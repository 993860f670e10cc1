"""`rulesc play`: one game at the terminal, a person in one seat and bots in the others.

The person sees every event as a sentence (`Ann pays $22 to the bank`, squares and cards by the
titles the rules give them) and answers each decision the rules put to their seat from a numbered
menu of the legal options the engine lists (the rules decide legality, as for any agent), each
action with what it costs. At any question the person may look around (`board`, `info SQUARE`,
`me`, `players`: playview.py, which shows only what their seat may see) or leave (`quit`). When
they land on a square, the rules that apply there are shown with the rulebook's words they cite.

Leaving ends the game where it stands: `quit`, the end of the input and Ctrl-C each stop it (no
bot plays the seat on), and the command keeps the log so far if asked (`--log`, or the file name
given when `quit` offers to save it): `rulesc run FILE --replay LOG` plays it again up to there.
It is plain text, line by line, so it works the same in a terminal and over a pipe.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from rulesc.interpreter.agents import Agent, make_agents
from rulesc.interpreter.engine import Game
from rulesc.playview import Sight
from rulesc.sentences import Words, money, plain

QUIT = "you quit"
INPUT_ENDED = "the input ended"
INTERRUPTED = "interrupted (Ctrl-C)"


class LeftTheGame(Exception):
    """The person left the game (`how`: QUIT, INPUT_ENDED): the game stops where it stands."""

    def __init__(self, how: str):
        super().__init__(how)
        self.how = how


HELP = """commands, at any question:
  board         the board: each square's prices, rents, owner and buildings, and who stands on it
  info SQUARE   one square (by name, title or number): its data, the rulebook's words, its rules
  me            your cash, what you hold, and the actions the rules allow you now with their costs
  players       every player's position, cash and holdings (what you may see of them)
  quit          leave the game (it stops here; you may save its log to replay it)
  help          this list
answer a menu with its number; a bid with an amount (empty to pass); a yes/no question with y or n.
"""


class TerminalAgent(Agent):
    """Asks a person, on `out`, and reads the answers from `inp`; raises LeftTheGame when they leave.
    `game` and `sight` are set by `play_at_terminal` (a bare agent, as tests make one, only answers)."""

    def __init__(self, inp: TextIO, out: TextIO, seat: int = 0):
        self.inp, self.out = inp, out
        self.seat = seat
        self.game: Game | None = None
        self.sight: Sight | None = None

    def _ask(self, prompt: str) -> str:
        """An answer; the commands that look around are answered here and the question asked again."""
        while True:
            self.out.write(prompt)
            self.out.flush()
            line = self.inp.readline()
            if not line:
                raise LeftTheGame(INPUT_ENDED)
            answer = line.strip()
            word, _, rest = answer.partition(" ")
            word = word.lower()
            if word in ("quit", "exit"):
                raise LeftTheGame(QUIT)
            if word in ("help", "?"):
                self.out.write(HELP)
            elif self.game is None or self.sight is None or word not in ("board", "info", "me", "players", "status"):
                return answer
            elif word == "board":
                self.out.write(self.sight.board(self.game))
            elif word == "info":
                self.out.write(self.sight.info(self.game, self.seat, rest) if rest.strip()
                               else "info SQUARE: a square's name, title or number (`board` lists them)\n")
            elif word == "me":
                self.out.write(self.sight.me(self.game, self.seat))
            else:
                self.out.write(self.sight.players(self.game, self.seat))

    def _label(self, player, option) -> str:
        if self.sight is None:
            return str(getattr(option, "name", option))
        return self.sight.label(self.game, player, option)

    def _pick(self, question: str, player, options: list, allow_none: bool):
        """A numbered menu; returns an option, or None for 'pass' where allowed."""
        lines = [f"{question}"]
        lines += [f"  {i}) {self._label(player, o)}" for i, o in enumerate(options, 1)]
        if allow_none:
            lines.append("  0) pass")
        self.out.write("\n".join(lines) + "\n")
        while True:
            answer = self._ask("> ")
            if allow_none and answer == "0":
                return None
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            self.out.write(f"please answer with a number from {0 if allow_none else 1} to {len(options)}"
                           f" (or a command: `help` lists them)\n")

    def choose(self, game, player, name, options):
        return self._pick(f"{player.name}, choose `{name}`:", player, options, allow_none=False)

    def bid(self, game, player, thing, low, high):
        if self.sight is not None and hasattr(thing, "kind"):  # what is for sale: its prices and rents
            self.out.write(f"  {self.sight.words.square(thing.name)}: {self.sight.facts(thing)}\n")
        while True:
            answer = self._ask(f"{player.name}, bid on {self._label(player, thing)}: {money(low)} to "
                               f"{money(high)}, or empty to pass > ")
            if answer == "":
                return None
            amount = answer.lstrip("$").replace(",", "")
            if amount.isdigit() and low <= int(amount) <= high:
                return int(amount)
            self.out.write(f"a bid is a whole amount from {money(low)} to {money(high)}\n")

    def wants_window(self, game, player, own_turn):
        return own_turn

    def act(self, game, player, options, raising):
        if not options:
            return None
        why = f" (you owe {money(raising)} and have {money(player.f['cash'])})" if raising is not None else ""
        return self._pick(f"{player.name}, any action{why}?", player, options, allow_none=True)

    def accept(self, game, player, offer):
        gives = ", ".join(self._label(player, t) for t in offer.gives) or "nothing"
        takes = ", ".join(self._label(player, t) for t in offer.takes) or "nothing"
        cash = f" and {money(offer.cash)}" if offer.cash else ""
        answer = self._ask(f"{player.name}: {offer.proposer.name} offers {gives} for your {takes}{cash}; "
                           f"accept? [y/N] > ")
        return answer.lower().startswith("y")


def play_at_terminal(rules, players: int, seat: int, seed: int, inp: TextIO = sys.stdin,
                     out: TextIO = sys.stdout) -> tuple[Game, str | None]:
    """Play the game, the person in `seat`; returns it and how the person left it (None: it ended by its rules)."""
    agents = make_agents("heuristic", seed, players)
    person = agents[seat] = TerminalAgent(inp, out, seat)
    game = Game(rules, players, seed=seed, agents=agents)
    words = Words(rules)
    sight = person.sight = Sight(rules, words)
    person.game = game
    out.write(f"{rules.title}: you are in seat {seat + 1} of {players}; type `help` at any question, "
              f"`quit` to leave.\n")

    def observe(g, kind, where, payload):
        line = words.describe(kind, payload)
        if line is not None:
            out.write(line + "\n")
        current = g.state.players[g.state.current]
        if kind == "turn" and current.seat == seat:
            out.write(sight.players(g, seat))
        elif kind == "land" and plain(payload[0]) == g.state.players[seat].name:
            square = sight.find(g, plain(payload[1]))
            for rule in sight.landing_rules(g, g.state.players[seat], square) if square is not None else ():
                out.write(f"  the rule here, {rule.strip()}\n")
    game.observer = observe
    try:
        game.play()
    except LeftTheGame as left:
        return game, left.how
    except KeyboardInterrupt:
        return game, INTERRUPTED
    return game, None


def offer_to_save(inp: TextIO, out: TextIO) -> str | None:
    """Asked after `quit`: a file to keep the game's log in, or None (an empty answer, the input's end, Ctrl-C)."""
    prompt = "save the game's log, to replay it later? a file name, or empty for no > "
    while True:
        out.write(prompt)
        out.flush()
        try:
            line = inp.readline()
        except KeyboardInterrupt:
            line = ""
        name = line.strip()
        if not name:
            out.write("" if line else "\n")
            return None
        path = Path(name)
        if not path.is_dir() and path.parent.is_dir():
            return name
        out.write(f"cannot write `{name}`: " + ("it is a directory" if path.is_dir() else
                                                f"no folder `{path.parent}`") + "\n")
