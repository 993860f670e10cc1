"""The turn flow of a game as a Graphviz picture, for a rulebook's docs.

`build_diagram(program)` turns a checked (or merely built) `Program` into a
`graphviz.Digraph`: the start of the game, the before-turn hooks, the phases in order
(with their `when` conditions and skip paths), the `on pass`/`on land` handlers that a
move triggers, the decks that handlers draw from, debt and elimination, the action
window, the after-turn hooks, the `end when` checks and the loop to the next player.

`write_diagram(program, output)` writes the DOT source for a `.dot` output, or renders it with
Graphviz's `dot` binary for `.svg`/`.png`/`.pdf`.

Everything shown comes from the rules file: conditions are the source text of their
spans, not a re-printing of the AST, and no game's names appear in this module. The
output is deterministic: node ids come from declaration order and names, never from
`id()` or hashing, so the same file gives byte-identical DOT.
"""

from __future__ import annotations

import html
import shutil
import textwrap
import warnings
from pathlib import Path

import graphviz

from rulesc.dsl import ast, walk
from rulesc.dsl.model import Program, declared_handlers

__all__ = ["DiagramError", "RENDER_FORMATS", "build_diagram", "write_diagram", "write_graph"]

RENDER_FORMATS = ("svg", "png", "pdf", "jpg", "jpeg", "gif", "ps", "eps")

LANDING_COLUMNS = 3  # the `on pass`/`on land` handlers are laid out in a grid this wide
CITE_WIDTH = 50  # a citation is shortened to about this many characters
WORDS_WIDTH = 130  # ... or this many, where it gives a rule's condition in words
COND_WIDTH = 46  # conditions wrap at about this width
FONT = "Helvetica"
CODE_FONT = "Courier"

# One colour per kind of node: (fill, border).
COLOURS = {
    "start": ("#34495e", "#2c3e50"),
    "hook": ("#e8daef", "#8e44ad"),
    "phase": ("#d6eaf8", "#2e86c1"),
    "land": ("#d5f5e3", "#229954"),
    "pass": ("#fcf3cf", "#b7950b"),
    "deck": ("#fdebd0", "#ca6f1e"),
    "debt": ("#fadbd8", "#c0392b"),
    "actions": ("#eaeded", "#5d6d7e"),
    "end": ("#fef9e7", "#b9770e"),
    "over": ("#922b21", "#641e16"),
}


class DiagramError(Exception):
    """The diagram could not be written or rendered; the message says why and what to do.

    `written` lists the files that were written before the failure (the DOT file, when
    only the rendering failed).
    """

    def __init__(self, message: str, written: list[str] | None = None):
        super().__init__(message)
        self.written = list(written or [])


# ---- reading the program ---------------------------------------------------------


def _program_of(obj) -> Program:
    """Accept a `Program` or the checker's result (`.program`): what was checked, never a file to
    build again."""
    if isinstance(obj, Program):
        return obj
    inner = getattr(obj, "program", None)
    if isinstance(inner, Program):
        return inner
    raise TypeError(f"build_diagram needs the checked Program (`check_program(...).program`), "
                    f"not {type(obj).__name__}")


# ---- text ------------------------------------------------------------------------


class _Text:
    """Slices a node's span out of the source of the file it is in (a variant's base too),
    whitespace collapsed."""

    def __init__(self, source: str, sources: dict | None = None):
        self.lines = source.splitlines()
        self.by_file = {path: text.splitlines() for path, text in (sources or {}).items()}

    def span(self, span) -> str:
        if span is None:
            return ""
        lines = self.by_file.get(span.file, self.lines)
        first, last = span.line - 1, span.end_line - 1
        if first < 0 or first >= len(lines):
            return ""
        if first == last:
            text = lines[first][span.column - 1:span.end_column - 1]
        else:
            parts = [lines[first][span.column - 1:]]
            parts.extend(lines[first + 1:last])
            if last < len(lines):
                parts.append(lines[last][:span.end_column - 1])
            text = "\n".join(parts)
        return " ".join(text.split())

    def of(self, node) -> str:
        return self.span(getattr(node, "span", None))

    def head(self, node) -> str:
        """A declaration or statement as written, or for one with a block (`if`, `card …:`) its first
        line; without the citation or assumption written after it."""
        span = node.span
        whole = self.span(span)
        lines = self.by_file.get(span.file, self.lines)
        if span.end_line > span.line and 0 < span.line <= len(lines):
            whole = lines[span.line - 1][span.column - 1:].strip()
        for mark in (" §", " assumed"):
            whole = whole.split(mark, 1)[0]
        return whole.strip()


def _shorten(text: str, width: int = CITE_WIDTH) -> str:
    text = " ".join(text.split())
    if len(text) <= width:
        return text
    cut = text[:width].rsplit(" ", 1)[0] if " " in text[:width] else text[:width]
    return cut.rstrip(" ,.;:") + "…"


def _wrap(text: str, width: int = COND_WIDTH) -> list[str]:
    return textwrap.wrap(text, width, break_long_words=False, break_on_hyphens=False) or [""]


def _esc(text: str) -> str:
    return html.escape(text, quote=False)


