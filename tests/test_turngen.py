"""The turn and the arrivals written out per rules file (interpreter/turngen.py) keep the general rules
of play: all of an arrival's conditions are tested before any handler runs, passed squares are told
in moving order, and an agent that speaks only in its own turn is not asked in the others'."""

from __future__ import annotations

import pytest

from pathlib import Path

from rulesc.interpreter.agents import Agent, make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import GameEnded
from rulesc.interpreter.events import events_to_jsonl
from rulesc.interpreter.rules import load_rules

MINIMAL = (Path(__file__).parent / "cli_data" / "minimal.rules").read_text()
GAMES = Path(__file__).resolve().parent.parent / "games"


def game_of(tmp_path, extra: str, board: str | None = None, agents=None) -> Game:
    text = MINIMAL + "\n" + extra
    if board is not None:
        text = text.replace("    Go, Red, Rest, Blue\n", board)
    path = tmp_path / "game.rules"
    path.write_text(text)
    game = Game(load_rules(str(path)), ["Ann", "Bob"], seed=1, agents=agents or make_agents("heuristic", 1, 2))
    game.setup()
    game.state.current = 0
    return game


def cash(game: Game, name: str) -> int:
    return next(p.f["cash"] for p in game.state.players if p.name == name)


def test_an_arrivals_conditions_are_all_tested_before_any_handler_runs(tmp_path):
    """Buying Red makes Ann its owner; the handler for an owner arriving must not see that on the
    same arrival, and does on the next."""
    game = game_of(tmp_path, "on land Lot l when l.owner == player:\n    pay $7 from player to bank\n")
    game.forced_dice = [(1, 0)]
    game.play_turn()
    assert cash(game, "Ann") == 500 - 60  # bought, not charged $7
    ann = game.state.players[0]
    ann.at = 0
    game.state.current = 0
    game.forced_dice = [(1, 0)]
    game.play_turn()
    assert cash(game, "Ann") == 500 - 60 - 7


def test_passed_squares_are_told_in_moving_order_and_twice_round_the_board_twice(tmp_path):
    board = "    Go, Red, Toll, Rest, Blue\n"
    extra = ('square Toll "Toll"\n'
             "on pass Toll:\n    pay $1 from player to bank\n")
    game = game_of(tmp_path, extra, board)
    ann = game.state.players[0]
    ann.at = 1  # Red: Toll, then Go, are ahead
    game.forced_dice = [(2, 2)]  # four: to Go, passing Toll, then reaching Go (which counts as passing it)
    game.play_turn()
    passes = [e.payload[1] for e in game.events if e.kind == "pass"]
    assert passes == ["Toll", "Go"]
    assert cash(game, "Ann") == 500 - 1 + 100
    game.events.clear()
    ann.at = 1
    game.move(ann, "by", 11, None)  # more than twice round: Toll and Go twice, Toll a third time
    assert [e.payload[1] for e in game.events if e.kind == "pass"] == ["Toll", "Go", "Toll", "Go", "Toll"]


def test_squares_with_the_same_handlers_share_one_arrival_function(tmp_path):
    game = game_of(tmp_path, "")
    written = game.rules.written
    red, blue = game.rules.board.index("Red"), game.rules.board.index("Blue")
    assert written.land[red] is written.land[blue] is not None
    assert written.land[game.rules.board.index("Rest")] is None
    assert written.passing[game.rules.board.index("Go")] is not None


class Counting(Agent):
    """Keeps the base `wants_window` (speaks only in its own turn) and counts the windows it gets."""

    def __init__(self):
        self.windows = 0

    def act(self, game, player, options, raising):
        self.windows += 1
        return None


class Eager(Counting):
    """Asks for a window in every turn."""

    def wants_window(self, game, player, own_turn):
        return True


def test_an_agent_that_speaks_only_in_its_own_turn_gets_windows_only_then(tmp_path):
    extra = "action shout any time:\n    pay $1 from player to bank\n"
    quiet, eager = Counting(), Eager()
    game = game_of(tmp_path, extra, agents={0: quiet, 1: eager})
    for _ in range(6):
        game.play_turn()
    assert quiet.windows == 3  # its own three turns
    assert eager.windows == 6  # every turn


