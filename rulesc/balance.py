"""Balance figures: what one game gave (`GameRecord`), and what many games show (`Balance`).

One module for the figures that `simulate`, `diff` and `sweep` report, so that a figure means the
same thing in each. They follow Ludii's playout metrics where they apply (duration, completion,
timeouts, balance across seats and across positions in the turn order) and add what economic games
need: the final wealth spread, bankruptcies, money by rule. Every figure has a 95% interval
(`stats`): shares a Wilson interval, means a bootstrap percentile one.

Wealth is a player's `cash` field. A `GameRecord` is small and plain (it travels back from worker
processes); `wealth` (cash per seat, sampled every round) is kept only when a picture asks for it.
"""

from __future__ import annotations

import collections
import statistics
from typing import Callable, NamedTuple

import attrs

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import Rules

from . import stats

TURN_LIMIT = "turn limit"  # the engine's end reason when a game reaches its turn cap: a timeout
BROKEN = "broke an invariant"  # `simulate --check`: the game stopped where an invariant broke


class GameRecord(NamedTuple):
    """What the figures take from one game."""

    seed: int
    turns: int
    reason: str  # the end reason; TURN_LIMIT for a timeout, BROKEN for a game stopped by `--check`
    winner: int | None  # seat, from 1
    first: int  # the seat that moved first, from 1
    cash: tuple  # each seat's cash at the end
    out: tuple  # each seat: eliminated (bankrupt) or not
    money: dict  # RuleRef -> money paid by that rule in this game
    wealth: tuple | None = None  # with `wealth`: (turn, cash of each seat) at the start of every round
    broken: object = None  # with `check`: the Failure of the invariant the game broke

    @property
    def spread(self) -> int:
        """The richest player's cash minus the poorest's, at the end."""
        return max(self.cash) - min(self.cash) if self.cash else 0

    @property
    def bankruptcies(self) -> int:
        return sum(self.out)

    @property
    def position(self) -> int | None:
        """The winner's position in the turn order, from 1 (the first to move is 1)."""
        if self.winner is None:
            return None
        return (self.winner - self.first) % len(self.cash) + 1


def record_game(rules: Rules, players: int, seed: int, agents: str = "heuristic", check: bool = False,
                wealth: bool = False) -> GameRecord:
    """Play game `seed` and take its figures. With `check`, every invariant is checked after every
    event, and a game that breaks one stops there with the failure; with `wealth`, every seat's cash
    is sampled every `players` turns, a round while nobody is out (read from the state by an observer)."""
    # The log is kept only for the checker; the figures come from the game's own tallies.
    game = Game(rules, players, seed=seed, agents=make_agents(agents, seed, players), record=check)
    game.paid_by_rule = {}
    samples: list = []
    if wealth:
        state = game.state

        def observe(g, kind, where, payload) -> None:
            if kind == "turn" and (state.turn - 1) % players == 0:
                samples.append((state.turn - 1, tuple(getattr(p, "f_cash", 0) for p in state.players)))
        game.observer = observe
    failure = None
    if check:
        from .properties import play_checked
        failure = play_checked(rules, game)
    else:
        game.play()
    state = game.state
    money = game.paid_by_rule
    first = game.first_seat + 1 if game.first_seat is not None else 1
    cash = tuple(getattr(p, "f_cash", 0) for p in state.players)
    reason = BROKEN if failure is not None else state.end_reason or BROKEN
    return GameRecord(seed, state.turn, reason, state.winner.seat + 1 if state.winner is not None else None, first,
                      cash, tuple(p.out for p in state.players), dict(money), tuple(samples) if wealth else None,
                      failure)


# ---- outcomes: the yes/no figures of a game, as `diff` pairs them and `Balance` counts them ---------------

def outcomes(records: list, players: int, reasons: list | None = None) -> list[tuple[str, str, Callable]]:
    """(key, label, test) of each yes/no outcome: completion, each end reason, each seat's win, and
    each position in the turn order's win where the first player is not always seat 1."""
    reasons = reasons if reasons is not None else end_reasons(records)
    out = [("completed", "ended by a rule (not the turn limit)", lambda g: g.reason not in (TURN_LIMIT, BROKEN)),
           ("timeouts", "reached the turn limit", lambda g: g.reason == TURN_LIMIT)]
    out += [(f"ended:{r}", f"ended: {r}", lambda g, r=r: g.reason == r) for r in reasons if r != TURN_LIMIT]
    out += [(f"seat_{s}_won", f"seat {s} won", lambda g, s=s: g.winner == s) for s in range(1, players + 1)]
    if any(g.first != 1 for g in records):
        out += [(f"position_{k}_won", f"{_ordinal(k)} to move won", lambda g, k=k: g.position == k)
                for k in range(1, players + 1)]
    return out


def end_reasons(records: list) -> list[str]:
    """The end reasons the games show, most frequent first (ties by name)."""
    counts = collections.Counter(g.reason for g in records)
    return sorted(counts, key=lambda r: (-counts[r], r))


def _ordinal(k: int) -> str:
    return f"{k}{'st' if k == 1 else 'nd' if k == 2 else 'rd' if k == 3 else 'th'}"


# ---- the table ---------------------------------------------------------------------------------------------

@attrs.define
class Figure:
    """One line of the balance table: a name for tools, a label for people, and the estimate."""

    key: str
    label: str
    kind: str  # "share" (Wilson) or "mean" (normal)
    interval: stats.Interval

    def to_json(self) -> dict:
        return {"key": self.key, "label": self.label, "kind": self.kind, **self.interval.to_json()}