class _Label:
    """An HTML-like Graphviz label built line by line."""

    def __init__(self, left: bool = False):
        self.parts: list[str] = []
        self.titles: set[int] = set()
        self.left = left  # left-align every line but the titles (for lists)

    def title(self, text: str, colour: str | None = None) -> "_Label":
        body = f"<B>{_esc(text)}</B>"
        if colour:
            body = f'<FONT COLOR="{colour}">{body}</FONT>'
        self.titles.add(len(self.parts))
        self.parts.append(body)
        return self

    def line(self, text: str, size: int | None = None, colour: str | None = None) -> "_Label":
        body = _esc(text)
        attrs = []
        if size:
            attrs.append(f'POINT-SIZE="{size}"')
        if colour:
            attrs.append(f'COLOR="{colour}"')
        if attrs:
            body = f"<FONT {' '.join(attrs)}>{body}</FONT>"
        self.parts.append(body)
        return self

    def code(self, text: str, prefix: str = "", width: int = COND_WIDTH) -> "_Label":
        for i, piece in enumerate(_wrap(text, width)):
            lead = prefix if i == 0 else " " * len(prefix)
            self.parts.append(f'<FONT FACE="{CODE_FONT}" POINT-SIZE="10">{_esc(lead + piece)}</FONT>')
        return self

    def cite(self, meta: ast.Meta | None, words: bool = False) -> "_Label":
        """The citation (and assumption) of a rule; with `words`, the citation stands for the rule's
        condition, so more of it is shown, wrapped."""
        if meta is None:
            return self
        if meta.cite and words:
            for piece in _wrap("§ " + _shorten(meta.cite, WORDS_WIDTH), COND_WIDTH):
                self.parts.append(f'<FONT POINT-SIZE="9" COLOR="#555555"><I>{_esc(piece)}</I></FONT>')
        elif meta.cite:
            self.parts.append(f'<FONT POINT-SIZE="9" COLOR="#555555"><I>{_esc("§ " + _shorten(meta.cite))}</I></FONT>')
        if meta.assumed:
            note = "assumed" + (f": {_shorten(meta.assumed_note, CITE_WIDTH - 9)}" if meta.assumed_note else "")
            self.parts.append(f'<FONT POINT-SIZE="9" COLOR="#a04000"><I>{_esc(note)}</I></FONT>')
        return self

    def __str__(self) -> str:
        if not self.left:
            return "<" + "<BR/>".join(self.parts) + ">"
        out = []
        for i, part in enumerate(self.parts):
            out.append(part + ("<BR/>" if i in self.titles else '<BR ALIGN="LEFT"/>'))
        return "<" + "".join(out) + ">"


def _edge_label(text: str) -> str:
    return "<" + "<BR/>".join(f'<FONT POINT-SIZE="9">{_esc(t)}</FONT>' for t in _wrap(text, 32)) + ">"


# ---- the diagram -----------------------------------------------------------------


def _style(kind: str, **extra) -> dict:
    fill, border = COLOURS[kind]
    style = {"fillcolor": fill, "color": border}
    if kind in ("start", "over"):
        style["fontcolor"] = "white"
    style.update(extra)
    return style


