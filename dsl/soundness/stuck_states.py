"""R1205: a state a player never leaves, because the way out needs a value to fall again and it only grows.

Why: a status (a jail) is left by a `release`, and a missed-turns rule by its `before turn` hook's
condition becoming false. When the way out reads a counter or a flag that every rule only raises (each
`set` adds a non-negative amount, or sets the same constant; nothing resets it), the way out holds at most
for a while: `release` under `player.stays == 3` frees a player on his first stay and never again (the
counter is past 3 on every later stay), and a hook that ends every turn `when player.detentions > 0`,
once true, is true for the rest of the game. The player is still in the game but never plays again; the
games end only at the turn limit. The engine's own `status_turns` is reset on every `put`, so
`player.status_turns == 3` is the sound way to count a stay.
"""

from __future__ import annotations

from .. import ast, codes, walk
from ._common import always_ends, conjuncts, in_main, label, player_is, where

TURN = ("builtin", "turn")
HOOK_HELP = ("count it down in the hook, as a missed turn does (`set player.turns_to_miss = player.turns_to_miss - 1`), "
             "or reset it where the player should play again")
HELP = ("count the stay with `player.status_turns` (reset each time he is put in the status), or reset the "
        "counter where the player enters or leaves the state")


def _writes(program) -> dict:
    """Each field or global set by a rule (scenarios aside), with the `set`s that change it."""
    found: dict = {}
    roots = (*program.handlers, *program.hooks, *program.actions.values(), *program.procedures.values(),
             *program.decks.values(), *([program.setup] if program.setup else []),
             *([program.turn] if program.turn else []), *program.statuses.values())
    for node in walk.walk(roots):
        if isinstance(node, ast.Set):
            t = node.target
            key = ("field", t.name) if isinstance(t, ast.Attr) else ("global", t.id) if isinstance(t, ast.Name) else None
            if key is not None:
                found.setdefault(key, []).append(node)
    return found


class _Analysis:
    def __init__(self, checked):
        self.p = checked.program
        self.types = checked.types
        self.writes = _writes(self.p)
        self.fields = {("field", n): f for n, f in self.p.player_fields.items()}
        self.fields.update({("global", n): f for n, f in self.p.global_fields.items()})

    def _constant(self, node):
        """The value of a literal or a parameter written as one, else None."""
        if isinstance(node, ast.Neg):
            inner = self._constant(node.operand)
            return -inner if isinstance(inner, (int, float)) and not isinstance(inner, bool) else None
        if isinstance(node, ast.Literal) and node.type in ("count", "money", "bool", "percent"):
            return node.value
        if isinstance(node, ast.Name) and node.id in self.p.params:
            return self._constant(self.p.params[node.id].value)
        return None

    def _key(self, node):
        if isinstance(node, ast.Name) and node.id == "turn" and "turn" not in self.p.global_fields:
            return TURN  # the turn number: it only grows
        if isinstance(node, ast.Attr) and ("field", node.name) in self.fields:
            t = self.types.get(id(node.obj))
            if t is None or t.name == "player":
                return ("field", node.name)
        if isinstance(node, ast.Name) and ("global", node.id) in self.fields:
            return ("global", node.id)
        return None

    def _non_negative(self, node) -> bool:
        value = self._constant(node)
        if value is not None:
            return not isinstance(value, bool) and value >= 0
        t = self.types.get(id(node))
        return t is not None and t.name == "count" and not t.optional

    def growth(self, key):
        """("up", sets) when the value only grows, ("true", sets) for a flag only ever set true; else None."""
        if key == TURN:
            return ("up", [])
        sets = self.writes.get(key)
        if not sets:
            return None
        field = self.fields[key]
        default = self._constant(field.default) if field.default is not None else None
        if field.type.name == "bool":
            values = {self._constant(s.value) for s in sets}
            return ("true", sets) if values == {True} and default is False else None
        constants = set()
        for s in sets:
            v = s.value
            if isinstance(v, ast.BinOp) and v.op == "+" and any(
                    self._key(side) == key and self._non_negative(other)
                    for side, other in ((v.left, v.right), (v.right, v.left))):
                continue
            c = self._constant(v)
            if c is None or isinstance(c, bool):
                return None
            constants.add(c)
        if constants and (len(constants) > 1 or len(constants) < len(sets) or default is None
                          or min(constants) < default):
            return None  # a constant after an increment may lower it
        return ("up", sets)

    def classify(self, atom):
        """("dies"|"sticks", key, growth) when `atom` is about a value that only grows: "dies" holds only
        while the value is small (or the flag false), "sticks" holds for good once it holds."""
        negated = False
        if isinstance(atom, ast.Not):
            atom, negated = atom.operand, True
        key = self._key(atom)
        if key is not None:
            g = self.growth(key)
            if g is not None and g[0] == "true":
                return ("dies" if negated else "sticks", key, g)
            return None
        if negated or not isinstance(atom, ast.Compare):
            return None
        op, left, right = atom.op, atom.left, atom.right
        if self._key(left) is None:
            left, right = right, left
            op = {"<": ">", ">": "<", "<=": ">=", ">=": "<=", "==": "==", "!=": "!="}[op]
        key = self._key(left)
        if key is None:
            return None
        k = self._constant(right)
        if k is None:
            return None
        g = self.growth(key)
        if g is None:
            return None
        if g[0] == "true":
            if isinstance(k, bool):
                truth = k if op == "==" else (not k) if op == "!=" else None
                if truth is not None:
                    return ("sticks" if truth else "dies", key, g)
            return None
        if op in ("<", "<=", "=="):
            return ("dies", key, g)
        default = 0 if key == TURN else self._constant(self.fields[key].default)
        if op in (">", ">=") or (op == "!=" and default is not None and k <= default):
            return ("sticks", key, g)
        return None


