"""The balance figures (`simulate`, `diff`, `sweep`), their formats and pictures, and `--jobs`: the
same output from two processes as from one, for every command that plays many games."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

import clirun
from rulesc import stats
from rulesc.balance import GameRecord, balance, csv_columns

ROOT = Path(__file__).resolve().parent.parent
FINANCE = ROOT / "games" / "finance.rules"
LEVEL1 = ROOT / "games" / "wheeler-level1.rules"
FAST_MONEY = ROOT / "examples" / "finance-fast-money.rules"


def rulesc(*args, code: int = 0):
    proc = clirun.rulesc(*args, timeout=600)
    assert proc.returncode == code, proc.stdout + proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout, proc.stderr


# ---- the figures -------------------------------------------------------------------------------------------

def record(seed, turns, reason, winner, first=1, cash=(10, 0, 5), out=(False, True, False), money=None):
    return GameRecord(seed, turns, reason, winner, first, cash, out, money or {})


def test_the_table_counts_what_the_games_show():
    games = [record(0, 30, "last player standing", 1), record(1, 50, "turn limit", None),
             record(2, 40, "last player standing", 3, first=2), record(3, 20, "last player standing", 1)]
    b = balance(games, 3)
    assert b.figure("turns").interval == stats.mean([30, 50, 40, 20])
    assert b.figure("completed").interval == stats.wilson(3, 4)
    assert b.figure("timeouts").interval == stats.wilson(1, 4)
    assert b.figure("seat_1_won").interval == stats.wilson(2, 4)
    assert b.figure("seat_2_won").interval.value == 0
    assert b.figure("spread").interval.value == 10 and b.figure("bankruptcies").interval.value == 1
    # seat 3 won game 2, in which seat 2 moved first: second in the turn order
    assert b.figure("position_2_won").interval == stats.wilson(1, 4)
    assert b.get("ended:turn limit") is None  # timeouts are their own figure
    assert b.turns_median == 35 and (b.turns_min, b.turns_max) == (20, 50)


def test_turn_order_figures_only_where_the_first_player_varies():
    b = balance([record(0, 30, "x", 1), record(1, 40, "x", 2)], 3)
    assert not [f for f in b.figures if f.key.startswith("position_")]


# ---- simulate: text, JSON, CSV ---------------------------------------------------------------------------

@pytest.mark.slow
def test_simulate_prints_every_figure_with_its_interval():
    out, _ = rulesc("simulate", FINANCE, "-n", "12", "--seed", "2", "--jobs", "1")
    for line in ("turns per game:  mean", "final cash spread", "players eliminated per game",
                 "ended by a rule (not the turn limit)", "reached the turn limit", "seat 1 won",
                 "1st to move won", "where money went"):
        assert line in out, out
    seat = next(line for line in out.splitlines() if "seat 1 won" in line)
    assert "%" in seat and "[" in seat and "]" in seat  # a share and its interval


@pytest.mark.slow
def test_simulate_json_and_csv_agree_and_load_as_tables():
    args = (FINANCE, "-n", "10", "--seed", "5", "--jobs", "1")
    data = json.loads(rulesc("simulate", *args, "--format", "json")[0])
    rows = list(csv.DictReader(io.StringIO(rulesc("simulate", *args, "--format", "csv")[0])))
    assert data["games"] == len(rows) == 10
    assert list(rows[0]) == csv_columns(4)
    assert [int(r["seed"]) for r in rows] == list(range(5, 15))
    turns = next(f for f in data["figures"] if f["key"] == "turns")
    assert turns["value"] == pytest.approx(sum(int(r["turns"]) for r in rows) / 10)
    assert turns["low"] <= turns["value"] <= turns["high"]
    seat = next(f for f in data["figures"] if f["key"] == "seat_2_won")
    assert seat["value"] == sum(r["winner_seat"] == "2" for r in rows) / 10
    for r in rows:  # the spread is the richest's cash minus the poorest's
        cash = [int(r[f"cash_{s}"]) for s in range(1, 5)]
        assert int(r["spread"]) == max(cash) - min(cash)
    assert data["money"][0]["per_game"]["value"] * 10 == pytest.approx(data["money"][0]["total"])


# ---- --jobs: the output of one process -------------------------------------------------------------------

@pytest.mark.slow
def test_diff_with_two_jobs_prints_the_table_of_one():
    args = ("diff", FINANCE, FAST_MONEY, "--games", "16", "--seed", "3")
    one, _ = rulesc(*args, "--jobs", "1")
    two, _ = rulesc(*args, "--jobs", "2")
    assert one == two and "turns per game: base" in one and "players eliminated per game" in one


@pytest.mark.slow
def test_check_whole_games_with_two_jobs_report_what_one_does():
    """Every whole game breaks the late invariant: the games played elsewhere with it not yet set aside
    are played again as one process would have, so the report is the same, failure and all."""
    late = ROOT / "examples" / "broken" / "late_invariant.rules"
    args = ("check", late, "--examples", "0", "--games", "6")
    one, _ = rulesc(*args, "--jobs", "1", code=1)
    two, _ = rulesc(*args, "--jobs", "2", code=1)
    assert one == two
    assert "whole games: 6 with the heuristic agents" in one and "FAILED  the short game is over by turn 240" in one


@pytest.mark.slow
def test_jobs_must_be_a_number_of_processes_everywhere():
    for command in (("diff", FINANCE, FAST_MONEY), ("check", FINANCE), ("sweep", FINANCE)):
        _, err = rulesc(*command, "--jobs", "0", code=2)
        assert "number of processes" in err


# ---- sweep ------------------------------------------------------------------------------------------------

SWEEP = ("sweep", FINANCE, "--set", "circuit_income=$150..$350", "step", "$100", "--games", "8", "--seed", "1")


@pytest.mark.slow
def test_a_sweep_has_one_row_per_value_each_the_simulation_of_that_value():
    out, _ = rulesc(*SWEEP, "--jobs", "1")
    rows = [line for line in out.splitlines() if line.startswith("$")]
    assert [r.split()[0] for r in rows[:3]] == ["$150", "$250", "$350"]
    assert "seat 4 won" in out and "ended by a rule" in out
    # each row is the balance table of `simulate --set` with that value, on the same seeds
    swept = json.loads(rulesc(*SWEEP, "--jobs", "1", "--format", "json")[0])
    for value in ("$150", "$350"):
        sim = json.loads(rulesc("simulate", FINANCE, "-n", "8", "--seed", "1", "--jobs", "1", "--format", "json",
                                "--set", f"circuit_income={value}")[0])
        row = next(r for r in swept["rows"] if r["text"] == value)
        assert row["figures"] == sim["figures"]


@pytest.mark.slow
def test_a_sweep_with_two_jobs_is_the_sweep_of_one_in_every_format():
    for fmt in ("text", "csv"):
        one, _ = rulesc(*SWEEP, "--jobs", "1", "--format", fmt)
        two, _ = rulesc(*SWEEP, "--jobs", "2", "--format", fmt)
        assert one == two
    table = list(csv.DictReader(io.StringIO(two)))
    assert [r["circuit_income"] for r in table] == ["150", "250", "350"]
    assert {"turns", "turns_low", "turns_high", "seat_1_won", "completed_high"} <= set(table[0])


@pytest.mark.slow
def test_a_sweep_of_a_count_with_another_parameter_fixed():
    args = ("sweep", FINANCE, "--set", "house_cap=1..3", "--games", "3", "--jobs", "1")
    out, _ = rulesc(*args, "--set", "circuit_income=$400")
    assert [line.split()[0] for line in out.splitlines()[3:6]] == ["1", "2", "3"]
    assert out != rulesc(*args)[0]  # the fixed parameter changed the games


@pytest.mark.slow
@pytest.mark.parametrize("words,message", [
    (["circuit_income=$100"], "one `--set NAME=FROM..TO"),
    (["circuit_income=$300..$100", "step", "$100"], "FROM <= TO"),
    (["circuit_income=$100..$300"], "say the step"),
    (["circuit_income=$100..$300", "step", "0"], "the step must be an amount"),
    (["circuit_income=$1..$100,000", "step", "$1"], "at most"),
    (["nosuch=$1..$3", "step", "$1"], "error[R0011]: `--set nosuch`: the rules have no parameter `nosuch`"),
    (["house_cap=1..$3"], "same kind"),
])
def test_a_bad_sweep_is_a_usage_error(words, message):
    _, err = rulesc("sweep", FINANCE, "--set", *words, "--games", "2", code=2)
    assert message in err


# ---- pictures ----------------------------------------------------------------------------------------------

PNG = b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_each_command_draws_its_picture(tmp_path):
    rulesc("simulate", LEVEL1, "-n", "6", "--players", "3", "--quiet", "--plot", tmp_path / "sim.png")
    rulesc("diff", FINANCE, FAST_MONEY, "--games", "6", "--plot", tmp_path / "diff.svg")
    _, err = rulesc(*SWEEP, "--format", "json", "--plot", tmp_path / "sweep.png")
    assert "wrote" in err  # stdout is the JSON alone
    for name in ("sim.png", "sweep.png"):
        data = (tmp_path / name).read_bytes()
        assert data.startswith(PNG) and len(data) > 20_000, name
    svg = (tmp_path / "diff.svg").read_text(encoding="utf-8")
    assert svg.lstrip().startswith("<?xml") and "<svg" in svg and svg.rstrip().endswith("</svg>")


@pytest.mark.slow
def test_the_same_games_draw_the_same_svg(tmp_path):
    for name in ("a.svg", "b.svg"):
        rulesc("simulate", FINANCE, "-n", "5", "--quiet", "--jobs", "1", "--plot", tmp_path / name)
    assert (tmp_path / "a.svg").read_bytes() == (tmp_path / "b.svg").read_bytes()


@pytest.mark.slow
def test_a_plot_that_cannot_be_drawn_is_refused_before_any_game(tmp_path):
    _, err = rulesc("simulate", FINANCE, "-n", "100000", "--plot", tmp_path / "x.txt", code=2)
    assert ".png, .svg or .pdf" in err
    _, err = rulesc("simulate", FINANCE, "-n", "100000", "--plot", tmp_path / "no" / "x.png", code=2)
    assert "no folder" in err
    _, err = rulesc("diff", FINANCE, FAST_MONEY, "--plot", tmp_path / "x.png", code=2)
    assert "--games" in err


@pytest.mark.parametrize("path", [FINANCE, LEVEL1])
def test_the_figures_played_with_events_off_are_those_the_log_shows(path):
    """simulate, diff and sweep play with events off and read the game's tallies (money paid per rule,
    the first seat): they must be what the event log of the same game, recorded, says."""
    from rulesc.balance import record_game
    from rulesc.interpreter.agents import make_agents
    from rulesc.interpreter.engine import Game
    from rulesc.interpreter.rules import load_rules

    rules = load_rules(str(path))
    for seed in range(6):
        game = Game(rules, 3, seed=seed, agents=make_agents("heuristic", seed, 3))
        game.play()
        money: dict = {}
        for event in game.events:
            if event.kind == "pay":
                money[event.rule] = money.get(event.rule, 0) + event.payload[0]
        first = next(e.payload[0] for e in game.events if e.kind == "first")
        figures = record_game(rules, 3, seed)
        assert figures.money == money and list(figures.money) == list(money)  # the same sums, in the same order
        assert figures.first == next(p.seat + 1 for p in game.state.players if p.name == first)
        assert (figures.turns, figures.cash) == (game.state.turn, tuple(p.f["cash"] for p in game.state.players))
        assert sum(money.values()) > 0
