"""Actions, each case in a small game (tests/tiny_game.py): limits (`once per turn`, `N per visit`) in
scenarios, whole games and saved states; timing within a turn (`own turn before/in/after PHASE`,
`window for P only A, B`, a `window` mid-turn); amounts a player chooses (`a: money from X to Y step
S`), offered, scripted, chosen by a hint; and what the checker and the run refuse of each."""

from __future__ import annotations

import pytest

from rulesc.diagram import build_diagram
from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.market import TradeOffer
from rulesc.interpreter.rules import compile_rules

from tiny_game import BASE, assert_all_pass, errors, rules_of


# ---- limits per turn and per visit ---------------------------------------------------------------

LIMITS = """
action borrow own turn once per turn:     § "Each loan is 50,000:-."
    pay $50 from bank to player

action buy_share any time 2 per visit when player.position == R1:   § "You may buy one share and one fund per visit."
    pay $1 from player to bank
"""


def test_once_per_turn_is_offered_again_in_the_next_turn():
    assert_all_pass(LIMITS + """
scenario "one loan a turn":
    players Ann, Bob
    do Ann borrow
    forbid Ann borrow
    expect Ann.cash == $150
    play turn of Bob
    do Ann borrow
    forbid Ann borrow
    expect Ann.cash == $200
""")


def test_n_per_visit_counts_from_each_arrival():
    assert_all_pass(LIMITS + """
scenario "two shares a visit":
    players Ann, Bob
    as Ann:
        move player to R1
    do Ann buy_share
    do Ann buy_share
    forbid Ann buy_share
    play turn of Bob
    forbid Ann buy_share
    as Ann:
        move player to Go
    as Ann:
        move player to R1
    do Ann buy_share
    expect Ann.cash == $100 - $3 + $5
""")


def test_limits_hold_in_whole_games_and_survive_json():
    from rulesc.interpreter.state import state_from_json, state_to_json
    rules = rules_of(LIMITS + "hint act_borrow = 1\nhint act_buy_share = 1\n")
    g = Game(rules, 2, seed=4, agents=make_agents("heuristic", 4, 2), turn_limit=30)
    g.play()
    loans = {}
    for turn, kind, _rule, payload in g.events:
        if kind == "action" and payload[1] == "borrow":
            loans[turn, payload[0]] = loans.get((turn, payload[0]), 0) + 1
    assert loans and set(loans.values()) == {1}
    data = state_to_json(g.state)
    back = state_from_json(data, Game(rules, 2, seed=4).things, g.squares, rules.player_class)
    assert [(p.visits, p.uses) for p in back.players] == [(p.visits, p.uses) for p in g.state.players]
    assert any(p.uses for p in back.players)


def test_limit_misuse_and_the_diagram():
    assert errors("action a any time 0 per turn:\n    pass\n") == ["R0803"]
    dot = build_diagram(rules_of(LIMITS).program).source
    assert "borrow, own turn, once per turn" in dot and "buy_share, any time, 2 per visit" in dot


# ---- timing within a turn: own turn before/in/after PHASE; window for P only A, B ----------------

TIMING_BASE = BASE.replace("""turn:
    phase move:
        roll 1 die as d
        move player by d.total
""", """turn:
    phase prepare "Buy a car or insurance, take a loan":
        window for player
    phase move:
        roll 1 die as d
        move player by d.total
    phase bank "Banking on a Bankomat" when player.position == Jail:
        window for player only deposit
        set player.bonus = player.bonus + 10
""")


TIMING = """
action buy_car own turn before move when player.bonus == 0:   § "before you have rolled the die, you are entitled to buy a car"
    pay $5 from player to bank
    set player.bonus = 1

action deposit own turn in bank:          § "he or she has the opportunity first to carry out banking transactions"
    pay $1 from player to bank

action loan own turn:
    pay $50 from bank to player

action sell_car own turn after move when player.bonus > 0:
    pay $2 from bank to player
    set player.bonus = 0
"""


def timing_game(scripts, seed=1):
    from rulesc.interpreter.agents import ScriptedAgent
    rules = compile_rules(check_program(parse_text(TIMING_BASE + TIMING, "tiny.rules")))
    agents = {i: ScriptedAgent(scripts.get(name, {})) for i, name in enumerate(("Ann", "Bob"))}
    return Game(rules, ["Ann", "Bob"], seed=seed, agents=agents)


def offered(g, player):
    return sorted({o.action for o in g.actions.legal_actions(g, player, own_turn=True)})


