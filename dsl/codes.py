"""Every diagnostic code, defined once: its stable code, name, severity, summary and explanation.

Each code is a constant here; its explanation (what it means, an example with its real output, the fix)
is its `## CODE` section of dsl/codes.md, beside this module. The examples run the shipped games, and no
Python module names a game's things (tests/test_interpreter.py), so that text is markdown, not Python.

A diagnostic is raised through its entry here (`codes.UNKNOWN_NAME.diagnostic(...)`, or a checker's
`report(codes.UNKNOWN_NAME, ...)`), so its severity cannot differ from site to site, and a code that
is not registered fails at once (`lookup`) rather than reaching a user undocumented. Everything that
shows codes reads this module: `rulesc explain` and the SARIF rules (rulesc/explain.py, rulesc/sarif.py),
the language server (rulesc/lsp.py), and docs/errors/README.md, which rulesc/explain.py generates from
it (tests/test_codes.py fails when the checked-in page differs).

The message itself is written where the diagnostic is raised, from that site's values: one code
covers several wordings (R0205 alone has a dozen, one per kind of name), so a template per code would
only move each site's sentence here. `summary` is the one line every wording of the code fits.

Codes are stable: never reuse or renumber one (UNASSIGNED holds the numbers that never had a code).
A new code takes the next free number of its range.
"""

from __future__ import annotations

import functools
import re
from importlib import resources

import attrs

from .diagnostics import Diagnostic, Fix, Label, Span
from .fixes import fixes_of

ERROR = "error"  # the file cannot be played: `rulesc` exits with status 1 (or `exit_status`)
WARNING = "warning"  # the file can be played, but something in it is probably a mistake


@attrs.frozen
class Code:
    """One diagnostic code."""

    code: str  # "R0205", as `path:line:col: error[R0205]: …` shows it
    name: str  # "unknown-name": its constant is UNKNOWN_NAME; `rulesc explain unknown-name` finds it
    severity: str  # ERROR or WARNING
    summary: str  # the index's line: what every message of the code is about
    exit_status: int = 1  # 2 for a file that cannot be read or a bad option: a usage or I/O error, not the rules'
    unnecessary: bool = False  # it marks rules that never matter (unused, unreachable); an editor fades them

    @property
    def explanation(self) -> str:
        """Markdown, the code's docs/errors entry after its severity and name: its section of dsl/codes.md."""
        return _explanations()[self.code]

    def diagnostic(self, message: str, path: str, span: Span | None = None, *, labels: tuple[Label, ...] = (),
                   notes: tuple[str, ...] = (), help: str | None = None, fixes: tuple[Fix, ...] = ()) -> Diagnostic:
        """A diagnostic of this code, with the code's severity."""
        return Diagnostic(self.severity, self.code, message, path, span, tuple(labels), tuple(notes),
                          None if help is None else str(help), tuple(fixes) or fixes_of(help, span))


@attrs.frozen
class Range:
    """A range of codes (`R02xx`: names) and what its codes have in common, for docs/errors."""

    heading: str  # "R02xx"
    title: str
    intro: str  # markdown, or "" for none

    def holds(self, code: str) -> bool:
        return code.startswith(self.heading.rstrip("x"))


# ---- R00xx: input files and the command line -----------------------------------------------------

NO_SUCH_FILE = Code("R0001", "no-such-file", ERROR, "no such file", exit_status=2)
PATH_IS_A_DIRECTORY = Code("R0002", "path-is-a-directory", ERROR, "the path is a directory", exit_status=2)
FILE_TOO_LARGE = Code("R0003", "file-too-large", ERROR, "the file is too large")
UNREADABLE_FILE = Code("R0004", "unreadable-file", ERROR, "the file cannot be read", exit_status=2)
BINARY_FILE = Code("R0005", "binary-file", ERROR, "the file is binary")
NOT_UTF8 = Code("R0006", "not-utf8", ERROR, "the file is not UTF-8")
EMPTY_FILE = Code("R0007", "empty-file", ERROR, "the file is empty")
MALFORMED_SET = Code("R0010", "malformed-set", ERROR,
                     "`--set` is not `NAME=VALUE` (or, for `sweep`, not a range `NAME=FROM..TO step S`)", exit_status=2)
