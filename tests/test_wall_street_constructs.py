"""The general constructs Wall Street needs (issue #8), each tested on its own in a small game:
`setup:`, squares that stop every move (`stop`), `cycle` decks and `lasting` cards with
`Deck.showing`, limits per turn or per visit on actions, and action timing within a turn
(`own turn before PHASE`, `window for P only A, B`), and what an agent may see (`hidden` fields).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.diagram import build_diagram
from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import HeuristicAgent, make_agents
from rulesc.interpreter.blindfold import view
from rulesc.interpreter.engine import Game
from rulesc.interpreter.market import TradeOffer
from rulesc.interpreter.rules import compile_rules, load_rules

from test_language_extensions import BASE, assert_all_pass, checked, errors, game

ROOT = Path(__file__).resolve().parent.parent


def rules_of(extra: str):
    return compile_rules(check_program(parse_text(BASE + extra, "tiny.rules")))


# ---- setup --------------------------------------------------------------------------------------

SETUP = """
global:
    interest: percent = 10%

setup:                                    § "The banker sets the interest level by rolling one die."
    roll 1 die as d
    set interest = [10%, 20%, 30%, 40%, 50%, 60%][d.total - 1]
    pay $7 from bank to players[1]
"""


def test_setup_runs_once_before_the_first_turn():
    g = game(SETUP)
    g.forced_dice.append((4,))
    g.setup()
    assert g.state.globals["interest"] == 40
    assert g.state.players[1].f["cash"] == 107 and g.state.turn == 0
    kinds = [e[1] for e in g.events]
    assert kinds == ["setup", "first", "roll", "set", "pay"]
    g.play_turn()
    g.play_turn()
    assert [e[1] for e in g.events].count("set") == 1  # never again


def test_setup_is_deterministic_and_played_by_whole_games():
    rules = rules_of(SETUP)
    logs = []
    for _ in range(2):
        g = Game(rules, 2, seed=5, agents=make_agents("random", 5, 2), turn_limit=20)
        g.play()
        logs.append(g.events)
    assert logs[0] == logs[1]
    assert [e for e in logs[0] if e[1] == "set" and e[0] == 0]


def test_end_game_in_setup_ends_the_game_before_the_first_turn():
    g = Game(rules_of("setup:\n    end game winner players[0] as \"at once\"\n"), 2, seed=1,
             agents=make_agents("random", 1, 2))
    state = g.play()
    assert state.over and state.end_reason == "at once" and state.turn == 0


def test_setup_misuse_is_reported():
    assert errors("setup:\n    end turn\n") == ["R0802"]
    assert errors("setup:\n    pay $1 from bank to player\n") == ["R0205"]
    assert errors("setup:\n    pass\nsetup:\n    pass\n") == ["R0204"]


def test_the_diagram_draws_the_setup_between_start_and_the_first_turn():
    dot = build_diagram(rules_of(SETUP).program).source
    assert "start -> setup" in dot and "setup -> next_turn" in dot
    assert "start -> next_turn" not in dot


# ---- squares that stop every move ------------------------------------------------------------------
# BASE's board: Go, R1, R2, Jail, B1 (a ring of five).

STOP = """
square News "Wall Street News" stop       § "all players always stop regardless of what the dice show"

on land News:
    set player.bonus = player.bonus + 1

on pass News:
    pay $1 from bank to player
