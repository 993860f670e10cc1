"""R1202 / R1203: a decision (`choose … by X`, `use card by X`) put to a player who is, or may be, out.

Why: a player who is out takes no further part, and his agent is not asked anything (the engine refuses
such a decision at run time, R1001). Which players may be out is a question of where the value comes
from, not of its type: `players`, `current`, `debtor`, a sale's winner and a thing's `owner` (an out
player holds nothing: a built-in invariant) name players still in; the `player` of `on eliminate` is the
one just eliminated, and a name after `eliminate NAME` in the same rule is out for certain (R1202, an
error). A player kept in a field or a global (a "leader", a "banker", who owes whom), or a list of them,
may name someone eliminated since, unless the rules clear it on elimination or the decision is guarded
by `not X.out` (R1203, a warning: the rules may make sure of it in a way this cannot see).

The analysis follows values through `let`, loops, choices, `define`s and procedure parameters (joined
over every `do` that runs the procedure).
"""

from __future__ import annotations

from .. import ast, codes, walk
from ..diagnostics import Diagnostic
from ._common import always_ends, conjuncts, in_main, label, shape, where

IN, MAYBE, OUT = 0, 1, 2


def _join(a, b):
    if a[0] == b[0]:
        return a
    if a[0] == IN:
        return (MAYBE, b[1], b[2]) if b[0] == OUT else b
    if b[0] == IN:
        return (MAYBE, a[1], a[2]) if a[0] == OUT else a
    return a if a[0] == MAYBE else b


SAFE = (IN, "", None)


class _Env:
    def __init__(self, values=None, lets=None, guards=frozenset()):
        self.values = dict(values or {})  # name -> (level, why, origin span)
        self.lets = dict(lets or {})  # name -> shape of what it names
        self.guards = guards  # shapes of player expressions known to be still in

    def copy(self, guards=None):
        return _Env(self.values, self.lets, self.guards if guards is None else guards)


