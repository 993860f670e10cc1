"""The base's side of a variant's judgement: its games on the variant's seeds and seats.

A variant's whole games are the check's own (rulesc/properties/search.py). To say what the variant
changed, its base is played on the same seeds with the same seats and agents, profiled only (the
base is judged by its own check, not here). `--set` values reach the base where it has the parameter.
A process keeps the last bases it played: `rulesc check a.rules b.rules c.rules` of three house rules
of one game plays that game's games once (the same text, overrides, seeds and seats give the same games).
"""

from __future__ import annotations

from typing import NamedTuple

from rulesc import runner
from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError
from rulesc.dsl.variants import base_of, load_file
from rulesc.interpreter.rules import Rules, compile_rules
from rulesc.properties.profile import play_profiled
from rulesc.properties.search import PropertyReport, replay_args

from .findings import Side, judge
from .summary import against_base


class Judgement(NamedTuple):
    """What the judge made of a check's whole games."""

    found: list  # the findings to report
    allowed: list  # the warnings an `allow` says are meant
    against: dict | None  # a variant's figures beside its base's (summary.py), or None


def judge_check(rules: Rules, report: PropertyReport, allowances=(), set_args=(), jobs: int | None = 1,
                dask: str | None = None) -> Judgement:
    """The judge's findings on the whole games of a check (`report`), a variant's against its base's."""
    if not report.profiles:
        return Judgement([], [], None)
    side = Side(rules, report.profiles, report.whole_coverages, report.search_coverage,
                replay_args(rules, set_args, report.max_turns))
    base = base_side(rules.path, report, set_args, jobs, dask)
    found, allowed = judge(side, base, allowances)
    return Judgement(found, allowed, against_base(side, base) if base is not None else None)


def base_side(path: str, report: PropertyReport, set_args=(), jobs: int | None = 1, dask: str | None = None) -> Side | None:
    """The base of the variant at `path` played on the seeds and seats of its check's whole games, or None
    for a game with no base (or a base that does not load: its own check says why)."""
    base_path = base_of(path)
    if base_path is None:
        return None
    try:
        loaded = load_file(base_path)
    except RulesError:
        return None
    first = report.profiles[0].seed
    key = (str(base_path), tuple(sorted(loaded.sources.items())), tuple(set_args), first, len(report.profiles),
           report.max_turns, report.whole_seats)
    if key not in _played_bases:
        _played_bases[key] = _played_base(loaded, set_args, report, jobs, dask)
        while len(_played_bases) > BASES_KEPT:
            del _played_bases[next(iter(_played_bases))]
    return _played_bases[key]


BASES_KEPT = 4
_played_bases: dict = {}  # the bases `base_side` played, by all that their games depend on (oldest first)


def _played_base(loaded, set_args, report: PropertyReport, jobs: int | None, dask: str | None) -> Side | None:
    checked = check_program(loaded)
    if not checked.ok:
        return None
    known = [item for item in set_args if item.split("=", 1)[0].strip() in checked.program.params]
    base = compile_rules(checked, known)
    first = report.profiles[0].seed
    batches = [runner.Batch(0, start, count, (report.max_turns, report.whole_seats))
               for start, count in runner.runs(len(report.profiles), first, jobs)]
    results = [r for batch in runner.run([runner.RuleSet(base, known)], batches, _base_game, jobs, dask)
               for r in batch]
    return Side(base, [profile for profile, _ in results], [coverage for _, coverage in results], None,
                replay_args(base, known, report.max_turns))


def _base_game(rules: Rules, seed: int, max_turns: int, seats: int):
    return play_profiled(rules, seed, seats, max_turns)