def _releases(program):
    """Each `release` (scenarios aside), with the conditions it runs under and the status it is in (or None)."""
    def block(b, conds, status):
        if b is None:
            return
        for st in b.statements:
            yield from statement(st, conds, status)

    def statement(st, conds, status):
        if isinstance(st, ast.Release):
            yield st, conds, status
        elif isinstance(st, ast.If):
            for cond, body in st.branches:
                yield from block(body, conds + conjuncts(cond), status)
            yield from block(st.orelse, conds, status)
        elif isinstance(st, ast.Choose):
            for o in st.options:
                yield from block(o.body, conds + conjuncts(o.when), status)
        elif isinstance(st, ast.ChooseFor):
            yield from block(st.body, conds + conjuncts(st.where), status)
        elif isinstance(st, (ast.For, ast.RollAgain)):
            yield from block(st.body, conds, status)
            if isinstance(st, ast.RollAgain):
                yield from block(st.too_many, conds, status)
        elif isinstance(st, ast.Auction):
            for b in (st.body, st.orelse, st.bluff):
                yield from block(b, conds, status)

    for status in program.statuses.values():
        for phase in status.phases:
            yield from block(phase.body, conjuncts(phase.when), status.name)
    roots = [(h.body, h.when) for h in (*program.handlers, *program.hooks)]
    roots += [(a.body, a.when) for a in program.actions.values()]
    roots += [(c.body, None) for d in program.decks.values() for c in d.cards]
    roots += [(p.body, None) for p in program.procedures.values()]
    if program.turn is not None:
        roots += [(p.body, p.when) for p in program.turn.phases]
    for body, when in roots:
        yield from block(body, conjuncts(when), None)


def _flag(a, key) -> bool:
    return key != TURN and a.fields[key].type.name == "bool"


def _entry(program, status: str):
    """A `put … in STATUS` in the file checked (a variant's own rule that puts a player in it), or None."""
    roots = (*program.handlers, *program.hooks, *program.actions.values(), *program.procedures.values(),
             *program.decks.values(), *([program.turn] if program.turn else []), *program.statuses.values())
    return next((n for n in walk.walk(roots) if isinstance(n, ast.Put) and n.status == status
                 and in_main(program, n.span)), None)


