"""Each language construct added for Wheeler Dealer, tested on its own in a small game.

Every test builds a tiny game from BASE plus the construct under test, and checks both
that the checker accepts (or rejects) it and that the engine does what docs/language.md
says: `define`, `choose … for`, `even`/`odd`, `first`/`best`, `send`/`place`, `discard`,
`extra turn`, kept cards and `use card`, `Deck.left`, `owing`, `current`, and `!= bank`.
"""

from __future__ import annotations

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import ScriptedAgent
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules
from rulesc.interpreter.scenario import run_scenarios

BASE = """
game "Tiny":
    players: 2 to 4
    start: Go

player:
    cash: money = $100
    bonus: count = 0

kind Lot:
    block: Block
    price: money
    state owner: player? = none

group Block of Lot: Red, Blue

table Lot:
    name  block  price
    R1    Red    $10
    R2    Red    $20
    B1    Blue   $30

square Go "Go"
square Jail "Jail"

board:
    Go, R1, R2, Jail, B1

turn:
    phase move:
        roll 1 die as d
        move player by d.total

on pass Go:
    pay $5 from bank to player

end when count(players) == 1 winner players[0] as "last player standing"
"""


def checked(extra: str):
    return check_program(parse_text(BASE + extra, "tiny.rules"))


def errors(extra: str) -> list[str]:
    return [d.code for d in checked(extra).diagnostics if d.is_error]


def game(extra: str, players=("Ann", "Bob"), scripts=None):
    rules = compile_rules(checked(extra))
    scripts = scripts or {}
    agents = {i: ScriptedAgent(scripts.get(name, {})) for i, name in enumerate(players)}
    return Game(rules, list(players), seed=1, agents=agents)


def scenarios(extra: str) -> dict:
    rules = compile_rules(checked(extra))
    return {r.title: r for r in run_scenarios(rules)}


def assert_all_pass(extra: str):
    results = scenarios(extra)
    assert results
    for title, result in results.items():
        assert result.passed, f"{title}: {result.failures}"


# ---- define -----------------------------------------------------------------------------------

def test_define_is_a_typed_function():
    assert_all_pass("""
define held(q: player, b: Block) = count(l in b where l.owner == q)
define worth(q: player) = q.cash + sum(l in Lot where l.owner == q: l.price * held(q, l.block))

scenario "a function of functions":
    players Ann, Bob
    set R1.owner = Ann
    set R2.owner = Ann
    set B1.owner = Ann
    expect held(Ann, Red) == 2
    expect worth(Ann) == $100 + $10 * 2 + $20 * 2 + $30
    expect worth(Bob) == $100
""")


def test_define_arity_types_and_recursion_are_checked():
    assert errors("define f(q: player) = q.cash\nparam x = f(1)\n") == ["R0301"]
    assert errors("define f(q: player) = q.cash\nparam x = f()\n") == ["R0307"]
    assert "R0209" in errors("define f(n: count) = f(n)\n")


# ---- choose ... for -----------------------------------------------------------------------------

def test_choose_for_offers_only_what_the_filter_allows():
    g = game("""
action pick any time:
    choose "lot" by player for l in Lot where l.owner == none and l.price <= player.cash:
        pay l.price from player to bank
        set l.owner = player
""", scripts={"Ann": {"lot": ["B1"]}})
    ann = g.state.players[0]
    offered = []
    original = g.agents[0].choose

    def spy(game_, player, name, options):
        offered.append([o.name for o in options])
        return original(game_, player, name, options)

    g.agents[0].choose = spy
    g.by_name["R1"].f["owner"] = g.state.players[1]
    g.actions.perform(g, ann, g.actions.legal_actions(g, ann, True)[0])
    assert offered == [["R2", "B1"]]
    assert g.by_name["B1"].f["owner"] is ann and ann.f["cash"] == 70


def test_choose_for_with_nothing_legal_does_nothing():
    g = game("""
action pick any time:
    choose "lot" by player for l in Lot where l.price > $1,000 and l.owner == none:
        set l.owner = player
""")
    ann = g.state.players[0]
    g.actions.perform(g, ann, g.actions.legal_actions(g, ann, True)[0])
    assert all(t.f.get("owner") is None for t in g.things if t.kind == "Lot")


