"""The engine's cache of legal actions never serves an answer about state it does not count changes of."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.events import events_to_jsonl
from rulesc.interpreter.rules import compile_rules, load_rules

BIDDING_GAME = """\
game "Tiny":
    players: 2 to 2
    start: Go

player:
    cash: money = $500

kind Lot:
    price: money
    state owner: player? = none

table Lot:
    name   price
    Alpha  $60

square Go "Go"

board:
    Go, Alpha

turn:
    phase move:
        roll 2 dice as d
        move player by d.total

on land Lot l when l.owner == none:
    auction l from $10 with window as sale:
        pay sale.price from sale.winner to bank
        set l.owner = sale.winner

action ask any time when player.bidding > $0:
    pass

end when count(players) == 1 winner players[0] as "last player standing"
"""


def test_an_action_that_reads_the_bid_a_player_must_make_is_tested_again_when_it_changes():
    # Regression: `bidding` had no change counter and was not marked untracked, so a condition on it
    # alone was cached: once found illegal (no auction), `ask` stayed illegal in every bid window.
    # Now the engine counts its changes (`Market._bid_window`), as this test does.
    from rulesc.interpreter.market import BIDDING

    rules = compile_rules(check_program(parse_text(BIDDING_GAME, "tiny.rules")))
    game = Game(rules, 2, seed=0, agents=make_agents("heuristic", 0, 2))
    game.setup()
    player = game.state.players[0]
    assert game.actions.legal_actions(game, player, True) == []
    player.bidding = 20  # as in an auction's bid window
    game._changed(BIDDING)
    assert [choice.action for choice in game.actions.legal_actions(game, player, False)] == ["ask"]
    player.bidding = 0
    game._changed(BIDDING)
    assert game.actions.legal_actions(game, player, True) == []


GAMES = Path(__file__).resolve().parent.parent / "games"


def _events(rules, seed: int, players: int, cache: bool) -> str:
    game = Game(rules, players, seed=seed, agents=make_agents("heuristic", seed, players))
    game.actions.caching = cache
    game.play()
    return events_to_jsonl(game.events)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["finance", "wheeler", "wallstreet"])
def test_legal_actions_kept_in_layers_change_no_game(name):
    """FINANCE's houses, Wheeler Dealer's loans and Wall Street's buildings are kept in layers (the
    things each player holds, then the rest of the condition): with nothing kept, the games are the
    very same."""
    rules = load_rules(str(GAMES / f"{name}.rules"))
    for seed in range(3):
        assert _events(rules, seed, 3 + seed % 2, True) == _events(rules, seed, 3 + seed % 2, False)


LAYERED = BIDDING_GAME.replace("    price: money\n", "    price: money\n    zero: count\n    state level: count = 0\n") \
    .replace("name   price\n    Alpha  $60", "name   price  zero\n    Alpha  $60    0") \
    .replace("action ask any time when player.bidding > $0:",
             "action fix(l: Lot) any time when l.owner == player and l.level >= 0 and 10 / l.zero > 1:")


def test_a_failure_in_a_kept_layer_is_reported_as_the_whole_condition_would_be():
    rules = compile_rules(check_program(parse_text(LAYERED, "tiny.rules")))
    messages = []
    for cache in (True, False):
        game = Game(rules, 2, seed=0, agents=make_agents("heuristic", 0, 2))
        game.actions.caching = cache
        game.setup()
        player = game.state.players[0]
        game.by_name["Alpha"].f["owner"] = player
        with pytest.raises(RuleRuntimeError) as caught:
            game.actions.legal_actions(game, player, True)
        messages.append(str(caught.value))
    assert "division by zero" in messages[0]
    assert messages[0] == messages[1]


def test_a_holder_keeps_his_list_of_things_while_they_are_the_same():
    rules = load_rules(str(GAMES / "wheeler.rules"))
    game = Game(rules, 3, seed=0, agents=make_agents("heuristic", 0, 3))
    game.setup()
    ann = game.state.players[game.state.current]  # in his turn: he may borrow on what he owns
    bob = game.state.players[(game.state.current + 1) % 3]
    first, second = [t for t in game.things if t.kind == "Property"][:2]
    game.set_field(first, "owner", ann, "test")
    assert [o.argument for o in game.actions.legal_actions(game, ann, True) if o.action == "borrow"] == [first]
    kept = game.actions.held_by(game, "Property", "owner", ann)
    game.set_field(second, "owner", bob, "test")  # another's purchase: Ann's list stands ...
    assert game.actions.held_by(game, "Property", "owner", ann) is kept
    assert [o.argument for o in game.actions.legal_actions(game, ann, True) if o.action == "borrow"] == [first]
    game.set_field(first, "debt_ridden", True, "test")  # ... and what only the rest reads is tested again
    assert [o.argument for o in game.actions.legal_actions(game, ann, True) if o.action == "borrow"] == []
    game.set_field(second, "owner", ann, "test")
    assert game.actions.held_by(game, "Property", "owner", ann) == [first, second]
    assert [o.argument for o in game.actions.legal_actions(game, ann, True) if o.action == "borrow"] == [second]


UNWANTED = LAYERED.replace("l.owner == player and l.level >= 0 and 10 / l.zero > 1:",
                           "l.owner == player and 10 / l.zero > 1:") \
    + "\nhint act_fix(l: Lot) = if player.owing > $0 then $1 else $0\n"


def test_an_action_whose_condition_may_fail_is_tested_even_when_the_agent_does_not_want_it():
    rules = compile_rules(check_program(parse_text(UNWANTED, "tiny.rules")))
    game = Game(rules, 2, seed=0, agents=make_agents("heuristic", 0, 2))
    game.setup()
    player = game.state.players[game.state.current]
    game.by_name["Alpha"].f["owner"] = player
    assert "fix" not in game.agents[player.seat].wanted_actions(game, player, None)
    with pytest.raises(RuleRuntimeError, match="division by zero"):
        game.actions.window(game, player)


SAFETY = {
    "player.owing > $0 and player.position != Go": True,
    "all(q in Lot: q.owner == player) and count(q in Lot where q.level > 0) >= 1": True,
    "l.level * 2 + 1 > l.zero": True,
    "10 / l.zero > 1": False,  # a division
    "l.owner != none and l.owner.cash > $0": False,  # a field of what may be none
    "min(q in Lot: q.level) > 0": False,  # of what may be empty
    "l.bonus != none and l.bonus > 0": False,  # an optional field ordered: safe only where it is narrowed
}


@pytest.mark.parametrize("condition", SAFETY)
def test_what_cannot_fail_is_told_apart(condition):
    text = LAYERED.replace("    state level: count = 0\n", "    state level: count = 0\n    state bonus: count? = none\n") \
        .replace("l.owner == player and l.level >= 0 and 10 / l.zero > 1:", condition + ":")
    rules = compile_rules(check_program(parse_text(text, "tiny.rules")))
    action = next(a for a in rules.actions if a.name == "fix")
    parts = [part for part in (action.when, action.volatile) if part is not None]
    assert all(part.cannot_fail() for part in parts) is SAFETY[condition]


def test_only_fields_no_rule_can_change_are_left_out_of_the_keys():
    from rulesc.interpreter.reads import fixed_fields
    fixed = fixed_fields(load_rules(str(GAMES / "finance.rules")).program)
    assert {"series", "value", "rents"} <= fixed  # a lease's table data
    assert not fixed & {"owner", "houses", "withdrawn", "cash"}  # state, and a player's cash


@pytest.mark.slow
def test_a_define_over_fixed_data_keeps_its_answers_and_changes_no_game(monkeypatch):
    """Wheeler's `winning_ways(c)` (a sum over a commodity's fixed winning totals) keeps its answer per
    commodity; `whole(p)` reads owners (state) and `ways(t)` aggregates nothing: both compute every time.
    Keeping answers plays the games that computing them does."""
    from rulesc.interpreter import kept as keeping

    def kept(rules):
        return {n for n, f in rules.compiler.codegen.functions.items() if f.__name__ == "kept"}

    rules = load_rules(str(GAMES / "wheeler.rules"))
    assert "winning_ways" in kept(rules) and not kept(rules) & {"whole", "ways", "net_worth", "market_value"}
    with_kept = [_events(rules, seed, 2 + seed % 3, True) for seed in range(6)]
    monkeypatch.setattr(keeping, "answers_can_be_kept", lambda program, define, function: False)
    plain = load_rules(str(GAMES / "wheeler.rules"))
    assert not kept(plain)
    assert with_kept == [_events(plain, seed, 2 + seed % 3, True) for seed in range(6)]


def test_a_kept_answer_of_several_things_is_kept_for_each_combination():
    """A define of two things keeps one answer per pair (by their names), in every game of the rules."""
    text = LAYERED.replace("    Alpha  $60    0\n", "    Alpha  $60    0\n    Beta   $90    0\n    Gamma  $30    0\n") \
        .replace("    Go, Alpha\n", "    Go, Alpha, Beta, Gamma\n") \
        .replace("end when", "define dearer(a: Lot, b: Lot) = count(l in Lot where l == a or l == b: l.price > $0) * $1"
                           " + (if a.price > b.price then $100 else $0)\n\nend when")
    rules = compile_rules(check_program(parse_text(text, "tiny.rules")))
    dearer = rules.compiler.codegen.defined(rules.program.defines["dearer"])
    assert dearer.__name__ == "kept"
    for seed in (1, 2):  # a second game's things are new objects: the answers are found by name
        game = Game(rules, 2, seed=seed)
        lots = game.kind_things["Lot"]
        assert len(lots) == 3
        for a in lots:
            for b in lots:
                expected = len({a.name, b.name}) + (100 if a.f["price"] > b.f["price"] else 0)
                assert dearer(game, {"a": a, "b": b}) == expected


def _kept_while(rules) -> dict:
    return {n: f for n, f in rules.compiler.codegen.functions.items() if f.__name__ == "kept_while"}


@pytest.mark.slow
def test_a_define_over_counted_state_keeps_its_answer_only_while_what_it_reads_stands(monkeypatch):
    """A define that aggregates over counted state that changes seldom (Wheeler's `market_value(q)`,
    over who owns what) keeps its answer in a game while the counters of what it reads stand; one
    that reads cash or positions (`net_worth(q)`, `occupied(s)`) does not. After every event of whole
    games, each kept answer is what computing it gives; and without keeping them the games are the
    very same."""
    from rulesc.interpreter import kept as keeping

    rules = load_rules(str(GAMES / "wheeler.rules"))
    kept = _kept_while(rules)
    assert "market_value" in kept and not {"net_worth", "occupied"} & kept.keys()
    assert not {"in_need", "capital"} & _kept_while(load_rules(str(GAMES / "wallstreet.rules"))).keys()  # no aggregate
    defines = rules.program.defines
    compared = 0
    for seed in range(3):
        game = Game(rules, 3, seed=seed, agents=make_agents("heuristic", seed, 3))

        def arguments(kind: str):
            return game.state.players if kind == "player" else game.square_list if kind == "square" \
                else game.kind_things[kind]

        def observe(g, kind, where, payload):
            nonlocal compared
            for name, function in kept.items():
                (param, t), = defines[name].params
                for value in arguments(t.name):
                    assert function(g, {param: value}) == function.plain(g, {param: value}), (name, value.name, kind)
                    compared += 1
        game.observer = observe
        game.play()
    assert compared > 10_000
    with_kept = [_events(rules, seed, 2 + seed % 3, True) for seed in range(4)]
    monkeypatch.setattr(keeping, "answers_can_be_kept_while", lambda program, define, function, type_of: None)
    plain = load_rules(str(GAMES / "wheeler.rules"))
    assert not _kept_while(plain)
    assert with_kept == [_events(plain, seed, 2 + seed % 3, True) for seed in range(4)]


def test_no_kept_answer_reaches_an_agent_answering_blindfolded():
    """While an agent answers blindfolded (Wall Street hides cash), a define computes on what it may see:
    an answer kept from the whole state does not reach it, and the answers it gets are kept apart, for
    that player's agent alone."""
    rules = load_rules(str(GAMES / "wallstreet.rules"))
    whole = _kept_while(rules)["whole"]
    game = Game(rules, 2, seed=1, agents=make_agents("heuristic", 1, 2))
    company = game.kind_things["Company"][0]
    ann, bob = (p.name for p in game.state.players)

    def mark_kept(label: str) -> None:  # what each kept answer would give, were it used again
        for key, (stamp, _) in list(game.define_answers.items()):
            game.define_answers[key] = (stamp, label)

    whole(game, {"c": company})
    mark_kept("kept from the whole state")
    game.masking = ann
    assert whole(game, {"c": company}) == whole.plain(game, {"c": company})  # worked out again, through the mask
    mark_kept("kept for Ann")
    assert whole(game, {"c": company}) == "kept for Ann"  # hers, kept while what it reads stands
    game.masking = bob
    assert whole(game, {"c": company}) == whole.plain(game, {"c": company})  # not Ann's
    assert len(game.define_answers) == 3  # the whole state's, Ann's and Bob's


