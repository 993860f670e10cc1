"""Decks, each in a small game (tests/tiny_game.py): `discard` and `Deck.left`, kept cards (`keep`)
going to the hand and used later with `use card` or at once, never from a `cut` deck; `cycle` decks
putting used cards at the bottom unshuffled, `lasting` cards and `Deck.showing` (through JSON too),
and what the checker refuses of them."""

from __future__ import annotations

import pytest

from tiny_game import DECK, assert_all_pass, errors, game


# ---- discard, left, kept cards -------------------------------------------------------------------

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


@pytest.mark.parametrize("snippet", [
    "define f(q: player) = q.cash\n",
    DECK,
    "action a any time:\n    choose \"x\" by player for q in players where q != player:\n        extra turn for q\n",
])
def test_each_extension_checks_clean(snippet):
    assert errors(snippet) == []


# ---- cycle, lasting, Deck.showing ----------------------------------------------------------------

NEWS = """
global:
    boom: bool = false

deck News cycle:                          § "Used cards are placed at the bottom of the pile."
    card Boom "Boom: rents double until the next card" lasting:
        set boom = true
    card Calm "Nothing happens":
        pass
    card Crash "Crash: no rent until the next card" lasting:
        set boom = false

on land Jail:
    draw from News
"""


def test_a_cycle_deck_puts_used_cards_at_the_bottom_unshuffled():
    g = game(NEWS)
    ann = g.state.players[0]
    start = list(g.state.decks["News"])
    g.decks.draw(g, "News", ann, "x")
    assert g.state.decks["News"] == start[1:] + start[:1]
    for _ in range(6):
        g.decks.draw(g, "News", ann, "x")
    drawn = [e[3][2] for e in g.events if e[1] == "draw"]
    assert drawn == (start * 3)[:7]  # the same order, round and round
    assert g.state.discards["News"] == [] and len(g.state.decks["News"]) == 3


def test_a_lasting_card_shows_until_the_next_card_of_its_deck():
    assert_all_pass(NEWS + """
scenario "a lasting card stays in force until the next draw":
    players Ann, Bob
    expect News.showing == none
    cards News: Boom, Calm, Crash
    as Ann:
        draw from News
    expect News.showing == News.Boom and boom
    expect News.left == 3
    as Bob:
        draw from News
    expect News.showing == none
    as Ann:
        draw from News
    expect News.showing == News.Crash and not boom
""")


def test_showing_round_trips_through_json():
    from rulesc.interpreter.state import state_from_json, state_to_json
    g = game(NEWS)
    g.decks.forced["News"] = ["Boom"]
    g.decks.draw(g, "News", g.state.players[0], "x")
    data = state_to_json(g.state)
    assert data["showing"] == {"News": ["News", "Boom"]}
    fresh = game(NEWS)
    back = state_from_json(data, fresh.things, fresh.squares, fresh.rules.player_class)
    assert back.showing == g.state.showing


def test_deck_misuse_is_reported():
    assert errors("deck D cycle:\n    card A keep lasting:\n        pass\non land Jail:\n    draw from D\n") == ["R0905"]
    codes = [d.code for d in __import__("tiny_game").checked(
        NEWS.replace(" lasting:", ":") + "define hot() = News.showing == News.Boom\n").diagnostics]
    assert "R0409" in codes
