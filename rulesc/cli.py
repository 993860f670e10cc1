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
import sys
import tempfile
import time
from pathlib import Path

from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError, render_json, render_text
from rulesc.dsl.variants import load_file
from rulesc.interpreter.dealing import AgentError
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.events import events_to_jsonl
from rulesc.interpreter.rules import compile_rules, load_rules
from rulesc.interpreter.scenario import run_scenarios

from . import report
from .simulate import format_summary, play_one, simulate

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


def _runtime_error(exc: RuleRuntimeError) -> int:
    print(render_text(exc.diagnostic(), _source_of(exc.path)), file=sys.stderr)
    return 1


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
    worst = 0
    results = []
    for path in args.files:
        try:
            rules_file = load_file(path)
        except RulesError as exc:
            if args.format == "json":
                results.append({"path": path, "diagnostics": [d.to_json() for d in exc.diagnostics]})
            else:
                _report_rules_error(exc)
            worst = max(worst, 2 if all(d.code in IO_CODES for d in exc.diagnostics) else 1)
            continue
        checked = check_program(rules_file)
        if args.format == "json":
            results.append({"path": path, "diagnostics": [d.to_json() for d in checked.diagnostics],
                            "checked": report.inventory(checked),
                            "assumptions": [{"what": a.what, "note": a.note, "line": a.span.line}
                                            for a in checked.assumptions]})
        else:
            sys.stderr.write(report.format_diagnostics(checked))
            sys.stdout.write(report.format_static(checked, args.assumed))
        if not checked.ok:
            worst = max(worst, 1)
            continue
        if args.static:
            if args.set:
                compile_rules(checked, args.set)  # a bad `--set` is the same usage error with or without --static
        else:
            from hypothesis.configuration import set_hypothesis_home_dir

            from .properties import check_properties, format_report, report_json
            rules = compile_rules(checked, args.set)
            with tempfile.TemporaryDirectory(prefix="rulesc-") as scratch:
                set_hypothesis_home_dir(scratch)  # Hypothesis's files, not a `.hypothesis/` in the user's folder
                try:
                    with progress_bar("property check: games played", None, quiet=args.format == "json") as progress:
                        prop = check_properties(rules, examples=args.examples, seed=args.seed, progress=progress)
                finally:
                    set_hypothesis_home_dir(None)
            if args.format == "json":
                results[-1]["properties"] = report_json(prop)
            else:
                sys.stdout.write(format_report(prop))
            if not prop.ok:
                worst = max(worst, 1)
    if args.format == "json":
        print(json.dumps(results, indent=2))
    return worst


def cmd_diagram(args) -> int:
    from .diagram import DiagramError, write_diagram
    rules_file = load_file(args.file)
    checked = check_program(rules_file)
    if not checked.ok:
        sys.stderr.write(report.format_diagnostics(checked))
        return 1
    output = args.output or str(Path(args.file).with_suffix(".dot").name)
    try:
        written = write_diagram(checked.program, output, args.format)
    except DiagramError as exc:
        print(f"rulesc: {exc}", file=sys.stderr)
        return 2
    for path in written:
        print(f"wrote {path}")
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


def cmd_run(args) -> int:
    _check_writable(args.log)
    rules = _load(args)
    if args.replay:
        return cmd_replay(args, rules)
    players = _players(rules, args.players)
    game = play_one(rules, players, args.seed, args.agents)
    state = game.state
    if args.log:
        from .replay import log_header
        text = log_header(rules, args.file, args.set, args.agents) + events_to_jsonl(game.events)
        if args.log == "-":
            sys.stdout.write(text)
            return 0
        _write_output(args.log, text)
    winner = state.winner.name if state.winner else "nobody"
    print(f"{rules.title}: seed {args.seed}, {players} players, {args.agents} agents")
    print(f"ended after {state.turn} turns: {state.end_reason}; winner: {winner}")
    for p in state.players:
        status = "out" if p.out else f"cash {p.f['cash']:,}"
        print(f"  {p.name}: {status}")
    if args.log:
        print(f"{len(game.events)} events written to {args.log}")
    return 0


def cmd_play(args) -> int:
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
    rules = _load(args)
    players = _players(rules, args.players)
    started = time.perf_counter()
    with progress_bar("simulating", args.n, quiet=args.quiet) as progress:
        summary = simulate(rules, args.n, args.seed, players, args.agents, progress=progress)
    elapsed = time.perf_counter() - started
    sys.stdout.write(format_summary(summary, rules.program.sources))
    if not args.quiet:
        print(f"{args.n} games, {summary.total_turns:,} turns in {elapsed:.2f} s: "
              f"{args.n / elapsed:,.1f} games/s, {summary.total_turns / elapsed:,.0f} player-turns/s", file=sys.stderr)
    return 0