UNKNOWN_SET_PARAMETER = Code("R0011", "unknown-set-parameter", ERROR, "`--set` names no parameter", exit_status=2)
BAD_SET_VALUE = Code("R0012", "bad-set-value", ERROR,
                     "`--set` value that is not a value or of the wrong type", exit_status=2)


# ---- R01xx: syntax -------------------------------------------------------------------------------

UNEXPECTED_TOKEN = Code("R0101", "unexpected-token", ERROR, "unexpected token")
UNEXPECTED_CHARACTER = Code("R0102", "unexpected-character", ERROR, "unexpected character")
UNMATCHED_INDENTATION = Code("R0103", "unmatched-indentation", ERROR, "indentation matches no block")
NESTING_TOO_DEEP = Code("R0104", "nesting-too-deep", ERROR, "nesting too deep")
NOT_AN_AGGREGATE = Code("R0105", "not-an-aggregate", ERROR, "not an aggregate")
NUMBER_TOO_LARGE = Code("R0106", "number-too-large", ERROR, "number too large")
DESIGNED_NOT_BUILT = Code("R0107", "designed-not-built", ERROR, "designed syntax that is not built yet")


# ---- R02xx: names --------------------------------------------------------------------------------

UNKNOWN_TYPE = Code("R0201", "unknown-type", ERROR, "unknown type")
DEFINED_TWICE = Code("R0202", "defined-twice", ERROR, "defined more than once")
BUILT_IN_NAME_DECLARED = Code("R0203", "built-in-name-declared", ERROR, "a built-in name cannot be declared")
SECOND_ONE_PER_GAME = Code("R0204", "second-one-per-game", ERROR, "a second declaration of a one-per-game thing")
UNKNOWN_NAME = Code("R0205", "unknown-name", ERROR, "unknown name")
UNKNOWN_FIELD = Code("R0206", "unknown-field", ERROR, "no such field")
UNKNOWN_FUNCTION = Code("R0208", "unknown-function", ERROR, "unknown function")
RECURSIVE_FUNCTION = Code("R0209", "recursive-function", ERROR, "a function that calls itself")
MISPLACED_ACCOUNT_FIELD = Code("R0210", "misplaced-account-field", ERROR,
                               "an `account` field on a kind, in a list, optional or with a default")
HIDDEN_NON_PLAYER_FIELD = Code("R0211", "hidden-non-player-field", ERROR, "`hidden` on a field that is not a player's")
HINT_READS_HIDDEN_FIELD = Code("R0212", "hint-reads-hidden-field", ERROR, "a hint reads another player's hidden field")
MARK_NAME_TAKEN = Code("R0213", "mark-name-taken", ERROR, "a move's mark takes a name already used")


# ---- R03xx: types --------------------------------------------------------------------------------

WRONG_TYPE = Code("R0301", "wrong-type", ERROR, "wrong type")
INDEX_OF_NON_LIST = Code("R0302", "index-of-non-list", ERROR, "indexing something that is not a list")
INCOMPARABLE_VALUES = Code("R0303", "incomparable-values", ERROR, "values that cannot be compared")
NEGATED_NON_NUMBER = Code("R0304", "negated-non-number", ERROR, "negating something that is not a number")
IMPOSSIBLE_ARITHMETIC = Code("R0305", "impossible-arithmetic", ERROR,
                             "impossible arithmetic, or a value that may be `none` where one is required")
VALUE_WITHOUT_FIELDS = Code("R0306", "value-without-fields", ERROR, "a value with no fields")
WRONG_ARGUMENT_COUNT = Code("R0307", "wrong-argument-count", ERROR, "wrong number of arguments")
UNSETTABLE_TARGET = Code("R0308", "unsettable-target", ERROR, "only fields and globals can be set")
FIXED_FIELD_SET = Code("R0309", "fixed-field-set", ERROR, "fixed data or an engine-kept field cannot be set")
IMPOSSIBLE_DIE_FACE = Code("R0310", "impossible-die-face", ERROR, "a scenario forces a die face outside 1 to 6")
COMPUTED_SCENARIO_ANSWER = Code("R0311", "computed-scenario-answer", ERROR,
                                "a scenario's scripted answer is computed, not written out")
