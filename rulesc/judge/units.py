"""The rules the judge reasons about, and what a variant changed: each as a `Unit`.

A unit is one declaration that can run (a phase, a handler, a hook, an action, a procedure, a card,
an end condition, the setup) with where it is and the names it mentions. A variant's base keeps its
own file in every span, so one unit is the same unit in the base's games and in the variant's: its
(file, line) says so. A variant's `Change`s are its own declarations and its removals, each with the
names it touches, so that a difference in play can be blamed on the change that shares most names
with what changed (`blame`): a removed phase that an action is offered before, an overridden
parameter that an end condition reads.
"""

from __future__ import annotations

import math
import re
from typing import NamedTuple

import attrs

from rulesc.dsl import ast, walk
from rulesc.dsl.diagnostics import Span
from rulesc.dsl.model import Program, declared_handlers

IDENTIFIER = re.compile(r"[A-Za-z_]\w*\Z")


class Unit(NamedTuple):
    """A declaration that can run."""

    what: str  # "phase", "handler", "hook", "action", "procedure", "card", "end", "setup"
    label: str  # how a message names it: "action `Borrow`", "`on land Jail`", "end \"…\""
    file: str
    line: int
    last: int  # its last line
    names: frozenset  # the identifiers it mentions
    span: Span
    key: str | None = None  # an action's name, a card's (deck, card), an end's reason: what an event names it by
    triggers: frozenset = frozenset()  # what runs it: a card's deck, a procedure's name, an action's phase


class Change(NamedTuple):
    """A variant's change: one of its own declarations, or a `remove …`."""

    label: str
    span: Span
    file: str
    names: frozenset
    invoked: frozenset = frozenset()  # what the base's declaration it replaces or removes ran: decks, procedures


def invokes(*roots) -> frozenset:
    """The decks a declaration draws from, the procedures it runs and the squares it moves a token to:
    what it makes run."""
    found = set()
    for node in walk.walk(tuple(r for r in roots if r is not None)):
        if isinstance(node, (ast.Draw, ast.DrawAs)):
            found.add(node.deck)
        elif isinstance(node, ast.Do):
            found.add(node.name)
        elif isinstance(node, ast.Move) and node.how in ("to", "send") and isinstance(node.amount, ast.Name):
            found.add(node.amount.id)
    return frozenset(found)


def _closure(program: Program) -> dict:
    """What running a deck or a procedure runs in turn (its cards' or body's `invokes`), to a fixed point."""
    direct = {deck.name: invokes(*(c.body for c in deck.cards)) for deck in program.decks.values()}
    direct.update({proc.name: invokes(proc.body) for proc in program.procedures.values()})
    closed = {name: set(targets) for name, targets in direct.items()}
    changed = True
    while changed:
        changed = False
        for targets in closed.values():
            more = set().union(*(closed.get(t, ()) for t in targets)) - targets
            if more:
                targets |= more
                changed = True
    return closed


def _runs_in_turn(found: frozenset, closed: dict) -> frozenset:
    return frozenset(found.union(*(closed.get(t, ()) for t in found)))


def names_in(*roots) -> frozenset:
    """Every identifier a declaration mentions: names, fields, targets, phases it refers to."""
    found = set()
    for node in walk.walk(tuple(r for r in roots if r is not None)):
        if not attrs.has(type(node)):
            continue
        for field in attrs.fields(type(node)):
            value = getattr(node, field.name)
            if isinstance(value, str) and IDENTIFIER.match(value):
                found.add(value)
    return frozenset(found)


def units(program: Program) -> list[Unit]:
    """Every declaration of the program that can run, in reading order."""
    p = program
    out: list[Unit] = []

    def add(what, label, node, *roots, key=None, triggers=()):
        span = node.span
        out.append(Unit(what, label, span.file or p.path, span.line, span.last_line, names_in(node, *roots),
                        span, key, frozenset(triggers)))

    def add_case(what, label, node, span, triggers=()):
        out.append(Unit(what, label, span.file or p.path, span.line, span.last_line, names_in(node), span, None,
                        frozenset(triggers)))

    if p.setup is not None:
        add("setup", "`setup`", p.setup)
    for phase in p.turn.phases if p.turn is not None else ():
        add("phase", f"phase `{phase.name}`", phase)
    for status in p.statuses.values():
        for phase in status.phases:
            add("phase", f"phase `{phase.name}` of status `{status.name}`", phase, status)
    for h in declared_handlers(p):
        label = f"`on {h.event}{' ' + h.header_target if h.header_target else ''}`"
        triggers = list(h.kinds or [h.target]) if h.target else ()
        add("handler", label, h, triggers=triggers)
        for span in h.cases:  # a variant's case of it (`replace on … only when C:`) is a change of its own
            add_case("handler", label, h, span, triggers=triggers)
    for h in p.hooks:
        add("hook", f"`{h.which} turn`", h)
        for span in h.cases:
            add_case("hook", f"`{h.which} turn`", h, span)
    for a in p.actions.values():
        add("action", f"action `{a.name}`", a, key=a.name, triggers=[a.phase] if a.phase else ())
    for proc in p.procedures.values():
        add("procedure", f"procedure `{proc.name}`", proc, triggers=[proc.name])
    for deck in p.decks.values():
        for card in deck.cards:
            add("card", f"card `{deck.name}.{card.name}`", card, key=(deck.name, card.name), triggers=[deck.name])
    for end in p.ends:
        add("end", f"end \"{end.reason}\"", end, key=end.reason)
    out.sort(key=lambda u: (u.file != p.path, u.file, u.line))
    return out


