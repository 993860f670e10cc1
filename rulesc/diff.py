"""`rulesc diff BASE VARIANT`: what a house rule changes, in the game's terms, and what it does.

The static part sets the two checked programs side by side, declaration by declaration
(the game's settings, parameters by their values, the bank, the fields of players, globals and
kinds, groups, squares, board graphs, the board, the setup, phases, supplies, statuses, handlers, hooks,
actions, decks and their cards, table rows, end conditions, functions, procedures, hints,
invariants, trade, scenarios), and lists what was added, removed or changed: a declaration of
one line as it was and as it is, a rule of several lines as it is. The measured part plays both
games on the same seeds (game i: seed S + i, the same players and agents) and reports paired
differences: game length, final wealth spread, money by rule (per-seed differences, with
intervals), and how games end and who wins (McNemar's counts on the paired outcomes), marking
what is significant at 95%; and the base's scenarios whose outcome the variant changes.
"""

from __future__ import annotations

import collections
import os
import re
import statistics
from typing import Callable, NamedTuple

import attrs

from rulesc.dsl.model import declared_handlers
from rulesc.interpreter.rules import Rules
from rulesc.interpreter.scenario import run_scenarios

from . import balance, runner, stats
from .balance import interval_text as _interval
from .balance import record_game
from .balance import share_text as _share
from .sources import RuleSources


# ---- what the variant changes ----------------------------------------------------------------------------

@attrs.frozen
class Change:
    what: str  # "added" | "removed" | "changed"
    category: str  # "parameter", "phase", "handler", …
    name: str
    base: str | None  # the declaration's text in the base (None if added)
    variant: str | None
    where: str | None = None  # `file:line` of the change in the variant: the declaration, or its `remove …`


def _lines(program, node) -> list[str]:
    """A declaration's source lines, whitespace collapsed, citations, assumptions and blank lines left out.
    A span that reaches into the next line only as far as its indentation (a field, a setting, a card or a
    phase ends where the next one begins) does not take that line: it is the next declaration's."""
    span = node.span
    lines = program.sources.get(span.file, program.source).splitlines()
    last = span.end_line
    if last > span.line and (last > len(lines) or not lines[last - 1][:span.end_column - 1].strip()):
        last -= 1
    body = []
    for line in lines[span.line - 1:last]:
        code = line.split("§")[0].split(" cite ")[0]
        code = code.split("  assumed")[0].split("#")[0]
        if code.strip():
            body.append(" ".join(code.split()))
    if body and body[0].startswith("replace ") and not body[0].startswith("replace card "):
        body[0] = body[0][len("replace "):]  # a variant's `replace on land …` / `replace action …` is the same rule, changed
    return body


class _At(NamedTuple):
    """Where a case of a handler is written: shown, and located, as a declaration of its own."""

    span: object


def _text(program, node) -> str:
    """A declaration's source, its lines joined by ` / `."""
    return " / ".join(_lines(program, node))


def _head(program, node) -> str:
    """A declaration's first line: the header of a deck or a status, whose cards and phases are listed apart."""
    return _lines(program, node)[0]


def _after_colon(program, node) -> str:
    """A one-line `name: …` declaration without its name: a setting's value."""
    return _head(program, node).split(":", 1)[1].strip()


def _field(program, field) -> str:
    """A field as a diff shows it: its type and default, after what marks it (`state`, `hidden`)."""
    marks = ["state"] * field.is_state + ["hidden"] * field.hidden
    return " ".join(marks + [_after_colon(program, field)])


def _row(program, row) -> str:
    """A table row as it stands: its name and cells. Built from the cells rather than read from the row's
    line, because `override table` makes a row of the base's cells and the variant's."""
    return " ".join([row.name] + [program.text_at(cell.span) for cell in row.cells])


def _value(value, type_) -> str:
    """A parameter's value as a rules file writes it: `$1,500`, `-$5`, `10%`, `3`, `true`."""
    name = type_.name if type_ is not None else None
    if name == "money" and isinstance(value, int):
        return f"-${-value:,}" if value < 0 else f"${value:,}"
    if name == "percent" and isinstance(value, int):
        return f"{value}%"
    if isinstance(value, bool):
        return "true" if value else "false"
    return repr(value)


