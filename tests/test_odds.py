"""`rulesc odds`: the chain read from the rules, solved exactly, checked against the closed form of a
plain board and against long simulations of the shipped games and house rules."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from rulesc.interpreter.rules import load_rules
from rulesc.odds.figures import APPROXIMATE, EXACT, MODEL, odds
from rulesc.odds.money import incomes
from rulesc.odds.policy import PolicyError, parse
from rulesc.odds.simulated import measure

from clirun import rulesc

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "odds_data"


def _odds(path, *decide, state=()):
    rules = load_rules(str(path))
    return rules, odds(rules, parse(rules.program, decide, state, str(path)))


def _outside(o, measured) -> list:
    """Every exact figure outside the simulation's interval (simultaneous 99% over the table)."""
    bad = []
    for s in o.squares:
        for label, exact, estimate in (("turn ends", s.ends, measured.ends[s.index]),
                                       ("landings", s.landings, measured.landings[s.index])):
            if not estimate.holds(exact):
                bad.append((s.name, label, float(exact), estimate))
    for status, share in o.statuses.items():
        estimate = measured.statuses.get(status)
        if estimate is not None and not estimate.holds(share):
            bad.append((status, "status", float(share), estimate))
    if not measured.steps.holds(o.steps):
        bad.append(("", "squares moved", float(o.steps), measured.steps))
    return bad


# ---- the closed form --------------------------------------------------------------------------------

def test_a_plain_board_is_uniform_exactly():
    _, o = _odds(DATA / "plain-board.rules")
    assert o.exactness == EXACT and not o.caveats
    assert all(s.ends == Fraction(1, 40) and s.landings == Fraction(1, 40) for s in o.squares)
    assert o.steps == 7 and o.laps == Fraction(7, 40)
    assert all(o.per_lap(s.landings) == Fraction(1, 7) for s in o.squares)


# ---- exact against play -------------------------------------------------------------------------------

EXACT_FILES = [  # (file, how exact its figures are, games to play against them)
    ("games/finance.rules", EXACT, 250),
    ("games/wheeler-level1.rules", EXACT, 250),
    ("tests/odds_data/jail-no-fine.rules", EXACT, 200),
]
SLOW_FILES = [
    ("examples/finance-fast-money.rules", EXACT, 300),
    ("examples/finance-fines-pot.rules", EXACT, 300),
    ("examples/finance-house-supply.rules", EXACT, 250),
]


def _check_against_play(path, exactness, games):
    rules, o = _odds(ROOT / path)
    assert o.exactness == exactness
    measured = measure(rules, games=games, seed=0)
    assert measured.turns > 5_000
    assert _outside(o, measured) == []


@pytest.mark.parametrize("path,exactness,games", EXACT_FILES, ids=lambda v: str(v))
def test_exact_figures_lie_inside_the_simulated_intervals(path, exactness, games):
    _check_against_play(path, exactness, games)


@pytest.mark.slow
@pytest.mark.parametrize("path,exactness,games", SLOW_FILES, ids=lambda v: str(v))
def test_house_rules_exact_figures_against_play(path, exactness, games):
    _check_against_play(path, exactness, games)


@pytest.mark.parametrize("path", sorted(str(p.relative_to(ROOT)) for p in [*(ROOT / "examples").glob("*.rules"),
                                                                          *(ROOT / "examples" / "games").glob("*.rules")]))
def test_every_house_rule_says_how_exact_it_is(path):
    """Each example gets figures, and says which are exact: none it cannot follow go unnamed."""
    _, o = _odds(ROOT / path)
    assert sum(s.ends for s in o.squares) == 1
    assert (o.exactness == EXACT) == (not o.caveats)
    assert all(c.rule.split(":")[0].endswith(".rules") and c.text for c in o.caveats)


def test_a_status_with_its_ways_out_is_in_the_chain():
    _, o = _odds(DATA / "jail-no-fine.rules")
    assert set(o.statuses) == {None, "InJail"}
    assert Fraction(1, 100) < o.statuses["InJail"] < Fraction(2, 100)
    rest = [s for s in o.squares if s.name == "Rest"][0]
    assert rest.ends > rest.landings  # turns in jail end there without landing


