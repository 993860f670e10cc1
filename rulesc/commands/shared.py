"""What the commands share: their common options, loading a file, the checks made before any
work (an output that cannot be written, a player count the game does not allow), the progress bar,
and how an error is reported and which exit code it gets.

Exit codes: 0 clean; 1 the rules have errors, an invariant broke or a scenario failed; 2 usage or
I/O error (a missing file, a bad option); 3 an internal error, a bug in rulesc (`cli.main`).
A command that must stop with a usage error deep in its work raises `Exit(2)`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shlex
import sys
from pathlib import Path

from rulesc.dsl import codes
from rulesc.dsl.diagnostics import RulesError, render_json, render_text
from rulesc.interpreter.errors import RuleRuntimeError


class Exit(Exception):
    def __init__(self, code: int):
        self.code = code


# ---- errors ------------------------------------------------------------------------------------

def source_of(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def unread(exc: RulesError) -> bool:
    """Whether every diagnostic of `exc` says a file could not be read or an option is bad: a usage or
    I/O error, whose code's exit status is 2 (dsl/codes.py)."""
    return all(codes.lookup(d.code).exit_status == 2 for d in exc.diagnostics)


def report_rules_error(exc: RulesError, fmt: str = "text") -> int:
    if fmt == "json":
        print(render_json(exc.diagnostics))
    else:
        sources: dict = {}
        for d in exc.diagnostics:
            if d.path not in sources:
                sources[d.path] = source_of(d.path) if Path(d.path).is_file() else None
            print(render_text(d, sources[d.path]), file=sys.stderr)
    return 2 if unread(exc) else 1


def report_runtime_error(exc: RuleRuntimeError, args) -> int:
    """The rule error, and where it happened in one of many games, how to play that game alone."""
    notes = ()
    if exc.seed is not None:
        notes = (f"in the game of seed {exc.seed}",)
        if args.command == "simulate":  # `run` plays a game as `simulate` does, with the same defaults
            options = [f"--seed {exc.seed}"] + ([f"--players {args.players}"] if args.players is not None else [])
            options += [f"--agents {args.agents}"] + [f"--set {shlex.quote(s)}" for s in args.set or ()]
            notes = (f"in the game of seed {exc.seed}: play it alone with "
                     f"`rulesc run {shlex.quote(args.file)} {' '.join(options)} --log -`",)
    print(render_text(exc.diagnostic(notes), source_of(exc.path)), file=sys.stderr)
    return 1


def fail(message: str, code: int = 2) -> int:
    """An error of a command, `rulesc: error: …` on stderr; returns its exit code (a usage error's, 2)."""
    print(f"rulesc: error: {message}", file=sys.stderr)
    return code


# ---- files and games -----------------------------------------------------------------------------

