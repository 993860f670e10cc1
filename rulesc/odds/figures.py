"""The figures a player reads, from a chain and its long-run law: per square, per group, per lap.

For each place of the board: the share of turns that end there, and the expected landings there
per turn and per lap (a lap being the ring's length in squares moved). Groups are the rules' own
(the things whose field names a group value) and the special squares printed on several places.
How exact they are is the chain's caveats: none, exact (under the policy stated, if one is: how
the player decides, the fields fixed); only a shuffled deck's order, the usual model (each card
drawn independently with its share of the deck); anything else, approximate, and the report shows
the simulated figures beside them.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import attrs

from .chain import Chain, read_chain
from .solve import stationary
from .values import DECK

EXACT = "exact"
MODEL = "exact for the card model"  # exact but for a deck's order (each card drawn with its share)
APPROXIMATE = "approximate"


@attrs.frozen
class SquareFigures:
    index: int
    name: str
    ends: Fraction  # the share of turns that end here
    landings: Fraction  # expected landings here per turn


@attrs.define
class Odds:
    title: str
    path: str
    exactness: str
    squares: list  # [SquareFigures], board order (the ring, then the squares off it)
    groups: dict  # group name -> [board index]
    statuses: dict  # status name (or None) -> share of turns that end in it
    steps: Fraction  # expected squares moved per turn
    ring: int
    caveats: list
    states: int
    policy: tuple = ()  # the stated decisions and fields ("fine=play", "car=SportsCar"): exact under them

    @property
    def moves(self) -> bool:
        """Whether any rule moves the token: a game without roll-and-move has no odds to give."""
        return bool(self.steps) or any(s.landings for s in self.squares)

    @property
    def laps(self) -> Fraction:
        """Expected laps per turn."""
        return self.steps / self.ring

    def per_lap(self, landings: Fraction) -> Fraction | None:
        return landings / self.laps if self.laps else None

    def group(self, name: str) -> SquareFigures:
        members = [self.squares[i] for i in self.groups[name]]
        return SquareFigures(-1, name, sum((m.ends for m in members), Fraction(0)),
                             sum((m.landings for m in members), Fraction(0)))


def odds(rules, policy=None) -> Odds:
    """The exact (or stated) figures of `rules`, a compiled `Rules`, under the stated `policy` if any."""
    chain = read_chain(rules, policy)
    return figures(rules, chain)


def figures(rules, chain: Chain) -> Odds:
    states = sorted(chain.outcomes, key=lambda s: (s.at, s.status or "", s.turns, s.counters))
    law = stationary(states, {s: o.ends for s, o in chain.outcomes.items()})
    ends: dict = defaultdict(Fraction)
    landings: dict = defaultdict(Fraction)
    statuses: dict = defaultdict(Fraction)
    steps = Fraction(0)
    for s, share in law.items():
        if not share:
            continue
        ends[s.at] += share
        statuses[s.status] += share
        outcome = chain.outcomes[s]
        steps += share * outcome.steps
        for i, n in outcome.landings.items():
            landings[i] += share * n
    squares = [SquareFigures(i, name, ends[i], landings[i]) for i, name in enumerate(chain.board)]
    kinds = {c.kind for c in chain.caveats}
    exactness = EXACT if not kinds else MODEL if kinds == {DECK} else APPROXIMATE
    return Odds(rules.title, rules.path, exactness, squares, board_groups(rules, chain.board), dict(statuses), steps,
                chain.ring, chain.caveats, len(states), chain.policy.written)


def board_groups(rules, board: list) -> dict:
    """Group value -> the board places of its members; and each square printed on several places."""
    program = rules.program
    groups: dict = {}
    for gm in program.groups.values():
        field = rules.group_fields[gm.name].field if gm.name in rules.group_fields else None
        for member in gm.members:
            places = [i for i, name in enumerate(board) if name in program.things
                      and _names(program.things[name].values.get(field), member.id)]
            if places:
                groups[member.id] = places
    for name in dict.fromkeys(board):
        places = [i for i, n in enumerate(board) if n == name]
        if len(places) > 1 and name not in groups:
            groups[name] = places
    return groups


def _names(expr, name: str) -> bool:
    return getattr(expr, "id", None) == name
