"""The heuristic agent's decisions written out per rules file (a hint's `best`, agentgen.py's
`wanted_actions`) answer as the general loops they replace: the same option, the same actions, the
same rule error."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl.builtins import decision_hint
from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import HeuristicAgent, make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.rules import compile_rules, load_rules

GAMES = Path(__file__).resolve().parent.parent / "games"
MINIMAL = Path(__file__).parent / "cli_data" / "minimal.rules"


def _by_the_hint(game, player, name, options):
    """The option `hint NAME(x: …)` scores highest, the first of equals, by calling the hint's own
    function for each (as the agent did before its loop was written out), else the first."""
    hint = game.rules.hints.get(decision_hint(name))
    if hint is None or hint.var is None:
        return options[0]
    scores = [hint.value(game, {"player": option} if hint.var == "player" else {"player": player, hint.var: option})
              for option in options]
    return options[scores.index(max(scores))]


@pytest.mark.parametrize("name", ["wheeler", "wallstreet", "finance"])
def test_a_choice_is_the_option_its_hint_scores_highest(name, monkeypatch):
    rules = load_rules(str(GAMES / f"{name}.rules"))
    real = HeuristicAgent.choose
    compared = []

    def choose(self, game, player, decision, options):
        picked = real(self, game, player, decision, options)
        assert picked is _by_the_hint(game, player, decision, options)
        compared.append(len(options))
        return picked
    monkeypatch.setattr(HeuristicAgent, "choose", choose)
    for seed in range(4):
        Game(rules, 3, seed=seed, agents=make_agents("heuristic", seed, 3), record=False).play()
    if name == "wheeler":  # hints choose its commodity, taxi and bump squares among many
        assert max(compared) > 3


def _tiny(hints: str):
    """The minimal game with a choice of lot on Rest, an action on a lot, one without, and `hints`."""
    text = MINIMAL.read_text() + (
        '\non land Rest:\n    choose "lot" by player for l in Lot:\n        pass\n'
        "\naction fix(l: Lot) own turn when l.owner == player:\n    pass\n"
        "\naction tidy own turn:\n    pass\n\n" + hints)
    return compile_rules(check_program(parse_text(text, "tiny.rules")))


def test_a_failing_choice_hint_is_a_rule_error_at_the_hint():
    rules = _tiny("hint lot(l: Lot) = l.price / (count(players) - 2)\n")
    game = Game(rules, 2, seed=0, agents=make_agents("heuristic", 0, 2))
    with pytest.raises(RuleRuntimeError) as caught:
        game.play()
    assert caught.value.span.line == rules.program.hints["lot"].span.line
    assert "division by zero" in str(caught.value)


@pytest.mark.parametrize("cash, wanted", [(100, {"fix", "tidy"}), (30, {"fix"}), (10, {"fix"})])
def test_a_hint_branch_that_reads_no_option_is_worked_out_per_window(cash, wanted):
    # `act_tidy`'s branches read no option: its score decides whether `tidy` is wanted at all (above
    # $0: $100 - $50; not $30 - $50); `act_fix`'s `then` reads the lot: `fix` is wanted either way.
    rules = _tiny("hint act_tidy = if player.cash > $20 then player.cash - $50 else $0\n"
                  "hint act_fix(l: Lot) = if player.cash > $20 then l.price else $1\n")
    game = Game(rules, 2, seed=0, agents=make_agents("heuristic", 0, 2))
    game.setup()
    player = game.state.players[0]
    player.f_cash = cash
    assert game.agents[0].wanted_actions(game, player, None) == frozenset(wanted)
    assert game.agents[0].wanted_actions(game, player, 5) == frozenset(wanted)  # both hinted: raising or not
