"""The walk the money and ownership analyses share: every rule's statements, path by path, with what
each name stands for.

Why: whether a payment comes from the right player, or a transfer is guarded by an ownership test, is a
question about values, not about how they are spelt. `let w = sale.winner`, a procedure's parameter bound
to `sale.winner` at its `do`, and `sale.winner` itself are one player; `p.owner` after `set p.owner =
player` is the player. So names are resolved to symbols (`Sym`, plain tuples): `("player",)` for the
player a rule runs for, `("bank",)`, `("global", g)`, `("param", n)`, `("thing", n)`, `("var", id, n)` for
each binding (an action's parameter, a handler's thing, a `choose … for` item, an auction's sale, a roll,
a `let` of a computed value), `("field", base, name)` for a field of one, `("none",)`, and `("opaque", id)`
for what is not followed.

The walk goes through each rule root (handlers, hooks, actions, cards, phases, the setup; a procedure at
each `do` that runs it, with its parameters bound to the arguments) and enumerates the paths of `if`,
options, auctions (won, unsold, bluff) and early `end turn`s, up to a bound past which it merges paths
and marks them `lossy`. Each statement it reaches is recorded as a `Visit`: the statement with the
bindings, the conditions known to hold there (`facts`, each with its own bindings) and the equalities
those conditions prove. Scenarios are tests, not rules: they are not walked.
"""

from __future__ import annotations

from typing import Any, Iterator

import attrs

from .. import ast
from ..builtins import DEBT_NAMES
from ..walk import children, walk

# A symbol (above): a tag, then items whose types the tag decides (a name, an id, a Sym): `Any`, since a
# tuple type cannot say which items go with which tag.
Sym = tuple[Any, ...]

OWNER = "owner"  # the state field that says who owns a thing: the engine's trades and invariants read it

PATH_LIMIT = 64  # paths of one root followed separately; more are merged (and marked lossy)
VISIT_LIMIT = 20_000  # statements visited in one root, all paths together


@attrs.frozen
class Fact:
    """A condition known to hold (or, `positive` False, not to hold) at a point, with its bindings."""

    expr: object
    positive: bool
    env: dict = attrs.field(eq=False, hash=False)
    fields: dict = attrs.field(eq=False, hash=False)


@attrs.define
class State:
    """One path's state at a point of a rule."""

    root: object
    env: dict  # name -> Sym
    fields: dict  # Sym of a field -> Sym of the value a `set` on this path gave it
    facts: tuple = ()
    eq: tuple = ()  # pairs of Syms a condition proves equal
    events: tuple = ()  # the Visits of this path, in order
    ended: bool = False  # an `end turn` or `end game` ended the path
    lossy: bool = False  # paths were merged into this one: its events are not one path's
    calls: tuple = ()  # procedures being run (a procedure running itself is not followed)

    def copy(self, **changes) -> "State":
        return attrs.evolve(self, **changes)


@attrs.frozen
class Visit:
    """A statement reached on a path, with what held there."""

    stmt: object
    env: dict = attrs.field(eq=False, hash=False)
    fields: dict = attrs.field(eq=False, hash=False)
    facts: tuple = attrs.field(eq=False, hash=False)
    eq: tuple = attrs.field(eq=False, hash=False)
    root: object = attrs.field(eq=False, hash=False)


