"""The things' fields and the groups' members at the start of a game, the same in every game of a file.

Every game starts its things from their tables' cells and their kinds' state defaults, and a
group's members are the things whose fixed field names it. A simulation plays thousands of games
of one file, and most of that is the same each time: a field computed from literals and
parameters alone (`reads` empty) to a plain value (a number, a text, a truth, none). The first
game of a `Rules` works everything out as written and keeps, in `Rules.thing_start`, each thing's
starting fields with those values filled in, set by a function written out for its kind's fields
(`t.f_cost = cost`); the games after it run those, computing only the rest (a list, which a game
must not share with the next; a thing, which belongs to its game), in the order written, so that
a later writer of a field still wins. Members are kept, as positions in the list of things, when
every cell of the field that names their group is computed from literals.
"""

from __future__ import annotations

from .state import field_attr
from .pysource import Function, define

PLAIN = (int, float, str, bool, type(None))  # values a game may share with the next: never changed in place


def _constant(function) -> bool:
    """Whether a compiled expression reads nothing: the same value in every game."""
    return getattr(function, "reads", None) == frozenset()


def start_things(game, rules) -> None:
    """Fill `game.things`' fields (none set yet) as the rules start them, and `game.members`."""
    known = rules.thing_start
    if known is None:
        _first_game(game, rules)
        return
    start, members = known
    start(game, game.things)
    if members is not None:
        things = game.things
        game.members = {things[group]: [things[i] for i in positions] for group, positions in members}
    else:
        game.members = _members(game, rules)


def _writers(rules, thing) -> list:
    """(field, compiled expression) that start a thing, in the order they are applied."""
    return [*rules.thing_cells[thing.name].items(), *rules.state_defaults.get(thing.kind, {}).items()]


def _first_game(game, rules) -> None:
    """Start the first game as written, then keep what every later game starts with the same."""
    fields = []
    for t in game.things:
        writers = _writers(rules, t)
        f = t.f
        for field, compute in writers:
            f[field] = compute(game, {})
        varying = {field for field, compute in writers if not (_constant(compute) and isinstance(f[field], PLAIN))}
        template = [(field_attr(field), None if field in varying else value) for field, value in f.items()]
        fields.append((template, [(field_attr(field), compute) for field, compute in writers if field in varying]))
    game.members = _members(game, rules)
    position = {id(t): i for i, t in enumerate(game.things)}
    kept_members = None
    if all(_constant(rules.thing_cells[t.name].get(m.field)) for m in rules.group_fields.values()
           for t in game.kind_things.get(m.kind, ())):
        kept_members = [(position[id(group)], [position[id(t)] for t in members])
                        for group, members in game.members.items()]
    rules.thing_start = (_write_start(fields), kept_members)


def _write_start(fields: list):
    """start(g, things): each thing's fields set as `fields` says, [(template, rest)] per thing: the
    template's (attribute, value) as they are, then each of the rest's (attribute, compute) computed.
    The things whose templates name the same attributes (those of a kind) share a setter written
    out for them (`t.f_cost = cost`: slots written as fast as Python writes anything), called with
    each one's values: a few small functions to compile, not one line for each field of each thing."""
    setters: dict = {}
    plan = []
    for template, rest in fields:
        attrs = tuple(attr for attr, _ in template)
        if attrs not in setters:
            fn = Function()
            for k, attr in enumerate(attrs):
                fn.add(1, f"t.{attr} = v{k}")
            parameters = ", ".join(["t", *(f"v{k}" for k in range(len(attrs)))])
            setters[attrs] = define(fn, "setter", parameters, "things' start")
        plan.append((setters[attrs], tuple(value for _, value in template), tuple(rest)))

    def start(g, things) -> None:
        for t, (setter, values, rest) in zip(things, plan):
            setter(t, *values)
            for attr, compute in rest:
                setattr(t, attr, compute(g, {}))
    return start


def _members(game, rules) -> dict:
    """Each group's members: the things of its members' kind whose fixed field names it."""
    members: dict = {}
    for group, spec in rules.group_fields.items():
        for g in game.kind_things.get(group, []):
            members[g] = [t for t in game.kind_things.get(spec.kind, []) if t.f.get(spec.field) is g]
    return members
