"""The interpreter: determinism, lossless state JSON, events with rules, agents, budgets, the engine's rules."""

from __future__ import annotations

import gc
import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesc.interpreter.agents import HeuristicAgent, RandomAgent, ScriptedAgent, make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.events import NO_RULE, events_to_jsonl
from rulesc.interpreter.rules import load_rules
from rulesc.interpreter.state import state_from_json, state_to_json

ROOT = Path(__file__).resolve().parent.parent
FINANCE = ROOT / "games" / "finance.rules"
MINIMAL = Path(__file__).parent / "cli_data" / "minimal.rules"


@pytest.fixture(scope="module")
def finance():
    return load_rules(str(FINANCE))


def play(rules, seed, players=4, agents="heuristic", **kw):
    game = Game(rules, players, seed=seed, agents=make_agents(agents, seed, players), **kw)
    game.play()
    return game


def test_same_seed_same_event_log_byte_for_byte(finance):
    first = events_to_jsonl(play(finance, 11).events)
    second = events_to_jsonl(play(load_rules(str(FINANCE)), 11).events)
    assert first == second
    assert first != events_to_jsonl(play(finance, 12).events)


def test_random_agents_are_deterministic_too(finance):
    a = events_to_jsonl(play(finance, 5, agents="random").events)
    b = events_to_jsonl(play(finance, 5, agents="random").events)
    assert a == b


def test_every_event_names_the_rule_that_made_it(finance):
    game = play(finance, 3)
    source = FINANCE.read_text().splitlines()
    for event in game.events:
        if event.kind in ("setup", "first", "turn", "end") or not event.rule:
            continue
        assert event.rule.file == finance.path
        assert source[event.rule.line - 1].strip(), f"{event.kind} at {event.rule} points at an empty line"
    rent = [e for e in game.events if e.kind == "pay" and "p.rents[p.houses]" in source[e.rule.line - 1]]
    assert rent, "rent payments are attributed to the rent rule"


def test_state_round_trips_through_json_without_loss(finance):
    game = Game(finance, 3, seed=9, agents=make_agents("heuristic", 9, 3), turn_limit=60)
    game.play()
    data = state_to_json(game.state)
    text = json.dumps(data, sort_keys=True)
    fresh = Game(finance, 3, seed=0, agents=make_agents("heuristic", 0, 3))
    restored = state_from_json(json.loads(text), fresh.things, fresh.squares, finance.player_class)
    assert json.dumps(state_to_json(restored), sort_keys=True) == text
    owners = {t.name: t.f["owner"] for t in restored.things if t.kind == "Lease" and t.f["owner"] is not None}
    assert owners and all(o in restored.players for o in owners.values())
    assert restored.rng.random() == game.state.rng.random()


def test_a_restored_game_plays_on_exactly_like_the_original(finance):
    original = Game(finance, 3, seed=21, agents=make_agents("heuristic", 21, 3), turn_limit=40)
    original.play()
    snapshot = json.loads(json.dumps(state_to_json(original.state)))
    original.turn_limit = 80
    original.state.over = False
    original.events.clear()
    original.started = True
    original.play()

    copy = Game(finance, 3, seed=0, agents=make_agents("heuristic", 21, 3), turn_limit=80)
    copy.state = state_from_json(snapshot, copy.things, copy.squares, copy.rules.player_class)
    copy.things = copy.state.things
    copy.active = [p for p in copy.state.players if not p.out]
    copy.state.over = False
    copy.started = True
    copy.play()
    assert events_to_jsonl(copy.events) == events_to_jsonl(original.events)


def test_money_is_conserved_in_whole_games(finance):
    for seed in range(5):
        game = Game(finance, 4, seed=seed, agents=make_agents("random", seed, 4))
        total = sum(p.f["cash"] for p in game.state.players) + game.state.bank.balance
        game.play()
        assert sum(p.f["cash"] for p in game.state.players) + game.state.bank.balance == total


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 6), agents=st.sampled_from(["heuristic", "random"]))
def test_games_end_by_the_rules_or_the_counted_limit(finance, seed, players, agents):
    game = play(finance, seed, players, agents, turn_limit=400)
    state = game.state
    assert state.over
    assert state.end_reason in ("last player standing", "turn limit")
    if state.end_reason == "last player standing":
        assert [p for p in state.players if not p.out] == [state.winner]
    assert all(p.f["cash"] >= 0 for p in state.players)
    out = {p for p in state.players if p.out}
    assert not any(t.f.get("owner") in out for t in game.things)


def test_heuristic_games_mostly_end_by_the_rules(finance):
    # Since a debtor may not trade ("provided ... his debts are settled"), a player short of a rent
    # is out at once and his leases leave the game unsold: fewer series are completed and more
    # games run to the 1,500-turn cap (34 of these 40 end by the rules).
    reasons = [play(finance, seed).state.end_reason for seed in range(40)]
    assert reasons.count("last player standing") >= 32