# ---- even, odd, first, best -------------------------------------------------------------------

def test_even_odd_first_best():
    assert_all_pass("""
scenario "even and odd":
    players Ann, Bob
    expect even(4) and not even(3) and odd(5) and not odd(0)

scenario "first and best":
    players Ann, Bob
    set Bob.cash = $500
    expect first(l in Lot where l.price > $15) == R2
    expect first(l in Lot: l.price > $100) == none
    expect best(q in players: q.cash) == Bob
    expect best(l in Lot where l.block == Red: l.price) == R2
""")
    assert errors("param x = even($4)\n") == ["R0301"]


# ---- send and place ---------------------------------------------------------------------------

def test_send_lands_without_passing_and_place_does_neither():
    assert_all_pass("""
on land Jail:
    pay $1 from player to bank

scenario "move passes Go":
    players Ann, Bob
    as Ann:
        move player to B1
        move player to Jail
    expect Ann.cash == $100 + $5 - $1

scenario "send lands but does not pass":
    players Ann, Bob
    as Ann:
        move player to B1
        send player to Jail
    expect Ann.position == Jail
    expect Ann.cash == $99

scenario "place does nothing but put the token there":
    players Ann, Bob
    as Ann:
        move player to B1
        place player at Jail
    expect Ann.position == Jail
    expect Ann.cash == $100
""")


def test_move_to_the_square_a_token_is_on_goes_all_the_way_round():
    assert_all_pass("""
on pass Jail:
    pay $1 from player to bank

scenario "a token already on the square goes round and passes everything":
    players Ann, Bob
    as Ann:
        move player to R2
        move player to R2
    expect Ann.position == R2
    expect Ann.cash == $100 + $5 - $1
""")
    g = game("")
    ann = g.state.players[0]
    g.move(ann, "to", g.squares["Go"], "x")
    moves = [payload for _, kind, _, payload in g.events if kind == "move"]
    passes = [payload[1] for _, kind, _, payload in g.events if kind == "pass"]
    assert moves == [("Ann", "Go", "Go", 5)] and passes == ["Go"]  # 5 steps: the whole ring


# ---- decks: discard, left, kept cards, use card ------------------------------------------------

DECK = """
deck Fate once:
    card Gift "Gift" copies 2:
        pay $10 from bank to player
    card Again "Play again" keep:
        extra turn for player
"""


def test_discard_and_left():
    g = game(DECK + "\non land Jail:\n    discard from Fate\n")
    assert len(g.state.decks["Fate"]) == 3
    g.decks.discard(g, "Fate", "x")
    assert len(g.state.decks["Fate"]) == 2 and len(g.state.discards["Fate"]) == 1
    assert_all_pass(DECK + """
scenario "left counts the draw pile":
    players Ann, Bob
    expect Fate.left == 3
    as Ann:
        discard from Fate
        discard from Fate
    expect Fate.left == 1
    expect Fate.discarded == 2
    expect Ann.cash == $100
""")


def test_kept_card_goes_to_the_hand_and_is_used_later():
    g = game(DECK, scripts={"Ann": {"keep": ["keep"]}})
    ann = g.state.players[0]
    g.decks.forced["Fate"] = ["Again"]
    g.decks.draw(g, "Fate", ann, "x")
    assert [h.card for h in ann.hand] == ["Again"] and ann.extra_turns == 0
    assert "Again" not in g.state.decks["Fate"]
    g.decks.use_card(g, ann, "x")
    assert ann.hand == [] and ann.extra_turns == 1
    assert g.state.discards["Fate"] == ["Again"]


def test_a_card_used_at_once_is_discarded_after_its_effect():
    g = game(DECK, scripts={"Ann": {"keep": ["use"]}})
    ann = g.state.players[0]
    g.decks.forced["Fate"] = ["Again"]
    g.decks.draw(g, "Fate", ann, "x")
    assert ann.hand == [] and ann.extra_turns == 1 and g.state.discards["Fate"] == ["Again"]