def _declarations(rules: Rules) -> dict:
    """(category, name) -> what the declaration says, for every declaration that shapes play."""
    return {key: text for key, (text, _) in _located(rules).items()}


def _located(rules: Rules) -> dict:
    """(category, name) -> (what the declaration says, the node it is said by), as `_declarations`."""
    p = rules.program
    out: dict = {}
    for key, setting in p.settings.items():
        out["setting", key] = _after_colon(p, setting), setting
    for name, param in p.params.items():
        out["parameter", name] = _value(rules.compiler.params.get(name), rules.checked.types.get(id(param.value))), param
    if p.bank is not None:
        out["bank", "bank"] = _head(p, p.bank).removeprefix("bank "), p.bank
    for name, field in p.player_fields.items():
        out["field", f"player.{name}"] = _field(p, field), field
    for name, field in p.global_fields.items():
        out["global", name] = _field(p, field), field
    for kind in p.kinds.values():
        for field in kind.fields:
            out["field", f"{kind.name}.{field.name}"] = _field(p, field), field
    for category, items in (("group", p.groups), ("square", p.squares), ("graph", p.graphs)):
        for name, decl in items.items():
            out[category, name] = _text(p, decl), decl
    if p.setup is not None:
        out["setup", "setup"] = _text(p, p.setup), p.setup
    if p.turn is not None:
        for i, phase in enumerate(p.turn.phases, 1):
            out["phase", phase.name] = f"#{i}: {_text(p, phase)}", phase
    for name, supply in p.supplies.items():
        out["supply", name] = _text(p, supply), supply
    for status in p.statuses.values():
        out["status", status.name] = _head(p, status), status
        for i, phase in enumerate(status.phases, 1):
            out["phase", f"{status.name}.{phase.name}"] = f"#{i}: {_text(p, phase)}", phase
    for kind, items in (("handler", declared_handlers(p)), ("hook", p.hooks)):
        seen: collections.Counter = collections.Counter()
        for h in items:
            first, *body = _lines(p, h)
            head = first.rstrip(":")
            seen[head] += 1
            at = h
            for span in h.cases:  # a variant's cases of it (`replace on … only when C:`), the last tested first
                at = _At(span)
                body = [*_lines(p, at), *body]
            out[kind, head if seen[head] == 1 else f"{head} ({seen[head]})"] = " / ".join(body), at  # its name is its head
    for name, action in p.actions.items():
        out["action", name] = _text(p, action), action
    for deck in p.decks.values():
        out["deck", deck.name] = _head(p, deck), deck
        for card in deck.cards:
            out["card", f"{deck.name}.{card.name}"] = _text(p, card), card
    for tables in p.tables.values():  # a kind's tables: one in the base, more where a variant adds rows
        for table in tables:
            for row in table.rows:
                out["row", f"{table.kind}.{row.name}"] = _row(p, row), row
    for end in p.ends:
        out["end", end.reason] = _text(p, end), end
    for category, items in (("function", p.defines), ("procedure", p.procedures), ("hint", p.hints)):
        for name, decl in items.items():
            out[category, name] = _text(p, decl), decl
    for inv in p.invariants:
        out["invariant", inv.text] = _text(p, inv), inv
    if p.trade is not None:
        out["trade", "trade"] = _text(p, p.trade), p.trade
    for rule in p.trade_things:  # `trade Street s when …`
        out["trade", f"trade {' or '.join(rule.kinds)} {rule.var}"] = _text(p, rule), rule
    if p.board is not None:
        named = {c.index: c.name for c in p.copies.values()}  # `Square as Place2`: a place named
        out["board", "board"] = " ".join(f"{n.id} as {named[i]}" if i in named else n.id
                                         for i, n in enumerate(p.board.squares)), p.board
    for s in p.scenarios:
        out["scenario", s.title] = _text(p, s), s
    return out


def changes(base: Rules, variant: Rules) -> list[Change]:
    """What the variant adds, removes and changes, in the order of the base's declarations, each at its
    line in the variant (a removal at its `remove …` line where the variant has one, else where it was)."""
    a, b = _located(base), _located(variant)
    out = []
    for key, (text, node) in a.items():
        if key not in b:
            out.append(Change("removed", key[0], key[1], text, None, _removal(variant, key) or location(node.span)))
        elif b[key][0] != text:
            out.append(Change("changed", key[0], key[1], text, b[key][0], location(b[key][1].span)))
    out += [Change("added", key[0], key[1], None, text, location(node.span)) for key, (text, node) in b.items()
            if key not in a]
    return out