NON_POSITIVE_STEP = Code("R0312", "non-positive-step", ERROR, "an action's amount with a step of 0 or less")
UNTRADABLE_IN_SCENARIO_TRADE = Code("R0313", "untradable-in-scenario-trade", ERROR,
                                    "a scenario's trade lists something that cannot be traded")
BIDDERS_OUT_AT_PASS_ZERO = Code("R0314", "bidders-out-at-pass-zero", ERROR,
                                "an auction whose bidders are out at the 0th pass")
ROLL_AGAIN_NEVER_ROLLS = Code("R0315", "roll-again-never-rolls", ERROR,
                              "a roll again on doubles that never rolls again")
UNKNOWN_SCENARIO_ANSWER = Code("R0316", "unknown-scenario-answer", ERROR,
                               "a scenario answers a decision the rules never ask, or with an option it does not have")
SCENARIO_SETUP_MISPLACED = Code("R0317", "scenario-setup-misplaced", ERROR,
                                "a scenario's `setup` after its play has begun, or twice")
UNREFUSABLE_ANSWER = Code("R0318", "unrefusable-answer", ERROR,
                          "a scenario's `refuse` of an answer no rule can refuse")
SPLIT_WITHOUT_ROUNDING = Code("R0319", "split-without-rounding", ERROR, "a `split` that does not say how shares are rounded")


# ---- R04xx: reachability and unused declarations -------------------------------------------------

STATEMENT_AFTER_TURN_END = Code("R0401", "statement-after-turn-end", WARNING,
                                "statement after the turn has ended", unnecessary=True)
UNREACHABLE_PHASE = Code("R0402", "unreachable-phase", WARNING, "phase that can never run", unnecessary=True)
UNREACHABLE_HANDLER = Code("R0403", "unreachable-handler", WARNING, "handler that can never run", unnecessary=True)
UNUSED_DECLARATION = Code("R0404", "unused-declaration", WARNING, "declared but never used", unnecessary=True)
EMPTY_GROUP = Code("R0405", "empty-group", WARNING, "group with no members")
NO_END_CONDITION = Code("R0406", "no-end-condition", WARNING, "no `end when`")
RAISE_CASH_OUTSIDE_DEBT = Code("R0408", "raise-cash-outside-debt", ERROR, "`raise cash` outside `on debt`")
SHOWING_WITHOUT_LASTING = Code("R0409", "showing-without-lasting", WARNING,
                               "`Deck.showing` of a deck with no `lasting` card")
HANDLERS_BOTH_PAY = Code("R0410", "handlers-both-pay", WARNING,
                         "two handlers on the same arrival, under the same condition, both moving money")
HANDLER_WRITTEN_TWICE = Code("R0411", "handler-written-twice", ERROR,
                             "a handler written twice: the same arrival, condition and payments")
UNUSABLE_KEPT_CARD = Code("R0412", "unusable-kept-card", WARNING, "a kept card that no rule can ever use")
ENDLESS_PROCEDURE = Code("R0413", "endless-procedure", ERROR, "a procedure that always runs itself again")
UNREAD_MOVE_MARK = Code("R0414", "unread-move-mark", WARNING, "a move's mark that no handler reads", unnecessary=True)
UNTESTED_SUPPLY = Code("R0415", "untested-supply", WARNING,
                       "an action takes from a supply without testing what is left")
BAD_ALLOW = Code("R0416", "bad-allow", ERROR, "an `allow` of an error: only warnings can be meant")


# ---- R05xx: the header, declared state and variants ----------------------------------------------

PLAYERS_WITHOUT_CASH = Code("R0501", "players-without-cash", ERROR, "players have no `cash`")
NO_GAME_HEADER = Code("R0502", "no-game-header", ERROR, "no `game` header")
UNKNOWN_SETTING = Code("R0503", "unknown-setting", ERROR, "unknown setting")
BAD_SETTING_VALUE = Code("R0504", "bad-setting-value", ERROR, "bad setting value")
NO_START_SQUARE = Code("R0505", "no-start-square", ERROR, "no `start:`")
UNRESOLVED_EXTENDS = Code("R0506", "unresolved-extends", ERROR,
                          "`extends` met by the checker, not resolved by loading the file")