def changes(variant: Program, base: Program) -> list[Change]:
    """What a variant changes in its base: its own declarations and its removals, in reading order."""
    base_units = units(base)
    base_nodes = _nodes(base)
    closed = _closure(base)
    own = [u for u in units(variant) if u.file == variant.path]
    found = []
    for u in own:  # a replacement: also what the base's declaration of the same name did
        replaced = [b for b in base_units if b.label == u.label and b.what == u.what]
        names = u.names.union(*(b.names for b in replaced))
        found.append(Change(u.label, u.span, u.file, names,
                            _runs_in_turn(frozenset().union(*(invokes(base_nodes[b.file, b.line]) for b in replaced)),
                                          closed)))
    for override in variant.overrides:
        node = override.param
        if (node.span.file or variant.path) != variant.path:
            continue
        found.append(Change(f"`override param {node.name}`", node.span, node.span.file or variant.path,
                            frozenset({node.name})))
    for table in (t for tables in variant.tables.values() for t in tables):
        if (table.span.file or variant.path) == variant.path:
            found.append(Change(f"`override table {table.kind}`", table.span, table.span.file or variant.path,
                                names_in(table) | {table.kind}))
    for removal in variant.removals:
        if (removal.span.file or variant.path) != variant.path or removal.what in UNPLAYED:
            continue  # a removal the base itself made, from its own base; or of what play never runs
        words = set(removal.target.replace(".", " ").split())
        removed = [u for u in base_units if _names_it(u, removal)]
        names = frozenset().union(*(u.names for u in removed)) if removed else frozenset(words)
        found.append(Change(f"`{removal.what} {removal.target}`", removal.span, removal.span.file or variant.path,
                            names | words, _runs_in_turn(frozenset().union(
                                *(invokes(base_nodes[u.file, u.line]) for u in removed)), closed)))
    found.sort(key=lambda c: c.span.line)
    return found


UNPLAYED = ("remove scenario", "remove invariant")  # removals that change no game


def _nodes(program: Program) -> dict:
    """Each declaration that can run, by its (file, line)."""
    p = program
    nodes = [*(p.turn.phases if p.turn is not None else ()), *(ph for s in p.statuses.values() for ph in s.phases),
             *p.handlers, *p.hooks, *p.actions.values(), *p.procedures.values(),
             *(c for d in p.decks.values() for c in d.cards), *p.ends, *([p.setup] if p.setup else [])]
    return {(n.span.file or p.path, n.span.line): n for n in nodes}


def _names_it(unit: Unit, removal) -> bool:
    """Whether `remove …` removed this unit of the base."""
    kind = removal.what.split()[-1]
    target = removal.target
    if kind == "phase":
        return unit.what == "phase" and unit.label.startswith(f"phase `{target}`")
    if kind == "action":
        return unit.what == "action" and unit.key == target
    if kind == "card":
        return unit.what == "card" and ".".join(unit.key) == target
    if kind == "end":
        return unit.what == "end" and unit.key == target
    if kind == "handler":
        return unit.what in ("handler", "hook") and (unit.label.strip("`") == target or target in unit.names)
    return False


def blame(names: frozenset, found: list[Change], common: dict, triggers: frozenset = frozenset()) -> Change | None:
    """The change to blame for what happened to a unit mentioning `names` and run by `triggers`: first
    one whose base declaration ran it (drew from its deck, ran its procedure), then the one sharing the
    most telling names (a name most declarations mention tells little: each is weighed by how rare it
    is, `common` counting the declarations naming it)."""
    best, best_score = None, 0.0
    for change in found:
        score = 1000.0 * len(triggers & change.invoked)
        score += sum(1.0 / math.log2(1 + common.get(n, 1)) for n in names & change.names)
        if score > best_score:
            best, best_score = change, score
    return best


def name_counts(all_units: list[Unit]) -> dict:
    """How many units mention each name."""
    counts: dict = {}
    for u in all_units:
        for n in u.names:
            counts[n] = counts.get(n, 0) + 1
    return counts
