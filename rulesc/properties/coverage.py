"""Coverage: which rules, statement lines, squares, cards and phases the generated games exercised.

A check that holds says little about rules no game reached, so the report lists them.
`Coverage` records what every event touched, summed over all the games of a check;
`coverage_report` sets that against everything the rules declare, found with the one
AST walk (`rulesc.dsl.walk`).
"""

from __future__ import annotations

import re

import attrs

from rulesc.dsl import ast, walk
from rulesc.dsl.model import declared_handlers
from rulesc.interpreter.rules import Rules

from rulesc.interpreter.events import field_index
from rulesc.sources import RuleSources

# Payload fields coverage reads, by name (see interpreter/events.py FIELDS).
LAND_SQUARE, DRAW_DECK, DRAW_CARD = field_index("land", "square"), field_index("draw", "deck"), field_index("draw", "card")
PHASE_NAME = field_index("phase", "phase")


@attrs.define
class CoverageItem:
    """One line of the coverage report: what was declared of one sort, and what no game exercised."""

    what: str  # "rules", "statements", "squares", "cards", "phases"
    total: list  # labels of everything declared, in declaration order
    missed: list  # labels never exercised

    @property
    def exercised(self) -> int:
        return len(self.total) - len(self.missed)


class Coverage:
    """What the generated games exercised, summed over every game played."""

    def __init__(self):
        self.wheres: set = set()
        self.landed: set = set()
        self.drawn: set = set()
        self.phases: set = set()

    def merge(self, other: "Coverage") -> None:
        """Add what another game (played elsewhere) exercised."""
        self.wheres |= other.wheres
        self.landed |= other.landed
        self.drawn |= other.drawn
        self.phases |= other.phases

    def event(self, kind, where, payload) -> None:
        self.wheres.add(where)
        if kind == "land":
            self.landed.add(payload[LAND_SQUARE])
        elif kind == "draw":
            self.drawn.add((payload[DRAW_DECK], payload[DRAW_CARD]))
        elif kind == "phase":
            self.phases.add(payload[PHASE_NAME])


# Statements whose own line never carries an event: control flow and local names.
QUIET_STATEMENTS = (ast.If, ast.For, ast.Let, ast.EndTurn, ast.RaiseCash, ast.Pass)


def _statements(block, out: list) -> None:
    """The statements of a block that cause events of their own, nested blocks included."""
    out.extend(s for s in walk.statements(block) if not isinstance(s, QUIET_STATEMENTS))


def coverage_report(rules: Rules, cov: Coverage) -> list[CoverageItem]:
    """What the rules declare, set against what the games recorded in `cov` exercised."""
    p = rules.program
    sources = RuleSources.of(p)
    main = p.path
    hit_lines = {(rule.file, rule.line) for rule in cov.wheres if rule}

    def place(span) -> tuple[str, int]:
        """(the path of the file, the line): as a `RuleRef` names it."""
        return (getattr(span, "file", None) or main, span.line)

    def order(where: tuple[str, int]):  # the loaded file's first, then by file name and line
        return (where[0] != main, sources.name(where[0]), where)

    def label(span) -> str:
        file, line = place(span)
        text = sources.line(file, line).split("§")[0]
        text = re.split(r"\s{2,}assumed\b|\s+#", text)[0].strip().rstrip(":")
        return f"{sources.label(file, line)} {text}".rstrip()

    def ran(span) -> bool:
        file, line = place(span)
        last = span.last_line
        return any(f == file and line <= n <= last for f, n in hit_lines)

    # Rules: each declaration that can cause events; exercised if one of its lines did.
    decls = []  # (label, hit)
    blocks = []
    if p.setup is not None:
        decls.append((p.setup.span, None))
        blocks.append(p.setup.body)
    phase_decls = (*(p.turn.phases if p.turn is not None else ()),
                   *(phase for status in p.statuses.values() for phase in status.phases))  # a status's own turn
    for phase in phase_decls:
        decls.append((phase.span, None))
        blocks.append(phase.body)
    for h in p.hooks:
        decls.append((h.span, None))
        blocks.append(h.body)
    for h in declared_handlers(p):
        decls.append((h.span, None))
        blocks.append(h.body)
    for a in p.actions.values():
        decls.append((a.span, None))
        blocks.append(a.body)
    for procedure in p.procedures.values():
        decls.append((procedure.span, None))
        blocks.append(procedure.body)
    drawn_cards = {(deck, card) for deck, card in cov.drawn}
    for deck in p.decks.values():
        for card in deck.cards:
            decls.append((card.span, (deck.name, card.name)))
            blocks.append(card.body)
    if p.trade is not None:
        decls.append((p.trade.span, None))
    for e in p.ends:
        decls.append((e.span, None))
    decls.sort(key=lambda d: order(place(d[0])))
    rule_total, rule_missed = [], []
    for span, card in decls:
        hit = card in drawn_cards if card is not None else ran(span)
        rule_total.append(label(span))
        if not hit:
            rule_missed.append(label(span))

    statements: list = []
    for block in blocks:
        _statements(block, statements)
    statement_spans = sorted({place(s.span): s.span for s in statements}.items(), key=lambda kv: order(kv[0]))
    stmt_total = [label(span) for _, span in statement_spans]
    stmt_missed = [label(span) for where, span in statement_spans if where not in hit_lines]

    squares = list(dict.fromkeys(rules.board))
    square_missed = [s for s in squares if s not in cov.landed]

    cards = [(d.name, c.name) for d in p.decks.values() for c in d.cards]
    card_total = [f"{d}/{c}" for d, c in cards]
    card_missed = [f"{d}/{c}" for d, c in cards if (d, c) not in drawn_cards]

    phase_total, phase_missed = [], []
    for phase in phase_decls:
        phase_total.append(phase.name)
        if phase.name not in cov.phases and not ran(phase.span):
            phase_missed.append(phase.name)

    return [
        CoverageItem("rules", rule_total, rule_missed),
        CoverageItem("statements", stmt_total, stmt_missed),
        CoverageItem("squares", squares, square_missed),
        CoverageItem("cards", card_total, card_missed),
        CoverageItem("phases", phase_total, phase_missed),
    ]

