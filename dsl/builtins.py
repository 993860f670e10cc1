"""The language's conventions, defined once: what every rules file can use without declaring it.

The built-in names and their types, the fields the engine keeps for players, decks, rolls and
sales, the built-in functions and aggregates, the scalar types, the header's settings and the
hint names the agents read. The type checker, the code generator, the agents and the tools all
read these tables instead of spelling the names again, so a convention changes in one place.
"""

from __future__ import annotations

from . import types as T
from .types import Type

# ---- types ---------------------------------------------------------------------------------------------

SCALAR_TYPES = frozenset({"money", "count", "percent", "bool", "text"})
BUILTIN_TYPES = SCALAR_TYPES | {"player", "square", "account"}  # declarable without a `kind`

# ---- names in scope ------------------------------------------------------------------------------------

GLOBAL_NAMES = {  # everywhere
    "players": T.list_of(T.PLAYER),
    "bank": T.ACCOUNT,
    "turn": T.COUNT,
    "current": T.PLAYER,
    "squares": T.list_of(T.SQUARE),
}
LITERAL_NAMES = frozenset({"none", "true", "false"})
PLAYER = "player"  # the player a rule runs for (phases, handlers, cards, actions, hooks)
DEBT_NAMES = {"debtor": T.PLAYER, "creditor": T.ACCOUNT, "owed": T.MONEY}  # in `on debt`
TRADE_NAMES = {"partner": T.PLAYER}  # in a `trade`'s `when`, beside `player`
BID_NAMES = {"bidder": T.PLAYER}  # in an auction's `bluffing up to`: the bidder whose highest bid it is
MOVED_BY = "moved_by"  # in `on land`/`on pass`: the roll whose total moved the token, or `none`
MOVE_NAMES = {MOVED_BY: T.ROLL.maybe()}
CONTEXT_NAMES = frozenset({PLAYER, *DEBT_NAMES, *TRADE_NAMES, *BID_NAMES, *MOVE_NAMES})  # bound by where a rule runs
RESERVED_NAMES = frozenset({PLAYER, *GLOBAL_NAMES, *LITERAL_NAMES})  # a declaration may not take these

# ---- fields the engine keeps ---------------------------------------------------------------------------

PLAYER_FIELDS = {  # every player has these; a file's `player:` declares more
    "name": T.TEXT,
    "seat": T.COUNT,
    "out": T.BOOL,
    "position": T.SQUARE,
    "owing": T.MONEY,
    "bidding": T.MONEY,  # in an auction `with window`: the lowest bid he may make now
    "hand": T.list_of(Type("card")),
    "extra_turns": T.COUNT,
    "status": Type("status", True),  # the status with its own turn he is in (`put P in S`), or none
    "status_turns": T.COUNT,  # the turns he has begun in it, this one included
}
PLAYER_POSITION = "position"  # kept as an index into the board, read as a square
PLAYER_OUT = "out"
PLAYER_COUNTED = frozenset({"owing", "bidding"})  # the engine counts their changes, as it counts fields
PLAYER_UNTRACKED = frozenset({"hand", "extra_turns", "status", "status_turns"})  # no change counter: never cache what reads them
DECK_FIELDS = {"left": T.COUNT, "discarded": T.COUNT, "showing": Type("card", True)}  # showing: a lasting card in force
ROLL_FIELDS = {"total": T.COUNT, "doubles": T.BOOL, "faces": T.list_of(T.COUNT)}
SALE_FIELDS = {"winner": T.PLAYER, "price": T.MONEY}
SUPPLY_FIELDS = {"left": T.COUNT, "size": T.COUNT}  # a `supply`: the pieces the bank still holds, and all of them
ACCOUNT_FIELDS = {"balance": T.MONEY}  # an account field (`deposit: account`), or the bank
ACCOUNT_BALANCE = "balance"
NAME_FIELDS = {"name": T.TEXT}  # every named value: a thing, a square, a card
ENGINE_VALUES = frozenset({"roll", "sale", "deck", "card", "square", "account", "supply"})  # values whose fields are never `set`

# ---- functions -----------------------------------------------------------------------------------------

FUNCTIONS = ("count", "min", "max", "even", "odd", "ahead", "holds", "neighbours")  # called `f(a, b)`
AGGREGATES = frozenset({"all", "any", "count", "sum", "min", "max", "first", "best", "leaders", "list",
                        "connected"})  # `f(x in c: …)`; `connected(x in S where F)`: S's group in its graph

# ---- the game header -----------------------------------------------------------------------------------

SETTINGS = frozenset({"players", "start", "first player", "turn limit", "currency"})
FIRST_PLAYER_RULES = ("highest roll", "seat order")

# ---- hints: strategy advice the heuristic agent reads ---------------------------------------------------

HINT_WORTH = "worth"  # worth(x: K): money, what a thing is worth
HINT_RESERVE = "reserve"  # money kept back from bids and purchases
GLOBAL_HINTS = frozenset({HINT_WORTH, HINT_RESERVE})  # see only the global scope, and are money
ACTION_HINT_PREFIX = "act_"


def action_hint(action: str) -> str:
    """The hint that scores taking an action: `act_build`."""
    return ACTION_HINT_PREFIX + action


def decision_hint(decision: str) -> str:
    """The hint that scores a decision's options: "whom to bump" → `whom_to_bump`."""
    return decision.replace(" ", "_")
