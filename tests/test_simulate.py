"""`rulesc simulate`: a full, reproducible summary on stdout, timings on stderr only."""

from __future__ import annotations

import pytest

import subprocess
import sys
from pathlib import Path

import clirun

GAMES = Path(__file__).resolve().parent.parent / "games"


def simulate(*args):
    proc = clirun.rulesc("simulate", *args, timeout=300)
    assert proc.returncode == 0, proc.stderr
    return proc.stdout, proc.stderr


@pytest.mark.slow
def test_the_summary_has_every_section_and_is_the_same_twice():
    first, err = simulate(GAMES / "finance.rules", "-n", "20", "--seed", "1")
    second, _ = simulate(GAMES / "finance.rules", "-n", "20", "--seed", "1")
    assert first == second
    assert first.startswith("FINANCE (1932): 20 games, 4 players, heuristic agents, seeds 1..20")
    for section in ("turns per game:", "how games ended:", "wins by seat", "where money went",
                    "final cash spread", "players eliminated per game", "reached the turn limit"):
        assert section in first
    assert "pay circuit_income from bank to player" in first  # money is attributed to its rule's text
    assert "player-turns/s" in err and "player-turns/s" not in first


@pytest.mark.slow
def test_a_variant_quotes_the_rules_it_inherits_from_its_base():
    out, _ = simulate(GAMES / "wheeler-level1.rules", "-n", "5", "--seed", "1", "--players", "3")
    assert out.startswith("Wheeler Dealer, Level One: 5 games, 3 players")
    money = out.split("where money went")[1]
    assert "wheeler.rules:" in money and "pay c.stake from p to bank" in money


# ---- --jobs: the same summary whatever the number of processes ------------------------------------------

def simulate_status(*args):
    proc = clirun.rulesc("simulate", *args, timeout=300)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.slow
def test_two_jobs_give_the_summary_of_one():
    one, _ = simulate(GAMES / "finance.rules", "-n", "40", "--seed", "3", "--jobs", "1")
    two, err = simulate(GAMES / "finance.rules", "-n", "40", "--seed", "3", "--jobs", "2")
    assert two == one
    assert "(2 jobs)" in err


@pytest.mark.slow
def test_workers_load_the_variant_and_its_overrides_as_the_parent_did():
    args = (GAMES / "wheeler-level1.rules", "-n", "9", "--seed", "2", "--players", "3",
            "--set", "starting_cash=$120,000")
    one, _ = simulate(*args, "--jobs", "1")
    two, _ = simulate(*args, "--jobs", "2")
    assert two == one
    plain, _ = simulate(*args[:7])
    assert plain != one  # the override changes the games: the workers did apply it


@pytest.mark.slow
def test_simulate_with_jobs_in_python_sums_up_the_same(tmp_path):
    from rulesc.interpreter.rules import load_rules
    from rulesc.simulate import simulate as simulate_games
    rules = load_rules(str(GAMES / "finance.rules"), ["circuit_income=$200"])
    done = []
    serial = simulate_games(rules, 13, 7, 3, overrides=["circuit_income=$200"])
    parallel = simulate_games(rules, 13, 7, 3, jobs=2, overrides=["circuit_income=$200"], progress=done.append)
    assert parallel == serial
    assert list(parallel.money_by_rule) == list(serial.money_by_rule)  # in the same order, too
    assert done and done[-1] == 13 and done == sorted(done)


def _by_default(head_start: float, monkeypatch):
    """FINANCE's games 7..30 through `runner.run` with no `--jobs`, on (at least) two cores: the records
    and where they were played."""
    from rulesc import runner
    from rulesc.interpreter.rules import load_rules
    from rulesc.simulate import record_one
    monkeypatch.setattr(runner, "all_cores", lambda: 2)
    rules = load_rules(str(GAMES / "finance.rules"))
    batches = [runner.Batch(0, first, count, (3, "heuristic", False, False)) for first, count in runner.runs(24, 7, None)]
    where = runner.Where()
    records = [r for results in runner.run([runner.RuleSet(rules, [])], batches, record_one, None, where=where,
                                           head_start=head_start) for r in results]
    return records, where


