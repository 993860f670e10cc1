"""`Dealing.legal_actions` written out as Python once per rules file.

In general, finding the legal actions is a loop over the rules' actions, each taken apart from a
plan entry (`dealing._action_plan`: own turn only? limited in time? amounts? kept how?) and put
through every test that any action might need. What those entries say for one file is known when
it is compiled, so this module writes the loop out for it: for each action, in the rules' order,
only the tests it has (no `once per turn` test for an action without one, no amount range for
one without amounts), its names and its key (the sum of the change counters its condition
reads, `codegen.counters_sum`) spelled out, and the same calls of `Dealing`'s helpers where the
work is more than a few lines (`_legal_in_layers`, `_legal_amounts`, `_selected`).

`legal(g, player, own_turn, wanted)` is the only implementation: `legal_actions` calls it. It
gives the same options in the same order as the loop it replaces, testing the same conditions in
the same order (so a failing condition fails at the same place).
"""

from __future__ import annotations

from .codegen import counters_sum
from .stmtgen import StatementCodegen


def write_legal_actions(plan: list):
    """legal(g, player, own_turn, wanted): every legal (action, argument) of `plan`'s actions for
    `player` now (see `Dealing.legal_actions`)."""
    fn = StatementCodegen.function()
    add = fn.add
    add(1, "options = []")
    add(1, "only = g.window_only")
    add(1, "if g.cache_actions:")
    add(2, "kept, shared = g.kept_actions[player.seat], g.kept_for_all")
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
            tests.append(f"g._allowed_now({a}, player)")
        add(1, f"if {' and '.join(tests)}:")
        if action.amount is not None:  # what it offers depends on amounts computed now: never kept
            add(2, f"options.extend(g._legal_amounts({a}, player))")
            continue
        store = "shared" if anyone else "kept"
        add(2, "if kept is not None:")
        add(3, f"key = {counters_sum(key_of.reads, 'versions')}")
        add(3, f"cached = {store}.get({name!r})")
        add(3, "if cached is not None and cached[0] == key:")
        add(4, "found = cached[1]")
        add(3, "else:")
        if layers is None:
            add(4, f"found = g._legal({a}, player)")
            add(4, f"{store}[{name!r}] = (key, found)")
        else:
            add(4, f"found, passed = g._legal_in_layers({a}, player, {fn.name('_layers', layers)}, cached)")
            add(4, f"kept[{name!r}] = (key, found, passed)")
        add(2, "else:")
        add(3, f"found = g._legal({a}, player)")
        if volatile is None:
            add(2, "options.extend(found)")
            continue
        v = fn.name("_volatile", volatile)
        add(2, "if found:")
        if not per_option:  # one test for all the options
            add(3, f"if {v}(g, {{'player': player}}):")
            add(4, "options.extend(found)")
        else:
            level = 3
            if action.select is not None:  # (read as the game runs: a test may take the selector away)
                add(3, f"if {a}.select is not None:")
                add(4, f"options.extend(g._selected({a}, player, found))")
                add(3, "else:")
                level = 4
            add(level, "env = {'player': player}")
            add(level, "for choice in found:")
            add(level + 1, f"env[{action.var!r}] = choice.argument")
            add(level + 1, f"if {v}(g, env):")
            add(level + 2, "options.append(choice)")
    add(1, "return options")
    return StatementCodegen.define(fn, "legal", "g, player, own_turn, wanted", "legal actions")
