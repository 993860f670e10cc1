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
from typing import Callable

import attrs

from rulesc.dsl.diagnostics import Diagnostic, RulesError
from rulesc.interpreter.rules import Rules, parse_override

from . import runner
from .balance import Balance, balance, balance_json, record_game, share_text

MAX_VALUES = 100  # more values than this is a typing mistake, not a sweep
SWEPT_TYPES = ("money", "count", "percent")


@attrs.frozen
class Range:
    name: str
    values: list  # the numbers, FROM to TO
    kind: str  # "money", "count" or "percent"

    def text(self, value: int) -> str:
        """A value as `--set` takes it."""
        return f"${value:,}" if self.kind == "money" else f"{value}%" if self.kind == "percent" else str(value)


def _usage(message: str, help_text: str = "e.g. `--set starting_cash=$1,000..$2,000 step $250`") -> RulesError:
    return RulesError([Diagnostic("error", "R0010", message, "--set", help=help_text)])


def parse_range(words: list[str]) -> Range:
    """`NAME=FROM..TO [step S]` (the words of one `--set`), FROM and TO written as in a rules file.
    The step may be left out for counts and percentages (1)."""
    text = " ".join(words)
    head, _, rest = text.partition(" step ")
    if "=" not in head or ".." not in head:
        raise _usage(f"`--set {text}` is not `NAME=FROM..TO step S`")
    name, _, span = head.partition("=")
    low_text, _, high_text = span.partition("..")
    name = name.strip()
    low = _literal(name, low_text)
    high = _literal(name, high_text)
    if low.type != high.type or low.type not in SWEPT_TYPES:
        raise _usage(f"`--set {text}`: FROM and TO must be two amounts, counts or percentages of the same kind")
    if rest.strip():
        step = _literal(name, rest)
        if step.type != low.type and not (low.type == "percent" and step.type == "count"):
            raise _usage(f"`--set {text}`: the step must be {'an amount' if low.type == 'money' else 'a number'} "
                         f"like FROM and TO")
        size = step.value
    elif low.type == "money":
        raise _usage(f"`--set {text}`: say the step between amounts, e.g. `step $100`")
    else:
        size = 1
    if size <= 0 or high.value < low.value:
        raise _usage(f"`--set {text}`: needs FROM <= TO and a step above 0")
    values = list(range(low.value, high.value + 1, size))
    if len(values) > MAX_VALUES:
        raise _usage(f"`--set {text}` makes {len(values)} values; a sweep takes at most {MAX_VALUES}",
                     "take a bigger step")
    return Range(name, values, low.type)


def _literal(name: str, text: str):
    return parse_override(f"{name}={text.strip()}")[1]


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
          overrides: list[str] | None = None, jobs: int = 1, dask: str | None = None,
          progress: Callable[[int], None] | None = None) -> Sweep:
    """Play games `seed` .. `seed + games - 1` with each value's rules (`rules_by_value[i]`, compiled with
    `overrides` and `--set NAME=value i`) and make each value's balance table."""
    sets = [runner.RuleSet(rules, [*(overrides or []), f"{swept.name}={swept.text(v)}"])
            for rules, v in zip(rules_by_value, swept.values)]
    batches = [runner.Batch(i, first, count, (players, agents))
               for i in range(len(sets))
               for first, count in runner.runs(games, seed, jobs)]
    records: list = [[] for _ in sets]
    for batch, results in zip(batches, runner.run(sets, batches, _record, jobs, dask, progress)):
        records[batch.rule_set].extend(results)
    rows = [Row(v, swept.text(v), balance(r, players)) for v, r in zip(swept.values, records)]
    return Sweep(rules_by_value[0].title, swept, games, players, agents, seed, rows)


def _record(rules: Rules, seed: int, players: int, agents: str):
    return record_game(rules, players, seed, agents)


# ---- as text, JSON and CSV --------------------------------------------------------------------------------

def _mean_cell(b: Balance, key: str, fmt: str) -> str:
    i = b.figure(key).interval
    return f"{fmt.format(i.value)} ±{fmt.format((i.high - i.low) / 2)}"


def columns(s: Sweep) -> list[tuple[str, Callable[[Balance], str]]]:
    """The text table's columns after the value: (heading, cell of a row's table)."""
    out = [("turns", lambda b: _mean_cell(b, "turns", "{:.1f}")),
           ("ended by a rule", lambda b: share_text(b.figure("completed").interval).strip())]
    out += [(f"seat {k} won", lambda b, k=k: share_text(b.figure(f"seat_{k}_won").interval).strip())
            for k in range(1, s.players + 1)]
    out += [("cash spread", lambda b: _mean_cell(b, "spread", "{:,.0f}")),
            ("eliminated", lambda b: _mean_cell(b, "bankruptcies", "{:.2f}"))]
    return out


def format_sweep(s: Sweep) -> str:
    head = (f"{s.title}: {s.name} from {s.rows[0].text} to {s.rows[-1].text}{s.step_text}; {s.games} games a value "
            f"({s.players} players, {s.agents} agents, seeds {s.seed}..{s.seed + s.games - 1} for each); "
            "95% intervals")
    cols = columns(s)
    table = [[s.name] + [h for h, _ in cols]] + [[row.text] + [cell(row.balance) for _, cell in cols] for row in s.rows]
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