class Flow:
    """The walk over one checked program, run once and shared by the analyses (`flow_of`)."""

    def __init__(self, checked):
        self.checked = checked
        self.p = p = checked.program
        self.types = checked.types
        self.visits: list[Visit] = []  # every statement reached, on every path
        self.paths: list[State] = []  # every root's final path states
        self.kinds_of: dict = {}  # Sym of a binding -> the kind (or group) it ranges over, when it is one
        # Sym of a thing an actor chooses -> (Sym of the actor, the node that binds it)
        self.chosen_by: dict[Sym, tuple[Sym, ast.ActionDecl | ast.ChooseFor]] = {}
        self.amount_ranges: dict = {}  # Sym of an action's amount -> (AmountRange, env)
        self.lets: dict = {}  # Sym of a `let` of a computed value -> (expr, env, fields)
        self.rolls: dict = {}  # Sym of a roll -> (count expr, env)
        self.over_kind: dict = {}  # Sym of a binding that may be any thing of a kind (the whole kind) -> the kind
        self.account_globals = {n for n, f in p.global_fields.items() if f.type.name == "account" and not f.type.is_list}
        self.account_player_fields = {n for n, f in p.player_fields.items()
                                      if f.type.name == "account" and not f.type.is_list}
        called = {n.name for n in walk(tuple(p.procedures.values()) + self._roots_nodes()) if isinstance(n, ast.Do)}
        self._visit_count = 0
        for root, state, block in self._roots():
            self._visit_count = 0
            self.paths.extend(self.run(block, [state]))
        for proc in p.procedures.values():
            if proc.name not in called:  # run nowhere: walked on its own, its parameters unknown
                env: dict[str, Sym] = {"player": ("player",)}
                for name, _t in proc.params:
                    env[name] = ("var", id(proc), name)
                self._visit_count = 0
                self.paths.extend(self.run(proc.body, [State(proc, env, {}, calls=(proc.name,))]))

    # ---- the rule roots ----------------------------------------------------------------------------------

    def _roots_nodes(self) -> tuple:
        p = self.p
        return (*p.handlers, *p.hooks, *p.actions.values(), *p.decks.values(),
                *([p.setup] if p.setup else []), *([p.turn] if p.turn else []), *p.statuses.values())

    def _roots(self) -> Iterator:
        p = self.p
        player: dict[str, Sym] = {"player": ("player",)}
        for h in p.handlers:
            env = dict(player)
            if h.event == "debt":
                env.update({n: ("builtin", n) for n in DEBT_NAMES})
            if h.var:
                sym = ("var", id(h), h.var)
                env[h.var] = sym
                if h.target in p.kinds or h.target in p.groups:
                    self.kinds_of[sym] = h.target
                if h.target in p.kinds:
                    self.over_kind[sym] = h.target
            yield h, self._start(h, env, h.when), h.body
        for hook in p.hooks:
            yield hook, self._start(hook, dict(player), hook.when, in_turn=True), hook.body
        for action in p.actions.values():
            env = dict(player)
            if action.param is not None:
                sym = ("var", id(action), action.param.name)
                env[action.param.name] = sym
                if action.amount is not None:
                    self.amount_ranges[sym] = (action.amount, dict(player))
                else:
                    self.kinds_of[sym] = action.param.kind
                    if action.param.kind in p.kinds:
                        self.over_kind[sym] = action.param.kind
                    self.chosen_by[sym] = (("player",), action)
            yield action, self._start(action, env, action.when, in_turn=action.timing != "any time"), action.body
        for deck in p.decks.values():
            for card in deck.cards:
                yield card, State(card, dict(player), {}), card.body
        if p.setup:
            yield p.setup, State(p.setup, {}, {}), p.setup.body
        for phases in ([p.turn] if p.turn else []) + list(p.statuses.values()):
            for phase in phases.phases:
                yield phase, self._start(phase, dict(player), phase.when, in_turn=True), phase.body

    @staticmethod
    def _facts_of(expr, env, positive=True, fields=None) -> tuple:
        return () if expr is None else (Fact(expr, positive, dict(env), dict(fields or {})),)

    def _start(self, root, env: dict, when=None, in_turn: bool = False) -> State:
        """A root's first state: its `when` holds, with the equalities it proves (and, for a rule that runs
        in its player's own turn, that he is `current`)."""
        state = State(root, env, {}, self._facts_of(when, env))
        eq = [(("builtin", "current"), ("player",))] if in_turn else []
        if when is not None:
            eq.extend(self._equalities(when, True, state))
        state.eq = tuple(eq)
        return state

    # ---- names -------------------------------------------------------------------------------------------

    def resolve(self, expr, env: dict, fields: dict | None = None) -> Sym:
        """The symbol an expression stands for."""
        fields = fields or {}
        if isinstance(expr, ast.Name):
            name = expr.id
            if name in env:
                return env[name]
            if name == "bank":
                return ("bank",)
            if name == "none":
                return ("none",)
            if name in self.p.global_fields:
                sym: Sym = ("global", name)
                return fields.get(sym, sym)
            if name in self.p.params:
                return ("param", name)
            if name in self.p.things or name in self.p.squares or name in self.p.decks:
                return ("thing", name)
            return ("builtin", name)
        if isinstance(expr, ast.Literal):
            if expr.type == "none":
                return ("none",)
            return ("lit", expr.type, expr.value)
        if isinstance(expr, ast.Attr):
            sym = ("field", self.resolve(expr.obj, env, fields), expr.name)
            return fields.get(sym, sym)
        return ("opaque", id(expr))

    def syms_in(self, expr, env: dict, fields: dict | None = None, depth: int = 0) -> set:
        """Every symbol a name or field path in `expr` stands for (through `let`s of computed values)."""
        found = set()
        pending = [(expr, env)]
        while pending:
            node, scope = pending.pop()
            if isinstance(node, ast.Aggregate):  # its variable hides any outer name of the same spelling
                inner = {**scope, node.var: ("var", id(node), node.var)}
                pending.append((node.collection, scope))
                pending.extend((part, inner) for part in (node.where, node.body) if part is not None)
                continue
            if isinstance(node, (ast.Name, ast.Attr)):
                sym = self.resolve(node, scope, fields)
                found.add(sym)
                if sym in self.lets and depth < 8:
                    let_expr, let_env, let_fields = self.lets[sym]
                    found |= self.syms_in(let_expr, let_env, let_fields, depth + 1)
            pending.extend((child, scope) for child in children(node))
        return found

    @staticmethod
    def same(a, b, eq: tuple) -> bool:
        """Are two symbols one value, by what they are or by what the conditions prove?"""
        if a == b:
            return True
        if not eq:
            return False
        parent: dict = {}

        def find(x):
            while parent.get(x, x) != x:
                x = parent[x]
            return x
        for x, y in eq:
            parent[find(x)] = find(y)
        return find(a) == find(b)

    def type_of(self, expr):
        return self.types.get(id(expr))

    def kind_of_type(self, expr) -> str | None:
        """The kind of a thing an expression gives, from its inferred type."""
        t = self.type_of(expr)
        if t is None:
            return None
        name = t.element.name if t.is_list and t.element is not None else t.name
        return name if name in self.p.kinds else None

    def has_owner(self, kind: str | None) -> bool:
        k = self.p.kinds.get(kind) if kind else None
        return k is not None and any(f.name == OWNER and f.is_state for f in k.fields)

    # ---- paths -------------------------------------------------------------------------------------------

    def run(self, block, states: list) -> list:
        """The states after `block` on each path (ended paths included, unchanged)."""
        for stmt in block.statements:
            following = []
            for state in states:
                if state.ended:
                    following.append(state)
                else:
                    following.extend(self.step(stmt, state))
            states = self._bounded(following, stmt)
        return states

    def _bounded(self, states: list, stmt) -> list:
        if len(states) <= PATH_LIMIT and self._visit_count <= VISIT_LIMIT:
            return states
        first = states[0]
        return [first.copy(lossy=True, fields={}, ended=all(s.ended for s in states))]

    def _inner(self, block, state: State, facts: tuple = (), eq: tuple = (), env: dict | None = None) -> list:
        """The paths through a nested block: its bindings and conditions end with it."""
        inner = state.copy(env=dict(env if env is not None else state.env), facts=state.facts + facts,
                           eq=state.eq + eq)
        return [s.copy(env=state.env, facts=state.facts, eq=state.eq) for s in self.run(block, [inner])]

    def _record(self, stmt, state: State) -> State:
        self._visit_count += 1
        visit = Visit(stmt, state.env, state.fields, state.facts, state.eq, state.root)
        self.visits.append(visit)
        return state.copy(events=state.events + (visit,))

    def _condition(self, expr, positive: bool, state: State) -> tuple[tuple, tuple]:
        """The fact a condition gives, and the equalities it proves (`a == b`, `a != b` false, `and`s)."""
        fact = (Fact(expr, positive, dict(state.env), dict(state.fields)),)
        return fact, tuple(self._equalities(expr, positive, state))

    def _equalities(self, expr, positive: bool, state: State) -> Iterator:
        if isinstance(expr, ast.Compare) and ((expr.op == "==" and positive) or (expr.op == "!=" and not positive)):
            yield (self.resolve(expr.left, state.env, state.fields), self.resolve(expr.right, state.env, state.fields))
        elif isinstance(expr, ast.BoolOp) and expr.op == "and" and positive:
            for operand in expr.operands:
                yield from self._equalities(operand, True, state)
        elif isinstance(expr, ast.BoolOp) and expr.op == "or" and not positive:
            for operand in expr.operands:
                yield from self._equalities(operand, False, state)
        elif isinstance(expr, ast.Not):
            yield from self._equalities(expr.operand, not positive, state)

    def step(self, stmt, state: State) -> list:
        state = self._record(stmt, state)
        env = state.env
        if isinstance(stmt, ast.Let):
            sym = self.resolve(stmt.value, env, state.fields)
            if sym[0] in ("opaque", "lit"):
                sym = ("var", id(stmt), stmt.name)
                self.lets[sym] = (stmt.value, dict(env), dict(state.fields))
            return [state.copy(env={**env, stmt.name: sym})]
        if isinstance(stmt, ast.Roll):
            sym = ("var", id(stmt), stmt.var)
            self.rolls[sym] = (stmt.count, dict(env))
            return [state.copy(env={**env, stmt.var: sym})]
        if isinstance(stmt, ast.Set):
            target = stmt.target
            value = self.resolve(stmt.value, env, state.fields)
            key: Sym
            if isinstance(target, ast.Attr):
                key = ("field", self.resolve(target.obj, env, state.fields), target.name)
            elif isinstance(target, ast.Name) and target.id in self.p.global_fields:
                key = ("global", target.id)
            else:
                return [state]
            if value[0] == "opaque":
                value = ("var", id(stmt), "set")
            return [state.copy(fields={**state.fields, key: value})]
        if isinstance(stmt, (ast.EndTurn, ast.EndGame)):
            return [state.copy(ended=True)]
        if isinstance(stmt, ast.If):
            out = []
            negations: tuple = ()
            eqs: tuple = ()
            for condition, block in stmt.branches:
                fact, eq = self._condition(condition, True, state)
                out.extend(self._inner(block, state, negations + fact, eqs + eq))
                neg_fact, neg_eq = self._condition(condition, False, state)
                negations += neg_fact
                eqs += neg_eq
            if stmt.orelse is not None:
                out.extend(self._inner(stmt.orelse, state, negations, eqs))
            else:
                out.append(state.copy(facts=state.facts + negations, eq=state.eq + eqs))
            return out
        if isinstance(stmt, ast.Choose):
            out = []
            for option in stmt.options:
                facts, eq = self._condition(option.when, True, state) if option.when is not None else ((), ())
                out.extend(self._inner(option.body, state, facts, eq))
            return out or [state]
        if isinstance(stmt, ast.ChooseFor):
            sym = ("var", id(stmt), stmt.var)
            kind = self._collection_kind(stmt.collection)
            if kind:
                self.kinds_of[sym] = kind
                if self.collection_is_whole_kind(stmt):  # a filtered list already says which things
                    self.over_kind[sym] = kind
                    self.chosen_by.setdefault(sym, (self.resolve(stmt.by, env, state.fields), stmt))
            inner_env = {**env, stmt.var: sym}
            facts, eq = ((), ())
            if stmt.where is not None:
                facts = (Fact(stmt.where, True, inner_env, dict(state.fields)),)
                eq = tuple(self._equalities(stmt.where, True, state.copy(env=inner_env)))
            return self._inner(stmt.body, state, facts, eq, env=inner_env)
        if isinstance(stmt, ast.For):
            sym = ("var", id(stmt), stmt.var)
            kind = self._collection_kind(stmt.collection)
            if kind:
                self.kinds_of[sym] = kind
                if self.collection_is_whole_kind(stmt):
                    self.over_kind[sym] = kind
            return self._inner(stmt.body, state, env={**env, stmt.var: sym})
        if isinstance(stmt, ast.Auction):
            sym = ("var", id(stmt), stmt.var)
            inner_env = {**env, stmt.var: sym}
            out = self._inner(stmt.body, state, env=inner_env)
            if stmt.orelse is not None:
                out.extend(self._inner(stmt.orelse, state))
            else:
                out.append(state)
            if stmt.bluff is not None:
                out.extend(self._inner(stmt.bluff, state, env=inner_env))
            return out
        if isinstance(stmt, ast.RollAgain):
            sym = ("var", id(stmt), stmt.var)
            self.rolls[sym] = (stmt.count, dict(env))
            inner_env = {**env, stmt.var: sym}
            out = self._inner(stmt.body, state, env=inner_env)
            if stmt.too_many is not None:
                out.extend(self._inner(stmt.too_many, state, env=inner_env))
            return out
        if isinstance(stmt, ast.Do):
            proc = self.p.procedures.get(stmt.name)
            if proc is None or stmt.name in state.calls:
                return [state]
            inner_env = {"player": env["player"]} if "player" in env else {}
            for name in DEBT_NAMES:
                if name in env:
                    inner_env[name] = env[name]
            for (name, _t), arg in zip(proc.params, stmt.args):
                sym = self.resolve(arg, env, state.fields)
                if sym[0] in ("opaque", "lit"):
                    sym = ("var", id(arg), name)
                    self.lets[sym] = (arg, dict(env), dict(state.fields))
                    kind = self.kind_of_type(arg)
                    if kind:
                        self.kinds_of[sym] = kind
                elif sym in self.kinds_of:
                    pass
                inner_env[name] = sym
            inner = state.copy(env=inner_env, calls=state.calls + (stmt.name,))
            return [s.copy(env=env, facts=state.facts, eq=state.eq, calls=state.calls)
                    for s in self.run(proc.body, [inner])]
        return [state]

    def _collection_kind(self, collection) -> str | None:
        """The kind a loop or a choice ranges over, when it is the whole kind (`Property`) or its things."""
        if isinstance(collection, ast.Name) and (collection.id in self.p.kinds or collection.id in self.p.groups):
            return collection.id
        return self.kind_of_type(collection)

    def collection_is_whole_kind(self, node) -> bool:
        coll = getattr(node, "collection", None)
        return isinstance(coll, ast.Name) and coll.id in self.p.kinds


_CACHE: dict = {}


def flow_of(checked) -> Flow:
    """The walk of a checked program, made once for all the analyses that read it."""
    key = id(checked)
    cached = _CACHE.get(key)
    if cached is not None and cached[0] is checked:
        return cached[1]
    flow = Flow(checked)
    _CACHE.clear()
    _CACHE[key] = (checked, flow)
    return flow