class _Builder:
    def __init__(self, program: Program):
        self.p = program
        self.text = _Text(program.source or "", getattr(program, "sources", None))
        title = program.game.title if program.game is not None else "rules"
        self.g = graphviz.Digraph(name="turn_flow", comment=f"turn flow of {title}")
        self.g.attr(rankdir="TB", compound="true", newrank="true", nodesep="0.4", ranksep="0.45",
                    fontname=FONT, fontsize="16", labelloc="t", label=f"<<B>{_esc(title)}</B>: turn flow>")
        self.g.attr("node", shape="box", style="rounded,filled", fontname=FONT, fontsize="11", margin="0.15,0.06")
        self.g.attr("edge", fontname=FONT, fontsize="9", color="#566573", arrowsize="0.7")
        self.game_over: dict[str, str] = {}  # reason -> node id
        self.edges_seen: set = set()
        self.deck_ids: dict[str, str] = {}  # deck name -> node id
        self.deck_effects: set[str] = set()  # decks whose cards' effects are drawn (someone draws from them)
        self.movers: list[str] = []  # nodes whose rules move the man
        self.card_movers: list[tuple[str, int]] = []  # (deck node, how many of its cards move the man)
        self.deck_payers: list[str] = []  # decks with a card that makes the player pay
        self.landing_payers: list[str] = []  # landing handlers that make the player pay
        self.landing_anchor: str | None = None
        self.rows_below: dict[str, int] = {}  # landing handler -> rows of the grid from it to the bottom
        self.putters: list[tuple[str, str]] = []  # (node, status) for each node whose rules put a player in a status
        self.releasers: list[str] = []  # status phases that release the player: the ordinary phases follow

    # -- helpers
    def statements(self, block):
        """Every statement a block runs, nested ones and the bodies of the procedures it calls included."""
        return walk.statements(block, procedures=self.p.procedures)

    def has(self, block, cls) -> bool:
        return any(isinstance(s, cls) for s in self.statements(block))

    def of_kind(self, block, cls) -> list:
        return [s for s in self.statements(block) if isinstance(s, cls)]

    def pays_from_player(self, block) -> bool:
        """Whether a block makes someone other than the bank pay (so it can open a debt)."""
        return any(isinstance(s, ast.Pay) and not (isinstance(s.source, ast.Name) and s.source.id == "bank")
                   for s in self.statements(block))

    def edge(self, a: str, b: str, label: str | None = None, **attrs) -> None:
        key = (a, b, label, tuple(sorted(attrs.items())))
        if key in self.edges_seen:
            return
        self.edges_seen.add(key)
        if label:
            attrs["label"] = _edge_label(label)
        self.g.edge(a, b, **attrs)

    def cond(self, node) -> str:
        return self.text.of(node)

    def rule_text(self, label: _Label, when, meta: ast.Meta | None, prefix: str = "when ",
                  name: str | None = None) -> None:
        """A rule's condition and its citation. Where the citation gives the condition in words, the
        rulebook's words stand for it; where only a name (`as NAME`) does, the name; else the code as
        written. (The code is on the rule's line of the file, which the citations table names.)"""
        cited = meta is not None and bool(meta.cite)
        if when is not None and not cited:
            if name:
                label.line(f"{prefix}{name.replace('_', ' ')}", size=10)
            else:
                label.code(self.cond(when), prefix)
        label.cite(meta, words=when is not None)

    def over_node(self, reason: str, winner_text: str | None = None) -> str:
        if reason in self.game_over:
            return self.game_over[reason]
        nid = f"game_over_{len(self.game_over) + 1}"
        label = _Label().title("game over").line(f"({reason})")
        if winner_text:
            label.line(f"winner: {winner_text}", size=9)
        self.g.node(nid, str(label), shape="doubleoctagon", **_style("over"))
        self.game_over[reason] = nid
        return nid

    # -- the parts
    def build(self) -> graphviz.Digraph:
        p = self.p
        start = self.start_node()
        chain_nodes, skippable = self.turn_chain()
        setup = self.setup_node()
        if setup is not None:
            self.g.edge(start, setup, color=COLOURS["start"][1], penwidth="1.5")
            self.g.edge(setup, "next_turn", color=COLOURS["start"][1], penwidth="1.5")
        else:
            self.g.edge(start, "next_turn", color=COLOURS["start"][1], penwidth="1.5")

        # The main chain: next_turn -> hooks -> phases -> hooks -> action window -> end checks.
        after_turn = self.after_turn_nodes()
        afters = [h for h in p.hooks if h.which == "after"]
        for nid, hook in zip(after_turn, afters):
            if hook.when is not None:
                skippable[nid] = "condition false"
        window = self.action_window()
        _checks, first_check = self.end_checks()

        chain = ["next_turn"] + chain_nodes + after_turn + ([window] if window else []) + [first_check]
        end_of_turn = chain[chain.index(chain_nodes[-1]) + 1] if chain_nodes else first_check
        # The rest of the turn comes after the landing: keep it below the grid of handlers (a rank
        # more than the grid's rows, so that no row of the grid shares a rank with a tall node).
        grid_rows = -(-sum(1 for h in declared_handlers(p) if h.event in ("land", "pass")) // LANDING_COLUMNS)
        for a, b in zip(chain, chain[1:]):
            extra = {"minlen": str(grid_rows + 2)} if b == end_of_turn and grid_rows > 1 and self.movers else {}
            self.g.edge(a, b, penwidth="1.5", color="#2c3e50", weight="10", **extra)
        for i, nid in enumerate(chain):
            reason = skippable.get(nid)
            if reason and i + 1 < len(chain):
                self.edge(chain[i - 1], chain[i + 1], f"skip ({reason})", style="dashed", color="#7f8c8d")
        status_firsts = self.status_turns(chain_nodes, end_of_turn)  # before the landing: its phases move too
        self.landing()
        self.debt_and_elimination(first_check)
        for nid, status in self.putters:
            if status in status_firsts:
                self.edge(nid, status_firsts[status], f"put in {status}", style="dashed", color=COLOURS["hook"][1])
        return self.g

    def start_node(self) -> str:
        p = self.p
        label = _Label().title("start")
        setting = p.settings.get("players")
        if setting is not None:
            label.line(f"players: {self.setting_text(setting)}", size=10)
        setting = p.settings.get("start")
        if setting is not None:
            label.line(f"everyone on {self.setting_text(setting)}", size=10)
        setting = p.settings.get("first player")
        if setting is not None:
            label.line(f"first player: {self.setting_text(setting)}", size=10)
        hidden = [f.name for f in p.player_fields.values() if f.hidden]
        if hidden:
            label.line(f"kept hidden from the others: {', '.join(hidden)}", size=10)
        for supply in p.supplies.values():
            label.line(f"the bank's supply: {supply.name}, {self.cond(supply.size)} on {supply.kind}.{supply.field}", size=10)
        accounts = [f.name for f in p.player_fields.values() if f.type.name == "account" and not f.type.is_list]
        if accounts:
            label.line(f"each player's account: {', '.join(accounts)}", size=10)
        self.g.node("start", str(label), shape="oval", **_style("start"))
        self.g.node("next_turn", "<<B>next player's turn</B>>", shape="oval",
                    **_style("start", fillcolor="#5d6d7e"))
        return "start"

    def setup_node(self) -> str | None:
        """The `setup:` block, run once between choosing the first player and the first turn."""
        setup = self.p.setup
        if setup is None:
            return None
        label = _Label().title("setup").line("once, before the first turn", size=9)
        for stmt in setup.body.statements:
            label.code(_shorten(self.cond(stmt), COND_WIDTH))
        label.cite(setup.body.meta)
        self.g.node("setup", str(label), **_style("hook"))
        self.record_body("setup", setup.body)
        return "setup"

    def setting_text(self, setting: ast.Setting) -> str:
        if isinstance(setting.value, tuple):
            return " ".join(str(w) for w in setting.value)
        text = self.cond(setting.value)
        if setting.upper is not None:
            text += " to " + self.cond(setting.upper)
        return text

    def hook_node(self, hook: ast.Hook, index: int) -> str:
        nid = f"hook_{hook.which}_{index}"
        label = _Label().title(f"{hook.which} turn")
        self.rule_text(label, hook.when, hook.body.meta, name=hook.name)
        self.notes(label, hook.body)
        self.g.node(nid, str(label), **_style("hook"))
        self.record_body(nid, hook.body)
        return nid

    def turn_chain(self) -> tuple[list[str], dict[str, str]]:
        """Before-turn hooks and the phases, in order; which of them can be skipped and why."""
        nodes: list[str] = []
        skippable: dict[str, str] = {}
        befores = [h for h in self.p.hooks if h.which == "before"]
        for i, hook in enumerate(befores, 1):
            nid = self.hook_node(hook, i)
            nodes.append(nid)
            if hook.when is not None:
                skippable[nid] = "condition false"
        phases = self.p.turn.phases if self.p.turn is not None else ()
        with self.g.subgraph(name="cluster_turn") as sub:
            sub.attr(label="<<B>the turn</B>>", style="rounded,dashed", color="#aab7b8", fontname=FONT,
                     fontsize="11", labeljust="l")
            for i, phase in enumerate(phases, 1):
                nid = f"phase_{i}_{phase.name}"
                self.phase_node(sub, nid, f"phase {i}: {phase.name}", phase, "phase")
                nodes.append(nid)
                reasons = []
                if phase.when is not None:
                    reasons.append("condition false")
                if phase.optional:
                    reasons.append("player declines")
                if reasons:
                    skippable[nid] = " or ".join(reasons)
                self.record_body(nid, phase.body)
                self.rolls_again(nid, phase.body)
        return nodes, skippable

    def phase_node(self, sub, nid: str, heading: str, phase, colour: str) -> None:
        """One phase's box, of the ordinary turn or of a status's own turn: its title, condition, whether
        it may be skipped, a window restricted to named actions, and the notes of its body."""
        label = _Label().title(heading)
        if phase.title:
            label.line(phase.title)
        self.rule_text(label, phase.when, phase.body.meta, name=None)
        if phase.optional:
            label.line("optional: the player may skip it", size=9)
        for window in self.of_kind(phase.body, ast.Window):
            if window.only:  # a window restricted to named actions (an open one is the usual)
                label.line("window: only " + ", ".join(n.id for n in window.only), size=9)
        self.notes(label, phase.body)
        extra = {"style": "rounded,filled,dashed"} if phase.optional else {}
        sub.node(nid, str(label), **_style(colour, **extra))

    def rolls_again(self, nid: str, body) -> None:
        """A `roll … again on doubles` in a block: a loop back onto its node, and what too many doubles do."""
        for again in self.of_kind(body, ast.RollAgain):
            self.edge(nid, nid, f"doubles: roll again (at most {again.limit} rolls)", color=COLOURS["phase"][1],
                      style="bold", dir="forward")
            if again.too_many is not None:
                label = _Label().title(f"doubles {again.limit} times in a row")
                for stmt in again.too_many.statements:
                    label.code(_shorten(self.cond(stmt), COND_WIDTH))
                label.cite(again.too_many.meta)
                too_many = f"{nid}_too_many"
                self.g.node(too_many, str(label), **_style("hook"))
                self.edge(nid, too_many, "too many doubles", style="dashed", color=COLOURS["phase"][1])
                self.record_body(too_many, again.too_many)

    def status_turns(self, chain_nodes: list[str], end_of_turn: str) -> dict[str, str]:
        """Each status's own turn, a cluster of its phases beside the ordinary ones: entered from the
        next turn when the player is in it, left for the end of the turn, or for the ordinary phases when
        a phase releases him. Returns each status's first phase node."""
        firsts = {}
        phase_ids = [n for n in chain_nodes if n.startswith("phase_")]
        for s_index, status in enumerate(self.p.statuses.values(), 1):
            nodes = []
            with self.g.subgraph(name=f"cluster_status_{s_index}") as sub:
                title = status.title or status.name
                sub.attr(label=f"<<B>the turn {_esc(title.lower() if title[0].isupper() and title[1:2].islower() else title)}</B>>",
                         style="rounded,dashed", color=COLOURS["hook"][1], fontname=FONT, fontsize="11", labeljust="l")
                for i, phase in enumerate(status.phases, 1):
                    nid = f"status_{s_index}_{i}_{phase.name}"
                    self.phase_node(sub, nid, f"{status.name} {i}: {phase.name}", phase, "hook")
                    nodes.append(nid)
                    self.record_body(nid, phase.body)
                    self.rolls_again(nid, phase.body)
                    if self.releases_to_ordinary(phase.body) and phase_ids:
                        self.edge(nid, phase_ids[0], "released: the ordinary phases follow", style="dashed",
                                  color=COLOURS["hook"][1])
            if not nodes:
                continue
            where = f" at {status.at}" if status.at else ""
            self.edge("next_turn", nodes[0], f"in {status.name}{where}: its own turn", style="bold",
                      color=COLOURS["hook"][1])
            for a, b in zip(nodes, nodes[1:]):
                self.edge(a, b, color=COLOURS["hook"][1])
            self.edge(nodes[-1], end_of_turn, color=COLOURS["hook"][1])
            firsts[status.name] = nodes[0]
        return firsts

    def releases_to_ordinary(self, body) -> bool:
        """Whether a status phase may `release` the player and let the turn go on (no `end turn` after
        the release in its block): then the ordinary phases follow."""
        for block in walk.walk(body):
            if isinstance(block, ast.Block):
                stmts = block.statements
                for i, stmt in enumerate(stmts):
                    if isinstance(stmt, ast.Release) and not any(isinstance(s, ast.EndTurn) for s in stmts[i + 1:]):
                        return True
        return False

    def notes(self, label: _Label, body) -> None:
        """What a block does that its node says in words rather than with an edge across the picture:
        it ends the turn early, or it lets a debtor raise cash in the action window."""
        if self.has(body, ast.EndTurn):
            label.line("⇥ may end the turn here", size=9, colour="#7f8c8d")
        if self.has(body, ast.RaiseCash) and (self.p.actions or self.p.trade is not None):
            label.line("the debtor may first raise cash in the action window", size=9, colour="#5d6d7e")

    def record_body(self, nid: str, body) -> None:
        """Note what a block does that the picture shows as edges: moves and draws."""
        if self.has(body, ast.Move):
            self.movers.append(nid)
        too_many = {id(s) for again in self.of_kind(body, ast.RollAgain) if again.too_many is not None
                    for s in self.statements(again.too_many)}  # drawn from the `too many doubles` node
        for put in self.of_kind(body, ast.Put):
            if id(put) not in too_many:
                self.putters.append((nid, put.status))
        self.draws(nid, body)
        for stmt in self.of_kind(body, ast.EndGame):
            self.edge(nid, self.over_node(stmt.reason, self.cond(stmt.winner)), "end game",
                      color=COLOURS["over"][0], style="dashed")

    def after_turn_nodes(self) -> list[str]:
        afters = [h for h in self.p.hooks if h.which == "after"]
        return [self.hook_node(h, i) for i, h in enumerate(afters, 1)]

    def action_window(self) -> str | None:
        p = self.p
        if not p.actions and p.trade is None:
            return None
        label = _Label(left=True).title("action window")
        label.line("each player in turn may act", size=9)
        for name in p.actions:  # declaration order
            action = p.actions[name]
            head = name + (f"({action.param.name}: {' or '.join(action.param.kinds)})" if action.param else "")
            if action.amount is not None:  # an amount the player chooses: its step, the range is in the file
                head = f"{name}({action.param.name}: {action.param.kind} in steps of {self.cond(action.amount.step)})"
            limit = ""
            if action.limit_expr is not None:
                limit = f", ({self.cond(action.limit_expr)}) per {action.per}"
            elif action.limit is not None:
                limit = f", {'once' if action.limit == 1 else action.limit} per {action.per}"
            timing = action.timing + (f" {action.relation} {action.phase}" if action.phase is not None else "")
            label.line(f"• {head}, {timing}{limit}")
            if action.when is not None and not action.body.meta.cite:
                label.code(self.cond(action.when), "  when ")
            label.cite(action.body.meta)
        if p.trade is not None:
            trade = p.trade
            what = ", ".join([k.id for k in trade.kinds] + (["cards"] if trade.cards else [])) \
                + (" with cash" if trade.with_cash else "")
            label.line(f"• trade {what}")
            if trade.when is not None and not trade.meta.cite:
                label.code(self.cond(trade.when), "  when ")
            label.cite(trade.meta)
        self.g.node("action_window", str(label), **_style("actions"))
        for action in p.actions.values():
            self.draws("action_window", action.body)
            if self.has(action.body, ast.Move):
                self.movers.append("action_window")
        self.trade_handlers()
        return "action_window"

    def trade_handlers(self) -> None:
        """`on trade` handlers: a node each, reached from the action window when a trade completes."""
        for i, handler in enumerate((h for h in declared_handlers(self.p) if h.event == "trade"), 1):
            nid = f"trade_{i}"
            label = _Label().title("on trade" + (f" {handler.header_target} {handler.var}" if handler.target else ""))
            label.line("each thing of it that changes hands" if handler.target else "a trade completes", size=9)
            self.rule_text(label, handler.when, handler.body.meta, name=handler.name)
            self.notes(label, handler.body)
            self.g.node(nid, str(label), **_style("actions"))
            self.edge("action_window", nid, "a trade completes", style="dashed", color=COLOURS["actions"][1])
            self.record_body(nid, handler.body)

    def end_checks(self) -> tuple[dict, str]:
        """One diamond per `end when` (and the turn limit), chained; the last loops to the next turn."""
        p = self.p
        checks = []
        outcomes = []
        for i, end in enumerate(p.ends, 1):
            nid = f"end_{i}"
            # The condition in words: the reason the file gives it (`as "…"`), the code beside it.
            label = _Label().title("end of the game?")
            for piece in _wrap(end.reason + "?", 24):
                label.line(piece, size=10)
            self.g.node(nid, str(label), shape="diamond", margin="0.05",
                        **_style("end", style="filled"))
            checks.append(nid)
            outcomes.append((nid, end.reason, self.cond(end.winner)))
        limit = p.settings.get("turn limit")
        if limit is not None:
            nid = "end_turn_limit"
            label = _Label().title("turn limit").line(f"reached ({self.setting_text(limit)} turns)?", size=10)
            self.g.node(nid, str(label), shape="diamond", margin="0.05",
                        **_style("end", style="filled"))
            checks.append(nid)
            outcomes.append((nid, "turn limit", None))
        if not checks:
            nid = "end_none"
            self.g.node(nid, "<<B>no end condition</B>>", shape="diamond", **_style("end", style="filled"))
            checks.append(nid)
        # The "no" path first, so that dot keeps it (and the loop back) on the left.
        for a, b in zip(checks, checks[1:]):
            self.edge(a, b, "no", penwidth="1.5", color="#2c3e50", weight="10")
        for nid, reason, winner in outcomes:
            self.edge(nid, self.over_node(reason, winner), "yes", color=COLOURS["over"][1], penwidth="1.5")
        # The turn goes round: a second "next player's turn" at the foot stands for the one at the top,
        # rather than an edge back up across the whole picture.
        self.g.node("next_turn_again", "<<B>next player's turn</B><BR/><FONT POINT-SIZE=\"9\">(back to the top)</FONT>>",
                    shape="oval", **_style("start", fillcolor="#5d6d7e"))
        self.edge(checks[-1], "next_turn_again", "no", penwidth="1.5", color="#2c3e50", weight="10")
        return checks, checks[0]

    def landing(self) -> None:
        """The `on pass` / `on land` handlers a move triggers, in a cluster."""
        p = self.p
        moves = [h for h in declared_handlers(p) if h.event in ("land", "pass")]
        if not moves:
            return
        ids = []
        payers = []
        with self.g.subgraph(name="cluster_landing") as sub:
            sub.attr(label="<<B>on landing</B>>", style="rounded,filled", fillcolor="#f4fbf6", color="#229954",
                     fontname=FONT, fontsize="12", labeljust="l")
            counters = {"land": 0, "pass": 0}
            # Passing happens on the way, before landing: list `on pass` first.
            for handler in sorted(moves, key=lambda h: 0 if h.event == "pass" else 1):
                counters[handler.event] += 1
                nid = f"{handler.event}_{counters[handler.event]}"
                target = handler.header_target or "any square"
                label = _Label().title(f"on {handler.event} {target}" + (f" {handler.var}" if handler.var else ""))
                square = p.squares.get(handler.target) if handler.target else None
                if square is not None and square.title and square.title != handler.target:
                    label.line(f"square “{square.title}”", size=9)
                elif handler.target in p.kinds:
                    label.line("any " + " or ".join(handler.kinds or (handler.target,)), size=9)
                if square is not None and square.stop:
                    label.line("every move stops here", size=9)
                if handler.name and (handler.when is None or handler.body.meta.cite):
                    label.line(handler.name.replace("_", " "), size=10)
                self.rule_text(label, handler.when, handler.body.meta, name=handler.name)
                for text in self.auction_lines(handler.body):
                    label.line(text, size=9)
                self.notes(label, handler.body)
                sub.node(nid, str(label), **_style(handler.event))
                ids.append(nid)
                if self.pays_from_player(handler.body):
                    payers.append(nid)
            # Lay the handlers out as a grid, in source order, rather than one very wide row.
            # An invisible entry point fans out to the first row in order (`ordering=out` keeps
            # that order left to right); each column then hangs below its first node.
            per_row = LANDING_COLUMNS
            rows = [ids[i:i + per_row] for i in range(0, len(ids), per_row)]
            sub.node("landing_entry", "", shape="point", style="invis", width="0", height="0", ordering="out")
            for nid in rows[0]:
                sub.edge("landing_entry", nid, style="invis")
            for upper, lower in zip(rows, rows[1:]):
                for a, b in zip(upper, lower):
                    sub.edge(a, b, style="invis")
            # Decks and debt go below the grid, not between its rows.
            self.rows_below = {nid: len(rows) - r for r, row in enumerate(rows) for nid in row}
        for nid, handler in zip(ids, sorted(moves, key=lambda h: 0 if h.event == "pass" else 1)):
            self.record_body(nid, handler.body)
        anchor = "landing_entry"
        for mover in dict.fromkeys(self.movers):
            if mover in ids:  # a handler that moves the man again: its move lands him anew
                self.edge(mover, mover, "moves again", color=COLOURS["land"][1])
                continue
            self.edge(mover, anchor, "moves the man: passes, then lands", lhead="cluster_landing",
                      color=COLOURS["land"][1], penwidth="1.5")
        self.landing_payers = payers
        self.landing_anchor = anchor

    def auction_lines(self, body) -> list[str]:
        """A line for each round-robin auction (`in turn after`, `passes N`, `bluffing`) in a body."""
        lines = []
        for a in self.of_kind(body, ast.Auction):
            if a.after is None and a.passes == 1 and not a.bluffing:
                continue  # the open auction: nothing to add
            text = "auction in seat order" if a.after is not None else "auction"
            text += f", out at pass {a.passes}"
            if a.bluffing:
                text += f"; bluffs allowed up to {self.p.text_at(a.limit.span)}" + (", a bluffer is fined and it runs again" if a.bluff else "")
            lines.append(text)
        return lines

    def draws(self, nid: str, body) -> None:
        below = self.rows_below.get(nid)
        extra = {"minlen": str(below)} if below and below > 1 else {}
        for stmt in self.statements(body):
            if isinstance(stmt, (ast.Draw, ast.DrawAs, ast.Discard)):
                verb = "discard" if isinstance(stmt, ast.Discard) else "draw"
                deck_id = self.deck_node(stmt.deck, effects=verb == "draw")
                # Weighted, so that dot keeps a deck close under the rule that draws from it.
                self.edge(nid, deck_id, f"{verb} from {stmt.deck}", color=COLOURS["deck"][1], weight="4", **extra)

    def deck_node(self, name: str, effects: bool = True) -> str:
        """The deck's node; with `effects`, its cards' effects too (what they move, pay, end), which a
        deck that is only discarded from (`discard from`) never runs."""
        nid = f"deck_{name}"
        if name not in self.deck_ids:
            self.deck_ids[name] = nid
            deck = self.p.decks.get(name)
            # Collapsed to its counts: the cards are on a picture of their own (`--deck NAME`).
            label = _Label().title(f"deck {name}")
            if deck is None:
                label.line("(not declared)", size=9)
            else:
                total = sum(c.copies for c in deck.cards)
                kinds = len(deck.cards)
                if deck.of is not None:
                    label.line(f"the {sum(1 for t in self.p.things.values() if t.kind == deck.of)} {deck.of} things, "
                               f"{deck.policy}", size=10)
                else:
                    label.line(f"{total} card{'' if total == 1 else 's'}" + (f" of {kinds} kinds" if kinds != total else "")
                               + f", {deck.policy}" + ("" if effects else ", discarded unread"), size=10)
                if effects and deck.of is None:
                    kept = sum(1 for c in deck.cards if c.keep)
                    if kept:
                        label.line(f"{kept} may be kept for later", size=9)
                    if any(c.lasting for c in deck.cards):
                        label.line("a lasting card is in force until the next draw", size=9)
                    if any(self.has(c.body, ast.EndTurn) for c in deck.cards):
                        label.line("⇥ a card may end the turn", size=9, colour="#7f8c8d")
                    label.line(f"its cards: rulesc diagram --deck {name}", size=9, colour="#5d6d7e")
                label.cite(deck.meta)
            self.g.node(nid, str(label), shape="note", **_style("deck", style="filled"))
        if effects and name not in self.deck_effects and name in self.p.decks:
            self.deck_effects.add(name)
            self.card_effects(nid, self.p.decks[name])
        return nid

    def card_effects(self, nid: str, deck) -> None:
        moving = [c for c in deck.cards if self.has(c.body, ast.Move)]
        for card in deck.cards:
            for stmt in self.of_kind(card.body, ast.EndGame):
                self.edge(nid, self.over_node(stmt.reason, self.cond(stmt.winner)), "end game",
                          color=COLOURS["over"][0], style="dashed")
            for stmt in [*self.of_kind(card.body, ast.Draw), *self.of_kind(card.body, ast.DrawAs)]:
                if stmt.deck != deck.name:
                    self.edge(nid, self.deck_node(stmt.deck), f"draw from {stmt.deck}", color=COLOURS["deck"][1])
        if moving:
            self.card_movers.append((nid, len(moving)))
        if any(self.pays_from_player(c.body) for c in deck.cards):
            self.deck_payers.append(nid)

    def debt_and_elimination(self, first_check: str) -> None:
        p = self.p
        anchor = self.landing_anchor
        for nid, count in self.card_movers:
            if anchor is not None:
                what = "a card moves the man" if count == 1 else f"{count} cards move the man"
                # Drawn from the cluster down to the deck, arrow reversed: dot routes it far more tidily.
                self.edge(anchor, nid, what, ltail="cluster_landing", style="dashed", color=COLOURS["land"][1],
                          dir="back", arrowtail="normal")
        debts = [h for h in declared_handlers(p) if h.event == "debt"]
        elims = [h for h in declared_handlers(p) if h.event == "eliminate"]
        debt_ids = []
        for i, handler in enumerate(debts, 1):
            nid = f"debt_{i}"
            label = _Label().title("on debt").line("a payment is larger than cash", size=9)
            self.rule_text(label, handler.when, handler.body.meta, name=handler.name)
            self.notes(label, handler.body)
            self.g.node(nid, str(label), **_style("debt"))
            if debt_ids:
                self.edge(debt_ids[-1], nid, "then")
            debt_ids.append(nid)
        if debt_ids:
            target = debt_ids[0]
            if self.landing_payers:
                self.edge(self.landing_payers[0], target, "cannot pay", ltail="cluster_landing",
                          style="dashed", color=COLOURS["debt"][1])
            for nid in self.deck_payers:
                self.edge(nid, target, "cannot pay", style="dashed", color=COLOURS["debt"][1])
        elim_ids = []
        for i, handler in enumerate(elims, 1):
            nid = f"eliminate_{i}"
            label = _Label().title("on eliminate")
            self.rule_text(label, handler.when, handler.body.meta, name=handler.name)
            self.notes(label, handler.body)
            self.g.node(nid, str(label), **_style("debt"))
            if elim_ids:
                self.edge(elim_ids[-1], nid, "then")
            elim_ids.append(nid)
        # Who eliminates: every block with an `eliminate` statement.
        eliminators = []
        for nid, handler in zip(debt_ids, debts):
            if self.has(handler.body, ast.Eliminate):
                eliminators.append(nid)
            self.record_body(nid, handler.body)
        for nid, handler in zip(elim_ids, elims):
            self.record_body(nid, handler.body)
        for src in self.other_eliminators():
            eliminators.append(src)
        if eliminators and not elim_ids:
            self.g.node("eliminate_1", "<<B>player eliminated</B>>", **_style("debt"))
            elim_ids.append("eliminate_1")
        for src in eliminators:
            self.edge(src, elim_ids[0], "eliminate", color=COLOURS["debt"][1], penwidth="1.5")
        if elim_ids:
            self.edge(elim_ids[-1], first_check, "check the end", color=COLOURS["debt"][1], style="dashed")

    def other_eliminators(self) -> list[str]:
        """Phases, hooks, landing handlers and decks that eliminate a player directly."""
        found = []
        phases = self.p.turn.phases if self.p.turn is not None else ()
        for i, phase in enumerate(phases, 1):
            if self.has(phase.body, ast.Eliminate):
                found.append(f"phase_{i}_{phase.name}")
        for which in ("before", "after"):
            hooks = [h for h in self.p.hooks if h.which == which]
            for i, hook in enumerate(hooks, 1):
                if self.has(hook.body, ast.Eliminate):
                    found.append(f"hook_{which}_{i}")
        counters = {"land": 0, "pass": 0}
        for handler in sorted((h for h in declared_handlers(self.p) if h.event in ("land", "pass")),
                              key=lambda h: 0 if h.event == "pass" else 1):
            counters[handler.event] += 1
            if self.has(handler.body, ast.Eliminate):
                found.append(f"{handler.event}_{counters[handler.event]}")
        for name, nid in self.deck_ids.items():
            deck = self.p.decks.get(name)
            if deck is not None and any(self.has(c.body, ast.Eliminate) for c in deck.cards):
                found.append(nid)
        return found


def build_diagram(program) -> graphviz.Digraph:
    """The turn flow of a program as a `graphviz.Digraph` (deterministic: same rules, same DOT)."""
    return _Builder(_program_of(program)).build()


# ---- writing and rendering -------------------------------------------------------


DOT_HINT = ("Graphviz's `dot` program, which renders it, is not installed: on Debian or Ubuntu, "
            "`apt-get install graphviz` (the `graphviz` package provides `dot`)")


def write_diagram(program, output: str, fmt: str | None = None) -> list[str]:
    """Write the turn flow's DOT source, and render it when the output (or `fmt`) asks for an image
    (see `write_graph`)."""
    return write_graph(build_diagram(program), output, fmt)


def write_graph(graph: graphviz.Digraph, output: str, fmt: str | None = None) -> list[str]:
    """Write a picture to `output`: its DOT source for `.dot`, else rendered with Graphviz's `dot`.

    Only what was asked for is written: `-o turn.svg` writes turn.svg and nothing beside it;
    `-o turn.dot --format svg` writes both (the DOT, and the SVG next to it). Where `dot` is
    missing or fails, the DOT source is written in the image's place as `<stem>.dot`, so the work
    is not lost, and a `DiagramError` says so and how to get `dot`. Returns the files written.
    """
    out = Path(output)
    suffix = out.suffix.lower().lstrip(".")
    if fmt is not None:
        fmt = fmt.lower().lstrip(".")
        if fmt != "dot" and fmt not in RENDER_FORMATS:
            raise DiagramError(f"unknown diagram format `{fmt}`; use dot, " + ", ".join(RENDER_FORMATS))
    if fmt is not None and suffix != fmt and (suffix in RENDER_FORMATS or (suffix == "dot" and fmt == "dot")):
        raise DiagramError(f"`{output}` names a .{suffix} file, but --format asks for {fmt}; "
                           f"name a .{fmt} file, or leave out --format")
    if suffix != "dot" and fmt is None and suffix not in RENDER_FORMATS:
        raise DiagramError(f"cannot tell the diagram format from `{output}`; name a .dot, "
                           + ", ".join(f".{f}" for f in RENDER_FORMATS) + " file")
    written = []
    if suffix == "dot" or fmt == "dot":
        dot_path = out if suffix == "dot" else out.with_suffix(".dot")
        _write_dot(graph, dot_path)
        written.append(str(dot_path))
        if fmt is None or fmt == "dot":
            return written
    render_fmt = fmt or suffix
    image = out if suffix == render_fmt else out.with_suffix("." + render_fmt)
    try:
        data = _render(graph, render_fmt, image)
    except DiagramError as exc:
        fallback = image.with_suffix(".dot")
        if str(fallback) not in written:
            _write_dot(graph, fallback)
            written.append(str(fallback))
        raise DiagramError(f"{exc}; wrote its DOT source to `{fallback}` instead, to render elsewhere",
                           written) from None
    try:
        image.write_bytes(data)
    except OSError as exc:
        raise DiagramError(f"cannot write `{image}`: {exc.strerror or exc}", written) from None
    written.append(str(image))
    return written


def _write_dot(graph: graphviz.Digraph, path: Path) -> None:
    try:
        path.write_text(graph.source, encoding="utf-8")
    except OSError as exc:
        raise DiagramError(f"cannot write `{path}`: {exc.strerror or exc}") from None


def _render(graph: graphviz.Digraph, fmt: str, image: Path) -> bytes:
    """The picture rendered by Graphviz's `dot`, in memory; a `DiagramError` if it cannot be."""
    missing = f"cannot render `{image}`: {DOT_HINT}"
    if shutil.which("dot") is None:
        raise DiagramError(missing)
    try:
        return graph.pipe(format=fmt, quiet=True)
    except graphviz.ExecutableNotFound:
        raise DiagramError(missing) from None
    except graphviz.CalledProcessError as exc:
        stderr = exc.stderr
        detail = stderr.decode("utf-8", "replace").strip() if isinstance(stderr, bytes) else (stderr or "")
        raise DiagramError(f"`dot` failed to render `{image}`: {detail or exc}") from None


def render_file(dot_path: Path, image: Path, fmt: str, written: list[str] | None = None) -> None:
    """Render a DOT file that is already written into `image` with Graphviz's `dot`; a
    `DiagramError` says what went wrong (`written`: the files written before, for its message)."""
    written = list(written or [str(dot_path)])
    missing = (f"wrote the DOT file `{dot_path}`, but cannot render `{image}`: {DOT_HINT}; "
               f"or render the DOT file elsewhere")
    if shutil.which("dot") is None:
        raise DiagramError(missing, written)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. a format that differs from the output's suffix
            graphviz.render("dot", format=fmt, filepath=str(dot_path), outfile=str(image), quiet=True)
    except graphviz.ExecutableNotFound:
        raise DiagramError(missing, written) from None
    except graphviz.CalledProcessError as exc:
        stderr = exc.stderr
        detail = stderr.decode("utf-8", "replace").strip() if isinstance(stderr, bytes) else (stderr or "")
        raise DiagramError(f"wrote `{dot_path}`, but `dot` failed to render `{image}`: {detail or exc}",
                           written) from None
    except OSError as exc:
        raise DiagramError(f"wrote `{dot_path}`, but could not write `{image}`: {exc.strerror or exc}",
                           written) from None
