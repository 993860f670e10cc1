"""`rulesc play`: one game at the terminal, a person in one seat and bots in the others.

The person sees every event as a sentence (`Ann pays $22 to the bank`, squares and cards by the
titles the rules give them) and answers each decision the rules put to their seat from a numbered
menu of the legal options the engine lists (the rules decide legality, as for any agent). At any
question, `status` shows every player's position, cash and holdings, `board` the board with who
owns what and who stands where, and `help` the commands. It is plain text, line by line, so it
works the same in a terminal and over a pipe. When the input ends, the heuristic agent takes over
that seat so the game still finishes.
"""

from __future__ import annotations

import sys
from typing import TextIO

from rulesc.interpreter.actiongen import ActionChoice
from rulesc.interpreter.agents import Agent, HeuristicAgent, make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import FIELDS
from rulesc.interpreter.state import Account

ENDED = object()  # what a question returns once the input has run out


HELP = """commands, at any question:
  status   every player's position, cash and holdings
  board    the board: each square, its owner, and who stands on it
  help     this list
answer a menu with its number; a bid with an amount (empty to pass); a yes/no question with y or n.
"""


def money(amount) -> str:
    return f"-${-amount:,}" if isinstance(amount, int) and amount < 0 else f"${amount:,}" \
        if isinstance(amount, int) else str(amount)


def _value(value) -> str:
    if value is None:
        return "nobody"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(_value(v) for v in value) or "nothing"
    if isinstance(value, dict):
        return ", ".join(f"{k} {_value(v)}" for k, v in value.items())
    return str(getattr(value, "name", value))