class _Analysis:
    def __init__(self, program, types):
        self.p = program
        self.types = types
        self.found: list[Diagnostic] = []
        self.reported: set = set()
        self.calls: dict = {}  # procedure -> [(param statuses)]
        self.cleared = self._cleared_fields()
        self.defining: set = set()
        self.aliases: dict = {}  # name -> the other names of the same player in the rule being read

    # ---- which stored players are cleared when a player leaves --------------------------------
    def _cleared_fields(self) -> set:
        """Fields and globals an `on eliminate` or `on debt` rule sets (to clear what named the player)."""
        cleared = set()
        for h in self.p.handlers:
            if h.event in ("eliminate", "debt"):
                for st in walk.statements(h.body, procedures=self.p.procedures):
                    if isinstance(st, ast.Set):
                        t = st.target
                        cleared.add(t.name if isinstance(t, ast.Attr) else t.id if isinstance(t, ast.Name) else None)
        return cleared

    def _field_type(self, name: str):
        for fields in (self.p.player_fields, self.p.global_fields, *({f.name: f for f in k.fields}
                                                                      for k in self.p.kinds.values())):
            f = fields.get(name)
            if f is not None:
                t = f.type.element if f.type.is_list and f.type.element is not None else f.type
                return t.name
        return None

    def _stored(self, name: str, what: str):
        if self._field_type(name) != "player" or name in self.cleared:
            return SAFE
        return (MAYBE, f"{what} `{name}` keeps a player, and no rule clears it when that player is eliminated", None)

    # ---- expressions ------------------------------------------------------------------------------
    def value(self, node, env: _Env):
        if isinstance(node, ast.Name):
            if node.id in env.values:
                return env.values[node.id]
            if node.id in self.p.global_fields:
                return self._stored(node.id, "the global")
            return SAFE
        if isinstance(node, ast.Attr):
            if node.name == "owner" and node.name not in self.p.player_fields:
                return SAFE  # an out player holds nothing (the built-in invariant)
            if node.name in ("winner",):
                return SAFE
            return self._stored(node.name, "the field")
        if isinstance(node, ast.Index):
            return self.value(node.obj, env)
        if isinstance(node, ast.Conditional):
            return _join(self.value(node.then, env), self.value(node.orelse, env))
        if isinstance(node, ast.ListExpr):
            result = SAFE
            for item in node.items:
                result = _join(result, self.value(item, env))
            return result
        if isinstance(node, ast.Aggregate):
            if node.func not in ("first", "best", "min", "max", "list"):
                return SAFE
            if node.func in ("min", "max") and node.body is not None:
                return SAFE  # the least or greatest of a value, not an element
            if node.where is not None and self._guarded_var(node.var, node.where):
                return SAFE
            return self.value(node.collection, env)
        if isinstance(node, ast.Call) and node.func in self.p.defines and node.func not in self.defining:
            define = self.p.defines[node.func]
            inner = _Env({name: self.value(arg, env) for (name, _), arg in zip(define.params, node.args)})
            self.defining.add(node.func)
            try:
                return self.value(define.value, inner)
            finally:
                self.defining.discard(node.func)
        return SAFE

    def _guarded_var(self, var: str, cond) -> bool:
        target = ("Name", ("id", var))
        return target in self._guards(cond, _Env())

    # ---- guards: `not X.out` ------------------------------------------------------------------------
    def _guards(self, cond, env: _Env) -> set:
        found = set()
        for c in conjuncts(cond):
            subject = self._not_out(c)
            if subject is not None:
                found.add(shape(subject, env.lets))
        return found

    @staticmethod
    def _out_of(node):
        if isinstance(node, ast.Attr) and node.name == "out":
            return node.obj
        return None

    def _not_out(self, c):
        """X when condition `c` says X is still in: `not X.out`, `X.out == false`, `any(q in players: q == X)`."""
        if isinstance(c, ast.Not):
            return self._out_of(c.operand)
        if isinstance(c, ast.Compare) and c.op in ("==", "!="):
            for a, b in ((c.left, c.right), (c.right, c.left)):
                if self._out_of(a) is not None and isinstance(b, ast.Literal) and b.type == "bool":
                    if (b.value is False) == (c.op == "=="):
                        return self._out_of(a)
        if (isinstance(c, ast.Aggregate) and c.func == "any" and isinstance(c.collection, ast.Name)
                and c.collection.id == "players" and isinstance(c.body, ast.Compare) and c.body.op == "=="):
            for a, b in ((c.body.left, c.body.right), (c.body.right, c.body.left)):
                if isinstance(a, ast.Name) and a.id == c.var:
                    return b
        return None

    def _out_subject(self, cond):
        """X when condition `cond` says X is out (`X.out`), for the statements after `if X.out: end turn`."""
        subject = self._out_of(cond)
        if subject is None and isinstance(cond, ast.Compare) and cond.op == "==":
            for a, b in ((cond.left, cond.right), (cond.right, cond.left)):
                if self._out_of(a) is not None and isinstance(b, ast.Literal) and b.value is True:
                    subject = self._out_of(a)
        return subject

    # ---- statements -----------------------------------------------------------------------------------
    def block(self, block, env: _Env) -> _Env:
        if block is None:
            return env
        for st in block.statements:
            env = self.statement(st, env)
        return env

    def statement(self, st, env: _Env) -> _Env:
        if isinstance(st, ast.Let):
            env = env.copy()
            env.values[st.name] = self.value(st.value, env)
            env.lets[st.name] = shape(st.value, env.lets)
            return env
        if isinstance(st, (ast.Roll,)):
            env = env.copy()
            env.values.pop(st.var, None)
            env.lets.pop(st.var, None)
            return env
        if isinstance(st, ast.Eliminate):
            # a rule's own name keeps naming him; a global may be cleared by `on eliminate` meanwhile
            if isinstance(st.who, ast.Name) and st.who.id not in self.p.global_fields:
                env = env.copy()
                out = (OUT, f"`{st.who.id}` was eliminated at line {st.span.line}", None)
                gone = shape(st.who, env.lets)
                # the same player under other names: `player` is `debtor` in `on debt`, and a `let` of him
                same = {st.who.id} | {n for n, s in env.lets.items() if s == gone}
                same |= {n for n in self.aliases.get(st.who.id, ())}
                for name in same:
                    env.values[name] = out
                gone_all = {gone} | {shape(ast.Name(id=n, span=st.who.span), env.lets) for n in same}
                env.guards = frozenset(g for g in env.guards if g not in gone_all)
            return env
        if isinstance(st, ast.Choose):
            self.decide(st.by, st.name, env)
            after = env
            for option in st.options:
                inner = env.copy(env.guards | self._guards(option.when, env))
                after = self._merge(after, self.block(option.body, inner))
            return after
        if isinstance(st, ast.ChooseFor):
            self.decide(st.by, st.name, env)
            inner = env.copy(env.guards | self._guards(st.where, env))
            level = self.value(st.collection, env)
            if st.where is not None and self._guarded_var(st.var, st.where):
                level = SAFE
            inner.values[st.var] = level
            inner.lets.pop(st.var, None)
            return self._merge(env, self.block(st.body, inner))
        if isinstance(st, ast.UseCard):
            self.decide(st.who, "use card", env)
            return env
        if isinstance(st, ast.If):
            outs = []
            rest_guards = set(env.guards)
            for cond, body in st.branches:
                inner = env.copy(frozenset(rest_guards | self._guards(cond, env)))
                result = self.block(body, inner)
                out_subject = self._out_subject(cond)
                if always_ends(body, self.p.procedures, False) is not None or (
                        body.statements and isinstance(body.statements[-1], (ast.EndTurn, ast.EndGame))):
                    if out_subject is not None:
                        rest_guards.add(shape(out_subject, env.lets))
                    continue  # this branch does not go on
                outs.append(result)
                if out_subject is not None:
                    rest_guards.add(shape(out_subject, env.lets))
            orelse = env.copy(frozenset(rest_guards))
            if st.orelse is not None:
                orelse = self.block(st.orelse, orelse)
                if always_ends(st.orelse, self.p.procedures, False) is not None:
                    orelse = None
            if orelse is not None:
                outs.append(orelse)
            if not outs:
                return env
            merged = outs[0]
            for other in outs[1:]:
                merged = self._merge(merged, other)
            return merged
        if isinstance(st, ast.For):
            inner = env.copy()
            inner.values[st.var] = self.value(st.collection, env)
            inner.lets.pop(st.var, None)
            return self._merge(env, self.block(st.body, inner))
        if isinstance(st, ast.Auction):
            inner = env.copy()
            inner.values[st.var] = SAFE
            inner.lets.pop(st.var, None)
            after = self._merge(env, self.block(st.body, inner))
            if st.orelse is not None:
                after = self._merge(after, self.block(st.orelse, env.copy()))
            if st.bluff is not None:
                self.block(st.bluff, inner.copy())
            return after
        if isinstance(st, ast.RollAgain):
            inner = env.copy()
            inner.values.pop(st.var, None)
            after = self._merge(env, self.block(st.body, inner))
            if st.too_many is not None:
                after = self._merge(after, self.block(st.too_many, inner.copy()))
            return after
        if isinstance(st, ast.Do) and st.name in self.p.procedures:
            proc = self.p.procedures[st.name]
            statuses = []
            for (_, _), arg in zip(proc.params, st.args):
                level = self.value(arg, env)
                if shape(arg, env.lets) in env.guards:
                    level = SAFE
                if level[0] != IN and level[2] is None:
                    level = (level[0], level[1], arg.span)
                statuses.append(level)
            self.calls.setdefault(st.name, []).append(tuple(statuses))
            return env
        return env

    def _merge(self, a: _Env, b: _Env) -> _Env:
        values = dict(a.values)
        for name, level in b.values.items():
            values[name] = _join(values[name], level) if name in values else level
        lets = {k: v for k, v in a.lets.items() if b.lets.get(k) == v}
        return _Env(values, lets, a.guards & b.guards)

    def decide(self, by, name: str, env: _Env) -> None:
        level, why, origin = self.value(by, env)
        if level == IN or shape(by, env.lets) in env.guards:
            return
        span = by.span
        file_span = span
        labels: tuple = ()
        if origin is not None and not in_main(self.p, span) and in_main(self.p, origin):
            file_span = origin
            labels = (label(self.p, span, f"the decision `{name}`"),)
        key = (file_span.file, file_span.line, file_span.column, name)
        if key in self.reported:
            return
        self.reported.add(key)
        who = self.p.text_at(by.span)
        if level == OUT:
            self.found.append(codes.OUT_PLAYER_DECIDES.diagnostic(
                f"`{who}` is out of the game here, so cannot decide `{name}`: {why}",
                where(self.p, file_span), file_span, labels=labels,
                help="put the decision to a player still in (`current`, one of `players`), or make it before the elimination"))
        else:
            self.found.append(codes.PLAYER_MAY_BE_OUT_DECIDES.diagnostic(
                f"`{who}` may be out of the game when it is asked to decide `{name}`: {why}",
                where(self.p, file_span), file_span, labels=labels,
                help=f"ask only a player still in: `if not {who}.out:` before the decision, or clear the "
                     "stored player in `on eliminate`"))


