"""R1201: a rule that never runs, because a rule that runs before it always ends the turn first.

Why: the handlers of an arrival run in one order (a kind's before a square's own, each in file order,
a variant's after its base's), every one of their conditions tested on arrival before any body runs, and
`end turn` (or putting the mover in a status, or eliminating him, in his own turn) stops the rest. So a
handler after one that always ends the turn, under a condition that holds whenever its own does, is dead
in every game: typically a house rule's `on land Jail:` written beside the base's, which ends the turn.
The coverage of played games would list it under "never"; this says so before any game, at the line.
The same holds for `before turn`/`after turn` hooks (run in file order, each tested when its turn comes)
and for phases (R0402 already reports a phase after one whose last statement is `end turn`; this finds
the phases after one that ends the turn on every path).
"""

from __future__ import annotations

from .. import ast, codes
from ..diagnostics import Diagnostic
from ._common import always_ends, implies, in_main, label, movers_are_current, short, where

HELP = ("move what this rule does into the earlier rule, before the turn ends there, or change that rule "
        "(`replace` it in a house rule)")


def _squares(program, h) -> list:
    """The squares an `on land`/`on pass` handler is for."""
    if h.target in program.kinds:
        return [name for name, thing in program.things.items() if thing.kind == h.target]
    return [h.target]


def _renames(h, square: str) -> dict:
    return {h.var: ("Name", ("id", square))} if h.var else {}


def _report(program, dead, dead_what: str, killer, killer_what: str, end, consequence: str | None = None) -> Diagnostic:
    """At the dead rule, or, when only the killer is in the file checked (a variant's rule that ends the
    turn before its base's), at the killer (`consequence`: what it says there)."""
    if not in_main(program, dead.span) and in_main(program, killer.span):
        consequence = consequence or f"the {dead_what} at {short(program, dead.span)} never runs"
        return codes.RULE_NEVER_RUNS.diagnostic(
            f"this {killer_what} always ends the turn, so {consequence}",
            where(program, killer.span), killer.span,
            labels=(label(program, end.span, "the turn ends here"),
                    label(program, dead.span, f"the {dead_what} that never runs")), help=HELP)
    return codes.RULE_NEVER_RUNS.diagnostic(
        f"this {dead_what} never runs: the {killer_what} at {short(program, killer.span)} always ends the turn first",
        where(program, dead.span), dead.span,
        labels=(label(program, end.span, "the turn ends here"),), help=HELP)


def dead_handlers(program) -> set:
    """The ids of the `on land`/`on pass` handlers that never run (what R1201 reports of handlers)."""
    return {id(h) for h, _ in _dead(program)}


def _handlers(program) -> list:
    return [_report(program, later, "handler", killer, "handler", end) for later, (killer, end) in _dead(program)]


def _dead(program) -> list:
    """Each handler that never runs, with the handler that ends the turn before it and where it does."""
    found = []
    current = movers_are_current(program)
    procs = program.procedures
    ends = {id(h): always_ends(h.body, procs, current) for h in program.handlers}
    board = set()
    if program.board is not None:
        board = {s.id for s in program.board.squares}
    board |= {name for name, sq in program.squares.items() if sq.off_board}
    for event in ("land", "pass"):
        handlers = [h for h in program.handlers if h.event == event and h.target is not None]

        def order(square):
            thing = program.things.get(square)
            kind = [h for h in handlers if thing is not None and h.target == thing.kind]
            return kind + [h for h in handlers if h.target == square]

        for later in handlers:
            squares = [s for s in _squares(program, later) if s in board]
            if not squares:
                continue
            killers = []
            for square in squares:
                run = order(square)
                killer = next((e for e in run[:run.index(later)]
                               if ends[id(e)] is not None
                               and implies(later.when, _renames(later, square), e.when, _renames(e, square))), None)
                if killer is None:
                    break
                killers.append(killer)
            else:
                found.append((later, (killers[0], ends[id(killers[0])])))
    return found


def _hooks(program) -> list:
    found = []
    procs = program.procedures
    for which in ("before", "after"):
        hooks = [h for h in program.hooks if h.which == which]
        for i, later in enumerate(hooks):
            for j in range(i - 1, -1, -1):
                earlier = hooks[j]
                end = always_ends(earlier.body, procs, True)
                # an unconditional earlier hook kills every later one; a conditional one, the next hook
                # whose condition implies its own (a hook between them could change what they read)
                if end is not None and (earlier.when is None or (j == i - 1 and implies(later.when, {}, earlier.when, {}))):
                    found.append(_report(program, later, f"`{which} turn` hook", earlier, f"`{which} turn` hook", end))
                    break
    # a `before turn` hook that always ends the turn, under no condition: no phase ever runs
    killer = next((h for h in program.hooks if h.which == "before" and h.when is None
                   and always_ends(h.body, procs, True) is not None), None)
    if killer is not None:
        end = always_ends(killer.body, procs, True)
        phases = [*(program.turn.phases if program.turn else ()),
                  *(p for s in program.statuses.values() for p in s.phases)]
        if phases:
            first = next((p for p in phases if in_main(program, p.span)), phases[0])
            found.append(_report(program, first, f"phase `{first.name}`", killer, "`before turn` hook", end,
                                 consequence=f"no phase ever runs (phase `{first.name}` at "
                                             f"{short(program, first.span)}, and every other)"))
    return found


def _phases(program, phases) -> list:
    procs = program.procedures
    for i, phase in enumerate(phases[:-1]):
        if phase.optional or not phase.body.statements:
            continue
        end = always_ends(phase.body, procs, True)
        if end is None:
            continue
        if phase.when is None:
            dead = phases[i + 1:]
            blamed = in_main(program, phase.span) and not any(in_main(program, d.span) for d in dead)
            if isinstance(phase.body.statements[-1], (ast.EndTurn, ast.EndGame)) and not blamed:
                return []  # R0402 says so, at each phase that never runs
            if blamed:  # a variant's phase that ends the turn before its base's: the error is the variant's
                names = ", ".join(f"`{d.name}`" for d in dead)
                return [_report(program, dead[0], f"phase `{dead[0].name}`", phase, f"phase `{phase.name}`", end,
                                consequence=f"the phase{'s' if len(dead) > 1 else ''} {names} of "
                                            f"{short(program, dead[0].span).split(':')[0]} never run"
                                            f"{'s' if len(dead) == 1 else ''}")]
            return [_report(program, later, f"phase `{later.name}`", phase, f"phase `{phase.name}`", end)
                    for later in dead]
        nxt = phases[i + 1]
        if implies(nxt.when, {}, phase.when, {}):
            return [_report(program, nxt, f"phase `{nxt.name}`", phase, f"phase `{phase.name}`", end)]
    return []


def analyse(checked):
    program = checked.program
    found = _handlers(program) + _hooks(program)
    if program.turn is not None:
        found += _phases(program, program.turn.phases)
    for status in program.statuses.values():
        found += _phases(program, status.phases)
    return found
