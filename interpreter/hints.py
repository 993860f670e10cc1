"""The rules' hints to the agents, for a running game: what a thing is worth, and the other hints' values.

`Hints` is the game's (`game.hints`), an object of its own because advising the agents is a job of
its own, apart from playing the game: the rules never read a hint, agents do. It holds what only it
uses, the `worth` hint's values kept per thing; the state and the change counters (`Game.versions`)
it reads from the game each method is handed (`g`, not kept: see engine.py).
"""

from __future__ import annotations

from rulesc.dsl.builtins import HINT_WORTH

from .reads import UNTRACKED, counters_key, fixed_fields
from .state import Thing


class Hints:
    __slots__ = ("worth_hint", "worth_kinds", "worth_reads", "_worth_key", "_worth_cache")

    def __init__(self, rules) -> None:
        """The `worth` hint's values, kept per thing until something the hint reads changes (the
        change counters, as for actions); a hint that reads uncounted state is computed every time."""
        worth = rules.hints.get(HINT_WORTH)
        self.worth_hint = worth
        self.worth_kinds = rules.hint_kinds.get(HINT_WORTH, ())  # the kinds of things it values
        fixed = fixed_fields(rules.program)  # a worth of fixed data alone (a title's cost) is kept with key 0
        self.worth_reads = tuple(sorted(r for r in worth.value.reads if r not in fixed)) \
            if worth is not None and UNTRACKED not in worth.value.reads else None
        self._worth_key = counters_key(self.worth_reads or ())  # (`reads.counters_key`)
        self._worth_cache: dict = {}

    def worth(self, g, thing: Thing) -> int:
        """The heuristic value of a thing: the `worth` hint if the rules give one.

        Asked for every bid and every option weighed, so it is kept per thing while what the hint
        reads stands (the change counters, as for actions; a hint of fixed data alone, as most are,
        is worked out once per thing); a hint that reads uncounted state is worked out every time."""
        known = self._worth_cache.get(thing)  # only things of the hint's kind are kept
        if known is not None and (not self.worth_reads or known[0] == self._worth_key(g.versions)):
            return known[1]  # (a hint of fixed data alone reads no counter: its answer stands for good)
        hint = self.worth_hint
        if hint is None or not isinstance(thing, Thing) or thing.kind not in self.worth_kinds:
            return 0
        if self.worth_reads is None:
            return hint.value(g, {hint.var: thing})
        key = self._worth_key(g.versions)  # the sum of the counters: they only grow, so it moves with them
        value = hint.value(g, {hint.var: thing})
        self._worth_cache[thing] = (key, value)
        return value

    def value(self, g, name: str, default):
        """A hint of no parameter (`hint reserve = $100`), or `default` where the rules give none."""
        hint = g.rules.hints.get(name)
        if hint is None or hint.var is not None:
            return default
        return hint.value(g, {})
