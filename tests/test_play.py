"""`rulesc play`: a person answers their seat's decisions at the terminal; what it says in words (the
setup's roll, a percentage, every field of a player); leaving it (`quit`, the input's end, Ctrl-C) and
replaying what was saved; looking around (`board`, `info`, `me`, `players`) sees what the seat may see."""

from __future__ import annotations

import pytest

import io
import json
import re
import signal
import subprocess
import sys
from pathlib import Path

from rulesc.play import TerminalAgent

ROOT = Path(__file__).resolve().parent.parent
FINANCE = ROOT / "games" / "finance.rules"


def play(*args, answers: str, cwd=ROOT) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "rulesc", "play", *map(str, args)], input=answers,
                          capture_output=True, text=True, timeout=120, cwd=cwd)


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


def test_quit_ends_the_game_there_and_no_bot_plays_the_seat_on():
    proc = play(FINANCE, "--players", "2", "--seed", "3", answers="quit\n\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "\nyou left the game at turn 2 (you quit)\n" in out
    assert "save the game's log, to replay it later? a file name, or empty for no > " in out
    after = out.split("you left the game")[1]
    assert "---" not in after and "bids" not in after  # nothing was played after the quit
    assert "game over" not in out and "P1 bids" not in out and "Traceback" not in proc.stderr


def test_the_log_saved_after_quit_replays_as_the_same_game_up_to_where_it_was_left(tmp_path):
    proc = play(FINANCE, "--players", "2", "--seed", "3", answers="40\nquit\nleft.jsonl\n", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "P1 bids $40" in proc.stdout
    assert f"events written to left.jsonl; `rulesc run {FINANCE} --replay left.jsonl` plays them again" in proc.stdout
    lines = (tmp_path / "left.jsonl").read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0])["left"] == "at turn 2: you quit"
    assert json.loads(lines[-1])["event"] == "bid"  # the log stops where the game was left: P2's answer to the bid
    replayed = subprocess.run([sys.executable, "-m", "rulesc", "run", str(FINANCE), "--replay", "left.jsonl"],
                              capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert replayed.returncode == 0, replayed.stdout + replayed.stderr
    assert replayed.stdout == (f"replayed {len(lines) - 1} events of left.jsonl: the same game, event for event, "
                               "up to where it was left at turn 2: you quit\n")


def test_a_save_to_a_folder_that_does_not_exist_is_asked_again(tmp_path):
    proc = play(FINANCE, "--players", "2", "--seed", "3", answers="quit\nnowhere/x.jsonl\nx.jsonl\n", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "cannot write `nowhere/x.jsonl`: no folder `nowhere`" in proc.stdout
    assert (tmp_path / "x.jsonl").is_file()


def test_the_end_of_the_input_leaves_the_game_with_one_line_and_exit_0():
    proc = play(FINANCE, "--players", "2", "--seed", "3", answers="")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.endswith("\nyou left the game at turn 2 (the input ended)\n")
    assert proc.stderr == "" and "save the game" not in proc.stdout  # no one to ask


def _ctrl_c_as_at_a_terminal():
    """Ctrl-C's signal as a shell leaves it for a command: a test runner's worker may be ignoring it, and
    Python does not turn an ignored SIGINT into KeyboardInterrupt."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def test_ctrl_c_leaves_the_game_with_one_line_exit_130_and_keeps_the_log(tmp_path):
    proc = subprocess.Popen([sys.executable, "-m", "rulesc", "play", str(FINANCE), "--players", "2", "--seed", "3",
                             "--log", "game.jsonl"], cwd=tmp_path, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    seen = ""
    while not seen.endswith("or empty to pass > "):  # the first question: the game waits for the person
        char = proc.stdout.read(1)
        assert char, proc.stderr.read()
        seen += char
    proc.send_signal(signal.SIGINT)
    # Waited for with standard input open: closed at once, the game could see the end of its input
    # before the signal and leave as at the input's end (exit 0). What it writes now fits in the pipe.
    proc.wait(timeout=60)
    out, err = seen + proc.stdout.read(), proc.stderr.read()
    assert proc.returncode == 130, err
    assert "Traceback" not in err and err == ""
    assert "\nyou left the game at turn 2 (interrupted (Ctrl-C))\n" in out
    assert "events written to game.jsonl" in out
    header = json.loads((tmp_path / "game.jsonl").read_text(encoding="utf-8").splitlines()[0])
    assert header["left"] == "at turn 2: interrupted (Ctrl-C)"


def test_board_info_me_and_players_show_prices_rents_owners_and_the_rules_words():
    sale = next(i for i, line in enumerate(Path(FINANCE).read_text("utf-8").splitlines(), 1)
                if line.startswith("on land Lease p as sale"))
    proc = play(FINANCE, "--players", "2", "--seed", "3", answers="board\ninfo 8\ninfo wayback\nme\nplayers\n"
                "info nowhere\n40\nquit\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # board: each thing's table data (money as money) and state, who stands where
    assert re.search(r"\n  3 Rubeville +number 2, series One, value \$50, rents \$4 \$20 \$60 \$180 \$320 \$450; "
                     r"owner nobody, houses 0, withdrawn no  <- P1\n", out)
    # ... the facts in one column, whatever the length of the square's title
    columns = {line.index("number ") for line in out.splitlines() if re.match(r"(> )? +\d+ \w+ +number \d", line)}
    assert len(columns) == 1, columns
    assert "\n  7 Chance  <- P2\n" in out and ">   0 Start\n" in out
    # info: by number or by name in any case; the row's assumptions; the landing rules that apply, cited
    assert "VenetianLagoon\n  a Lease: number 4, series Two, value $70, rents $8 $40 $100 $300 $450 $600; " \
           "owner nobody, houses 0, withdrawn no\n  § \"Each property has corresponding increases as shown on its lease " \
           "card.\"\n  assumed (not in the rulebook): number, rents\n  landing here, " \
           f"you:\n  finance.rules:{sale}: § \"It is then sold to the highest bidder, who pays the amount of his final bid " \
           "to the Bank.\"\n" in out
    assert "Wayback\n  a Lease: number 1, series One, value $50, rents $2 $10 $30 $80 $160 $200; owner nobody, " \
           "houses 0, withdrawn no\n  § \"on WAYBACK (lease No. 1) one house raises the ordinary $2 rent to $10\"\n" in out
    assert "no square or thing is called `nowhere` (try `board` for their names)" in out
    # me and players
    assert "  P1 (you): on Rubeville, cash $1,000; holds nothing\nno action is open to you now\n" in out
    assert "turn 2\n  P1 (you): on Rubeville, cash $1,000; holds nothing\n  P2: on Chance, cash $1,000; " \
           "holds nothing\n" in out
    # landing: the rule that applies, in the rulebook's words; the auction shows what is for sale
    assert f"P1 lands on Rubeville\n  the rule here, finance.rules:{sale}: § \"It is then sold" in out
    assert "Rubeville is auctioned from $10 among P1, P2\n  Rubeville: number 2, series One, value $50, rents $4 " \
           "$20 $60 $180 $320 $450; owner nobody, houses 0, withdrawn no\nP1, bid on Rubeville: $10 to $1,000" in out


def test_the_actions_menu_gives_each_action_its_cost_and_hidden_fields_stay_hidden():
    proc = play("games/wallstreet.rules", "--players", "2", "--seed", "3", answers="me\nplayers\nquit\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    menu = "  1) buy_car ScrapCar (pays $50,000)\n  2) buy_car SportsCar (pays $300,000)\n  3) insure (pays $150,000)\n" \
           "  4) take_loan (receives $50,000)\n  0) pass\n"
    assert menu in out
    assert "actions the rules allow you now:\n  buy_car ScrapCar (pays $50,000)\n" in out
    # P2's cash and deposit are `hidden`: seen by P1 as hidden, never as an amount
    assert "  P2: on Wall Street News, cash hidden; holds nothing; loans 0, insured no, car nobody, deposit hidden\n" \
           in out
    assert not re.search(r"P2: [^\n]*\$", out)


def test_looking_around_changes_nothing_the_game_replays_the_same(tmp_path):
    """`me` asks the engine for the legal actions and `info` tests rules' conditions: the game played
    with them is the very game played without (the same log), and it replays."""
    looked = play(FINANCE, "--players", "2", "--seed", "5", "--log", tmp_path / "a.jsonl",
                  answers="me\nboard\ninfo 1\n30\nme\n\n" * 6)
    plain = play(FINANCE, "--players", "2", "--seed", "5", "--log", tmp_path / "b.jsonl", answers="30\n\n" * 6)
    assert looked.returncode == plain.returncode == 0, looked.stderr + plain.stderr
    assert (tmp_path / "a.jsonl").read_text(encoding="utf-8") == (tmp_path / "b.jsonl").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_seat_outside_the_game_is_a_usage_error():
    proc = subprocess.run([sys.executable, "-m", "rulesc", "play", str(FINANCE), "--players", "2", "--seat", "3"],
                          input="", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 2 and "--seat" in proc.stderr


def test_play_says_the_setup_roll_a_percent_and_every_field_of_a_player():
    """`play` said `nobody rolls 6` for the setup's roll, `global: interest is now 60` for 60%, and its
    `status` showed only cash of what Wall Street keeps on a player (deposit, loans, insurance, car)."""
    proc = play("games/wallstreet.rules", "--players", "2", "--seed", "3", answers="players\n\n")
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "the dice show 6\nthe game: interest is now 60%\n" in out and "nobody rolls" not in out
    assert "  P1 (you): on Wall Street News, cash $600,000; holds nothing; deposit $0, loans 0, insured no, " \
           "car nobody\n" in out
    assert "  P2: on Wall Street News, cash hidden; holds nothing; loans 0, insured no, car nobody, deposit hidden\n" \
           in out


def test_a_game_without_citations_reads_plainly(tmp_path):
    """A newcomer's own file cites no rulebook: the rule landed on is shown as written; the first
    player without a roll just goes first; a decision names its option, then the decision."""
    text = (ROOT / "tests" / "cli_data" / "minimal.rules").read_text(encoding="utf-8")
    line = text.splitlines().index("on land Lot l when l.owner == none:") + 1
    proc = play(ROOT / "tests" / "cli_data" / "minimal.rules", "--players", "2", "--seed", "1", answers="quit\n\n")
    assert proc.returncode == 0, proc.stderr
    assert "\nP1 goes first\n" in proc.stdout and "rolls highest" not in proc.stdout
    assert f"\n  the rule here, minimal.rules:{line}: `on land Lot l when l.owner == none:`\n" in proc.stdout
    from rulesc.sentences import Words
    from rulesc.interpreter.rules import load_rules
    words = Words(load_rules(str(ROOT / "tests" / "cli_data" / "minimal.rules")))
    assert words.describe("choose", ("P1", "buy", "decline")) == "P1 chooses decline at `buy`"
