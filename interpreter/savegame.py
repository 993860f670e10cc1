"""Saving a game between two turns and playing it on later: the same game, event for event.

The pieces were there (the state's lossless JSON, `interpreter.state.state_to_json` and
`state_from_json`; each agent's memory, `interpreter.agents.agents_to_json` and `agents_from_json`),
but resuming took poking a new `Game`'s insides (its state, its list of players still in, whether
it has been set up). This module is that, once:

    game = Game(rules, 4, seed=7, agents=make_agents("random", 7, 4))
    play_turns(game, 20)                          # set up, then turns 1..20
    text = json.dumps(save_game(game))            # between turns 20 and 21
    ...
    game = load_game(rules, json.loads(text), make_agents("random", 0, 4))
    game.play()                                   # turns 21.. as the unsaved game plays them

A game is saved between turns only (after its setup, or after a whole turn), where no rule is
running: nothing but the state and the agents' memory carries over from one turn to the next.
What the engine keeps beside them (the change counters and what it caches under them) starts
afresh in the loaded game and is worked out again as it is needed.
"""

from __future__ import annotations

from .agents import agents_from_json, agents_to_json
from .engine import Game
from .errors import GameEnded
from .rules import Rules
from .state import state_from_json, state_to_json

FORMAT = 1  # the version of a saved game's JSON


def play_turns(game: Game, turns: int) -> None:
    """Set `game` up if it is not yet, then play whole turns until `turns` have been played (the
    state's `turn` is `turns`) or the game is over: it stops between two turns, where it may be saved."""
    if not game.started:
        game.setup()
    state = game.state
    while not state.over and state.turn < turns:
        try:
            game.play_turn()
        except GameEnded:
            pass


def save_game(game: Game) -> dict:
    """`game`, between two turns, as JSON data: the state, each seat's agent's memory, and what the
    game was started with that the state does not say (the seed of its log's header, its turn limit,
    the seat that moved first)."""
    if not game.started:
        raise ValueError("the game has not been set up: save it after `setup` or a turn")
    if game.rules_running or game.depth:
        raise ValueError("a rule is running: a game is saved between turns")
    return {
        "format": FORMAT,
        "rules": game.rules.title,
        "seed": game.seed,
        "turn_limit": game.turn_limit,
        "first_seat": game.first_seat,
        "state": state_to_json(game.state),
        "agents": agents_to_json(game.agents),
    }


def load_game(rules: Rules, data: dict, agents: dict | None = None, record: bool = True) -> Game:
    """The game `save_game` saved, ready to `play` on (or `play_turn` by turn). `agents` are the seats'
    agents, of the kinds the saved game had (their saved memory is restored into them); `record`
    whether the loaded game keeps its events (those of the turns after the save)."""
    if data.get("format") != FORMAT:
        raise ValueError(f"not a saved game of this version of rulesc (format {data.get('format')!r})")
    names = [p["name"] for p in data["state"]["players"]]
    game = Game(rules, names, seed=data["seed"], agents=agents, record=record, turn_limit=data["turn_limit"])
    if agents is not None:
        agents_from_json(agents, data["agents"])
    game.state = state_from_json(data["state"], game.things, game.squares, rules.player_class)
    game.things = game.state.things
    game.active = [p for p in game.state.players if not p.out]
    game.first_seat = data.get("first_seat")
    game.started = True
    return game
