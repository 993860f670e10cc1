"""The turn and the arrivals on each square, written out as Python once per rules file.

`Game.play_turn` and `Game.move` are general: a loop over the hooks, over the phases (each
tested for a condition, an option, a status), the end-of-turn windows; on each arrival, a look
at which handlers a square has and a generic dispatch to them. What they do for one file is
known when it is compiled, so this module writes it out once per `Rules`, as the statements'
code is (stmtgen.py):

- `play_turn(g)`: that file's turn, with only the parts it has (no hook loop in a file with no
  hooks, no status test in one with no statuses, each phase written out in order);
- `land[i]` / `passing[i]`: for each board square, a function that runs the handlers of an arrival
  there (or None where there are none), their conditions all tested before any runs, as
  `Game.fire` does;
- `pass_ahead[i]`: for each square a token can leave, the squares with `on pass` handlers ahead of
  it within one round, as (distance, square) in moving order, so a move asks only about those.

They are the only implementation: `Game.play_turn` runs `play_turn`, and every move fires `land`
and `passing`.
"""

from __future__ import annotations

import attrs

from .agents import Agent
from .errors import GameEnded, TurnEnded
from .events import NO_RULE



@attrs.define
class WrittenTurn:
    """What this module writes for one rules file (see the module's docstring)."""

    play_turn: object
    land: list  # board index -> fire(g, player, occupant) or None
    passing: list
    pass_ahead: list  # board index -> ((distance, index), ...)


def _handlers_at(table: dict, name: str, kind: str | None) -> list:
    """The handlers of an arrival at a square: those for its kind, then those for it by name."""
    return (list(table.get(kind, [])) if kind is not None else []) + list(table.get(name, []))


def _body_call(handler, index: int, namespace: dict) -> str:
    """The call of a handler's body: the body itself while no property checker watches for settled
    states (`rules.settling` wraps it for that), the wrapper otherwise."""
    namespace[f"B{index}"] = handler.body
    namespace[f"R{index}"] = getattr(handler.body, "body", handler.body)
    return f"(R{index} if g.on_settled is None else B{index})(g, e{index})"


def arrival_function(handlers: list, label: str):
    """fire(g, player, occupant): run `handlers` for an arrival, each with its own environment, all
    conditions tested before any body runs (one handler's effect cannot trigger the next)."""
    if not handlers:
        return None
    namespace: dict = {}
    lines = ["def fire(g, player, occupant):"]
    for i, h in enumerate(handlers):
        env = "{'player': player}" if h.var is None else f"{{'player': player, {h.var!r}: occupant}}"
        lines.append(f"    e{i} = {env}")
        if h.when is not None and len(handlers) > 1:
            namespace[f"W{i}"] = h.when
            lines.append(f"    t{i} = W{i}(g, e{i})")
    for i, h in enumerate(handlers):
        call = _body_call(h, i, namespace)
        if h.when is None:
            lines.append(f"    {call}")
        else:
            namespace[f"W{i}"] = h.when
            lines.append(f"    if {f't{i}' if len(handlers) > 1 else f'W{i}(g, e{i})'}:")
            lines.append(f"        {call}")
    return _define("fire", lines, namespace, label)


def _define(name: str, lines: list, namespace: dict, label: str):
    code = "\n".join(lines) + "\n"
    exec(compile(code, f"<{label}>", "exec"), namespace)
    function = namespace[name]
    function.source = code  # for reading and debugging
    return function


def _emit(indent: str, kind: str, where: str, payload: str) -> list:
    """`Game.emit`, written out: the event made only when something takes it."""
    return [f"{indent}if g.emitting:",
            f"{indent}    payload = {payload}",
            f"{indent}    if g._record:",
            f"{indent}        g.events.append((state.turn, {kind!r}, {where}, payload))",
            f"{indent}    if g._observer is not None:",
            f"{indent}        g._observer(g, {kind!r}, {where}, payload)"]


