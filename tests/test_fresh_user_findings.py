"""What a fresh user found writing games of his own from the documentation, each a test that failed
before its fix: a rule the engine quietly took another way, a mistake no message pointed at."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DATA = Path(__file__).parent / "cli_data"
MINIMAL = (DATA / "minimal.rules").read_text(encoding="utf-8")


def changed(old: str, new: str, text: str = MINIMAL) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def rulesc(*args):
    proc = subprocess.run([sys.executable, "-m", "rulesc", *map(str, args)], capture_output=True, text=True,
                          timeout=120)
    return proc.returncode, proc.stdout, proc.stderr


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


def test_extends_of_a_folder_says_it_is_a_folder(tmp_path):
    (tmp_path / "base.rules").mkdir()
    path = tmp_path / "variant.rules"
    path.write_text('extends "base.rules"\n')
    code, _, err = rulesc("check", "--static", path)
    assert code == 2 and "error[R0513]: the base file `base.rules` is a folder, not a file" in err


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


PING_PONG = """\
game "Ping pong loans":
    players: 2 to 2
    start: Home
    turn limit: 10

player:
    cash: money = $500
    loaned: bool = false

kind Lot:
    loan: money
    state mortgaged: bool = false

table Lot:
    name   loan
    Red    $100

square Home "Home"
square Road "Road"

board:
    Home, Road

turn:
    phase move "Move":
        move player by 1

action borrow own turn when not player.loaned:
    pay $100 from bank to player
    set player.loaned = true

action repay own turn when player.loaned and player.cash >= $110:
    pay $110 from player to bank
    set player.loaned = false

action mortgage(l: Lot) own turn when not l.mortgaged:
    pay l.loan from bank to player
    set l.mortgaged = true

action redeem(l: Lot) own turn when l.mortgaged and player.cash >= l.loan + $10:
    pay l.loan + $10 from player to bank
    set l.mortgaged = false

on debt:
    eliminate debtor

end when count(players) == 1 winner players[0] as "last"
"""


def test_the_heuristic_agent_does_not_go_round_in_circles(tmp_path):
    """With no hint, the agent took every affordable action: borrow, repay, borrow … until the
    window's cap of 30, paying $10 a round (and Wheeler Dealer's debtors borrowed and repaid one
    property over and over). It now takes an action again in a turn only if nothing else was done
    to its thing since."""
    path = tmp_path / "loops.rules"
    path.write_text(PING_PONG)
    code, out, err = rulesc("run", path, "--seed", "1", "--log", "-")
    assert code == 0, err
    actions = [line for line in out.splitlines() if '"event":"action"' in line]
    by_turn: dict = {}
    for line in actions:
        turn = int(line.split('"turn":')[1].split(",")[0])
        by_turn.setdefault(turn, []).append(line.split('"action":"')[1].split('"')[0])
    assert by_turn and all(sorted(taken) == ["borrow", "mortgage", "redeem", "repay"] for taken in by_turn.values())


def test_a_file_that_does_not_parse_gets_the_summary_line_too(tmp_path):
    path = tmp_path / "slips.rules"
    path.write_text(changed("on pass Go:\n    pay salary", "on pass Go:\n    pya salary").replace(
        "if player.cash >= l.price:", "if player.cash = l.price:"))
    code, out, err = rulesc("check", path)
    assert code == 1 and "did you mean `pay`?" in err and "to compare, write `==`" in err
    assert out == f"{path}: does not parse\n  2 errors, 0 warnings\n"


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


def test_a_variant_that_does_not_apply_to_its_base_does_not_load_rather_than_parse(tmp_path):
    (tmp_path / "base.rules").write_text(MINIMAL)
    variant = tmp_path / "variant.rules"
    variant.write_text('extends "base.rules"\n\nremove scenario "no such scenario"\n')
    code, out, err = rulesc("check", "--static", variant)
    assert code == 1 and "R0510" in err
    assert out == f"{variant}: does not load\n  1 error, 0 warnings\n"


def test_a_name_a_variant_removed_and_its_base_still_uses_points_at_the_removal(tmp_path):
    """The errors stood in the base file with nothing pointing at the variant's line that caused them."""
    variant = tmp_path / "no-boom.rules"
    variant.write_text('extends "wallstreet"\n\nremove card NewsCards.Boom\n')
    code, _, err = rulesc("check", "--static", variant)
    assert code == 1
    errors = [line for line in err.splitlines() if "error[" in line]
    assert errors and all("wallstreet.rules:" in line and "Boom" in line for line in errors)
    assert err.count(f"note: the variant's `remove card NewsCards.Boom` removed it at {variant}:3:1") == len(errors)


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


def test_diagram_refuses_a_missing_folder_as_every_command_does(tmp_path):
    path = tmp_path / "game.rules"
    path.write_text(MINIMAL)
    code, _, err = rulesc("diagram", path, "-o", tmp_path / "nodir" / "f.svg")
    assert code == 2 and err == f"rulesc: error: cannot write `{tmp_path / 'nodir' / 'f.svg'}`: no folder " \
                               f"`{tmp_path / 'nodir'}`\n"


def test_a_deck_diagram_shows_what_a_card_does_inside_its_if():
    """A card whose payment stands under `if not player.insured:` showed the `if` alone."""
    from rulesc.deck_diagram import build_deck_diagram
    from rulesc.dsl.checker import check_program
    from rulesc.dsl.variants import load_file

    root = Path(__file__).resolve().parent.parent
    source = build_deck_diagram(check_program(load_file(root / "games/wallstreet.rules")).program, "NewsCards").source
    crash = next(line for line in source.splitlines() if "_Crash [label=" in line)
    assert "if not player.insured:" in crash and "  pay $100,000 from player to bank" in crash
