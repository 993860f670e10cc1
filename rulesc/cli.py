# PYTHON_ARGCOMPLETE_OK  (shell completion, where argcomplete is installed)
"""The `rulesc` command: check, diagram, run, simulate and test rules files.

Exit codes: 0 clean; 1 the rules have errors, an invariant broke or a scenario failed;
2 usage or I/O error (a missing file, a bad option); 3 an internal error, a bug in rulesc.
No Python traceback reaches the user unless `--debug` asks for it.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import shlex
import sys
import time
from pathlib import Path

from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError, render_json, render_text
from rulesc.dsl.typecheck import plural
from rulesc.dsl.variants import load_file
from rulesc.interpreter.errors import RuleRuntimeError

from . import report

# A command imports what it needs when it runs (the interpreter, the simulator, the property
# checker), so that `rulesc check --static` starts without them.

EXIT_INTERNAL = 3  # a bug in rulesc, never the user's input: scripts can tell it from a missing file (2)
IO_CODES = {"R0001", "R0002", "R0004", "R0010", "R0011", "R0012", "R0513"}  # unreadable file or bad option: usage/I-O


class Exit(Exception):
    def __init__(self, code: int):
        self.code = code


def _source_of(path: str) -> str | None:
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _report_rules_error(exc: RulesError, fmt: str = "text") -> int:
    if fmt == "json":
        print(render_json(exc.diagnostics))
    else:
        sources: dict = {}
        for d in exc.diagnostics:
            if d.path not in sources:
                sources[d.path] = _source_of(d.path) if Path(d.path).is_file() else None
            print(render_text(d, sources[d.path]), file=sys.stderr)
    return 2 if all(d.code in IO_CODES for d in exc.diagnostics) else 1


def _runtime_error(exc: RuleRuntimeError, args) -> int:
    """The rule error, and where it happened in one of many games, how to play that game alone."""
    notes = ()
    if exc.seed is not None:
        notes = (f"in the game of seed {exc.seed}",)
        if args.command == "simulate":  # `run` plays a game as `simulate` does, with the same defaults
            options = [f"--seed {exc.seed}"] + ([f"--players {args.players}"] if args.players is not None else [])
            options += [f"--agents {args.agents}"] + [f"--set {shlex.quote(s)}" for s in args.set or ()]
            notes = (f"in the game of seed {exc.seed}: play it alone with "
                     f"`rulesc run {shlex.quote(args.file)} {' '.join(options)} --log -`",)
    print(render_text(exc.diagnostic(notes), _source_of(exc.path)), file=sys.stderr)
    return 1


NEGATIVE_VALUE = re.compile(r"-\$?[\d,.]+%?")  # `-$100`, `-5%`: argparse takes them for options


def _negative_steps(sets: list, unknown: list) -> list:
    """`--set NAME=FROM..TO step -$100`: argparse takes `-$100` (not a plain negative number) for an unknown
    option and leaves the `--set` ending in `step`; give the value back to that `--set`, so that sweep says
    what is wrong with the step. Returns the words still unknown."""
    left = list(unknown)
    for words in sets or ():
        if words[-1] == "step" and left and NEGATIVE_VALUE.fullmatch(left[0]):
            words.append(left.pop(0))
    return left


def _write_output(path: str, text: str) -> None:
    """Write an output file the user named; a path that cannot be written is a usage error (exit 2)."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        print(f"rulesc: error: cannot write `{path}`: {exc.strerror or exc}", file=sys.stderr)
        raise Exit(2) from None


def _check_writable(path: str | None) -> None:
    """Refuse an output path that is a directory (or in a folder that does not exist) before any work."""
    if path is None or path == "-":
        return
    target = Path(path)
    if target.is_dir():
        print(f"rulesc: error: `{path}` is a directory; name a file to write", file=sys.stderr)
        raise Exit(2)
    if not target.parent.is_dir():
        print(f"rulesc: error: cannot write `{path}`: no folder `{target.parent}`", file=sys.stderr)
        raise Exit(2)


def _load(args):
    from rulesc.interpreter.rules import load_rules
    return load_rules(args.file, getattr(args, "set", None))


def _players(rules, requested: int | None) -> int:
    low, high = rules.players_range
    if requested is None:
        return min(max(4, low), high)
    if not low <= requested <= high:
        print(f"rulesc: error: {rules.title} is for {low} to {high} players, not {requested}", file=sys.stderr)
        raise Exit(2)
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


# ---- commands ------------------------------------------------------------------------------