def write_output(path: str, text: str) -> None:
    """Write an output file the user named; a path that cannot be written is a usage error (exit 2)."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        raise Exit(fail(f"cannot write `{path}`: {exc.strerror or exc}")) from None


def check_writable(path: str | None) -> None:
    """Refuse an output path that is a directory (or in a folder that does not exist) before any work."""
    if path is None or path == "-":
        return
    target = Path(path)
    if target.is_dir():
        raise Exit(fail(f"`{path}` is a directory; name a file to write"))
    if not target.parent.is_dir():
        raise Exit(fail(f"cannot write `{path}`: no folder `{target.parent}`"))


def check_plot(path: str | None) -> None:
    """Refuse a `--plot` file that cannot be written or drawn before any game is played."""
    if path is None:
        return
    check_writable(path)
    from rulesc.plots import plot_format_error
    error = plot_format_error(path)
    if error is not None:
        raise Exit(fail(error))


def plot_written(path: str, figure, fmt: str) -> None:
    """Save a `--plot` picture; say so on stderr when stdout carries JSON or CSV."""
    from rulesc import plots
    try:
        plots.save(figure, path)
    except OSError as exc:
        raise Exit(fail(f"cannot write `{path}`: {exc.strerror or exc}")) from None
    print(f"wrote {path}", file=sys.stderr if fmt != "text" else sys.stdout)


def load(args):
    """The rules of `args.file`, with its `--set` overrides: parsed, checked and compiled. Each override
    is echoed on stderr as it was understood (`--set: starting_cash = $1,500`): a `$1500` that a shell
    turned into `500` shows at once."""
    from rulesc.interpreter.rules import load_rules
    rules = load_rules(args.file, getattr(args, "set", None))
    echo_overrides(rules, getattr(args, "set", None) or ())
    return rules


def echo_overrides(rules, texts) -> None:
    """`--set: NAME = VALUE` on stderr for each override, the value written as the rules file would."""
    checked = rules.checked
    for text in texts:
        name = text.split("=", 1)[0].strip()
        value = rules.params.get(name)
        kind = checked.types.get(id(checked.program.params[name].value)) if name in checked.program.params else None
        kind_name = getattr(kind, "name", None)
        shown = (f"${value:,}" if kind_name == "money" and isinstance(value, int) and value >= 0
                 else f"-${-value:,}" if kind_name == "money" and isinstance(value, int)
                 else f"{value}%" if kind_name == "percent" else str(value).lower() if isinstance(value, bool)
                 else str(value))
        print(f"--set: {name} = {shown}", file=sys.stderr)


def players(rules, requested: int | None) -> int:
    from rulesc.runner import default_players
    low, high = rules.players_range
    if requested is None:
        return default_players(rules.players_range)
    if not low <= requested <= high:
        raise Exit(fail(f"{rules.title} is for {low} to {high} players, not {requested}"))
    return requested


@contextlib.contextmanager
def progress_bar(label: str, total: int | None, quiet: bool = False):
    """A progress bar on stderr when it is a terminal (`total` None: a count without an end);
    yields the callback to report progress with, or None when there is no terminal to show it."""
    if quiet or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import (BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn,
                               TimeRemainingColumn)
    if total:
        columns = [BarColumn(), MofNCompleteColumn(), TimeRemainingColumn()]
    else:
        columns = [TextColumn("{task.completed}"), TimeElapsedColumn()]
    with Progress("[progress.description]{task.description}", *columns, transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.update(task, completed=done)


# ---- options ----------------------------------------------------------------------------------------

def at_least(low: int):
    """An argparse type: a whole number no smaller than `low` (argparse then reports a bad one, exit 2)."""
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"`{text}` is not a whole number") from None
        if value < low:
            raise argparse.ArgumentTypeError(f"must be at least {low}, not {value}")
        return value
    parse.__name__ = f"a number from {low}"
    return parse


JOBS_VARIABLE = "RULESC_JOBS"  # the default of `--jobs` where it is set: `1` where something else keeps
# every core busy already (a test runner's workers, a batch system's slots)


class _FromEnvironment(str):
    """The default `--jobs` read from JOBS_VARIABLE: argparse reads it as if typed, and a bad one is
    reported under the variable's name."""


def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        said = f"{JOBS_VARIABLE}={text}" if isinstance(text, _FromEnvironment) else text
        raise argparse.ArgumentTypeError(f"`{said}` is not a number of processes (1 or more)")
    return value


def with_file(p) -> None:
    p.add_argument("file", metavar="FILE", help="the rules file")


def with_set(p) -> None:
    p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                   help="override a parameter, e.g. --set starting_cash=1500 (money needs no `$`; to write one, "
                        "quote it: --set 'starting_cash=$1,500')")


def with_parallel(p, what: str = "the games") -> None:
    from_environment = os.environ.get(JOBS_VARIABLE)
    p.add_argument("--jobs", type=_jobs, default=None if from_environment is None else _FromEnvironment(from_environment),
                   metavar="N", help=f"play {what} in N processes (default: ${JOBS_VARIABLE} if set, else here until "
                                     "they look to take more than a second, then one process per core); the output "
                                     "is the same")
    p.add_argument("--dask", metavar="ADDRESS",
                   help=f"play {what} on the Dask cluster whose scheduler is at ADDRESS (needs rulesc[dask]); "
                        "the output is the same")


def with_plot(p, what: str) -> None:
    p.add_argument("--plot", metavar="FILE", help=f"draw {what} (.png, .svg or .pdf; needs matplotlib)")


def with_players(p) -> None:
    p.add_argument("--players", type=at_least(1), help="number of players (default: 4 where the game allows)")


def with_agents(p) -> None:
    p.add_argument("--agents", choices=["heuristic", "random"], default="heuristic", help="the agents playing")
    with_players(p)