def test_own_turn_before_a_phase_is_offered_only_before_it():
    g = timing_game({})
    ann = g.state.players[0]
    assert offered(g, ann) == ["buy_car", "loan"]  # between turns: Ann's turn has not reached `move`
    seen = []
    g.observer = lambda game, kind, where, payload: seen.append(offered(game, ann)) if kind == "roll" else None
    g.play_turn()
    assert seen == [["loan"]]  # while moving: neither before `move` nor after it
    g.set_field(ann, "bonus", 1, "x")
    g.phase_at = 2  # in `bank`
    assert offered(g, ann) == ["deposit", "loan", "sell_car"]
    g.phase_at = 3  # after the last phase: the end-of-turn windows
    assert offered(g, ann) == ["loan", "sell_car"]


def test_a_car_bought_before_rolling_and_sold_after():
    g = timing_game({"Ann": {"act": [("buy_car", None), None, ("sell_car", None)]}})  # None: pass
    ann = g.state.players[0]
    g.forced_dice.append((1,))
    g.play_turn()
    actions = [e[3][1] for e in g.events if e[1] == "action"]
    assert actions == ["buy_car", "sell_car"]
    order = [e[1] for e in g.events if e[1] in ("action", "roll")]
    assert order == ["action", "roll", "action"]  # bought in `prepare`, sold in the end-of-turn window
    assert ann.f["cash"] == 100 - 5 + 2


def test_window_only_offers_the_named_actions_and_no_trades():
    g = timing_game({"Ann": {"act": [None, ("deposit", None), ("deposit", None), None]}})
    ann = g.state.players[0]
    g.state.things[0].f["owner"] = ann  # something Ann could trade, were trades allowed
    windows = []

    def watch(game, kind, where, payload):
        if kind == "window" and game.actions.only is not None:
            windows.append(sorted(o.action for o in game.actions.legal_actions(game, ann, own_turn=True)))
            assert not game.market.trade_is_legal(game, TradeOffer(ann, game.state.players[1], (game.state.things[0],),
                                                                   (), -1))
    g.observer = watch
    g.forced_dice.append((3,))  # Go -> R1 -> R2 -> Jail: the bank phase runs
    g.play_turn()
    assert windows == [["deposit"]]
    acts = [e[3][1] for e in g.events if e[1] == "action"]
    assert acts == ["deposit", "deposit"] and ann.f["bonus"] == 10
    assert g.actions.only is None  # closed again


def test_timing_in_a_scenario():
    text = TIMING_BASE + TIMING + """
scenario "a car before rolling":
    players Ann, Bob
    do Ann buy_car
    forbid Ann buy_car
    forbid Ann deposit
    dice 3
    play turn of Ann
    forbid Ann buy_car
    do Bob buy_car
    expect Ann.cash == $95 and Bob.cash == $95
"""
    from rulesc.interpreter.scenario import run_scenarios
    results = run_scenarios(compile_rules(check_program(parse_text(text, "tiny.rules"))))
    assert all(r.passed for r in results), [r.failures for r in results]


def test_timing_misuse_is_reported():
    assert errors("action a own turn before mvoe:\n    pass\n") == ["R0205"]
    assert errors("action a own turn:\n    pass\non land Jail:\n    window for player only a, b\n") == ["R0205"]
    dot = build_diagram(compile_rules(check_program(parse_text(TIMING_BASE + TIMING, "tiny.rules"))).program).source
    assert "buy_car, own turn before move" in dot and "only deposit" in dot


def test_window_lets_a_player_act_in_the_middle_of_a_turn():
    assert_all_pass("""
action tip any time when player.cash >= $50:
    pay $1 from player to bank

scenario "a window mid-turn":
    players Ann, Bob
    answer Ann act: tip, none
    as Ann:
        window for player
    expect Ann.cash == $99
""")
    assert errors("after turn:\n    window for $5\n") == ["R0301"]


# ---- amounts chosen by a player ------------------------------------------------------------------

AMOUNTS = """
global:
    cap: money = $50

player:
    deposit: money = $0

action deposit(a: money from $10 to cap - player.deposit step $10) own turn when a <= player.cash:   § "Deposits are made in even amounts of 100,000:- and a player may never have more than 1,000,000:- deposited"
    pay a from player to bank
    set player.deposit = player.deposit + a

action withdraw(a: money from $1 to player.deposit step $1) any time:   § "A withdrawal means the player takes any sum he or she wishes out of the bank book."
    pay a from bank to player
    set player.deposit = player.deposit - a
"""


