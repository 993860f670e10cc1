"""R1204: another player's hidden value shown through what a player is offered.

Why: a `hidden` player field (a player's cash, say) is kept from the other players' agents: while one
decides, the others' hidden fields are masked. But the rules compute what he is offered in the open: the
options of a `choose` (their `when`), the list and the `where` of a `choose … for`, the actions offered to
him (an action's `when` and its amount's range), an auction's lowest bid shown to every bidder. If that
reads another player's hidden field, the list shown reveals it: "rob a player richer than you" offers
exactly the players whose hidden cash is above one's own. The chooser's own hidden fields are his to see.

Who owns a value read is decided by data flow: the player expression before `.field`, followed through
`let`, `define` parameters and a loop's or an aggregate's variable, compared with the chooser's.
"""

from __future__ import annotations

from .. import ast, codes, walk
from ._common import in_main, label, shape, where

PLAYER_NAME = ("Name", ("id", "player"))


class _Analysis:
    def __init__(self, program, types, hidden):
        self.p = program
        self.types = types
        self.hidden = hidden
        self.found = []
        self.reported = set()
        self.fresh = 0
        self.around: list = []  # the conditions (with their names) the statements being read run under

    def rule(self, body, renames: dict, when=None) -> None:
        """A rule's body, run under its `when`."""
        self.around = [(when, dict(renames))] if when is not None else []
        self.block(body, renames)
        self.around = []

    def _token(self, what):
        self.fresh += 1
        return (what, self.fresh)

    # ---- the hidden fields an expression reads, with whose they are ---------------------------------
    def reads(self, node, renames: dict, site, depth: int = 0):
        """(field, owner shape, span, site span) of each hidden player field `node` reads."""
        if node is None or depth > 20:
            return
        stack = [(node, renames, site)]
        while stack:
            n, names, at = stack.pop()
            if isinstance(n, ast.Aggregate):
                inner = dict(names)
                inner[n.var] = self._token("element")
                inner.pop(("let", n.var), None)
                stack.append((n.collection, names, at))
                for part in (n.where, n.body):
                    if part is not None:
                        stack.append((part, inner, at))
                continue
            if isinstance(n, ast.Call) and n.func in self.p.defines:
                define = self.p.defines[n.func]
                inner = {pname: shape(arg, names) for (pname, _), arg in zip(define.params, n.args)}
                for arg in n.args:
                    stack.append((arg, names, at))
                yield from self.reads(define.value, inner, at if at is not None else n.span, depth + 1)
                continue
            if isinstance(n, ast.Name) and ("let", n.id) in names:  # what a `let` named, read where it was computed
                expr, then = names[("let", n.id)]
                if depth < 20:
                    yield from self.reads(expr, then, at if at is not None else n.span, depth + 1)
                continue
            if isinstance(n, ast.Attr) and n.name in self.hidden and self._is_player(n.obj):
                yield n.name, shape(n.obj, names), n.span, at
            for child in walk.children(n):
                stack.append((child, names, at))

    def _is_player(self, node) -> bool:
        t = self.types.get(id(node))
        if t is not None:
            return t.name == "player"
        return not any(any(f.name == getattr(node, "name", None) for f in k.fields) for k in self.p.kinds.values())

    def check_around(self, chooser_shape, name: str, shown_to: str, anchor) -> None:
        """The conditions a decision is asked under (an `if`, a rule's `when`): whether it is asked at all
        tells the chooser they hold."""
        for cond, renames in self.around:
            self.check([cond], chooser_shape, renames, f"the condition under which `{name}` is asked", shown_to,
                       anchor, reveals="whether he is asked reveals it")

    def check(self, exprs, chooser_shape, renames, what: str, shown_to: str, anchor,
              reveals: str = "what he is offered reveals it") -> None:
        for expr in exprs:
            for field, owner, span, site in self.reads(expr, renames, None):
                if chooser_shape is not None and owner == chooser_shape:
                    continue
                at = span if site is None else site
                if not in_main(self.p, at) and in_main(self.p, anchor):
                    at = anchor
                key = (at.file, at.line, at.column, field)
                if key in self.reported:
                    continue
                self.reported.add(key)
                text = self.p.text_at(span)
                if site is None:
                    said = f"{what} reads `{text}`, the hidden `{field}` of a player other than {shown_to}"
                else:
                    said = (f"{what} reads `{self.p.text_at(site)}`, which depends on the hidden `{field}` of a "
                            f"player other than {shown_to}")
                labels = () if at is span else (label(self.p, span, f"`{text}` is read here"),)
                self.found.append(codes.HIDDEN_FIELD_SHOWN.diagnostic(
                    f"{said}: {reveals}", where(self.p, at), at, labels=labels,
                    help=f"offer what does not depend on another player's `{field}` (test it after the choice, "
                         f"in its body), or do not make `{field}` hidden"))

    # ---- the rules ------------------------------------------------------------------------------------
    def block(self, block, renames: dict) -> None:
        if block is None:
            return
        renames = dict(renames)
        for st in block.statements:
            self.statement(st, renames)

    def statement(self, st, renames: dict) -> None:
        if isinstance(st, ast.Let):
            then = dict(renames)
            renames[st.name] = shape(st.value, then)
            renames[("let", st.name)] = (st.value, then)
            return
        if isinstance(st, ast.Roll):
            renames[st.var] = self._token("roll")
            renames.pop(("let", st.var), None)
            return
        if isinstance(st, ast.Choose):
            chooser = shape(st.by, renames)
            shown = f"`{self.p.text_at(st.by.span)}`, who decides `{st.name}`"
            self.check([o.when for o in st.options], chooser, renames, f"an option of `{st.name}`", shown, st.span)
            self.check_around(chooser, st.name, shown, st.span)
            for option in st.options:
                self.block(option.body, renames)
            return
        if isinstance(st, ast.ChooseFor):
            chooser = shape(st.by, renames)
            shown = f"`{self.p.text_at(st.by.span)}`, who decides `{st.name}`"
            inner = dict(renames)
            inner[st.var] = self._token("item")
            inner.pop(("let", st.var), None)
            self.check([st.collection], chooser, renames, f"the list of `{st.name}`", shown, st.span)
            self.check([st.where], chooser, inner, f"the `where` of `{st.name}`", shown, st.span)
            self.check_around(chooser, st.name, shown, st.span)
            self.block(st.body, inner)
            return
        if isinstance(st, ast.Auction):
            self.check([st.minimum], None, renames, "the lowest bid of this auction", "each bidder", st.span)
            if st.limit is not None:  # each bidder's highest bid: his own fields he may see, no other's
                bidder = self._token("bidder")
                self.check([st.limit], bidder, {**renames, "bidder": bidder}, "the highest bid of this auction",
                           "the bidder", st.span)
            inner = dict(renames)
            inner[st.var] = self._token("sale")
            self.block(st.body, inner)
            self.block(st.orelse, renames)
            self.block(st.bluff, inner)
            return
        if isinstance(st, (ast.For, ast.RollAgain)):
            inner = dict(renames)
            inner[st.var] = self._token("item")
            inner.pop(("let", st.var), None)
            self.block(st.body, inner)
            if isinstance(st, ast.RollAgain):
                self.block(st.too_many, inner)
            return
        if isinstance(st, ast.If):
            depth = len(self.around)
            for cond, body in st.branches:
                self.around.append((cond, dict(renames)))  # a later branch runs only where this one's failed
                self.block(body, renames)
            self.block(st.orelse, renames)
            del self.around[depth:]
            return