class Words:
    """Events as sentences, with the titles and money the rules declare (names stand for themselves)."""

    def __init__(self, rules):
        program = rules.program
        self.titles = {name: sq.title for name, sq in program.squares.items() if sq.title}
        self.cards = {c.name: c.title for deck in program.decks.values() for c in deck.cards if c.title}
        self.phases = {ph.name: ph.title for ph in program.turn.phases if ph.title} if program.turn else {}
        self.phases.update({ph.name: ph.title for s in program.statuses.values() for ph in s.phases if ph.title})
        self.statuses = {s.name: s.title or s.name for s in program.statuses.values()}
        self.money_fields, self.percent_fields = (
            {f.name for f in program.player_fields.values() if f.type.name == which} |
            {f.name for kind in program.kinds.values() for f in kind.fields if f.type.name == which} |
            {f.name for f in program.global_fields.values() if f.type.name == which} for which in ("money", "percent"))

    def square(self, name) -> str:
        name = _value(name)
        return self.titles.get(name, name)

    def card(self, name) -> str:
        name = _value(name)
        return f"\"{self.cards[name]}\"" if name in self.cards else name

    def field(self, field, value) -> str:
        if isinstance(value, int) and not isinstance(value, bool):
            if field in self.money_fields:
                return money(value)
            if field in self.percent_fields:
                return f"{value}%"
        return _value(value)

    def describe(self, kind: str, payload: tuple) -> str | None:
        """One event as a sentence, or None for the engine's bookkeeping nobody needs to read."""
        e = dict(zip(FIELDS[kind], payload))
        v = {k: _value(x) for k, x in e.items()}
        if kind == "setup":
            return f"a new game: {v['players']} (seed {v['seed']})"
        if kind == "first":
            return f"{v['player']} rolls highest ({v['rolls']}) and goes first"
        if kind == "turn":
            return f"--- {v['player']}'s turn ---"
        if kind == "phase":
            return f"{self.phases[e['phase']]}:" if e["phase"] in self.phases else None
        if kind == "roll":
            faces = e["faces"] if isinstance(e["faces"], (list, tuple)) else [e["faces"]]
            who = f"{v['player']} rolls" if e["player"] is not None else "the dice show"  # a roll of the setup's
            return f"{who} {' and '.join(map(str, faces))}" + (f" ({sum(faces)})" if len(faces) > 1 else "")
        if kind == "move":
            return f"{v['player']} moves {v['steps']} from {self.square(e['from'])} to {self.square(e['to'])}"
        if kind == "pass":
            return f"{v['player']} passes {self.square(e['square'])}"
        if kind == "land":
            return f"{v['player']} lands on {self.square(e['square'])}"
        if kind == "pay":
            to = "the bank" if v["to"] == "bank" else v["to"]
            source = "the bank" if v["from"] == "bank" else v["from"]
            return f"{source} pays {money(e['amount'])} to {to}" if source != "the bank" else \
                f"the bank pays {money(e['amount'])} to {to}"
        if kind == "set":
            target = self.square(e["target"]) if e["target"] not in (None, "global") else "the game"  # a global's
            new = self.field(e["field"], e["new"])
            return f"{target}: {e['field']} is now {new}"
        if kind == "draw":
            return f"{v['player']} draws {self.card(e['card'])} from {v['deck']}"
        if kind == "auction":
            return f"{self.square(e['thing'])} is auctioned from {money(e['minimum'])} among {v['bidders']}"
        if kind == "bid":
            return f"{v['player']} bids {money(e['amount'])}"
        if kind == "sold":
            return f"{self.square(e['thing'])} is sold to {v['player']} for {money(e['price'])}"
        if kind == "unsold":
            return f"nobody bids: {self.square(e['thing'])} stays unsold"
        if kind == "choose":
            return f"{v['player']} chooses {v['option']} ({v['decision']})"
        if kind == "action":
            arg = e["argument"]
            what = "" if arg is None else " " + (money(arg) if isinstance(arg, int) else self.square(arg))
            return f"{v['player']} does {v['action']}{what}"
        if kind == "trade":
            cash = e.get("cash")
            extra = f", cash {money(cash)}" if isinstance(cash, int) and cash else ""
            return f"{v['player']} trades {v['gives']} to {v['partner']} for {v['takes']}{extra}"
        if kind == "debt":
            return f"{v['player']} owes {money(e['owed'])} to {v['creditor']} and must raise it"
        if kind == "discard":
            return f"{self.card(e['card'])} is discarded to {v['deck']}"
        if kind == "use":
            return f"{v['player']} uses {self.card(e['card'])}"
        if kind == "give":
            return f"{v['player']} gives {self.card(e['card'])} to {v['to']}"
        if kind == "extra":
            return f"{v['player']} gets an extra turn"
        if kind == "again":
            return f"doubles: {v['player']} rolls again"
        if kind == "status":
            if e["status"] is None:
                return f"{v['player']} is free again"
            return f"{v['player']} is now {self.statuses.get(e['status'], e['status']).lower()}"
        if kind == "do":
            return None
        if kind == "window":
            return None
        if kind == "eliminate":
            return f"{v['player']} is out of the game"
        if kind == "end":
            return f"the game ends: {v['reason']}; the winner is {v['winner']}"
        return f"{kind}: " + ", ".join(f"{k} {x}" for k, x in v.items())


def status(game, seat: int | None = None, words: Words | None = None) -> str:
    """Every player: position, cash, holdings (the things whose state names him) and kept cards; seen
    from `seat`, another player's cash is shown only if the rules do not keep it `hidden`; squares by
    their titles where `words` are given."""
    state = game.state
    board = game.rules.board
    lines = [f"turn {state.turn}"]
    for p in state.players:
        where = board[p.at] if 0 <= p.at < len(board) else "?"
        where = words.square(where) if words else where
        holds = [t.name for t in state.things if any(value is p for value in t.f.values())]
        cards = [h.card for h in p.hand]
        you = " (you)" if seat is not None and p.seat == seat else ""
        if p.out:
            lines.append(f"  {p.name}{you}: out of the game")
            continue
        secret = seat is not None and p.seat != seat and "cash" in game.rules.hidden_fields
        line = f"  {p.name}{you}: on {where}, " + ("cash hidden" if secret else f"cash {money(p.f.get('cash', 0))}")
        line += f"; holds {', '.join(holds)}" if holds else "; holds nothing"
        if cards:
            line += f"; cards kept: {', '.join(cards)}"
        shown = [f"{name} {_field_text(name, value, words)}" for name, value in p.f.items() if name != "cash"
                 and not (seat is not None and p.seat != seat and name in game.rules.hidden_fields)]
        if shown:  # the rest of what the rules keep on a player (a deposit, loans, a car)
            line += f"; {', '.join(shown)}"
        lines.append(line)
    return "\n".join(lines) + "\n"


