"""The game state as plain data, and its lossless JSON form.

Players, things and the bank are attrs classes holding plain values; references
between them (an owner, a position) are the objects themselves while a game runs and
names in JSON. `state_to_json` / `state_from_json` round-trip a state exactly,
including the random generator, so a saved game resumes with the same dice.
"""

from __future__ import annotations

import random
from collections.abc import MutableMapping
from typing import TYPE_CHECKING, ClassVar

import attrs

FIELD_PREFIX = "f_"  # a declared field `cash` is the attribute `f_cash`: never a name the engine itself uses


def field_attr(name: str) -> str:
    """The attribute that holds the declared field `name` of a player or thing."""
    return FIELD_PREFIX + name


def with_fields(base: type, fields) -> type:
    """`base` (Player or Thing) with a slot for each declared field, made once per rules file.

    A field in a slot is read as fast as Python reads anything (`lot.f_owner`), where a dict of
    fields costs a subscript and its own block of memory; written-out rules read fields many
    times a turn. Every thing of a file shares one class (the fields of all its kinds), so that
    a rule reading `t.owner` of things of several kinds reads one class's attribute. A field
    never set reads as absent, as a missing key did."""
    declared = tuple(dict.fromkeys(fields))
    return type(base.__name__, (base,),
                {"__slots__": tuple(field_attr(n) for n in declared), "declared": declared})


class Fields(MutableMapping):
    """A player's or thing's fields as a dict, for code that names a field only when it runs (tools,
    saved games, tests); rules written out read the attributes. A field masked from the agent now
    deciding (blindfold.py) is absent, and asked for by name raises as the mask does."""

    __slots__ = ("_of",)

    def __init__(self, of):
        self._of = of

    def __getitem__(self, name):
        try:
            return getattr(self._of, FIELD_PREFIX + name)
        except AttributeError:
            raise KeyError(name) from None

    def __setitem__(self, name, value) -> None:
        if name not in type(self._of).declared:
            raise KeyError(f"{self._of.name} has no field `{name}`")
        setattr(self._of, FIELD_PREFIX + name, value)

    def __delitem__(self, name) -> None:
        try:
            delattr(self._of, FIELD_PREFIX + name)
        except AttributeError:
            raise KeyError(name) from None

    def __contains__(self, name) -> bool:
        of = self._of
        return name not in type(of).masked and hasattr(of, FIELD_PREFIX + name)

    def get(self, name, default=None):
        of = self._of
        return default if name in type(of).masked else getattr(of, FIELD_PREFIX + name, default)

    def __iter__(self):
        return iter([name for name in type(self._of).declared if name in self])

    def __len__(self) -> int:
        return sum(1 for _ in self)

    def __repr__(self) -> str:
        return repr(dict(self.items()))


@attrs.define(eq=False, slots=True)
class Square:
    """A named special square of the board (Start, Jail...). It may appear more than once."""

    name: str
    title: str

    def __repr__(self) -> str:
        return f"Square({self.name})"


@attrs.define(eq=False, slots=True, hash=False)
class Copy(Square):
    """One place of a square the board repeats, where the file names one of its places (`board:` with
    `Corner as Corner2`): every place of that square holds a Copy of its own, so a token's
    position tells the places apart. A Copy equals its square (`player.position == Corner` on any
    of them) and itself, not another place (`player.position == Corner2` there only); its `name`
    is the square's, as events show it, and `copy` the place's own name, if it has one."""

    square: Square
    index: int  # its place on the board
    copy: str | None = None

    def __eq__(self, other) -> bool:
        return other is self or other is self.square

    def __ne__(self, other) -> bool:
        return not (other is self or other is self.square)

    def __hash__(self) -> int:
        return hash(self.square)

    def __repr__(self) -> str:
        return f"Copy({self.copy or self.name}@{self.index})"


@attrs.define(eq=False, slots=True)
class Supply:
    """A limited supply of pieces the bank holds (`supply Houses = 32 on Lot.houses`): the pieces out of
    it are the sum of `field` over the things of `kind`, so nothing else need be kept."""

    name: str
    size: int
    kind: str
    field: str

    def __repr__(self) -> str:
        return f"Supply({self.name})"


@attrs.define(eq=False, slots=True)
class Thing:
    """A thing of a kind: its fixed table data and its mutable state are its fields, in the slots
    of the rules file's class of things (`with_fields`)."""

    declared: ClassVar[tuple[str, ...]] = ()  # the fields a class made by `with_fields` has slots for
    masked: ClassVar[frozenset[str]] = frozenset()  # fields hidden from the agent deciding (blindfold.py): none here

    name: str
    kind: str
    index: int | None = None  # where it lies on the board, if it does

    @property
    def f(self) -> Fields:
        return Fields(self)

    def __repr__(self) -> str:
        return f"Thing({self.name})"


