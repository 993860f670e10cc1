"""The long-run law of a chain, solved exactly: the share of turns that end in each state.

The stationary law pi solves pi P = pi with its shares adding to 1. The chain's probabilities are
fractions (dice, a deck's composition), so the system is solved exactly, in whole numbers: a chain
of a few hundred states (a board, times a status and its turns) is solved in a fraction of a second.
A state the token leaves for good (the start, before the first roll) gets 0.
"""

from __future__ import annotations

import math
from fractions import Fraction


class NoUniqueLaw(ValueError):
    """The chain has more than one closed set of states: where a token ends up depends on where it began."""


def stationary(states: list, moves: dict) -> dict:
    """`moves[s]` maps each next state to its probability; returns state -> long-run share (a Fraction).

    The probabilities are brought to one denominator, so that the system is of whole numbers, and it
    is solved by Bareiss's fraction-free elimination (every division exact), then back substitution:
    exact, and several times faster than elimination over fractions."""
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    scale = 1
    for nexts in moves.values():
        for p in nexts.values():
            scale = math.lcm(scale, Fraction(p).denominator)
    # Row j: sum_i pi_i P[i][j] - pi_j = 0, times `scale`; the last row is replaced by sum_i pi_i = 1.
    m = [[0] * (n + 1) for _ in range(n)]
    for s, nexts in moves.items():
        i = index[s]
        for t, p in nexts.items():
            m[index[t]][i] += int(p * scale)
    for j in range(n):
        m[j][j] -= scale
    m[n - 1] = [1] * (n + 1)
    previous = 1
    for k in range(n):
        pivot = next((r for r in range(k, n) if m[r][k]), None)
        if pivot is None:
            raise NoUniqueLaw("the chain has more than one closed set of states")
        m[k], m[pivot] = m[pivot], m[k]
        top = m[k]
        head = top[k]
        for r in range(k + 1, n):
            row = m[r]
            factor = row[k]
            if factor:
                for c in range(k + 1, n + 1):
                    row[c] = (row[c] * head - factor * top[c]) // previous
            else:
                for c in range(k + 1, n + 1):
                    row[c] = row[c] * head // previous
            row[k] = 0
        previous = head
    x = [Fraction(0)] * n
    for k in range(n - 1, -1, -1):
        row = m[k]
        rest = sum((row[c] * x[c] for c in range(k + 1, n) if row[c]), Fraction(0))
        x[k] = (row[n] - rest) / row[k]
    return {s: x[index[s]] for s in states}