MISSING_DEFAULT = Code("R0507", "missing-default", ERROR, "`state`, player or global field without a default")
VARIANT_TARGET_MISSING = Code("R0510", "variant-target-missing", ERROR,
                              "a variant changes something the base does not have")
MISPLACED_EXTENDS = Code("R0511", "misplaced-extends", ERROR, "`extends` out of place, or a change without `extends`")
VARIANT_CYCLE = Code("R0512", "variant-cycle", ERROR, "variants that extend each other in a cycle")
MISSING_BASE_FILE = Code("R0513", "missing-base-file", ERROR, "the base file does not exist", exit_status=2)
OVERRIDE_TYPE_MISMATCH = Code("R0514", "override-type-mismatch", ERROR,
                              "an `override param` of another type than the base's value")
SETUP_READS_PLAYERS = Code("R0515", "setup-reads-players", ERROR,
                           "a default that reads the players or whose turn it is")
BAD_SUPPLY = Code("R0516", "bad-supply", ERROR, "a supply not on a state count field, or of a size that changes")
PHASE_KEEPS_BASE_CONDITION = Code("R0517", "phase-keeps-base-condition", WARNING,
                                  "a replaced phase keeps the base's `when` or `optional`, which it does not state")
CASE_RENAMES_THING = Code("R0518", "case-renames-thing", ERROR,
                          "a handler's case names its thing otherwise than the handler it changes")


# ---- R06xx: tables -------------------------------------------------------------------------------

FIRST_COLUMN_NOT_NAME = Code("R0601", "first-column-not-name", ERROR, "first column is not `name`")
UNKNOWN_COLUMN = Code("R0602", "unknown-column", ERROR, "column that is no fixed field")
MISSING_COLUMN = Code("R0603", "missing-column", ERROR, "fixed field without a column")
ROW_WIDTH_MISMATCH = Code("R0604", "row-width-mismatch", ERROR, "row with the wrong number of cells")
BAD_GENERATED_ROW = Code("R0605", "bad-generated-row", ERROR, "a generated row (`for … :`) that cannot be made")


# ---- R07xx: the board ----------------------------------------------------------------------------

NO_BOARD = Code("R0701", "no-board", ERROR, "no `board`")
THING_ON_BOARD_TWICE = Code("R0702", "thing-on-board-twice", ERROR, "a thing on the board twice")
THING_MISSING_FROM_BOARD = Code("R0703", "thing-missing-from-board", ERROR, "a thing missing from the board")
OFF_BOARD_SQUARE_ON_BOARD = Code("R0704", "off-board-square-on-board", ERROR,
                                 "an `off board` square listed in `board:`")
STOP_SQUARE_OFF_BOARD = Code("R0705", "stop-square-off-board", ERROR, "a `stop` square that is `off board`")
GRAPH_SQUARE_NOT_OF_KIND = Code("R0706", "graph-square-not-of-kind", ERROR,
                                "a graph's link names something that is not a thing of the graph's kind")
BAD_GRID = Code("R0707", "bad-grid", ERROR, "a grid that cannot be made")
KIND_IN_TWO_GRAPHS = Code("R0708", "kind-in-two-graphs", ERROR, "a kind whose things are in two graphs")
NAMED_PLACE_OF_THING = Code("R0709", "named-place-of-thing", ERROR,
                            "`X as NAME` in `board:` for a thing or a square the board has once")


# ---- R08xx: the turn -----------------------------------------------------------------------------

NO_TURN = Code("R0801", "no-turn", ERROR, "no `turn`")
END_TURN_IN_SETUP = Code("R0802", "end-turn-in-setup", ERROR, "`end turn` in `setup`")
ACTION_LIMIT_ZERO = Code("R0803", "action-limit-zero", ERROR, "an action limited to 0 times per turn or visit")
STATUS_NEVER_RELEASED = Code("R0804", "status-never-released", WARNING, "a status no rule releases a player from")


# ---- R09xx: handlers, trades and cards -----------------------------------------------------------

