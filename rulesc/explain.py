"""The documentation of every diagnostic code, written from the registry (dsl/codes.py and its dsl/codes.md).

`rulesc explain CODE` prints a code's entry, the SARIF rules carry the entries as help, and `page()`
is docs/errors/README.md: the page is generated here rather than read, so that it cannot drift from the
codes (tests/test_codes.py fails when the checked-in page differs from `page()`; `scripts/test.sh --bless`
writes it).
"""

from __future__ import annotations

import difflib
import re

from .dsl import codes

HEADER = """\
<!-- Generated from dsl/codes.py and dsl/codes.md by rulesc/explain.py: edit those, then run `scripts/test.sh --bless`. -->

# Diagnostic codes

Every problem `rulesc` reports has a stable code. This page lists them all, grouped by range,
each with its severity, what it means, a minimal example that triggers it, and the fix. The
language itself is described in [../language.md](../language.md).

## How a diagnostic reads

```text
house.rules:27:9: error[R0206]: a `Property` has no field `prize`
   |
27 |     pay p.prize from player to p.owner
   |         ^^^^^^^
  help: did you mean `price`?
```

`path:line:column: severity[CODE]: message`, then the source line with a caret under the span,
then `note:` lines (for example where a duplicate was first defined) and a `help:` line. Messages
are lowercase, names are in backticks. `rulesc check --format json` prints the same diagnostics
as JSON (`severity`, `code`, `message`, `path`, `span`, `labels`, `notes`, `help`, `fixes`) for tools.

Where the help suggests an edit (a near name, `==` for `=`, `and` for `&&`, a forgotten `set`, the
header of the handler a variant means), the diagnostic also carries it as a fix: the text to replace,
within which span, and by what. `--format json` and `--format sarif` give the fixes, and the language
server (`rulesc lsp`) offers them as quick fixes. A *machine-applicable* fix, applied, leaves a file
with no error it did not have; a *maybe-incorrect* one (a near name, which may be of another type)
removes the diagnostic but may be the wrong word. The suite applies every fix raised on the examples
of this page and of examples/broken/ and checks the file again (tests/test_fixes.py).

- **error**: the file cannot be played; `rulesc` exits with status 1 (status 2 for the
  input and usage codes {usage}).
- **warning**: the file can be played, but something in it is probably a mistake.

The checker keeps going after an error, so one run reports every problem it can find; the parser
reads each top-level declaration on its own, so one syntax error does not hide the others.

Each code also has a name (`unknown-name` for R0205): `rulesc explain` takes either.

In the examples below, only the lines that matter are shown; the rest of the file is a small
valid game (a `game` header, `param fee = $10`, `player: cash: money`, a `kind Lot` with `price`
and `state owner: player? = none`, a table with `Alpha` and `Beta`, `square Go`,
`board: Go, Alpha, Beta`, a `turn`, an `on land Lot` handler and an `end when`; the same as
`tests/checker_cases/unknown_function.rules`). The outputs with a file name and line numbers
(`tiny.rules:34:1: …`) are real runs of `rulesc check --static tiny.rules` with the lines shown
added at the end of that game; the variant codes use a base of that game named `base.rules`.
Most codes also have a test file in `tests/checker_cases/`, named in each entry.
"""

FOOTER = """\
## Adding a code

Codes are stable: never reuse or renumber one. A new diagnostic takes the next free number in
its range ({unassigned} were never assigned; the next free numbers are {free}), gets a constant
in `dsl/codes.py` (its name, severity and the index's line) and a section in `dsl/codes.md` (what
it means, an example with its real output, and the fix), is raised through that constant (as `codes.UNKNOWN_NAME.diagnostic(…)`, or a
checker's `report(codes.UNKNOWN_NAME, …)`), and gets a test file in `tests/checker_cases/` whose comments state the
expected diagnostics (`# error: R0xxx`). `scripts/test.sh --bless` then writes this page.
"""


def section(code: codes.Code) -> str:
    """The page's section for `code`: its `### CODE` heading, severity, name and explanation."""
    return f"### {code.code}\n\n**{code.severity}** · `{code.name}` · {code.explanation.rstrip()}\n"


def entry(code: str) -> str | None:
    """The page's section for the code written `code` (`R0205`), or None if no code is written so."""
    return section(codes.REGISTRY[code]) if code in codes.REGISTRY else None


def _and(words: list[str]) -> str:
    return ", ".join(words[:-1]) + " and " + words[-1] if len(words) > 1 else "".join(words)


def _index() -> str:
    rows = {code: f"| {code} | | | (unassigned) |" for code in codes.UNASSIGNED}
    for c in codes.REGISTRY.values():
        rows[c.code] = f"| [{c.code}](#{c.code.lower()}) | `{c.name}` | {c.severity} | {c.summary} |"
    return "\n".join(["## Index", "", "| code | name | severity | meaning |", "| --- | --- | --- | --- |",
                      *(rows[code] for code in sorted(rows))]) + "\n"


def _range(r: codes.Range) -> str:
    parts = [f"## {r.heading}: {r.title}\n"]
    if r.intro:
        parts.append(r.intro)
    parts += [section(c) for c in codes.REGISTRY.values() if r.holds(c.code)]
    return "\n".join(parts)


def _next_free(r: codes.Range) -> str:
    taken = [code for code in [*codes.REGISTRY, *codes.UNASSIGNED] if r.holds(code)]
    if not taken:  # a range with no code yet: its first
        return r.heading.replace("x", "0")[:-1] + "1"
    return f"R{int(max(taken)[1:]) + 1:04d}"


def page() -> str:
    """docs/errors/README.md: how a diagnostic reads, the index, each range's entries, how to add a code."""
    usage = [c.code for c in codes.REGISTRY.values() if c.exit_status == 2]
    footer = FOOTER.format(unassigned=_and(list(codes.UNASSIGNED)),
                           free=", ".join(_next_free(r) for r in codes.RANGES))
    sections = [HEADER.format(usage=_and(usage)) + "\n" + _index(), *(_range(r) for r in codes.RANGES), footer]
    return "\n---\n\n".join(sections)


def normalise(code: str) -> str:
    """The code a user means: `r205` and `R0205` are R0205, and so is its name, `unknown-name`."""
    word = code.strip()
    by_name = {c.name: c.code for c in codes.REGISTRY.values()}
    if word.lower().replace("_", "-") in by_name:
        return by_name[word.lower().replace("_", "-")]
    m = re.fullmatch(r"R?(\d{1,4})", word.upper())
    return "R" + m.group(1).zfill(4) if m else word.upper()


def nearest(code: str) -> list[str]:
    """The codes or names nearest to one that is not registered, for a `did you mean`."""
    names = [c.name for c in codes.REGISTRY.values()]
    return (difflib.get_close_matches(code.upper(), list(codes.REGISTRY), n=3, cutoff=0.6)
            or difflib.get_close_matches(code.lower(), names, n=3, cutoff=0.6))
