"""The values the chain reader can know: a roll, the moving player's square and status, his counters.

The Markov chain of a token follows only what moves it. A condition or a distance that reads
anything else (money, who owns what, a deck's state, another player, a decision) cannot be known
from the token's state alone: `Unknown` says so, with what it read, and the reader (chain.py)
names the rule whose figures then rest on an approximation. This module computes values of the
few expression forms a movement rule uses; it runs no statement.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from functools import lru_cache

import attrs

from rulesc.dsl import ast

# What a value the chain cannot know depends on: the kinds of caveat the report names.
DECISION = "decision"
STATE = "state"  # money, ownership, a field no movement rule keeps
PLAYERS = "other players"
DECK = "deck order"  # a shuffled pile drawn in turn: each draw has its card's share, draws are not independent
EXHAUSTED = "deck runs out"  # a `once` deck: the long run has none of its cards left


class Unknown(Exception):
    """The value depends on what the token's state does not hold: `kind` (one of the above) and `what`."""

    def __init__(self, kind: str, what: str):
        super().__init__(what)
        self.kind = kind
        self.what = what


@attrs.frozen
class Dice:
    """A roll's value as a movement rule reads it: its total and whether it shows doubles."""

    total: int
    doubles: bool


@attrs.frozen
class Place:
    """A square or a thing, by name (a square on several places of the ring is one name)."""

    name: str


@attrs.frozen
class Opaque:
    """A local name bound to a value the chain cannot know (a choice, an ownership test)."""

    kind: str
    what: str


PLAYER = "@player"  # the moving player


@lru_cache(maxsize=None)
def dice_outcomes(count: int) -> tuple[tuple[Dice, Fraction], ...]:
    """The law of a roll of `count` six-sided dice, as (total, doubles) and its probability."""
    ways: dict[Dice, int] = {}
    for faces in itertools.product(range(1, 7), repeat=count):
        key = Dice(sum(faces), count > 1 and len(set(faces)) == 1)
        ways[key] = ways.get(key, 0) + 1
    whole = 6 ** count
    return tuple((d, Fraction(n, whole)) for d, n in sorted(ways.items(), key=lambda kv: (kv[0].total, kv[0].doubles)))