@attrs.define
class Balance:
    """The balance figures of a set of games, each with its interval."""

    games: int
    players: int
    turns_median: float
    turns_min: int
    turns_max: int
    figures: list  # [Figure]: turns, spread, bankruptcies, then the outcomes' shares
    money: list  # [(RuleRef, total over all games, per-game mean Interval)], biggest first

    def figure(self, key: str) -> Figure:
        return next(f for f in self.figures if f.key == key)

    def get(self, key: str) -> Figure | None:
        return next((f for f in self.figures if f.key == key), None)


def balance(records: list, players: int) -> Balance:
    turns = [g.turns for g in records] or [0]
    figures = [
        Figure("turns", "turns per game", "mean", stats.mean([g.turns for g in records])),
        Figure("spread", "final cash spread (richest - poorest)", "mean", stats.mean([g.spread for g in records])),
        Figure("bankruptcies", "players eliminated per game", "mean", stats.mean([g.bankruptcies for g in records])),
        Figure("any_bankruptcy", "games with an elimination", "share",
               stats.wilson(sum(1 for g in records if g.bankruptcies), len(records))),
    ]
    for key, label, test in outcomes(records, players):
        figures.append(Figure(key, label, "share", stats.wilson(sum(1 for g in records if test(g)), len(records))))
    totals: collections.Counter = collections.Counter()
    for g in records:
        totals.update(g.money)
    money = []
    for rule, total in sorted(totals.items(), key=lambda kv: (-kv[1], kv[0].file, kv[0].line)):
        money.append((rule, total, stats.mean([g.money.get(rule, 0) for g in records])))
    return Balance(len(records), players, statistics.median(turns), min(turns), max(turns), figures, money)


# ---- as text, JSON and CSV ---------------------------------------------------------------------------------

MONEY_SHOWN = 10


def interval_text(i: stats.Interval, fmt: str) -> str:
    return f"{fmt.format(i.value)} [{fmt.format(i.low)}, {fmt.format(i.high)}]"


def share_text(i: stats.Interval) -> str:
    return f"{100 * i.value:5.1f}% [{100 * i.low:4.1f}, {100 * i.high:4.1f}]"


def rule_text(sources, rule) -> str:
    """A rule's line without its citation or assumption: what it does."""
    return sources.text(rule).split("§")[0].split(" assumed")[0].strip()


def format_balance(b: Balance, sources) -> list[str]:
    """The table as lines of text; `sources` (RuleSources) quotes the rules money went through."""
    turns = b.figure("turns").interval
    lines = [f"turns per game:  mean {interval_text(turns, '{:.1f}')}  median {b.turns_median:.0f}  "
             f"min {b.turns_min}  max {b.turns_max}",
             f"final cash spread (richest - poorest):  mean {interval_text(b.figure('spread').interval, '{:,.0f}')}",
             f"players eliminated per game:  mean {interval_text(b.figure('bankruptcies').interval, '{:.2f}')}; "
             f"games with one: {share_text(b.figure('any_bankruptcy').interval).strip()}",
             "", "how games ended:"]
    for key in ("completed", "timeouts"):
        f = b.figure(key)
        lines.append(f"  {f.label:<40} {share_text(f.interval)}")
    for f in b.figures:
        if f.key.startswith("ended:"):
            lines.append(f"    {f.label[len('ended: '):]:<38} {share_text(f.interval)}")
    seats = [f for f in b.figures if f.key.startswith("seat_")]
    even = sum(f.interval.value for f in seats) / len(seats) if seats else 0.0
    lines += ["", f"wins by seat (share of all games; an even split of the games with a winner: "
                  f"{100 * even:.1f}% each):"]
    for f in seats:
        lines.append(f"  {f.label:<40} {share_text(f.interval)}")
    if any(f.key.startswith("position_") for f in b.figures):
        lines += ["", "wins by position in the turn order:"]
        for f in b.figures:
            if f.key.startswith("position_"):
                lines.append(f"  {f.label:<40} {share_text(f.interval)}")
    lines += ["", f"where money went (by rule: all games, share, per game; the top {MONEY_SHOWN}):"]
    total = sum(t for _, t, _ in b.money) or 1
    for rule, amount, per_game in b.money[:MONEY_SHOWN]:
        where = sources.label(rule.file, rule.line) if rule else "(the engine)"
        text = rule_text(sources, rule)
        if len(text) > 52:
            text = text[:49] + "..."
        lines.append(f"  {where:<22} {amount:>14,} {100 * amount / total:5.1f}%   "
                     f"{interval_text(per_game, '{:,.0f}'):<28}  {text}")
    return lines


def balance_json(b: Balance, sources) -> dict:
    return {
        "games": b.games, "players": b.players,
        "turns": {"median": b.turns_median, "min": b.turns_min, "max": b.turns_max},
        "figures": [f.to_json() for f in b.figures],
        "money": [{"rule": rule.text if rule else "", "file": rule.file, "line": rule.line,
                   "text": rule_text(sources, rule), "total": amount, "per_game": per_game.to_json()}
                  for rule, amount, per_game in b.money],
    }


def csv_columns(players: int) -> list[str]:
    """The columns of the one-row-per-game CSV (documented in docs/README.md)."""
    return (["seed", "players", "turns", "end_reason", "completed", "winner_seat", "first_seat", "winner_position",
             "spread", "bankruptcies", "money_paid"]
            + [f"cash_{s}" for s in range(1, players + 1)] + [f"out_{s}" for s in range(1, players + 1)])


def csv_row(g: GameRecord) -> list:
    return ([g.seed, len(g.cash), g.turns, g.reason, int(g.reason not in (TURN_LIMIT, BROKEN)),
             "" if g.winner is None else g.winner, g.first, "" if g.position is None else g.position,
             g.spread, g.bankruptcies, sum(g.money.values())]
            + list(g.cash) + [int(o) for o in g.out])
