"""`Actions.legal_actions` written out as Python once per rules file.

In general, finding the legal actions is a loop over the rules' actions, each taken apart from a
plan entry (`actions._action_plan`: own turn only? limited in time? amounts? kept how?) and put
through every test that any action might need. What those entries say for one file is known when
it is compiled, so this module writes the loop out for it: for each action, in the rules' order,
only the tests it has (no `once per turn` test for an action without one, no amount range for
one without amounts), its names and its key (the sum of the change counters its condition
reads, `reads.counters_sum`) spelled out, and the same calls of `Actions`' helpers where the
work is more than a few lines (`held_by`, `_legal_amounts`, `_selected`).

An action on a kind whose condition is kept (the usual case) has its options found in the loop
too, its condition inlined as the Python the expression codegen makes, in place of a call of the
general `Actions._legal` for it and of the condition's function for each thing.

`legal(acts, g, player, own_turn, wanted)` (`acts` the game's `Actions`, which keeps what it
finds) is the only implementation: `legal_actions` calls it. It gives the same options in the
same order as the loop it replaces, testing the same conditions in the same order (so a failing
condition fails at the same place).
"""

from __future__ import annotations

from typing import NamedTuple

from .reads import counters_sum
from .state import Thing
from .pysource import Function, define


class ActionChoice(NamedTuple):
    """One legal action an agent may pick in an action window (a tuple: made by the thousand)."""

    action: str
    argument: Thing | int | None  # the thing, or the amount chosen (`(a: money from … to … step …)`)


def write_legal_actions(plan: list):
    """legal(acts, g, player, own_turn, wanted): every legal (action, argument) of `plan`'s actions
    for `player` now (see `Actions.legal_actions`)."""
    fn = Function()
    fn.namespace["_new_tuple"], fn.namespace["_ActionChoice"] = tuple.__new__, ActionChoice
    add = fn.add
    add(1, "L_player = player")
    add(1, "options = []")
    add(1, "only = acts.only")
    add(1, "if acts.caching:")
    add(2, "kept, shared = acts.kept[player.seat], acts.kept_for_all")
    add(1, "else:")
    add(2, "kept = shared = None")
    add(1, "versions = g.versions")
    for action, name, own_turn_only, timed, key_of, volatile, per_option, layers, safe, anyone in plan:
        a = fn.name("_action", action)
        tests = [f"(only is None or {name!r} in only)"]
        if safe:
            tests.insert(0, f"(wanted is None or {name!r} in wanted)")
        if own_turn_only:
            tests.insert(1 if safe else 0, "own_turn")
        if timed:
            tests.append(f"acts._allowed_now(g, {a}, player)")
        add(1, f"if {' and '.join(tests)}:")
        if action.amount is not None:  # what it offers depends on amounts computed now: never kept
            add(2, f"options.extend(acts._legal_amounts(g, {a}, player))")
            continue
        store = "shared" if anyone else "kept"
        add(2, "if kept is not None:")
        add(3, f"key = {_key_source(action, key_of.reads, layers)}")
        add(3, f"cached = {store}.get({name!r})")
        add(3, "if cached is not None and cached[0] == key:")
        add(4, "found = cached[1]")
        add(3, "else:")
        if layers is None and action.var is not None:
            _write_candidates(fn, action, 4)
            _write_options(fn, action, action.when, "candidates", 4)
            add(4, f"{store}[{name!r}] = (key, found)")
        elif layers is None:
            add(4, f"found = acts._legal(g, {a}, player)")
            add(4, f"{store}[{name!r}] = (key, found)")
        else:
            _write_layers(fn, action, layers, 4)
            add(4, f"kept[{name!r}] = (key, found, passed)")
        add(2, "else:")
        add(3, f"found = acts._legal(g, {a}, player)")
        if volatile is None:
            add(2, "options.extend(found)")
            continue
        add(2, "if found:")
        if not per_option:  # one test for all the options
            _write_test(fn, volatile, None, 3)
            add(4, "options.extend(found)")
        else:
            level = 3
            if action.select is not None:  # (read as the game runs: a test may take the selector away)
                add(3, f"if {a}.select is not None:")
                add(4, f"options.extend(acts._selected(g, {a}, player, found))")
                add(3, "else:")
                level = 4
            add(level, "for choice in found:")
            add(level + 1, "v_thing = choice.argument")
            _write_test(fn, volatile, action.var, level + 1)
            add(level + 2, "options.append(choice)")
    add(1, "return options")
    return define(fn, "legal", "acts, g, player, own_turn, wanted", "legal actions")