def analyse(checked):
    program = checked.program
    hidden = {f.name for f in program.player_fields.values() if f.hidden}
    if not hidden:
        return []
    a = _Analysis(program, checked.types, hidden)
    in_turn = {"current": PLAYER_NAME}  # in a turn's own rules, `current` is `player`
    for h in program.handlers:
        # a debt's shortfall and an elimination are everyone's to see: what they run under tells nothing
        a.rule(h.body, {}, h.when if h.event in ("land", "pass") else None)
    for hook in program.hooks:
        a.rule(hook.body, in_turn, hook.when)
    if program.turn is not None:
        for phase in program.turn.phases:
            a.rule(phase.body, in_turn, phase.when)
    for status in program.statuses.values():
        for phase in status.phases:
            a.rule(phase.body, in_turn, phase.when)
    for deck in program.decks.values():
        for card in deck.cards:
            a.rule(card.body, {})
    for proc in program.procedures.values():
        a.rule(proc.body, {})
    if program.setup is not None:
        a.rule(program.setup.body, {})
    for action in program.actions.values():
        renames = dict(in_turn) if action.timing != "any time" else {}
        exprs = [action.when]
        if action.amount is not None:
            exprs += [action.amount.low, action.amount.high, action.amount.step]
        a.check(exprs, PLAYER_NAME, renames, f"the offer of action `{action.name}`",
                "`player`, who is offered it", action.span)
        a.rule(action.body, renames)
    return a.found
