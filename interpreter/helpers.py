"""The few functions generated code calls by name, and what a failing expression raises inside.

An expression is translated to plain Python (codegen.py) wherever it can be; what plain Python
would answer differently (an index out of the list, a division by zero, `min` of nothing) or
would need a loop written out (the best of several) is one of these helpers instead. They are
put in the namespace of every generated function under the names the translation writes
(`HELPERS`), and fail with `Problem`, which the generated function turns into a rule error at the
expression (`EXPRESSION_ERRORS`).
"""

from __future__ import annotations

from .state import Thing


class Problem(Exception):
    """Raised by generated helpers; turned into a RuleRuntimeError at the expression."""


def _at(items, i):
    if not 0 <= i < len(items):
        raise Problem(f"index {i} is outside the list (it has {len(items)} items)")
    return items[i]


def _div(a, b):
    if b == 0:
        raise Problem("division by zero")
    return a // b


def _round(num, den, unit, mode):
    """num / den rounded to a multiple of `unit`: down (toward minus infinity), up, or to the nearest
    (halves up), computed exactly in whole numbers: `rounded up to $100`, `10% of x rounded down`."""
    if den == 0:
        raise Problem("division by zero")
    if unit <= 0:
        raise Problem(f"a rounding unit of {unit}: it must be above 0")
    whole = den * unit
    if mode == "down":
        return (num // whole) * unit
    if mode == "up":
        return -((-num) // whole) * unit
    return ((2 * num + whole) // (2 * whole)) * unit


def _extreme(fn, values, name):
    if not values:
        raise Problem(f"`{name}` of an empty list")
    return fn(values)


def _best(pairs):
    """The item with the highest score (the first of equals), or None for no items."""
    best, best_score = None, None
    for score, item in pairs:
        if best_score is None or score > best_score:
            best, best_score = item, score
    return best


def _leaders(pairs):
    """Every item with the highest score, in their order (all those tied for the top); [] for none."""
    top, best = None, []
    for score, item in pairs:
        if top is None or score > top:
            top, best = score, [item]
        elif score == top:
            best.append(item)
    return best


def _one(item, kind: str) -> tuple:
    """The things of `kind` that are `item`: it alone, or none (see `Shapes.picked`, analysis.py)."""
    return (item,) if isinstance(item, Thing) and item.kind == kind else ()


def _connected(adjacent: dict, squares: list, starts, allowed: list) -> list:
    """The squares joined to `starts` through squares of `allowed` (a graph's connected group), the starts
    included, in the order of `squares` (all the graph's squares)."""
    ok = {id(t) for t in allowed}
    seen = {id(t) for t in starts}
    todo = list(starts)
    while todo:
        for n in adjacent[todo.pop()]:
            if id(n) in ok and id(n) not in seen:
                seen.add(id(n))
                todo.append(n)
    return [t for t in squares if id(t) in seen]


# What a failing expression raises inside, turned into a rule error at the expression: one name, so
# that each `except` in generated code is a few bytes (its handler lies between the lines that run).
EXPRESSION_ERRORS = (Problem, AttributeError, TypeError, KeyError, IndexError)

HELPERS = {"_at": _at, "_div": _div, "_round": _round, "_extreme": _extreme, "_best": _best, "_leaders": _leaders, "_one": _one, "_connected": _connected, "_Thing": Thing,
           "_ERRORS": EXPRESSION_ERRORS}
