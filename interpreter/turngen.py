"""The turn and the arrivals on each square, written out as Python once per rules file.

A turn in general is a loop over the hooks, over the phases (each tested for a condition, an
option, a status), then the end-of-turn windows; an arrival, a look at which handlers a square
has and a dispatch to them. What they do for one file is known when it is compiled, so this
module writes it out once per `Rules`, with the statements' own code (stmtgen.py) inside:

- `play_turn(g)`: that file's turn, with only the parts it has (no hook loop in a file with no
  hooks, no status test in one with no statuses), each phase's statements written in place;
  `play_turn(g, whole=True)` plays the turns until the game is over (`Game.play`), in one loop;
- `land[i]` / `passing[i]`: for each board square, a function that runs the handlers of an arrival
  there (None where there are none), every condition tested before any body runs, each body with
  its own environment, the bodies' statements written in place;
- `pass_ahead[i]`: for each square a token can leave, the squares with `on pass` handlers ahead of
  it within one round, as (distance, square) in moving order, so a move asks only about those.

Each function is written once, for every use: while the property checker watches the game
(`g.on_settled`), each phase and hook body written in place counts as a rule running and settles
the game when it ends, as the bodies the engine calls do (stmtgen.write_settling). They are the
only implementation: `Game.play_turn` and `Game.play` run `play_turn`, and every move fires `land`
and `passing`.
"""

from __future__ import annotations

from typing import Callable

import attrs

from .agents import Agent
from .errors import GameEnded, TurnEnded
from .events import NO_RULE
from .operations import write_emit
from .pysource import Function, define
from .reads import UNTRACKED, counters_sum
from .stmtgen import binds, write_settling


@attrs.define
class WrittenTurn:
    """What this module writes for one rules file (see the module's docstring)."""

    play_turn: Callable[..., None]  # play_turn(g, whole=False): one turn, or (`whole`) the turns until the game is over
    land: list  # board index -> fire(g, player, occupant) or None
    passing: list
    pass_ahead: list  # board index -> ((distance, index), ...)


def _handlers_at(table: dict, name: str, kind: str | None) -> list:
    """The handlers of an arrival at a square: those for its kind, then those for it by name."""
    return (list(table.get(kind, [])) if kind is not None else []) + list(table.get(name, []))


def _condition(statements, fn, indent: int, node, local: frozenset, env: str, bound: dict | None = None) -> str:
    """The Python of a rule's condition, tested with `env` as its names; those in `bound` are read
    from the Python locals it maps them to (and `env` may not be made yet)."""
    if bound is None or not local <= bound.keys():
        fn.add(indent, f"e = {env}")
    return statements.value(fn, node, local, indent, bound)


def _body(statements, fn, indent: int, block, local: frozenset, env: str, fixed: dict | None = None,
          settles: bool = True) -> None:
    """A rule's body written in place, run with `env` as its names; those in `fixed` are read from
    the Python locals it maps them to (see `StatementCodegen.write`). A phase's or a hook's body
    `settles` (stmtgen.write_settling: the turn runs them, no rule does); an arrival's handlers need
    not, since a token moves only in a rule that is running, which settles when it ends."""
    def write(level: int) -> None:
        fn.add(level, f"e = {env}")
        statements.write(fn, block, local, level, fixed)
    if settles:
        write_settling(fn, indent, write)
    else:
        write(indent)


def arrival_function(handlers: list, label: str, statements):
    """fire(g, player, occupant): run `handlers` for an arrival, each with its own environment, all
    conditions tested before any body runs (one handler's effect cannot trigger the next)."""
    if not handlers:
        return None
    fn = Function()
    tests: list[str | None] = []
    envs = ["{'player': player}" if h.var is None else f"{{'player': player, {h.var!r}: occupant}}" for h in handlers]
    for i, h in enumerate(handlers):
        if h.when is None:
            tests.append(None)
            continue
        # Every test is made before any body runs: each value is a new local of its own or a constant
        # already, and the condition reads the arrival's names from the parameters: a body's
        # environment is made only when it runs.
        bound = {"player": "player"} if h.var is None else {"player": "player", h.var: "occupant"}
        tests.append(_condition(statements, fn, 1, h.node.when, h.local, envs[i], bound))
    for i, h in enumerate(handlers):
        indent = 1
        if tests[i] is not None:
            fn.add(1, f"if {tests[i]}:")
            indent = 2
        names = {"player": "player"} if h.var is None else {"player": "player", h.var: "occupant"}
        rebound = binds([h.node.body])
        fixed = {name: python for name, python in names.items() if name not in rebound}
        _body(statements, fn, indent, h.node.body, h.local, envs[i], fixed, settles=False)
    return define(fn, "fire", "g, player, occupant", label)


