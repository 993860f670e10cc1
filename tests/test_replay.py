"""Replay from a log: the same game comes back event for event, and a change shows where it bites."""

from __future__ import annotations

import io
from pathlib import Path

import pytest

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import events_to_jsonl
from rulesc.interpreter.rules import load_rules
from rulesc.play import play_at_terminal
from rulesc.replay import read_log, replay

from clirun import rulesc

GAMES = Path(__file__).resolve().parent.parent / "games"


@pytest.mark.parametrize("file", ["finance.rules", "wheeler.rules"])
@pytest.mark.parametrize("agents", ["heuristic", "random"])
def test_a_bot_game_replays_event_for_event(file, agents):
    rules = load_rules(str(GAMES / file))
    for seed in range(3):
        game = Game(rules, 3, seed=seed, agents=make_agents(agents, seed, 3))
        game.play()
        result = replay(rules, read_log(events_to_jsonl(game.events)))
        assert result.first_difference is None, (result.expected, result.actual)
        assert result.events == len(game.events)


def test_a_game_played_at_the_terminal_replays():
    rules = load_rules(str(GAMES / "finance.rules"))
    answers = io.StringIO("25\n\n1\n0\n" * 5)
    game = play_at_terminal(rules, 2, 0, 5, inp=answers, out=io.StringIO())
    result = replay(rules, read_log(events_to_jsonl(game.events)))
    assert result.first_difference is None


@pytest.mark.slow
def test_a_changed_rule_shows_where_the_replay_departs(tmp_path):
    log = tmp_path / "game.jsonl"
    run = ["run", str(GAMES / "finance.rules"), "--seed", "4"]
    assert rulesc(*run, "--log", str(log)).returncode == 0
    same = rulesc(*run, "--replay", str(log))
    assert same.returncode == 0 and "the same game" in same.stdout
    changed = rulesc(*run, "--replay", str(log), "--set", "circuit_income=$200")
    assert changed.returncode == 1
    assert '"amount": 250' in changed.stdout and '"amount": 200' in changed.stdout


def test_a_file_that_is_not_a_log_is_a_usage_error(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("this is not json\n")
    proc = rulesc("run", str(GAMES / "finance.rules"), "--replay", str(bad))
    assert proc.returncode == 2 and "not an event log" in proc.stderr and "Traceback" not in proc.stderr