@pytest.mark.slow
def test_conditions_taken_apart_offer_what_the_whole_conditions_offer():
    """Wall Street's `buy_share(s) … when s.owner == none and s.bank == player.position and …` matches
    the share's fixed `bank` against the value worked out once (`ActionDef.select`), and its amount
    actions test `on_bankomat(player)` once for all amounts (`Actions._amount_tests`). At every
    window and landing of whole games, every player is offered exactly what testing each whole
    condition for each option offers."""
    rules = load_rules(str(GAMES / "wallstreet.rules"))
    selected = [a for a in rules.actions if a.select is not None]
    assert {a.name for a in selected} == {"buy_share", "buy_fund"}
    amounts = [a for a in rules.actions if a.amount is not None]
    originals = [(a, a.select) for a in selected]

    def plainly(g, p, own: bool) -> list:
        """The legal actions with each whole condition tested for each option."""
        kept = dict(g.actions.amount_tests)
        for a in selected:
            a.select = None
        g.actions.amount_tests.update({a.name: (None, a.when, a.volatile) for a in amounts})
        try:
            return g.actions.legal_actions(g, p, own)
        finally:
            for a, select in originals:
                a.select = select
            g.actions.amount_tests.clear()
            g.actions.amount_tests.update(kept)

    seen: set = set()
    for seed in range(3):
        game = Game(rules, 3, seed=seed, agents=make_agents("heuristic", seed, 3))

        def observe(g, kind, where, payload):
            if kind in ("window", "land"):
                for p in g.active:
                    own = p.seat == g.state.current
                    fast = g.actions.legal_actions(g, p, own)
                    assert fast == plainly(g, p, own), (g.state.turn, p.name)
                    seen.update(o.action for o in fast)
        game.observer = observe
        game.play()
    assert {"buy_share", "buy_fund", "deposit", "withdraw"} <= seen  # each was offered, and compared