def _diagnostic(program, atom, what: str, sets, anchor, help: str = HELP, entry=None):
    """At the condition; in a variant whose own line is not the condition, at the variant's `set` that makes
    the value only grow (or its rule that holds the condition), with notes at the others."""
    grow = next((s for s in sets if in_main(program, s.span)), sets[0]) if sets else None
    at = atom.span
    if not in_main(program, at):
        if grow is not None and in_main(program, grow.span):
            at = grow.span
        elif entry is not None:
            at = entry.span  # the variant's rule that puts him in the state, with no reset
        elif in_main(program, anchor):
            at = anchor
    labels = []
    if grow is not None and at is not grow.span:
        labels.append(label(program, grow.span, "it only grows here" if "set true" not in what else "it is set true here"))
    if at is not atom.span:
        labels.insert(0, label(program, atom.span, "the condition"))
    return codes.STATE_NEVER_LEFT.diagnostic(what, where(program, at), at, labels=tuple(labels), help=help)


def analyse(checked):
    program = checked.program
    a = _Analysis(checked)
    found = []
    releases = list(_releases(program))
    for status in program.statuses.values():
        mine = [(st, conds) for st, conds, s in releases if s in (status.name, None)]
        if not mine:
            continue  # R0804 says so
        dying = []
        for st, conds in mine:
            hit = next(((c, cls) for c in conds for cls in [a.classify(c)] if cls is not None and cls[0] == "dies"), None)
            if hit is None:
                break
            dying.append((st, hit))
        else:
            st, (atom, (_, key, (_, sets))) = next(((s, h) for s, h in dying if in_main(program, h[0].span)), dying[0])
            text = program.text_at(atom.span)
            flag = _flag(a, key)
            found.append(_diagnostic(
                program, atom,
                f"a player in `{status.name}` is released only when `{text}`, and `{key[1]}` "
                + ("is only ever set true: once set, he is never released again" if flag else
                   "only grows: once past, he is never released again"
                   + ("" if key == TURN else " (a second stay never ends)")),
                sets, status.span, entry=_entry(program, status.name)))
    # a phase of the ordinary turn that moves the player, under a condition on his own counter or flag
    # that, once false, stays false: from then on he never moves again
    for phase in (program.turn.phases if program.turn is not None else ()):
        moves = any(isinstance(st, ast.Move) and player_is(st.who)
                    for st in walk.statements(phase.body, procedures=program.procedures))
        if not moves or phase.when is None:
            continue
        hit = next(((c, cls) for c in conjuncts(phase.when) for cls in [a.classify(c)]
                    if cls is not None and cls[0] == "dies" and cls[1][0] == "field"), None)
        if hit is not None:
            atom, (_, key, (_, sets)) = hit
            found.append(_diagnostic(
                program, atom,
                f"phase `{phase.name}` moves the player only when `{program.text_at(atom.span)}`, and `{key[1]}` "
                + ("is only ever set true" if _flag(a, key) else "only grows")
                + ": once it fails, he never moves again", sets, phase.span,
                help=f"set `{key[1]}` back where the player should move again"))
    for hook in program.hooks:
        if hook.which != "before" or hook.when is None:
            continue
        if always_ends(hook.body, program.procedures, True) is None:
            continue
        parts = conjuncts(hook.when)
        classes = [a.classify(c) for c in parts]
        if parts and all(c is not None and c[0] == "sticks" for c in classes):
            atom, (_, key, (_, sets)) = parts[0], classes[0]
            text = program.text_at(hook.when.span)
            grows = "is only ever set true" if _flag(a, key) else "only grows"
            found.append(_diagnostic(
                program, atom,
                f"this hook ends the turn of every player for whom `{text}` holds, and `{key[1]}` {grows}: once "
                "it holds, the player never plays a turn again", sets, hook.span, help=HOOK_HELP))
    return found