def turn_function(rules):
    """play_turn(g, whole=False): one turn of `rules` (or, `whole`, the turns until the game is over): the hooks before, the phases (a player in a status plays
    its phases first, `Game.status_turn`), the hooks after, each player's end-of-turn window, the
    end conditions and the turn limit, then on to the next player."""
    statements = rules.compiler.statements
    fn = Function()
    fn.namespace.update(TurnEnded=TurnEnded, GameEnded=GameEnded, NO_RULE=NO_RULE)
    fn.add(1, "watching = g.on_settled")
    fn.add(1, "state = g.state")
    fn.add(1, "while True:")  # one turn, or (`whole`) the turns until the game is over: no call per turn

    def add(level: int, line: str) -> None:  # a line of the turn, in the loop
        fn.add(level + 1, line)
    add(1, "if whole and state.over:")
    add(2, "return")
    add(1, "player = state.players[state.current]")
    add(1, "state.turn += 1")
    add(1, "g.steps = 0")
    write_emit(fn, 2, "turn", "NO_RULE", "player.name", turn="state.turn")
    add(1, "env = {'player': player}")
    add(1, "try:")
    indent = 3  # the level of what is written below with `fn.add` (not `add`), the bodies' too
    turn_names = frozenset({"player"})
    # The turn's bodies (and a status's, run with the same `env`) read `player` from the local,
    # unless one binds it again.
    bodies = [phase.node.body for phase in rules.phases] + [h.node.body for h in rules.hooks["before"]] \
        + [phase.node.body for status in rules.statuses.values() for phase in status.phases]
    turn_fixed = {} if "player" in binds(bodies) else {"player": "player"}
    # Where the turn has reached (`Game.phase_at`) is read only by actions timed against a phase.
    timed = any(action.relation is not None for action in rules.actions)
    for h in rules.hooks["before"]:
        _hook(statements, fn, indent, h)
    if rules.statuses:
        fn.add(indent, "if player.status is None or g.status_turn(player, env):")
        indent += 1
    for index, phase in enumerate(rules.phases):
        inner = indent
        if timed:
            fn.add(inner, f"g.phase_at = {index}")
        p = fn.name("_phase", phase)
        if phase.when is not None:
            fn.add(inner, f"if {_condition(statements, fn, inner, phase.node.when, turn_names, 'env')}:")
            inner += 1
        if phase.optional:
            fn.add(inner, f"if g.choose(player, {p}.name, ['play', 'skip'], {p}.where) != 'skip':")
            inner += 1
        write_emit(fn, inner, "phase", f"{p}.where", f"{p}.name", turn="state.turn")
        _body(statements, fn, inner, phase.node.body, turn_names, "env", turn_fixed)
    fn.add(indent, "pass")
    add(1, "except TurnEnded:")
    add(2, "pass")
    if timed:
        add(1, f"g.phase_at = {len(rules.phases)}")
    if rules.hooks["after"]:
        add(1, "if not player.out:")
        add(2, "try:")
        for h in rules.hooks["after"]:
            _hook(statements, fn, 4, h)
        add(3, "pass")
        add(2, "except TurnEnded:")
        add(3, "pass")
    if rules.actions or rules.trade_kinds or rules.trade_cards:
        quiet = fn.name("_quiet", Agent.wants_window)  # an agent that keeps it speaks only in its own turn
        add(1, "if g.all_quiet:")  # every agent speaks only in its own turn (`Game.play` knows): his window alone
        add(2, "if not player.out:")
        add(3, "try:")
        add(4, "g.actions.window(g, player)")
        add(3, "except TurnEnded:")
        add(4, "pass")
        add(1, "else:")
        add(2, "active = g.active")
        add(2, "seat = active.index(player) if player in active else 0")
        add(2, "agents = g.agents")
        add(2, "for p in (active[seat:] + active[:seat] if seat else active):")
        add(3, f"if type(agents[p.seat]).wants_window is {quiet}:")  # it answers `own turn`: not asked
        add(4, "if p is not player:")
        add(5, "continue")
        asked = "g.agent(p)" if rules.hidden_fields else "agents[p.seat]"  # `Game.agent`: blindfolded only where fields are hidden
        add(3, f"elif not {asked}.wants_window(g, p, p is player):")
        add(4, "continue")
        add(3, "try:")
        add(4, "g.actions.window(g, p)")
        add(3, "except TurnEnded:")
        add(4, "pass")
    if rules.ends:  # `Game.check_end`, called only when what the end conditions read has changed
        reads = frozenset().union(*(end.condition.reads for end in rules.ends))
        if UNTRACKED in reads:
            add(1, "g.check_end()")
        else:  # the key `check_end` keeps (`Game._end_key`), spelled out
            add(1, "versions = g.versions")
            add(1, f"if {counters_sum(tuple(sorted(reads)), 'versions')} != g._ends_false_at:")
            add(2, "g.check_end()")
    add(1, "if state.turn >= g.turn_limit:")  # (a game always has one: `Game.turn_limit`)
    add(2, "g.end_game('turn limit', None, NO_RULE)")
    if timed:
        add(1, "g.phase_at = -1")  # the next turn has not reached its first phase
    add(1, "players = state.players")
    add(1, "player = players[state.current]")
    add(1, "if player.extra_turns and not player.out:")
    add(2, "player.extra_turns -= 1")
    add(2, "if not whole:")
    add(3, "return")
    add(2, "continue")
    add(1, "n = len(players)")
    add(1, "k = state.current + 1")  # the next seat, most often still in: tried first, without a loop
    add(1, "if k == n:")
    add(2, "k = 0")
    add(1, "p = players[k]")
    add(1, "if not p.out:")
    add(2, "state.current = p.seat")
    add(2, "if not whole:")
    add(3, "return")
    add(2, "continue")
    add(1, "active = g.active")  # the players still in, in seat order: the first after this seat, else the first
    add(1, "for p in active:")
    add(2, "if p.seat > state.current:")
    add(3, "state.current = p.seat")
    add(3, "break")
    add(1, "else:")
    add(2, "if active:")
    add(3, "state.current = active[0].seat")
    add(1, "if not whole:")
    add(2, "return")
    return define(fn, "play_turn", "g, whole=False", f"{rules.path} turn")


