"""A debt may be owed to an account field (`pay $50 from player to pot`), so `creditor` in `on debt`
is the bank, a player or such an account: `creditor != bank` alone does not make it a player once a
file declares account fields. Before, the checker took it for one, and the written-out payment
to it ended the game in an internal error (`'Account' object has no attribute 'f'`)."""

from __future__ import annotations

from rulesc.cli import main
from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text

GAME = """\
game "Pot creditor":
    players: 2 to 2
    start: Home
    turn limit: 20

{fields}
player:
    cash: money = $10
    owes: player? = none
{player_fields}
square Home "Home"
square Fine "Fine"

board:
    Home, Fine

turn:
    phase move "Move":
        move player by 1

on land Fine:
    pay $50 from player to pot

on debt:
    if {test}:
        pay $1 from bank to creditor
        set debtor.owes = creditor
    eliminate debtor

end when count(players) == 1 winner players[0] as "last"
"""


def source(test: str, deposit: bool = False) -> str:
    return GAME.format(fields="global:\n    pot: account\n", test=test,
                       player_fields="    deposit: account\n" if deposit else "")


def diagnostics(text: str) -> list:
    return check_program(parse_text(text, "pot.rules")).diagnostics


def line_of(text: str, words: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if words in line)


def test_not_the_bank_is_not_yet_a_player_where_a_pot_may_be_owed():
    text = source("creditor != bank")
    found = [d for d in diagnostics(text) if d.severity == "error"]
    assert [(d.code, d.span.line) for d in found] == [("R0301", line_of(text, "set debtor.owes"))]
    assert found[0].help == "an account is the bank, a player or an account field: test " \
                            "`if creditor != bank and creditor != pot:` first"


def test_ruling_out_the_bank_and_every_global_account_makes_a_player():
    assert [d for d in diagnostics(source("creditor != bank and creditor != pot")) if d.severity == "error"] == []
    assert [d for d in diagnostics(source("not (creditor == pot or creditor == bank)"))
            if d.severity == "error"] == []


def test_a_players_account_field_cannot_be_ruled_out():
    text = source("creditor != bank and creditor != pot", deposit=True)
    found = [d for d in diagnostics(text) if d.severity == "error"]
    assert [(d.code, d.span.line) for d in found] == [("R0301", line_of(text, "set debtor.owes"))]
    assert "a player's account field (`deposit`)" in found[0].help


def test_a_debt_owed_to_a_pot_is_played_through(tmp_path, capsys):
    path = tmp_path / "pot.rules"
    path.write_text(source("creditor != bank and creditor != pot").replace(
        "        set debtor.owes = creditor\n", ""))
    assert main(["run", str(path), "--seed", "1", "--log", str(tmp_path / "log.jsonl")]) == 0
    out, err = capsys.readouterr()
    assert "internal error" not in out + err
    log = (tmp_path / "log.jsonl").read_text()
    assert '"event":"debt","player":"P1","creditor":"pot","owed":50' in log
    assert '"event":"eliminate","player":"P1"' in log


def test_paying_a_creditor_that_is_a_pot_is_not_an_internal_error(tmp_path, capsys):
    """The helper's file as reported: only `!= bank` tested, and the creditor paid (an account may be)."""
    path = tmp_path / "pot.rules"
    path.write_text(source("creditor != bank").replace("        set debtor.owes = creditor\n", ""))
    assert main(["check", "--static", str(path)]) == 0
    assert main(["run", str(path), "--seed", "1"]) == 0
    out, err = capsys.readouterr()
    assert "internal error" not in out + err and "P1: out" in out
