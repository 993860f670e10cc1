# PYTHON_ARGCOMPLETE_OK  (shell completion, where argcomplete is installed)
"""The `rulesc` command: check, diagram, run, simulate and test rules files.

This module is the table of commands and what is common to all of them: the top-level options,
the option values normalised before a command runs, and the last word on errors. Each command
is a module of rulesc/commands/ (its options and what it does).

Exit codes: 0 clean; 1 the rules have errors, an invariant broke or a scenario failed;
2 usage or I/O error (a missing file, a bad option); 3 an internal error, a bug in rulesc.
No Python traceback reaches the user unless `--debug` asks for it.
"""

from __future__ import annotations

import argparse
import os
import sys

from rulesc.dsl.diagnostics import RulesError
from rulesc.interpreter.errors import RuleRuntimeError

from .commands import (check, citations, debug, diagram, diff, doc, explain, lsp, odds, play, run, shared, simulate,
                       sweep, test)

# In the order `rulesc --help` lists them. A command imports what it needs when it runs (the
# interpreter, the simulator, the property checker), so that `rulesc check --static` starts without them.
COMMANDS = (check, diagram, doc, run, play, simulate, diff, sweep, odds, citations, test, explain, lsp, debug)

EXIT_INTERNAL = 3  # a bug in rulesc, never the user's input: scripts can tell it from a missing file (2)
PATHS = ("file", "files", "log", "replay", "output", "rulebook", "update", "plot")  # options naming files


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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulesc", description="Check, diagram, run, simulate and test board-game rules.")
    parser.add_argument("--debug", action="store_true", help="show Python tracebacks for internal errors")
    parser.add_argument("--version", action=_VersionAction, help="show program's version number and exit")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for command in COMMANDS:  # each subcommand's help ends with an example (of no game: the CLI knows none)
        command.add_parser(sub).epilog = f"example:\n  {command.EXAMPLE}"
    sub_help = {choice.dest: choice.help for choice in sub._choices_actions}
    for name, command in sub.choices.items():  # and begins with what it does
        command.description = (command.description or sub_help[name]).rstrip(".") + "."
        command.formatter_class = argparse.RawDescriptionHelpFormatter
    return parser


def _normalise(parser, args) -> None:
    """The options every command reads the same way, made ready for it: file names shown normalised
    (a/./b -> a/b), the budgets of games and turns not negative."""
    for name in PATHS:
        value = getattr(args, name, None)
        if isinstance(value, str) and value != "-":
            setattr(args, name, os.path.normpath(value))
        elif isinstance(value, list):
            setattr(args, name, [os.path.normpath(v) for v in value])
    for name in ("examples", "games", "max_turns"):
        value = getattr(args, name, None)
        if value is not None and value < (1 if name == "max_turns" else 0):
            parser.error(f"--{name.replace('_', '-')} must be at least {1 if name == 'max_turns' else 0}")


def _innermost(parser, args) -> argparse.ArgumentParser:
    """The parser of the (sub)command `args` are of: `rulesc run`'s, `rulesc debug codegen`'s."""
    while True:
        sub = next((a for a in parser._actions if isinstance(a, argparse._SubParsersAction)), None)
        if sub is None or getattr(args, sub.dest, None) not in sub.choices:
            return parser
        parser = sub.choices[getattr(args, sub.dest)]


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
        unknown = sweep.negative_steps(args.set, unknown)
    if unknown:  # reported by the subcommand, with its own usage, not the top-level one
        _innermost(parser, args).error(f"unrecognized arguments: {' '.join(unknown)}")
    _normalise(parser, args)
    try:
        return args.func(args)
    except shared.Exit as exc:
        return exc.code
    except RulesError as exc:
        return shared.report_rules_error(exc)
    except RuleRuntimeError as exc:
        if args.debug:
            raise
        return shared.report_runtime_error(exc, args)
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
