"""`rulesc sweep FILE --set NAME=FROM..TO step S --games N`: the balance table for each value of a parameter.

How a designer tunes a house rule: the same seeds (game i: seed S + i) are played with every value,
so the rows differ by the parameter and not by the dice, and each row is the balance table of
`balance` (game length, how games end, wins by seat, wealth spread, eliminations) with its 95%
intervals. All the values' games go to the same workers (`runner`), so a sweep uses every core or
a Dask cluster, with the output of one process.
"""

from __future__ import annotations

import csv
import io
import re
import sys
from typing import Callable

import attrs

from rulesc.dsl import codes
from rulesc.dsl.diagnostics import RulesError
from rulesc.interpreter.rules import Rules, literal_of, parse_override

from . import runner
from .balance import Balance, balance, balance_json, record_game, share_text

MAX_VALUES = 100  # more values than this is a typing mistake, not a sweep
SWEPT_TYPES = ("money", "count", "percent")
KIND_NAMES = {"money": "an amount", "count": "a count", "percent": "a percentage"}
EXAMPLE_STEPS = {"money": "$100", "count": "1", "percent": "5%"}
STEP_SAID = re.compile(r"(?P<span>.*?)(?:\s+step\b\s*(?P<step>.*))?", re.S)  # `NAME=FROM..TO [step S]`


@attrs.frozen
class Range:
    name: str
    values: list  # the numbers, FROM to TO
    kind: str  # "money", "count" or "percent"

    def text(self, value: int) -> str:
        """A value as `--set` takes it: the sign before the `$` (`-$500`), as a rules file writes it."""
        if self.kind == "money":
            return f"{'-' if value < 0 else ''}${abs(value):,}"
        return f"{value}%" if self.kind == "percent" else str(value)


def _usage(message: str, help_text: str = "e.g. `--set starting_cash=1000..2000 step 250`") -> RulesError:
    return RulesError([codes.MALFORMED_SET.diagnostic(message, "--set", help=help_text)])


def parse_range(words: list[str]) -> Range:
    """`NAME=FROM..TO [step S]` (the words of one `--set`), FROM, TO and S written as in a rules file.
    The step may be left out for counts and percentages (1). Like a range, the values stop at the last
    step at or below TO; a TO the steps do not reach is said on stderr, since the user wrote it."""
    text = " ".join(words)
    said = STEP_SAID.fullmatch(text)
    head, step_text = said["span"], said["step"]
    if "=" not in head or ".." not in head:
        raise _usage(f"`--set {text}` is not `NAME=FROM..TO step S`")
    name, _, span = head.partition("=")
    low_text, _, high_text = span.partition("..")
    name = name.strip()
    low = _value(name, low_text)
    high = _value(name, high_text)
    if low.type != high.type or low.type not in SWEPT_TYPES:
        raise _usage(f"`--set {text}`: FROM and TO must be two amounts, counts or percentages of the same kind")
    size = _step(name, step_text, low.type, text)
    if high.value < low.value:
        raise _usage(f"`--set {text}`: needs FROM <= TO (the values go up from FROM by the step)")
    values = range(low.value, high.value + 1, size)
    if len(values) > MAX_VALUES:
        raise _usage(f"`--set {text}` makes {len(values):,} values; a sweep takes at most {MAX_VALUES}",
                     "take a bigger step")
    swept = Range(name, list(values), low.type)
    if values[-1] != high.value:
        print(f"rulesc: note: {swept.text(high.value)} is not reached by steps of {swept.text(size)} from "
              f"{swept.text(low.value)}; the last value is {swept.text(values[-1])}", file=sys.stderr)
    return swept


def _value(name: str, written: str):
    """FROM, TO or the step as a literal (`ast.Literal`), read as `--set NAME=VALUE` reads a value: written as
    in a rules file, a negative number (`-$500`) included."""
    written = written.strip()
    literal = literal_of(parse_override(f"{name}={written}")[1])
    if literal is None:
        raise _not_a_value(name, written,
                           "FROM, TO and the step must each be an amount, a count or a percentage written out")
    return literal