def turn_function(rules):
    """play_turn(g): one turn of `rules`: the hooks before, the phases (a player in a status plays
    its phases first, `Game.status_turn`), the hooks after, each player's end-of-turn window, the
    end conditions and the turn limit, then on to the next player."""
    ns: dict = {"TurnEnded": TurnEnded, "GameEnded": GameEnded, "NO_RULE": NO_RULE}
    lines = ["def play_turn(g):",
             "    state = g.state",
             "    player = state.players[state.current]",
             "    state.turn += 1",
             "    g.steps = 0"]
    lines += _emit("    ", "turn", "NO_RULE", "(player.name,)")
    lines += ["    env = {'player': player}", "    try:"]
    body = "        "
    for i, h in enumerate(rules.hooks["before"]):
        lines += _hook(body, f"HB{i}", h, ns)
    if rules.statuses:
        lines.append(f"{body}if player.status is None or g.status_turn(player, env):")
        body += "    "
    for index, phase in enumerate(rules.phases):
        inner = body
        lines.append(f"{inner}g.phase_at = {index}")
        ns[f"P{index}"] = phase
        if phase.when is not None:
            lines.append(f"{inner}if P{index}.when(g, env):")
            inner += "    "
        if phase.optional:
            lines.append(f"{inner}if g.choose(player, P{index}.name, ['play', 'skip'], P{index}.where) != 'skip':")
            inner += "    "
        lines += _emit(inner, "phase", f"P{index}.where", f"(P{index}.name,)")
        ns[f"PB{index}"] = getattr(phase.body, "body", phase.body)
        lines.append(f"{inner}(PB{index} if g.on_settled is None else P{index}.body)(g, env)")
    if lines[-1] == "    try:":
        lines.append(f"{body}pass")
    lines += ["    except TurnEnded:", "        pass",
              f"    g.phase_at = {len(rules.phases)}"]
    if rules.hooks["after"]:
        lines += ["    if not player.out:", "        try:"]
        for i, h in enumerate(rules.hooks["after"]):
            lines += _hook("            ", f"HA{i}", h, ns)
        lines += ["        except TurnEnded:", "            pass"]
    if rules.actions or rules.trade_kinds or rules.trade_cards:
        ns["QUIET"] = Agent.wants_window  # an agent that keeps it speaks only in its own turn: not asked
        lines += ["    active = g.active",
                  "    seat = active.index(player) if player in active else 0",
                  "    agents = g.agents",
                  "    for p in (active[seat:] + active[:seat] if seat else active):",
                  "        if p is not player and type(agents[p.seat]).wants_window is QUIET:",
                  "            continue",
                  "        if not g.agent(p).wants_window(g, p, p is player):",
                  "            continue",
                  "        try:",
                  "            g.window(p)",
                  "        except TurnEnded:",
                  "            pass"]
    lines += ["    g.check_end()",
              "    if g.turn_limit is not None and state.turn >= g.turn_limit:",
              "        g.end_game('turn limit', None, NO_RULE)",
              "    g.phase_at = -1",  # the next turn has not reached its first phase
              "    players = state.players",
              "    player = players[state.current]",
              "    if player.extra_turns and not player.out:",
              "        player.extra_turns -= 1",
              "        return",
              "    n = len(players)",
              "    for k in range(1, n + 1):",
              "        p = players[(state.current + k) % n]",
              "        if not p.out:",
              "            state.current = p.seat",
              "            return"]
    return _define("play_turn", lines, ns, f"{rules.path} turn")


def _hook(indent: str, name: str, h, ns: dict) -> list:
    ns[name] = h
    ns[name + "R"] = getattr(h.body, "body", h.body)
    call = f"({name}R if g.on_settled is None else {name}.body)(g, env)"
    if h.when is None:
        return [f"{indent}{call}"]
    return [f"{indent}if {name}.when(g, env):", f"{indent}    {call}"]


def write_turn(rules) -> WrittenTurn:
    """The turn and the arrivals of `rules`, written out (see the module's docstring)."""
    names = list(rules.board) + list(rules.off_board)
    kinds = rules.thing_kinds
    ring = len(rules.board)
    land, passing, made = [], [], {}
    for table, out in ((rules.land, land), (rules.passing, passing)):
        for name in names:
            handlers = _handlers_at(table, name, kinds.get(name))
            key = (id(table), tuple(map(id, handlers)))
            if key not in made:  # squares with the same handlers share one function
                made[key] = arrival_function(handlers, f"{rules.path} arrival at {name}")
            out.append(made[key])
    with_pass = [i for i in range(ring) if passing[i] is not None]
    pass_ahead = [tuple(sorted(((i - start) % ring or ring, i) for i in with_pass)) if start < ring else ()
                  for start in range(len(names))]
    return WrittenTurn(turn_function(rules), land, passing, pass_ahead)
