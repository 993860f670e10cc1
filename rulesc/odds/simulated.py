"""The same figures measured in games the interpreter plays: the check on the chain, and the
figures themselves where the chain cannot follow a rule (a decision, money, another player).

Games are played by the heuristic agents, as `rulesc simulate` plays them (game i with seed
S + i); under a stated policy (`--decide`), agents that answer those decisions as stated (the
chain's figures are exact for that policy, so the check must play it too). An observer of the events notes, at each turn's start, where the previous turn's player
stands, and the square of every landing. The first turns of each player are left out (the tokens
all start on one square; the chain's law is the long run). The games are the independent units:
each figure is a ratio of sums over games, with a normal interval for a ratio (the delta method),
simultaneous over the figures of a table (Bonferroni), so that "every exact figure inside its
interval" is a fair test of the whole table at once.
"""

from __future__ import annotations

import math
from statistics import NormalDist

import attrs

from rulesc.interpreter.agents import HeuristicAgent, make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import GameEnded, RuleRuntimeError
from rulesc.interpreter.state import name_of

from .policy import FOR_RULES, Policy

BURN_IN = 8  # each player's first turns, not counted


@attrs.frozen
class Estimate:
    value: float
    low: float
    high: float

    def holds(self, exact) -> bool:
        return self.low - 1e-12 <= float(exact) <= self.high + 1e-12


@attrs.define
class Measured:
    games: int
    turns: int  # the player-turns counted
    confidence: float
    ends: list  # board index -> Estimate
    landings: list  # board index -> Estimate
    steps: Estimate  # squares moved per turn
    statuses: dict  # status -> Estimate


class DecidedAgent(HeuristicAgent):
    """The heuristic agent, but for the decisions a policy states: the option named (where offered), or
    the first or last element offered (`choose … for`). Used only to check the chain against play."""

    def __init__(self, seed, seat: int, decide: dict):
        super().__init__(seed, seat)
        self.decide = decide

    def choose(self, game, player, name, options):
        option = self.decide.get(name)
        if option in FOR_RULES and not any(name_of(o) == option for o in options):
            return options[0] if option == "first" else options[-1]
        picked = next((o for o in options if name_of(o) == option), None) if option is not None else None
        return picked if picked is not None else super().choose(game, player, name, options)


def measure(rules, games: int = 200, seed: int = 0, players: int | None = None, max_turns: int = 400,
            confidence: float = 0.99, agents: str = "heuristic", policy: Policy | None = None) -> Measured:
    board = list(rules.board) + list(rules.off_board)
    n = len(board)
    players = players or max(2, min(4, rules.players_range[1]))
    players = max(players, rules.players_range[0])
    per_game = []
    for i in range(games):
        per_game.append(_one_game(rules, players, seed + i, max_turns, n, agents, policy))
    statuses = sorted({s for g in per_game for s in g[3]}, key=lambda s: (s is not None, s or ""))
    figures = 2 * n + 1 + len(statuses)
    z = NormalDist().inv_cdf(1 - (1 - confidence) / (2 * figures))
    turns = [g[0] for g in per_game]
    ends = [_ratio([g[1][i] for g in per_game], turns, z) for i in range(n)]
    landings = [_ratio([g[2][i] for g in per_game], turns, z) for i in range(n)]
    steps = _ratio([g[4] for g in per_game], turns, z)
    by_status = {s: _ratio([g[3].get(s, 0) for g in per_game], turns, z) for s in statuses}
    return Measured(games, sum(turns), confidence, ends, landings, steps, by_status)


def _one_game(rules, players: int, seed: int, max_turns: int, n: int, agents: str, policy: Policy | None):
    if policy is not None and policy.decide:
        chosen = {seat: DecidedAgent(seed, seat, policy.decide) for seat in range(players)}
    else:
        chosen = make_agents(agents, seed, players)
    game = Game(rules, players, seed=seed, agents=chosen, record=False, turn_limit=max_turns)
    ends = [0] * n
    landings = [0] * n
    statuses: dict = {}
    counted = {"turns": 0, "steps": 0}
    begun: dict = {}
    current: list = [None]
    turn_landings: list = []  # this turn's landings and squares moved, counted if the turn is
    turn_steps = [0]
    by_name = {p.name: p for p in game.state.players}

    def close() -> None:
        p = current[0]
        if p is not None and begun[p.name] > BURN_IN:  # (a turn he went out in counts: where he fell)
            counted["turns"] += 1
            ends[p.at] += 1
            statuses[p.status] = statuses.get(p.status, 0) + 1
            for i in turn_landings:
                landings[i] += 1
            counted["steps"] += turn_steps[0]
        turn_landings.clear()
        turn_steps[0] = 0

    def observe(g, kind, where, payload) -> None:
        if kind == "turn":
            close()
            p = by_name[payload[0]]
            begun[p.name] = begun.get(p.name, 0) + 1
            current[0] = p
        elif kind == "land" and by_name[payload[0]] is current[0]:
            turn_landings.append(current[0].at)
        elif kind == "move" and by_name[payload[0]] is current[0]:
            turn_steps[0] += payload[3]

    game.observer = observe
    try:
        game.play()
    except (GameEnded, RuleRuntimeError):
        pass
    close()
    return counted["turns"], ends, landings, statuses, counted["steps"]


def _ratio(counts: list, turns: list, z: float) -> Estimate:
    """sum(counts) / sum(turns) over games, with its interval (delta method, games independent)."""
    total = sum(turns)
    if not total:
        return Estimate(math.nan, math.nan, math.nan)
    r = sum(counts) / total
    k = len(turns)
    if k < 2:
        return Estimate(r, 0.0, math.inf)
    mean_t = total / k
    var = sum((c - r * t) ** 2 for c, t in zip(counts, turns)) / (k * (k - 1) * mean_t ** 2)
    half = z * math.sqrt(var)
    return Estimate(r, max(0.0, r - half), r + half)
