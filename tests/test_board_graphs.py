"""Board graphs, generated rows, decks of things and a first player by a rule (issue #32), each through the
passes it touches: what the checker declares, what the engine computes, what the diagram draws."""

from __future__ import annotations

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.graph_diagram import build_graph_diagram
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules

GAME = '''
game "Graphs":
    players: 2 to 3
    start: Table
    first player: best(p in players where p.opening != none: 100 - p.opening.row * 10 - p.opening.column)

square Table "The table"
board:
    Table

player:
    cash: money = $0
    opening: Spot? = none

kind Spot:
    row: count
    column: count
    state placed: bool = false

graph Grid of Spot: grid 3 by 4

kind Town:
    size: count

table Town:
    name   size
    Paris  9
    for n in 1 to 3, m in 1 to 2: "T{n}x{m}"   n

graph Roads of Town:
    T1x1 - T2x1, T3x1
    T2x1 - Paris,

deck Bag of Spot once

setup:
    for p in players:
        draw from Bag for p as t:
            set t.placed = true
            set p.opening = t

turn:
    phase lay:
        draw from Bag as t:
            set t.placed = true
        else:
            end game winner none as "the bag is empty"
'''


@pytest.fixture(scope="module")
def rules():
    checked = check_program(parse_text(GAME, "graphs.rules"))
    assert not [d for d in checked.diagnostics if d.is_error], [d.message for d in checked.diagnostics]
    return compile_rules(checked)


def test_a_grid_makes_its_squares_row_by_row_with_their_coordinates(rules):
    names = [n for n in rules.thing_names if rules.thing_kinds[n] == "Spot"]
    assert names == ["A1", "A2", "A3", "A4", "B1", "B2", "B3", "B4", "C1", "C2", "C3", "C4"]
    game = Game(rules, 2, seed=1)
    b3 = game.by_name["B3"]
    assert (b3.f["row"], b3.f["column"]) == (2, 3)
    assert [t.name for t in game.adjacent[b3]] == ["A3", "B2", "B4", "C3"]
    assert [t.name for t in game.adjacent[game.by_name["A1"]]] == ["A2", "B1"]


def test_links_join_both_ways_and_generated_rows_take_their_loops_values(rules):
    towns = [n for n in rules.thing_names if rules.thing_kinds[n] == "Town"]
    assert towns == ["Paris", "T1x1", "T1x2", "T2x1", "T2x2", "T3x1", "T3x2"]
    game = Game(rules, 2, seed=1)
    assert game.by_name["T3x2"].f["size"] == 3
    assert [t.name for t in game.adjacent[game.by_name["T2x1"]]] == ["Paris", "T1x1"]
    assert game.adjacent[game.by_name["T1x2"]] == []


def test_connected_follows_the_filter_from_its_start():
    source = GAME + '\nend when count(connected(s in A1 where s.placed)) > 99 winner none as "never"\n'
    rules = compile_rules(check_program(parse_text(source, "graphs.rules")))
    connected = rules.compiler.expr(rules.program.ends[0].condition.left.args[0])
    game = Game(rules, 2, seed=1)
    for t in game.kind_things["Spot"]:
        t.f_placed = t.name in ("A2", "A3", "B3", "C1")
    assert [t.name for t in connected(game, {})] == ["A1", "A2", "A3", "B3"]  # C1 is not joined to them


def test_the_setup_draws_for_each_player_then_the_rule_names_the_first():
    checked = check_program(parse_text(GAME, "graphs.rules"))
    rules = compile_rules(checked)
    game = Game(rules, 3, seed=4, agents=make_agents("heuristic", 4, 3))
    game.setup()
    kinds = [e[1] for e in game.events]
    assert kinds[:1] == ["setup"] and kinds.count("draw") == 3
    assert kinds.index("first") > max(i for i, k in enumerate(kinds) if k == "draw")  # after the setup's draws
    nearest = min(game.state.players, key=lambda p: p.f["opening"].f["row"] * 10 + p.f["opening"].f["column"])
    assert game.state.current == nearest.seat
    game.play()
    assert game.state.end_reason == "the bag is empty"
    assert all(t.f["placed"] for t in game.kind_things["Spot"])  # every tile drawn once, none twice


def test_the_grid_is_drawn_as_a_table_and_links_as_lines(rules):
    grid = build_graph_diagram(rules.program, "Grid").source
    assert grid.count("<TR>") == 3 and grid.count("<TD") == 12
    roads = build_graph_diagram(rules.program, "Roads").source
    assert roads.count(" -- ") == 3
