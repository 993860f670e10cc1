"""Decks and cards, for the running game: drawing, kept cards, discards, wild cards.

`Cards` is part of `Game` (a mixin, to keep each module to one job): every card is always
somewhere — a deck's pile, its discards or a player's hand — and is moved there before the
event that tells of it, so the checker's "cards are conserved" holds after every event.
"""

from __future__ import annotations

from .events import RuleRef
from .state import Held, Player


class Cards:
    __slots__ = ()  # a part of `Game`, whose attributes are slots
    def _take(self, deck: str) -> str | None:
        """The next card of a deck, by its policy (or as a scenario forces it); None if none is left."""
        policy = self.rules.decks[deck].policy
        state = self.state
        pile = state.decks[deck]
        forced = self.forced_cards.get(deck)
        if forced:
            name = forced.pop(0)
            if policy != "cut":
                if name not in pile:
                    raise self.error(f"the scenario forces card `{name}`, but no copy of it is left in `{deck}`")
                pile.remove(name)
            return name
        if policy == "cut":  # a variant may have removed every card
            return pile[int(state.rng.random() * len(pile))] if pile else None
        if not pile and policy == "reshuffle":
            pile.extend(state.discards[deck])
            state.discards[deck].clear()
            state.rng.shuffle(pile)
        return pile.pop(0) if pile else None

    def _to_discards(self, deck: str, name: str) -> None:
        policy = self.rules.decks[deck].policy
        if policy == "cycle":  # used cards go to the bottom of the pile, unshuffled
            self.state.decks[deck].append(name)
        elif policy != "cut":
            self.state.discards[deck].append(name)

    def draw(self, deck: str, player: Player, where: RuleRef) -> None:
        """Draw a card: a kept card goes to the hand; any other is discarded and its effect runs.
        The card is in its new place before the `draw` event, so cards are always accounted for."""
        name = self._take(deck)
        if name is None:
            return
        card = self.cards[deck][name]
        if card.lasting:  # in force until the next card of this deck is drawn
            self.state.showing[deck] = Held(deck, name)
        else:
            self.state.showing.pop(deck, None)
        if card.keep:
            held = Held(deck, name, self.state.turn)
            player.hand.append(held)  # in his hand while he decides
            if self.emitting:
                self.event_sink((self.state.turn, "draw", where, player.name, deck, name))
            if self.choose(player, "keep", ["keep", "use"], where) == "keep":
                return
            player.hand.remove(held)
            self._to_discards(deck, name)
        else:
            self._to_discards(deck, name)
            if self.emitting:
                self.event_sink((self.state.turn, "draw", where, player.name, deck, name))
        self._run_card(card, player)

    def _run_card(self, card, player: Player) -> None:
        """Run a card's effect (the card itself is already where it goes: the discard pile)."""
        self.descend("cards draw cards", help="look for a card whose effect draws from its own deck again")
        try:
            card.body(self, {"player": player})
        finally:
            self.depth -= 1

    def discard(self, deck: str, where: RuleRef) -> None:
        name = self._take(deck)
        if name is not None:
            self._to_discards(deck, name)
            if self.emitting:
                self.emit("discard", where, deck, name)

    def use_card(self, player: Player, where: RuleRef) -> None:
        """The player uses one card he kept: its effect runs, then it is discarded. A `keep later`
        card kept in this turn is not offered yet."""
        turn = self.state.turn
        usable = [h for h in player.hand if not (h.since == turn and self.cards[h.deck][h.card].later)]
        if not usable:
            return
        held = self.choose(player, "use card", usable, where)
        player.hand.remove(held)
        self._to_discards(held.deck, held.card)
        if self.emitting:
            self.emit("use", where, player.name, held.deck, held.card)
        self._run_card(self.cards[held.deck][held.card], player)

    def discard_held(self, player: Player, held: Held, where: RuleRef, to: Player | None = None) -> None:
        """A kept card leaves its holder: to the discard pile, or (`to`) into another's hand."""
        if held not in player.hand:
            return
        held = player.hand.pop(player.hand.index(held))  # the card itself, with the turn it was kept in
        if to is not None:
            to.hand.append(held)
            if self.emitting:
                self.emit("give", where, player.name, to.name, held.deck, held.card)
        else:
            self._to_discards(held.deck, held.card)
            if self.emitting:
                self.emit("discard", where, held.deck, held.card)

    def play_card(self, player: Player, held: Held, where: RuleRef) -> None:
        """Another card's effect, for a wild card: the card itself stays where it is."""
        if self.emitting:
            self.emit("use", where, player.name, held.deck, held.card)
        self._run_card(self.cards[held.deck][held.card], player)
