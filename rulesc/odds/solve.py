"""The long-run law of a chain, solved exactly: the share of turns that end in each state.

The stationary law pi solves pi P = pi with its shares adding to 1. The chain's probabilities are
fractions (dice, a deck's composition), so the system is solved with fractions by Gauss-Jordan
elimination over sparse rows: the answer is exact, and a chain of a few hundred states (a board,
times a status and its turns) is solved in a fraction of a second. A state the token leaves for
good (the start, before the first roll) gets 0.
"""

from __future__ import annotations

from fractions import Fraction


class NoUniqueLaw(ValueError):
    """The chain has more than one closed set of states: where a token ends up depends on where it began."""


def stationary(states: list, moves: dict) -> dict:
    """`moves[s]` maps each next state to its probability; returns state -> long-run share (a Fraction)."""
    index = {s: i for i, s in enumerate(states)}
    n = len(states)
    # Equation j: sum_i pi_i P[i][j] - pi_j = 0; the last is replaced by sum_i pi_i = 1.
    rows: list[dict] = [dict() for _ in range(n)]
    for s, nexts in moves.items():
        i = index[s]
        for t, p in nexts.items():
            j = index[t]
            rows[j][i] = rows[j].get(i, Fraction(0)) + p
    for j in range(n):
        rows[j][j] = rows[j].get(j, Fraction(0)) - 1
    rows[n - 1] = {i: Fraction(1) for i in range(n)}
    rhs = [Fraction(0)] * n
    rhs[n - 1] = Fraction(1)
    for col in range(n):
        pivot = next((r for r in range(col, n) if rows[r].get(col)), None)
        if pivot is None:
            raise NoUniqueLaw("the chain has more than one closed set of states")
        rows[col], rows[pivot] = rows[pivot], rows[col]
        rhs[col], rhs[pivot] = rhs[pivot], rhs[col]
        row = rows[col]
        head = row[col]
        if head != 1:
            for k in row:
                row[k] /= head
            rhs[col] /= head
        for r in range(n):
            if r == col:
                continue
            factor = rows[r].get(col)
            if not factor:
                continue
            target = rows[r]
            for k, v in row.items():
                value = target.get(k, Fraction(0)) - factor * v
                if value:
                    target[k] = value
                else:
                    target.pop(k, None)
            rhs[r] -= factor * rhs[col]
    return {s: rhs[index[s]] for s in states}
