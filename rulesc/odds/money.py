"""What a square earns its owner: the expected rent per opponent turn, and the turns a purchase or a
building takes to pay for itself.

The rent an opponent pays on landing is not read from the rules here: the interpreter's own
handlers compute it. For each owned square a two-player game is set up with the ownership and
buildings asked for, the opponent's token is sent onto the square (`send`: it lands, passing
nothing), and the owner's gain is what the rules paid him. Dice the handlers roll are forced, every
face in turn (the scenario's `dice`), so the expected rent is exact over the dice; a decision the
handlers ask is answered by the heuristic agent. Rent per opponent turn is then the chain's
landings per turn times the expected rent.

The price of a purchase and of a building are read from the rules where they are plain: a landing
rule that pays a field of the square to the bank and makes the player its owner (no price when
the square is auctioned), and an action that adds one to a count field of its square (the
buildings) and pays a field of it.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import attrs

from rulesc.dsl import ast
from rulesc.dsl.walk import walk
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import GameEnded, RuleRuntimeError

RICH = 10 ** 12  # the opponent's cash: he never falls into debt, so the whole rent is paid
MAX_RUNS = 2000  # dice sequences tried per square before giving up exactness


@attrs.frozen
class Income:
    name: str
    buildings: int
    rent: Fraction  # expected rent per landing
    per_turn: Fraction  # expected rent per opponent turn
    price: int | None  # what buying it costs (None: no fixed price)
    building_price: int | None
    next_rent: Fraction | None  # per opponent turn, with one building more
    exact_rent: bool

    @property
    def break_even(self) -> Fraction | None:
        """Opponent turns for the rent to repay the purchase."""
        return self.price / self.per_turn if self.price is not None and self.per_turn else None

    @property
    def building_break_even(self) -> Fraction | None:
        """Opponent turns for one more building to repay itself (from the rent it adds)."""
        if self.building_price is None or self.next_rent is None or self.next_rent <= self.per_turn:
            return None
        return self.building_price / (self.next_rent - self.per_turn)


def fields(program, kind: str) -> tuple[str | None, str | None, str | None]:
    """(price field, buildings field, building price field) of things of `kind`, where plain."""
    price = buildings = building_price = None
    for h in program.handlers:
        if h.event == "land" and h.target == kind and h.var:
            for node in walk(h.body):
                if isinstance(node, ast.Pay) and _field_of(node.amount, h.var) and _names(node.target, "bank"):
                    price = price or _field_of(node.amount, h.var)
    for action in program.actions.values():
        param = action.param
        if param is None or param.kind != kind:
            continue
        adds = paid = None
        for node in walk(action.body):
            if (isinstance(node, ast.Set) and _field_of(node.target, param.name)
                    and isinstance(node.value, ast.BinOp) and node.value.op == "+"
                    and _field_of(node.value.left, param.name) == _field_of(node.target, param.name)):
                adds = _field_of(node.target, param.name)
            elif isinstance(node, ast.Pay) and _field_of(node.amount, param.name) and _names(node.target, "bank"):
                paid = _field_of(node.amount, param.name)
        if adds is not None and buildings is None:  # an action that builds: one more, for a price
            buildings, building_price = adds, paid
    return price, buildings, building_price


def _field_of(node, var: str) -> str | None:
    if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and node.obj.id == var:
        return node.name
    return None


def _names(node, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def expected_rent(rules, thing: str, owned: list, buildings: dict,
                  buildings_field: str | None) -> tuple[Fraction, bool]:
    """The rent an opponent pays on landing on `thing`, exact over the dice (and whether it is)."""
    total = Fraction(0)
    stack: list = [((), Fraction(1))]
    runs = 0
    while stack:
        prefix, p = stack.pop()
        runs += 1
        if runs > MAX_RUNS:
            return total, False
        gain, rolls = _landing(rules, thing, owned, buildings, buildings_field, list(prefix))
        if len(rolls) > len(prefix):  # a roll beyond those forced: try each of its faces
            count = len(rolls[len(prefix)])
            share = Fraction(1, 6 ** count)
            for faces in _faces(count):
                stack.append((prefix + (faces,), p * share))
        else:
            total += p * gain
    return total, True


def _faces(count: int) -> list:
    return list(itertools.product(range(1, 7), repeat=count))


def _landing(rules, thing: str, owned: list, buildings: dict, buildings_field, forced: list):
    game = Game(rules, 2, seed=0, agents=make_agents("heuristic", 0, 2), record=True)
    game.setup()
    owner, opponent = game.state.players
    for name in owned:
        game.by_name[name].f_owner = owner
    if buildings_field is not None:
        for name, n in buildings.items():
            setattr(game.by_name[name], f"f_{buildings_field}", n)
    for field, decl in rules.program.player_fields.items():
        if decl.type.name == "money" and not decl.type.is_list:
            setattr(opponent, f"f_{field}", RICH)
    game.state.current = opponent.seat
    before = getattr(owner, "f_cash", 0)
    start = len(game.events)
    game.forced_dice = list(forced)
    try:
        game.move(opponent, "send", game.by_name[thing], None)
    except (GameEnded, RuleRuntimeError):
        pass
    rolls = [e.payload[1] for e in list(game.events)[start:] if e.kind == "roll"]
    return getattr(owner, "f_cash", 0) - before, rolls


def incomes(rules, odds, owned: list, buildings: dict) -> list:
    """The income figures of each square in `owned` (thing names), with `buildings` (name -> count)."""
    program = rules.program
    out = []
    for name in owned:
        kind = rules.thing_kinds[name]
        price_field, buildings_field, building_price_field = fields(program, kind)
        landings = sum((s.landings for s in odds.squares if s.name == name), Fraction(0))
        rent, exact = expected_rent(rules, name, owned, buildings, buildings_field)
        next_rent = None
        if buildings_field is not None:
            more = {**buildings, name: buildings.get(name, 0) + 1}
            higher, exact_more = expected_rent(rules, name, owned, more, buildings_field)
            next_rent = landings * higher
            exact = exact and exact_more
        price = _fixed(program, name, price_field)
        building_price = _fixed(program, name, building_price_field)
        out.append(Income(name, buildings.get(name, 0), rent, landings * rent, price, building_price, next_rent, exact))
    return out


def _fixed(program, thing: str, field: str | None) -> int | None:
    if field is None:
        return None
    value = program.things[thing].values.get(field)
    return value.value if isinstance(value, ast.Literal) and isinstance(value.value, int) else None


def from_scenario(program, title: str) -> tuple[list, dict]:
    """(owned, buildings) as the scenario `title` sets them up: every thing it gives an owner, and
    the buildings field its things' build action adds to, where the scenario sets it."""
    scenario = next((sc for sc in program.scenarios if sc.title == title), None)
    if scenario is None:
        raise KeyError(title)
    owned, counts = [], {}
    for item in scenario.items:
        if isinstance(item, ast.Set) and isinstance(item.target, ast.Attr) and isinstance(item.target.obj, ast.Name):
            name = item.target.obj.id
            if name not in program.things:
                continue
            if item.target.name == "owner" and not (isinstance(item.value, ast.Literal) and item.value.value is None):
                owned.append(name)
            elif isinstance(item.value, ast.Literal) and isinstance(item.value.value, int):
                counts[name, item.target.name] = item.value.value
    buildings = {}
    for (name, field), n in counts.items():
        if fields(program, program.things[name].kind)[1] == field:
            buildings[name] = n
    return list(dict.fromkeys(owned)), buildings
