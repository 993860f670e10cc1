"""`rulesc test`: the rulebook's worked examples, run as the scenarios of the rules files.

It exists so that a rules file is held to its rulebook: each scenario sets up a position, forces
the dice and decisions, plays a step and states the cash and ownership after it, and this
command says PASS or FAIL for each (`-v` the event log of a failure), under it each answer the
rules refused (`forbid`, `refuse`) with the rule that refused it, or writes a JUnit XML
report, one test case per scenario, for CI systems. A variant's base scenario that gives another result
under the house rule is CHANGED, as `rulesc check` says it: information, not a failure of the file.
"""

from __future__ import annotations

import sys
from pathlib import Path

from rulesc.dsl.diagnostics import RulesError, render_text

from .shared import load, source_of, unread, with_set

EXAMPLE = "rulesc test mygame.rules my-house-rules.rules"


def add_parser(sub):
    p = sub.add_parser("test", help="run the scenarios (the rulebook's worked examples)")
    p.add_argument("files", nargs="+", metavar="FILE", help="the rules files whose scenarios to run")
    p.add_argument("-v", "--verbose", action="store_true", help="print the event log of failing scenarios")
    p.add_argument("--format", choices=["text", "junit"], default="text", help="junit: JUnit XML for CI systems")
    with_set(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    if args.format == "junit":
        return run_junit(args)
    from rulesc.interpreter.events import events_to_jsonl
    from rulesc.interpreter.scenario import run_scenarios
    from rulesc.report import is_inherited
    passed = failed = changed = 0
    for path in args.files:
        args.file = path
        for result in run_scenarios(load(args)):
            where = result.file or path
            if result.passed:
                passed += 1
                print(f"PASS  {where}:{result.line}  {result.title}")
                _refusals(where, result)
                continue
            verdict = "CHANGED" if is_inherited(path, result) else "FAIL"
            if verdict == "FAIL":
                failed += 1
            else:
                changed += 1
            print(f"{verdict}  {where}:{result.line}  {result.title}")
            for f in result.failures:
                print(f"      {f.where(where)}: {f.message}")
                if f.cite:  # the sentence the line checks (`§ "…"` on an expect, do, forbid or trade line)
                    print(f"        § \"{f.cite}\"")
                for note in f.notes:
                    print(f"        note: {note}")
            _refusals(where, result)
            if args.verbose:
                for line in events_to_jsonl(result.events).splitlines():
                    print(f"        {line}")
    more = (f", {changed} of the base's changed by the house rule (CHANGED: information, not an error; "
            "`remove scenario` says it is meant)") if changed else ""
    print(f"scenarios: {passed} passed, {failed} failed{more}")
    return 1 if failed else 0


def _refusals(where: str, result) -> None:
    """Each `forbid` and `refuse` of a scenario, with the rule that refused it."""
    for r in result.refusals:
        print(f"      {where}:{r.line}: {r.message}")


def run_junit(args) -> int:
    """`test --format junit`: every scenario of every file a test case of a JUnit XML report on stdout."""
    from rulesc import junit
    from rulesc.report import is_inherited
    suites = []
    worst = 0
    for path in args.files:
        args.file = path
        try:
            rules = load(args)
        except RulesError as exc:
            text = "\n".join(render_text(d, source_of(d.path) if Path(d.path).is_file() else None)
                             for d in exc.diagnostics)
            suites.append(junit.Suite(path, error=text))
            worst = max(worst, 2 if unread(exc) else 1)
            continue
        from rulesc.interpreter.scenario import run_scenarios
        results = run_scenarios(rules)
        suites.append(junit.Suite(path, results))
        if not all(r.passed or is_inherited(path, r) for r in results):
            worst = max(worst, 1)
    sys.stdout.write(junit.to_xml(suites))
    return worst