def location(span) -> str | None:
    """`file:line` of a span, the file as loaded (a base through `extends "../…"`: its own path)."""
    return f"{os.path.normpath(span.file)}:{span.line}" if span is not None and span.file else None


_REMOVED = {"param": "parameter"}  # `remove param` removes what the diff calls a parameter


def _removal(variant: Rules, key: tuple) -> str | None:
    """The variant's `remove …` line that removed declaration `key`, if one names it."""
    category, name = key
    for v in variant.program.removals:
        word = v.what.split()[-1]
        if _REMOVED.get(word, word) == category and (v.target == name or name.startswith(v.target)
                                                      or v.target.endswith(name)):
            return location(v.span)
    return None


# ---- what the variant does -------------------------------------------------------------------------------

SEEDS_SHOWN = 3  # paired seeds shown for each notable difference


@attrs.define
class Outcome:
    """A yes/no outcome of a game, its share in each game and McNemar's test on the pairs; the seeds
    of the pairs where only the base had it, and only the variant (the first few)."""

    name: str
    base: stats.Interval
    variant: stats.Interval
    test: stats.McNemar
    base_only: tuple = ()
    variant_only: tuple = ()


class MoneyRow(NamedTuple):
    """Money paid by one rule (named by its text), per game in each, the paired difference; where the
    rule is in the variant (`file:line`, or the base's line for a rule the variant removed); and the
    seeds whose pairs differ most in the direction of the mean difference."""

    rule: str
    base: float
    variant: float
    difference: stats.Interval
    where: str | None
    seeds: tuple


class Flip(NamedTuple):
    """A pair of games whose winners differ: the seed, and each game's winning seat (None: nobody)."""

    seed: int
    base: int | None
    variant: int | None


@attrs.define
class Measured:
    games: int
    players: int
    agents: str
    seed: int
    turns: stats.Interval  # the variant's turns minus the base's, per seed
    spread: stats.Interval
    base_turns: stats.Interval
    variant_turns: stats.Interval
    bankruptcies: stats.Interval  # the variant's eliminations minus the base's, per seed
    outcomes: list  # [Outcome]: completion, timeouts, each end reason, each seat's win
    money: list  # [MoneyRow], biggest change first
    scenarios: list  # [(title, passed in base, passed in variant or None if the variant removed it)]
    flips: list = attrs.Factory(list)  # [Flip]: every pair whose winner differs, in seed order
    longer: tuple = ()  # the seeds whose variant game is longest against its base's (most turns added first) ...
    shorter: tuple = ()  # ... and shortest
    base: list = attrs.Factory(list)  # [GameRecord] of the base, in game order
    variant: list = attrs.Factory(list)  # ... and of the variant


def play_pairs(base: Rules, variant: Rules, games: int, seed: int, players: int, agents: str = "heuristic",
               progress: Callable[[int], None] | None = None, jobs: int | None = 1, dask: str | None = None,
               overrides: list[str] | None = None, wealth: bool = False) -> tuple[list, list]:
    """Each game's `GameRecord` in the base and in the variant, on the same seeds, in game order
    (here, in `jobs` processes or on a Dask cluster: the same records)."""
    sets = [runner.RuleSet(base, overrides or []), runner.RuleSet(variant, overrides or [])]
    batches = []
    for first, count in runner.runs(games, seed, jobs):
        batches += [runner.Batch(which, first, count, (players, agents, wealth)) for which in (0, 1)]
    a: list = []
    b: list = []
    done = [0]

    def counted(played: int) -> None:  # a pair is done when both of its games are
        if progress is not None and played // 2 > done[0]:
            done[0] = played // 2
            progress(min(done[0], games))

    for batch, results in zip(batches, runner.run(sets, batches, _record, jobs, dask, counted)):
        (a if batch.rule_set == 0 else b).extend(results)
    return a, b


def _record(rules: Rules, seed: int, players: int, agents: str, wealth: bool):
    return record_game(rules, players, seed, agents, wealth=wealth)