def test_the_simulated_check_would_catch_a_wrong_chain():
    """The same comparison fails when the exact figures are wrong (the plain board's, for FINANCE)."""
    rules, o = _odds(ROOT / "games/finance.rules")
    _, plain = _odds(DATA / "plain-board.rules")
    plain.statuses = o.statuses
    measured = measure(rules, games=150, seed=0)
    assert _outside(plain, measured)


# ---- what the chain cannot follow -----------------------------------------------------------------------

def test_a_roll_that_depends_on_a_bought_car_is_named_with_its_line():
    _, o = _odds(ROOT / "games/wallstreet.rules")
    assert o.exactness == APPROXIMATE
    assert [(c.rule, c.kind) for c in o.caveats] == [("wallstreet.rules:364", "state")]
    assert "player.car" in o.caveats[0].what and "SportsCar" in o.caveats[0].text


def test_level_two_names_its_decisions_and_its_deck():
    _, o = _odds(ROOT / "games/wheeler.rules")
    assert o.exactness == APPROXIMATE
    kinds = {c.kind for c in o.caveats}
    assert kinds == {"decision", "state", "deck runs out"}  # a `once` deck: the long run has none of it
    rules = {c.rule for c in o.caveats}
    lines = (ROOT / "games/wheeler.rules").read_text("utf-8").splitlines()
    taxi = next(i for i, line in enumerate(lines, 1) if 'choose "taxi to"' in line)
    bump = next(i for i, line in enumerate(lines, 1) if line.strip().startswith("phase bump"))
    assert f"wheeler.rules:{taxi}" in rules  # the taxi's destination
    assert f"wheeler.rules:{bump}" in rules  # bumping, optional


def test_an_optional_phase_that_moves_is_a_decision():
    _, o = _odds(ROOT / "examples/finance-doubles-jail.rules")
    assert o.exactness == APPROXIMATE
    assert [(c.rule, c.kind) for c in o.caveats] == [("finance-doubles-jail.rules:30", "decision")]


@pytest.mark.parametrize("policy,exactness,kind", [
    ("cut", EXACT, None),  # a random card, left in the deck: draws independent, each with its share
    ("cycle", MODEL, "deck order"),  # a shuffled pile drawn in turn: each draw its share, draws dependent
    ("reshuffle", MODEL, "deck order"),
    ("once", APPROXIMATE, "deck runs out"),  # the long run has none of its cards left
])
def test_a_deck_is_exact_as_its_policy_draws(tmp_path, policy, exactness, kind):
    plain = (DATA / "plain-board.rules").read_text()
    board = plain.replace("Go, Plain, Plain,", "Go, Plain, Chance,")
    deck = (f'square Chance "Chance"\n\ndeck Cards {policy}:\n'
            '    card Back "Go back three" copies 1:\n        move player back 3\n'
            '    card Home "Go to Go" copies 3:\n        move player to Go\n\n'
            'on land Chance:\n    draw from Cards\n\nboard:\n')
    path = tmp_path / "cards.rules"
    path.write_text(board.replace("\nboard:\n", "\n" + deck, 1))
    _, o = _odds(path)
    assert o.exactness == exactness and [c.kind for c in o.caveats] == ([kind] if kind else [])
    chance = o.squares[2]
    assert chance.ends == 0 and chance.landings > 0  # every card moves the token on
    assert sum(s.ends for s in o.squares) == 1


# ---- money ---------------------------------------------------------------------------------------------------

def test_rent_per_opponent_turn_comes_from_the_rules_handlers():
    rules, o = _odds(ROOT / "games/finance.rules")
    [wayback] = incomes(rules, o, ["Wayback"], {"Wayback": 2})
    assert wayback.rent == 30  # "two houses bring the owner $30"
    landings = [s for s in o.squares if s.name == "Wayback"][0].landings
    assert wayback.per_turn == 30 * landings
    assert wayback.building_price == 50 and wayback.next_rent == 80 * landings
    assert wayback.price is None  # auctioned: no fixed price


def test_a_rent_rolled_on_a_die_is_exact_over_the_die():
    rules, o = _odds(ROOT / "games/wheeler-level1.rules")
    [f1] = incomes(rules, o, ["F1"], {})
    assert f1.rent == Fraction(2000 * 21, 6)  # the income multiple times the die: 3.5 on average
    assert f1.price == 40_000 and f1.break_even == f1.price / f1.per_turn