def test_kept_cards_cannot_come_from_a_cut_deck():
    assert "R0904" in errors("deck Fate cut:\n    card Again keep:\n        extra turn for player\n")


def test_extra_turn_gives_the_same_player_another_turn():
    g = game("""
after turn:
    if turn == 1:
        extra turn for player
""")
    g.setup()
    first = g.state.current
    g.play_turn()
    assert g.state.current == first
    g.play_turn()
    assert g.state.current != first


# ---- owing, current, != bank ------------------------------------------------------------------

def test_owing_is_set_only_while_raising_cash():
    g = game("""
action loan any time when player.owing > $0:
    pay player.owing from bank to player

on land Jail:
    pay $500 from player to bank

on debt:
    raise cash
    if debtor.cash < owed:
        eliminate debtor
""", scripts={"Ann": {"act": [("loan", None)]}})
    ann = g.state.players[0]
    assert g.actions.legal_actions(g, ann, True) == []
    g.move(ann, "to", g.squares["Jail"], "x")
    assert not ann.out and ann.owing == 0
    assert ann.f["cash"] == 100  # borrowed 500 while owing it, then paid it


def test_not_bank_narrows_an_account_to_a_player():
    assert errors("""
on debt:
    if creditor != bank:
        set creditor.bonus = creditor.bonus + 1
    eliminate debtor
""") == []
    assert "R0306" in errors("""
on debt:
    set creditor.bonus = 1
    eliminate debtor
""") or "R0206" in errors("""
on debt:
    set creditor.bonus = 1
    eliminate debtor
""")


def test_current_is_the_player_whose_turn_it_is():
    assert_all_pass("""
scenario "current":
    players Ann, Bob
    expect current == Ann
""")


@pytest.mark.parametrize("snippet", [
    "define f(q: player) = q.cash\n",
    DECK,
    "action a any time:\n    choose \"x\" by player for q in players where q != player:\n        extra turn for q\n",
])
def test_each_extension_checks_clean(snippet):
    assert errors(snippet) == []


# ---- variants ---------------------------------------------------------------------------------

VARIANT_BASE = BASE.split("turn:")[0] + """
param salary = $5

deck Fate once:
    card Gift "Gift" copies 2:
        pay $10 from bank to player
    card Tax "Tax":
        pay $10 from player to bank

turn:
    phase move:
        roll 1 die as d
        move player by d.total
    phase draw:
        draw from Fate
    phase rest:
        pay $1 from bank to player

on pass Go:
    pay salary from bank to player

end when count(players) == 1 winner players[0] as "last player standing"
"""


def write_variant(tmp_path, text: str):
    (tmp_path / "base.rules").write_text(VARIANT_BASE, encoding="utf-8")
    path = tmp_path / "variant.rules"
    path.write_text(text, encoding="utf-8")
    return path


def load_variant(tmp_path, text: str):
    from rulesc.interpreter.rules import load_rules
    return load_rules(str(write_variant(tmp_path, text)))


def test_a_variant_overrides_replaces_and_removes(tmp_path):
    rules = load_variant(tmp_path, """extends "base.rules"

override game "Tiny, house rules":
    players: 3 to 4

override param salary = $7

replace phase draw "Discard instead":
    discard from Fate

remove phase rest

remove card Fate.Tax

extend deck Fate:
    card Windfall:
        pay $1 from bank to player

scenario "the variant's rules apply":
    players Ann, Bob, Cid
    as Ann:
        move player to B1
        move player to R1
    expect Ann.cash == $107
""")
    assert rules.title == "Tiny, house rules" and rules.players_range == (3, 4)
    assert rules.params["salary"] == 7
    assert [p.name for p in rules.phases] == ["move", "draw"]
    assert sorted(c.name for c in rules.decks["Fate"].cards) == ["Gift", "Gift", "Windfall"]
    results = run_scenarios(rules)
    assert results and all(r.passed for r in results), [r.failures for r in results]


