"""`choose "NAME" by P for x in L where …`, in a small game (tests/tiny_game.py): the player is
offered only what the filter allows, nothing happens when nothing is allowed, and an option that is a
list of things is written into the event log by name."""

from __future__ import annotations

from tiny_game import game


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