def test_auction_goes_to_the_highest_bid_and_bids_never_exceed_cash(finance):
    game = Game(finance, 4, seed=2, agents=make_agents("random", 2, 4))
    bids = []

    def watch(g, kind, where, payload):
        if kind == "bid":
            bidder = next(p for p in g.state.players if p.name == payload[0])
            bids.append((payload[1], bidder.f["cash"]))

    game.observer = watch
    game.play()
    assert bids and all(1 <= amount <= cash for amount, cash in bids)
    sold = [i for i, e in enumerate(game.events) if e.kind == "sold"]
    assert sold
    for i in sold:
        since_auction = []
        for earlier in reversed(game.events[:i]):
            if earlier.kind == "auction":
                break
            if earlier.kind == "bid":
                since_auction.append(earlier.payload[1])
        assert game.events[i].payload[2] == max(since_auction)


def test_step_budget_stops_a_loop(tmp_path):
    text = MINIMAL.read_text().replace("on pass Go:", "on land Rest:\n    move player by 4\n\non pass Go:")
    path = tmp_path / "loop.rules"
    path.write_text(text)
    rules = load_rules(str(path))
    from rulesc.interpreter.errors import StepBudgetExceeded
    with pytest.raises(StepBudgetExceeded) as info:
        play(rules, 1, players=2)
    assert info.value.span.line == text.splitlines().index("    move player by 4") + 1


def test_scripted_agent_answers_in_order(finance):
    agent = ScriptedAgent({"bid": [30, None]})
    assert agent.bid(None, None, None, 10, 100) == 30
    assert agent.bid(None, None, None, 31, 100) is None
    assert agent.bid(None, None, None, 31, 100) is None


def test_agents_only_pick_legal_options(finance):
    game = Game(finance, 2, seed=1, agents=make_agents("random", 1, 2))
    agent = RandomAgent(1, 0)
    for _ in range(50):
        assert agent.choose(game, None, "x", ["a", "b"]) in ("a", "b")
        bid = agent.bid(game, None, None, 10, 40)
        assert bid is None or 10 <= bid <= 40
    heuristic = HeuristicAgent()
    thing = game.by_name["Wayback"]
    bid = heuristic.bid(game, game.state.players[0], thing, 10, 1000)
    assert bid is None or 10 <= bid <= 1000


def test_set_overrides_a_parameter():
    rules = load_rules(str(FINANCE), ["circuit_income=$300"])
    game = Game(rules, ["Ann", "Bob"], seed=0, agents={0: ScriptedAgent(), 1: ScriptedAgent()})
    ann = game.state.players[0]
    game.move(ann, "to", game.by_name["LaSalleStreet"], "test")
    game.by_name["Wayback"].f["owner"] = ann
    game.move(ann, "by", 2, "test")
    assert ann.f["cash"] == 1000 + 300


def test_no_engine_module_names_anything_of_finance():
    words = ["wayback", "rubeville", "tariff", "luxury", "lease", "series", "finance", "chance", "community"]
    pattern = re.compile(r"\b(" + "|".join(words) + r")\b", re.IGNORECASE)
    for folder in ("dsl", "interpreter", "rulesc"):
        for path in (ROOT / folder).rglob("*.py"):
            for number, line in enumerate(path.read_text().splitlines(), 1):
                assert not pattern.search(line), f"{path}:{number} names a game's thing: {line.strip()}"


@pytest.mark.slow  # twelve whole games; tests/test_action_cache.py tests the cache case by case
@pytest.mark.parametrize("agents", ["heuristic", "random"])
def test_reusing_legal_actions_changes_nothing(finance, agents):
    """Legal actions are recomputed only when what their conditions read has changed;
    playing with that switched off must give the very same games."""
    for seed in range(6):
        cached = play(finance, seed, agents=agents)
        fresh = Game(finance, 4, seed=seed, agents=make_agents(agents, seed, 4))
        fresh.actions.caching = False
        fresh.play()
        assert events_to_jsonl(cached.events) == events_to_jsonl(fresh.events)


def test_a_trade_has_two_sides(finance):
    """Nothing may be given (or lent) for nothing: a trade must give something each way."""
    from rulesc.interpreter.market import TradeOffer
    game = Game(finance, 2, seed=0, agents=make_agents("heuristic", 0, 2))
    ann, bob = game.state.players
    wayback, rubeville = game.by_name["Wayback"], game.by_name["Rubeville"]
    wayback.f["owner"], rubeville.f["owner"] = ann, bob
    assert game.market.trade_is_legal(game, TradeOffer(ann, bob, (wayback,), (), -50))
    assert game.market.trade_is_legal(game, TradeOffer(ann, bob, (wayback,), (rubeville,), 0))
    assert not game.market.trade_is_legal(game, TradeOffer(ann, bob, (wayback,), (), 0))
    assert not game.market.trade_is_legal(game, TradeOffer(ann, bob, (), (), 100))
    assert not game.market.trade_is_legal(game, TradeOffer(ann, bob, (), (wayback,), 10))  # not Bob's to give