def test_inherited_rules_point_into_the_base_file(tmp_path):
    rules = load_variant(tmp_path, 'extends "base.rules"\noverride param salary = $7\n')
    g = Game(rules, ["Ann", "Bob"], seed=3, agents={0: ScriptedAgent(), 1: ScriptedAgent()})
    g.play()
    assert {e.rule.file for e in g.events if e.rule} == {str(tmp_path / "base.rules")}
    assert {e.rule.text.rsplit(":", 1)[0] for e in g.events if e.rule} == {"base.rules"}  # as the log shows it


def test_a_variant_naming_what_the_base_lacks_is_an_error(tmp_path):
    from rulesc.dsl.diagnostics import RulesError
    from rulesc.dsl.variants import load_file
    path = write_variant(tmp_path, 'extends "base.rules"\noverride param salry = $7\nremove phase nap\n')
    with pytest.raises(RulesError) as info:
        load_file(path)
    codes = [(d.code, d.span.line) for d in info.value.diagnostics]
    assert codes == [("R0510", 2), ("R0510", 3)]
    assert "did you mean `salary`" in info.value.diagnostics[0].help
    missing = write_variant(tmp_path, 'extends "nowhere.rules"\n')
    with pytest.raises(RulesError) as info:
        load_file(missing)
    assert info.value.diagnostics[0].code == "R0513"


@pytest.mark.parametrize("text,line,message", [
    ('param bonus = $5\nextends "base.rules"\n', 2, "`extends` comes once, before every other declaration"),
    ('extends "base.rules"\nextends "base.rules"\n', 2, "`extends` comes once, before every other declaration"),
    ("param bonus = $5\n\nremove phase move\n", 3, "`remove phase` needs a base: start the file with `extends`"),
])
def test_extends_out_of_place_or_a_change_without_it_is_an_error(tmp_path, text, line, message):
    from rulesc.dsl.diagnostics import RulesError
    from rulesc.dsl.variants import load_file
    with pytest.raises(RulesError) as info:
        load_file(write_variant(tmp_path, text))
    (problem,) = info.value.diagnostics
    assert (problem.code, problem.span.line, problem.message) == ("R0511", line, message)


def test_base_errors_are_reported_in_the_base_file(tmp_path):
    from rulesc.dsl.checker import check_program
    from rulesc.dsl.variants import load_file
    (tmp_path / "base.rules").write_text(VARIANT_BASE.replace("pay salary from bank", "pay salry from bank"))
    path = tmp_path / "variant.rules"
    path.write_text('extends "base.rules"\n')
    diags = [d for d in check_program(load_file(path)).diagnostics if d.is_error]
    assert [d.code for d in diags] == ["R0205"]
    assert diags[0].path.endswith("base.rules")


def test_an_error_inside_a_chain_of_the_base_is_reported_in_the_base(tmp_path):
    from rulesc.dsl.checker import check_program
    from rulesc.dsl.variants import load_file
    from rulesc.report import format_diagnostics
    base = VARIANT_BASE.replace("pay salary from bank", "pay salary + 5 + salary from bank")
    (tmp_path / "base.rules").write_text(base)
    path = tmp_path / "variant.rules"
    path.write_text('extends "base.rules"\nparam bonus = $1 + 1\n')
    checked = check_program(load_file(path))
    errors = [d for d in checked.diagnostics if d.is_error]
    line = next(i for i, text in enumerate(base.splitlines(), 1) if "salary + 5" in text)
    # sorted by file, then line: the base's error first, though its line is further down
    assert [(d.code, d.path, d.span.line) for d in errors] == [
        ("R0305", str(tmp_path / "base.rules"), line), ("R0305", str(path), 2)]
    shown = format_diagnostics(checked)
    assert f"base.rules:{line}:" in shown and "pay salary + 5 + salary from bank" in shown


def test_a_variant_may_remove_every_card_of_a_cut_deck(tmp_path):
    base = VARIANT_BASE.replace("deck Fate once:", "deck Fate cut:")
    (tmp_path / "base.rules").write_text(base)
    path = tmp_path / "variant.rules"
    path.write_text('extends "base.rules"\nremove card Fate.Gift\nremove card Fate.Tax\n')
    from rulesc.interpreter.rules import load_rules
    g = Game(load_rules(str(path)), ["Ann", "Bob"], seed=1, agents={0: ScriptedAgent(), 1: ScriptedAgent()})
    g.decks.draw(g, "Fate", g.state.players[0], "x")  # draws nothing, as from an empty `once` deck
    assert not [e for e in g.events if e[1] == "draw"]


