"""FINANCE (1932) as a plain hand-written Python simulator: the yardstick for rulesc's speed.

This is what a user would write instead of a `.rules` file: the rules of games/finance.rules,
the heuristic agent's decisions as it makes them with that file's hints (`worth`, `reserve`),
and the same random numbers drawn from one `random.Random(seed)` in the same order as the
engine draws them, so it plays the very same games as

    Game(load_rules("games/finance.rules"), players, seed=seed, agents=make_agents("heuristic", seed, players))

seed for seed (tests/test_yardstick.py checks turns, winners, cash, positions, leases and the
generator's final state). It is written the way a competent programmer would write it, not
deliberately slow and not micro-optimised; bench/bench_yardstick.py runs both side by side.

The game data (board, leases, cards, prices) is written out here by hand, not read from the
`.rules` file: a user writing his own simulator has no `.rules` file, and a yardstick that read
its data through rulesc would share any mistake rulesc made reading it. The agreement test is
what keeps the two in step: when games/finance.rules changes, it fails until this file follows.

The random numbers, in the engine's order:
  - at the start, the Chance cards are shuffled, then the Community Chest cards (`rng.shuffle`
    of the cards in the order the file lists them, copies repeated), though the decks are only
    ever cut;
  - "high man moves first": every contender rolls two dice, in seat order; ties roll again;
  - each turn the mover rolls two dice (`int(random() * 6) + 1` each);
  - a card is cut: `deck[int(random() * len(deck))]`, the deck left as it was.
"""

from __future__ import annotations

import random

# ---- the game's numbers (games/finance.rules) ---------------------------------------------------
STARTING_CASH = 1000
CIRCUIT_INCOME = 250  # on passing or landing on Start
TARIFF_PERCENT = 10  # of the mover's cash, rounded down
TAXES = 20
LUXURY = 75
HOUSE_CAP = 5
OPENING_BID = 10
TURN_LIMIT = 1500
MAX_WINDOW_ACTIONS = 30  # the engine's cap on actions and offers in one end-of-turn window

# The heuristic agent's hints: a lease is worth 8 times its first rent plus twice its cash value;
# it keeps $150 in reserve.
RESERVE = 150

# name, series (None: a railroad or utility, which has no series and no houses), cash value, rents by houses
LEASES = [
    ("Wayback", 1, 50, (2, 10, 30, 80, 160, 200)),
    ("Rubeville", 1, 50, (4, 20, 60, 180, 320, 450)),
    ("SylvanDell", 2, 70, (6, 30, 90, 270, 400, 550)),
    ("VenetianLagoon", 2, 70, (8, 40, 100, 300, 450, 600)),
    ("YeOldeManor", 2, 70, (8, 40, 100, 300, 450, 600)),
    ("Boomtown", 3, 100, (10, 50, 150, 450, 625, 750)),
    ("RicketyRow", 3, 100, (12, 60, 180, 500, 700, 900)),
    ("EasyStreet", 3, 100, (12, 60, 180, 500, 700, 900)),
    ("GoldbergSquare", 4, 110, (14, 70, 200, 550, 750, 950)),
    ("EpsteinRoad", 4, 110, (16, 80, 220, 600, 800, 1000)),
    ("CohenBoulevard", 4, 110, (16, 80, 220, 600, 800, 1000)),
    ("MaguireStreet", 5, 140, (18, 90, 250, 700, 875, 1050)),
    ("DeLanceyStreet", 5, 140, (20, 100, 300, 750, 925, 1100)),
    ("OLearyAvenue", 5, 140, (20, 100, 300, 750, 925, 1100)),
    ("MainLine", 6, 150, (22, 110, 330, 800, 975, 1150)),
    ("ChevyChase", 6, 150, (24, 120, 360, 850, 1025, 1200)),
    ("GrossePoint", 6, 150, (24, 120, 360, 850, 1025, 1200)),
    ("CommonwealthAve", 7, 170, (26, 130, 390, 900, 1100, 1275)),
    ("Broadway", 7, 170, (28, 150, 450, 1000, 1200, 1400)),
    ("RittenhouseSquare", 7, 170, (28, 150, 450, 1000, 1200, 1400)),
    ("WallStreet", 8, 100, (35, 175, 500, 1100, 1300, 1500)),
    ("LaSalleStreet", 8, 100, (50, 200, 600, 1400, 1700, 2000)),
    ("PennsylvaniaRR", None, None, (25,)),
    ("NewYorkCentralRR", None, None, (25,)),
    ("SouthernPacificRR", None, None, (25,)),
    ("SantaFeRR", None, None, (25,)),
    ("UGI", None, None, (20,)),
    ("APL", None, None, (20,)),
]

