"""The dynamic checker: Hypothesis plays whole games and checks invariants after every event.

`rulesc check` calls `check_properties` and prints `format_report`. The work is split by job:

- `drawing`: every die, card cut and decision of a game drawn from one Hypothesis example,
  so that shrinking the example shrinks the game;
- `invariants`: the built-in invariants and the rules file's own, checked after every event;
- `search`: running Hypothesis at rising turn caps, bounding the shrinking, one minimal game
  per broken invariant;
- `failures`: a broken game as a `Failure` record, with the rule to blame and its trace;
- `coverage`: which rules, statements, squares, cards and phases the games exercised;
- (the source text a failure or coverage quotes comes from `rulesc.sources`);
- `report`: the text report, and the same for `--format json`.
"""

from .coverage import CoverageItem
from .drawing import DataRandom, DrawnSource, HypothesisAgent, OutOfData, _Source, decode_draws, encode_draws
from .failures import Failure
from .invariants import BUILTIN, CARDS, CRASH, MONEY, NEGATIVE, OUT, PROGRESS, InvariantChecker, PropertyFailure
from .report import format_report, report_json
from .search import WHOLE_GAMES, PropertyReport, check_properties, play_checked, turn_caps

__all__ = [
    "BUILTIN", "CARDS", "CRASH", "MONEY", "NEGATIVE", "OUT", "PROGRESS",
    "CoverageItem", "InvariantChecker", "DataRandom", "DrawnSource", "decode_draws", "encode_draws", "Failure", "HypothesisAgent", "OutOfData", "PropertyFailure", "PropertyReport",
    "WHOLE_GAMES", "_Source", "check_properties", "play_checked", "format_report", "report_json", "turn_caps",
]
