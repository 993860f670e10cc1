"""The scenario constructs for what a rulebook's "may not" and "only" need: `refuse` (an answer the rules
must refuse, reported with the rule that refuses it), answers for a window (`in|before|after PHASE`,
`of P`, `while COND`), the game's `setup`, and what a player sees (`expect P sees X`)."""

from __future__ import annotations

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.rules import compile_rules
from rulesc.interpreter.scenario import run_scenarios

GAME = '''\
game "Tiny":
    players: 2 to 4
    start: Go
    first player: highest roll 2 dice

player:
    cash: money = $500
    hidden savings: money = $0

global:
    opened: count = 0

kind Lot:
    price: money
    state owner: player? = none

table Lot:
    name   price
    Alpha  $60
    Beta   $80

square Go "Go"

board:
    Go, Alpha, Beta

setup:
    set opened = 7

turn:
    phase move:
        roll 2 dice as d
        move player by d.total
    phase shop:
        window for player

action build(l: Lot) own turn when l.owner == player and player.cash >= $10:
    pay $10 from player to bank

trade Lot with cash when player.cash > $100

on land Lot p when p.owner == none:
    choose "buy" by player:
        option buy when player.cash >= p.price:
            pay p.price from player to bank
            set p.owner = player
        option decline:
            auction p from $1 among list(q in players where q != player) as sale:
                pay sale.price from sale.winner to bank
                set p.owner = sale.winner

end when count(players) == 1 winner players[0] as "last player standing"
'''


def line(fragment: str) -> int:
    """The line of GAME that holds `fragment`."""
    return next(n for n, text in enumerate(GAME.splitlines(), start=1) if fragment in text)


def run(scenario: str) -> object:
    checked = check_program(parse_text(GAME + "\n" + scenario, "tiny.rules"))
    assert checked.ok, [d.message for d in checked.diagnostics if d.is_error]
    (result,) = run_scenarios(compile_rules(checked))
    return result


def messages(records) -> str:
    return "\n".join(f"{r.line}: {r.message}" for r in records)


REFUSED = '''\
scenario "refusals":
    players Ann, Bob
    set Ann.cash = $50
    set Alpha.owner = Ann
    dice 1 1
    refuse Ann buy: buy
    refuse Ann bid: $5
    refuse Bob bid: $600
    answer Bob bid: $20
    refuse Ann act in shop: build, Beta
    refuse Ann trade Alpha to Bob for $5 in shop
    play turn of Ann
    forbid Ann build Beta
    expect Beta.owner == Bob and Bob.cash == $480
'''


def test_each_refusal_names_the_rule_that_refuses_it():
    result = run(REFUSED)
    assert result.passed, messages(result.failures)
    text = messages(result.refusals)
    choose, option, auction = line('choose "buy"'), line("option buy"), line("auction p")
    build, trade = line("action build"), line("trade Lot")
    assert f"Ann's answer `buy` to `buy` refused: option `buy` of `choose \"buy\"` (tiny.rules:{choose}) is offered " \
           f"only when `player.cash >= p.price` (tiny.rules:{option})" in text
    assert f"Ann's bid $5 refused: Ann is not among the bidders in the auction at tiny.rules:{auction}: " \
           "`among list(q in players where q != player)`" in text
    assert f"Bob's bid $600 refused: the highest bid Bob may make now in the auction at tiny.rules:{auction} is " \
           "$500 (his cash)" in text
    assert f"Ann's `build Beta` refused: action `build` (tiny.rules:{build}): its condition `l.owner == player` is false" \
        in text
    assert f"Ann's offer `trade Alpha to Bob for $5` refused: `trade` (tiny.rules:{trade}): its condition " \
           "`player.cash > $100` is false" in text
    assert f"`build Beta` by Ann refused: action `build` (tiny.rules:{build})" in text  # the step's `forbid` too


def test_after_a_refusal_the_decision_takes_the_next_answer():
    """Bob's $600 is refused, and the same bid is then answered with his next answer, $20 (the auction's
    price); Ann's refused `buy` leaves her `decline`, the default, so the auction is held."""
    result = run(REFUSED)
    assert result.passed
    assert any(e.kind == "bid" and e.payload == ("Bob", 20) for e in result.events)


