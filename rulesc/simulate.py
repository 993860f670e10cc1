"""Play many games and summarise them: length, end reasons, wins by seat, where money went.

Game `i` of a run with seed `S` is played with seed `S + i`, so a summary is the same
every time for the same arguments, and any one game can be replayed with `rulesc run
--seed S+i`. The summary holds no timings: those go to stderr, so stdout stays
byte-for-byte reproducible.

With `workers` above 1 the games are shared out, in runs of consecutive seeds, among that many
processes, each of which loads the rules file again (with the same overrides); the results come
back in game order and are added up exactly as in one process, so the summary is the same
whatever the number of workers.
"""

from __future__ import annotations

import collections
import multiprocessing
import statistics
from typing import Callable, NamedTuple

import attrs

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import field_index
from rulesc.interpreter.rules import Rules, load_rules

from .sources import RuleSources

PAY_AMOUNT = field_index("pay", "amount")


class GameResult(NamedTuple):
    """What a summary takes from one game (small, to send back from a worker process)."""

    turns: int
    reason: str | None
    winner_seat: int | None
    money_by_rule: dict  # RuleRef -> money paid by that rule


@attrs.define
class Summary:
    title: str
    games: int
    players: int
    agents: str
    seed: int
    turns: list = attrs.Factory(list)
    reasons: collections.Counter = attrs.Factory(collections.Counter)
    wins: collections.Counter = attrs.Factory(collections.Counter)
    money_by_rule: collections.Counter = attrs.Factory(collections.Counter)  # RuleRef -> money paid

    @property
    def total_turns(self) -> int:
        return sum(self.turns)

    def add(self, result: GameResult) -> None:
        self.turns.append(result.turns)
        self.reasons[result.reason] += 1
        if result.winner_seat is not None:
            self.wins[result.winner_seat + 1] += 1
        for rule, amount in result.money_by_rule.items():
            self.money_by_rule[rule] += amount


def play_one(rules: Rules, players: int, seed: int, agents: str, record: bool = True) -> Game:
    game = Game(rules, players, seed=seed, agents=make_agents(agents, seed, players), record=record)
    game.play()
    return game


def game_result(rules: Rules, players: int, seed: int, agents: str) -> GameResult:
    game = play_one(rules, players, seed, agents)
    state = game.state
    money: collections.Counter = collections.Counter()
    for event in game.events:
        if event.kind == "pay":
            money[event.rule] += event.payload[PAY_AMOUNT]
    return GameResult(state.turn, state.end_reason, state.winner.seat if state.winner is not None else None,
                      dict(money))


class SimulationError(Exception):
    """The games could not be played in worker processes (the rules file changed meanwhile...)."""


def simulate(rules: Rules, games: int, seed: int, players: int, agents: str = "heuristic",
             progress: Callable[[int], None] | None = None, workers: int = 1,
             overrides: list[str] | None = None) -> Summary:
    """Play games `seed` .. `seed + games - 1` and sum them up.

    With `workers` > 1, in that many processes, each loading `rules.path` with `overrides` (the
    `--set`s that `rules` was loaded with). They are started fresh, so a script that calls this
    must guard its own code with `if __name__ == "__main__":`, as for any multiprocessing."""
    summary = Summary(rules.title, games, players, agents, seed)
    parallel = workers > 1 and games > 1
    if parallel:
        results = _in_workers(rules, games, seed, players, agents, workers, overrides or [], progress)
    else:
        results = (game_result(rules, players, seed + i, agents) for i in range(games))
    for i, result in enumerate(results):
        summary.add(result)
        if progress is not None and not parallel:
            progress(i + 1)
    return summary


# ---- worker processes ------------------------------------------------------------------------------
#
# Nothing a worker does may raise across the process boundary: an exception that fails to unpickle
# (most of ours take more than a message) or an initializer that fails would hang the pool. A
# worker reports trouble as a value instead: a game that raised is played again here, where it
# raises the same error (same seed, same game) as it would have in one process.

class _GameFailed(NamedTuple):
    seed: int