def _key_source(action, reads: tuple, layers) -> str:
    """The Python of the key an action's kept options stand by: the sum of the change counters of
    what its stable condition reads. Where it reads the field it filters its candidates by (`owner`)
    only against the player, in layers (`p.owner == player and …`), that field's counter is the
    player's own (`Game.set_field`): another's purchase leaves his options as they were."""
    field = action.prefilter
    if layers is None or field not in reads or field in layers[1].reads or field in layers[3].reads:
        return counters_sum(reads, "versions")
    rest = counters_sum(tuple(r for r in reads if r != field), "versions")
    return f"versions[({field!r}, player.seat)]" + ("" if rest == "0" else f" + {rest}")


def _write_candidates(fn, action, indent: int) -> None:
    """`candidates`: the things `action` may be taken on, before its condition (`Actions._candidates`,
    its kept answer read here where it stands)."""
    kind, field = action.kind, action.prefilter
    if field is None:
        fn.add(indent, f"candidates = g.kind_things.get({kind!r}, ())")
        return
    fn.add(indent, f"held = kept.get(({kind!r}, {field!r}))")
    fn.add(indent, f"if held is not None and held[0] == versions[({field!r}, player.seat)]:")
    fn.add(indent + 1, "candidates = held[1]")
    fn.add(indent, "else:")
    fn.add(indent + 1, f"candidates = acts.held_by(g, {kind!r}, {field!r}, player)")


def _write_options(fn, action, condition, things: str, indent: int) -> None:
    """`found`: an option of `action` for each of `things` for which `condition` (or None) holds."""
    name = action.name
    if condition is None:
        fn.add(indent, f"found = [_new_tuple(_ActionChoice, ({name!r}, v_thing)) for v_thing in {things}]")
        return
    fn.add(indent, "found = []")
    fn.add(indent, f"for v_thing in {things}:")
    _write_test(fn, condition, action.var, indent + 1)
    fn.add(indent + 2, f"found.append(_new_tuple(_ActionChoice, ({name!r}, v_thing)))")


def _write_layers(fn, action, layers: tuple, indent: int) -> None:
    """`found` and `passed` for an action whose stable condition is kept in layers (see
    `actions._layers`), from `cached`, its kept entry: the candidates, the options that pass the
    first part of the condition and those that pass the rest, each kept while what it depends on
    stands, so that only what changed is tested again. Each thing is tested as the whole
    condition would test it, in the same order."""
    first, first_key, rest, rest_key = layers
    add, name, var = fn.add, action.name, action.var
    _write_candidates(fn, action, indent)
    add(indent, f"first_key = {counters_sum(first_key.reads, 'versions')}")
    add(indent, f"rest_key = {counters_sum(rest_key.reads, 'versions')}")
    add(indent, "was = cached[2] if cached is not None else None")
    add(indent, "if was is not None and was[0] is candidates and was[1] == first_key:")
    add(indent + 1, "if was[3] == rest_key:  # what changed is read by neither part")
    add(indent + 2, "found, passed = cached[1], was")
    add(indent + 1, "else:  # the same options pass the first part: the rest tested again")
    add(indent + 2, "found = []")
    add(indent + 2, "for choice in was[2]:")
    if rest is None:
        add(indent + 3, "found.append(choice)")
    else:
        add(indent + 3, "v_thing = choice.argument")
        _write_test(fn, rest, var, indent + 3)
        add(indent + 4, "found.append(choice)")
    add(indent + 2, "passed = (candidates, first_key, was[2], rest_key)")
    add(indent, "else:")
    add(indent + 1, "passing, found = [], []")
    add(indent + 1, "for v_thing in candidates:")
    level = indent + 2
    if first is not None:
        _write_test(fn, first, var, level)
        level += 1
    add(level, f"choice = _new_tuple(_ActionChoice, ({name!r}, v_thing))")
    add(level, "passing.append(choice)")
    if rest is None:
        add(level, "found.append(choice)")
    else:
        _write_test(fn, rest, var, level)
        add(level + 1, "found.append(choice)")
    add(indent + 1, "passed = (candidates, first_key, passing, rest_key)")


def _write_test(fn, condition, var: str | None, indent: int) -> None:
    """`if CONDITION:` with the action's argument `var` (if it reads it) in `v_thing` (its lines
    follow, one level in); what the condition raises is its own rule error."""
    source, constants, _ = condition.inline({var: "v_thing"} if var is not None else {})
    fn.namespace.update(constants)
    fn.add_failing(indent, f"if {source}:", condition.fail)
