"""Wall Street: the full game and the shorter game check clean, pass the rulebook's examples, and
play to one of the rulebook's two ways to win, most of the time, with the heuristic agent."""

from __future__ import annotations

from pathlib import Path

import pytest

import clirun
from rulesc.interpreter.rules import load_rules
from rulesc.simulate import simulate

GAMES = Path(__file__).resolve().parent.parent / "games"
FILES = [GAMES / "wallstreet.rules", GAMES / "wallstreet-short.rules"]


def rulesc(*args):
    proc = clirun.rulesc(*args, timeout=180)
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.parametrize("path", FILES, ids=["full", "short"])
def test_static_check_is_clean_and_lists_assumptions(path):
    code, out, err = rulesc("check", "--static", "--assumed", path)
    assert code == 0, out + err
    assert "0 errors, 0 warnings" in out
    assert "assumed values" in out and "no bankruptcy rule" in out


@pytest.mark.slow
@pytest.mark.parametrize("path", FILES, ids=["full", "short"])
def test_every_worked_example_passes(path):
    code, out, err = rulesc("test", path)
    assert code == 0, out + err
    assert " 0 failed" in out


@pytest.mark.slow
def test_the_examples_the_issue_names_are_there():
    titles = " / ".join(s.title for s in load_rules(str(FILES[0])).program.scenarios)
    for words in ("a 3 and a 5", "a 2 and a 4, then a 6 and a 4", "shares 2 and 4", "at 60%",
                  "never above 1,000,000", "scrap car", "sports car", "cars sell back", "doubled for a conglomerate",
                  "a bluffer exposed and fined", "a second pass puts a bidder out", "seller's left bids first",
                  "conglomerate's company is never sold", "square 40 stops", "4 million",
                  "a conglomerate and 1.5 million wins", "selling back in need", "not added or subtracted",
                  "one of each, at that bank", "banking first, then the card", "in another player's turn"):
        assert words in titles, words
    short = " / ".join(s.title for s in load_rules(str(FILES[1])).program.scenarios)
    assert "3 million, deposit included, wins" in short and "3.9 million does not win" not in short
    assert "a conglomerate and 1.5 million wins" in short  # both ways to win, in the shorter game too


def test_the_stated_numbers_are_the_rulebooks():
    rules = load_rules(str(FILES[0]))
    assert rules.params["starting_cash"] == 600_000 and rules.params["insurance_price"] == 150_000
    assert rules.params["loan_size"] == 50_000 and rules.params["max_loans"] == 3
    assert rules.params["deposit_step"] == 100_000 and rules.params["deposit_cap"] == 1_000_000
    assert rules.params["bluff_fine"] == 50_000
    assert rules.params["win_cash"] == 4_000_000 and rules.params["win_group_cash"] == 1_500_000
    assert load_rules(str(FILES[1])).params["win_cash"] == 3_000_000


def test_nothing_is_traded_between_players():
    """"Trading cars between players is not allowed", and the rulebook gives no other trade: the file
    declares none, so companies, shares and funds change hands only at the enforced auction."""
    for path in FILES:
        rules = load_rules(str(path))
        assert rules.trade_kinds == () and not rules.trade_cards


def test_insurance_is_never_sold():
    """"You may never sell your insurance": an insured player in need of cash, with nothing else to
    sell and no loan left to take, is offered no action at all; with a company, he may sell that."""
    from rulesc.interpreter.agents import make_agents
    from rulesc.interpreter.engine import Game
    rules = load_rules(str(FILES[0]))

    def offered(company: bool) -> list:
        g = Game(rules, ["Ann", "Bob"], seed=1, agents=make_agents("heuristic", 1, 2))
        ann = g.state.players[0]
        g.state.current = ann.seat
        ann.f["insured"], ann.f["cash"], ann.f["loans"] = True, 0, rules.params["max_loans"]
        if company:
            g.by_name["Sv1"].f["owner"] = ann
        ann.owing = 50_000
        return [(a.action, getattr(a.argument, "name", a.argument)) for a in g.actions.legal_actions(g, ann, True)]

    assert offered(company=False) == []
    assert offered(company=True) == [("sell_company", "Sv1")]


def test_cash_is_hidden_from_the_other_players():
    from rulesc.interpreter.agents import make_agents
    from rulesc.interpreter.blindfold import view
    from rulesc.interpreter.engine import Game
    rules = load_rules(str(FILES[0]))
    assert rules.hidden_fields == {"cash", "deposit"}
    g = Game(rules, 3, seed=2, agents=make_agents("heuristic", 2, 3))
    seen = view(g, g.state.players[0])["players"]
    assert "cash" in seen[0]["fields"] and "cash" not in seen[1]["fields"] and "loans" in seen[1]["fields"]


@pytest.mark.slow
def test_games_end_by_the_rulebooks_ways_to_win_and_are_deterministic():
    rules = load_rules(str(FILES[0]))
    summary = simulate(rules, 12, 1, 4)
    again = simulate(rules, 12, 1, 4)
    assert summary.reasons == again.reasons
    assert summary.reasons.get("turn limit", 0) == 0
    won = summary.reasons.get("cash", 0) + summary.reasons.get("conglomerate and cash", 0)
    assert won >= 8, summary.reasons
