"""The heuristic agent's `wanted_actions` written out as Python once per rules file.

In every action window the heuristic agent says which actions it may take or weigh (see
`HeuristicAgent.wanted_actions`): those without a hint (unless it is raising cash), and those
whose `hint act_NAME` may score an option above 0. For a hint `if C then A else B` whose C and
chosen branch read no option and cannot fail, that is decided by C and the branch alone, once per
window for all options. What those hints are is known when the rules are loaded, so this module
writes the tests out for them: each C and each branch that must be computed inlined as the Python
the expression codegen makes, a constant branch decided here, and the answer (a frozenset of
names) one of a few kept for each combination of what the tests found.
"""

from __future__ import annotations

from .pysource import Function, define


def write_wanted(unless_raising: frozenset, always: frozenset, judged: tuple):
    """wanted(g, player, raising): `unless_raising` when not raising cash, else `always`, and the
    name of each (name, C, A, B) of `judged` whose chosen branch is None (not known before the
    options: wanted), a number above 0 or anything but a number (see `agents._relevance`)."""
    fn = Function()
    add = fn.add
    if not judged:
        fn.namespace["_unless"], fn.namespace["_always"] = unless_raising, always
        add(1, "return _unless if raising is None else _always")
        return define(fn, "wanted", "g, player, raising", "wanted actions")
    add(1, "L_player = player")
    add(1, "bits = 0")
    for bit, (_, condition, then, orelse) in enumerate(judged):
        _write_test(fn, condition, 1, "if {}:")
        _write_branch(fn, then, 1 << bit)
        if orelse is None or callable(orelse) or _wanted(orelse):
            add(1, "else:")
            _write_branch(fn, orelse, 1 << bit)
    names = [name for name, *_ in judged]
    known: tuple[dict[int, frozenset], dict[int, frozenset]] = ({}, {})  # per bits, the answer: not raising, raising

    def answer(raising: bool, bits: int) -> frozenset:
        found = known[raising][bits] = (always if raising else unless_raising) | {
            name for bit, name in enumerate(names) if bits >> bit & 1}
        return found
    fn.namespace["_known"], fn.namespace["_answer"] = known, answer
    add(1, "raising = raising is not None")
    add(1, "found = _known[raising].get(bits)")
    add(1, "return found if found is not None else _answer(raising, bits)")
    return define(fn, "wanted", "g, player, raising", "wanted actions")


def _write_branch(fn, branch, bit: int) -> None:
    """Set `bit` where `branch` (None, a constant or a function) may score an option above 0."""
    if branch is None:  # it reads the option: it may score one above 0
        fn.add(2, f"bits |= {bit}")
    elif not callable(branch):  # a constant, decided now
        fn.add(2, f"bits |= {bit}" if _wanted(branch) else "pass")
    else:
        _write_test(fn, branch, 2, "score = {}")
        fn.add(2, "if not isinstance(score, (int, float)) or score > 0:")
        fn.add(3, f"bits |= {bit}")


def _write_test(fn, function, indent: int, line: str) -> None:
    """`line` with the expression of `function` (which reads `player` at most) put in at `{}`."""
    source, constants, used = function.inline({})
    fn.namespace.update(constants)
    fn.add_failing(indent, line.format(source), function.fail)


def _wanted(score) -> bool:
    return not isinstance(score, (int, float)) or score > 0
