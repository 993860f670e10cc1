"""`rulesc play`: a person answers their seat's decisions at the terminal; the game finishes; what it
says in words (the setup's roll, a percentage, every field of a player in `status`)."""

from __future__ import annotations

import pytest

import io
import subprocess
import sys
from pathlib import Path

from rulesc.play import TerminalAgent

FINANCE = Path(__file__).resolve().parent.parent / "games" / "finance.rules"


def agent(answers: str):
    out = io.StringIO()
    return TerminalAgent(io.StringIO(answers), out), out


def test_a_menu_answer_picks_that_option_and_bad_answers_are_asked_again():
    a, out = agent("9\nx\n2\n")
    assert a.choose(None, type("P", (), {"name": "Ann"})(), "buy", ["buy", "decline"]) == "decline"
    assert out.getvalue().count("please answer with a number from 1 to 2") == 2


def test_a_bid_is_an_amount_in_range_or_empty_to_pass():
    a, out = agent("5\n$120\n\n")
    ann = type("P", (), {"name": "Ann"})()
    assert a.bid(None, ann, None, 10, 500) == 120
    assert a.bid(None, ann, None, 10, 500) is None
    assert "a bid is a whole amount from $10 to $500" in out.getvalue()


@pytest.mark.slow
def test_the_whole_game_runs_and_the_bots_take_over_when_input_ends():
    proc = subprocess.run([sys.executable, "-m", "rulesc", "play", str(FINANCE), "--players", "2", "--seed", "3"],
                          input="\n\n", capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert "bid on" in proc.stdout
    assert "input ended" in proc.stdout
    assert "game over after" in proc.stdout
    assert "--- P2's turn ---" in proc.stdout and "P2 rolls 4 and 3 (7)" in proc.stdout
    assert "[" not in proc.stdout.replace("[y/N]", "")  # no Python lists or reprs: sentences


@pytest.mark.slow
def test_a_seat_outside_the_game_is_a_usage_error():
    proc = subprocess.run([sys.executable, "-m", "rulesc", "play", str(FINANCE), "--players", "2", "--seat", "3"],
                          input="", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--seat" in proc.stderr


def test_play_says_the_setup_roll_a_percent_and_every_field_of_a_player():
    """`play` said `nobody rolls 6` for the setup's roll, `global: interest is now 60` for 60%, and its
    `status` showed only cash of what Wall Street keeps on a player (deposit, loans, insurance, car)."""
    proc = subprocess.run([sys.executable, "-m", "rulesc", "play", "games/wallstreet.rules", "--players", "2",
                           "--seed", "3"], input="status\n\n", capture_output=True, text=True, timeout=120,
                          cwd=Path(__file__).resolve().parent.parent)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "the dice show 6\nthe game: interest is now 60%\n" in out and "nobody rolls" not in out
    assert "  P1 (you): on Wall Street News, cash $600,000; holds nothing; deposit $0, loans 0, insured no, " \
           "car nobody\n" in out
    assert "  P2: on Wall Street News, cash hidden; holds nothing; loans 0, insured no, car nobody\n" in out