class _WorkerFailed(NamedTuple):
    message: str


_worker_rules: Rules | _WorkerFailed | None = None


def _start_worker(path: str, overrides: list[str], sources: dict, params: dict) -> None:
    global _worker_rules
    try:
        rules = load_rules(path, overrides)
    except Exception as exc:  # noqa: BLE001 - reported by the parent
        _worker_rules = _WorkerFailed(f"a worker process could not load `{path}`: {exc}")
        return
    if rules.program.sources != sources or rules.params != params:
        _worker_rules = _WorkerFailed(f"`{path}` changed while the games were being played; run the simulation again")
        return
    _worker_rules = rules


def _play_run(job: tuple) -> list:
    first, count, players, agents = job
    if isinstance(_worker_rules, _WorkerFailed):
        return [_worker_rules]
    results: list = []
    for seed in range(first, first + count):
        try:
            results.append(game_result(_worker_rules, players, seed, agents))
        except Exception:  # noqa: BLE001 - played again by the parent, which raises the error itself
            results.append(_GameFailed(seed))
            break
    return results


def _in_workers(rules: Rules, games: int, seed: int, players: int, agents: str, workers: int,
                overrides: list[str], progress):
    """The games' results in game order, played by `workers` processes in runs of consecutive seeds.

    The processes are started fresh ("spawn", on every platform): nothing of this process (a
    progress bar's thread, Hypothesis's state) is copied into them, and a worker loads the rules
    itself, as `rulesc run` would."""
    run = max(1, min(50, games // (workers * 8)))
    jobs = [(seed + start, min(run, games - start), players, agents) for start in range(0, games, run)]
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(workers, len(jobs)), initializer=_start_worker,
                      initargs=(rules.path, overrides, rules.program.sources, rules.params)) as pool:
        done = 0
        for results in pool.imap(_play_run, jobs):
            for result in results:
                if isinstance(result, _WorkerFailed):
                    raise SimulationError(result.message)
                if isinstance(result, _GameFailed):
                    game_result(rules, players, result.seed, agents)  # raises the game's error here
                    raise SimulationError(f"game {result.seed} failed in a worker process but not here")
                yield result
            done += len(results)
            if progress is not None:
                progress(done)


def format_summary(s: Summary, sources: dict) -> str:
    """The summary as text; `sources` maps each rules file's path to its text, to quote rules."""
    rule_sources = RuleSources(sources)
    turns = s.turns or [0]
    lines = [
        f"{s.title}: {s.games} games, {s.players} players, {s.agents} agents, seeds {s.seed}..{s.seed + s.games - 1}",
        "",
        "turns per game:  mean {:.1f}  median {:.0f}  min {}  max {}".format(
            statistics.fmean(turns), statistics.median(turns), min(turns), max(turns)),
        "",
        "how games ended:",
    ]
    for reason, count in sorted(s.reasons.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        lines.append(f"  {reason:<28} {count:>7}  {100 * count / s.games:5.1f}%")
    lines += ["", "wins by seat (seat 1 moves first only if it rolls highest):"]
    decided = sum(s.wins.values())
    for seat in range(1, s.players + 1):
        count = s.wins.get(seat, 0)
        share = 100 * count / decided if decided else 0.0
        lines.append(f"  seat {seat}  {count:>7}  {share:5.1f}%")
    lines += ["", "where money went (all games, by rule):"]
    total = sum(s.money_by_rule.values()) or 1
    by_amount = sorted(s.money_by_rule.items(), key=lambda kv: (-kv[1], kv[0].text, kv[0].file, kv[0].line))
    for rule, amount in by_amount[:10]:
        where = rule_sources.label(rule.file, rule.line) if rule else ""
        text = rule_sources.text(rule).split("§")[0].split(" assumed")[0].strip()
        if len(text) > 60:
            text = text[:57] + "..."
        lines.append(f"  {where:<22} {amount:>14,}  {100 * amount / total:5.1f}%  {text}")
    return "\n".join(lines) + "\n"