def _not_a_value(name: str, written: str, why: str) -> RulesError:
    """R0012, the code `--set NAME=VALUE` gives a value it cannot read, with why this one is not a value."""
    return RulesError([codes.BAD_SET_VALUE.diagnostic(
        f"`--set {name}`: `{written}` is not a value: {why}", "--set",
        help="write a whole amount, count or percentage, as in a rules file: `$1,500`, `5`, `10%`")])


def _step(name: str, written: str | None, kind: str, text: str) -> int:
    """The step, of the kind of FROM and TO, as `--set` wants the parameter's own type (`--set rate=5` for a percentage is
    refused: `step 5` for percentages is too, and `step 3` for amounts is not taken for `$3`). Left out, it
    is 1 for counts and percentages; amounts have no such natural step, so it must be said."""
    if written is None:
        if kind != "money":
            return 1
        raise _usage(f"`--set {text}`: say the step between amounts, e.g. `step $100`")
    if not written:
        raise _usage(f"`--set {text}`: `step` needs a value, e.g. `step {EXAMPLE_STEPS[kind]}`")
    step = _value(name, written)
    if step.type != kind:
        raise _usage(f"`--set {text}`: the step must be {KIND_NAMES[kind]} like FROM and TO, not `{written.strip()}`",
                     f"e.g. `step {EXAMPLE_STEPS[kind]}`")
    if step.value <= 0:
        raise _usage(f"`--set {text}`: the step must be above 0 (the values go up from FROM to TO)",
                     f"e.g. `step {EXAMPLE_STEPS[kind]}`")
    return step.value


@attrs.define
class Row:
    value: int
    text: str  # as `--set` takes it
    balance: Balance


@attrs.define
class Sweep:
    title: str
    swept: Range
    games: int
    players: int
    agents: str
    seed: int
    rows: list  # [Row], one per value

    @property
    def step_text(self) -> str:
        """` in steps of S`, or nothing for a single value."""
        if len(self.rows) < 2:
            return ""
        return f" in steps of {self.swept.text(self.rows[1].value - self.rows[0].value)}"

    @property
    def name(self) -> str:
        return self.swept.name

    @property
    def money(self) -> bool:
        return self.swept.kind == "money"


def sweep(rules_by_value: list[Rules], swept: Range, games: int, seed: int, players: int, agents: str = "heuristic",
          overrides: list[str] | None = None, jobs: int | None = 1, dask: str | None = None,
          progress: Callable[[int], None] | None = None, where: runner.Where | None = None) -> Sweep:
    """Play games `seed` .. `seed + games - 1` with each value's rules (`rules_by_value[i]`, compiled with
    `overrides` and `--set NAME=value i`) and make each value's balance table. `where` is told where the
    games were played (`runner.Where`)."""
    check_fixed(swept, overrides or [])
    sets = [runner.RuleSet(rules, [*(overrides or []), f"{swept.name}={swept.text(v)}"])
            for rules, v in zip(rules_by_value, swept.values)]
    batches = [runner.Batch(i, first, count, (players, agents))
               for i in range(len(sets))
               for first, count in runner.runs(games, seed, jobs)]
    records: list = [[] for _ in sets]
    for batch, results in zip(batches, runner.run(sets, batches, _record, jobs, dask, progress, where)):
        records[batch.rule_set].extend(results)
    rows = [Row(v, swept.text(v), balance(r, players)) for v, r in zip(swept.values, records)]
    return Sweep(rules_by_value[0].title, swept, games, players, agents, seed, rows)


def check_fixed(swept: Range, overrides: list[str]) -> None:
    """Refuse a `--set NAME=VALUE` of the swept parameter: each value of the sweep would replace it, so one of
    the two things the user asked for would be dropped without a word."""
    for text in overrides:
        if parse_override(text)[0] == swept.name:
            raise _usage(f"`--set {text}` fixes `{swept.name}`, the parameter the sweep varies (from "
                         f"{swept.text(swept.values[0])} to {swept.text(swept.values[-1])})",
                         f"drop `--set {text}`, or sweep another parameter")