def amounts_text():
    return BASE.replace("player:\n    cash: money = $100\n    bonus: count = 0\n",
                        "player:\n    cash: money = $100\n    bonus: count = 0\n    deposit: money = $0\n") \
        + AMOUNTS.replace("\nplayer:\n    deposit: money = $0\n", "\n")


def amount_rules():
    return compile_rules(check_program(parse_text(amounts_text(), "tiny.rules")))


def test_the_amounts_offered_run_from_low_to_high_in_steps():
    g = Game(amount_rules(), ["Ann", "Bob"], seed=1, agents=make_agents("random", 1, 2))
    ann = g.state.players[0]
    assert [o.argument for o in g.actions.legal_actions(g, ann, own_turn=True) if o.action == "deposit"] == [10, 20, 30, 40, 50]
    g.set_field(ann, "deposit", 30, "x")
    g.set_field(ann, "cash", 15, "x")
    options = g.actions.legal_actions(g, ann, own_turn=True)
    assert [o.argument for o in options if o.action == "deposit"] == [10]  # cap - deposit = 20, cash 15
    assert [o.argument for o in options if o.action == "withdraw"] == list(range(1, 31))


def test_amounts_in_scenarios_do_and_forbid_and_scripted_answers():
    text = amounts_text() + """
scenario "deposits in steps up to the cap":
    players Ann, Bob
    do Ann deposit $30
    forbid Ann deposit $30
    forbid Ann deposit $15
    do Ann deposit $20
    forbid Ann deposit $10
    expect Ann.deposit == $50 and Ann.cash == $50
    do Ann withdraw $7
    expect Ann.deposit == $43 and Ann.cash == $57

scenario "a scripted amount in a window":
    players Ann, Bob
    answer Ann act: deposit, $40
    dice 1
    play turn of Ann
    expect Ann.deposit == $40
"""
    from rulesc.interpreter.scenario import run_scenarios
    results = run_scenarios(compile_rules(check_program(parse_text(text, "tiny.rules"))))
    assert len(results) == 2 and all(r.passed for r in results), [r.failures for r in results]
    actions = [e for e in results[1].events if e[1] == "action"]
    assert actions[0][3] == ("Ann", "deposit", 40)


def test_the_heuristic_chooses_an_amount_by_its_hint_and_games_are_deterministic():
    text = amounts_text() + "hint act_deposit(a: money) = a - $25\nhint act_withdraw(a: money) = $0 - a\n"
    rules = compile_rules(check_program(parse_text(text, "tiny.rules")))
    logs = []
    for _ in range(2):
        g = Game(rules, 2, seed=3, agents=make_agents("heuristic", 3, 2), turn_limit=10)
        g.play()
        logs.append(g.events)
    assert logs[0] == logs[1]
    deposits = [e[3][2] for e in logs[0] if e[1] == "action" and e[3][1] == "deposit"]
    assert deposits and deposits[0] == 50  # the best score: the most it may deposit
    assert not [e for e in logs[0] if e[1] == "action" and e[3][1] == "withdraw"]  # never positive
    for kind in ("random",):
        g = Game(rules, 3, seed=2, agents=make_agents(kind, 2, 3), turn_limit=40)
        g.play()
        assert all(p.f["deposit"] <= 50 for p in g.state.players)


def test_amount_misuse_is_reported():
    assert errors("action a(x: money from $10 to $100 step $0) any time:\n    pass\n") == ["R0312"]
    assert errors("action a(x: money from 1 to $100 step $10) any time:\n    pass\n") == ["R0301"]
    assert errors("action a(x: Lot from $1 to $100 step $10) any time:\n    pass\n") == ["R0301"]


def test_a_huge_range_or_a_zero_step_stops_the_game_with_a_diagnostic():
    from rulesc.interpreter.errors import RuleRuntimeError
    for extra, message in (("action a(x: money from $1 to $1,000,000 step $1) any time:\n    pass\n", "amounts"),
                           ("action a(x: count from 1 to 5 step turn - turn) any time:\n    pass\n", "step")):
        g = Game(rules_of(extra), ["Ann", "Bob"], seed=1, agents=make_agents("random", 1, 2))
        with pytest.raises(RuleRuntimeError, match=message):
            g.actions.legal_actions(g, g.state.players[0], own_turn=True)
