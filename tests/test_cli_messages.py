"""What the command line says of a mistake in a rules file or an option, with the right exit code
and the line it is on: a move of a negative distance (a rule error that says how to go the other
way), a turn limit below one (refused by the checker, and when `--set` makes it so), a negative money
amount given to `--set`, the summary line of a file that does not parse, and a picture written into a
folder that does not exist.

Each case runs `rulesc` in this process (tests/clirun.py) on tests/cli_data/minimal.rules changed by
one line."""

from __future__ import annotations

from pathlib import Path

import pytest

from clirun import rulesc

DATA = Path(__file__).parent / "cli_data"
MINIMAL = (DATA / "minimal.rules").read_text(encoding="utf-8")


def changed(old: str, new: str, text: str = MINIMAL) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def line_of(text: str, words: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if words in line)


@pytest.mark.slow
@pytest.mark.parametrize("move,other", [
    ("move player by d.total - 20", "back"),
    ("move player back d.total - 20", "by"),
])
def test_a_move_of_a_negative_distance_is_a_rule_error(tmp_path, move, other):
    """`move … by` goes forward: a negative distance went backwards, silently (a payment of a
    negative amount has always been an error)."""
    text = changed("move player by d.total", move)
    path = tmp_path / "negative.rules"
    path.write_text(text)
    code, out, err = rulesc("run", path, "--seed", "1")
    assert code == 1 and "Traceback" not in err
    assert f"negative.rules:{line_of(text, move)}:9: error[R1001]: a move `{move.split()[2]}` -" in err
    assert f"help: to go the other way write `move … {other} " in err


@pytest.mark.slow
def test_a_turn_limit_below_one_is_refused_not_taken_for_none(tmp_path):
    """`turn limit: 0` played 10,000 turns, the engine's cap for a header with no limit."""
    path = tmp_path / "limit.rules"
    text = changed("    start: Go\n", "    start: Go\n    turn limit: 0\n")
    path.write_text(text)
    code, _, err = rulesc("check", "--static", path)
    assert code == 1 and f"limit.rules:{line_of(text, 'turn limit')}:5: error[R0504]: `turn limit` is 0" in err
    text = changed("    start: Go\n", "    start: Go\n    turn limit: cap\n").replace(
        "param salary", "param cap = 30\nparam salary")
    path.write_text(text)
    assert rulesc("run", path, "--seed", "1")[0] == 0
    code, _, err = rulesc("run", path, "--seed", "1", "--set", "cap=0")
    assert code == 1 and "error[R0504]: `turn limit` is 0; a game needs at least 1 turn" in err


@pytest.mark.slow
def test_set_takes_a_negative_amount_as_a_file_writes_it(tmp_path):
    """`param salary = -$5` is a money parameter; `--set salary=-$3` was refused as not money."""
    path = tmp_path / "salary.rules"
    path.write_text(MINIMAL)
    assert rulesc("check", "--static", path, "--set", "salary=-$3")[0] == 0
    code, _, err = rulesc("run", path, "--seed", "1", "--set", "salary=-$3")
    assert code == 1 and "error[R1001]: cannot pay a negative amount (-3)" in err  # the value taken: -$3
    code, _, err = rulesc("check", "--static", path, "--set", "salary=-3")  # money without `$`: the same -$3
    assert code == 0 and "--set: salary = -$3" in err


def test_a_file_that_does_not_parse_gets_the_summary_line_too(tmp_path):
    path = tmp_path / "slips.rules"
    path.write_text(changed("on pass Go:\n    pay salary", "on pass Go:\n    pya salary").replace(
        "if player.cash >= l.price:", "if player.cash = l.price:"))
    code, out, err = rulesc("check", path)
    assert code == 1 and "did you mean `pay`?" in err and "to compare, write `==`" in err
    assert out == f"{path}: does not parse\n  2 errors, 0 warnings\n"


def test_diagram_refuses_a_missing_folder_as_every_command_does(tmp_path):
    path = tmp_path / "game.rules"
    path.write_text(MINIMAL)
    code, _, err = rulesc("diagram", path, "-o", tmp_path / "nodir" / "f.svg")
    assert code == 2 and err == f"rulesc: error: cannot write `{tmp_path / 'nodir' / 'f.svg'}`: no folder " \
                               f"`{tmp_path / 'nodir'}`\n"