def _roots(program):
    """Each rule body, with what its names say about who is still in."""
    for h in program.handlers:
        values = {}
        if h.event == "eliminate":
            values["player"] = (OUT, "`on eliminate` runs for the player just eliminated", None)
            values["current"] = (MAYBE, "in `on eliminate`, the player whose turn it is may be the one eliminated", None)
        aliases = {"player": ("debtor",), "debtor": ("player",)} if h.event == "debt" else {}
        yield h.body, values, h.when, aliases
    for hook in program.hooks:
        yield hook.body, {}, hook.when, {}
    for action in program.actions.values():
        yield action.body, {}, action.when, {}
    for deck in program.decks.values():
        for card in deck.cards:
            yield card.body, {}, None, {}
    if program.turn is not None:
        for phase in program.turn.phases:
            yield phase.body, {}, phase.when, {}
    for status in program.statuses.values():
        for phase in status.phases:
            yield phase.body, {}, phase.when, {}
    if program.setup is not None:
        yield program.setup.body, {}, None, {}


def analyse(checked):
    program = checked.program
    a = _Analysis(program, checked.types)
    for body, values, when, aliases in _roots(program):
        a.aliases = aliases
        env = _Env(values)
        env.guards = frozenset(a._guards(when, env))
        a.block(body, env)
    # procedures: each parameter as the `do`s that run it pass it, until nothing changes
    seen: dict = {}
    for _ in range(len(program.procedures) + 1):
        changed = False
        for name, proc in program.procedures.items():
            calls = a.calls.get(name, [])
            values = {}
            for i, (pname, _) in enumerate(proc.params):
                level = None
                for call in calls:
                    if i < len(call):
                        level = call[i] if level is None else _join(level, call[i])
                values[pname] = SAFE if level is None else level
            key = tuple(sorted((k, v[0]) for k, v in values.items()))
            if seen.get(name) == key:
                continue
            seen[name] = key
            changed = True
            a.aliases = {}
            a.block(proc.body, _Env(values))
        if not changed:
            break
    return a.found