def _hook(statements, fn, indent: int, h) -> None:
    """A `before turn` or `after turn` hook, run with the turn's names (`env`)."""
    if h.when is not None:
        fn.add(indent, f"if {_condition(statements, fn, indent, h.node.when, h.local, 'env')}:")
        indent += 1
    _body(statements, fn, indent, h.node.body, h.local, "env")


def write_turn(rules) -> WrittenTurn:
    """The turn and the arrivals of `rules`, written out (see the module's docstring)."""
    names = list(rules.board) + list(rules.off_board)
    kinds = rules.thing_kinds
    ring = len(rules.board)
    land: list[Callable[..., None] | None] = []
    passing: list[Callable[..., None] | None] = []
    made: dict = {}
    for table, out in ((rules.land, land), (rules.passing, passing)):
        for i, name in enumerate(names):
            handlers = _handlers_at(table, name, kinds.get(name))
            place = rules.places.get(i)
            if place is not None and place.copy is not None:  # a named place: its own handlers after its square's
                handlers += table.get(place.copy, [])
            key = (id(table), tuple(map(id, handlers)))
            if key not in made:  # squares with the same handlers share one function
                made[key] = arrival_function(handlers, f"{rules.path} arrival at {name}", rules.compiler.statements)
            out.append(made[key])
    with_pass = [i for i in range(ring) if passing[i] is not None]
    pass_ahead = [tuple(sorted(((i - start) % ring or ring, i) for i in with_pass)) if start < ring else ()
                  for start in range(len(names))]
    return WrittenTurn(turn_function(rules), land, passing, pass_ahead)
