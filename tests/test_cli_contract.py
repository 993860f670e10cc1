"""CLI contract: every kind of bad input gets a clear message, the right exit code, no traceback, and is quick.

Each case runs the `rulesc` command line in this process (tests/clirun.py, `rulesc.cli.main`, the
code `python -m rulesc` runs), with an alarm: a hang fails the test. One case runs the real command
in a process of its own, and must say what it says in this one. Broken rules files are made from tests/cli_data/minimal.rules by
one textual change each, so every case shows exactly one problem.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import clirun

DATA = Path(__file__).parent / "cli_data"
MINIMAL = (DATA / "minimal.rules").read_text(encoding="utf-8")


def rulesc(*args, timeout=30):
    """`rulesc ARGS` in this process (tests/clirun.py): the exit code, and stdout and stderr together."""
    code, out, err = clirun.rulesc(*args, timeout=timeout)
    return code, out + err


def broken(old: str, new: str) -> str:
    assert old in MINIMAL, old
    return MINIMAL.replace(old, new, 1)


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


# (case id, file text, the text on the line the message must name or None, expected exit code)
TEXT_CASES = [
    ("empty", "", None, 1),
    ("only-whitespace", "   \n\n  \n", None, 1),
    ("only-comments", "# nothing here\n# at all\n", None, 1),
    ("syntax-unexpected-token", broken("param salary = $100", "param salary = = $100"), "param salary", 1),
    ("syntax-unexpected-character", broken("param salary = $100", "param salary = $100 @"), "param salary", 1),
    ("syntax-single-quotes", broken('square Go "Go"', "square Go 'Go'"), "square Go", 1),
    ("syntax-missing-colon", broken("kind Lot:", "kind Lot"), "kind Lot", 1),
    ("syntax-missing-block", broken("on pass Go:\n    pay salary from bank to player\n", "on pass Go:\n"), "on pass Go", 1),
    ("syntax-bad-dedent", broken("        move player by d.total", "      move player by d.total"), "move player by", 1),
    ("syntax-unterminated-string", broken('square Rest "Rest"', 'square Rest "Rest'), "square Rest", 1),
    ("syntax-missing-paren", broken("count(players) == 1", "count(players == 1"), "end when", 1),
    ("syntax-keyword-as-name", broken("param salary = $100", "param turn = $100"), "param turn", 1),
    ("unknown-name", broken("pay salary from bank", "pay wages from bank"), "pay wages", 1),
    ("misspelt-name", broken("pay salary from bank", "pay salry from bank"), "pay salry", 1),
    ("unknown-field", broken("pay l.price from player", "pay l.cost from player"), "pay l.cost", 1),
    ("unknown-type", broken("price: money", "price: dollars"), "price: dollars", 1),
    ("type-money-plus-count", broken("pay salary from bank", "pay salary + 5 from bank"), "pay salary + 5", 1),
    ("type-compare-money-player", broken("if player.cash >= l.price:", "if player.cash >= l.owner:"), "if player.cash", 1),
    ("type-pay-a-count", broken("pay salary from bank", "pay 100 from bank"), "pay 100", 1),
    ("type-condition-not-bool", broken("if player.cash >= l.price:", "if player.cash:"), "if player.cash", 1),
    ("type-set-fixed-field", broken("set l.owner = player", "set l.price = $1"), "set l.price", 1),
    ("duplicate-definition", broken("param salary = $100", "param salary = $100\nparam salary = $200"), "param salary = $200", 1),
    ("unknown-setting", broken("players: 2 to 4", "players: 2 to 4\n    colour: 5"), "colour", 1),
    ("no-game-header", MINIMAL.split("param salary", 1)[1].join(["param salary", ""]), None, 1),
    ("thing-not-on-board", broken("Go, Red, Rest, Blue", "Go, Red, Rest"), "Blue", 1),
    ("unknown-square-on-board", broken("Go, Red, Rest, Blue", "Go, Red, Rest, Blue, Jail"), "Jail", 1),
    ("table-row-too-short", broken("Red    $60", "Red"), "Red", 1),
    ("deep-parentheses", broken("param salary = $100", "param salary = " + "(" * 10_000 + "$100" + ")" * 10_000),
     "param salary", 1),
    ("deep-blocks", broken("        move player by d.total", "".join(
        "    " * (i + 2) + "if true:\n" for i in range(100)) + "    " * 102 + "move player by d.total"), None, 1),
    ("deep-not", broken("if player.cash >= l.price:", "if " + "not " * 5000 + "true:"), None, 1),
]


@pytest.mark.slow
@pytest.mark.parametrize("name,text,needle,code", TEXT_CASES, ids=[c[0] for c in TEXT_CASES])
def test_broken_rules_file(tmp_path, name, text, needle, code):
    path = tmp_path / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    status, out = rulesc("check", "--static", path)
    assert status == code, out
    assert "Traceback" not in out
    assert str(path) in out
    assert "error[" in out
    if needle is not None:
        assert f"{path}:{line_of(text, needle)}:" in out, out


def test_the_command_in_a_process_of_its_own_says_what_it_says_in_this_one(tmp_path):
    path = tmp_path / "typo.rules"
    path.write_text(broken("pay salary from bank", "pay salry from bank"), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "rulesc", "check", "--static", str(path)], capture_output=True,
                          text=True, timeout=60)
    assert (proc.returncode, proc.stdout, proc.stderr) == clirun.rulesc("check", "--static", path)
    assert proc.returncode == 1 and "error[R0205]" in proc.stderr


def test_misspelt_name_suggests_the_nearest(tmp_path):
    path = tmp_path / "typo.rules"
    path.write_text(broken("pay salary from bank", "pay salry from bank"), encoding="utf-8")
    status, out = rulesc("check", "--static", path)
    assert status == 1
    assert "did you mean `salary`" in out


def test_binary_file(tmp_path):
    path = tmp_path / "binary.rules"
    path.write_bytes(b"\x7fELF\x02\x01\x01\x00\x00\x00" + bytes(range(256)) * 4)
    status, out = rulesc("check", "--static", path)
    assert status == 1 and "binary" in out and str(path) in out and "Traceback" not in out


def test_file_not_utf8(tmp_path):
    path = tmp_path / "latin1.rules"
    path.write_bytes(MINIMAL.replace("Minimal", "Café").encode("latin-1"))
    status, out = rulesc("check", "--static", path)
    assert status == 1 and f"{path}:2:10: error[R0006]: file is not valid UTF-8" in out and "Traceback" not in out


def test_missing_file(tmp_path):
    status, out = rulesc("check", "--static", tmp_path / "nope.rules")
    assert status == 2 and "no such file" in out and "nope.rules" in out and "Traceback" not in out


def test_directory(tmp_path):
    status, out = rulesc("check", "--static", tmp_path)
    assert status == 2 and f"{tmp_path}: error[R0002]: `{tmp_path}` is a directory" in out and "Traceback" not in out


def test_five_megabyte_file(tmp_path):
    path = tmp_path / "huge.rules"
    path.write_text(MINIMAL + ("# padding " * 20 + "\n") * 26_000, encoding="utf-8")
    assert path.stat().st_size > 5_000_000
    status, out = rulesc("check", "--static", path, timeout=20)
    assert status == 1 and "too large" in out and str(path) in out and "Traceback" not in out


def test_several_syntax_errors_in_one_run(tmp_path):
    text = broken("kind Lot:", "kind Lot").replace('square Rest "Rest"', "square Rest 'Rest'")
    path = tmp_path / "two.rules"
    path.write_text(text, encoding="utf-8")
    status, out = rulesc("check", "--static", path)
    assert status == 1
    assert f"{path}:{line_of(text, 'kind Lot')}:" in out
    assert f"{path}:{line_of(text, 'square Rest')}:" in out


@pytest.mark.slow
def test_rule_that_loops_forever_is_stopped(tmp_path):
    text = broken("on pass Go:", "on land Rest:\n    move player by 4\n\non pass Go:")
    path = tmp_path / "loop.rules"
    path.write_text(text, encoding="utf-8")
    status, out = rulesc("run", path, "--seed", "1", timeout=30)
    assert status == 1, out
    assert "Traceback" not in out
    assert "loop" in out
    assert f"{path}:{line_of(text, 'move player by 4')}:" in out


@pytest.mark.slow
def test_runtime_error_names_the_rule(tmp_path):
    text = broken("pay l.price / 4 from player to l.owner", "pay [l.price][3] from player to l.owner")
    path = tmp_path / "index.rules"
    path.write_text(text, encoding="utf-8")
    status, out = rulesc("run", path, "--seed", "1")
    assert status == 1 and "Traceback" not in out
    assert f"{path}:{line_of(text, '[l.price][3]')}:" in out and "outside the list" in out


@pytest.mark.slow
def test_unknown_parameter_in_set_is_a_usage_error(tmp_path):
    path = tmp_path / "ok.rules"
    path.write_text(MINIMAL, encoding="utf-8")
    status, out = rulesc("run", path, "--set", "wages=$5")
    assert status == 2 and "wages" in out and "Traceback" not in out


@pytest.mark.slow
def test_wrong_type_in_set_is_a_usage_error(tmp_path):
    path = tmp_path / "ok.rules"
    path.write_text(MINIMAL, encoding="utf-8")
    status, out = rulesc("run", path, "--set", "salary=5%")  # a percentage is not money (a bare 5 is: $5)
    assert status == 2 and "salary" in out and "Traceback" not in out


@pytest.mark.slow
def test_players_out_of_range_is_a_usage_error(tmp_path):
    path = tmp_path / "ok.rules"
    path.write_text(MINIMAL, encoding="utf-8")
    status, out = rulesc("run", path, "--players", "9")
    assert status == 2 and "2 to 4" in out


def test_unknown_command_is_a_usage_error():
    status, out = rulesc("frobnicate")
    assert status == 2 and "Traceback" not in out


def test_windows_line_endings_are_fine(tmp_path):
    path = tmp_path / "crlf.rules"
    path.write_bytes(MINIMAL.replace("\n", "\r\n").encode("utf-8"))
    status, out = rulesc("check", "--static", path)
    assert status == 0, out


@pytest.mark.slow
def test_json_diagnostics(tmp_path):
    import json
    text = broken("pay salary from bank", "pay salry from bank")
    path = tmp_path / "typo.rules"
    path.write_text(text, encoding="utf-8")
    status, out = rulesc("check", "--static", "--format", "json", path)
    assert status == 1
    data = json.loads(out)
    errors = [d for d in data[0]["diagnostics"] if d["severity"] == "error"]
    assert [d["code"] for d in errors] == ["R0205"]
    assert errors[0]["span"]["line"] == line_of(text, "pay salry") and "salary" in errors[0]["help"]


def test_simulate_takes_games_as_diff_sweep_and_check_do():
    """`--games N` is how diff, sweep and check count games; simulate takes it as its `-n`."""
    short = clirun.rulesc("simulate", "games/finance.rules", "-n", "3", "--quiet", "--format", "csv",
                          cwd=Path(__file__).resolve().parent.parent)
    long = clirun.rulesc("simulate", "games/finance.rules", "--games", "3", "--quiet", "--format", "csv",
                         cwd=Path(__file__).resolve().parent.parent)
    assert short.returncode == long.returncode == 0
    assert long.stdout == short.stdout and len(long.stdout.splitlines()) == 4  # a header, three games
