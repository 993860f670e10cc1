"""The cards of a running game: its decks' piles and discards, drawing, kept cards, wild cards.

`Decks` is the game's (`game.decks`), an object of its own because the cards are a job of their own:
where each card is and how it moves. It holds what only the cards use (the cards by deck and name,
the cards a scenario forces); the rest it reads from the game each method is handed (`g`, not kept:
see engine.py): the state, whose piles and discards serialise with it, the agents through
`Game.choose`, the events. Every card is always somewhere — a deck's pile, its discards or a
player's hand — and is moved there before the event that tells of it, so the checker's "cards are
conserved" holds after every event.
"""

from __future__ import annotations

from .events import RuleRef
from .state import Held, Player


class Decks:
    __slots__ = ("cards", "forced")

    def __init__(self, g, rules) -> None:
        """Shuffle each deck into the game's state (with its generator: where `Game` makes this
        object in its start is where the shuffles fall in the game's draws)."""
        self.cards = rules.cards_by_name  # deck -> card name -> its compiled card
        self.forced: dict = {}  # deck -> the cards a scenario forces, drawn first in that order
        state = g.state
        for name, deck in rules.decks.items():
            order = [c.name for c in deck.cards] if deck.of is None else \
                [t for t in rules.thing_names if rules.thing_kinds[t] == deck.of]
            state.rng.shuffle(order)
            state.decks[name] = order
            state.discards[name] = []

    def _take(self, g, deck: str) -> str | None:
        """The next card of a deck, by its policy (or as a scenario forces it); None if none is left."""
        policy = g.rules.decks[deck].policy
        state = g.state
        pile = state.decks[deck]
        forced = self.forced.get(deck)
        if forced:
            name = forced.pop(0)
            if policy != "cut":
                if name not in pile:
                    raise g.error(f"the scenario forces card `{name}`, but no copy of it is left in `{deck}`")
                pile.remove(name)
            return name
        if policy == "cut":  # a variant may have removed every card
            return pile[int(state.rng.random() * len(pile))] if pile else None
        if not pile and policy == "reshuffle":
            pile.extend(state.discards[deck])
            state.discards[deck].clear()
            state.rng.shuffle(pile)
        return pile.pop(0) if pile else None

    def _to_discards(self, g, deck: str, name: str) -> None:
        policy = g.rules.decks[deck].policy
        if policy == "cycle":  # used cards go to the bottom of the pile, unshuffled
            g.state.decks[deck].append(name)
        elif policy != "cut":
            g.state.discards[deck].append(name)

    def draw(self, g, deck: str, player: Player, where: RuleRef):
        """Draw a card: a kept card goes to the hand; any other is discarded and its effect runs.
        The card is in its new place before the `draw` event, so cards are always accounted for.
        A deck of things gives its next thing, which goes to the deck's drawn pile (its discards: it
        never returns) and has no effect. What was drawn (the card, as `Held`, or the thing), or None."""
        name = self._take(g, deck)
        if name is None:
            return None
        if g.rules.decks[deck].of is not None:
            g.state.discards[deck].append(name)
            if g.emitting:
                g.event_sink((g.state.turn, "draw", where, player.name, deck, name))
            return g.by_name[name]
        card = self.cards[deck][name]
        if card.lasting:  # in force until the next card of this deck is drawn
            g.state.showing[deck] = Held(deck, name)
        else:
            g.state.showing.pop(deck, None)
        if card.keep:
            held = Held(deck, name, g.state.turn)
            player.hand.append(held)  # in his hand while he decides
            if g.emitting:
                g.event_sink((g.state.turn, "draw", where, player.name, deck, name))
            if g.choose(player, "keep", ["keep", "use"], where) == "keep":
                return Held(deck, name)
            player.hand.remove(held)
            self._to_discards(g, deck, name)
        else:
            self._to_discards(g, deck, name)
            if g.emitting:
                g.event_sink((g.state.turn, "draw", where, player.name, deck, name))
        self._run_card(g, card, player)
        return Held(deck, name)

    def _run_card(self, g, card, player: Player) -> None:
        """Run a card's effect (the card itself is already where it goes: the discard pile)."""
        g.descend("cards draw cards", help="look for a card whose effect draws from its own deck again")
        try:
            card.body(g, {"player": player})
        finally:
            g.depth -= 1

    def discard(self, g, deck: str, where: RuleRef) -> None:
        name = self._take(g, deck)
        if name is not None:
            self._to_discards(g, deck, name)
            if g.emitting:
                g.emit("discard", where, deck, name)

    def use_card(self, g, player: Player, where: RuleRef) -> None:
        """The player uses one card he kept: its effect runs, then it is discarded. A `keep later`
        card kept in this turn is not offered yet."""
        turn = g.state.turn
        usable = [h for h in player.hand if not (h.since == turn and self.cards[h.deck][h.card].later)]
        if not usable:
            return
        held = g.choose(player, "use card", usable, where)
        player.hand.remove(held)
        self._to_discards(g, held.deck, held.card)
        if g.emitting:
            g.emit("use", where, player.name, held.deck, held.card)
        self._run_card(g, self.cards[held.deck][held.card], player)

    def discard_held(self, g, player: Player, held: Held, where: RuleRef, to: Player | None = None) -> None:
        """A kept card leaves its holder: to the discard pile, or (`to`) into another's hand."""
        if held not in player.hand:
            return
        held = player.hand.pop(player.hand.index(held))  # the card itself, with the turn it was kept in
        if to is not None:
            to.hand.append(held)
            if g.emitting:
                g.emit("give", where, player.name, to.name, held.deck, held.card)
        else:
            self._to_discards(g, held.deck, held.card)
            if g.emitting:
                g.emit("discard", where, held.deck, held.card)

    def play_card(self, g, player: Player, held: Held, where: RuleRef) -> None:
        """Another card's effect, for a wild card: the card itself stays where it is."""
        if g.emitting:
            g.emit("use", where, player.name, held.deck, held.card)
        self._run_card(g, self.cards[held.deck][held.card], player)