def measure(base: Rules, variant: Rules, games: int, seed: int, players: int, agents: str = "heuristic",
            progress: Callable[[int], None] | None = None, jobs: int | None = 1, dask: str | None = None,
            overrides: list[str] | None = None, wealth: bool = False) -> Measured:
    a, b = play_pairs(base, variant, games, seed, players, agents, progress, jobs, dask, overrides, wealth)
    return compare(base, variant, a, b, seed, players, agents)


def scenario_changes(base: Rules, variant: Rules) -> list[tuple[str, bool, bool | None]]:
    """The base's scenarios whose outcome the variant changes: (title, passed in the base, passes in the
    variant, or None where the variant removed it). Cheap: no game is played for it."""
    base_results = {r.title: r.passed for r in run_scenarios(base)}
    variant_results = {r.title: r.passed for r in run_scenarios(variant)}
    return [(title, ok, variant_results.get(title)) for title, ok in base_results.items()
            if variant_results.get(title) != ok]


def compare(base: Rules, variant: Rules, a: list, b: list, seed: int, players: int, agents: str) -> Measured:
    """The paired comparison of the base's records `a` and the variant's `b` (the same seeds)."""
    games = len(a)

    seeds = [g.seed for g in a]

    def outcome(name, test) -> Outcome:
        xs, ys = [test(g) for g in a], [test(g) for g in b]
        return Outcome(name, stats.wilson(sum(xs), games), stats.wilson(sum(ys), games), stats.mcnemar(xs, ys),
                       tuple(s for s, x, y in zip(seeds, xs, ys) if x and not y)[:SEEDS_SHOWN],
                       tuple(s for s, x, y in zip(seeds, xs, ys) if y and not x)[:SEEDS_SHOWN])

    reasons = sorted({g.reason for g in a + b}, key=str)
    found = [outcome(label, test) for _, label, test in balance.outcomes(a + b, players, reasons)]

    (base_money, base_places), (variant_money, places) = _money_by_text(base, a), _money_by_text(variant, b)
    rules_seen = sorted({r for side in (base_money, variant_money) for g in side for r in g})
    money = []
    for rule in rules_seen:
        xs, ys = [g.get(rule, 0) for g in base_money], [g.get(rule, 0) for g in variant_money]
        difference = stats.paired_difference(xs, ys)
        money.append(MoneyRow(rule, statistics.fmean(xs), statistics.fmean(ys), difference,
                              places.get(rule) or base_places.get(rule),
                              _most(seeds, [y - x for x, y in zip(xs, ys)], difference.value)))
    money.sort(key=lambda m: (-abs(m.difference.value), m.rule))
    turns = [y.turns - x.turns for x, y in zip(a, b)]

    return Measured(games, players, agents, seed,
                    flips=[Flip(x.seed, x.winner, y.winner) for x, y in zip(a, b) if x.winner != y.winner],
                    longer=_most(seeds, turns, 1), shorter=_most(seeds, turns, -1),
                    turns=stats.paired_difference([g.turns for g in a], [g.turns for g in b]),
                    spread=stats.paired_difference([g.spread for g in a], [g.spread for g in b]),
                    base_turns=stats.mean([g.turns for g in a]), variant_turns=stats.mean([g.turns for g in b]),
                    outcomes=found, money=money, scenarios=scenario_changes(base, variant),
                    bankruptcies=stats.paired_difference([g.bankruptcies for g in a], [g.bankruptcies for g in b]),
                    base=a, variant=b)


ASSUMED_NOTE = re.compile(r'\s+assumed\s+"[^"]*"\s*$')  # `pay … assumed "why"`: a note, not the statement


def _statement(line: str) -> str:
    """A statement's line as the money table names it: without its citation or `assumed` note."""
    return ASSUMED_NOTE.sub("", line.split("§")[0]).strip()


def _most(seeds: list, differences: list, sign: float) -> tuple:
    """The seeds whose paired difference is largest in the direction of `sign` (none if it is 0)."""
    if not sign:
        return ()
    ranked = sorted((d * (1 if sign > 0 else -1), -s) for s, d in zip(seeds, differences))
    return tuple(-s for d, s in reversed(ranked[-SEEDS_SHOWN:]) if d > 0)


