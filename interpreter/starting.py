"""A game's starting position: the board, the things' fields, the groups' members, the players.

Every game of a file starts the same way, so what can be is worked out once for all of them:
where the things lie on the board (`board_layout`, kept in `Rules.layout`), and the things'
starting fields. Every game starts its things from their tables' cells and their kinds' state
defaults, and a group's members are the things whose fixed field names it. A simulation plays
thousands of games of one file, and most of that is the same each time: a field computed from
literals and parameters alone (`reads` empty) to a plain value (a number, a text, a truth, none).
The first game of a `Rules` works everything out as written and keeps, in `Rules.thing_start`,
each thing's starting fields with those values filled in, set by a function written out for its
kind's fields (`t.f_cost = cost`); the games after it run those, computing only the rest (a list,
which a game must not share with the next; a thing, which belongs to its game), in the order
written, so that a later writer of a field still wins. Members are kept, as positions in the list
of things, when every cell of the field that names their group is computed from literals.
"""

from __future__ import annotations

from .state import Bank, GameState, field_attr
from .pysource import Function, define

PLAIN = (int, float, str, bool, type(None))  # values a game may share with the next: never changed in place


def _constant(function) -> bool:
    """Whether a compiled expression reads nothing: the same value in every game."""
    return getattr(function, "reads", None) == frozenset()


def board_layout(rules) -> tuple:
    """Where the things of a game of `rules` lie, worked out once for all its games, by each thing's
    position in the list of things: (each kind's things, in their order, as (kind, positions); the
    board, as (position of its thing or None, its square or None) for each of its places, the
    squares off the ring last; (position, board index) for each thing on the board, in board
    order; the board indexes of each square's first place; the indexes of the `stop` squares on
    the ring; the index of the start; each plain square on the ring with the indexes of its places
    there, in order (`move`))."""
    position = {name: k for k, name in enumerate(rules.thing_names)}
    kinds: dict = {}
    for k, name in enumerate(rules.thing_names):
        kinds.setdefault(rules.thing_kinds[name], []).append(k)
    board = [(position[n], None) if n in position else (None, rules.places.get(i) or rules.squares[n])
             for i, n in enumerate(rules.board)]
    board += [(None, rules.squares[n]) for n in rules.off_board]
    placed = [(k, i) for i, (k, _) in enumerate(board) if k is not None]
    first: dict = {}
    for i, name in enumerate([*rules.board, *rules.off_board]):
        first.setdefault(name, i)
    stop_names = {name for name, decl in rules.program.squares.items() if decl.stop}
    stops = frozenset(i for i, name in enumerate(rules.board) if name in stop_names)
    places: dict = {}
    for i, (_, square) in enumerate(board[:len(rules.board)]):
        if square is not None:
            places.setdefault(getattr(square, "square", square), []).append(i)  # a Copy: its square's places
    return tuple(kinds.items()), board, placed, tuple(first.values()), stops, rules.board.index(rules.start), \
        {square: tuple(indexes) for square, indexes in places.items()}


def lay_out(game, rules, names: list, rng) -> None:
    """Set out a new game's pieces (`game.things`, its board, its state with `rng` as the dice, each
    of `names` a player on the start square) and give everything its starting value as the rules
    compute it: the things' fields and the groups' members, the bank, the players' fields (each
    player's worked out before any is set), the globals, in that order."""
    game.squares = rules.squares if not rules.places else \
        {**rules.squares, **{c.copy: c for c in rules.places.values() if c.copy is not None},
         **{(c.name, i): c for i, c in rules.places.items()}}  # a named place (`at`); a Copy in a saved game
    thing = rules.thing_class
    game.things = things = [thing(name, rules.thing_kinds[name]) for name in rules.thing_names]
    game.by_name = {t.name: t for t in things}
    if rules.layout is None:
        rules.layout = board_layout(rules)
    kinds, board, placed, once, game.stops, start, game.square_places = rules.layout
    game.board = [things[k] if k is not None else square for k, square in board]
    game.ring = len(rules.board)  # squares past the ring's end are off the board
    for k, i in placed:
        things[k].index = i
    game.square_list = [getattr(game.board[i], "square", game.board[i]) for i in once]  # each once, in board order
    game.kind_things = {kind: [things[k] for k in positions] for kind, positions in kinds}
    for action in rules.actions:  # an action over several kinds: their things together, in table order
        if action.kind is not None and " or " in action.kind and action.kind not in game.kind_things:
            several = set(action.kind.split(" or "))
            game.kind_things[action.kind] = [t for t in things if t.kind in several]
    by_name = game.by_name
    game.adjacent = {by_name[name]: [by_name[n] for n in around] for name, around in rules.adjacency.items()}
    state = GameState(players=[], things=game.things, globals={}, bank=Bank(0, rules.bank_unlimited),
                      decks={}, discards={}, rng=rng)
    game.state = state
    game.members = {}
    start_things(game, rules)
    if rules.bank_amount is not None:
        state.bank.balance = rules.bank_amount(game, {})
    for seat, name in enumerate(names):
        state.players.append(rules.player_class(seat=seat, name=name, at=start))
    for p in state.players:
        defaults = rules.player_defaults.items()
        values = [(field_attr(field), default(game, {"player": p})) for field, default in defaults]
        for attr, value in values:  # each worked out before any is set
            setattr(p, attr, value)
    state.globals = {k: d(game, {}) for k, d in rules.global_defaults.items()}


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
