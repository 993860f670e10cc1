"""The judge's findings: what the whole games of a check show about the rules, as diagnostics.

`judge` reads the games one side played (`Side`: the rules, each whole game's profile and coverage,
and what the generated games of the search covered) and, for a variant, the same seeds and seats
played by its base. Each finding is a diagnostic of range R13xx, at the line to blame: a variant's
own rule, or the variant's change that shares the most names with what the base did and the variant
no longer does (`units.blame`), with a note at the base's line it affects and a command that replays
a game showing it.

Thresholds are there so that luck of the dice is not taken for a cause: a base rule counts as lost only if it
ran in several base games and in none of the variant's; a share of games is compared with the base's
only when it differs several-fold.
"""

from __future__ import annotations

import os
import shlex
from typing import NamedTuple

from rulesc.dsl import codes
from rulesc.dsl.allow import is_allowed
from rulesc.dsl.diagnostics import Diagnostic, Label
from rulesc.interpreter.rules import Rules
from rulesc.properties.coverage import Coverage

from rulesc.properties.profile import GameProfile
from .units import Change, Unit, blame, changes, name_counts, units

LOST_GAMES = 3  # a base rule is lost if it ran in at least this many base games (and a tenth of them) ...
LOST_SHARE = 0.1  # ... and in none of the variant's
RUNNING = ("handler", "hook", "action", "phase", "procedure")  # a rule of these that never runs is dead weight
STUCK_SHARE = 0.5  # a player spending this share of his turns in a status is stuck in it ...
STUCK_GAMES = 0.25  # ... and it matters when that happens in this share of the games
LISTED = 6
LABELLED = 3  # notes at the rules a finding is about  # rules named in one finding; the rest are counted
LIMIT_SHARE = 0.5  # most games stopping at the turn limit
SEVERAL_FOLD = 3  # a share compared with the base's counts if it is this many times the base's


class Side(NamedTuple):
    """The whole games one rules file played: game i of a variant and game i of its base share seed and seats."""

    rules: Rules
    profiles: list[GameProfile]
    coverages: list[Coverage]
    search: Coverage | None  # what the generated games of the search covered (the checked file only)
    replay: list[str]  # the `rulesc run …` arguments of one of its games, before `--seed` and `--players`


def judge(side: Side, base: Side | None = None, allowances: list = ()) -> tuple[list[Diagnostic], list[Diagnostic]]:
    """The findings of the whole games of `side`, compared with `base`'s on the same seeds if it is a variant:
    those to report, and the warnings an `allow` (`allowances`, dsl/allow.py) says are meant."""
    found = _Judge(side, base).findings()
    allowed = [d for d in found if is_allowed(d, list(allowances))]
    return [d for d in found if not is_allowed(d, list(allowances))], allowed


