"""Hidden player fields (`hidden cash: money`), in a small game (tests/tiny_game.py) and in Wall
Street: a hint may read its own player's hidden field but not another's, only player fields can be
hidden, an agent decides with the others' hidden fields masked (a peek, by key or attribute, is an
error) and the engine still reads everything, the terminal shows them as hidden, and the diagram names
them."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.diagram import build_diagram
from rulesc.dsl.checker import check_program
from rulesc.dsl.parser import parse_text
from rulesc.interpreter.agents import HeuristicAgent, make_agents
from rulesc.interpreter.blindfold import view
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import compile_rules, load_rules

from tiny_game import BASE, checked, errors

ROOT = Path(__file__).resolve().parent.parent


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
    from rulesc.playview import Sight
    from rulesc.sentences import Words
    rules = compile_rules(hidden_rules(""))
    g = Game(rules, ["Ann", "Bob"], seed=1, agents=make_agents("heuristic", 1, 2))
    sight = Sight(rules, Words(rules))
    seen_by_ann = sight.players(g, 0)
    assert "Ann (you): on Go, cash $100" in seen_by_ann and "Bob: on Go, cash hidden" in seen_by_ann
    assert "Bob: on Go, cash $100" in sight.players(g, None)  # the whole state, for a log or a test
    seen_by_bob = sight.players(g, 1)
    assert "Ann: on Go, cash hidden" in seen_by_bob and "Bob (you): on Go, cash $100" in seen_by_bob


def test_the_diagram_names_hidden_fields_and_accounts():
    text = BASE.replace("    cash: money = $100\n", "    hidden cash: money = $100\n    savings: account\n")
    dot = build_diagram(check_program(parse_text(text, "tiny.rules")).program).source
    assert "kept hidden from the others: cash" in dot and "each player's account: savings" in dot