def _field_text(name: str, value, words: Words | None) -> str:
    """A player's field as `status` shows it: an account by what it holds."""
    if isinstance(value, Account):
        return money(value.balance)
    return words.field(name, value) if words else _value(value)


def board_view(game, words: Words | None = None) -> str:
    """The ring, square by square: its title, who owns it (a state field naming a player), who is on it."""
    state = game.state
    things = {t.name: t for t in state.things}
    lines = []
    for i, name in enumerate(game.rules.board):
        title = words.square(name) if words else name
        owner = ""
        thing = things.get(name)
        if thing is not None:
            owners = [v.name for v in thing.f.values() if hasattr(v, "seat")]
            owner = f"  owned by {owners[0]}" if owners else "  no owner"
        here = [p.name for p in state.players if not p.out and p.at == i]
        tokens = f"  <- {', '.join(here)}" if here else ""
        lines.append(f"{i:3} {title}{owner}{tokens}")
    return "\n".join(lines) + "\n"


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
        self.seat = seat
        self.game = None  # set by play_at_terminal: what `status` and `board` show ...
        self.words = None  # ... and in which words

    def _ask(self, prompt: str) -> str | None:
        """An answer; `help`, `status` and `board` are answered here and the question asked again."""
        while True:
            if self.ended:
                return None
            self.out.write(prompt)
            self.out.flush()
            line = self.inp.readline()
            if not line:
                self.ended = True
                self.out.write("\n(input ended: the heuristic agent plays this seat from here)\n")
                return None
            answer = line.strip()
            if answer.lower() in ("help", "?", "h"):
                self.out.write(HELP)
            elif answer.lower() == "status" and self.game is not None:
                self.out.write(status(self.game, self.seat, self.words))
            elif answer.lower() == "board" and self.game is not None:
                self.out.write(board_view(self.game, self.words))
            else:
                return answer

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
            answer = self._ask(f"{player.name}, bid on {_label(thing)}: {money(low)} to {money(high)}, "
                               f"or empty to pass > ")
            if answer is None:
                return self.fallback.bid(game, player, thing, low, high)
            if answer == "":
                return None
            amount = answer.lstrip("$").replace(",", "")
            if amount.isdigit() and low <= int(amount) <= high:
                return int(amount)
            self.out.write(f"a bid is a whole amount from {money(low)} to {money(high)}\n")

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
        gives, takes = _value(list(offer.gives)), _value(list(offer.takes))
        cash = f" and {money(offer.cash)}" if offer.cash else ""
        answer = self._ask(f"{player.name}: {offer.proposer.name} offers {gives} for your {takes}{cash}; "
                           f"accept? [y/N] > ")
        if answer is None:
            return self.fallback.accept(game, player, offer)
        return answer.lower().startswith("y")


def play_at_terminal(rules, players: int, seat: int, seed: int, inp: TextIO = sys.stdin,
                     out: TextIO = sys.stdout) -> Game:
    agents = make_agents("heuristic", seed, players)
    person = agents[seat] = TerminalAgent(inp, out, seed, seat)
    game = Game(rules, players, seed=seed, agents=agents)
    person.words = words = Words(rules)
    person.game = game
    out.write(f"{rules.title}: you are in seat {seat + 1} of {players}; type `help` at any question.\n")

    def observe(g, kind, where, payload):
        line = words.describe(kind, payload)
        if line is not None:
            out.write(line + "\n")
        if kind == "turn" and g.state.players[g.state.current].seat == seat and not person.ended:
            out.write(status(g, seat, words))
    game.observer = observe
    game.play()
    return game
