"""Play many games and summarise them: length, end reasons, wins by seat, where money went.

Game `i` of a run with seed `S` is played with seed `S + i`, so a summary is the same
every time for the same arguments, and any one game can be replayed with `rulesc run
--seed S+i`. The summary holds no timings: those go to stderr, so stdout stays
byte-for-byte reproducible.
"""

from __future__ import annotations

import collections
import statistics
from typing import Callable

import attrs

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import field_index
from rulesc.interpreter.rules import Rules

from .sources import RuleSources

PAY_AMOUNT = field_index("pay", "amount")


@attrs.define
class Summary:
    title: str
    games: int
    players: int
    agents: str
    seed: int
    turns: list = attrs.Factory(list)
    reasons: collections.Counter = attrs.Factory(collections.Counter)
    wins: collections.Counter = attrs.Factory(collections.Counter)
    money_by_rule: collections.Counter = attrs.Factory(collections.Counter)  # RuleRef -> money paid
    broken: list = attrs.Factory(list)  # with `check`: (seed, Failure) of each game that broke an invariant

    @property
    def total_turns(self) -> int:
        return sum(self.turns)


def play_one(rules: Rules, players: int, seed: int, agents: str, record: bool = True) -> Game:
    game = Game(rules, players, seed=seed, agents=make_agents(agents, seed, players), record=record)
    game.play()
    return game


def simulate(rules: Rules, games: int, seed: int, players: int, agents: str = "heuristic",
             progress: Callable[[int], None] | None = None, check: bool = False) -> Summary:
    """Play `games` games; with `check`, every invariant is checked after every event, and a game
    that breaks one stops there and is listed in `broken`."""
    summary = Summary(rules.title, games, players, agents, seed)
    for i in range(games):
        if check:
            from .properties import play_checked
            game = Game(rules, players, seed=seed + i, agents=make_agents(agents, seed + i, players))
            failure = play_checked(rules, game)
            if failure is not None:
                summary.broken.append((seed + i, failure))
        else:
            game = play_one(rules, players, seed + i, agents)
        state = game.state
        summary.turns.append(state.turn)
        summary.reasons[state.end_reason or "broke an invariant"] += 1
        if state.winner is not None:
            summary.wins[state.winner.seat + 1] += 1
        for event in game.events:
            if event.kind == "pay":
                summary.money_by_rule[event.rule] += event.payload[PAY_AMOUNT]
        if progress is not None:
            progress(i + 1)
    return summary


def format_summary(s: Summary, sources: dict) -> str:
    """The summary as text; `sources` maps each rules file's path to its text, to quote rules."""
    rule_sources = RuleSources(sources)
    turns = s.turns or [0]
    lines = [
        f"{s.title}: {s.games} games, {s.players} players, {s.agents} agents, seeds {s.seed}..{s.seed + s.games - 1}",
        "",
        "turns per game:  mean {:.1f}  median {:.0f}  min {}  max {}".format(
            statistics.fmean(turns), statistics.median(turns), min(turns), max(turns)),
        "",
        "how games ended:",
    ]
    for reason, count in sorted(s.reasons.items(), key=lambda kv: (-kv[1], str(kv[0]))):
        lines.append(f"  {reason:<28} {count:>7}  {100 * count / s.games:5.1f}%")
    lines += ["", "wins by seat (seat 1 moves first only if it rolls highest):"]
    decided = sum(s.wins.values())
    for seat in range(1, s.players + 1):
        count = s.wins.get(seat, 0)
        share = 100 * count / decided if decided else 0.0
        lines.append(f"  seat {seat}  {count:>7}  {share:5.1f}%")
    lines += ["", "where money went (all games, by rule):"]
    total = sum(s.money_by_rule.values()) or 1
    by_amount = sorted(s.money_by_rule.items(), key=lambda kv: (-kv[1], kv[0].text, kv[0].file, kv[0].line))
    for rule, amount in by_amount[:10]:
        where = rule_sources.label(rule.file, rule.line) if rule else ""
        text = rule_sources.text(rule).split("§")[0].split(" assumed")[0].strip()
        if len(text) > 60:
            text = text[:57] + "..."
        lines.append(f"  {where:<22} {amount:>14,}  {100 * amount / total:5.1f}%  {text}")
    return "\n".join(lines) + "\n"


def format_broken(s: Summary, command: str) -> str:
    """`simulate --check`: which games broke an invariant, each with the command that replays it."""
    if not s.broken:
        return "\ninvariants: checked after every event of every game; all held\n"
    lines = ["", f"invariants: {len(s.broken)} of {s.games} games broke one (each stopped there):"]
    for game_seed, f in s.broken:
        lines.append(f"  seed {game_seed}: {f.invariant} at turn {f.turns}, rule {f.rule or 'none'}: {f.message}")
        lines.append(f"    replay: {command} --seed {game_seed} --check")
    return "\n".join(lines) + "\n"
