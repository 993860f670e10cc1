"""Roll-and-move turns, each construct on its own in a small game: rolling again on doubles within
the turn (`roll … again on doubles up to N times`, `too many doubles:`), the roll that moved the token
(`moved_by`) and a card's marks on a move (`with twice`) seen by what happens on landing, and a player
status with its own turn and its ways out (jail). Each test checks the checker accepts the construct
and that the engine does what docs/language.md says, through scenarios with forced dice, and that
`play` says it in words."""

from __future__ import annotations

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules
from rulesc.interpreter.scenario import run_scenarios

BASE = """
game "Tiny":
    players: 2 to 4
    start: Go

player:
    cash: money = $100

kind Lot:
    price: money
    state owner: player? = none

table Lot:
    name  price
    L1    $10
    L2    $20

square Go "Go"
square Jail "Jail"
square Tax "Tax"

board:
    Go, L1, Tax, L2, Jail, Tax

on land Tax:
    pay $1 from player to bank

bank unlimited
end when count(players) == 1 winner players[0] as "last player standing"
"""


def rules_of(extra: str):
    checked = check_program(parse_text(BASE + extra, "tiny.rules"))
    errors = [d for d in checked.diagnostics if d.is_error]
    assert not errors, [d.render() if hasattr(d, "render") else d.message for d in errors]
    return compile_rules(checked)


def assert_scenarios_pass(extra: str) -> None:
    results = run_scenarios(rules_of(extra))
    assert results
    for r in results:
        assert r.passed, f"{r.title}: {r.failures}"


ROLL_AGAIN = """
turn:
    phase move:
        roll 2 dice as d again on doubles up to 3 times:
            move player by d.total
        too many doubles:
            move player to Jail
    phase after_move:
        pay $2 from bank to player
"""


def test_doubles_roll_again_within_the_turn():
    assert_scenarios_pass(ROLL_AGAIN + """
scenario "one doubles: a second roll in the same turn, the later phases once":
    players Ann, Bob
    dice 1 1, 1 2
    play turn of Ann
    expect Ann.position == Tax                  # 2 onto the first Tax, then 3 onto the second
    expect Ann.cash == $100 - $1 - $1 + $2
    expect turn == 1

scenario "three doubles in a row: the third one goes to jail without moving":
    players Ann, Bob
    dice 1 1, 1 1, 2 2
    play turn of Ann
    expect Ann.position == Jail
    expect Ann.cash == $100 - $1 + $2
""")


def test_the_roll_again_loop_stops_when_no_doubles_and_logs_each_roll_again():
    rules = rules_of(ROLL_AGAIN)
    g = Game(rules, ["Ann", "Bob"], seed=1)
    g.setup()
    g.forced_dice = [(3, 3), (5, 5), (1, 2)]
    g.play_turn()
    kinds = [e.kind for e in g.events if e.turn == 1]
    assert kinds.count("roll") == 3 and kinds.count("again") == 2
    assert g.state.turn == 1 and not g.forced_dice


LANDING = """
turn:
    phase move:
        roll 2 dice as d
        move player by d.total

deck Chance cycle:
    card Nearest "Advance to the next lot; pay twice the rent, or ten times a fresh roll":
        move player to L1 with twice

on land Lot l as rent when l.owner != none and l.owner != player:
    if twice:
        roll 2 dice as fresh
        pay $1 * fresh.total * 10 from player to l.owner
    elif moved_by != none:
        pay $1 * moved_by.total * 4 from player to l.owner

on land Jail:
    draw from Chance
"""


def test_the_moving_roll_and_the_marks_reach_the_landing():
    assert_scenarios_pass(LANDING + """
scenario "the rent multiplies the roll that moved the token":
    players Ann, Bob
    set L2.owner = Bob
    dice 1 2
    play turn of Ann
    expect Ann.position == L2
    expect Bob.cash == $100 + $12

scenario "a move without a roll: no moving roll, no rent":
    players Ann, Bob
    set L2.owner = Bob
    as Ann:
        move player to L2
    expect Bob.cash == $100

scenario "a card's mark changes the next landing, and only that one":
    players Ann, Bob
    set L1.owner = Bob
    dice 2 2, 3 4
    play turn of Ann
    expect Ann.position == L1
    expect Bob.cash == $100 + $70
    dice 3 3
    play turn of Ann                        # all the way round onto L1 by a roll: four times it, not ten
    expect Ann.position == L1
    expect Bob.cash == $100 + $70 + $24
""")


JAIL = """
param fine = $5

turn:
    phase move:
        roll 2 dice as d again on doubles up to 3 times:
            move player by d.total
        too many doubles:
            put player in InJail
    phase after_move:
        pay $2 from bank to player

status InJail "In jail" at Jail:
    phase pay_fine "Pay the fine" optional:
        pay fine from player to bank
        release player
    phase try "Roll for doubles":
        roll 2 dice as d
        if d.doubles or player.status_turns == 3:
            pay (if d.doubles then $0 else fine) from player to bank
            release player
            move player by d.total
            end turn
"""


def test_a_status_has_its_own_turn_and_its_ways_out():
    assert_scenarios_pass(JAIL + """
scenario "three doubles: into jail, the turn ends there":
    players Ann, Bob
    dice 1 1, 1 1, 2 2
    play turn of Ann
    expect Ann.position == Jail
    expect Ann.status == InJail
    expect Ann.cash == $100 - $1

scenario "in jail: a failed roll keeps him there, and the ordinary phases do not run":
    players Ann, Bob
    as Ann:
        put player in InJail
    answer Ann pay_fine: skip
    dice 1 2
    play turn of Ann
    expect Ann.position == Jail
    expect Ann.status_turns == 1
    expect Ann.cash == $100

scenario "doubles get him out: he moves by them and does not roll again":
    players Ann, Bob
    as Ann:
        put player in InJail
    answer Ann pay_fine: skip
    dice 1 1
    play turn of Ann
    expect Ann.status == none
    expect Ann.position == Go
    expect Ann.cash == $100                 # out for free, and the after_move phase did not run

scenario "the third failed try: he pays the fine and moves":
    players Ann, Bob
    as Ann:
        put player in InJail
    answer Ann pay_fine: skip, skip, skip
    dice 1 2
    play turn of Ann
    dice 1 2
    play turn of Ann
    dice 1 2
    play turn of Ann
    expect Ann.status == none
    expect Ann.position == L1
    expect Ann.cash == $100 - fine

scenario "paying the fine: the ordinary turn follows":
    players Ann, Bob
    as Ann:
        put player in InJail
    answer Ann pay_fine: play
    dice 2 1
    play turn of Ann
    expect Ann.status == none
    expect Ann.position == L1
    expect Ann.cash == $100 - fine + $2
""")


def test_play_says_the_roll_again_and_the_status_in_words():
    from rulesc.sentences import Words

    words = Words(rules_of(JAIL))
    assert words.describe("again", ("Ann", 2)) == "doubles: Ann rolls again"
    assert words.describe("status", ("Ann", "InJail")) == "Ann is now in jail"
    assert words.describe("status", ("Ann", None)) == "Ann is free again"
    assert words.describe("phase", ("pay_fine",)) == "Pay the fine:"
