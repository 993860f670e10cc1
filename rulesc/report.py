"""What `rulesc check --static` prints: what was checked, the diagnostics, the assumptions."""

from __future__ import annotations

from rulesc.dsl.checker import Checked
from rulesc.dsl.diagnostics import render_text


def inventory(checked: Checked) -> dict:
    """Counts of what a check looked at, for the report and for `--format json`."""
    p = checked.program
    cards = sum(c.copies for d in p.decks.values() for c in d.cards)
    return {
        "things": len(p.things),
        "kinds": len(p.kinds),
        "groups": len(p.groups),
        "squares": len(p.board.squares) if p.board else 0,
        "params": len(p.params),
        "phases": len(p.turn.phases) if p.turn else 0,
        "handlers": len({id(h.body) for h in p.handlers}) + len(p.hooks),  # a handler over several kinds once
        "actions": len(p.actions),
        "decks": len(p.decks),
        "cards": cards,
        "end_conditions": len(p.ends),
        "scenarios": len(p.scenarios),
        "citations": count_citations(checked),
    }


def _count(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def count_citations(checked: Checked) -> int:
    return sum(text.count("§ \"") + text.count("cite \"") for text in checked.program.sources.values())


def format_static(checked: Checked, assumed: bool = False) -> str:
    """The static result; the assumed values are counted, and listed one a line with `assumed`."""
    p = checked.program
    inv = inventory(checked)
    errors = sum(1 for d in checked.diagnostics if d.is_error)
    warnings = sum(1 for d in checked.diagnostics if d.severity == "warning")
    title = p.game.title if p.game else "(no game header)"
    by_kind: dict = {}
    for thing in p.things.values():
        by_kind[thing.kind] = by_kind.get(thing.kind, 0) + 1
    things = ", ".join(f"{n} {kind}" for kind, n in by_kind.items())
    lines = [
        f"{p.path}: {title}",
        f"  checked: things ({things}), a board of {inv['squares']} squares, "
        + ", ".join(_count(inv[key], word) for key, word in (
            ("params", "parameter"), ("phases", "phase"), ("handlers", "handler"), ("actions", "action"),
            ("decks", "deck"), ("cards", "card"), ("end_conditions", "end condition"), ("scenarios", "scenario"),
            ("citations", "citation"))),
        f"  {errors} error{'s' if errors != 1 else ''}, {warnings} warning{'s' if warnings != 1 else ''}",
    ]
    if checked.assumptions and not assumed:
        lines.append(f"  assumed values: {len(checked.assumptions)} (list them with --assumed)")
    elif checked.assumptions:
        lines.append(f"  assumed values ({len(checked.assumptions)}), to be corrected by an owner of the real game:")
        for a in sorted(checked.assumptions, key=lambda a: (a.span.file or "", a.span.line)):
            note = f" ({a.note})" if a.note else ""
            lines.append(f"    {a.span.file or p.path}:{a.span.line}: {a.what}{note}")
    return "\n".join(lines) + "\n"


def format_diagnostics(checked: Checked) -> str:
    """Every diagnostic rendered against the text of the file it is in (a variant's base too)."""
    sources = checked.program.sources
    return "".join(render_text(d, sources.get(d.path, checked.program.source)) + "\n"
                   for d in checked.diagnostics)


def is_inherited(rules_path: str, result) -> bool:
    """Whether a scenario comes from a variant's base rather than the file run: one that fails is a result
    the house rule changes (CHANGED: information), not a failure of the file (FAIL)."""
    from pathlib import Path
    return Path(result.file or rules_path).resolve() != Path(rules_path).resolve()


def scenario_results(rules_path: str, results: list) -> dict:
    """The scenarios a check ran, as data: each with its place, whether it passed, what the rules refused
    in it (`forbid`, `refuse`: the rule that refused each), and whether it is the base's (for a variant, a base scenario that fails is one the house rule changes: information, not an
    error; a failure of the file's own scenario is an error)."""
    out = []
    for r in results:
        file = r.file or rules_path
        out.append({"title": r.title, "file": file, "line": r.line, "passed": r.passed,
                    "inherited": is_inherited(rules_path, r),
                    "failures": [{"file": f.file or file, "line": f.line, "message": f.message, "notes": list(f.notes)}
                                 for f in r.failures],
                    "refused": [{"line": f.line, "message": f.message} for f in r.refusals]})
    return {"passed": sum(1 for r in out if r["passed"]),
            "failed": sum(1 for r in out if not r["passed"] and not r["inherited"]),
            "changed_by_variant": sum(1 for r in out if not r["passed"] and r["inherited"]),
            "scenarios": out}


def format_scenarios(data: dict) -> str:
    """The scenario part of `rulesc check`'s text report."""
    runs = data["scenarios"]
    if not runs:
        return ""
    out = [f"scenarios: {data['passed']} of {len(runs)} pass"]
    for r in runs:
        if r["passed"]:
            continue
        label = "CHANGED" if r["inherited"] else "FAIL"
        out.append(f"  {label:<8}{r['file']}:{r['line']}  {r['title']}")
        for f in r["failures"]:
            out.append(f"          {f.get('file', r['file'])}:{f['line']}: {f['message']}")
            out.extend(f"            note: {note}" for note in f.get("notes", ()))
    if data["changed_by_variant"]:
        n = data["changed_by_variant"]
        out.append(f"  {n} of the base's scenarios {'gives' if n == 1 else 'give'} other results under this house "
                   "rule (CHANGED: information, not an error; `remove scenario` says it is meant)")
    return "\n".join(out) + "\n\n"