def _money_by_text(rules: Rules, records: list) -> tuple[list, dict]:
    """Each game's money by rule, the rule named by its text (a base and its variant share texts, not lines);
    and each text's `file:line` (the first such line, `+N` where more lines have the same text)."""
    sources = RuleSources.of(rules.program)
    texts: dict = {}
    out = []
    for g in records:
        money: collections.Counter = collections.Counter()
        for rule, amount in g.money.items():
            if rule not in texts:
                texts[rule] = _statement(sources.text(rule)) or "(the engine)"
            money[texts[rule]] += amount
        out.append(dict(money))
    lines = collections.defaultdict(set)
    for rule, text in texts.items():
        if getattr(rule, "line", 0):
            lines[text].add((os.path.normpath(rule.file), rule.line))
    places = {text: f"{file}:{line}" + (f" (+{len(found) - 1})" if len(found) > 1 else "")
              for text, found in lines.items() for file, line in [min(found)]}
    return out, places


# ---- the report ------------------------------------------------------------------------------------------

MONEY_SHOWN = 8
# Declarations of one line: a change shows what it was and what it is, as a parameter's does. A change of
# a rule of many lines shows the rule as it is now.
ONE_LINE = {"parameter", "setting", "bank", "field", "global", "group", "square", "graph", "status", "deck", "row"}


def _mark(significant: bool) -> str:
    return "  *" if significant else ""


def format_diff(base_title: str, variant_title: str, found: list[Change], measured: Measured | None,
                scenarios: list | None = None, show: str = "rulesc diff BASE VARIANT --show-seed") -> str:
    """The report; with no games measured, `scenarios` (`scenario_changes`) are reported alone. `show`
    is the command that plays one pair side by side, but for its seed."""
    lines = [f"{variant_title} against {base_title}", "", f"what the variant changes ({len(found)}):"]
    sign = {"added": "+", "removed": "-", "changed": "~"}
    for c in found:
        detail = c.variant if c.what != "removed" else c.base
        if c.what == "changed" and c.category in ONE_LINE:
            detail = f"{c.base} -> {c.variant}"
        elif c.category == "scenario":
            detail = ""
        lines.append(f"  {sign[c.what]} {c.category} {c.name}" + (f": {_shorten(detail)}" if detail else "")
                     + (f"  ({c.where})" if c.where else ""))
    if not found:
        lines.append("  nothing")
    if measured is None:
        return "\n".join(lines + ([""] + _scenario_lines(scenarios) if scenarios is not None else [])) + "\n"
    m = measured
    lines += ["", f"measured on {m.games} paired games ({m.players} players, {m.agents} agents, "
                  f"seeds {m.seed}..{m.seed + m.games - 1}); 95% intervals, * marks a significant difference", ""]
    lines.append("turns per game: base {:.1f}, variant {:.1f}; difference {}{}".format(
        m.base_turns.value, m.variant_turns.value, _interval(m.turns, "{:+.1f}"), _mark(m.turns.excludes_zero)))
    lines.append("final cash spread (richest - poorest): difference {}{}".format(
        _interval(m.spread, "{:+,.0f}"), _mark(m.spread.excludes_zero)))
    lines.append("players eliminated per game: difference {}{}".format(
        _interval(m.bankruptcies, "{:+.2f}"), _mark(m.bankruptcies.excludes_zero)))
    lines += ["", f"  {'outcome':<40} {'base':>22} {'variant':>22}   base only / variant only"]
    for o in m.outcomes:
        lines.append(f"  {o.name[:40]:<40} {_share(o.base):>22} {_share(o.variant):>22}   "
                     f"{o.test.base_only:>4} / {o.test.variant_only:<4}{_mark(o.test.significant)}")
    lines += ["", "money by rule, per game (the biggest changes):"]
    for row in m.money[:MONEY_SHOWN]:
        text = f"{_interval(row.difference, '{:+,.0f}')}{_mark(row.difference.excludes_zero)}"
        lines.append(f"  {_shorten_middle(row.rule, 48):<48} {row.base:>12,.0f} -> {row.variant:>12,.0f}  "
                     f"{text:<28}  {row.where or ''}".rstrip())
    lines += [""] + _seed_lines(m, show) + [""] + _scenario_lines(m.scenarios)
    return "\n".join(lines) + "\n"


def _seeds(seeds) -> str:
    return ", ".join(map(str, seeds))


def _seat(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat}"