def test_a_part_reading_ownership_only_against_the_player_is_kept_by_his_things():
    """FINANCE's `build` asks `all(q in p.series: q.owner == player)`: its answer stands while the
    player's leases are the same, so another player's purchase (an `owner` change) does not make it
    test his leases again. Read any other way, or inside a define, ownership keeps counting."""
    from rulesc.interpreter.actions import _layers
    from rulesc.interpreter.reads import fixed_fields

    def first_reads(rules, name):
        action = next(a for a in rules.actions if a.name == name)
        return _layers(action, fixed_fields(rules.program))[1].reads

    assert "owner" not in first_reads(load_rules(str(GAMES / "finance.rules")), "build")
    fix = "action fix(l: Lot) any time when l.owner == player and l.level >= 0 and 10 / l.zero > 1:"
    for condition, kept_by_things in [
            ("l.owner == player and all(q in Lot: q.owner == player) and l.level >= 0", True),
            ("l.owner == player and all(q in Lot: player != q.owner) and l.level >= 0", True),
            ("l.owner == player and all(q in Lot: q.owner != none) and l.level >= 0", False),
            ("l.owner == player and all(q in Lot: mine(q, player)) and l.level >= 0", False)]:
        text = LAYERED.replace(fix, f"action fix(l: Lot) any time when {condition}:") \
            .replace("end when", "define mine(q: Lot, who: player) = q.owner == who\n\nend when")
        rules = compile_rules(check_program(parse_text(text, "tiny.rules")))
        assert ("owner" not in first_reads(rules, "fix")) == kept_by_things, condition