BOARD = [
    "Start", "Wayback", "CommunityChest", "Rubeville", "Tariff", "PennsylvaniaRR", "SylvanDell", "Chance",
    "VenetianLagoon", "YeOldeManor",
    "Taxes", "Boomtown", "UGI", "RicketyRow", "EasyStreet", "NewYorkCentralRR", "GoldbergSquare", "CommunityChest",
    "EpsteinRoad", "CohenBoulevard",
    "Rest", "MaguireStreet", "Chance", "DeLanceyStreet", "OLearyAvenue", "SouthernPacificRR", "MainLine",
    "ChevyChase", "APL", "GrossePoint",
    "Rest", "CommonwealthAve", "Broadway", "CommunityChest", "RittenhouseSquare", "SantaFeRR", "Chance",
    "WallStreet", "Luxury", "LaSalleStreet",
]
START = BOARD.index("Start")
PENNSYLVANIA_RR = BOARD.index("PennsylvaniaRR")

CHANCE_CARDS = ["AdvanceToStart", "AdvanceToStart", "GoBackThree", "BankDividend", "RoadRepairs", "TakeARide",
                "BuildingLoan", "SpeedingFine"]
CHEST_CARDS = ["DoctorsBill", "SchoolTax", "Insurance", "Church", "Church", "Hospital", "Charity"]
CHEST_PAYMENTS = {"DoctorsBill": 20, "SchoolTax": 15, "Insurance": 50, "Church": 10, "Hospital": 100, "Charity": 25}


class Lease:
    __slots__ = ("name", "series", "value", "rents", "worth", "square", "owner", "houses", "withdrawn")

    def __init__(self, name, series, value, rents):
        self.name = name
        self.series = series
        self.value = value
        self.rents = rents
        self.worth = rents[0] * 8 + (value * 2 if value is not None else 0)
        self.square = BOARD.index(name)
        self.owner = None
        self.houses = 0
        self.withdrawn = False


class Player:
    __slots__ = ("seat", "name", "cash", "at", "out")

    def __init__(self, seat):
        self.seat = seat
        self.name = f"P{seat + 1}"
        self.cash = STARTING_CASH
        self.at = START
        self.out = False


class PlayerOut(Exception):
    """The mover could not pay and is out: his turn ends here."""


class GameOver(Exception):
    """One player is left."""


