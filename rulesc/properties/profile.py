"""A whole game's profile: what the judge (rulesc/judge/) compares between a variant's games and its base's.

Coverage (rulesc/properties/coverage.py) says which lines ran; the judge also needs how the game went:
how long it lasted and how it ended, who won from which seat, which actions were taken, how long
players stayed in each status, and which handlers both moved money on one arrival. `Profiler` is an
event observer that records that as a game runs; `GameProfile` is the small plain record it leaves
(it comes back from a worker process). `play_profiled` plays one seeded game with the heuristic agents
and profiles it, for a base's games, which are played only to be compared with.
"""

from __future__ import annotations

from typing import NamedTuple

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import field_index
from rulesc.interpreter.rules import Rules
from .coverage import Coverage

TURN_PLAYER = field_index("turn", "player")
LAND_SQUARE, PASS_SQUARE = field_index("land", "square"), field_index("pass", "square")
ACTION_NAME = field_index("action", "action")
PAY_FROM, PAY_TO = field_index("pay", "from"), field_index("pay", "to")
STATUS_PLAYER, STATUS_NAME = field_index("status", "player"), field_index("status", "status")
END_REASON, END_WINNER = field_index("end", "reason"), field_index("end", "winner")

MIN_TURNS_FOR_STAY = 8  # a player with fewer turns in a game says nothing about how long a status holds him


class GameProfile(NamedTuple):
    """How one whole game went."""

    seed: int
    players: int
    turns: int
    end_reason: str | None  # an end's reason, "turn limit", or None when an invariant stopped the game
    end_where: tuple | None  # (file, line) of the rule that ended it, if one did
    winner_seat: int | None  # 0-based seat of the winner, or None
    first_round: bool  # the game ended before every player had played a second turn
    actions: frozenset  # names of the actions taken
    stays: dict  # status -> the largest share of his own turns one player spent in it (players with enough turns)
    double_pays: frozenset  # ((file, line), (file, line)): two handlers of one arrival that charged one payer for one payee


class Profiler:
    """An event observer that records a `GameProfile` of the game it watches. `handlers` maps a line
    of a money-moving `on land`/`on pass` handler to the handler's (file, first line) and the squares
    it is for: a payment made on such a line while a player's arrival is being handled is that handler's."""

    def __init__(self, handlers: dict):
        self.handlers = handlers
        self.actions: set = set()
        self.status: dict = {}  # player -> the status he is in
        self.turns: dict = {}  # player -> his turns
        self.held: dict = {}  # (player, status) -> his turns in it
        self.arrival = None  # the square of the arrival being handled
        self.paid: dict = {}  # handler -> the (payer, payee) pairs it paid between, for the arrival being handled
        self.double_pays: set = set()
        self.end_reason = None
        self.end_where = None
        self.winner = None

    def __call__(self, game, kind, where, payload) -> None:
        if kind == "pay":
            handler = self.handlers.get((where.file, where.line))
            if handler is not None and self.arrival in handler[1]:
                parties = (payload[PAY_FROM], payload[PAY_TO])
                for other, paid in self.paid.items():
                    if other != handler[0] and parties in paid:
                        self.double_pays.add((other, handler[0]))
                self.paid.setdefault(handler[0], set()).add(parties)
        elif kind == "land" or kind == "pass":
            self.arrival = payload[LAND_SQUARE if kind == "land" else PASS_SQUARE]
            self.paid = {}
        elif kind == "turn":
            player = payload[TURN_PLAYER]
            self.arrival = None
            self.turns[player] = self.turns.get(player, 0) + 1
            status = self.status.get(player)
            if status is not None:
                self.held[player, status] = self.held.get((player, status), 0) + 1
        elif kind == "action":
            self.actions.add(payload[ACTION_NAME])
        elif kind == "status":
            self.status[payload[STATUS_PLAYER]] = payload[STATUS_NAME]
        elif kind == "end":
            self.end_reason, self.winner = payload[END_REASON], payload[END_WINNER]
            self.end_where = (where.file, where.line) if where else None

    def profile(self, game: Game, seed: int) -> GameProfile:
        state = game.state
        names = [p.name for p in state.players]
        stays: dict = {}
        for (player, status), held in self.held.items():
            turns = self.turns.get(player, 0)
            if turns >= MIN_TURNS_FOR_STAY:
                stays[status] = max(stays.get(status, 0.0), held / turns)
        reason = state.end_reason if state.over else None
        winner = state.winner.name if state.winner is not None else None
        return GameProfile(
            seed=seed, players=len(names), turns=state.turn, end_reason=reason,
            end_where=self.end_where if state.over else None,
            winner_seat=names.index(winner) if winner in names else None,
            first_round=state.over and state.turn <= len(names), actions=frozenset(self.actions),
            stays=stays, double_pays=frozenset(self.double_pays))


def paying_handlers(rules: Rules) -> dict:
    """Every line of an `on land`/`on pass` handler that makes a payment, mapped to (the handler's
    (file, line), the squares it handles)."""
    from rulesc.dsl import ast, walk

    p = rules.program
    lines: dict = {}
    for h in p.handlers:
        if h.event not in ("land", "pass") or h.target is None:
            continue
        if h.target in p.kinds:
            squares = frozenset(name for name, thing in p.things.items() if thing.kind == h.target)
        else:
            squares = frozenset({h.target})
        file = h.span.file or p.path
        for st in walk.statements(h.body):
            if isinstance(st, ast.Pay):
                lines[file, st.span.line] = ((file, h.span.line), squares)
    return lines


def play_profiled(rules: Rules, seed: int, players: int, max_turns: int) -> tuple[GameProfile, Coverage]:
    """One seeded game with the heuristic agents, played to its end only to be profiled (a base's game):
    its profile and coverage. A game whose rules break stops there, profiled as far as it went."""
    from rulesc.interpreter.errors import AgentError, RuleRuntimeError

    game = Game(rules, players, seed=seed, agents=make_agents("heuristic", seed, players), record=False,
                turn_limit=max_turns)
    profiler, coverage = Profiler(paying_handlers(rules)), Coverage()

    def observe(g, kind, where, payload):
        coverage.event(kind, where, payload)
        profiler(g, kind, where, payload)

    game.observer = observe
    try:
        game.play()
    except (RuleRuntimeError, AgentError, RecursionError):
        pass
    return profiler.profile(game, seed), coverage
