"""A define's answers kept rather than computed again, where that answers exactly as computing would.

A define that aggregates (`market_value(q)`, `winning_ways(c)`) may be asked for the same
arguments many times between two changes of what it reads: by every legal action's condition,
every hint, every worth. Its compiled function (`ExpressionCodegen.defined`) is wrapped here,
where it can be, in one that keeps its answers: for good, by the names of its arguments, when it
reads only fixed data; in one game, while the change counters of what it reads stand (reads.py),
when it reads counted state that changes seldom. Any other define computes every answer, and may
be written where it is called (`ExpressionCodegen._inlined`).
"""

from __future__ import annotations

import operator

from rulesc.dsl import ast
from rulesc.dsl.walk import walk

from .reads import POSITION, UNTRACKED, counters_key, fixed_fields

# What changes all the time (cash, positions) or has no counter: an answer that reads it is not kept.
CHANGING = frozenset({"cash", POSITION, UNTRACKED})


def keep_answers(program, define, function, type_of):
    """`function`, the compiled `define`, keeping its answers if it can (for good, else while what it
    reads stands), or None where it computes every answer. `type_of` is the checker's type of a node."""
    if answers_can_be_kept(program, define, function):
        return _kept_answers(function, [n for n, _ in define.params])
    reads = answers_can_be_kept_while(program, define, function, type_of)
    if reads is not None:
        return _answers_kept_while(function, reads)
    return None


def answers_can_be_kept(program, define, function) -> bool:
    """Whether a define's answer depends only on which things it is given: its parameters are all
    things (of a kind, never `none`, never a list: a few of them), it reads only fixed data (which
    no rule can change, R0309, and is the same in every game of these rules) and it aggregates
    (the work worth keeping: plain arithmetic costs less than looking an answer up)."""
    kinds = program.kinds
    return bool(define.params) and all(t.name in kinds and not t.optional and not t.is_list
                                       for _, t in define.params) \
        and function.reads <= fixed_fields(program) \
        and any(isinstance(n, ast.Aggregate) for n in walk(define.value))


def answers_can_be_kept_while(program, define, function, type_of) -> tuple | None:
    """What a define's answer depends on, if it can be kept in a game while that stands: its
    parameters are all things, players or squares (never `none`, never a list: a value that
    names itself), it reads nothing that changes all the time or has no counter (`CHANGING`: a
    kept answer would seldom be asked for again before it changed), its answer is not a list (a
    caller might keep it) and it aggregates (plain arithmetic costs less than looking an answer
    up). Returns the counted fields it reads (its fixed data left out), or None."""
    kinds = program.kinds
    if not define.params or not all((t.name in kinds or t.name in ("player", "square"))
                                    and not t.optional and not t.is_list for _, t in define.params):
        return None
    if function.reads & CHANGING or type_of(define.value).is_list:
        return None
    if not any(isinstance(n, ast.Aggregate) for n in walk(define.value)):
        return None
    return tuple(sorted(function.reads - fixed_fields(program)))


def _kept_answers(function, params: list):
    """`function` (a define's, see `answers_can_be_kept`) keeping its answer for each combination of
    things by their names: the same in every game of these rules, and a bounded number. Most have
    one parameter: then the key is its thing's name alone."""
    answers: dict = {}
    only = params[0] if len(params) == 1 else None

    def kept(g, e):
        key = e[only].name if only is not None else tuple(map(_NAME, e.values()))
        answer = answers.get(key, answers)  # the dict itself: no answer yet (an answer may be None)
        if answer is answers:
            answer = answers[key] = function(g, e)
        return answer
    # a function given a compiled expression's attributes (pysource.Compiled), and its answers
    kept.reads, kept.locals, kept.answers = function.reads, function.locals, answers  # type: ignore[attr-defined]
    return kept


_NAME = operator.attrgetter("name")


def _answers_kept_while(function, reads: tuple):
    """`function` (a define's, see `answers_can_be_kept_while`) keeping its answer in each game, for
    each combination of its arguments, while the change counters of what it reads stand (their sum
    changes when one does: they only grow). While an agent answers blindfolded (`Game.masking`, the
    player whose agent it is) the answers are kept apart, one set per player: an answer worked out on
    the whole state must not reach an agent, nor one worked out through one player's mask another's."""
    stamp_of = counters_key(reads)

    def kept_while(g, e):
        key = (kept_while, *e.values()) if g.masking is None else (kept_while, g.masking, *e.values())
        stamp = stamp_of(g.versions)
        known = g.define_answers.get(key)
        if known is not None and known[0] == stamp:
            return known[1]
        answer = function(g, e)
        g.define_answers[key] = (stamp, answer)
        return answer
    # a function given a compiled expression's attributes (pysource.Compiled), and the one it keeps answers of
    kept_while.reads, kept_while.locals = function.reads, function.locals  # type: ignore[attr-defined]
    kept_while.plain = function  # type: ignore[attr-defined]
    return kept_while