"""


def stop_game(board="Go, R1, News, R2, Jail, B1"):
    text = (BASE.replace("board:\n    Go, R1, R2, Jail, B1", f"board:\n    {board}") + STOP)
    return compile_rules(check_program(parse_text(text, "tiny.rules")))


def test_a_move_by_that_would_pass_a_stop_square_ends_there_and_lands():
    rules = stop_game()
    g = Game(rules, ["Ann", "Bob"], seed=1, agents=make_agents("random", 1, 2))
    ann = g.state.players[0]
    g.move(ann, "by", 5, "x")  # Go -> R1 -> News: stops at News, two steps
    assert g.board[ann.at].name == "News" and ann.f["bonus"] == 1
    move = next(e for e in g.events if e[1] == "move")
    assert move[3] == ("Ann", "Go", "News", 2)
    assert ann.f["cash"] == 101  # `on pass` fires for the square it stops on, as for any landing
    g.move(ann, "by", 2, "x")  # from the stop square itself the token moves on
    assert g.board[ann.at].name == "Jail"


def test_stop_applies_to_every_move_by_but_not_to_move_to_or_back():
    rules = stop_game()
    g = Game(rules, ["Ann", "Bob"], seed=1, agents=make_agents("random", 1, 2))
    ann = g.state.players[0]
    g.move(ann, "to", g.squares["Jail"], "x")  # a named destination goes past it
    assert g.board[ann.at].name == "Jail" and ann.f["bonus"] == 0
    g.move(ann, "back", 3, "x")  # backwards: Jail -> R2 -> News -> R1
    assert g.board[ann.at].name == "R1" and ann.f["bonus"] == 0
    g.move(ann, "by", 1, "x")  # exactly onto it: an ordinary landing
    assert g.board[ann.at].name == "News" and ann.f["bonus"] == 1
    g.move(ann, "by", 11, "x")  # round the whole board and more: stops on its next arrival
    assert g.board[ann.at].name == "News" and ann.f["bonus"] == 2


def test_a_stop_square_in_a_scenario_and_a_whole_game():
    text = BASE.replace("board:\n    Go, R1, R2, Jail, B1", "board:\n    Go, R1, News, R2, Jail, B1") + STOP + """
scenario "stopping on Wall Street News":
    players Ann, Bob
    dice 6
    play turn of Ann
    expect Ann.position == News and Ann.bonus == 1
"""
    rules = compile_rules(check_program(parse_text(text, "tiny.rules")))
    from rulesc.interpreter.scenario import run_scenarios
    assert all(r.passed for r in run_scenarios(rules)), [r.failures for r in run_scenarios(rules)]
    g = Game(rules, 3, seed=2, agents=make_agents("random", 2, 3), turn_limit=60)
    g.play()
    lands = [e for e in g.events if e.kind == "move" and e.rule.text.startswith("tiny")]
    assert lands
    for _turn, _kind, _rule, (_who, start, dest, steps) in lands:
        order = ["Go", "R1", "News", "R2", "Jail", "B1"]
        i = order.index(start)
        assert "News" not in [order[(i + k) % 6] for k in range(1, steps)], (start, dest, steps)


def test_stop_misuse_and_the_diagram():
    assert errors('square Vault "Vault" stop off board\n') == ["R0705"]
    dot = build_diagram(stop_game().program).source
    assert "every move stops here" in dot


# ---- decks: cycle, lasting, Deck.showing ----------------------------------------------------------

NEWS = """
global:
    boom: bool = false

deck News cycle:                          § "Used cards are placed at the bottom of the pile."
    card Boom "Boom: rents double until the next card" lasting:
        set boom = true
    card Calm "Nothing happens":
        pass
    card Crash "Crash: no rent until the next card" lasting:
        set boom = false

on land Jail:
    draw from News
"""


def test_a_cycle_deck_puts_used_cards_at_the_bottom_unshuffled():
    g = game(NEWS)
    ann = g.state.players[0]
    start = list(g.state.decks["News"])
    g.decks.draw(g, "News", ann, "x")
    assert g.state.decks["News"] == start[1:] + start[:1]
    for _ in range(6):
        g.decks.draw(g, "News", ann, "x")
    drawn = [e[3][2] for e in g.events if e[1] == "draw"]
    assert drawn == (start * 3)[:7]  # the same order, round and round
    assert g.state.discards["News"] == [] and len(g.state.decks["News"]) == 3


def test_a_lasting_card_shows_until_the_next_card_of_its_deck():
    assert_all_pass(NEWS + """
scenario "a lasting card stays in force until the next draw":
    players Ann, Bob
    expect News.showing == none
    cards News: Boom, Calm, Crash
    as Ann:
        draw from News
    expect News.showing == News.Boom and boom
    expect News.left == 3
    as Bob:
        draw from News
    expect News.showing == none
    as Ann:
        draw from News
    expect News.showing == News.Crash and not boom
