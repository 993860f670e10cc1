"""Play many games and summarise them: length, end reasons, wins by seat, where money went.

Game `i` of a run with seed `S` is played with seed `S + i`, so a summary is the same
every time for the same arguments, and any one game can be replayed with `rulesc run
--seed S+i`. The summary holds no timings: those go to stderr, so stdout stays
byte-for-byte reproducible.

With `workers` above 1 the games are shared out, in runs of consecutive seeds, among that many
processes, or (`scheduler`) among the workers of a Dask cluster; the results come back in game
order and are added up exactly as in one process, so the summary is the same wherever the
games were played.
"""

from __future__ import annotations

import collections
import hashlib
import multiprocessing
import pickle
import statistics
from typing import Callable, NamedTuple

import attrs

from rulesc.dsl.checker import check_program
from rulesc.dsl.variants import load_file
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import field_index
from rulesc.interpreter.rules import Rules, compile_rules

from .sources import RuleSources

PAY_AMOUNT = field_index("pay", "amount")


class GameResult(NamedTuple):
    """What a summary takes from one game (small, to send back from a worker process)."""

    turns: int
    reason: str | None
    winner_seat: int | None
    money_by_rule: dict  # RuleRef -> money paid by that rule
    broken: object = None  # with `check`: the Failure of an invariant the game broke (it stopped there)


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
    broken: list = attrs.Factory(list)  # with `check`: (seed, Failure) of each game that broke an invariant

    @property
    def total_turns(self) -> int:
        return sum(self.turns)

    def add(self, seed: int, result: GameResult) -> None:
        self.turns.append(result.turns)
        self.reasons[result.reason or "broke an invariant"] += 1
        if result.broken is not None:
            self.broken.append((seed, result.broken))
        if result.winner_seat is not None:
            self.wins[result.winner_seat + 1] += 1
        for rule, amount in result.money_by_rule.items():
            self.money_by_rule[rule] += amount


def play_one(rules: Rules, players: int, seed: int, agents: str, record: bool = True) -> Game:
    game = Game(rules, players, seed=seed, agents=make_agents(agents, seed, players), record=record)
    game.play()
    return game


def game_result(rules: Rules, players: int, seed: int, agents: str, check: bool = False) -> GameResult:
    """One game's figures; with `check`, every invariant is checked after every event, and a game
    that breaks one stops there with the failure."""
    failure = None
    if check:
        from .properties import play_checked
        game = Game(rules, players, seed=seed, agents=make_agents(agents, seed, players))
        failure = play_checked(rules, game)
    else:
        game = play_one(rules, players, seed, agents)
    state = game.state
    money: collections.Counter = collections.Counter()
    for event in game.events:
        if event.kind == "pay":
            money[event.rule] += event.payload[PAY_AMOUNT]
    return GameResult(state.turn, state.end_reason, state.winner.seat if state.winner is not None else None,
                      dict(money), failure)


class SimulationError(Exception):
    """The games could not be played elsewhere (the rules file changed meanwhile, no Dask...)."""


def simulate(rules: Rules, games: int, seed: int, players: int, agents: str = "heuristic",
             progress: Callable[[int], None] | None = None, workers: int = 1,
             overrides: list[str] | None = None, scheduler: str | None = None, check: bool = False) -> Summary:
    """Play games `seed` .. `seed + games - 1` and sum them up.

    With `workers` > 1, in that many local processes; with `scheduler` (a Dask scheduler's
    address), on that cluster's workers. Either way the rules go to them as the parsed file (read
    again here, and checked to be what `rules` was loaded from) with `overrides`, the `--set`s
    `rules` was loaded with, and each compiles them once. Local processes are started fresh, so a
    script that calls this with workers must guard its own code with `if __name__ ==
    "__main__":`, as for any multiprocessing. With `check` (every invariant after every event) the
    games are played here, whatever `workers` says."""
    summary = Summary(rules.title, games, players, agents, seed)
    if check:
        results = _here(rules, games, seed, players, agents, progress, check=True)
    elif scheduler is not None:
        results = _on_dask(rules, games, seed, players, agents, scheduler, overrides or [], progress)
    elif workers > 1 and games > 1:
        results = _in_workers(rules, games, seed, players, agents, workers, overrides or [], progress)
    else:
        results = _here(rules, games, seed, players, agents, progress)
    for i, result in enumerate(results):
        summary.add(seed + i, result)
    return summary


def _here(rules: Rules, games: int, seed: int, players: int, agents: str, progress, check: bool = False):
    for i in range(games):
        yield game_result(rules, players, seed + i, agents, check)
        if progress is not None:
            progress(i + 1)


# ---- elsewhere: worker processes, a Dask cluster ----------------------------------------------------------
#
# A worker gets the parsed rules file (the AST, which pickles; compiled rules do not) and the
# overrides, and compiles them once: it reads no file, so a worker on another machine needs
# rulesc but not the rules. Jobs are runs of consecutive seeds; their results come back in game
# order, so the summary is the one a single process makes.
#
# Nothing a worker does may raise across the process boundary: an exception that fails to unpickle
# (most of ours take more than a message) or a pool initializer that fails would hang the run. A
# worker reports trouble as a value instead: a game that raised is played again here, where it
# raises the same error (same seed, same game) as it would have in one process.