@pytest.mark.parametrize("line, said", [
    ("refuse Ann buy: decline", "Ann's answer `decline` to `buy` was accepted (it is offered), but the scenario "
                                "expects it refused"),
    ("answer Ann buy: decline\n    refuse Bob bid: $5", "Bob's bid $5 was accepted (bids from $1 to $500 are allowed), but the scenario expects it "
                           "refused"),
    ("refuse Ann act in shop: build, Alpha", "Ann's `build Alpha` was accepted (it is legal in this window)"),
    ("refuse Ann trade Alpha to Bob for $5 in shop", "Ann's offer `trade Alpha to Bob for $5` was accepted (the rules "
                                                     "allow it now)"),
])
def test_an_answer_the_rules_accept_fails_the_refusal(line, said):
    result = run(f'''\
scenario "accepted":
    players Ann, Bob
    set Alpha.owner = Ann
    dice 1 1
    {line}
    answer Bob accept: false
    play turn of Ann
''')
    assert said in messages(result.failures)


def test_a_refusal_or_a_windowed_answer_never_put_fails():
    result = run('''\
scenario "never asked":
    players Ann, Bob
    set Alpha.owner = Ann
    dice 2 1
    refuse Ann bid: $5
    answer Ann act in move: build, Alpha
    play turn of Ann
''')
    text = messages(result.failures)
    assert "Ann's bid $5 was never put to the rules: no `bid` was asked of Ann" in text
    assert "Ann's `build Alpha` was never given: no `act` was asked of Ann in that window" in text


def window_of_the_build(result) -> object:
    """The `where` of the window in which the build was taken (NO_RULE: an end-of-turn window)."""
    events = list(result.events)
    at = next(i for i, e in enumerate(events) if e.kind == "action")
    return next(e for e in reversed(events[:at]) if e.kind == "window").rule


@pytest.mark.parametrize("window, at", [("", "window for"), ("in shop", "window for"), ("after shop", None),
                                       ("while current == Bob", "never")])
def test_an_answer_is_given_in_the_window_it_names(window, at):
    """Without a window the first window takes the answer (the `shop` phase's); `after shop`
    waits for the end-of-turn windows; `while current == Bob` never comes in Ann's turn."""
    result = run(f'''\
scenario "windows":
    players Ann, Bob
    set Alpha.owner = Ann
    dice 2 1
    answer Ann act {window}: build, Alpha
    play turn of Ann
''')
    if at == "never":
        assert not result.passed and "was never given" in messages(result.failures)
        return
    assert result.passed, messages(result.failures)
    assert window_of_the_build(result).line == (line(at) if at is not None else 0)


def test_setup_chooses_the_first_player_with_the_forced_dice_and_runs_the_setup_block():
    result = run('''\
scenario "set up":
    players Ann, Bob
    dice 2 3, 6 5
    setup
    expect current == Bob and opened == 7
''')
    assert result.passed, messages(result.failures)
    without = run('''\
scenario "not set up":
    players Ann, Bob
    expect current == Ann and opened == 0
''')
    assert without.passed, messages(without.failures)


def test_what_a_player_sees_is_what_his_agent_may_read():
    passing = run('''\
scenario "sees":
    players Ann, Bob
    expect Bob cannot see Ann.savings
    expect Bob cannot see Ann.cash + Ann.savings
    expect Bob sees Ann.cash
    expect Ann sees Ann.savings
''')
    assert passing.passed, messages(passing.failures)
    failing = run('''\
scenario "sees wrongly":
    players Ann, Bob
    expect Bob sees Ann.savings
    expect Bob cannot see Ann.position
''')
    text = messages(failing.failures)
    assert "Bob cannot see `Ann.savings`: the agent of Bob read Ann's hidden field `savings`" in text
    assert "Bob sees `Ann.position` (it is `Go`): nothing it reads is hidden from him" in text


def test_a_do_that_is_not_allowed_says_why():
    result = run('''\
scenario "not allowed":
    players Ann, Bob
    do Ann build Alpha
''')
    assert f"`build Alpha` by Ann is not allowed here (action `build` (tiny.rules:{line('action build')}): its " \
           "condition `l.owner == player` is false), but the scenario does it" in messages(result.failures)


def test_check_reports_the_refusals_as_data():
    from rulesc.report import scenario_results
    data = scenario_results("tiny.rules", [run(REFUSED)])
    refused = data["scenarios"][0]["refused"]
    assert len(refused) == 6 and all(set(r) == {"line", "message"} for r in refused)
    assert any("option `buy`" in r["message"] for r in refused)