# ---- procedures -------------------------------------------------------------------------------

def test_a_procedure_runs_its_statements_with_its_arguments():
    assert_all_pass("""
procedure fine(p: player, amount: money):
    pay amount from p to bank
    set p.bonus = p.bonus + 1

on land Jail:
    do fine(player, $7)

scenario "a procedure from a handler":
    players Ann, Bob
    as Ann:
        send player to Jail
    expect Ann.cash == $93
    expect Ann.bonus == 1
    as Bob:
        do fine(Ann, $3)
    expect Ann.cash == $90
""")


def test_procedure_calls_are_checked():
    assert errors("procedure f(p: player):\n    pay $1 from p to bank\n\nafter turn:\n    do f($5)\n") == ["R0301"]
    assert errors("procedure f(p: player):\n    pay $1 from p to bank\n\nafter turn:\n    do f()\n") == ["R0307"]
    assert errors("after turn:\n    do nothing_here(player)\n") == ["R0205"]


def test_a_procedure_that_calls_itself_is_stopped():
    # Unconditionally it is refused before play (R0413); under a condition that never turns false,
    # which the static check cannot see, the run stops it.
    from rulesc.dsl.diagnostics import RulesError
    from rulesc.interpreter.errors import StepBudgetExceeded
    with pytest.raises(RulesError, match="always runs itself again"):
        game("procedure again(p: player):\n    do again(p)\n\non land Jail:\n    do again(player)\n")
    g = game("procedure again(p: player):\n    if p.cash >= $0:\n        do again(p)\n\non land Jail:\n"
             "    do again(player)\n")
    with pytest.raises(StepBudgetExceeded):
        g.move(g.state.players[0], "to", g.squares["Jail"], "x")


# ---- squares off the board --------------------------------------------------------------------

OFF = """
square Office "Office" off board

on land Office:
    pay $3 from player to bank
"""


def test_an_off_board_square_is_reached_only_by_move_to():
    assert_all_pass(OFF + """
scenario "into the office and out again, passing nothing":
    players Ann, Bob
    as Ann:
        move player to B1
        move player to Office
    expect Ann.position == Office
    expect Ann.cash == $97
    as Ann:
        move player to Go
    expect Ann.position == Go
    expect Ann.cash == $97
""")
    g = game(OFF)
    ann = g.state.players[0]
    assert g.squares["Office"] not in g.ahead(ann)
    g.move(ann, "to", g.squares["Office"], "x")
    from rulesc.interpreter.errors import RuleRuntimeError
    with pytest.raises(RuleRuntimeError, match="off the board"):
        g.move(ann, "by", 2, "x")


def test_an_off_board_square_cannot_also_be_on_the_board():
    assert errors(OFF) == []
    source = (BASE + OFF).replace("Go, R1, R2, Jail, B1", "Go, R1, R2, Jail, B1, Office")
    codes = [d.code for d in check_program(parse_text(source, "tiny.rules")).diagnostics if d.is_error]
    assert codes == ["R0704"]


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


def test_pass_does_nothing_and_procedures_and_windows_show_in_the_log():
    g = game("""
procedure fine(p: player):
    pay $2 from p to bank

on land Jail:
    choose "nothing or a fine" by player:
        option nothing:
            pass
        option fine:
            do fine(player)
""", scripts={"Ann": {"nothing or a fine": ["nothing", "fine"]}})
    ann = g.state.players[0]
    g.move(ann, "to", g.squares["Jail"], "x")
    assert ann.f["cash"] == 100
    g.move(ann, "place", g.squares["Go"], "x")  # from Go, not round the board past it
    g.move(ann, "to", g.squares["Jail"], "x")
    assert ann.f["cash"] == 98
    assert [e.payload for e in g.events if e.kind == "do"] == [("fine", ["Ann"])]