@attrs.frozen
class Held:
    """A card a player keeps for later: which deck, which card."""

    deck: str
    card: str
    since: int = attrs.field(default=0, eq=False)  # the turn it was kept in (not part of its identity)

    @property
    def name(self) -> str:
        return self.card


@attrs.define(eq=False, slots=True)
class Player:
    """A player: the engine's own record of him here; his declared fields (cash among them) in the
    slots of the rules file's class of players (`with_fields`)."""

    declared: ClassVar[tuple[str, ...]] = ()
    masked: ClassVar[frozenset[str]] = frozenset()
    if TYPE_CHECKING:  # every player has cash (a field of every file: `PLAYER_FIELDS`), in a slot of the file's class
        f_cash: int

    seat: int
    name: str
    at: int = 0  # board index
    out: bool = False
    owing: int = 0  # while raising cash for a debt, the amount owed
    bidding: int = 0  # in an action window before a bid (`auction … with window`), the lowest bid he may make
    hand: list = attrs.Factory(list)  # cards kept for later (Held)
    extra_turns: int = 0  # turns to play again before the next player's
    visits: int = 0  # arrivals of his token on a square so far: each is a new visit
    status: str | None = None  # a status with its own turn (`put P in S`), or None for the ordinary turn
    status_turns: int = 0  # the turns he has begun in that status, this one included
    uses: dict = attrs.Factory(dict)  # action with a limit -> [turn or visit it was last taken in, times taken then]

    @property
    def f(self) -> Fields:
        return Fields(self)

    def __repr__(self) -> str:
        return f"Player({self.name})"


class Bank:
    """The bank as an account; `balance` may go negative when the bank is unlimited."""

    __slots__ = ("balance", "unlimited")
    name = "bank"

    def __init__(self, balance: int, unlimited: bool):
        self.balance = balance
        self.unlimited = unlimited

    def __repr__(self) -> str:
        return "Bank"


class Account:
    """An account field (`deposit: account` on a player, `pot: account` in `global:`): money held
    apart from cash, moved by `pay`, counted by money conservation; never below 0."""

    __slots__ = ("name", "balance")
    unlimited = False

    def __init__(self, name: str, balance: int = 0):
        self.name = name
        self.balance = balance

    def __repr__(self) -> str:
        return f"Account({self.name})"


@attrs.define(eq=False)
class GameState:
    players: list
    things: list  # in declaration order
    globals: dict
    bank: Bank
    decks: dict  # deck name -> list of card names, top first
    discards: dict
    rng: random.Random
    turn: int = 0
    current: int = 0
    over: bool = False
    winner: Player | None = None
    winners: list = attrs.Factory(list)  # every winner: several when they share the win
    end_reason: str | None = None
    showing: dict = attrs.Factory(dict)  # deck name -> the `lasting` card in force (Held), if any


_PLAIN = frozenset({int, bool, str, float, type(None)})  # shown as they are: most values set are numbers


def name_of(value):
    """A value as events show it: things, players and squares by name, in lists too (a list of
    things may be set, chosen or passed to a procedure, and the log is JSON)."""
    if type(value) in _PLAIN:
        return value
    if isinstance(value, (Player, Thing, Square, Held, Account, Supply)):
        return value.name
    if isinstance(value, Bank):
        return "bank"
    if isinstance(value, list):
        return [name_of(v) for v in value]
    return value


# ---- JSON ---------------------------------------------------------------------------

def _ref(value):
    if isinstance(value, Player):
        return {"player": value.name}
    if isinstance(value, Thing):
        return {"thing": value.name}
    if isinstance(value, Copy):  # one place of a repeated square: by its place on the board
        return {"square": value.name, "at": value.index}
    if isinstance(value, Square):
        return {"square": value.name}
    if isinstance(value, Bank):
        return {"bank": True}
    if isinstance(value, Account):
        return {"account": value.name, "balance": value.balance}
    if isinstance(value, list):
        return [_ref(v) for v in value]
    return value