""")


def test_showing_round_trips_through_json():
    from rulesc.interpreter.state import state_from_json, state_to_json
    g = game(NEWS)
    g.decks.forced["News"] = ["Boom"]
    g.decks.draw(g, "News", g.state.players[0], "x")
    data = state_to_json(g.state)
    assert data["showing"] == {"News": ["News", "Boom"]}
    fresh = game(NEWS)
    back = state_from_json(data, fresh.things, fresh.squares, fresh.rules.player_class)
    assert back.showing == g.state.showing


def test_deck_misuse_is_reported():
    assert errors("deck D cycle:\n    card A keep lasting:\n        pass\non land Jail:\n    draw from D\n") == ["R0905"]
    codes = [d.code for d in __import__("test_language_extensions").checked(
        NEWS.replace(" lasting:", ":") + "define hot() = News.showing == News.Boom\n").diagnostics]
    assert "R0409" in codes


# ---- limits per turn and per visit ------------------------------------------------------------------

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


# ---- timing within a turn: own turn before/in/after PHASE; window for P only A, B ------------------

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


# ---- amounts chosen by a player ---------------------------------------------------------------------

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


# ---- round-robin auctions: in turn after P, passes N, bluffing ---------------------------------------
# Ann lands on R1 (Go, R1): three bidders, bidding starts after the current player (Ann).

ROUND = """
on land R1:
    auction R1 from $10 among players in turn after player passes 2 bluffing as sale:
        pay sale.price from sale.winner to bank
        set R1.owner = sale.winner
    else:
        pay $1 from bank to player
    bluff:
        pay $50 from sale.winner to bank      § "A bluffer who is exposed must then pay a fine"
"""


def auction_events(g):
    return [(e[1], e[3]) for e in g.events if e[1] in ("auction", "bid", "pass_bid", "sold", "unsold", "bluff")]


def test_round_robin_bids_in_seat_order_after_the_player_and_out_at_the_second_pass():
    g = game(ROUND, players=("Ann", "Bob", "Cy"), scripts={
        "Bob": {"bid": [20, None, None]}, "Cy": {"bid": [None, 30, None]}, "Ann": {"bid": [None, None]}})
    g.forced_dice.append((1,))
    g.play_turn()
    seen = auction_events(g)
    assert seen[0] == ("auction", ("R1", 10, ["Bob", "Cy", "Ann"]))
    # Bob 20; Cy passes (once); Ann passes (once); Bob... holds; Cy 30; Ann passes: out; Bob passes (once);
    # Bob passes again: out; Cy's 30 stands.
    assert seen[1:] == [("bid", ("Bob", 20)), ("pass_bid", ("Cy", 1)), ("pass_bid", ("Ann", 1)),
                        ("bid", ("Cy", 30)), ("pass_bid", ("Ann", 2)), ("pass_bid", ("Bob", 1)),
                        ("pass_bid", ("Bob", 2)), ("sold", ("R1", "Cy", 30))]
    cy = g.state.players[2]
    assert cy.f["cash"] == 70 and next(t for t in g.state.things if t.name == "R1").f["owner"] is cy


def test_a_bluffer_is_fined_and_the_auction_runs_again_without_him():
    # Bob bids $150 with $100 (a bluff), everyone else passes twice; he cannot raise the cash: exposed,
    # fined $50, and the auction runs again: Cy 40 wins.
    g = game(ROUND, players=("Ann", "Bob", "Cy"), scripts={
        "Bob": {"bid": [150]}, "Cy": {"bid": [None, None, 40]}, "Ann": {"bid": [None, None, None, None]}})
    g.forced_dice.append((1,))
    g.play_turn()
    seen = auction_events(g)
    assert ("bluff", ("Bob", 150)) in seen
    assert seen.count(("auction", ("R1", 10, ["Bob", "Cy", "Ann"]))) == 1
    assert ("auction", ("R1", 10, ["Cy", "Ann"])) in seen
    assert seen[-1] == ("sold", ("R1", "Cy", 40))
    ann, bob, cy = g.state.players
    assert bob.f["cash"] == 50 and cy.f["cash"] == 60 and next(t for t in g.state.things if t.name == "R1").f["owner"] is cy


def test_nobody_bids_runs_else():
    g = game(ROUND, players=("Ann", "Bob"))
    g.forced_dice.append((1,))
    g.play_turn()
    assert auction_events(g)[-1] == ("unsold", ("R1",))
    assert g.state.players[0].f["cash"] == 101


def test_without_bluffing_no_bid_exceeds_cash():
    from rulesc.interpreter.errors import AgentError
    g = game(ROUND.replace(" bluffing", "").replace("    bluff:\n        pay $50 from sale.winner to bank"
                                                     "      § \"A bluffer who is exposed must then pay a fine\"\n", ""),
             scripts={"Bob": {"bid": [150]}})
    g.forced_dice.append((1,))
    with pytest.raises(AgentError):
        g.play_turn()


def test_round_robin_misuse_is_reported():
    assert errors(ROUND.replace("passes 2", "passes 0")) == ["R0314"]
    assert errors(ROUND.replace(" bluffing", "")) == ["R0909"]
    assert errors(ROUND.replace("after player", "after $5")) == ["R0301"]


def test_round_robin_auctions_are_deterministic_in_whole_games():
    rules = rules_of(ROUND + "\non debt:\n    eliminate debtor\n")
    for kind in ("random", "heuristic"):
        logs = []
        for _ in range(2):
            g = Game(rules, 3, seed=3, agents=make_agents(kind, 3, 3), turn_limit=60)
            g.play()
            logs.append(g.events)
        assert logs[0] == logs[1]


def test_the_diagram_says_how_a_round_robin_auction_runs():
    dot = build_diagram(rules_of(ROUND).program).source
    assert "auction in seat order, out at pass 2; bluffs allowed, a bluffer is fined and it runs again" in dot


# ---- accounts as fields -----------------------------------------------------------------------------

ACCOUNTS = """
global:
    rate: percent = 50%
    pot: account