def test_unused_functions_and_procedures_are_warned_about():
    diags = checked("define spare(q: player) = q.cash\nprocedure idle(p: player):\n    pass\n").diagnostics
    warned = sorted(d.message for d in diags if d.severity == "warning" and d.code == "R0404")
    assert warned == ["function `spare` is never used", "procedure `idle` is never used"]


# ---- equality ---------------------------------------------------------------------------------

def test_lists_and_cards_are_equal_by_value():
    assert_all_pass(DECK + """
scenario "equal lists are equal":
    players Ann, Bob
    expect [$2, $10] == [$2, $10]
    expect not ([$2, $10] != [$2, $10])
    expect [$2] != [$3]
    expect list(l in Lot where l.block == Red) == [R1, R2]

scenario "a kept card equals its deck's card":
    players Ann, Bob
    cards Fate: Again
    answer Ann keep: keep
    as Ann:
        draw from Fate
    expect count(h in Ann.hand where h == Fate.Again) == 1
    expect all(h in Ann.hand: h != Fate.Gift)
""")


def test_an_expression_the_checker_did_not_type_is_an_internal_error():
    from rulesc.interpreter.errors import InternalError
    rules = compile_rules(checked("define rich(q: player) = q.cash == $100\n"))
    value = rules.program.defines["rich"].value
    del rules.checked.types[id(value.left)]  # as if the checker had skipped it
    with pytest.raises(InternalError, match=r"no type for `q\.cash` \(Attr\) at tiny\.rules:\d+:26"):
        rules.compiler.expr(value, frozenset({"q"}))


# ---- what the checker accepts, the engine handles (issue #7) ------------------------------------

def test_lists_of_things_in_events_are_written_by_name():
    from rulesc.interpreter.events import events_to_jsonl
    g = game("""
global:
    picked: [Lot] = []

procedure note(ls: [Lot]):
    set picked = ls

action pick any time:
    choose "pair" by player for pair in [[R1, R2], [B1]]:
        do note(pair)
""")
    ann = g.state.players[0]
    g.actions.perform(g, ann, g.actions.legal_actions(g, ann, True)[0])
    log = events_to_jsonl(g.events)  # a Thing in an event was not JSON
    assert '"option":["R1","R2"]' in log and '"arguments":[["R1","R2"]]' in log and '"new":["R1","R2"]' in log


@pytest.mark.parametrize("extra, message", [
    ("hint act_nudge = 1\naction nudge any time:\n    window for player\n", "windows open windows"),
    ("on land R1:\n    pay $1,000 from player to bank\n\non debt:\n    pay owed from debtor to bank\n",
     "debts raise debts"),
])
def test_windows_and_debts_that_loop_stop_the_game(extra, message):
    from rulesc.interpreter.agents import make_agents
    from rulesc.interpreter.errors import StepBudgetExceeded
    rules = compile_rules(checked(extra))
    g = Game(rules, 2, seed=1, agents=make_agents("random", 1, 2))
    with pytest.raises(StepBudgetExceeded, match=message):  # not Python's RecursionError
        g.play()


def test_a_percentage_times_a_count():
    assert_all_pass("""
scenario "P of X rounded R is on the level of `*`":
    players Ann, Bob
    as Ann:
        pay 50% of $15 rounded down * 2 from player to bank
    expect Ann.cash == $100 - $14
    expect 50% of $15 rounded up * 3 / 2 == $12
""")
    assert errors("param x = 2 * 50% of $10 rounded down\n") == ["R0305"]  # (2 * 50%) of …: write the brackets



def test_a_bidder_named_twice_in_among_bids_once():
    """`among [players[0], current]` names one player twice when he is the current player: the
    auction used to wait forever for the second copy of him to be outbid."""
    assert_all_pass("""
scenario "one bidder, named twice":
    players Ann, Bob
    answer Ann bid: $12
    as Ann:
        auction R1 from $10 among [players[0], current] as sale:
            pay sale.price from sale.winner to bank
            set R1.owner = sale.winner
    expect R1.owner == Ann and Ann.cash == $88
""")
