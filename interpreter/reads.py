"""What an expression reads, and the change counters that say whether any of it changed.

The engine counts changes to every field name and to a few markers (who is still in, positions,
each global, a player's counted attributes); the expression codegen records, for each expression,
which of these it reads (`function.reads`). Whoever keeps an answer (the legal actions, a define's
answers, the worth of a player, the end conditions) keeps it under the sum of those counters, which
moves exactly when one of them does. The names and the key are here, apart from the translation,
because the engine, the agents and the generated turn read them too.
"""

from __future__ import annotations

from typing import Mapping, Protocol

# What an expression reads, beyond its arguments: field names, and these markers. The engine
# counts changes to each, so a condition whose reads did not change need not be evaluated again.
OUT = "@out"  # who is still in the game
POSITION = "@position"
GLOBAL = "@global:"
COUNTED = "@"  # and a player's attribute whose changes the engine counts: "@owing", "@bidding"
UNTRACKED = "@untracked"  # state with no change counter: never reuse a result


def counters_sum(reads, versions: str) -> str:
    """The Python of the sum of the change counters of `reads`, spelled out: `versions['@out'] + …`
    (`Game.versions` counts 0 for a counter not yet moved)."""
    if not reads:
        return "0"
    return " + ".join(f"{versions}[{r!r}]" for r in reads)


class CountersKey(Protocol):
    """key(versions): the sum of the change counters of `reads` (`counters_key`)."""

    reads: tuple[str, ...]

    def __call__(self, versions: Mapping[str, int], /) -> int: ...


_KEYS: dict[tuple[str, ...], CountersKey] = {}  # reads -> its `counters_key`


def counters_key(reads) -> CountersKey:
    """key(versions): the sum of the change counters of `reads`, the key an answer is kept under (a
    condition's, a define's, a worth's): counters only grow, so it moves exactly when one does. It is
    computed at every window, so it is spelled out for the reads (`counters_sum`): three times as fast
    as `sum(map(versions.__getitem__, reads))`. One per tuple of reads; `key.reads` is the tuple."""
    reads = tuple(reads)
    key = _KEYS.get(reads)
    if key is None:
        key = _KEYS[reads] = eval(f"lambda versions: {counters_sum(reads, 'versions')}")  # noqa: S307 (our own source)
        key.reads = reads
    return key


def fixed_fields(program) -> frozenset:
    """The names of fields no rule can change: things' fixed data (their tables' columns), never a
    name that is also a state field, a player's field or a global. Their change counters stay 0, so a
    key summing counters is the same without them, and cheaper. Kept for the last program asked
    about (every game of a file asks)."""
    if _LAST_FIXED[0] is not program:
        kinds = program.kinds.values()
        fixed = {f.name for kind in kinds for f in kind.fields if not f.is_state}
        _LAST_FIXED[:] = program, frozenset(fixed - {f.name for kind in kinds for f in kind.fields if f.is_state}
                                            - set(program.player_fields) - set(program.global_fields))
    return _LAST_FIXED[1]


_LAST_FIXED: list = [None, frozenset()]  # [program, its fixed fields]