def _record(rules: Rules, seed: int, players: int, agents: str):
    return record_game(rules, players, seed, agents)


# ---- as text, JSON and CSV --------------------------------------------------------------------------------

def _means(balances: list[Balance], key: str, fmt: str) -> list[str]:
    """Each value's mean as `value [low, high]`, as `simulate` shows it: the bootstrap interval is not
    symmetric and stays within what games can give, which `±` would misstate. The parts are lined up
    down the column so that it reads as a table."""
    parts = [[fmt.format(x) for x in (i.value, i.low, i.high)] for i in (b.figure(key).interval for b in balances)]
    value, low, high = (max(len(p[k]) for p in parts) for k in range(3))
    return [f"{v:>{value}} [{lo:>{low}}, {hi:>{high}}]" for v, lo, hi in parts]


def _shares(balances: list[Balance], key: str) -> list[str]:
    return [share_text(b.figure(key).interval).strip() for b in balances]


def columns(s: Sweep) -> list[tuple[str, list[str]]]:
    """The text table's columns after the value: (heading, a cell for each row)."""
    balances = [row.balance for row in s.rows]
    out = [("turns", _means(balances, "turns", "{:.1f}")), ("ended by a rule", _shares(balances, "completed"))]
    out += [(f"seat {k} won", _shares(balances, f"seat_{k}_won")) for k in range(1, s.players + 1)]
    out += [("cash spread", _means(balances, "spread", "{:,.0f}")),
            ("eliminated", _means(balances, "bankruptcies", "{:.2f}"))]
    return out


def format_sweep(s: Sweep) -> str:
    head = (f"{s.title}: {s.name} from {s.rows[0].text} to {s.rows[-1].text}{s.step_text}; {s.games} games a value "
            f"({s.players} players, {s.agents} agents, seeds {s.seed}..{s.seed + s.games - 1} for each); "
            "95% intervals")
    cols = columns(s)
    table = [[s.name] + [h for h, _ in cols]] + [[row.text] + [cells[i] for _, cells in cols]
                                                 for i, row in enumerate(s.rows)]
    widths = [max(len(r[i]) for r in table) for i in range(len(table[0]))]
    lines = [head, ""]
    for r in table:
        lines.append("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in enumerate(zip(r, widths))).rstrip())
    reasons = {f.key for row in s.rows for f in row.balance.figures if f.key.startswith("ended:")}
    if len(reasons) > 1:  # with one end rule, "ended by a rule" says it all
        lines += ["", "how games ended, by value:"]
        for row in s.rows:
            ends = ", ".join(f"{f.label[len('ended: '):]} {share_text(f.interval).strip()}"
                             for f in row.balance.figures if f.key.startswith("ended:"))
            lines.append(f"  {row.text:<{widths[0]}}  {ends or 'only by the turn limit'}")
    return "\n".join(lines) + "\n"


def sweep_json(s: Sweep, sources) -> dict:
    return {"title": s.title, "parameter": s.name, "games": s.games, "players": s.players, "agents": s.agents,
            "seed": s.seed,
            "rows": [{"value": row.value, "text": row.text, **balance_json(row.balance, sources)} for row in s.rows]}


def sweep_csv(s: Sweep) -> str:
    """One row per value: the value, then each figure's value, low and high (a figure no game of a
    value showed, such as an end reason, is empty there)."""
    keys = list(dict.fromkeys(f.key for row in s.rows for f in row.balance.figures))
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([s.name, "games", "turns_median"] + [f"{k}{part}" for k in keys for part in ("", "_low", "_high")])
    for row in s.rows:
        cells = [row.value, row.balance.games, row.balance.turns_median]
        for k in keys:
            f = row.balance.get(k)
            cells += ["", "", ""] if f is None else [f.interval.value, f.interval.low, f.interval.high]
        writer.writerow(cells)
    return out.getvalue()