class _Judge:
    def __init__(self, side: Side, base: Side | None):
        self.side, self.base = side, base
        self.program = side.rules.program
        self.path = self.program.path
        self.units = units(self.program)
        self.common = name_counts(self.units)
        self.changes: list[Change] = changes(self.program, base.rules.program) if base is not None else []
        self.ran = self._runs(side)
        self.base_ran = self._runs(base) if base is not None else {}
        self.found: list[Diagnostic] = []

    # ---- which games ran which rule ------------------------------------------------------------
    def _runs(self, side: Side) -> dict:
        """Each unit of this program (by (file, line)) -> the indexes of `side`'s games that ran it."""
        runs: dict = {}
        for i, (profile, coverage) in enumerate(zip(side.profiles, side.coverages)):
            hits = {(rule.file, rule.line) for rule in coverage.wheres if rule}
            for u in self.units:
                if _ran(u, profile, coverage, hits):
                    runs.setdefault((u.file, u.line), []).append(i)
        return runs

    def _searched(self, u: Unit) -> bool:
        """Whether a generated game of the search ran `u`."""
        search = self.side.search
        if search is None:
            return False
        if not hasattr(self, "_search_hits"):
            self._search_hits = {(rule.file, rule.line) for rule in search.wheres if rule}
        return _ran(u, None, search, self._search_hits)

    # ---- the findings ------------------------------------------------------------------------
    def findings(self) -> list[Diagnostic]:
        games = len(self.side.profiles)
        if not games:
            return []
        if self.decided_at_setup():
            return self.found  # little else is played: what the other findings compare is not there
        stuck = self.stuck()
        self.never_ran()
        if self.base is not None:
            self.lost()
        self.ends()
        self.turn_limit(stuck)
        self.paid_twice()
        return self.found

    def never_ran(self) -> None:
        """R1301: a rule of the checked file (a variant's own) that no game ran."""
        played = len(self.side.profiles)
        searched = self.side.search is not None
        for u in self.units:
            if u.file != self.path or u.what not in RUNNING or (u.file, u.line) in self.ran or self._searched(u):
                continue
            where = f"{played} whole games" + (" nor in the generated games of the search" if searched else "")
            labels = ()
            earlier = self._earlier_handler(u)
            if earlier is not None:
                labels = (Label(earlier.span, f"{earlier.label} runs on the same arrival, before it", earlier.file),)
            self.found.append(codes.RULE_NEVER_RAN.diagnostic(
                f"{u.label} never ran in {where}", u.file, u.span, labels=labels,
                help="a rule no game runs changes nothing: check its trigger and condition (a handler runs after "
                     "the ones before it in the file, and not at all once one of them ends the turn)"))

    def _earlier_handler(self, u: Unit) -> Unit | None:
        """For a handler, an earlier one of the same header that ran (it runs first on the same arrival)."""
        if u.what != "handler":
            return None
        header = u.label
        for other in self.units:
            if other.what == "handler" and other.label == header and other is not u and \
                    (other.file, other.line) in self.ran and (other.file != u.file or other.line < u.line):
                return other
        return None

    def lost(self) -> None:
        """R1302: rules of the base that the base's games run and the variant's never do, one finding per
        change to blame."""
        base_games = len(self.base.profiles)
        groups: dict = {}  # the index of the change to blame (-1: none) -> [(unit, the base games that ran it)]
        for u in self.units:
            if u.file == self.path or u.what not in RUNNING + ("card",):
                continue
            ran = self.base_ran.get((u.file, u.line), [])
            if len(ran) < max(LOST_GAMES, LOST_SHARE * base_games) or (u.file, u.line) in self.ran or self._searched(u):
                continue
            change = blame(u.names, self.changes, self.common, u.triggers)
            groups.setdefault(self.changes.index(change) if change is not None else -1, []).append((u, ran))
        for index, lost in groups.items():
            change = self.changes[index] if index >= 0 else None
            first, ran = lost[0]
            if len(lost) == 1:
                did = "was taken" if first.what == "action" else "was drawn" if first.what == "card" else "ran"
                message = (f"{first.label} of the base {did} in {len(ran)} of the base's {base_games} games, and in "
                           "none of this variant's games on the same seeds")
            else:
                listed = ", ".join(f"{u.label} ({len(r)})" for u, r in lost[:LISTED])
                more = f", and {len(lost) - LISTED} more" if len(lost) > LISTED else ""
                message = (f"{len(lost)} rules of the base that its games ran no longer run in this variant's games on "
                           f"the same seeds: {listed}{more} (base games that ran each, of {base_games})")
            meant = f"`allow {codes.BASE_RULE_LOST.name}` on {'this line' if change is not None else 'the line'}"
            self._at(codes.BASE_RULE_LOST, message, change, [u for u, _ in lost], self.base, ran[0],
                     help=f"if the variant means to drop {'it' if len(lost) == 1 else 'them'}, say so with {meant} "
                          f"(or remove {'it' if len(lost) == 1 else 'them'}); otherwise this change keeps "
                          f"{'it' if len(lost) == 1 else 'them'} from running")

    def ends(self) -> None:
        """R1303: an end condition that ended no game (for a variant: which ended some of the base's)."""
        played = len(self.side.profiles)
        for u in self.units:
            if u.what != "end" or (u.file, u.line) in self.ran or self._searched(u):
                continue
            if self.base is not None and u.file != self.path:
                ran = self.base_ran.get((u.file, u.line), [])
                if len(ran) < max(LOST_GAMES, LOST_SHARE * len(self.base.profiles)):
                    continue
                message = (f"{u.label} ended {len(ran)} of the base's {len(self.base.profiles)} games, and none of "
                           f"this variant's on the same seeds")
                self._blamed(codes.END_NEVER_CAME, message, u, ran[0],
                             help="a game that cannot end this way ends only by its other ends or at the turn limit")
            else:
                self.found.append(codes.END_NEVER_CAME.diagnostic(
                    f"{u.label} ended none of the {played} whole games, nor a generated game", u.file, u.span,
                    help="check where its condition is tested: end conditions are tested after each turn, so a "
                         "value that is only set while a rule runs is back to what it was by then"))

    def decided_at_setup(self) -> bool:
        """R1304: every whole game, or most of them (several times the base's share), ended in its first round."""
        profiles = self.side.profiles
        early = [p for p in profiles if p.first_round and p.end_reason not in (None, "turn limit")]
        share = len(early) / len(profiles)
        if share < LIMIT_SHARE:
            return False
        if self.base is not None and share < 1.0:
            base_early = sum(p.first_round for p in self.base.profiles) / len(self.base.profiles)
            if share < SEVERAL_FOLD * base_early:
                return False
        reasons = [p.end_reason for p in early]
        reason = max(sorted(set(reasons)), key=reasons.count)
        where = next(p.end_where for p in early if p.end_reason == reason)
        end = next((u for u in self.units if u.what == "end" and u.key == reason), None) or next(
            (u for u in self.units if where is not None and u.file == where[0] and u.line <= where[1] <= u.last
             ), None)
        message = ((f"all {len(profiles)}" if share == 1.0 else f"{len(early)} of {len(profiles)}")
                   + " whole games ended in their first round"
                   + (f", by {end.label}" if end is not None and end.what == "end" else f" (\"{reason}\")")
                   + (": the game is decided before it is played" if share == 1.0 else
                      ": most games are decided before they are played"))
        if end is None:
            self.found.append(codes.DECIDED_AT_SETUP.diagnostic(message, self.path))
            return True
        self._blamed(codes.DECIDED_AT_SETUP, message, end, profiles.index(early[0]), on_side=True,
                     help="compare the end's condition with the values the game starts from (starting cash, "
                          "parameters): it holds before anyone has played")
        return True

    def stuck(self) -> list[str]:
        """R1306: in a good share of the games, a player spends most of his turns in one status."""
        found = []
        for status, decl in self.program.statuses.items():
            games = [i for i, p in enumerate(self.side.profiles) if p.stays.get(status, 0.0) >= STUCK_SHARE]
            share = len(games) / len(self.side.profiles)
            if share < STUCK_GAMES:
                continue
            base_share = None
            if self.base is not None and status in self.base.rules.program.statuses:
                base_games = [p for p in self.base.profiles if p.stays.get(status, 0.0) >= STUCK_SHARE]
                base_share = len(base_games) / len(self.base.profiles)
                if share < SEVERAL_FOLD * base_share:
                    continue
            elif self.base is None and share < LIMIT_SHARE:
                continue
            found.append(status)
            than = f" (in the base's games, {_percent(base_share)})" if base_share is not None else ""
            message = (f"in {len(games)} of {len(self.side.profiles)} whole games a player spends at least half of "
                       f"his turns in status `{status}`{than}: the way out of it rarely holds")
            unit = next((u for u in self.units if u.what == "phase" and u.line >= decl.span.line
                         and u.file == (decl.span.file or self.path)), None)
            target = unit or Unit("status", f"status `{status}`", decl.span.file or self.path, decl.span.line,
                                  decl.span.end_line, frozenset({status}), decl.span)
            self._blamed(codes.STUCK_IN_STATUS, message, target, games[0], on_side=True,
                         extra=frozenset({status}),
                         help="check the condition that releases a player: a counter that is never reset, or a "
                              "value that only grows, holds it only once")
        return found

    def turn_limit(self, stuck: list[str]) -> None:
        """R1305: most games stop at the turn limit (for a variant: several times as many as the base's)."""
        limited = [i for i, p in enumerate(self.side.profiles) if p.end_reason == "turn limit"]
        share = len(limited) / len(self.side.profiles)
        if share < LIMIT_SHARE:
            return
        than = ""
        if self.base is not None:
            base_share = sum(p.end_reason == "turn limit" for p in self.base.profiles) / len(self.base.profiles)
            if share < SEVERAL_FOLD * base_share:
                return
            than = f" (the base's: {_percent(base_share)})"
        message = (f"{len(limited)} of {len(self.side.profiles)} whole games stopped at the turn limit{than}: "
                   "the game rarely ends by its own rules")
        ends = [u for u in self.units if u.what == "end"]
        names = frozenset().union(*(u.names for u in ends), *(frozenset({s}) for s in stuck))
        target = ends[0] if ends else None
        if target is None:
            self.found.append(codes.GAMES_DO_NOT_END.diagnostic(message, self.path))
            return
        self._blamed(codes.GAMES_DO_NOT_END, message, target, limited[0], on_side=True, extra=names,
                     help="check the end conditions, and what keeps players from reaching them"
                          + (f" (players stuck in {', '.join(f'`{s}`' for s in stuck)})" if stuck else ""))

    def paid_twice(self) -> None:
        """R1307 (a variant) / R0410 (a game): two handlers both moved money on one arrival."""
        base_pairs = set().union(*(p.double_pays for p in self.base.profiles)) if self.base is not None else set()
        reported = set()
        for i, profile in enumerate(self.side.profiles):
            for first, second in sorted(profile.double_pays):
                if (first, second) in reported or (first, second) in base_pairs:
                    continue
                reported.add((first, second))
                a = next(u for u in self.units if (u.file, u.line) == first)
                b = next(u for u in self.units if (u.file, u.line) == second)
                later, earlier = (b, a) if (b.file == self.path) >= (a.file == self.path) else (a, b)
                code = codes.ARRIVAL_PAID_TWICE if self.base is not None else codes.HANDLERS_BOTH_PAY
                more = ", which the base's games never do" if self.base is not None else ""
                self.found.append(code.diagnostic(
                    f"this handler and the one at {os.path.basename(earlier.file)}:{earlier.line} both made the same "
                    f"payer pay the same payee on one arrival{more}: the player is charged twice", later.file,
                    later.span,
                    labels=(Label(earlier.span, "the other handler that paid on the same arrival", earlier.file),),
                    notes=(self._replay(self.side, i),),
                    help="a house rule keeps every handler of its base: to change a payment, `replace` the base's "
                         "handler (by its header or `as NAME`) rather than adding another beside it"))

    # ---- positions and replays -------------------------------------------------------------------
    def _blamed(self, code: codes.Code, message: str, unit: Unit, game: int, on_side: bool = False,
                extra: frozenset = frozenset(), help: str | None = None) -> None:
        """A finding about `unit`, at the variant's change to blame (with a note at `unit`), or at `unit`
        itself when nothing changed it; with a replay of game `game` (of the base's games unless `on_side`)."""
        change = blame(unit.names | extra, self.changes, self.common, unit.triggers) if self.changes else None
        side = self.side if on_side or self.base is None else self.base
        self._at(code, message, change, [unit], side, game, help=help)

    def _at(self, code: codes.Code, message: str, change: Change | None, about: list[Unit], side: Side, game: int,
            help: str | None = None) -> None:
        """A finding at `change` (or, with none, at the first unit it is `about`), with a note at each unit
        (a few) and the replay of game `game` of `side` (and, for a base's game, the variant's on its seed)."""
        notes = (self._replay(side, game),)
        if side is self.base:
            notes += (self._replay(self.side, game, "the same seed in this variant: "),)
        if change is None and self.changes and about[0].file != self.path:
            change = self.changes[0]  # a variant's finding is the variant's: at its first change, if none shares a name
        if change is None or (len(about) == 1 and about[0].file == self.path and about[0].span == change.span):
            unit = about[0]
            labels = tuple(Label(u.span, f"{u.label} is here", u.file) for u in about[1:LABELLED])
            self.found.append(code.diagnostic(message, unit.file, unit.span, labels=labels, notes=notes, help=help))
            return
        labels = tuple(Label(u.span, f"{u.label} is here", u.file) for u in about[:LABELLED])
        self.found.append(code.diagnostic(message, change.file, change.span, labels=labels, notes=notes, help=help))

    def _replay(self, side: Side, game: int, lead: str | None = None) -> str:
        profile = side.profiles[game]
        args = side.replay + ["--seed", str(profile.seed), "--players", str(profile.players)]
        lead = lead if lead is not None else ("replay a base game: " if side is self.base else "replay: ")
        return lead + "rulesc " + shlex.join(args)


def _ran(u: Unit, profile: GameProfile | None, coverage: Coverage, hits: set) -> bool:
    """Whether a game (its profile and coverage; or the search's coverage, with no profile) ran `u`."""
    if u.what == "card":
        return u.key in coverage.drawn
    if u.what == "action" and profile is not None and u.key in profile.actions:
        return True
    if u.what == "end":
        return (u.file, u.line) in hits or (profile is not None and profile.end_reason == u.key)
    return any((u.file, n) in hits for n in range(u.line, u.last + 1))


def _percent(share: float) -> str:
    return f"{share:.0%}"

