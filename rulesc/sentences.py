"""Events and values in words, for a person reading a game: `Ann pays $22 to the bank`, squares and
cards by the titles the rules give them, money as money. `rulesc play` prints each event so."""

from __future__ import annotations

from rulesc.interpreter.events import FIELDS


def money(amount) -> str:
    return f"-${-amount:,}" if isinstance(amount, int) and amount < 0 else f"${amount:,}" \
        if isinstance(amount, int) else str(amount)


def plain(value) -> str:
    """A value in words: `nobody` for none, yes/no, a thing or player by name."""
    if value is None:
        return "nobody"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ", ".join(plain(v) for v in value) or "nothing"
    if isinstance(value, dict):
        return ", ".join(f"{k} {plain(v)}" for k, v in value.items())
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
        fields = [*program.player_fields.values(), *(f for kind in program.kinds.values() for f in kind.fields),
                  *program.global_fields.values()]
        self.money_fields, self.percent_fields = ({f.name for f in fields if (f.type.element or f.type).name == which}
                                                  for which in ("money", "percent"))  # (a list's: its elements')

    def square(self, name) -> str:
        name = plain(name)
        return self.titles.get(name, name)

    def card(self, name) -> str:
        name = plain(name)
        return f"\"{self.cards[name]}\"" if name in self.cards else name

    def field(self, field, value) -> str:
        """A field's value as the rules type it: money as money (a list of money too), a percentage as one."""
        if isinstance(value, (list, tuple)) and value:
            return " ".join(self.field(field, v) for v in value)
        if isinstance(value, int) and not isinstance(value, bool):
            if field in self.money_fields:
                return money(value)
            if field in self.percent_fields:
                return f"{value}%"
        return plain(value)

    def describe(self, kind: str, payload: tuple) -> str | None:
        """One event as a sentence, or None for the engine's bookkeeping nobody needs to read."""
        e = dict(zip(FIELDS[kind], payload))
        v = {k: plain(x) for k, x in e.items()}
        if kind == "setup":
            return f"a new game: {v['players']} (seed {v['seed']})"
        if kind == "first":
            if e.get("rolls") is None:  # seat order, or the file's own rule: no roll to tell
                return f"{v['player']} goes first"
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
            return f"{v['player']} chooses {v['option']} at `{v['decision']}`"
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
