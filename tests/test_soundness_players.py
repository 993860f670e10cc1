"""The players-and-information analyses (dsl/soundness/, codes R12xx): a rule that never runs (R1201), a
decision by a player who is out (R1202) or may be (R1203), another player's hidden value shown in what a
player is offered (R1204), a state a player never leaves (R1205); and the interpreter's refusal to put a
decision to a player who is out (R1001).

Each broken house rule (examples/broken/ and tests/soundness_players_data/) is caught at the line and
column of its mistake; each good twin, every shipped game and every house rule in examples/ gives no
R12xx at all.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl.checker import check_program
from rulesc.dsl.variants import load_file
from rulesc.interpreter.agents import RandomAgent
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.rules import compile_rules

ROOT = Path(__file__).resolve().parent.parent
DATA = Path(__file__).resolve().parent / "soundness_players_data"
BROKEN = ROOT / "examples" / "broken"


def findings(path: Path) -> list:
    return [d for d in check_program(load_file(path)).diagnostics if d.code.startswith("R12")]


# (file, code, severity, line, column, words the message has)
CASES = [
    (BROKEN / "handler_after_turn_ends.rules", "R1201", "error", 11, 1, "the handler at wheeler.rules:352"),
    (DATA / "dead_implied_condition.rules", "R1201", "error", 4, 1, "the handler at wheeler.rules:352"),
    (DATA / "dead_square_after_kind.rules", "R1201", "error", 5, 1, "dead_square_after_kind.rules:8"),
    (DATA / "dead_phase_after_nested_end.rules", "R1201", "error", 5, 1, "`draw`, `use_card`, `bump`"),
    (DATA / "dead_hook.rules", "R1201", "error", 4, 1, "no phase ever runs"),
    (DATA / "dead_inserted_phase.rules", "R1201", "error", 5, 1, "`draw`, `use_card`, `bump`"),
    (BROKEN / "out_player_decides.rules", "R1202", "error", 11, 27, "cannot decide `last wish`"),
    (DATA / "out_after_eliminate.rules", "R1202", "error", 12, 22, "`debtor` was eliminated at line 8"),
    (BROKEN / "stored_player_decides.rules", "R1203", "warning", 19, 34, "the global `chairman`"),
    (DATA / "stored_list_decides.rules", "R1203", "warning", 12, 38, "the global `order`"),
    (BROKEN / "hidden_cash_in_options.rules", "R1204", "error", 12, 79, "reads `q.cash`"),
    (DATA / "hidden_through_define.rules", "R1204", "error", 9, 27, "reads `comfortable(c.owner)`"),
    (DATA / "hidden_in_action.rules", "R1204", "error", 5, 49, "reads `current.cash`"),
    (DATA / "hidden_through_let.rules", "R1204", "error", 6, 75, "the hidden `deposit`"),
    (DATA / "hidden_in_condition.rules", "R1204", "error", 6, 8, "whether he is asked reveals it"),
    (DATA / "hidden_in_bid_limit.rules", "R1204", "error", 6, 95, "the highest bid of this auction reads `player.cash`"),
    (BROKEN / "counter_never_reset.rules", "R1205", "error", 24, 12, "`player.served == 3`"),
    (DATA / "stuck_less_than.rules", "R1205", "error", 15, 26, "`player.tries < 3`"),
    (DATA / "stuck_flag.rules", "R1205", "error", 13, 12, "only ever set true"),
    (DATA / "stuck_hook.rules", "R1205", "error", 11, 26, "never plays a turn again"),
    (DATA / "stuck_turn.rules", "R1205", "error", 8, 28, "`turn` only grows"),
    (DATA / "stuck_phase.rules", "R1205", "error", 11, 41, "he never moves again"),
    (DATA / "stuck_variant_drops_reset.rules", "R1205", "error", 7, 5, "`player.served == 2`"),
]


@pytest.mark.parametrize("path, code, severity, line, column, words", CASES, ids=[c[0].stem for c in CASES])
def test_a_broken_house_rule_is_caught_where_its_mistake_is(path, code, severity, line, column, words):
    found = findings(path)
    assert [(d.code, d.severity, d.span.line, d.span.column) for d in found] == [(code, severity, line, column)], found
    (d,) = found
    assert Path(d.path).resolve() == path.resolve()
    assert words in d.message


def test_a_variant_rule_that_ends_the_turn_is_blamed_with_a_note_at_the_base():
    (d,) = findings(BROKEN / "handler_after_turn_ends.rules")
    assert [(Path(label.path).name, label.span.line) for label in d.labels] == [("wheeler.rules", 356)]


@pytest.mark.parametrize("name", ["good_dead_rules", "good_out_deciders", "good_hidden", "good_stuck",
                                  "good_stuck_base"])
def test_a_good_twin_gives_no_finding(name):
    assert findings(DATA / f"{name}.rules") == []


SHIPPED = (sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "examples").glob("*.rules"))
           + sorted((ROOT / "examples" / "games").glob("*.rules")))


@pytest.mark.parametrize("path", SHIPPED, ids=[p.name for p in SHIPPED])
def test_shipped_games_and_house_rules_give_no_finding(path):
    assert findings(path) == []


def test_a_decision_put_to_an_out_player_stops_the_rule_at_run_time():
    """The static error aside (R1202), the engine itself refuses: `on eliminate` asking the player just
    eliminated stops the game with R1001 at the `choose`, instead of asking his agent."""
    checked = check_program(load_file(BROKEN / "out_player_decides.rules"))
    checked.diagnostics[:] = [d for d in checked.diagnostics if d.code != "R1202"]
    rules = compile_rules(checked)
    for seed in range(40):
        game = Game(rules, 2, seed=seed, agents={0: RandomAgent(seed, 0), 1: RandomAgent(seed, 1)})
        try:
            game.play()
        except RuleRuntimeError as error:
            assert "is out of the game, so cannot decide `last wish`" in error.message
            assert error.message.startswith("`player` (P")
            assert error.span.line == 11
            assert error.diagnostic().code == "R1001"
            return
    pytest.fail("no game eliminated a player in 40 seeds")