def state_to_json(state: GameState) -> dict:
    version, internal, gauss = state.rng.getstate()
    return {
        "turn": state.turn,
        "current": state.current,
        "over": state.over,
        "winner": state.winner.name if state.winner else None,
        **({"winners": [w.name for w in state.winners]} if len(state.winners) > 1 else {}),  # a shared win
        "end_reason": state.end_reason,
        "bank": {"balance": state.bank.balance, "unlimited": state.bank.unlimited},
        "players": [{"seat": p.seat, "name": p.name, "at": p.at, "out": p.out, "owing": p.owing,
                     "bidding": p.bidding,
                     "extra_turns": p.extra_turns, "hand": [[h.deck, h.card, h.since] for h in p.hand],
                     "visits": p.visits, "uses": {k: list(v) for k, v in p.uses.items()},
                     **({"status": p.status, "status_turns": p.status_turns} if p.status is not None else {}),
                     "fields": {k: _ref(v) for k, v in p.f.items()}} for p in state.players],
        "things": {t.name: {k: _ref(v) for k, v in t.f.items()} for t in state.things},
        "globals": {k: _ref(v) for k, v in state.globals.items()},
        "decks": {k: list(v) for k, v in state.decks.items()},
        "discards": {k: list(v) for k, v in state.discards.items()},
        "showing": {k: [h.deck, h.card] for k, h in state.showing.items()},
        "rng": [version, list(internal), gauss],
    }


def state_from_json(data: dict, things: list, squares: dict, player_class: type) -> GameState:
    """Rebuild a state; `things` are fresh Thing objects (fixed data) to fill, `squares` by name,
    `player_class` the rules file's (`Rules.player_class`)."""
    by_thing = {t.name: t for t in things}
    players = [player_class(seat=p["seat"], name=p["name"], at=p["at"], out=p["out"], owing=p["owing"],
                      bidding=p.get("bidding", 0), extra_turns=p["extra_turns"], hand=[Held(*h) for h in p["hand"]],
                      visits=p.get("visits", 0), uses={k: list(v) for k, v in p.get("uses", {}).items()},
                      status=p.get("status"), status_turns=p.get("status_turns", 0))
               for p in data["players"]]
    by_player = {p.name: p for p in players}

    def deref(value):
        if isinstance(value, dict):
            if "player" in value:
                return by_player[value["player"]]
            if "thing" in value:
                return by_thing[value["thing"]]
            if "square" in value:  # (a place of a repeated square, a Copy, is kept by its name and place)
                return squares[(value["square"], value["at"]) if "at" in value else value["square"]]
            if "bank" in value:
                return bank
            if "account" in value:
                return Account(value["account"], value["balance"])
        if isinstance(value, list):
            return [deref(v) for v in value]
        return value

    bank = Bank(data["bank"]["balance"], data["bank"]["unlimited"])
    for p, raw in zip(players, data["players"]):
        p.f.update({k: deref(v) for k, v in raw["fields"].items()})
    for name, fields in data["things"].items():
        by_thing[name].f.update({k: deref(v) for k, v in fields.items()})
    rng = random.Random()
    version, internal, gauss = data["rng"]
    rng.setstate((version, tuple(internal), gauss))
    return GameState(
        players=players, things=things, globals={k: deref(v) for k, v in data["globals"].items()}, bank=bank,
        decks={k: list(v) for k, v in data["decks"].items()}, discards={k: list(v) for k, v in data["discards"].items()},
        rng=rng, turn=data["turn"], current=data["current"], over=data["over"],
        winner=by_player[data["winner"]] if data["winner"] else None, end_reason=data["end_reason"],
        winners=[by_player[n] for n in data.get("winners", [data["winner"]] if data["winner"] else [])],
        showing={k: Held(d, c) for k, (d, c) in data.get("showing", {}).items()},
    )


class Roll:
    """A roll of the dice (`roll 2 dice as d`: `d.faces`, `d.total`, `d.doubles`): a value, equal to
    any roll that shows the same faces, and never changed once made, so that the 36 rolls of two
    dice, one made every turn, are made once and shared (`TWO_DICE`)."""

    __slots__ = ("faces", "total", "doubles")

    def __init__(self, faces: tuple, total: int, doubles: bool):
        self.faces = faces
        self.total = total
        self.doubles = doubles

    def __eq__(self, other) -> bool:
        return isinstance(other, Roll) and self.faces == other.faces

    def __hash__(self) -> int:
        return hash(self.faces)

    def __repr__(self) -> str:
        return f"Roll(faces={self.faces!r}, total={self.total!r}, doubles={self.doubles!r})"


TWO_DICE = tuple(Roll((a, b), a + b, a == b) for a in range(1, 7) for b in range(1, 7))  # faces a, b: [6 * a + b - 7]
ONE_DIE = tuple(Roll((a,), a, False) for a in range(1, 7))  # face a: [a - 1]
