"""Errors a game can hit while it runs, each pointing at the rule (file:line:col) involved."""

from __future__ import annotations

from rulesc.dsl import codes
from rulesc.dsl.diagnostics import Diagnostic, Span

STEP_BUDGET = 20_000  # statements one turn may run before the rules are judged to loop
MAX_DICE = 1_000  # dice one roll may throw (`roll N dice` with N computed)
MAX_MOVE = STEP_BUDGET  # squares one move may go (each square passed is checked for `on pass`)
MAX_DEPTH = 40  # moves, cards, procedures, debts and windows nested in each other, well within Python's stack


class RuleRuntimeError(Exception):
    """A rule did something impossible at run time (a field of `none`, a list index out of range...)."""

    code = codes.RUNTIME_ERROR.code
    seed: int | None = None  # the seed of the game it happened in, where one of many games (runner.py)

    def __init__(self, message: str, path: str, span: Span | None, help: str | None = None):
        super().__init__(message)
        self.message = message
        self.path = path
        self.span = span
        self.help = help

    def diagnostic(self, notes: tuple = ()) -> Diagnostic:
        return codes.lookup(self.code).diagnostic(self.message, self.path, self.span, notes=notes, help=self.help)


class StepBudgetExceeded(RuleRuntimeError):
    """The rules ran more statements in one turn than the step budget allows: they loop."""

    code = codes.RULES_LOOP.code


class InternalError(Exception):
    """A bug in rulesc, not in the rules: e.g. the compiler met an expression the checker never typed.

    Raised instead of guessing, so that such a gap shows up at once rather than as a wrong answer."""


class TurnEnded(Exception):
    """Control flow: `end turn`, or the current player left the game."""


class GameEnded(Exception):
    """Control flow: the game is over."""


class AgentError(Exception):
    """An agent answered a decision with something the rules do not allow."""
