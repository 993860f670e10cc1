"""Fuzzing through every stage (issue #13): a file that checks clean never crashes or hangs rulesc.

Two fuzzers from tests/fuzzing.py, each under Hypothesis, which shrinks a failure to a small file:
mutants of the shipped games (numbers set to boundary values, names, operators and keywords
swapped, statement lines deleted, duplicated, moved, or risky statements inserted), and games
written by a generator that follows the grammar and its indentation. Every file is parsed and
checked; every file that checks clean is compiled, played for two short games (random and
heuristic agents) and its scenarios run. Only diagnostics may come back. A generated game is also
played under every combination of the execution options (the differential oracle,
rulesc/differential.py), which must all give the same game, event for event.

This is the fast, seeded slice (`derandomize`: the same files on every run, so the suite stays
deterministic); RULESC_FUZZ_EXAMPLES=2000 runs more of them, and `python scripts/fuzz.py N SEED`
is the slow tier, which counts and saves what it finds. The alarm in `no_hang` is there only to
turn a hang into a failure; nothing is timed.
"""

from __future__ import annotations

import os

from hypothesis import HealthCheck, given, settings
import pytest
from hypothesis import strategies as st

from fuzzing import GAMES, DataChooser, exercise, generated, mutant, no_hang

EXAMPLES = int(os.environ.get("RULESC_FUZZ_EXAMPLES", "40"))
FUZZ = settings(max_examples=EXAMPLES, deadline=None, derandomize=EXAMPLES <= 100, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


@pytest.mark.slow
@FUZZ
@given(st.data())
def test_mutants_of_the_shipped_games(data):
    name, text = mutant(DataChooser(data))
    with no_hang():
        exercise(text, name)


@pytest.mark.slow
@FUZZ
@given(st.data())
def test_games_generated_from_the_grammar(data):
    """...each game played also under every combination of the execution options (events, checks, saved
    and loaded midway), which must all give the same game (rulesc/differential.py)."""
    text = generated(DataChooser(data))
    with no_hang():
        exercise(text, "generated.rules", oracle=True)


def test_the_generator_writes_games_that_check_clean():
    """The generator is worth running only if many of its games get past the checker to be played."""
    import random

    from fuzzing import Chooser
    outcomes = [exercise(generated(Chooser(random.Random(i))), "generated.rules", games=0) for i in range(40)]
    assert outcomes.count("played") >= 10, outcomes
    assert "syntax" not in outcomes, "the generator writes what the grammar reads"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_file_the_mutants_come_from_checks_clean_as_it_is(name):
    """Mutants start from valid files: every shipped game, house rule (a variant finds its base,
    laid out as in the project) and the completeness file checks clean before it is mutated."""
    assert exercise(GAMES[name], name, play=False) == "clean"
