"""Play many games and sum them up: the balance table (`balance`), as text, JSON or CSV.

Game `i` of a run with seed `S` is played with seed `S + i`, so a summary is the same every time
for the same arguments, wherever the games were played (`jobs` processes or a Dask cluster: see
`runner`), and any one game can be replayed with `rulesc run --seed S+i`. The summary holds no
timings: those go to stderr, so stdout stays byte-for-byte reproducible.
"""

from __future__ import annotations

import collections
import csv
import io
from typing import Callable

import attrs

from rulesc.interpreter.rules import Rules

from . import runner
from .balance import Balance, balance, balance_json, csv_columns, csv_row, format_balance, record_game
from .sources import RuleSources


@attrs.define
class Summary:
    title: str
    games: int
    players: int
    agents: str
    seed: int
    records: list  # [GameRecord], in game order

    @property
    def total_turns(self) -> int:
        return sum(g.turns for g in self.records)

    @property
    def turns(self) -> list:
        return [g.turns for g in self.records]

    @property
    def reasons(self) -> collections.Counter:
        """How many games ended for each reason."""
        return collections.Counter(g.reason for g in self.records)

    @property
    def money_by_rule(self) -> collections.Counter:
        """RuleRef -> money paid by that rule, over all the games."""
        total: collections.Counter = collections.Counter()
        for g in self.records:
            total.update(g.money)
        return total

    @property
    def broken(self) -> list:
        """With `check`: (seed, Failure) of each game that broke an invariant."""
        return [(g.seed, g.broken) for g in self.records if g.broken is not None]

    @property
    def balance(self) -> Balance:
        return balance(self.records, self.players)


def simulate(rules: Rules, games: int, seed: int, players: int, agents: str = "heuristic",
             progress: Callable[[int], None] | None = None, jobs: int | None = 1,
             overrides: list[str] | None = None, dask: str | None = None, check: bool = False,
             wealth: bool = False, where: runner.Where | None = None) -> Summary:
    """Play games `seed` .. `seed + games - 1` and keep each one's figures.

    With `jobs` > 1, in that many local processes (None: as many as the games keep busy); with `dask` (a Dask scheduler's address), on
    that cluster's workers; `overrides` are the `--set`s `rules` was loaded with, for them to
    compile the same rules. With `check` every invariant is checked after every event (the games
    are played here, whatever `jobs` says); with `wealth` each game keeps its cash over time. `where`
    is told where the games were played (`runner.Where`)."""
    if check:
        jobs, dask = 1, None
    batches = [runner.Batch(0, first, count, (players, agents, check, wealth))
               for first, count in runner.runs(games, seed, jobs)]
    records = [r for results in runner.run([runner.RuleSet(rules, overrides or [])], batches, record_one, jobs, dask,
                                           progress, where) for r in results]
    return Summary(rules.title, games, players, agents, seed, records)


def record_one(rules: Rules, seed: int, players: int, agents: str, check: bool, wealth: bool):
    """One game's record, as a batch of `runner.run` plays it (a top-level function: workers import it)."""
    return record_game(rules, players, seed, agents, check, wealth)


def format_summary(s: Summary, sources: dict) -> str:
    """The summary as text; `sources` maps each rules file's path to its text, to quote rules."""
    lines = [f"{s.title}: {s.games} games, {s.players} players, {s.agents} agents, "
             f"seeds {s.seed}..{s.seed + s.games - 1}; 95% intervals", ""]
    lines += format_balance(s.balance, RuleSources(sources))
    return "\n".join(lines) + "\n"


def summary_json(s: Summary, sources: dict) -> dict:
    return {"title": s.title, "games": s.games, "players": s.players, "agents": s.agents, "seed": s.seed,
            **balance_json(s.balance, RuleSources(sources)),
            "broken": [{"seed": seed, "invariant": f.invariant, "turn": f.turns, "rule": f.rule.text,
                        "message": f.message} for seed, f in s.broken]}


def summary_csv(s: Summary) -> str:
    """One row per game (the columns: `balance.csv_columns`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(csv_columns(s.players))
    for g in s.records:
        writer.writerow(csv_row(g))
    return out.getvalue()


def format_broken(s: Summary, command: str) -> str:
    """`simulate --check`: which games broke an invariant, each with the command that replays it."""
    if not s.broken:
        return "\ninvariants: checked after every event of every game; all held\n"
    lines = ["", f"invariants: {len(s.broken)} of {s.games} games broke one (each stopped there):"]
    for game_seed, f in s.broken:
        lines.append(f"  seed {game_seed}: {f.invariant} at turn {f.turns}, rule {f.rule or 'none'}: {f.message}")
        lines.append(f"    replay: {command} --seed {game_seed} --check")
    return "\n".join(lines) + "\n"