def test_set_reaches_the_parameters_computed_from_it(tmp_path):
    text = MINIMAL.read_text().replace("param salary = $100", "param salary = $100\nparam double_salary = salary * 2")
    text = text.replace("pay salary from bank to player", "pay double_salary from bank to player")
    path = tmp_path / "derived.rules"
    path.write_text(text)
    assert load_rules(str(path), ["salary=$7"]).params["double_salary"] == 14


def test_an_actions_cash_test_is_kept_apart_from_what_can_be_reused(finance):
    build = next(a for a in finance.actions if a.name == "build")
    assert build.volatile is not None and build.volatile.reads & {"cash"}
    assert "cash" not in build.sorted_reads and "owner" in build.sorted_reads
    game = Game(finance, 2, seed=0, agents=make_agents("heuristic", 0, 2))
    ann = game.state.players[0]
    for name in ("Wayback", "Rubeville"):
        game.by_name[name].f["owner"] = ann
    game._changed("owner")
    assert len(game.actions.legal_actions(game, ann, True)) == 2
    ann.f["cash"] = 10  # the reused answer must still see that houses cost $50
    game._changed("cash")
    assert game.actions.legal_actions(game, ann, True) == []


@pytest.mark.parametrize("name", ["finance", pytest.param("wheeler", marks=pytest.mark.slow),
                                  pytest.param("wallstreet", marks=pytest.mark.slow)])
def test_a_game_let_go_is_freed_at_once(name):
    """Nothing a game holds (its agents, their blindfolds) holds the game: a game dropped is freed by
    its reference count, its event log with it, not left for Python's cycle collector to trace (all
    its events) and free later."""
    rules = load_rules(str(ROOT / "games" / f"{name}.rules"))
    Game(rules, 4, seed=2, agents=make_agents("heuristic", 2, 4)).play()  # what is compiled on first use
    gc.collect()
    collecting = gc.isenabled()
    gc.disable()
    try:
        game = Game(rules, 4, seed=1, agents=make_agents("heuristic", 1, 4))
        game.play()
        assert len(game.events) > 100
        del game
        gc.set_debug(gc.DEBUG_SAVEALL)
        gc.collect()
        left = {type(o).__name__ for o in gc.garbage} & {"Game", "EventLog", "HeuristicAgent", "Blindfolded", "Player"}
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        if collecting:
            gc.enable()
    assert not left


def test_fields_are_attributes_and_read_as_a_dict(finance):
    """A player's and a thing's declared fields live in slots of the rules file's classes (what rules
    written out read); `.f` shows the same fields as a dict, for code that names them at run time."""
    game = Game(finance, 2, seed=3)
    ann, lease = game.state.players[0], next(t for t in game.things if t.kind == "Lease")
    assert type(ann) is finance.player_class and type(lease) is finance.thing_class
    assert ann.f_cash == ann.f["cash"] == 1000 and dict(ann.f) == {"cash": 1000}
    assert list(lease.f) == ["number", "series", "value", "rents", "owner", "houses", "withdrawn"]
    assert lease.f.get("owner") is None and "owner" in lease.f and "no such field" not in lease.f
    lease.f["owner"] = ann  # the view writes the attribute
    assert lease.f_owner is ann and lease.f == {**lease.f, "owner": ann}
    with pytest.raises(KeyError, match="has no field `colour`"):
        lease.f["colour"] = "red"  # a field the rules do not declare: no slot for it
    with pytest.raises(KeyError):
        _ = ann.f["houses"]  # a field of things, never of players
    del lease.f["houses"]
    assert "houses" not in lease.f and len(lease.f) == 6 and lease.f.get("houses", 7) == 7


def test_a_move_to_a_square_goes_to_its_next_place_round_the_board(tmp_path):
    """`move … to S`, S on the ring more than once: the first of its places after the token's, going
    round (a token on S's only place goes all the way round); from off the board, its first place."""
    text = MINIMAL.read_text().replace("    Go, Red, Rest, Blue", "    Go, Rest, Red, Rest, Blue, Rest, Go")
    text += '\nsquare Away "Away" off board\n'
    path = tmp_path / "places.rules"
    path.write_text(text)
    rules = load_rules(str(path))
    game = Game(rules, 2, seed=0)
    game.setup()
    player, n = game.state.players[0], game.ring
    for square in (game.squares["Rest"], game.squares["Go"], game.squares["Away"]):
        for start in [*range(n), n]:  # n: Away, off the ring
            player.at = start
            game.move(player, "to", square, NO_RULE)
            on_ring = [i for i in range(n) if game.board[i] is square]
            after = [i for i in on_ring if i > (start if start < n else -1)]
            expected = (after or on_ring)[0] if on_ring else game.board.index(square, n)
            assert player.at == expected, (square.name, start)