def cmd_test(args) -> int:
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


# ---- the parser -----------------------------------------------------------------------------------

def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("rulesc")
    except PackageNotFoundError:
        return "(not installed)"


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
    "test": "rulesc test mygame.rules my-house-rules.rules",
}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulesc", description="Check, diagram, run, simulate and test board-game rules.")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks for internal errors")
    parser.add_argument("--version", action="version", version=f"rulesc {_version()}")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def with_set(p):
        p.add_argument("--set", action="append", default=[], metavar="NAME=VALUE",
                       help="override a parameter, e.g. --set starting_cash=$1500")

    def with_agents(p):
        p.add_argument("--agents", choices=["heuristic", "random"], default="heuristic", help="the agents playing")
        p.add_argument("--players", type=_at_least(1), help="number of players (default: 4 where the game allows)")

    p = sub.add_parser("check", help="check rules files: static diagnostics, then property tests")
    p.add_argument("files", nargs="+", metavar="FILE", help="the rules files to check")
    p.add_argument("--static", action="store_true", help="only the static checks (milliseconds)")
    p.add_argument("--assumed", action="store_true",
                   help="list every value the rulebook does not give (by default only their number)")
    p.add_argument("--format", choices=["text", "json"], default="text", help="diagnostics as text or JSON")
    p.add_argument("--examples", type=_at_least(1), default=100, help="generated games for the property tests")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated games (default 0)")
    with_set(p)
    p.set_defaults(func=cmd_check)

    p = sub.add_parser("diagram", help="draw the turn flow with Graphviz (DOT; SVG/PNG with `dot` installed)")
    p.add_argument("file", metavar="FILE", help="the rules file")
    p.add_argument("-o", "--output", help="output file (.dot, .svg, .png, .pdf)")
    p.add_argument("--format", choices=["dot", "svg", "png", "pdf"], default=None,
                   help="the picture's format (default: from the output's name)")
    p.set_defaults(func=cmd_diagram)

    p = sub.add_parser("run", help="play one game and print or log it")
    p.add_argument("file", metavar="FILE", help="the rules file")
    p.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    p.add_argument("--log", metavar="EVENTS.jsonl", help="write the event log as JSON lines ('-' for stdout)")
    p.add_argument("--replay", metavar="EVENTS.jsonl", help="play a logged game again and check it is the same")
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
    with_agents(p)
    with_set(p)
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("citations", help="which rules implement each rulebook section, from the citations")
    p.add_argument("files", nargs="+", metavar="FILE", help="the game's rules file, then any variants of it")
    p.add_argument("--rulebook", required=True, metavar="TEXT", help="the rulebook as plain text")
    p.add_argument("--update", metavar="DOC.md", help="write the table between the markers of DOC.md")
    p.set_defaults(func=cmd_citations)

    p = sub.add_parser("test", help="run the scenarios (the rulebook's worked examples)")
    p.add_argument("files", nargs="+", metavar="FILE", help="the rules files whose scenarios to run")
    p.add_argument("-v", "--verbose", action="store_true", help="print the event log of failing scenarios")
    with_set(p)
    p.set_defaults(func=cmd_test)
    sub_help = {choice.dest: choice.help for choice in sub._choices_actions}
    for name, command in sub.choices.items():  # each subcommand's help: what it does, and an example
        command.description = (command.description or sub_help[name]).rstrip(".") + "."
        command.epilog = f"example:\n  {EXAMPLES[name]}"
        command.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


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
    if unknown:  # reported by the subcommand, with its own usage, not the top-level one
        sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
        sub.choices[args.command].error(f"unrecognized arguments: {' '.join(unknown)}")
    for name in ("file", "files", "log", "replay", "output", "rulebook", "update"):  # shown normalised: a/./b -> a/b
        value = getattr(args, name, None)
        if isinstance(value, str) and value != "-":
            setattr(args, name, os.path.normpath(value))
        elif isinstance(value, list):
            setattr(args, name, [os.path.normpath(v) for v in value])
    try:
        return args.func(args)
    except Exit as exc:
        return exc.code
    except RulesError as exc:
        return _report_rules_error(exc)
    except RuleRuntimeError as exc:
        if args.debug:
            raise
        return _runtime_error(exc)
    except AgentError as exc:
        if args.debug:
            raise
        print(f"rulesc: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("rulesc: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # noqa: BLE001 - the last line of defence against tracebacks
        if args.debug:
            raise
        print(f"rulesc: internal error: {type(exc).__name__}: {exc}\n"
              "  help: this is a bug in rulesc; rerun with --debug for the traceback and report it",
              file=sys.stderr)
        return EXIT_INTERNAL


if __name__ == "__main__":
    sys.exit(main())