def test_a_stable_answer_that_reads_no_player_is_kept_once_for_all_players():
    """Wall Street's `buy_share(s) … when s.owner == none and …`: the stable part reads no player, so
    its answer is kept once for every player, not once per seat. At every window and landing of
    whole games, each player is offered what computing everything afresh offers."""
    rules = load_rules(str(GAMES / "wallstreet.rules"))
    game = Game(rules, 3, seed=4, agents=make_agents("heuristic", 4, 3))
    shared = {entry[1] for entry in game.actions.make_plan(rules) if entry[9]}
    assert {"buy_share", "buy_fund"} <= shared
    assert not {"sell_company", "sell_share", "build"} & shared  # filtered by holder, or kept in layers
    compared = 0

    def observe(g, kind, where, payload):
        nonlocal compared
        if kind in ("window", "land"):
            for p in g.active:
                own = p.seat == g.state.current
                kept = g.actions.legal_actions(g, p, own)
                g.actions.caching = False
                try:
                    assert kept == g.actions.legal_actions(g, p, own), (g.state.turn, p.name)
                finally:
                    g.actions.caching = True
                compared += 1
    game.observer = observe
    game.play()
    assert compared > 100


def test_a_spelled_out_key_is_the_sum_of_the_counters_it_reads():
    """`reads.counters_key`: the key kept answers are compared by, one function per tuple of reads,
    over a game's counters (`Game.versions`: one not yet moved counts 0)."""
    from rulesc.interpreter.reads import counters_key

    versions = Game(load_rules(str(GAMES / "finance.rules")), 2).versions
    versions.update({"owner": 3, "@out": 2, "houses": 11})
    for reads in [(), ("owner",), ("houses", "owner"), ("@out", "houses", "missing", "owner")]:
        key = counters_key(reads)
        assert key(versions) == sum(versions.get(r, 0) for r in reads)
        assert key.reads == reads and counters_key(list(reads)) is key
    versions["houses"] += 1
    assert counters_key(("houses", "owner"))(versions) == 15