@pytest.mark.slow
def test_a_game_of_quiet_agents_gives_each_player_his_window_as_the_turn_by_turn_loop_does():
    """`Game.play` knows when every agent is quiet and opens the player's window alone, and plays
    its turns in one loop (`play_turn(g, whole=True)`): the same games as playing turn by turn (`play_turn`), where
    every agent is looked at. With hooks (Wall Street, Wheeler), a status (the jail house rule) and
    extra turns (Wheeler's)."""
    skipped = 0  # turns that passed over a seat that is out (the next seat's loop)
    for path in ("finance", "wheeler", "wallstreet-short", "../examples/finance-doubles-jail"):
        rules = load_rules(str(GAMES / f"{path}.rules"))
        for seed in range(2):
            whole = Game(rules, 3, seed=seed, agents=make_agents("heuristic", seed, 3))
            whole.play()
            assert whole.all_quiet is False  # only while playing
            by_turn = Game(rules, 3, seed=seed, agents=make_agents("heuristic", seed, 3))
            by_turn.setup()
            assert not by_turn.all_quiet
            try:
                while not by_turn.state.over:
                    by_turn.play_turn()
            except GameEnded:
                pass
            assert events_to_jsonl(whole.events) == events_to_jsonl(by_turn.events)
            assert sum(e.kind == "window" for e in whole.events) > whole.state.turn // 2  # windows were opened
            seats = [int(e.payload[0][1:]) for e in whole.events if e.kind == "turn"]
            skipped += sum((b - a) % 3 == 2 for a, b in zip(seats, seats[1:]))
    assert skipped


def test_the_log_keeps_plain_values_and_hands_out_events(tmp_path):
    """EventLog: what the engine appends (a plain tuple, its values kept flat) is read back as an
    Event, however it is read, and as the tuple it was by `rows`."""
    from rulesc.interpreter.events import Event

    game = game_of(tmp_path, "")
    game.play_turn()
    log = game.events
    assert all(type(item) is tuple for item in log.rows())
    assert [(*row[:3], row[3:]) for row in log.rows()] == list(log)  # one flat row: turn, kind, rule, payload...
    assert [e.payload for e in log if e.kind == "roll"] == [row[3:] for row in log.rows() if row[1] == "roll"]
    assert all(isinstance(e, Event) for e in log)
    assert log[0].kind == "setup" and log[-1].kind == list(log)[-1].kind
    assert [e.kind for e in log[1:3]] == [e.kind for e in list(log)[1:3]]
    assert next(reversed(log)).turn == log[-1].turn
    last = log[-1]
    assert log.pop() == last and isinstance(last, Event) and len(log) == len(list(log))
    events = list(log)
    assert log.pop(1) == events[1] and list(log) == events[:1] + events[2:]  # one from the middle
    log.append((9, "extra", events[0].rule, "P1"))  # read again as it grows
    assert log[-1] == Event(9, "extra", events[0].rule, ("P1",)) and len(log) == len(events)
    log.clear()
    assert not log and len(log) == 0 and list(log) == [] and list(log.rows()) == []


@pytest.mark.slow
def test_the_watched_turn_plays_the_games_the_written_turn_plays():
    """With `on_settled` set (the property checker watching), the turn and the arrivals call each rule
    through its wrapper instead of running its statements in place: the same game, event for event."""
    root = Path(__file__).resolve().parent.parent
    for name in ("games/finance.rules", "games/wheeler.rules", "examples/finance-doubles-jail.rules"):
        rules = load_rules(str(root / name))
        for seed in range(3):
            logs, settled = [], []
            for watched in (False, True):
                game = Game(rules, 3, seed=seed, agents=make_agents("heuristic", seed, 3))
                if watched:
                    game.on_settled = lambda: settled.append(1)
                game.play()
                logs.append(events_to_jsonl(game.events))
            assert logs[0] == logs[1], name
            assert settled  # the watched path was taken