def _seed_lines(m: Measured, show: str) -> list[str]:
    """The paired games behind each notable difference (a changed winner, a significant figure), by seed,
    and the command that plays a pair side by side (the first seed named)."""
    found: list[tuple[str, tuple]] = []  # (line, the seeds it names)
    if m.flips:
        shown = ", ".join(f"{f.seed} ({_seat(f.base)} -> {_seat(f.variant)})" for f in m.flips[:SEEDS_SHOWN])
        found.append((f"the winner changes in {len(m.flips)} of {m.games} pairs: seeds {shown}",
                      tuple(f.seed for f in m.flips)))
    if m.turns.excludes_zero:
        most = m.longer if m.turns.value > 0 else m.shorter
        found.append((f"turns per game {m.turns.value:+.1f}: seeds {_seeds(most)} "
                      f"({'longest' if m.turns.value > 0 else 'shortest'} against the base)", most))
    for o in m.outcomes:
        if o.test.significant:
            found.append((f"{o.name}: in the base only, seeds {_seeds(o.base_only) or 'none'}; "
                          f"in the variant only, seeds {_seeds(o.variant_only) or 'none'}", o.variant_only + o.base_only))
    for row in m.money[:MONEY_SHOWN]:
        if row.difference.excludes_zero and row.seeds:
            found.append((f"{_shorten_middle(row.rule, 48)} {row.difference.value:+,.0f}"
                          f"{f' ({row.where})' if row.where else ''}: seeds {_seeds(row.seeds)}", row.seeds))
    seeds = [named[0] for _, named in found if named]
    if not seeds:
        return ["paired games that show a difference: none (no winner changes, nothing significant)"]
    return ["paired games that show it (by seed; a seed gives both games the same dice and the same agents):",
            *(f"  {line}" for line, _ in found), f"  to see a pair side by side: {show} {seeds[0]}"]


def _scenario_lines(scenarios: list) -> list[str]:
    lines = ["base scenarios whose outcome changes:"]
    for title, before, after in scenarios:
        now = "removed" if after is None else ("passes" if after else "fails")
        lines.append(f"  {title}: {'passes' if before else 'fails'} in the base, {now} in the variant")
    return lines + (["  none"] if not scenarios else [])


def diff_json(found: list[Change], measured: Measured | None, scenarios: list | None = None) -> dict:
    out: dict = {"changes": [attrs.asdict(c) for c in found]}
    if scenarios is not None:
        out["scenarios"] = [{"title": t, "base": a, "variant": b} for t, a, b in scenarios]
    if measured is not None:
        m = measured
        out["measured"] = {
            "games": m.games, "players": m.players, "agents": m.agents, "seed": m.seed,
            "turns": {"base": m.base_turns.to_json(), "variant": m.variant_turns.to_json(),
                      "difference": m.turns.to_json(), "significant": m.turns.excludes_zero},
            "spread": {"difference": m.spread.to_json(), "significant": m.spread.excludes_zero},
            "bankruptcies": {"difference": m.bankruptcies.to_json(), "significant": m.bankruptcies.excludes_zero},
            "outcomes": [{"name": o.name, "base": o.base.to_json(), "variant": o.variant.to_json(),
                          "base_only": o.test.base_only, "variant_only": o.test.variant_only,
                          "significant": o.test.significant, "base_only_seeds": list(o.base_only),
                          "variant_only_seeds": list(o.variant_only)} for o in m.outcomes],
            "money": [{"rule": r.rule, "where": r.where, "base": r.base, "variant": r.variant,
                       "difference": r.difference.to_json(), "significant": r.difference.excludes_zero,
                       "seeds": list(r.seeds)} for r in m.money],
            "winner_changes": [{"seed": f.seed, "base": f.base, "variant": f.variant} for f in m.flips],
            "longest_against_base": list(m.longer), "shortest_against_base": list(m.shorter),
            "scenarios": [{"title": t, "base": a, "variant": b} for t, a, b in m.scenarios],
        }
    return out


def _shorten(text: str | None, width: int = 90) -> str:
    text = text or ""
    return text if len(text) <= width else text[:width - 1] + "…"


def _shorten_middle(text: str, width: int) -> str:
    """`text` in `width` characters, its middle left out: a statement's start says what it does and
    its end whom it pays (`… from player to pot` against `… from player to bank`, where a house rule
    changes only that)."""
    if len(text) <= width:
        return text
    head = (width - 1) // 2
    return text[:head] + "…" + text[len(text) - (width - 1 - head):]