BAD_HANDLER_TARGET = Code("R0901", "bad-handler-target", ERROR, "handler target missing or not allowed")
UNNAMED_HANDLER_THING = Code("R0902", "unnamed-handler-thing", ERROR, "kind handler without a name for the thing")
TRADED_KIND_WITHOUT_OWNER = Code("R0903", "traded-kind-without-owner", ERROR, "traded kind without an owner")
KEPT_CARD_IN_CUT_DECK = Code("R0904", "kept-card-in-cut-deck", ERROR, "a kept card in a `cut` deck")
KEPT_LASTING_CARD = Code("R0905", "kept-lasting-card", ERROR, "a card both kept and `lasting`")
TRADABLE_CARD_NOT_KEPT = Code("R0907", "tradable-card-not-kept", ERROR, "a `tradable` card that is not kept")
TRADABLE_CARD_NEVER_TRADED = Code("R0908", "tradable-card-never-traded", WARNING,
                                  "a `tradable` card that no `trade` lets be traded")
BLUFF_WITHOUT_BLUFFING = Code("R0909", "bluff-without-bluffing", ERROR,
                              "a `bluff:` block on an auction that is not `bluffing`")
DECK_TOO_LARGE = Code("R0910", "deck-too-large", ERROR, "a deck of more than 10,000 cards")
THING_DECK_NOT_ONCE = Code("R0911", "thing-deck-not-once", ERROR, "a deck of things that is not drawn `once`")


# ---- R10xx: while a game runs ------------------------------------------------------------------------

RUNTIME_ERROR = Code("R1001", "runtime-error", ERROR, "a rule did something impossible while the game ran")
RULES_LOOP = Code("R1002", "rules-loop", ERROR, "the rules loop")


# ---- R11xx: money and ownership (rulesc/dsl/soundness/) -------------------------------------------

ACCOUNT_NEVER_PAID_OUT = Code("R1101", "account-never-paid-out", WARNING,
                              "an account that rules pay into and no rule pays out of")
BALANCE_PAID_FROM_ELSEWHERE = Code("R1102", "balance-paid-from-elsewhere", ERROR,
                                   "a payment sized by an account's balance that another account pays")
PRICE_PAID_BY_ANOTHER_PLAYER = Code("R1103", "price-paid-by-another-player", ERROR,
                                    "a thing goes to one player while another pays its price")
TRANSFER_WITHOUT_OWNERSHIP_TEST = Code("R1104", "transfer-without-ownership-test", ERROR,
                                       "a chosen thing changes hands, or is paid for, with no test of its owner")
NEGATIVE_PAYMENT = Code("R1105", "negative-payment", ERROR, "a payment whose amount is negative")
PAYMENT_TO_ITSELF = Code("R1106", "payment-to-itself", WARNING, "a payment from an account to the same account")
ACCOUNT_NEVER_PAID_INTO = Code("R1107", "account-never-paid-into", WARNING,
                               "an account that rules pay out of and no rule pays into")
MONEY_SET_WITHOUT_PAYMENT = Code("R1108", "money-set-without-payment", WARNING,
                                 "a rule changes a money field by `set`, not by a payment")


# ---- R12xx: players and information (rulesc/dsl/soundness/) ---------------------------------------

RULE_NEVER_RUNS = Code("R1201", "rule-never-runs", ERROR,
                       "a handler, hook or phase that never runs: an earlier one always ends the turn first")
# (not `unnecessary`: in a variant it stands at the variant's rule that ends the turn, which an editor must not fade)
OUT_PLAYER_DECIDES = Code("R1202", "out-player-decides", ERROR, "a decision put to a player who is out of the game")
PLAYER_MAY_BE_OUT_DECIDES = Code("R1203", "player-may-be-out-decides", WARNING,
                                 "a decision put to a player who may be out of the game")
HIDDEN_FIELD_SHOWN = Code("R1204", "hidden-field-shown", ERROR,
                          "what a player is offered reads another player's hidden field")
STATE_NEVER_LEFT = Code("R1205", "state-never-left", ERROR,
                        "a way out of a state that needs a value to fall again, and the value only grows")


# ---- R13xx: whole games, and a variant against its base (rulesc/judge/) ----------------------------

RULE_NEVER_RAN = Code("R1301", "rule-never-ran", WARNING, "a rule of the file that no game of the check ran")
BASE_RULE_LOST = Code("R1302", "base-rule-lost", WARNING,
                      "a rule of the base that the base's games run and the variant's games never do")