class _GameFailed(NamedTuple):
    seed: int


class _WorkerFailed(NamedTuple):
    message: str


def _rules_file(rules: Rules):
    """The parsed file `rules` was compiled from, read again; it must be the same text."""
    rules_file = load_file(rules.path)
    if rules_file.sources != rules.program.sources:
        raise SimulationError(f"`{rules.path}` changed after it was loaded; run the simulation again")
    return rules_file


def _compile(rules_file, overrides: list[str]) -> Rules | _WorkerFailed:
    try:
        return compile_rules(check_program(rules_file), overrides)
    except Exception as exc:  # noqa: BLE001 - reported by the parent
        return _WorkerFailed(f"a worker could not compile `{rules_file.path}`: {exc}")


def _play_run(rules: Rules | _WorkerFailed, job: tuple) -> list:
    if isinstance(rules, _WorkerFailed):
        return [rules]
    first, count, players, agents = job
    results: list = []
    for seed in range(first, first + count):
        try:
            results.append(game_result(rules, players, seed, agents))
        except Exception:  # noqa: BLE001 - played again by the parent, which raises the error itself
            results.append(_GameFailed(seed))
            break
    return results


def _jobs(games: int, seed: int, players: int, agents: str, runs_per_worker: int, workers: int) -> list:
    run = max(1, min(50, games // (workers * runs_per_worker)))
    return [(seed + start, min(run, games - start), players, agents) for start in range(0, games, run)]


def _results(rules: Rules, batches, players: int, agents: str, progress):
    """Each result of each batch, in order, as a single process would have made them."""
    done = 0
    for results in batches:
        for result in results:
            if isinstance(result, _WorkerFailed):
                raise SimulationError(result.message)
            if isinstance(result, _GameFailed):
                game_result(rules, players, result.seed, agents)  # raises the game's error here
                raise SimulationError(f"game {result.seed} failed in a worker but not here")
            yield result
        done += len(results)
        if progress is not None:
            progress(done)


_process_rules: Rules | _WorkerFailed | None = None  # in a worker process: the rules it plays


def _start_process(rules_file, overrides: list[str]) -> None:
    global _process_rules
    _process_rules = _compile(rules_file, overrides)


def _play_in_process(job: tuple) -> list:
    return _play_run(_process_rules, job)


def _in_workers(rules: Rules, games: int, seed: int, players: int, agents: str, workers: int,
                overrides: list[str], progress):
    """The games' results in game order, played by `workers` local processes.

    The processes are started fresh ("spawn", on every platform): nothing of this process (a
    progress bar's thread, Hypothesis's state) is copied into them."""
    rules_file = _rules_file(rules)
    jobs = _jobs(games, seed, players, agents, 8, workers)
    context = multiprocessing.get_context("spawn")
    with context.Pool(min(workers, len(jobs)), initializer=_start_process, initargs=(rules_file, overrides)) as pool:
        yield from _results(rules, pool.imap(_play_in_process, jobs), players, agents, progress)


_dask_rules: dict = {}  # in a Dask worker: compiled rules by the key of what they were compiled from


def _play_on_dask(key: str, rules_file, overrides: list[str], job: tuple) -> list:
    rules = _dask_rules.get(key)
    if rules is None:
        rules = _dask_rules[key] = _compile(rules_file, overrides)
    return _play_run(rules, job)


def _on_dask(rules: Rules, games: int, seed: int, players: int, agents: str, address: str, overrides: list[str],
             progress):
    """The games' results in game order, played on the Dask cluster whose scheduler is at `address`
    (its workers need rulesc installed: `pip install 'rulesc[dask]'`)."""
    try:
        from distributed import Client
    except ImportError:
        raise SimulationError("`--scheduler` needs Dask's distributed scheduler: pip install 'rulesc[dask]'") from None
    rules_file = _rules_file(rules)
    key = hashlib.sha256(pickle.dumps((rules_file.sources, rules_file.path, overrides))).hexdigest()
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise SimulationError(f"cannot reach the Dask scheduler at `{address}`: {exc}") from None
    with client:
        workers = max(1, sum(client.nthreads().values()))
        shared = client.scatter([rules_file], broadcast=True)[0]  # sent once to each worker, not with every job
        futures = [client.submit(_play_on_dask, key, shared, overrides, job, pure=False)
                   for job in _jobs(games, seed, players, agents, 4, workers)]
        yield from _results(rules, (future.result() for future in futures), players, agents, progress)


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


def format_broken(s: Summary, command: str) -> str:
    """`simulate --check`: which games broke an invariant, each with the command that replays it."""
    if not s.broken:
        return "\ninvariants: checked after every event of every game; all held\n"
    lines = ["", f"invariants: {len(s.broken)} of {s.games} games broke one (each stopped there):"]
    for game_seed, f in s.broken:
        lines.append(f"  seed {game_seed}: {f.invariant} at turn {f.turns}, rule {f.rule or 'none'}: {f.message}")
        lines.append(f"    replay: {command} --seed {game_seed} --check")
    return "\n".join(lines) + "\n"