# ---- the command ---------------------------------------------------------------------------------------------

def test_cli_table_json_csv_and_heat_map(tmp_path):
    svg = tmp_path / "heat.svg"
    r = rulesc("odds", "games/finance.rules", "--owned-by", "Wayback", "--houses", "Wayback=2", "--heatmap", str(svg),
               cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "figures: exact" in r.stdout and "Wayback" in r.stdout and "42.9" in r.stdout
    assert svg.read_text().startswith("<svg") and "Wayback" in svg.read_text()
    r = rulesc("odds", "tests/odds_data/plain-board.rules", "--format", "json", cwd=ROOT)
    data = json.loads(r.stdout)
    assert data["figures"] == "exact" and data["squares"][5]["turn_ends"]["exact"] == "1/40"
    r = rulesc("odds", "tests/odds_data/plain-board.rules", "--format", "csv", cwd=ROOT)
    assert r.stdout.splitlines()[1] == "0,Go,0.02500000,0.02500000,0.14285714,exact"


def test_cli_diff_marks_what_a_house_rule_changes():
    r = rulesc("odds", "games/finance.rules", "--diff", "tests/odds_data/jail-no-fine.rules", cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "laps per turn: 0.1890 -> 0.2232" in r.stdout
    assert " Rest " in r.stdout and "*" in r.stdout


@pytest.mark.parametrize("args,message", [
    (["--houses", "Wayback"], "write SQUARE=N"),
    (["--owned-by", "Nowhere"], "`Nowhere` is not a thing"),
])
def test_cli_bad_options(args, message):
    r = rulesc("odds", "games/finance.rules", *args, cwd=ROOT)
    assert r.returncode == 2 and message in r.stderr and "Traceback" not in r.stderr


def test_cli_takes_ownership_and_buildings_from_a_scenario():
    r = rulesc("odds", "games/finance.rules", "--scenario", "WAYBACK rents $80 with three houses", cwd=ROOT)
    assert r.returncode == 0, r.stderr
    row = [line for line in r.stdout.splitlines() if line.startswith("Wayback ")][0].split()
    assert row[1:3] == ["3", "$80.00"]  # three houses, as the scenario sets them: the $80 rent
    r = rulesc("odds", "games/finance.rules", "--scenario", "no such example", cwd=ROOT)
    assert r.returncode == 2 and "has no scenario" in r.stderr


def test_cli_diff_the_wrong_way_round_says_which_file_is_the_base():
    """`--diff` names the house rule; given the base there (FILE extends it), the two figures would be
    compared backwards: a usage error naming the command the other way round."""
    r = rulesc("odds", "tests/odds_data/jail-no-fine.rules", "--diff", "games/finance.rules", cwd=ROOT)
    assert r.returncode == 2 and r.stdout == ""
    assert "extends `games/finance.rules`" in r.stderr
    assert "rulesc odds games/finance.rules --diff tests/odds_data/jail-no-fine.rules" in r.stderr


# ---- a stated policy ------------------------------------------------------------------------------------------

JAIL = DATA / "jail-fine.rules"


def test_an_undecided_jail_fine_is_approximate_and_named():
    _, o = _odds(JAIL)
    assert o.exactness == APPROXIMATE and o.policy == ()
    assert [(c.kind, c.what.split(" (")[0]) for c in o.caveats] == [("decision", "the optional phase `fine`")]


@pytest.mark.parametrize("decision", ["fine=play", "fine=skip"])
def test_a_decided_jail_is_exact_and_agrees_with_play_under_that_policy(decision):
    """Pay at once (the short jail) or throw for doubles (the long jail): exact under each, and inside the
    intervals of games whose agents follow the same policy."""
    rules, o = _odds(JAIL, decision)
    assert o.exactness == EXACT and o.policy == (decision,) and not o.caveats
    measured = measure(rules, games=200, seed=0, policy=parse(rules.program, [decision], [], str(JAIL)))
    assert measured.turns > 5_000
    assert _outside(o, measured) == []


def test_the_two_jail_policies_differ_as_they_should():
    _, short = _odds(JAIL, "fine=play")
    _, long = _odds(JAIL, "fine=skip")
    assert long.statuses["InJail"] > 2 * short.statuses["InJail"]  # up to three turns in, against one
    assert long.laps < short.laps


def test_a_policy_check_would_catch_agents_that_do_not_follow_it():
    """The long-jail figures are outside the play of agents that pay at once: the check sees the policy."""
    rules, long = _odds(JAIL, "fine=skip")
    measured = measure(rules, games=150, seed=0, policy=parse(rules.program, ["fine=play"], [], str(JAIL)))
    assert _outside(long, measured)


@pytest.mark.slow
def test_a_kept_card_used_at_once_and_the_nearest_square_ahead_are_in_the_chain():
    """The classic game: release cards used at once (so nobody holds one), its kept-card phase skipped,
    and the cards that advance to the nearest railroad or utility followed square by square."""
    _, o = _odds(ROOT / "examples/games/property.rules", "fine=play", "keep=use", "card=skip")
    assert o.exactness == MODEL and {c.kind for c in o.caveats} == {"deck order"}
    by_name = {s.name: s for s in o.squares}
    _, undecided = _odds(ROOT / "examples/games/property.rules")
    assert any("first(" in c.text for c in undecided.caveats) is False  # `first(s in ahead(player) …)` is read
    # as in the classic tables: the first railroad (a card rides to it, and to the nearest) above the last
    assert by_name["NorthLine"].landings > by_name["WestLine"].landings
    groups = {name: o.group(name).landings for name in ("Brown", "Sky", "Pink", "Orange", "Red", "Yellow",
                                                         "Green", "Navy")}
    assert max(groups, key=groups.get) == "Orange"  # the classic finding: the orange group is landed on most


def test_a_state_fixed_makes_a_roll_that_depends_on_it_exact():
    _, o = _odds(ROOT / "games/wallstreet.rules", "dice=two_dice", state=["car=SportsCar"])
    assert o.exactness == EXACT and o.policy == ("dice=two_dice", "car=SportsCar")
    _, one = _odds(ROOT / "games/wallstreet.rules", state=["car=none"])
    assert one.exactness == EXACT and 3 < one.steps < 4 < 6 < o.steps  # no car: one die; a sports car: two


@pytest.mark.parametrize("decide,state,message", [
    (["fiine=play"], [], "has no decision `fiine`; did you mean `fine`?"),
    (["fine=pay"], [], "the optional phase `fine` (jail-fine.rules:26) has no option `pay`; did you mean `play`?"),
    (["fine"], [], "write NAME=OPTION"),
    ([], ["csh=1"], "has no player field `csh`; did you mean `cash`?"),
    ([], ["cash=lots"], "`lots` is not a number"),
])
def test_a_policy_the_rules_do_not_have_is_refused(decide, state, message):
    rules = load_rules(str(JAIL))
    with pytest.raises(PolicyError, match=None) as exc:
        parse(rules.program, decide, state, str(JAIL))
    assert message in str(exc.value)


def test_cli_decide_states_its_policy_and_refuses_unknown_names():
    r = rulesc("odds", "tests/odds_data/jail-fine.rules", "--decide", "fine=skip", "--format", "json", cwd=ROOT)
    assert r.returncode == 0, r.stderr
    data = json.loads(r.stdout)
    assert data["figures"] == "exact" and data["policy"] == ["fine=skip"] and "simulated" not in data
    r = rulesc("odds", "tests/odds_data/jail-fine.rules", "--decide", "fine=skip", cwd=ROOT)
    assert "under the stated policy fine=skip" in r.stdout
    r = rulesc("odds", "tests/odds_data/jail-fine.rules", "--decide", "jail=play", cwd=ROOT)
    assert r.returncode == 2 and "has no decision `jail`" in r.stderr and "Traceback" not in r.stderr


def test_cli_a_game_without_movement_says_so():
    r = rulesc("odds", "examples/games/hotels.rules", cwd=ROOT)
    assert r.returncode == 0, r.stderr
    assert "no rule moves a token" in r.stdout
    r = rulesc("odds", "examples/games/hotels.rules", "--format", "json", cwd=ROOT)
    assert json.loads(r.stdout)["moves"] is False
