"""Playing many games on all cores (`--jobs N`) or on a Dask cluster (`--dask ADDRESS`), in game order.

`simulate`, `diff`, `sweep` and `check`'s whole-game pass hand this module one or more rule sets
(a compiled `Rules` and the `--set` overrides it was compiled with) and a list of `Batch`es: runs of
consecutive seeds, each to be played with one rule set by a top-level function `play(rules, seed,
*args)`. `run` yields each batch's results in batch order, however many processes played them,
so what a command makes of them is the same as in one process: game `i` is always seed `S + i`.

A worker gets the parsed rules file (the AST, which pickles; compiled rules do not) and the
overrides, and compiles each rule set once: it reads no file, so a worker on another machine needs
rulesc but not the rules. Nothing a worker does may raise across the process boundary (an
exception that fails to unpickle, or a pool initializer that fails, would hang the run): a worker
reports trouble as a value instead, and a game that raised is played again here, where it raises
the same error (same seed, same game) as it would have in one process.
"""

from __future__ import annotations

import hashlib
import multiprocessing
import os
import pickle
import signal
import time
from typing import Callable, Iterator, NamedTuple, Sequence

from rulesc.dsl.checker import check_program
from rulesc.dsl.variants import load_file
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.rules import Rules, compile_rules


DEFAULT_PLAYERS = 4  # the seats a game is played with when no one says: 4, where the game allows


def default_players(players_range: tuple) -> int:
    """How many players `simulate`, `run`, `diff` and the check's whole games seat by default."""
    low, high = players_range
    return min(max(DEFAULT_PLAYERS, low), high)


class RunError(Exception):
    """The games could not be played elsewhere (the rules file changed meanwhile, no Dask...)."""


class RuleSet(NamedTuple):
    rules: Rules
    overrides: list  # the `--set NAME=VALUE`s `rules` was compiled with


class Batch(NamedTuple):
    """Games `first` .. `first + count - 1` of rule set `rule_set`, each played as `play(rules, seed, *args)`."""

    rule_set: int
    first: int
    count: int
    args: tuple


HEAD_START = 1.0  # seconds: by default (no `--jobs`), games are played here while what is left looks to take
# less than this; a worker's start (imports, compiling the rules) costs about half a second, which quick games
# (a few hundred a second for a short game) would only wait for. Past it, workers play the rest.


def all_cores() -> int:
    """The cores this process may use."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def processes(jobs: int | None, games: int) -> int:
    """How many processes may play `games` games: `jobs` when the user said (`--jobs N`); by default
    (None) one per core, no more than there are games (`run` starts them only when the games are slow
    enough to pay for their start)."""
    if jobs is not None:
        return jobs
    return max(1, min(all_cores(), games))


class Where:
    """Where a `run` played its games, for a command's timing line: in `processes` local processes (1:
    here) or on the Dask cluster at `dask`."""

    def __init__(self) -> None:
        self.processes = 1
        self.dask: str | None = None

    def __str__(self) -> str:
        """` (2 jobs)`, ` on tcp://…`, or nothing for games played here."""
        return f" on {self.dask}" if self.dask else f" ({self.processes} jobs)" if self.processes > 1 else ""


def runs(games: int, seed: int, jobs: int | None, per_job: int = 8) -> list[tuple[int, int]]:
    """Seeds `seed` .. `seed + games - 1` cut into runs (first, count): about `per_job` runs a process,
    so that the last runs finish together, and at most 50 games a run. (How the games are cut changes
    nothing but the time they take.)"""
    size = max(1, min(50, games // (processes(jobs, games) * per_job)))
    return [(seed + start, min(size, games - start)) for start in range(0, games, size)]


def run(rule_sets: Sequence[RuleSet], batches: list[Batch], play: Callable, jobs: int | None = 1,
        dask: str | None = None, progress: Callable[[int], None] | None = None, where: Where | None = None,
        head_start: float = HEAD_START) -> Iterator[list]:
    """Each batch's results, in batch order: here (`jobs` 1), in `jobs` local processes, or on the Dask
    cluster whose scheduler is at `dask`. By default (`jobs` None) the first batches are played here,
    and the rest in as many processes as `processes` says once it looks to take longer than `head_start`
    seconds. `progress` is called with the games played so far; `where`, if given, is told where they
    were played. Wherever that is, the results are the same.

    Local processes are started fresh ("spawn", on every platform: nothing of this process, a
    progress bar's thread or Hypothesis's state, is copied into them), so a script that runs
    games in processes must guard its own code with `if __name__ == "__main__":`."""
    where = where if where is not None else Where()
    games = sum(b.count for b in batches)
    count = processes(jobs, games)
    if dask is not None:
        where.dask = dask
        batches_out = _on_dask(rule_sets, batches, play, dask)
    elif count > 1 and len(batches) > 1 and games > 1:
        batches_out = _in_processes(rule_sets, batches, play, count, where) if jobs is not None else \
            _here_first(rule_sets, batches, play, count, where, head_start)
    else:
        batches_out = (_play_batch(rule_sets[b.rule_set].rules, play, b) for b in batches)
    done = 0
    try:
        for batch, results in zip(batches, batches_out):
            yield _checked(rule_sets[batch.rule_set].rules, play, batch, results)
            done += batch.count
            if progress is not None:
                progress(done)
    finally:
        if hasattr(batches_out, "close"):
            batches_out.close()  # stops the processes now, not when the garbage collector gets to them


class _GameFailed(NamedTuple):
    seed: int


class _WorkerFailed(NamedTuple):
    message: str


def _play_batch(rules: Rules | _WorkerFailed, play: Callable, batch: Batch) -> list:
    if isinstance(rules, _WorkerFailed):
        return [rules]
    results: list = []
    for seed in range(batch.first, batch.first + batch.count):
        try:
            results.append(play(rules, seed, *batch.args))
        except Exception:  # noqa: BLE001 - played again by the parent, which raises the error itself
            results.append(_GameFailed(seed))
            break
    return results


def _checked(rules: Rules, play: Callable, batch: Batch, results: list) -> list:
    """A batch's results, or the error a worker reported, raised here as one process would have."""
    for result in results:
        if isinstance(result, _WorkerFailed):
            raise RunError(result.message)
        if isinstance(result, _GameFailed):
            try:
                play(rules, result.seed, *batch.args)  # raises the game's error here
            except RuleRuntimeError as exc:
                exc.seed = result.seed  # which of the games: to play it alone again
                raise
            raise RunError(f"game {result.seed} failed in a worker but not here")
    return results