action save own turn when player.cash >= $20 and player.savings.balance + $20 <= $40:   § "a player may never have more than 1,000,000:- deposited"
    pay $20 from player to player.savings

action withdraw(a: money from $10 to player.savings.balance step $10) own turn:
    pay a from player.savings to player

on land Jail:
    pay rate of player.savings.balance rounded down from bank to player.savings
    pay $1 from player to pot

scenario "a deposit is an account: saved, withdrawn, earning interest":
    players Ann, Bob
    do Ann save
    do Ann save
    forbid Ann save
    expect Ann.cash == $60 and Ann.savings.balance == $40
    do Ann withdraw $10
    forbid Ann withdraw $40
    expect Ann.cash == $70 and Ann.savings.balance == $30
    dice 3
    play turn of Ann
    expect Ann.savings.balance == $45
    expect pot.balance == $1 and Ann.cash == $69
"""


def account_rules(extra: str = ACCOUNTS):
    text = BASE.replace("    bonus: count = 0\n", "    bonus: count = 0\n    savings: account\n") + extra
    checked = check_program(parse_text(text, "tiny.rules"))
    assert not [d for d in checked.diagnostics if d.is_error], [d.message for d in checked.diagnostics]
    return compile_rules(checked)


def test_an_account_field_holds_money_apart_from_cash():
    from rulesc.interpreter.scenario import run_scenarios
    for result in run_scenarios(account_rules()):
        assert result.passed, result.failures


def test_accounts_are_counted_by_money_conservation_and_survive_json():
    from rulesc.interpreter.state import Account, state_from_json, state_to_json
    from rulesc.properties.invariants import InvariantChecker, PropertyFailure
    rules = account_rules()
    g = Game(rules, 2, seed=4, agents=make_agents("random", 4, 2), turn_limit=80)
    types = {name: type(name, (PropertyFailure,), {}) for name in ("money is conserved",)}

    class Types(dict):
        def __missing__(self, key):
            return PropertyFailure
    g.observer = InvariantChecker(g, rules, set(), Types(types))
    g.play()
    accounts = [p.f["savings"] for p in g.state.players] + [g.state.globals["pot"]]
    assert all(isinstance(a, Account) for a in accounts) and accounts[0].name == "P1.savings"
    assert any(a.balance for a in accounts)
    total = sum(p.f["cash"] for p in g.state.players) + g.state.bank.balance + sum(a.balance for a in accounts)
    fresh = Game(rules, 2, seed=4, agents=make_agents("random", 4, 2), turn_limit=80)
    assert total == sum(p.f["cash"] for p in fresh.state.players) + fresh.state.bank.balance
    data = state_to_json(g.state)
    back = state_from_json(data, g.state.things, {}, g.rules.player_class)
    assert state_to_json(back) == data
    assert back.players[0].f["savings"].balance == accounts[0].balance


def test_paying_more_than_an_account_holds_is_a_runtime_error():
    from rulesc.interpreter.errors import RuleRuntimeError
    rules = account_rules(ACCOUNTS + "\non land R1:\n    pay $5 from player.savings to bank\n")
    g = Game(rules, 2, seed=1, agents=make_agents("random", 1, 2))
    g.forced_dice.append((1,))
    with pytest.raises(RuleRuntimeError, match="holds 0 and cannot pay 5"):
        g.play_turn()


def test_account_misuse_is_reported():
    assert errors("global:\n    pot: account = bank\n") == ["R0210"]
    assert errors("global:\n    pot: account\n\non land R1:\n    set pot = bank\n") == ["R0309"]


# ---- hidden fields: what a player can see --------------------------------------------------------------

def hidden_rules(extra: str):
    text = BASE.replace("    cash: money = $100\n", "    hidden cash: money = $100\n") + extra
    return check_program(parse_text(text, "tiny.rules"))


def hidden_errors(extra: str) -> list[str]:
    return [d.code for d in hidden_rules(extra).diagnostics if d.is_error]


def test_a_hint_may_read_its_own_hidden_field_but_not_anothers():
    assert hidden_errors("hint act_x = player.cash - $50\naction x own turn:\n    pass\n") == []
    assert hidden_errors("hint act_x = max(q in players where q != player: q.cash)\n"
                         "action x own turn:\n    pass\n") == ["R0212"]
    assert hidden_errors("hint worth(l: Lot) = if l.owner != none then l.owner.cash else $0\n") == ["R0212"]
    # through a function, even one given `player`: a function sees only its parameters
    assert hidden_errors("define richest(q: player) = q.cash > $500\n"
                         "hint act_x = if richest(players[1]) then 1 else 0\naction x own turn:\n    pass\n") == ["R0212"]
    # rules themselves see everything
    assert hidden_errors("on land R1:\n    if players[1].cash > $5:\n        pay $1 from bank to player\n") == []


def test_only_player_fields_are_hidden():
    assert errors("global:\n    hidden pot: money = $0\n") == ["R0211"]
    assert errors("kind Coin:\n    hidden face: count\n") == ["R0211"]


def test_the_view_leaves_out_other_players_hidden_fields():
    rules = compile_rules(hidden_rules(""))
    g = Game(rules, ["Ann", "Bob"], seed=1, agents=make_agents("heuristic", 1, 2))
    ann, bob = g.state.players
    seen = view(g, ann)
    fields = {p["name"]: p["fields"] for p in seen["players"]}
    assert fields["Ann"]["cash"] == 100 and "cash" not in fields["Bob"] and "bonus" in fields["Bob"]
    assert "rng" not in seen
    assert view(g, bob)["players"][0]["fields"].keys() == {"bonus"}
    # the engine still reads and changes everything
    g.play()
    assert all(isinstance(p.f["cash"], int) for p in g.state.players)


class Watcher(HeuristicAgent):
    """The heuristic agent, noting what it can see of the others whenever it is asked to bid or act."""

    def __init__(self, seed=0, seat=0):
        super().__init__(seed, seat)
        self.seen = []

    def act(self, game, player, options, raising):
        self.seen.append({p.name: (p.f.get("cash"), "cash" in p.f) for p in game.state.players})
        return super().act(game, player, options, raising)


class Peeker(HeuristicAgent):
    """An agent that reads another player's cash, which the rules keep hidden."""

    def act(self, game, player, options, raising):
        richest = max(p.f["cash"] for p in game.state.players if p is not player)
        return super().act(game, player, options, raising) if richest >= 0 else None


