"""The soundness analyses: what a checked file's rules do with money, things, players and information,
found without playing a game.

The checker (dsl/checker.py) asks whether a file means something: names, types, reachability. These
ask whether what it means is a game: money paid into an account that no rule pays out of, a thing that
changes hands with no test of who owns it, a decision put to a player who may be out, another player's
hidden value shown in a list of options. Each module here is one such question, a function
`analyse(checked) -> Iterable[Diagnostic]` over the program and its inferred types; `check_program`
runs them all once the checker found no error (they read a program whose names and types are sound).

What only play can show (a rule that never runs in hundreds of games, what a variant no longer does
that its base did) is found from whole games, by rulesc/judge/.
"""

from __future__ import annotations

from typing import Callable, Iterable

from ..diagnostics import Diagnostic

Analysis = Callable[..., Iterable[Diagnostic]]

# Each analysis, in the order their findings are reported (they are sorted by position afterwards).
ANALYSES: tuple[Analysis, ...] = ()

from . import accounts, amounts, money_set, ownership, payers  # noqa: E402  (money and ownership: R11xx)

ANALYSES += (accounts.analyse, payers.analyse, ownership.analyse, amounts.analyse, money_set.analyse)


def _players_and_information() -> tuple[Analysis, ...]:
    """The R12xx analyses (players and information), one module per question."""
    from . import dead_rules, hidden_options, out_deciders, stuck_states
    return (dead_rules.analyse, out_deciders.analyse, hidden_options.analyse, stuck_states.analyse)


ANALYSES += _players_and_information()


def analyse(checked) -> list[Diagnostic]:
    """Every soundness finding of a checked program."""
    return [d for analysis in ANALYSES for d in analysis(checked)]