_COMPARE = {"==": lambda a, b: a == b, "!=": lambda a, b: a != b, "<": lambda a, b: a < b,
            "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b}
_ARITH = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
          "/": lambda a, b: a // b, "//": lambda a, b: a // b, "%": lambda a, b: a % b}


class Values:
    """Evaluates an expression for one branch of a turn: `lookup(name)` gives a local name's value,
    `token_value(attribute)` the moving player's `position`, `status`, `status_turns` or a kept counter."""

    def __init__(self, reader):
        self.reader = reader

    def value(self, node, env: dict, token):
        reader = self.reader
        if isinstance(node, ast.Literal):
            return node.value
        if isinstance(node, ast.Name):
            name = node.id
            if name in env:
                found = env[name]
                if isinstance(found, Opaque):
                    raise Unknown(found.kind, found.what)
                return found
            if name == "player":
                return PLAYER
            if name in reader.params:
                return reader.params[name]
            if name in reader.places:
                return Place(name)
            if name in reader.statuses:
                return name
            if name in reader.marks:
                return False  # a move's mark the moving rule did not give
            if name in ("true", "false"):
                return name == "true"
            if name == "none":
                return None
            raise Unknown(STATE, f"`{name}`")
        if isinstance(node, ast.Attr):
            if isinstance(node.obj, ast.Name) and node.obj.id in reader.decks and node.obj.id not in env:
                if node.name in ("left", "discarded", "showing"):
                    raise Unknown(DECK, f"`{node.obj.id}.{node.name}`")
                return (node.obj.id, node.name)  # a card value, `Deck.Card`
            obj = self.value(node.obj, env, token)
            if isinstance(obj, Dice):
                if node.name == "total":
                    return obj.total
                if node.name == "doubles":
                    return obj.doubles
                raise Unknown(STATE, f"the dice's `{node.name}`")
            if obj == PLAYER:
                return reader.token_value(token, node.name)
            if isinstance(obj, str) and obj.startswith("@"):
                raise Unknown(PLAYERS, f"another player's `{node.name}`")
            raise Unknown(STATE, f"`{node.name}` of `{getattr(obj, 'name', obj)}`")
        if isinstance(node, ast.Compare):
            left, right = self.value(node.left, env, token), self.value(node.right, env, token)
            try:
                return _COMPARE[node.op](left, right)
            except TypeError:  # an order between values that have none (`none < 3`)
                raise Unknown(STATE, "a comparison of unlike values") from None
        if isinstance(node, ast.BoolOp):
            unknown = None
            for operand in node.operands:
                try:
                    v = self.value(operand, env, token)
                except Unknown as exc:
                    unknown = unknown or exc
                    continue
                if node.op == "and" and not v:
                    return False
                if node.op == "or" and v:
                    return True
            if unknown is not None:
                raise unknown
            return node.op == "and"
        if isinstance(node, ast.Not):
            return not self.value(node.operand, env, token)
        if isinstance(node, ast.Neg):
            return -self.value(node.operand, env, token)
        if isinstance(node, ast.BinOp) and node.op in _ARITH:
            return _ARITH[node.op](self.value(node.left, env, token), self.value(node.right, env, token))
        if isinstance(node, ast.Conditional):
            if self.value(node.condition, env, token):
                return self.value(node.then, env, token)
            return self.value(node.orelse, env, token)
        if isinstance(node, ast.Call):
            if node.func in ("odd", "even") and len(node.args) == 1:
                v = self.value(node.args[0], env, token)
                return v % 2 == (1 if node.func == "odd" else 0)
            if node.func == "count" and len(node.args) == 1 and not reader.cards_kept \
                    and isinstance(node.args[0], ast.Attr) and node.args[0].name == "hand":
                return 0  # no card is ever kept: every hand is empty
            if node.func == "holds" and not reader.cards_kept:
                return False  # no rule the turn runs lets a player keep a card
            if node.func == "holds":
                raise Unknown(DECISION, "the cards a player keeps")
            if node.func in ("min", "max", "abs") and node.args:
                args = [self.value(a, env, token) for a in node.args]
                return {"min": min, "max": max, "abs": lambda x: abs(x)}[node.func](*args)
            raise Unknown(STATE, f"`{node.func}(…)`")
        if isinstance(node, ast.Aggregate):
            return self.aggregate(node, env, token)
        raise Unknown(STATE, type(node).__name__)

    def aggregate(self, node, env: dict, token):
        """`first`, `any`, `all`, `count` over what the board fixes: the squares `ahead(player)` (from
        the token's place) or the things of a kind, each tested by a condition the chain can know
        (`first(s in ahead(player) where any(r in Railroad: r == s))`, "the nearest railroad")."""
        items = self.collection(node.collection, env, token)
        if node.func not in ("first", "any", "all", "count"):
            raise Unknown(STATE, f"`{node.func}(…)` over the game")
        tests = [t for t in (node.where, node.body) if t is not None]
        count = 0
        for item in items:
            inner = {**env, node.var: item}
            ok = all(self.value(t, inner, token) for t in tests)
            if ok and node.func == "first":
                return item
            if ok and node.func == "any":
                return True
            if not ok and node.func == "all":
                return False
            count += bool(ok)
        return {"first": None, "any": False, "all": True, "count": count}[node.func]

    def collection(self, node, env: dict, token) -> list:
        reader = self.reader
        if isinstance(node, ast.Call) and node.func == "ahead" and len(node.args) == 1:
            if self.value(node.args[0], env, token) != PLAYER:
                raise Unknown(PLAYERS, "the squares ahead of another player")
            n = reader.ring
            at = token.at if token.at < n else -1
            return [Place(reader.board[(at + k) % n]) for k in range(1, n + 1)]
        if isinstance(node, ast.Name) and node.id not in env and node.id in reader.kinds:
            return [Place(t) for t, kind in reader.kind_of.items() if kind == node.id]
        raise Unknown(STATE, "a collection of the game's state")