def cmd_check(args) -> int:
    if args.format == "sarif":
        return cmd_check_sarif(args)
    worst = 0
    results = []
    for path in args.files:
        try:
            rules_file = load_file(path)
        except RulesError as exc:
            unread = all(d.code in IO_CODES for d in exc.diagnostics)
            if args.format == "json":
                results.append({"path": path, "diagnostics": [d.to_json() for d in exc.diagnostics]})
            else:
                _report_rules_error(exc)
                if not unread:  # the summary a file that loads gets, for one that does not
                    errors = sum(d.is_error for d in exc.diagnostics)
                    syntax = all(d.code.startswith("R01") for d in exc.diagnostics)  # else a variant's base, or
                    print(f"{path}: does not {'parse' if syntax else 'load'}\n  {plural(errors, 'error')}, "
                          f"{plural(len(exc.diagnostics) - errors, 'warning')}")  # what it removes, is wrong
            worst = max(worst, 2 if unread else 1)
            continue
        checked = check_program(rules_file)
        if args.format == "json":
            results.append({"path": path, "diagnostics": [d.to_json() for d in checked.diagnostics],
                            "checked": report.inventory(checked),
                            "assumptions": [{"what": a.what, "note": a.note, "file": a.span.file or path,
                                             "line": a.span.line} for a in checked.assumptions]})
        else:
            sys.stderr.write(report.format_diagnostics(checked))
            sys.stdout.write(report.format_static(checked, args.assumed))
        if not checked.ok:
            worst = max(worst, 1)
            continue
        if args.static:  # parse and check only: the interpreter is not even imported (start-up, issue #14)
            if args.set:
                from rulesc.interpreter.rules import compile_rules
                compile_rules(checked, args.set)  # a bad `--set` is the same usage error with or without --static
            continue
        from rulesc.interpreter.rules import compile_rules
        from rulesc.interpreter.scenario import run_scenarios

        rules = compile_rules(checked, args.set)
        scenarios = report.scenario_results(path, run_scenarios(rules))
        if args.format == "json":
            results[-1]["scenarios"] = scenarios
        else:
            sys.stdout.write(report.format_scenarios(scenarios))
        if scenarios["failed"]:
            worst = max(worst, 1)
        import tempfile

        from hypothesis.configuration import set_hypothesis_home_dir

        from .properties import WHOLE_GAMES, check_properties, format_report, report_json
        from .runner import RunError
        with tempfile.TemporaryDirectory(prefix="rulesc-") as scratch:
            set_hypothesis_home_dir(scratch)  # Hypothesis's files, not a `.hypothesis/` in the user's folder
            try:
                with progress_bar("property check: games played", None, quiet=args.format == "json") as progress:
                    prop = check_properties(rules, examples=args.examples, seed=args.seed, progress=progress,
                                            max_turns=args.max_turns, set_args=args.set,
                                            games=WHOLE_GAMES if args.games is None else args.games,
                                            jobs=args.jobs, dask=args.dask)
            except RunError as exc:
                print(f"rulesc: error: {exc}", file=sys.stderr)
                raise Exit(2) from None
            finally:
                set_hypothesis_home_dir(None)
        if args.format == "json":
            results[-1]["properties"] = report_json(prop)
        else:
            sys.stdout.write(format_report(prop, args.debug))
        if not prop.ok:
            worst = max(worst, 1)
    if args.format == "json":
        print(json.dumps(results, indent=2))
    return worst


