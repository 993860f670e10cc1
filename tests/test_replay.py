"""Replay from a log: the same game comes back event for event, a change shows where it bites, and
`run --replay` refuses the options it cannot apply and names the file the log was played with."""

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
MINIMAL = (Path(__file__).parent / "cli_data" / "minimal.rules").read_text(encoding="utf-8")


def changed(old: str, new: str, text: str = MINIMAL) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


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
    game, left = play_at_terminal(rules, 2, 0, 5, inp=answers, out=io.StringIO())
    assert left == "the input ended"  # the game stops there, and its log replays up to there
    log = read_log(events_to_jsonl(game.events))
    result = replay(rules, log, unfinished=True)
    assert result.first_difference is None and result.events == len(log)
    cut = replay(rules, log)  # a log not marked as left unfinished: its end is a difference
    assert cut.first_difference == len(log) and cut.expected is None


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


@pytest.mark.slow
def test_a_replay_refuses_the_options_it_cannot_apply_and_names_the_file_it_was_played_with(tmp_path):
    base, log = tmp_path / "base.rules", tmp_path / "game.jsonl"
    base.write_text(MINIMAL)
    assert rulesc("run", base, "--seed", "3", "--log", log)[0] == 0
    code, _, err = rulesc("run", base, "--replay", log, "--log", tmp_path / "again.jsonl")
    assert code == 2 and "--log cannot apply" in err and not (tmp_path / "again.jsonl").exists()
    assert rulesc("run", base, "--replay", log, "--seed", "3", "--players", "4")[0] == 0  # the log's own
    for option, value, logged in (("--seed", "9", "3"), ("--players", "3", "4")):
        code, _, err = rulesc("run", base, "--replay", log, option, value)
        assert code == 2 and f"is of the game of {option} {logged}, not {value}" in err, err
    other = tmp_path / "other.rules"
    other.write_text(changed("param salary = $100", "param salary = $150"))
    code, out, _ = rulesc("run", other, "--replay", log)
    assert code == 1 and f"note: this log was played with `{base}`, not `{other}`" in out