END_NEVER_CAME = Code("R1303", "end-never-came", WARNING, "an end condition that ended no game")
DECIDED_AT_SETUP = Code("R1304", "decided-at-setup", ERROR, "every game ends in its first round")
GAMES_DO_NOT_END = Code("R1305", "games-do-not-end", WARNING, "most games stop at the turn limit")
STUCK_IN_STATUS = Code("R1306", "stuck-in-status", WARNING, "players spend most of a game in one status")
ARRIVAL_PAID_TWICE = Code("R1307", "arrival-paid-twice", WARNING,
                          "two handlers charged one payer for one payee on one arrival, which the base never does")


# ---- the ranges, and the registry -----------------------------------------------------------------

RANGES = (
    Range("R00xx", "input files and the command line", """\
These come before any parsing. The file-reading codes are raised by `dsl/source.py`, the `--set`
codes by the interpreter when it loads a file (`interpreter/rules.py`).
"""),
    Range("R01xx", "syntax", """\
Raised by the parser (`dsl/parser.py`, `dsl/transform.py`).
"""),
    Range("R02xx", "names", """\
Raised while the declarations are gathered (`dsl/model.py`) and names are resolved
(`dsl/checker.py`). Unknown names come with the nearest known names.
"""),
    Range("R03xx", "types", """\
Raised by the type checker (`dsl/typecheck.py`, `dsl/checker.py`). The types are described in the language
reference, section 6.
"""),
    Range("R04xx", "reachability and unused declarations", """\
Mostly warnings: the file can be played, but part of it will never matter.
"""),
    Range("R05xx", "the header, declared state and variants", ""),
    Range("R06xx", "tables", ""),
    Range("R07xx", "the board", ""),
    Range("R08xx", "the turn", ""),
    Range("R09xx", "handlers, trades and cards", ""),
    Range("R10xx", "while a game runs", """\
Raised by the interpreter (`interpreter/errors.py`) when a rule does something impossible in a
particular game. They point at the statement that was running. `rulesc run`, `simulate`, `test`
and the property checker report them (a scenario or a generated game fails with the
diagnostic); they stop that game with a diagnostic, not a Python traceback.
"""),
    Range("R11xx", "money and ownership", """\
What the static soundness analyses (`dsl/soundness/`) find in how money and things change hands, without
playing a game: money that goes into an account and never comes out, a price paid by someone else than the
player who gets the thing, a thing taken from its owner with no test that the taker owns it, a negative price.
"""),
    Range("R12xx", "players and information", """\
What the static soundness analyses (`dsl/soundness/`) find about players: a rule that can never run because an
earlier one always ends the turn, a decision put to a player who may be out, another player's hidden value shown
in what a player is offered, a state that a player can never leave again.
"""),
    Range("R13xx", "whole games, and a variant against its base", """\
Found by `rulesc check` from the whole games it plays (`rulesc/judge/`): a rule that never ran, an end that
never came, a game decided at setup, a player stuck in one state, two handlers paying for one event; and, for a
variant, what its base's games do that its own games no longer do, on the same seeds. Each names the line to
blame and the command that replays a game showing it.
"""),
)

UNASSIGNED = ("R0207", "R0407")  # numbers passed over when their ranges were filled: never give them a code

REGISTRY: dict[str, Code] = {entry.code: entry for entry in list(globals().values()) if isinstance(entry, Code)}


@functools.cache
def _explanations() -> dict[str, str]:
    """dsl/codes.md by code, read when an explanation is first asked for (`rulesc explain`, SARIF, the docs
    page) rather than by every command that imports the codes."""
    text = resources.files(__package__).joinpath("codes.md").read_text(encoding="utf-8")
    sections = re.split(r"^## (R\d{4})\n", text, flags=re.M)
    return {code: body.strip("\n") + "\n" for code, body in zip(sections[1::2], sections[2::2])}


def lookup(code: str) -> Code:
    """The entry of `code`; a KeyError naming this module for a code that is not registered."""
    try:
        return REGISTRY[code]
    except KeyError:
        raise KeyError(f"`{code}` is not a registered diagnostic code (dsl/codes.py)") from None
