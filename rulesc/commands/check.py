"""`rulesc check`: what a compiler does for a rules file, then what a test suite does.

It exists so that one command says whether a rulebook is right: the static diagnostics and the
list of assumed values (`--static` stops there, without importing the interpreter), then the file's
scenarios and the property search over generated and whole games, each failure with the command
that replays it. As text for people, JSON for tools, or a SARIF log for code-scanning tools.
"""

from __future__ import annotations

import contextlib
import json
import sys

from rulesc import report
from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError
from rulesc.dsl.typecheck import plural
from rulesc.dsl.variants import load_file

from .shared import Exit, at_least, echo_overrides, fail, progress_bar, report_rules_error, unread, with_parallel, with_set

EXAMPLE = "rulesc check --static mygame.rules"


def add_parser(sub):
    p = sub.add_parser("check", help="check rules files: static diagnostics, then property tests")
    p.add_argument("files", nargs="+", metavar="FILE", help="the rules files to check")
    p.add_argument("--static", action="store_true", help="only the static checks (milliseconds)")
    p.add_argument("--assumed", action="store_true",
                   help="list every value the rulebook does not give (by default only their number)")
    p.add_argument("--format", choices=["text", "json", "sarif"], default="text",
                   help="text, JSON for tools, or a SARIF 2.1.0 log for code-scanning tools")
    p.add_argument("--examples", type=at_least(0), default=100,
                   help="generated games per search of the property tests (0: only the whole games)")
    p.add_argument("--max-turns", type=int, metavar="N",
                   help="the budget of turns: the highest turn cap of the search and the whole games' turn limit "
                        "(default: the game's own turn limit)")
    p.add_argument("--games", type=int, default=None, metavar="N",
                   help="seeded whole games played with the heuristic agents, every invariant checked "
                        "(default 50; 0 for none)")
    p.add_argument("--seed", type=int, default=0, help="seed of the generated games (default 0)")
    p.add_argument("--strict", action="store_true",
                   help="warnings fail the check too (exit 1): a finding that may be meant must then be said to be "
                        "meant, e.g. with `remove`")
    with_parallel(p, "the whole games")
    with_set(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    if args.format == "sarif":
        return run_sarif(args)
    worst = 0
    results = []
    for path in args.files:
        try:
            rules_file = load_file(path)
        except RulesError as exc:
            if args.format == "json":
                results.append({"path": path, "diagnostics": [d.to_json() for d in exc.diagnostics]})
            else:
                report_rules_error(exc)
                if not unread(exc):  # the summary a file that loads gets, for one that does not
                    errors = sum(d.is_error for d in exc.diagnostics)
                    syntax = all(d.code.startswith("R01") for d in exc.diagnostics)  # else a variant's base, or
                    print(f"{path}: does not {'parse' if syntax else 'load'}\n  {plural(errors, 'error')}, "
                          f"{plural(len(exc.diagnostics) - errors, 'warning')}")  # what it removes, is wrong
            worst = max(worst, 2 if unread(exc) else 1)
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
        if not checked.ok or (args.strict and checked.diagnostics):
            worst = max(worst, 1)
        if not checked.ok:
            continue
        if args.static:  # parse and check only: the interpreter is not even imported (start-up, issue #14)
            if args.set:
                from rulesc.interpreter.rules import compile_rules
                echo_overrides(compile_rules(checked, args.set), args.set)  # the same usage errors as without --static
            continue
        from rulesc.interpreter.rules import compile_rules
        from rulesc.interpreter.scenario import run_scenarios

        rules = compile_rules(checked, args.set)
        echo_overrides(rules, args.set)
        scenarios = report.scenario_results(path, run_scenarios(rules))
        if args.format == "json":
            results[-1]["scenarios"] = scenarios
        else:
            sys.stdout.write(report.format_scenarios(scenarios))
        if scenarios["failed"]:
            worst = max(worst, 1)
        from rulesc.properties import WHOLE_GAMES, check_properties, format_report, report_json
        from rulesc.runner import RunError

        with _hypothesis_scratch():
            try:
                with progress_bar("property check: games played", None, quiet=args.format == "json") as progress:
                    prop = check_properties(rules, examples=args.examples, seed=args.seed, progress=progress,
                                            max_turns=args.max_turns, set_args=args.set,
                                            games=WHOLE_GAMES if args.games is None else args.games,
                                            jobs=args.jobs, dask=args.dask)
            except RunError as exc:
                raise Exit(fail(str(exc))) from None
        if args.format == "json":
            results[-1]["properties"] = report_json(prop)
        else:
            sys.stdout.write(format_report(prop, args.debug))
        if not prop.ok:
            worst = max(worst, 1)
        judged = _judged(rules, prop, checked.allowances, args)
        found = judged.found
        if args.format == "json":
            results[-1]["diagnostics"] += [d.to_json() for d in found]
            results[-1]["against_base"] = judged.against
        else:
            if judged.against is not None:
                from rulesc.judge.summary import format_against
                sys.stdout.write(format_against(judged.against))
            allowed = len(checked.allowed) + len(judged.allowed)
            if found:
                sys.stdout.write(_format_judged(checked, found, allowed))
            elif allowed:
                sys.stdout.write(f"\nwhat the whole games show: nothing left to report ({allowed} allowed by `allow`)\n")
        if any(d.is_error for d in found) or (args.strict and found):
            worst = max(worst, 1)
    if args.format == "json":
        print(json.dumps(results, indent=2))
    return worst


def _judged(rules, prop, allowances, args):
    """The judge's findings on the check's whole games (rulesc/judge/): a variant's against its base's; and
    those an `allow` says are meant."""
    from rulesc.judge.games import judge_check
    from rulesc.runner import RunError
    try:
        return judge_check(rules, prop, allowances, args.set, args.jobs, args.dask)
    except RunError as exc:
        raise Exit(fail(str(exc))) from None


def _format_judged(checked, found: list, allowed: int) -> str:
    """The findings under their heading, rendered as the static diagnostics are, and what they amount to."""
    from rulesc.dsl.typecheck import plural
    from rulesc.dsl.diagnostics import render_text
    sources = checked.program.sources
    errors = sum(d.is_error for d in found)
    body = "".join(render_text(d, sources.get(d.path, checked.program.source)) + "\n" for d in found)
    return (f"\nwhat the whole games show:\n{body}"
            f"result: {plural(errors, 'error')}, {plural(len(found) - errors, 'warning')} from the whole games"
            + (f" ({allowed} allowed)" if allowed else "") + "\n")


@contextlib.contextmanager
def _hypothesis_scratch():
    """Hypothesis's files in a folder of their own while the property check runs, not in a
    `.hypothesis/` of the user's folder."""
    import tempfile

    from hypothesis.configuration import set_hypothesis_home_dir
    with tempfile.TemporaryDirectory(prefix="rulesc-") as folder:
        set_hypothesis_home_dir(folder)
        try:
            yield
        finally:
            set_hypothesis_home_dir(None)


def run_sarif(args) -> int:
    """`check --format sarif`: the same checks, every finding one result of a SARIF 2.1.0 log on stdout."""
    from rulesc import sarif
    from rulesc.lsp import _version
    log = sarif.Log(_version())
    worst = 0
    for path in args.files:
        try:
            checked = check_program(load_file(path))
        except RulesError as exc:
            for d in exc.diagnostics:
                log.add_diagnostic(d)
            log.failed_to_run = log.failed_to_run or unread(exc)
            worst = max(worst, 2 if unread(exc) else 1)
            continue
        for d in checked.diagnostics:
            log.add_diagnostic(d)
        if not checked.ok or (args.strict and checked.diagnostics):
            worst = max(worst, 1)
        if not checked.ok:
            continue
        if not args.static:
            from rulesc.interpreter.rules import compile_rules
            from rulesc.properties import WHOLE_GAMES, check_properties
            rules = compile_rules(checked, args.set)
            with _hypothesis_scratch():
                prop = check_properties(rules, examples=args.examples, seed=args.seed, max_turns=args.max_turns,
                                        set_args=args.set, games=WHOLE_GAMES if args.games is None else args.games,
                                        jobs=args.jobs, dask=args.dask)
            for failure in prop.failures:
                log.add_failure(path, failure)
            if not prop.ok:
                worst = max(worst, 1)
            found = _judged(rules, prop, checked.allowances, args).found
            for d in found:
                log.add_diagnostic(d)
            if any(d.is_error for d in found) or (args.strict and found):
                worst = max(worst, 1)
    print(json.dumps(log.to_json(), indent=2))
    return worst