def test_agents_decide_with_the_others_hidden_fields_masked():
    from rulesc.interpreter.blindfold import HiddenFieldRead
    rules = compile_rules(hidden_rules("action spend own turn:\n    pay $1 from player to bank\n"))
    watcher = Watcher()
    g = Game(rules, ["Ann", "Bob"], seed=1, agents={0: watcher, 1: HeuristicAgent(1, 1)})
    g.play_turn()
    assert watcher.seen, "the agent was never asked to act"
    for seen in watcher.seen:
        assert seen["Bob"] == (None, False) and isinstance(seen["Ann"][0], int)
    # the mask is lifted when the agent has answered: the engine reads and pays from every field
    assert all(type(p) is rules.player_class and isinstance(p.f["cash"], int) for p in g.state.players)
    peeking = Game(rules, ["Ann", "Bob"], seed=1, agents={0: Peeker(), 1: HeuristicAgent(1, 1)})
    with pytest.raises(HiddenFieldRead, match="agent of Ann read Bob's hidden field `cash`"):
        peeking.play_turn()


class AttributePeeker(HeuristicAgent):
    """An agent that reads another player's hidden cash as rules written out read it: the attribute."""

    def act(self, game, player, options, raising):
        richest = max(p.f_cash for p in game.state.players if p is not player)
        return super().act(game, player, options, raising) if richest >= 0 else None