def _rules_file(rules: Rules):
    """The parsed file `rules` was compiled from, read again; it must be the same text."""
    rules_file = load_file(rules.path)
    if rules_file.sources != rules.program.sources:
        raise RunError(f"`{rules.path}` changed after it was loaded; run the command again")
    return rules_file


def _compile(rules_file, overrides: list) -> Rules | _WorkerFailed:
    try:
        return compile_rules(check_program(rules_file), overrides)
    except Exception as exc:  # noqa: BLE001 - reported by the parent
        return _WorkerFailed(f"a worker could not compile `{rules_file.path}`: {exc}")


def _sources(rule_sets: Sequence[RuleSet]) -> list:
    """(parsed file, overrides) of each rule set; a file shared by several sets is read once."""
    files: dict = {}
    out = []
    for rs in rule_sets:
        if rs.rules.path not in files:
            files[rs.rules.path] = _rules_file(rs.rules)
        out.append((files[rs.rules.path], list(rs.overrides)))
    return out


# ---- local processes -------------------------------------------------------------------------------------

_process_sources: list = []  # in a worker process: (parsed file, overrides) of each rule set
_process_rules: dict = {}  # ... and the rule sets compiled so far, by index


def _start_process(sources: list) -> None:
    global _process_sources
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle: it stops the pool, quietly
    _process_sources = sources
    _process_rules.clear()


def _play_in_process(task: tuple) -> list:
    play, batch = task
    rules = _process_rules.get(batch.rule_set)
    if rules is None:
        rules = _process_rules[batch.rule_set] = _compile(*_process_sources[batch.rule_set])
    return _play_batch(rules, play, batch)


def _in_processes(rule_sets, batches: list[Batch], play: Callable, jobs: int, where: Where) -> Iterator[list]:
    sources = _sources(rule_sets)
    context = multiprocessing.get_context("spawn")
    where.processes = min(jobs, len(batches))
    with context.Pool(where.processes, initializer=_start_process, initargs=(sources,)) as pool:
        yield from pool.imap(_play_in_process, [(play, b) for b in batches])


def _here_first(rule_sets, batches: list[Batch], play: Callable, jobs: int, where: Where,
                head_start: float) -> Iterator[list]:
    """The batches played here, one by one, until those left look to take longer than `head_start`
    seconds (at the pace of those played); then the rest in `jobs` processes."""
    games = sum(b.count for b in batches)
    played, spent = 0, 0.0
    for i, batch in enumerate(batches):
        started = time.perf_counter()
        results = _play_batch(rule_sets[batch.rule_set].rules, play, batch)
        spent += time.perf_counter() - started
        played += batch.count
        yield results
        if i + 1 < len(batches) and spent / played * (games - played) > head_start:
            yield from _in_processes(rule_sets, batches[i + 1:], play, jobs, where)
            return


# ---- a Dask cluster --------------------------------------------------------------------------------------

_dask_rules: dict = {}  # in a Dask worker: compiled rules by the key of what they were compiled from


def _play_on_dask(key: str, rules_file, overrides: list, play: Callable, batch: Batch) -> list:
    rules = _dask_rules.get(key)
    if rules is None:
        rules = _dask_rules[key] = _compile(rules_file, overrides)
    return _play_batch(rules, play, batch)


def _on_dask(rule_sets, batches: list[Batch], play: Callable, address: str) -> Iterator[list]:
    """Each batch played on the cluster (its workers need rulesc installed: `pip install 'rulesc[dask]'`)."""
    try:
        from distributed import Client
    except ImportError:
        raise RunError("`--dask` needs Dask's distributed scheduler: pip install 'rulesc[dask]'") from None
    sources = _sources(rule_sets)
    keys = [hashlib.sha256(pickle.dumps((f.sources, f.path, o))).hexdigest() for f, o in sources]
    try:
        client = Client(address, timeout="20s")
    except (OSError, TimeoutError, ValueError) as exc:
        raise RunError(f"cannot reach the Dask scheduler at `{address}`: {exc}") from None
    with client:
        files = list({id(f): f for f, _ in sources}.values())
        shared = dict(zip([id(f) for f in files], client.scatter(files, broadcast=True)))  # once to each worker
        futures = [client.submit(_play_on_dask, keys[b.rule_set], shared[id(sources[b.rule_set][0])],
                                 sources[b.rule_set][1], play, b, pure=False) for b in batches]
        for future in futures:
            yield future.result()