def test_by_default_games_quicker_than_the_head_start_are_played_here(monkeypatch):
    records, where = _by_default(float("inf"), monkeypatch)
    assert where.processes == 1 and str(where) == ""
    assert [r.seed for r in records] == list(range(7, 31))


@pytest.mark.slow
def test_by_default_the_games_left_after_the_head_start_go_to_workers_and_sum_up_the_same(monkeypatch):
    here, _ = _by_default(float("inf"), monkeypatch)
    shared, where = _by_default(0.0, monkeypatch)  # the first batch here, every other one in a worker
    assert where.processes == 2 and str(where) == " (2 jobs)"
    assert shared == here


@pytest.mark.slow
def test_a_rule_that_fails_in_a_worker_is_reported_as_in_one_process(tmp_path):
    minimal = (Path(__file__).parent / "cli_data" / "minimal.rules").read_text(encoding="utf-8")
    text = minimal.replace("pay l.price / 4 from player to l.owner", "pay [l.price][3] from player to l.owner")
    path = tmp_path / "index.rules"
    path.write_text(text, encoding="utf-8")
    one = simulate_status(path, "-n", "6", "--jobs", "1")
    two = simulate_status(path, "-n", "6", "--jobs", "2")
    assert one[0] == two[0] == 1
    assert "outside the list" in two[2] and "Traceback" not in two[2]
    assert two[2] == one[2]


@pytest.mark.slow
def test_jobs_must_be_a_number_of_processes():
    for bad in ("0", "-1", "many"):
        status, _, err = simulate_status(GAMES / "finance.rules", "-n", "2", "--jobs", bad)
        assert status == 2 and "number of processes" in err and "Traceback" not in err


def test_rulesc_jobs_is_the_default_of_jobs_and_a_bad_one_is_named(monkeypatch):
    monkeypatch.setenv("RULESC_JOBS", "2")
    status, _, err = simulate_status(GAMES / "finance.rules", "-n", "4")
    assert status == 0 and "(2 jobs)" in err  # 4 games: one process, were it not for the variable
    status, _, err = simulate_status(GAMES / "finance.rules", "-n", "4", "--jobs", "1")
    assert status == 0 and "jobs)" not in err  # the option wins
    monkeypatch.setenv("RULESC_JOBS", "all")
    status, _, err = simulate_status(GAMES / "finance.rules", "-n", "4")
    assert status == 2 and "`RULESC_JOBS=all` is not a number of processes" in err and "Traceback" not in err


# ---- a rule error in one of the games: which one, and how to play it alone ------------------------------

FAILS_LATE = """\
game "Fails late":
    players: 2 to 3
    start: Home
    turn limit: 50

param shares = 0

player:
    cash: money = $100

square Home "Home"
square Tax "Tax"
square Road "Road"

board:
    Home, Road, Road, Tax

turn:
    phase move "Move":
        roll 1 die as d
        move player by d.total

on land Tax:
    pay $100 / shares from player to bank

end when count(players) == 1 winner players[0] as "last"
"""


@pytest.mark.slow
def test_a_rule_error_names_its_game_and_the_command_that_plays_it_alone(tmp_path):
    path = tmp_path / "late.rules"
    path.write_text(FAILS_LATE)
    proc = subprocess.run([sys.executable, "-m", "rulesc", "simulate", str(path), "-n", "6", "--seed", "3",
                           "--jobs", "2", "--players", "3", "--set", "shares=0"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 1 and "Traceback" not in proc.stderr
    assert "late.rules:24:9: error[R1001]: division by zero" in proc.stderr
    note = proc.stderr.split("note: in the game of seed ")[1]
    seed = int(note.split(":")[0])
    assert 3 <= seed <= 8
    command = note.split("`")[1]
    assert command == f"rulesc run {path} --seed {seed} --players 3 --agents heuristic --set shares=0 --log -"
    alone = subprocess.run([sys.executable, "-m", *command.split()], capture_output=True, text=True, timeout=300)
    assert alone.returncode == 1 and "late.rules:24:9: error[R1001]: division by zero" in alone.stderr
    assert '"event":"land"' in alone.stdout.splitlines()[-1] and '"square":"Tax"' in alone.stdout.splitlines()[-1]