def test_the_mask_covers_a_field_read_as_an_attribute_and_is_lifted_after():
    from rulesc.interpreter.blindfold import HiddenFieldRead
    rules = compile_rules(hidden_rules("action spend own turn:\n    pay $1 from player to bank\n"))
    peeking = Game(rules, ["Ann", "Bob"], seed=1, agents={0: AttributePeeker(), 1: HeuristicAgent(1, 1)})
    with pytest.raises(HiddenFieldRead, match="agent of Ann read Bob's hidden field `cash`"):
        peeking.play_turn()
    bob = peeking.state.players[1]
    assert type(bob) is rules.player_class and bob.f_cash == bob.f["cash"] == 100


def test_with_nothing_hidden_agents_see_everything():
    rules = compile_rules(checked("action spend own turn:\n    pay $1 from player to bank\n"))
    watcher = Watcher()
    g = Game(rules, ["Ann", "Bob"], seed=1, agents={0: watcher, 1: HeuristicAgent(1, 1)})
    g.play_turn()
    assert watcher.seen and all(seen["Bob"] == (100, True) for seen in watcher.seen)


@pytest.mark.slow
def test_the_heuristic_agent_plays_wall_street_without_peeking():
    """Whole games of both Wall Street files with every agent blindfolded: a peek would raise."""
    for path in ("games/wallstreet.rules", "games/wallstreet-short.rules"):
        rules = load_rules(str(ROOT / path))
        assert "cash" in rules.hidden_fields
        for seed in range(3):
            for kind in ("heuristic", "random"):
                Game(rules, 3, seed=seed, agents=make_agents(kind, seed, 3)).play()


def test_the_terminal_shows_the_others_hidden_cash_as_hidden():
    from rulesc.play import status
    rules = compile_rules(hidden_rules(""))
    g = Game(rules, ["Ann", "Bob"], seed=1, agents=make_agents("heuristic", 1, 2))
    seen_by_ann = status(g, 0)
    assert "Ann (you): on Go, cash $100" in seen_by_ann and "Bob: on Go, cash hidden" in seen_by_ann
    assert "Bob: on Go, cash $100" in status(g)  # the whole state, for a log or a test


def test_a_huge_number_of_passes_stops_instead_of_hanging():
    from rulesc.interpreter.errors import StepBudgetExceeded
    g = game(ROUND.replace("passes 2", "passes 1000000000"), players=("Ann", "Bob"))
    g.forced_dice.append((1,))
    with pytest.raises(StepBudgetExceeded, match="auction ran past"):
        g.play_turn()


def test_the_diagram_names_hidden_fields_and_accounts():
    text = BASE.replace("    cash: money = $100\n", "    hidden cash: money = $100\n    savings: account\n")
    dot = build_diagram(check_program(parse_text(text, "tiny.rules")).program).source
    assert "kept hidden from the others: cash" in dot and "each player's account: savings" in dot