class Finance:
    def __init__(self, players: int, seed: int, turn_limit: int = TURN_LIMIT):
        self.rng = random.Random(seed)
        self.turn_limit = turn_limit
        self.players = [Player(seat) for seat in range(players)]
        self.leases = [Lease(*row) for row in LEASES]
        self.board = list(BOARD)
        self.series = {}
        for lease in self.leases:
            self.board[lease.square] = lease
            if lease.series is not None:
                self.series.setdefault(lease.series, []).append(lease)
        self.chance = list(CHANCE_CARDS)
        self.rng.shuffle(self.chance)
        self.chest = list(CHEST_CARDS)
        self.rng.shuffle(self.chest)
        self.turn = 0
        self.current = 0
        self.winner = None
        self.end_reason = None

    # ---- dice ------------------------------------------------------------------------------------------------
    def dice(self) -> int:
        rnd = self.rng.random
        return (int(rnd() * 6) + 1) + (int(rnd() * 6) + 1)

    def choose_first(self) -> None:
        contenders = list(self.players)
        while len(contenders) > 1:
            rolls = [(self.dice(), p) for p in contenders]
            best = max(total for total, _ in rolls)
            contenders = [p for total, p in rolls if total == best]
        self.current = contenders[0].seat

    # ---- the game ---------------------------------------------------------------------------------------------
    def play(self) -> "Finance":
        self.choose_first()
        try:
            while True:
                self.play_turn()
        except GameOver:
            pass
        return self

    def play_turn(self) -> None:
        player = self.players[self.current]
        self.turn += 1
        try:
            self.advance(player, self.dice())
            self.build_and_trade(player)
        except PlayerOut:
            pass
        if self.turn >= self.turn_limit:
            self.end_reason = "turn limit"
            raise GameOver()
        n = len(self.players)
        for k in range(1, n + 1):
            nxt = self.players[(self.current + k) % n]
            if not nxt.out:
                self.current = nxt.seat
                return

    # ---- moving ----------------------------------------------------------------------------------------------
    def advance(self, player: Player, steps: int) -> None:
        """Forward `steps` squares: $250 for passing (or reaching) Start, then the square's rule."""
        n = len(self.board)
        if player.at + steps >= n:
            player.cash += CIRCUIT_INCOME
        player.at = (player.at + steps) % n
        self.land(player)

    def advance_to(self, player: Player, square: int) -> None:
        n = len(self.board)
        self.advance(player, (square - player.at - 1) % n + 1)

    def land(self, player: Player) -> None:
        square = self.board[player.at]
        if isinstance(square, Lease):
            if square.owner is None:
                if not square.withdrawn:
                    self.auction(square)
            elif square.owner is not player:
                self.pay(player, square.rents[square.houses], square.owner)
        elif square == "Chance":
            self.chance_card(player)
        elif square == "CommunityChest":
            card = self.chest[int(self.rng.random() * len(self.chest))]
            self.pay(player, CHEST_PAYMENTS[card])
        elif square == "Tariff":
            self.pay(player, player.cash * TARIFF_PERCENT // 100)
        elif square == "Taxes":
            self.pay(player, TAXES)
        elif square == "Luxury":
            self.pay(player, LUXURY)

    def chance_card(self, player: Player) -> None:
        card = self.chance[int(self.rng.random() * len(self.chance))]
        if card == "AdvanceToStart":
            self.advance_to(player, START)
        elif card == "GoBackThree":
            player.at = (player.at - 3) % len(self.board)
            self.land(player)
        elif card == "BankDividend":
            player.cash += 50
        elif card == "RoadRepairs":
            self.pay(player, 25 * sum(lease.houses for lease in self.leases if lease.owner is player))
        elif card == "TakeARide":
            self.advance_to(player, PENNSYLVANIA_RR)
        elif card == "BuildingLoan":
            player.cash += 150
        elif card == "SpeedingFine":
            self.pay(player, 15)

    # ---- money ----------------------------------------------------------------------------------------------
    def pay(self, player: Player, amount: int, to: Player | None = None) -> None:
        """`player` pays `amount` to `to` (None: the bank); if he cannot, he pays what he has and is out."""
        if player.cash < amount:
            if to is not None:
                to.cash += player.cash
            player.cash = 0
            self.eliminate(player)
        player.cash -= amount
        if to is not None:
            to.cash += amount

    def eliminate(self, player: Player) -> None:
        player.out = True
        for lease in self.leases:
            if lease.owner is player:
                lease.owner = None
                lease.houses = 0
                lease.withdrawn = True
        left = [p for p in self.players if not p.out]
        if len(left) == 1:
            self.winner = left[0]
            self.end_reason = "last player standing"
            raise GameOver()
        raise PlayerOut()

    # ---- the auction -------------------------------------------------------------------------------------
    def auction(self, lease: Lease) -> None:
        """Open ascending auction from the opening bid; bidders in turn from the mover, raising or dropping out."""
        n = len(self.players)
        bidders = sorted((p for p in self.players if not p.out), key=lambda p: (p.seat - self.current) % n)
        active = [p for p in bidders if p.cash >= OPENING_BID]
        high, price = None, OPENING_BID - 1
        while active and not (len(active) == 1 and active[0] is high):
            for bidder in list(active):
                if bidder is high:
                    continue
                bid = self.bid(bidder, lease, price + 1 if high is not None else OPENING_BID)
                if bid is None:
                    active.remove(bidder)
                    continue
                high, price = bidder, bid
                if len(active) == 1:
                    break
        if high is not None:
            high.cash -= price
            lease.owner = high

    @staticmethod
    def bid(player: Player, lease: Lease, low: int) -> int | None:
        """Up to the lease's worth, keeping the reserve, in steps of a tenth of that limit."""
        limit = min(lease.worth, player.cash - RESERVE)
        if limit < low:
            return None
        step = max(1, limit // 10)
        return min(limit, max(low, low + step - 1))

    # ---- after the move: houses and buying the missing lease of a series ------------------------------
    def build_and_trade(self, player: Player) -> None:
        for _ in range(MAX_WINDOW_ACTIONS):
            lease = self.best_house(player)
            if lease is not None:
                player.cash -= lease.value
                lease.houses += 1
                continue
            offer = self.missing_lease(player)
            if offer is None:
                return
            lease, price = offer
            seller = lease.owner
            if seller.cash < RESERVE:
                return  # refused; nothing has changed, so nothing else would be offered
            player.cash -= price
            seller.cash += price
            lease.owner = player

    def best_house(self, player: Player) -> Lease | None:
        """The most valuable lease he may build on (a complete series, building evenly, below the
        cap) and can afford above his reserve."""
        spare = player.cash - RESERVE
        best = None
        for lease in self.leases:
            if lease.owner is not player or lease.series is None or lease.houses >= HOUSE_CAP:
                continue
            if lease.value > spare:
                continue
            members = self.series[lease.series]
            if any(m.owner is not player for m in members) or lease.houses != min(m.houses for m in members):
                continue
            if best is None or (lease.worth, -lease.square) > (best.worth, -best.square):
                best = lease
        return best

    def missing_lease(self, player: Player):
        """(lease, price): the one lease he lacks of a series, offered at twice its worth, if he has
        twice his reserve to spare above it."""
        spare = player.cash - 2 * RESERVE
        if spare <= 0:
            return None
        for members in self.series.values():
            missing = [m for m in members if m.owner is not player]
            if len(missing) != 1:
                continue
            lease = missing[0]
            if lease.owner is None or lease.owner.out:
                continue
            price = lease.worth * 2
            if price <= spare:
                return lease, price
        return None


def play(players: int, seed: int, turn_limit: int = TURN_LIMIT) -> Finance:
    return Finance(players, seed, turn_limit).play()