def cmd_diagram(args) -> int:
    from .diagram import DiagramError, build_diagram, write_graph
    _check_writable(args.output)
    rules_file = load_file(args.file)
    checked = check_program(rules_file)
    if not checked.ok:
        sys.stderr.write(report.format_diagnostics(checked))
        return 1
    stem = Path(args.file).stem
    if args.money:
        from .money import build_money_diagram
        graph, stem = build_money_diagram(checked), f"{stem}-money"
    elif args.deck is not None:
        from .deck_diagram import build_deck_diagram
        if args.deck not in checked.program.decks:
            decks = ", ".join(checked.program.decks) or "none"
            print(f"rulesc: error: `{args.file}` has no deck `{args.deck}` (its decks: {decks})", file=sys.stderr)
            return 2
        graph, stem = build_deck_diagram(checked, args.deck), f"{stem}-deck-{args.deck}"
    else:
        graph = build_diagram(checked)
    output = args.output or f"{stem}.dot"
    try:
        written = write_graph(graph, output, args.format)
    except DiagramError as exc:
        print(f"rulesc: error: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
    return 0


def cmd_doc(args) -> int:
    from .diagram import DiagramError, render_file
    from .docpage import DocError, render
    for path in [*args.files, *([args.rulebook] if args.rulebook else [])]:
        if not Path(path).is_file():
            print(f"rulesc: error: no such file: {path}", file=sys.stderr)
            return 2
    _check_writable(args.output)
    for path in args.files:  # each file's own diagnostics, as `check` shows them
        checked = check_program(load_file(path))
        if not checked.ok:
            sys.stderr.write(report.format_diagnostics(checked))
            return 1
    existing = _source_of(args.output) if Path(args.output).is_file() else None
    try:
        page = render(args.files, args.output, args.rulebook, existing)
    except DocError as exc:
        print(f"rulesc: error: {exc}", file=sys.stderr)
        return 1
    for path, text in page.files.items():
        _write_output(str(path), text)
        print(f"wrote {path}")
    for dot_path, image in page.pictures.items():
        try:
            render_file(dot_path, image, "svg")
        except DiagramError as exc:
            print(f"rulesc: error: {exc}", file=sys.stderr)
            return 2
        print(f"wrote {image}")
    return 0


def cmd_replay(args, rules) -> int:
    from .replay import explain, read_header, read_log, replay
    if Path(args.replay).exists() and not Path(args.replay).is_file():  # a device or a pipe: never read it
        print(f"rulesc: error: `{args.replay}` is not a file", file=sys.stderr)
        return 2
    try:
        text = Path(args.replay).read_text(encoding="utf-8")
        log = read_log(text)
    except OSError as exc:
        print(f"rulesc: error: cannot read `{args.replay}`: {exc.strerror or exc}", file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"rulesc: error: `{args.replay}` is not an event log (JSON lines): {exc}", file=sys.stderr)
        return 2
    setup = log[0] if log and log[0].get("event") == "setup" else {}
    for option, asked, logged in (("--seed", args.seed, setup.get("seed")),
                                  ("--players", args.players, len(setup.get("players") or ()))):
        if asked is not None and asked != logged:  # the log's own, or the replay would not be of this game
            print(f"rulesc: error: {args.replay} is of the game of {option} {logged}, not {asked}", file=sys.stderr)
            return 2
    try:
        result = replay(rules, log)
    except (ValueError, KeyError, StopIteration) as exc:
        print(f"rulesc: error: `{args.replay}` cannot be replayed: {exc}", file=sys.stderr)
        return 2
    if result.first_difference is None:
        print(f"replayed {result.events} events of {args.replay}: the same game, event for event")
        return 0
    print(f"the replay differs from {args.replay} at event {result.first_difference}:\n"
          f"  logged:   {json.dumps(result.expected)}\n  replayed: {json.dumps(result.actual)}")
    for reason in explain(read_header(text), rules, args.set):
        print(f"  note: {reason}")
    return 1


def _new_game(args, rules):
    """The game `rulesc run` plays: seeded with agents, or the checker's drawn values (`--draws`)."""
    from rulesc.interpreter.agents import make_agents
    from rulesc.interpreter.engine import Game
    if args.draws:
        from .properties import DataRandom, DrawnSource, HypothesisAgent, decode_draws
        try:
            source = DrawnSource(decode_draws(args.draws))
            low, high = rules.players_range
            players = source.integer(low, high)
        except ValueError as exc:
            print(f"rulesc: error: --draws: {exc}", file=sys.stderr)
            raise Exit(2) from None
        if args.players is not None and args.players != players:
            print(f"rulesc: error: these draws are of a game of {players} players, not {args.players}",
                  file=sys.stderr)
            raise Exit(2)
        agents = {seat: HypothesisAgent(source) for seat in range(players)}
        return Game(rules, players, seed=args.seed, agents=agents, rng=DataRandom(source),
                    turn_limit=args.turn_limit)
    players = _players(rules, args.players)
    return Game(rules, players, seed=args.seed, agents=make_agents(args.agents, args.seed, players),
                turn_limit=args.turn_limit)


def _write_log(args, rules, game) -> None:
    """`run --log`: the game's events, after a header that says how to play it again."""
    from rulesc.interpreter.events import events_to_jsonl

    from .replay import log_header
    text = log_header(rules, args.file, args.set, args.agents) + events_to_jsonl(game.events)
    if args.log == "-":
        sys.stdout.write(text)
    else:
        _write_output(args.log, text)


def cmd_run(args) -> int:
    if args.replay:
        given = [option for option, value in (("--log", args.log), ("--check", args.check or None),
                                              ("--draws", args.draws), ("--turn-limit", args.turn_limit))
                 if value is not None]
        if given:
            print(f"rulesc: error: --replay plays the logged game again as it was: {', '.join(given)} cannot apply",
                  file=sys.stderr)
            return 2
        return cmd_replay(args, _load(args))
    args.seed = args.seed or 0
    _check_writable(args.log)
    rules = _load(args)
    if args.turn_limit is not None and args.turn_limit < 1:
        print("rulesc: error: --turn-limit must be at least 1", file=sys.stderr)
        return 2
    game = _new_game(args, rules)
    players = len(game.state.players)
    failure = None
    try:
        if args.check:
            from .properties import play_checked
            failure = play_checked(rules, game)
        elif args.draws:
            from .properties import OutOfData
            try:
                game.play()
            except OutOfData:
                pass
        else:
            game.play()
    except ValueError as exc:
        if not args.draws:
            raise
        print(f"rulesc: error: --draws: {exc}", file=sys.stderr)  # the draws of another game, or other rules
        return 2
    except RuleRuntimeError:
        if args.log:  # the events up to the error: what led to it
            _write_log(args, rules, game)
        raise
    state = game.state
    if args.log:
        _write_log(args, rules, game)
        if args.log == "-":
            return 1 if failure is not None else 0
    winner = state.winner.name if state.winner else "nobody"
    how = "the checker's draws" if args.draws else f"{args.agents} agents"
    print(f"{rules.title}: seed {args.seed}, {players} players, {how}")
    if failure is not None:
        from .properties.report import _format_failure
        print(f"stopped after {state.turn} turns: an invariant broke")
        print("\n".join(_format_failure(failure, args.debug)))
    elif state.over:
        print(f"ended after {state.turn} turns: {state.end_reason}; winner: {winner}")
    else:
        print(f"stopped after {state.turn} turns: the draws ran out (the checker's game stopped here too)")
    for p in state.players:
        status = "out" if p.out else f"cash {p.f['cash']:,}"
        print(f"  {p.name}: {status}")
    if args.check and failure is None:
        print("every invariant held after every event")
    if args.log:
        print(f"{len(game.events)} events written to {args.log}")
    return 1 if failure is not None else 0


def cmd_play(args) -> int:
    from rulesc.interpreter.events import events_to_jsonl

    from .play import play_at_terminal
    _check_writable(args.log)
    rules = _load(args)
    players = _players(rules, args.players)
    if not 1 <= args.seat <= players:
        print(f"rulesc: error: --seat is 1 to {players}", file=sys.stderr)
        return 2
    game = play_at_terminal(rules, players, args.seat - 1, args.seed)
    if args.log:
        from .replay import log_header
        _write_output(args.log, log_header(rules, args.file, args.set, "terminal") + events_to_jsonl(game.events))
    state = game.state
    print(f"game over after {state.turn} turns: {state.end_reason}; "
          f"winner: {state.winner.name if state.winner else 'nobody'}")
    return 0


def cmd_simulate(args) -> int:
    from .runner import RunError, workers_of
    from .simulate import format_broken, format_summary, simulate, summary_csv, summary_json
    _check_plot(args.plot)
    rules = _load(args)
    players = _players(rules, args.players)
    started = time.perf_counter()
    try:
        with progress_bar("simulating", args.n, quiet=args.quiet or args.format != "text") as progress:
            summary = simulate(rules, args.n, args.seed, players, args.agents, progress=progress, jobs=args.jobs,
                               overrides=args.set, dask=args.dask, check=args.check, wealth=args.plot is not None)
    except RunError as exc:
        print(f"rulesc: error: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    if args.format == "json":
        print(json.dumps(summary_json(summary, rules.program.sources), indent=2))
    elif args.format == "csv":
        sys.stdout.write(summary_csv(summary))
    else:
        sys.stdout.write(format_summary(summary, rules.program.sources))
    if args.check and args.format == "text":
        import shlex
        replay = ["rulesc", "run", args.file] + [x for item in args.set for x in ("--set", item)] + \
            ["--players", str(players), "--agents", args.agents]
        sys.stdout.write(format_broken(summary, shlex.join(replay)))
    if args.plot is not None:
        from . import plots
        _plot_written(args.plot, plots.simulate_figure(summary), args.format)
    if not args.quiet:
        jobs = 1 if args.check else args.jobs
        print(f"{args.n} games, {summary.total_turns:,} turns in {elapsed:.2f} s{workers_of(jobs, args.dask)}: "
              f"{args.n / elapsed:,.1f} games/s, {summary.total_turns / elapsed:,.0f} player-turns/s", file=sys.stderr)
    return 1 if summary.broken else 0


def _check_plot(path: str | None) -> None:
    """Refuse a `--plot` file that cannot be written or drawn before any game is played."""
    if path is None:
        return
    _check_writable(path)
    from .plots import plot_format_error
    error = plot_format_error(path)
    if error is not None:
        print(f"rulesc: error: {error}", file=sys.stderr)
        raise Exit(2)


def _plot_written(path: str, figure, fmt: str) -> None:
    """Save a `--plot` picture; say so on stderr when stdout carries JSON or CSV."""
    from . import plots
    try:
        plots.save(figure, path)
    except OSError as exc:
        print(f"rulesc: error: cannot write `{path}`: {exc.strerror or exc}", file=sys.stderr)
        raise Exit(2) from None
    print(f"wrote {path}", file=sys.stderr if fmt != "text" else sys.stdout)


def cmd_test(args) -> int:
    if args.format == "junit":
        return cmd_test_junit(args)
    from rulesc.interpreter.events import events_to_jsonl
    from rulesc.interpreter.scenario import run_scenarios
    passed = failed = 0
    for path in args.files:
        args.file = path
        rules = _load(args)
        for result in run_scenarios(rules):
            where = result.file or path
            if result.passed:
                passed += 1
                print(f"PASS  {where}:{result.line}  {result.title}")
                continue
            failed += 1
            print(f"FAIL  {where}:{result.line}  {result.title}")
            for f in result.failures:
                print(f"      {where}:{f.line}: {f.message}")
            if args.verbose:
                for line in events_to_jsonl(result.events).splitlines():
                    print(f"        {line}")
    print(f"scenarios: {passed} passed, {failed} failed")
    return 1 if failed else 0


def cmd_diff(args) -> int:
    from rulesc.interpreter.rules import load_rules

    from . import diff
    from .runner import RunError
    _check_plot(args.plot)
    if args.plot is not None and not args.games:
        print("rulesc: error: --plot draws the games: give --games N too", file=sys.stderr)
        return 2
    base = load_rules(args.base, args.set)
    variant = load_rules(args.variant, args.set)
    found = diff.changes(base, variant)
    measured = None
    if args.games:
        players = _players(variant, args.players)
        if not base.players_range[0] <= players <= base.players_range[1]:
            print(f"rulesc: error: {base.title} is not for {players} players", file=sys.stderr)
            return 2
        try:
            with progress_bar("diffing", args.games, quiet=args.format == "json") as progress:
                measured = diff.measure(base, variant, args.games, args.seed, players, args.agents, progress=progress,
                                        jobs=args.jobs, dask=args.dask, overrides=args.set,
                                        wealth=args.plot is not None)
        except RunError as exc:
            print(f"rulesc: error: {exc}", file=sys.stderr)
            return 2
    scenarios = diff.scenario_changes(base, variant) if measured is None else None  # cheap: said with no games too
    if args.format == "json":
        print(json.dumps(diff.diff_json(found, measured, scenarios), indent=2))
    else:
        titles = (base.title, variant.title) if base.title != variant.title else \
            (f"{base.title} ({args.base})", f"{variant.title} ({args.variant})")  # told apart by their files
        sys.stdout.write(diff.format_diff(*titles, found, measured, scenarios))
    if args.plot is not None:
        from . import plots
        _plot_written(args.plot, plots.diff_figure(base.title, variant.title, measured), args.format)
    return 0


def cmd_sweep(args) -> int:
    from rulesc.interpreter.rules import compile_rules

    from . import sweep
    from .runner import RunError
    from .sources import RuleSources
    _check_plot(args.plot)
    ranges = [words for words in args.set if ".." in words[0]]
    fixed = [" ".join(words) for words in args.set if ".." not in words[0]]
    if len(ranges) != 1:
        print("rulesc: error: sweep needs one `--set NAME=FROM..TO step S` (and any number of `--set NAME=VALUE`)",
              file=sys.stderr)
        return 2
    swept = sweep.parse_range(ranges[0])
    checked = check_program(load_file(args.file))
    if not checked.ok:
        sys.stderr.write(report.format_diagnostics(checked))
        return 1
    rules_by_value = [compile_rules(checked, [*fixed, f"{swept.name}={swept.text(v)}"]) for v in swept.values]
    players = _players(rules_by_value[0], args.players)
    started = time.perf_counter()
    try:
        with progress_bar("sweeping", args.games * len(swept.values), quiet=args.format != "text") as progress:
            result = sweep.sweep(rules_by_value, swept, args.games, args.seed, players, args.agents, fixed,
                                 args.jobs, args.dask, progress)
    except RunError as exc:
        print(f"rulesc: error: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - started
    if args.format == "json":
        print(json.dumps(sweep.sweep_json(result, RuleSources.of(checked.program)), indent=2))
    elif args.format == "csv":
        sys.stdout.write(sweep.sweep_csv(result))
    else:
        sys.stdout.write(sweep.format_sweep(result))
    if args.plot is not None:
        from . import plots
        _plot_written(args.plot, plots.sweep_figure(result), args.format)
    from .runner import workers_of
    print(f"{len(swept.values)} values x {args.games} games in {elapsed:.2f} s{workers_of(args.jobs, args.dask)}",
          file=sys.stderr)
    return 0


def cmd_citations(args) -> int:
    from . import citations
    for path in [*args.files, args.rulebook]:
        if not Path(path).is_file():
            print(f"rulesc: error: no such file: {path}", file=sys.stderr)
            return 2
    text = citations.table(args.files, args.rulebook)
    if args.update is None:
        print(text, end="")
        return 0
    try:
        changed = citations.update(args.update, text)
    except (OSError, ValueError) as exc:
        print(f"rulesc: error: {exc}", file=sys.stderr)
        return 2
    print(f"{'updated' if changed else 'unchanged'} {args.update}")
    return 0


# ---- editors and CI: the language server, SARIF, explain (issue #15) -------------------------------

def cmd_check_sarif(args) -> int:
    """`check --format sarif`: the same checks, every finding one result of a SARIF 2.1.0 log on stdout."""
    from . import sarif
    from .lsp import _version
    log = sarif.Log(_version())
    worst = 0
    for path in args.files:
        try:
            checked = check_program(load_file(path))
        except RulesError as exc:
            for d in exc.diagnostics:
                log.add_diagnostic(d)
            io = all(d.code in IO_CODES for d in exc.diagnostics)
            log.failed_to_run = log.failed_to_run or io
            worst = max(worst, 2 if io else 1)
            continue
        for d in checked.diagnostics:
            log.add_diagnostic(d)
        if not checked.ok:
            worst = max(worst, 1)
            continue
        if not args.static:
            import tempfile

            from hypothesis.configuration import set_hypothesis_home_dir

            from rulesc.interpreter.rules import compile_rules

            from .properties import check_properties
            rules = compile_rules(checked, args.set)
            with tempfile.TemporaryDirectory(prefix="rulesc-") as scratch:
                set_hypothesis_home_dir(scratch)
                try:
                    prop = check_properties(rules, examples=args.examples, seed=args.seed)
                finally:
                    set_hypothesis_home_dir(None)
            for failure in prop.failures:
                log.add_failure(path, failure)
            if not prop.ok:
                worst = max(worst, 1)
    print(json.dumps(log.to_json(), indent=2))
    return worst


def cmd_test_junit(args) -> int:
    """`test --format junit`: every scenario of every file a test case of a JUnit XML report on stdout."""
    from . import junit
    suites = []
    worst = 0
    for path in args.files:
        args.file = path
        try:
            rules = _load(args)
        except RulesError as exc:
            text = "\n".join(render_text(d, _source_of(d.path) if Path(d.path).is_file() else None)
                             for d in exc.diagnostics)
            suites.append(junit.Suite(path, error=text))
            worst = max(worst, 2 if all(d.code in IO_CODES for d in exc.diagnostics) else 1)
            continue
        from rulesc.interpreter.scenario import run_scenarios
        results = run_scenarios(rules)
        suites.append(junit.Suite(path, results))
        if not all(r.passed for r in results):
            worst = max(worst, 1)
    sys.stdout.write(junit.to_xml(suites))
    return worst


def cmd_explain(args) -> int:
    from . import explain
    code = explain.normalise(args.code)
    text = explain.entry(code)
    if text is None:
        near = explain.nearest(code)
        hint = f"; did you mean {' or '.join(f'`{c}`' for c in near)}?" if near else \
            "; the codes are listed in docs/errors/README.md"
        print(f"rulesc: error: no diagnostic code `{args.code}`{hint}", file=sys.stderr)
        return 2
    sys.stdout.write(text)
    return 0


def cmd_lsp(args) -> int:
    from .lsp import serve
    return serve()


# ---- the parser -----------------------------------------------------------------------------------

def _jobs(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"`{text}` is not a number of processes (1 or more)")
    return value


def _all_cores() -> int:
    """The cores this process may use: the default of `--jobs`."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("rulesc")
    except PackageNotFoundError:
        return "(not installed)"


class _VersionAction(argparse.Action):
    """`--version`: the installed version, looked up only when asked for (importlib.metadata
    costs every other command about 15 ms of start-up)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        print(f"rulesc {_version()}")  # on stdout, as argparse's own `version` action prints it
        parser.exit()


def _at_least(low: int):
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


EXAMPLES = {  # no game's name here: the CLI knows no game
    "check": "rulesc check --static mygame.rules",
    "diagram": "rulesc diagram mygame.rules -o turn.svg",
    "run": "rulesc run mygame.rules --seed 7 --log game.jsonl",
    "play": "rulesc play mygame.rules --players 3",
    "simulate": "rulesc simulate mygame.rules -n 500 --seed 1",
    "citations": "rulesc citations mygame.rules --rulebook rulebook.txt",
    "doc": "rulesc doc mygame.rules --rulebook rulebook.txt -o docs/mygame.md",
    "test": "rulesc test mygame.rules my-house-rules.rules",
    "diff": "rulesc diff mygame.rules my-house-rules.rules --games 500",
    "sweep": "rulesc sweep mygame.rules --set starting_cash=$1,000..$2,000 step $250 --games 300",
    "explain": "rulesc explain R0205",
    "lsp": "rulesc lsp",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulesc", description="Check, diagram, run, simulate and test board-game rules.")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks for internal errors")
    parser.add_argument("--version", action=_VersionAction, help="show program's version number and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_set(p):
        p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                       help="override a parameter, e.g. --set starting_cash=$1500")

    def with_parallel(p, what: str = "the games"):
        p.add_argument("--jobs", type=_jobs, default=None, metavar="N",
                       help=f"play {what} in N processes (default: one per core); the output is the same")
        p.add_argument("--dask", metavar="ADDRESS",
                       help=f"play {what} on the Dask cluster whose scheduler is at ADDRESS (needs rulesc[dask]); "
                            "the output is the same")

    def with_plot(p, what: str):
        p.add_argument("--plot", metavar="FILE", help=f"draw {what} (.png, .svg or .pdf; needs matplotlib)")

    def with_agents(p):
        p.add_argument("--agents", choices=["heuristic", "random"], default="heuristic", help="the agents playing")
        p.add_argument("--players", type=_at_least(1), help="number of players (default: 4 where the game allows)")

    p = sub.add_parser("check", help="check rules files: static diagnostics, then property tests")
    p.add_argument("files", nargs="+", metavar="FILE", help="the rules files to check")
    p.add_argument("--static", action="store_true", help="only the static checks (milliseconds)")
    p.add_argument("--assumed", action="store_true",
                   help="list every value the rulebook does not give (by default only their number)")
    p.add_argument("--format", choices=["text", "json", "sarif"], default="text",
                   help="text, JSON for tools, or a SARIF 2.1.0 log for code-scanning tools")
    p.add_argument("--examples", type=_at_least(0), default=100,
                   help="generated games per search of the property tests (0: only the whole games)")
    p.add_argument("--max-turns", type=int, metavar="N",
                   help="the budget of turns: the highest turn cap of the search and the whole games' turn limit "
                        "(default: the game's own turn limit)")
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="seeded whole games played with the heuristic agents, every invariant checked "
                        "(default 50; 0 for none)")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated games (default 0)")
    with_parallel(p, "the whole games")
    with_set(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("diagram", help="draw the turn flow with Graphviz (DOT; SVG/PNG with `dot` installed)")
    p.add_argument("file", metavar="FILE", help="the rules file")
    p.add_argument("-o", "--output", help="output file (.dot, .svg, .png, .pdf)")
    p.add_argument("--format", choices=["dot", "svg", "png", "pdf"], default=None,
                   help="the picture's format (default: from the output's name)")
    what = p.add_mutually_exclusive_group()
    what.add_argument("--money", action="store_true",
                      help="draw the money flow instead: accounts, and each payment rule between them")
    what.add_argument("--deck", metavar="NAME", help="draw the cards of deck NAME instead (the turn flow counts them)")
    p.set_defaults(func=cmd_diagram)

    p = sub.add_parser("doc", help="write a game's documentation page, with its pictures, from its rules file")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="the rules file, then any variants of it to document on the same page")
    p.add_argument("-o", "--output", required=True, metavar="PAGE.md",
                   help="the page to write; its pictures (SVG and DOT) are written beside it")
    p.add_argument("--rulebook", metavar="TEXT", help="the rulebook as text: adds its sections and the rules citing each")
    p.set_defaults(func=cmd_doc)

    p = sub.add_parser("run", help="play one game and print or log it")
    p.add_argument("file", metavar="FILE", help="the rules file")
    p.add_argument("--seed", type=int, help="the game's seed (default 0)")
    p.add_argument("--log", metavar="EVENTS.jsonl", help="write the event log as JSON lines ('-' for stdout)")
    p.add_argument("--replay", metavar="EVENTS.jsonl", help="play a logged game again and check it is the same")
    p.add_argument("--check", action="store_true",
                   help="check every invariant after every event; exit 1 and show the failure if one breaks")
    p.add_argument("--draws", metavar="WORD",
                   help="play the game `rulesc check` drew (its dice, cards and decisions), as its failure prints")
    p.add_argument("--turn-limit", type=int, metavar="N", help="end the game after N turns (default: the game's own)")
    with_agents(p)
    with_set(p)
    p.set_defaults(func=cmd_run)

    p = sub.add_parser("play", help="play one game at the terminal against the heuristic agents")
    p.add_argument("file", metavar="FILE", help="the rules file")
    p.add_argument("--seat", type=_at_least(1), default=1, help="your seat, from 1 (default 1)")
    p.add_argument("--log", metavar="EVENTS.jsonl", help="write the game's event log, to replay it later")
    p.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    p.add_argument("--players", type=_at_least(1), help="number of players (default: 4 where the game allows)")
    with_set(p)
    p.set_defaults(func=cmd_play)

    p = sub.add_parser("simulate", help="play many games and summarise them")
    p.add_argument("file", metavar="FILE", help="the rules file")
    p.add_argument("-n", type=_at_least(1), default=1000, help="number of games")
    p.add_argument("--seed", type=int, default=0, help="game i is played with seed SEED + i (default 0)")
    p.add_argument("--quiet", action="store_true", help="no progress bar or timing")
    p.add_argument("--check", action="store_true",
                   help="check every invariant after every event; list the games that break one (exit 1)")
    p.add_argument("--format", choices=["text", "json", "csv"], default="text",
                   help="text; JSON (the table with its intervals); or CSV, one row per game (for pandas)")
    with_parallel(p)
    with_plot(p, "game lengths, wins by seat with intervals, wealth over the game")
    with_agents(p)
    with_set(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("diff", help="what a variant changes, and (with --games) its effect on paired seeds")
    p.add_argument("base", metavar="BASE", help="the game, as its rules file")
    p.add_argument("variant", metavar="VARIANT", help="the house rule, as its rules file")
    p.add_argument("--games", type=_at_least(0), default=0, help="play this many games of each on the same seeds")
    p.add_argument("--seed", type=int, default=0, help="game i of each is played with seed SEED + i (default 0)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="text, or JSON for tools")
    with_parallel(p)
    with_plot(p, "the base and the variant overlaid: game lengths, wins by seat, wealth over the game")
    with_agents(p)
    with_set(p)
    p.set_defaults(func=cmd_diff)

    p = sub.add_parser("sweep", help="the balance table for each value of a parameter, on the same seeds")
    p.add_argument("file", metavar="FILE", help="the rules file")
    p.add_argument("--set", action="append", nargs="+", required=True, metavar="NAME=FROM..TO [step S]",
                   help="the parameter to sweep and its values, e.g. --set starting_cash=$500..$2,000 step $250 "
                        "(once; more `--set NAME=VALUE` fix other parameters)")
    p.add_argument("--games", type=_at_least(1), default=200, help="games played with each value (default 200)")
    p.add_argument("--seed", type=int, default=0, help="game i of each value is played with seed SEED + i (default 0)")
    p.add_argument("--format", choices=["text", "json", "csv"], default="text",
                   help="text; JSON; or CSV, one row per value with each figure's interval (for pandas)")
    with_parallel(p)
    with_plot(p, "each figure against the parameter, its interval as a band")
    with_agents(p)
    p.set_defaults(func=cmd_sweep)

    p = sub.add_parser("citations", help="which rules implement each rulebook section, from the citations")
    p.add_argument("files", nargs="+", metavar="FILE", help="the game's rules file, then any variants of it")
    p.add_argument("--rulebook", required=True, metavar="TEXT", help="the rulebook as plain text")
    p.add_argument("--update", metavar="DOC.md", help="write the table between the markers of DOC.md")
    p.set_defaults(func=cmd_citations)

    p = sub.add_parser("test", help="run the scenarios (the rulebook's worked examples)")
    p.add_argument("files", nargs="+", metavar="FILE", help="the rules files whose scenarios to run")
    p.add_argument("-v", "--verbose", action="store_true", help="print the event log of failing scenarios")
    p.add_argument("--format", choices=["text", "junit"], default="text", help="junit: JUnit XML for CI systems")
    with_set(p)
    p.set_defaults(func=cmd_test)

    p = sub.add_parser("explain", help="print the documentation of a diagnostic code, e.g. `rulesc explain R0205`")
    p.add_argument("code", metavar="CODE", help="a diagnostic code, as `rulesc check` prints it (R0205)")
    p.set_defaults(func=cmd_explain)

    p = sub.add_parser("lsp", help="a language server for editors, over stdin and stdout")
    p.add_argument("--stdio", action="store_true", help="speak over stdin and stdout (the default and only way)")
    p.set_defaults(func=cmd_lsp)

    sub_help = {choice.dest: choice.help for choice in sub._choices_actions}
    for name, command in sub.choices.items():  # each subcommand's help: what it does, and an example
        command.description = (command.description or sub_help[name]).rstrip(".") + "."
        command.epilog = f"example:\n  {EXAMPLES[name]}"
        command.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def _is_agent_error(exc: Exception) -> bool:
    """An agent's illegal answer (`AgentError`): only possible once the interpreter is imported."""
    errors = sys.modules.get("rulesc.interpreter.errors")
    return errors is not None and isinstance(exc, errors.AgentError)


def main(argv: list[str] | None = None) -> int:
    if hasattr(sys.stdout, "reconfigure") and not sys.stdout.isatty():
        sys.stdout.reconfigure(line_buffering=True)  # piped: results stay in order with the diagnostics on stderr
    parser = build_parser()
    try:  # shell completion, if the user has argcomplete (`eval "$(register-python-argcomplete rulesc)"`)
        import argcomplete
    except ImportError:
        pass
    else:
        argcomplete.autocomplete(parser)
    args, unknown = parser.parse_known_args(argv)
    if args.command == "sweep":
        unknown = _negative_steps(args.set, unknown)
    if unknown:  # reported by the subcommand, with its own usage, not the top-level one
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        sub.choices[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    for name in ("file", "files", "log", "replay", "output", "rulebook", "update", "plot"):  # shown normalised: a/./b -> a/b
        value = getattr(args, name, None)
        if isinstance(value, str) and value != "-":
            setattr(args, name, os.path.normpath(value))
        elif isinstance(value, list):
            setattr(args, name, [os.path.normpath(v) for v in value])
    if getattr(args, "jobs", 1) is None:
        args.jobs = _all_cores()
    for name in ("examples", "games", "max_turns"):
        value = getattr(args, name, None)
        if value is not None and value < (1 if name == "max_turns" else 0):
            parser.error(f"--{name.replace('_', '-')} must be at least {1 if name == 'max_turns' else 0}")
    try:
        return args.func(args)
    except Exit as exc:
        return exc.code
    except RulesError as exc:
        return _report_rules_error(exc)
    except RuleRuntimeError as exc:
        if args.debug:
            raise
        return _runtime_error(exc, args)
    except KeyboardInterrupt:
        print("rulesc: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        if args.debug:
            raise
        if _is_agent_error(exc):
            print(f"rulesc: error: {exc}", file=sys.stderr)
            return 1
        print(f"rulesc: internal error: {type(exc).__name__}: {exc}\n"
              "  help: this is a bug in rulesc; rerun with --debug for the traceback and report it",
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
