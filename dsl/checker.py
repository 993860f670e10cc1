"""The static checker: everything that can be known about a rules file without playing it.

It resolves every name (suggesting the nearest ones when a name is unknown), infers
and checks the type of every expression, checks tables against their kinds and the
board against the things, finds unreachable and unused declarations, and lists every
value marked `assumed`. It keeps going after an error so one run reports them all.
The inferred types are kept (`Checked.types`) for the interpreter's compiler.
"""

from __future__ import annotations

import difflib

import attrs

from . import ast
from . import types as T
from .diagnostics import Diagnostic, Span
from .model import Program, build_program
from .types import Type

PLAYER_BUILTINS = {"name": T.TEXT, "seat": T.COUNT, "out": T.BOOL, "position": T.SQUARE,
                   "owing": T.MONEY, "hand": T.list_of(Type("card")), "extra_turns": T.COUNT}
DECK_FIELDS = {"left": T.COUNT, "discarded": T.COUNT}
NARROWED_PLAYER = "$player"  # env key: account paths known to be a player (tested `!= bank`)
ROLL_FIELDS = {"total": T.COUNT, "doubles": T.BOOL, "faces": T.list_of(T.COUNT)}
SALE_FIELDS = {"winner": T.PLAYER, "price": T.MONEY}
KNOWN_SETTINGS = {"players", "start", "first player", "turn limit", "currency"}
FIRST_PLAYER_RULES = ("highest roll", "seat order")


@attrs.define
class Assumption:
    what: str
    note: str | None
    span: Span


@attrs.define
class Checked:
    """The result of a check: the program, its diagnostics, inferred types and assumptions."""

    program: Program
    diagnostics: list
    types: dict
    assumptions: list

    @property
    def ok(self) -> bool:
        return not any(d.is_error for d in self.diagnostics)


NARROWED = "$narrowed"  # env key: dotted paths known not to be `none` here


def _path(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attr):
        base = _path(node.obj)
        return f"{base}.{node.name}" if base else None
    return None


def _proven_paths(cond, truth: bool, is_other) -> set[str]:
    """Paths P that `cond` having this truth value proves differ from a value `is_other`
    accepts: `P != other` when true, `P == other` when false, through `not`, `and` and `or`."""
    if isinstance(cond, ast.Not):
        return _proven_paths(cond.operand, not truth, is_other)
    if isinstance(cond, ast.Compare) and cond.op == ("!=" if truth else "=="):
        for side, other in ((cond.left, cond.right), (cond.right, cond.left)):
            if is_other(other) and _path(side):
                return {_path(side)}
    if isinstance(cond, ast.BoolOp) and cond.op == ("and" if truth else "or"):
        return set().union(*(_proven_paths(o, truth, is_other) for o in cond.operands))
    return set()


def _is_none(node) -> bool:
    return isinstance(node, ast.Literal) and node.type == "none"


def _is_bank(node) -> bool:
    return isinstance(node, ast.Name) and node.id == "bank"


def narrow(env: dict, cond, truth: bool = True) -> dict:
    if cond is None:
        return env
    paths, players = _proven_paths(cond, truth, _is_none), _proven_paths(cond, truth, _is_bank)
    if paths:
        env = {**env, NARROWED: env.get(NARROWED, frozenset()) | paths}
    if players:
        env = {**env, NARROWED_PLAYER: env.get(NARROWED_PLAYER, frozenset()) | players}
    return env


def _nearest(name: str, candidates) -> str | None:
    matches = difflib.get_close_matches(name, list(candidates), n=3, cutoff=0.6)
    if not matches:
        return None
    return "did you mean " + " or ".join(f"`{m}`" for m in matches) + "?"


class Checker:
    def __init__(self, program: Program, diags: list[Diagnostic]):
        self.p = program
        self.diags = diags
        self._reported = set(diags)
        self.types: dict[int, Type] = {}
        self.assumptions: list[Assumption] = []
        self.used: set[str] = set()
        self.function_types: dict = {}
        self.scope: dict | None = None
        self.drawn_decks: set[str] = set()
        self.board_kinds = program.board_kinds

    # ---- reporting ---------------------------------------------------------------------
    def error(self, code, message, span, help=None):
        self._report(Diagnostic("error", code, message, span.file or self.p.path, span, help=help))

    def warn(self, code, message, span, help=None):
        self._report(Diagnostic("warning", code, message, span.file or self.p.path, span, help=help))

    def _report(self, diag: Diagnostic):
        # Some declarations are looked at more than once (a field's type, for the kind and for its
        # table); report each problem once.
        if diag not in self._reported:
            self._reported.add(diag)
            self.diags.append(diag)

    def assume(self, what: str, meta: ast.Meta, span: Span):
        if meta.assumed:
            self.assumptions.append(Assumption(what, meta.assumed_note, span))

    # ---- types of declarations ----------------------------------------------------------
    def resolve_type(self, ref: ast.TypeRef) -> Type:
        if ref.is_list:
            return Type("list", ref.optional, self.resolve_type(ref.element))
        if ref.name in T.BUILTIN or ref.name in self.p.kinds or ref.name in self.p.groups:
            return Type(ref.name, ref.optional)
        candidates = sorted(T.BUILTIN | set(self.p.kinds) | set(self.p.groups))
        self.error("R0201", f"unknown type `{ref.name}`", ref.span,
                   help=_nearest(ref.name, candidates) or f"types are {', '.join(candidates)}")
        return T.ANY

    def kind_fields(self, kind: str) -> dict[str, Type]:
        decl = self.p.kinds.get(kind)
        fields = {"name": T.TEXT}
        if decl is not None:
            for f in decl.fields:
                fields[f.name] = self.resolve_type(f.type)
        return fields

    def player_fields(self) -> dict[str, Type]:
        fields = dict(PLAYER_BUILTINS)
        for f in self.p.player_fields.values():
            fields[f.name] = self.resolve_type(f.type)
        return fields

    # ---- the global scope ------------------------------------------------------------------
    def global_scope(self) -> dict[str, Type]:
        scope: dict[str, Type] = {"players": T.list_of(T.PLAYER), "bank": T.ACCOUNT, "turn": T.COUNT,
                                  "current": T.PLAYER, "squares": T.list_of(T.SQUARE)}
        self.scope = scope  # functions called from parameters see the scope as it is being built
        earlier: dict[str, Type] = {}  # a parameter is a constant: it may use the parameters above it
        for name, param in self.p.params.items():
            scope[name] = earlier[name] = self.infer(param.value, dict(earlier))
        for name, f in self.p.global_fields.items():
            scope[name] = self.resolve_type(f.type)
        for name in self.p.kinds:
            scope[name] = T.list_of(Type(name))
        for name in self.p.groups:
            scope[name] = T.list_of(Type(name))
        for name in self.p.squares:
            scope[name] = T.SQUARE
        for name, thing in self.p.things.items():
            scope[name] = Type(thing.kind)
        for name in self.p.decks:
            scope[name] = Type("deck")
        return scope

    # ---- expressions ------------------------------------------------------------------------------
    def expect(self, node, expected: Type, env, what: str) -> Type:
        actual = self.infer(node, env)
        if T.compatible(expected, actual, self.board_kinds):
            return actual
        if actual.optional and T.compatible(expected, actual.required(), self.board_kinds):
            path = _path(node)
            self.error("R0305", f"{what} may be `none` here ({_a(actual)})", node.span,
                       help=f"check it first: `when {path} != none`, or `if {path} != none:`" if path
                       else "check that it is not `none` first")
        else:
            self.error("R0301", f"{what} must be {_a(expected)}, but this is {_a(actual)}", node.span)
        return actual

    def infer(self, node, env) -> Type:
        t = self._infer(node, env)
        if t.optional and _path(node) in env.get(NARROWED, ()):
            t = t.required()
        if t.name == "account" and _path(node) in env.get(NARROWED_PLAYER, ()):
            t = T.PLAYER
        self.types[id(node)] = t
        return t

    def element_of(self, coll: Type, node, what: str) -> Type:
        """The element type when iterating `coll`: a list's items, or a group's members."""
        if coll.is_list:
            return coll.element
        if coll.name in self.p.groups:
            return Type(self.p.groups[coll.name].kind)
        if coll.name != "any":
            self.error("R0301", f"{what} iterates over a list or a group; this is {_a(coll)}", node.span)
        return T.ANY

    def _infer(self, node, env) -> Type:
        if isinstance(node, ast.Literal):
            return Type(node.type)
        if isinstance(node, ast.Name):
            return self.lookup(node, env)
        if isinstance(node, ast.Attr):
            return self.attribute(node, env)
        if isinstance(node, ast.Index):
            base = self.infer(node.obj, env)
            self.expect(node.index, T.COUNT, env, "an index")
            if base.name == "any":
                return T.ANY
            if not base.is_list:
                self.error("R0302", f"only lists can be indexed; this is {_a(base)}", node.obj.span)
                return T.ANY
            return base.element
        if isinstance(node, ast.Call):
            return self.call(node, env)
        if isinstance(node, ast.Aggregate):
            return self.aggregate(node, env)
        if isinstance(node, ast.BinOp):
            return self.arithmetic(node, env)
        if isinstance(node, ast.Compare):
            left, right = self.infer(node.left, env), self.infer(node.right, env)
            if not T.comparable(left, right, self.board_kinds):
                self.error("R0303", f"cannot compare {_a(left)} with {_a(right)}", node.span)
            elif node.op not in ("==", "!=") and (left.name not in ("money", "count", "percent", "any")
                                                  or left.optional or right.optional):
                self.error("R0303", f"`{node.op}` compares numbers; this is {_a(left)}", node.span)
            return T.BOOL
        if isinstance(node, ast.BoolOp):
            for operand in node.operands:
                self.expect(operand, T.BOOL, env, f"each side of `{node.op}`")
                if node.op == "and":
                    env = narrow(env, operand)
            return T.BOOL
        if isinstance(node, ast.Not):
            self.expect(node.operand, T.BOOL, env, "the operand of `not`")
            return T.BOOL
        if isinstance(node, ast.Neg):
            t = self.infer(node.operand, env)
            if t.name not in ("money", "count", "any"):
                self.error("R0304", f"cannot negate {_a(t)}", node.span)
            return t
        if isinstance(node, ast.PercentOf):
            self.expect(node.percent, T.PERCENT, env, "the left of `of`")
            base = self.expect(node.base, T.MONEY, env, "the base of a percentage")
            return base if base.name == "money" else T.MONEY
        if isinstance(node, ast.ListExpr):
            items = [self.infer(i, env) for i in node.items]
            element = next((t for t in items if t.name != "none"), T.ANY)
            for item, t in zip(node.items, items):
                if not T.compatible(element.maybe(), t, self.board_kinds):
                    self.error("R0301", f"list items must all be {_a(element)}; this is {_a(t)}", item.span)
            return T.list_of(element)
        if isinstance(node, ast.Conditional):
            self.expect(node.condition, T.BOOL, env, "the condition of `if`")
            then = self.infer(node.then, narrow(env, node.condition))
            orelse = self.infer(node.orelse, narrow(env, node.condition, False))
            if not T.comparable(then, orelse, self.board_kinds):
                self.error("R0301", f"both branches must have one type; they are {_a(then)} and {_a(orelse)}", node.span)
            if then.name == "none":
                return orelse.maybe()
            return then.maybe() if orelse.name == "none" or orelse.optional else then
        raise TypeError(f"unknown expression node {node!r}")

    def lookup(self, node: ast.Name, env) -> Type:
        if node.id in env:
            self.used.add(node.id)
            return env[node.id]
        help = _nearest(node.id, env.keys())
        if node.id in ("player", "debtor", "creditor", "owed", "partner"):
            help = f"`{node.id}` is only defined where the rules have one (a turn, a handler, a card, an action)"
        self.error("R0205", f"unknown name `{node.id}`", node.span, help=help)
        return T.ANY

    def attribute(self, node: ast.Attr, env) -> Type:
        base = self.infer(node.obj, env)
        if base.name == "any":
            return T.ANY
        if base.name == "player":
            fields = self.player_fields()
        elif base.name == "roll":
            fields = ROLL_FIELDS
        elif base.name == "sale":
            fields = SALE_FIELDS
        elif base.name in self.p.kinds or base.name in self.p.groups:
            fields = self.kind_fields(base.name)
        elif base.name == "square":
            fields = {"name": T.TEXT}
        elif base.name == "deck":
            fields = dict(DECK_FIELDS)
            deck = self.p.decks.get(node.obj.id) if isinstance(node.obj, ast.Name) else None
            if deck is not None:
                fields.update({c.name: Type("card") for c in deck.cards})
        elif base.name == "card":
            fields = {"name": T.TEXT}
        else:
            self.error("R0306", f"{_a(base)} has no fields", node.span)
            return T.ANY
        if node.name not in fields:
            self.error("R0206", f"{_a(base)} has no field `{node.name}`", node.span,
                       help=_nearest(node.name, fields) or f"its fields are {', '.join(f'`{f}`' for f in fields)}")
            return T.ANY
        t = fields[node.name]
        return t.maybe() if base.optional else t

    def call(self, node: ast.Call, env) -> Type:
        args = [self.infer(a, env) for a in node.args]
        if node.func == "count":
            if len(args) != 1:
                self.error("R0307", f"`count` takes 1 argument, not {len(args)}", node.span)
            elif not args[0].is_list and args[0].name != "any":
                self.error("R0301", f"`count` counts a list; this is {_a(args[0])}", node.args[0].span)
            return T.COUNT
        if node.func in ("min", "max"):
            if len(args) < 2:
                self.error("R0307", f"`{node.func}` takes 2 or more arguments, or an aggregate `{node.func}(x in list: …)`",
                           node.span)
                return T.ANY
            for a, t in zip(node.args[1:], args[1:]):
                if not T.comparable(args[0], t, self.board_kinds):
                    self.error("R0301", f"`{node.func}` needs arguments of one type", a.span)
            return args[0]
        if node.func == "ahead":
            if len(args) != 1:
                self.error("R0307", f"`ahead` takes 1 argument, not {len(args)}", node.span)
            else:
                self.expect(node.args[0], T.PLAYER, env, "the argument of `ahead`")
            return T.list_of(T.SQUARE)
        if node.func == "holds":
            if len(args) != 2:
                self.error("R0307", f"`holds` takes 2 arguments (a player and a card), not {len(args)}", node.span)
            else:
                self.expect(node.args[0], T.PLAYER, env, "who holds")
                self.expect(node.args[1], Type("card"), env, "the card held")
            return T.BOOL
        if node.func in ("even", "odd"):
            if len(args) != 1:
                self.error("R0307", f"`{node.func}` takes 1 argument, not {len(args)}", node.span)
            else:
                self.expect(node.args[0], T.COUNT, env, f"the argument of `{node.func}`")
            return T.BOOL
        define = self.p.defines.get(node.func)
        if define is not None:
            self.check_arguments(node.func, define.params, node.args, node.span, env)
            return self.function_type(define)
        builtins = ["count", "min", "max", "even", "odd", "ahead", "holds", "all", "any", "sum", "first", "best",
                    "list"]
        self.error("R0208", f"unknown function `{node.func}`", node.span,
                   help=_nearest(node.func, builtins + list(self.p.defines))
                   or "functions are " + ", ".join(f"`{b}`" for b in builtins) + " and those you `define`")
        return T.ANY

    def check_arguments(self, name: str, params, args, span, env) -> None:
        """A call of a `define` or a `procedure`: the right number of arguments, each of its type."""
        if len(args) != len(params):
            for a in args:
                self.infer(a, env)
            self.error("R0307", f"`{name}` takes {len(params)} argument{'' if len(params) == 1 else 's'}, "
                       f"not {len(args)}", span)
            return
        for arg, (pname, ptype) in zip(args, params):
            self.expect(arg, self.resolve_type(ptype), env, f"`{pname}` of `{name}`")

    def function_type(self, define: ast.Define) -> Type:
        """The type of a `define`d function's value, inferred once (recursion is refused)."""
        if define.name in self.function_types:
            t = self.function_types[define.name]
            if t is None:
                self.error("R0209", f"`{define.name}` calls itself; functions may not recurse", define.span)
                return T.ANY
            return t
        self.function_types[define.name] = None
        env = dict(self.scope) if self.scope is not None else {}
        for pname, ptype in define.params:
            env[pname] = self.resolve_type(ptype)
        t = self.infer(define.value, env)
        self.function_types[define.name] = t
        return t

    def aggregate(self, node: ast.Aggregate, env) -> Type:
        coll = self.infer(node.collection, env)
        element = self.element_of(coll, node.collection, f"`{node.func}`")
        inner = {**env, node.var: element}
        if node.where is not None:
            self.expect(node.where, T.BOOL, inner, "a `where` filter")
        if node.func == "list":
            if node.body is None:
                return T.list_of(element)
            return T.list_of(self.infer(node.body, inner))
        if node.func == "first":
            if node.body is not None:
                self.expect(node.body, T.BOOL, inner, "the condition of `first`")
            return element.maybe()
        if node.func == "best":
            if node.body is None:
                self.error("R0307", "`best(x in list: score)` needs a score", node.span)
            else:
                t = self.infer(node.body, inner)
                if t.name not in ("money", "count", "any"):
                    self.error("R0301", f"`best` ranks by money or a count; this is {_a(t)}", node.body.span)
            return element.maybe()
        if node.func in ("all", "any"):
            if node.body is None:
                self.error("R0307", f"`{node.func}(x in list: condition)` needs a condition", node.span)
                return T.BOOL
            self.expect(node.body, T.BOOL, inner, f"the condition of `{node.func}`")
            return T.BOOL
        if node.func == "count":
            if node.body is not None:
                self.expect(node.body, T.BOOL, inner, "the condition of `count`")
            return T.COUNT
        if node.body is None:
            self.error("R0307", f"`{node.func}(x in list: value)` needs a value", node.span)
            return T.ANY
        t = self.infer(node.body, inner)
        if t.name not in ("money", "count", "any"):
            self.error("R0301", f"`{node.func}` needs money or a count; this is {_a(t)}", node.body.span)
            return T.ANY
        return t

    def arithmetic(self, node: ast.BinOp, env) -> Type:
        left, right = self.infer(node.left, env), self.infer(node.right, env)
        if "any" in (left.name, right.name):
            return left if right.name == "any" else right
        if left.optional or right.optional:
            self.error("R0305", f"`{node.op}` on a value that may be `none` ({_a(left)}, {_a(right)})", node.span,
                       help="check it first: `if x != none then x … else …`")
            return left.required()
        pair = (left.name, right.name)
        if node.op in "+-":
            if pair in (("money", "money"), ("count", "count")):
                return left
        elif node.op == "*":
            if pair in (("money", "count"), ("count", "money")):
                return T.MONEY
            if pair == ("count", "count"):
                return T.COUNT
        elif node.op == "/":
            if pair in (("money", "count"), ("count", "count")):
                return left
        help = None
        if "money" in pair and "count" in pair and node.op in "+-":
            help = "write amounts of money with `$`, e.g. `$10`"
        self.error("R0305", f"cannot compute {_a(left)} {node.op} {_a(right)}", node.span, help=help)
        return T.ANY

    # ---- statements --------------------------------------------------------------------------------
    def block(self, block: ast.Block, env, context: str) -> dict:
        env = dict(env)
        ended = False
        for stmt in block.statements:
            if ended:
                self.warn("R0401", "this statement can never run: the turn has already ended", stmt.span,
                          help="remove it, or move it before `end turn`")
                ended = False
            env = self.statement(stmt, env, context)
            if isinstance(stmt, (ast.EndTurn, ast.EndGame)):
                ended = True
        return env

    def statement(self, s, env, context: str) -> dict:
        meta = getattr(s, "meta", ast.NO_META)
        self.assume(f"{type(s).__name__.lower()} statement", meta, s.span)
        if isinstance(s, ast.Roll):
            self.expect(s.count, T.COUNT, env, "the number of dice")
            return {**env, s.var: T.ROLL}
        if isinstance(s, ast.Move):
            self.expect(s.who, T.PLAYER, env, "who moves")
            if s.how in ("to", "send", "place"):
                self.expect(s.amount, T.SQUARE, env, "where a player moves to")
            else:
                self.expect(s.amount, T.COUNT, env, "how far a player moves")
            return env
        if isinstance(s, ast.Pay):
            self.expect(s.amount, T.MONEY, env, "an amount paid")  # `expect` reports a `money?` (R0305)
            self.expect(s.source, T.ACCOUNT, env, "who pays")
            self.expect(s.target, T.ACCOUNT, env, "who is paid")
            return env
        if isinstance(s, ast.Set):
            if not isinstance(s.target, (ast.Attr, ast.Name)):
                self.error("R0308", "only a field or a global can be set", s.target.span)
                return env
            if isinstance(s.target, ast.Name) and s.target.id not in self.p.global_fields:
                self.error("R0308", f"`{s.target.id}` is not a global field; only fields and globals can be set",
                           s.target.span, help="use `let` for a local name")
                return env
            if isinstance(s.target, ast.Attr):
                base = self.infer(s.target.obj, env)
                if base.name in self.p.kinds:
                    decl = self.p.kinds[base.name]
                    f = next((f for f in decl.fields if f.name == s.target.name), None)
                    if f is not None and not f.is_state:
                        self.error("R0309", f"`{s.target.name}` is fixed data of `{base.name}`, not state", s.target.span,
                                   help=f"declare it `state {f.name}: …` in kind `{base.name}` to change it during play")
                elif base.name == "player" and s.target.name in PLAYER_BUILTINS:
                    self.error("R0309", f"`{s.target.name}` of a player is kept by the engine", s.target.span,
                               help="the engine keeps it: `move`, `eliminate`, `draw`, `extra turn` and debts change it")
            declared = {k: v for k, v in env.items() if k != NARROWED}  # a field keeps its declared type
            target = self.infer(s.target, declared)
            self.expect(s.value, target, env, "the value set")
            return env
        if isinstance(s, ast.Let):
            return {**env, s.name: self.infer(s.value, env)}
        if isinstance(s, (ast.ExtraTurn, ast.UseCard, ast.Window)):
            self.expect(s.who, T.PLAYER, env, "the player")
            return env
        if isinstance(s, ast.Do):
            proc = self.p.procedures.get(s.name)
            if proc is None:
                for a in s.args:
                    self.infer(a, env)
                self.error("R0205", f"unknown procedure `{s.name}`", s.span,
                           help=_nearest(s.name, self.p.procedures) or "declare it with `procedure NAME(...):`")
            else:
                self.check_arguments(s.name, proc.params, s.args, s.span, env)
            return env
        if isinstance(s, (ast.DiscardHeld, ast.PlayCard)):
            self.expect(s.card, Type("card"), env, "the card")
            self.expect(s.who, T.PLAYER, env, "the player")
            if getattr(s, "to", None) is not None:
                self.expect(s.to, T.PLAYER, env, "who receives the card")
            return env
        if isinstance(s, ast.ChooseFor):
            self.expect(s.by, T.PLAYER, env, "who chooses")
            coll = self.infer(s.collection, env)
            inner = {**env, s.var: self.element_of(coll, s.collection, "`choose … for`")}
            if s.where is not None:
                self.expect(s.where, T.BOOL, inner, "a `where` filter")
            self.block(s.body, narrow(inner, s.where), context)
            return env
        if isinstance(s, (ast.Draw, ast.Discard)):
            if s.deck not in self.p.decks:
                self.error("R0205", f"unknown deck `{s.deck}`", s.deck_span, help=_nearest(s.deck, self.p.decks))
            self.drawn_decks.add(s.deck)
            return env
        if isinstance(s, ast.Eliminate):
            self.expect(s.who, T.PLAYER, env, "who is eliminated")
            return env
        if isinstance(s, (ast.EndTurn, ast.RaiseCash)):
            if isinstance(s, ast.RaiseCash) and context != "debt":
                self.error("R0408", "`raise cash` is only meaningful in `on debt`", s.span,
                           help="`raise cash` lets a debtor sell and borrow; put it in `on debt:`")
            return env
        if isinstance(s, ast.EndGame):
            self.expect(s.winner, T.PLAYER.maybe(), env, "the winner")
            return env
        if isinstance(s, ast.If):
            branch_env = env
            for cond, body in s.branches:
                self.expect(cond, T.BOOL, branch_env, "a condition")
                self.block(body, narrow(branch_env, cond), context)
                branch_env = narrow(branch_env, cond, False)  # later branches know this one was false
            if s.orelse is not None:
                self.block(s.orelse, branch_env, context)
            return env
        if isinstance(s, ast.For):
            coll = self.infer(s.collection, env)
            element = self.element_of(coll, s.collection, "`for`")
            self.block(s.body, {**env, s.var: element}, context)
            return env
        if isinstance(s, ast.Auction):
            self.infer(s.thing, env)
            self.expect(s.minimum, T.MONEY, env, "the opening bid")
            if s.among is not None:
                self.expect(s.among, T.list_of(T.PLAYER), env, "the bidders")
            self.block(s.body, {**env, s.var: T.SALE}, context)
            if s.orelse is not None:
                self.block(s.orelse, env, context)
            return env
        if isinstance(s, ast.Choose):
            self.expect(s.by, T.PLAYER, env, "who chooses")
            names = set()
            for opt in s.options:
                if opt.name in names:
                    self.error("R0202", f"option `{opt.name}` is given twice", opt.span)
                names.add(opt.name)
                if opt.when is not None:
                    self.expect(opt.when, T.BOOL, env, "an option's condition")
                self.block(opt.body, narrow(env, opt.when), context)
            return env
        raise TypeError(f"unknown statement {s!r}")

    # ---- declarations -------------------------------------------------------------------------------
    def run(self) -> None:
        p = self.p
        scope = self.global_scope()
        self.scope = scope
        self.check_header(scope)
        for define in p.defines.values():
            self.assume(f"function `{define.name}`", define.meta, define.span)
            self.function_type(define)
        for proc in p.procedures.values():
            self.assume(f"procedure `{proc.name}`", proc.body.meta, proc.span)
            env = {**scope, **{pname: self.resolve_type(ptype) for pname, ptype in proc.params}}
            self.block(proc.body, env, "procedure")
        for name, param in p.params.items():
            self.assume(f"param `{name}`", param.meta, param.span)
        if p.bank is not None:
            self.assume("bank", p.bank.meta, p.bank.span)
            if p.bank.amount is not None:
                self.expect(p.bank.amount, T.MONEY, scope, "the bank's money")
        self.check_fields(p.player_fields.values(), scope, "player")
        if "cash" not in p.player_fields:
            self.error("R0501", "players have no `cash: money` field", p.game.span if p.game else Span(1, 1, 1, 2),
                       help="add `player:` with `cash: money = $…`")
        self.check_fields(p.global_fields.values(), scope, "global")
        for kind in p.kinds.values():
            self.assume(f"kind `{kind.name}`", kind.meta, kind.span)
            self.check_fields(kind.fields, scope, kind.name)
        for group in p.groups.values():
            self.assume(f"group `{group.name}`", group.meta, group.span)
            if group.kind not in p.kinds:
                self.error("R0205", f"unknown kind `{group.kind}`", group.span, help=_nearest(group.kind, p.kinds))
            elif not any(self.resolve_type(f.type).name == group.name for f in p.kinds[group.kind].fields):
                self.warn("R0405", f"no field of kind `{group.kind}` has type `{group.name}`, so the group has no members",
                          group.span, help=f"add `{group.name.lower()}: {group.name}` to kind `{group.kind}`")
        self.check_tables(scope)
        self.check_board()
        self.check_decks(scope)
        self.check_turn(scope)
        self.check_handlers(scope)
        self.check_actions(scope)
        self.check_ends(scope)
        self.check_scenarios(scope)
        self.check_unused()

    def check_header(self, scope):
        p = self.p
        for ext in p.extends:
            self.error("R0506", "`extends` is resolved when a file is loaded, not by the checker", ext.span,
                       help="load the file with `rulesc.dsl.variants.load_file`, as `rulesc` does")
        if p.game is None:
            self.error("R0502", "the file has no `game` header", Span(1, 1, 1, 2),
                       help='start the file with `game "Name":` and its settings')
            return
        self.assume("game header", p.game.meta, p.game.span)
        for key, setting in p.settings.items():
            self.assume(f"setting `{key}`", setting.meta, setting.span)
            if key not in KNOWN_SETTINGS:
                self.error("R0503", f"unknown setting `{key}`", setting.span,
                           help=_nearest(key, KNOWN_SETTINGS) or f"settings are {', '.join(sorted(KNOWN_SETTINGS))}")
            elif key == "players":
                if isinstance(setting.value, tuple) or setting.upper is None:
                    self.error("R0504", "`players` is a range like `2 to 6`", setting.span)
                else:
                    self.expect(setting.value, T.COUNT, scope, "the fewest players")
                    self.expect(setting.upper, T.COUNT, scope, "the most players")
            elif key == "start":
                if not isinstance(setting.value, ast.Name):
                    self.error("R0504", "`start` names a square", setting.span)
                else:
                    self.expect(setting.value, T.SQUARE, scope, "the start")
            elif key == "first player":
                words = " ".join(setting.value) if isinstance(setting.value, tuple) else ""
                if not any(words.startswith(rule) for rule in FIRST_PLAYER_RULES):
                    self.error("R0504", "`first player` is `highest roll N dice` or `seat order`", setting.span)
            elif key == "turn limit":
                if isinstance(setting.value, tuple):
                    self.error("R0504", "`turn limit` is a number", setting.span)
                else:
                    self.expect(setting.value, T.COUNT, scope, "the turn limit")
        if "start" not in p.settings:
            self.error("R0505", "the game header has no `start:` square", p.game.span,
                       help="add `start: NAME` naming the square where tokens begin")

    def check_fields(self, fields, scope, owner: str):
        for f in fields:
            self.assume(f"{owner}.{f.name}", f.meta, f.span)
            if owner == "player" and f.name in PLAYER_BUILTINS:
                self.error("R0203", f"`{f.name}` is a built-in field of every player and cannot be declared", f.span,
                           help="remove this line; the engine keeps it" + (
                               " (the start square is the header's `start:`)" if f.name == "position" else ""))
            t = self.resolve_type(f.type)
            if f.default is not None:
                self.expect(f.default, t, scope, f"the default of `{f.name}`")
            elif f.is_state and not t.optional and owner not in ("player", "global"):
                self.error("R0507", f"state `{f.name}` needs a default value", f.span, help=f"e.g. `state {f.name}: {t} = …`")

    def check_tables(self, scope):
        p = self.p
        for kind, tables in p.tables.items():
            for table in tables:
                self.assume(f"table `{kind}`", table.meta, table.span)
                if kind not in p.kinds:
                    self.error("R0205", f"unknown kind `{kind}`", table.span, help=_nearest(kind, p.kinds))
                    continue
                fixed = [f for f in p.kinds[kind].fields if not f.is_state]
                fixed_names = [f.name for f in fixed]
                columns = [c.id for c in table.columns]
                if columns and columns[0] != "name":
                    self.error("R0601", "a table's first column is `name`", table.columns[0].span)
                for col in table.columns[1:]:
                    if col.id not in fixed_names:
                        self.error("R0602", f"kind `{kind}` has no fixed field `{col.id}`", col.span,
                                   help=_nearest(col.id, fixed_names) or f"its fixed fields are {', '.join(fixed_names)}")
                for name in fixed_names:
                    if name not in columns:
                        self.error("R0603", f"table `{kind}` has no column for field `{name}`", table.span)
                types = {f.name: self.resolve_type(f.type) for f in fixed}
                for row in table.rows:
                    if len(row.cells) != len(columns) - 1:
                        self.error("R0604", f"row `{row.name}` has {_n(len(row.cells), 'value')} for {_n(len(columns) - 1, 'column')}",
                                   row.span)
                        continue
                    for col, cell in zip(columns[1:], row.cells):
                        if col in types:
                            self.expect(cell, types[col], scope, f"`{col}` of `{row.name}`")
                    for col in row.assumed_columns or ():
                        if col not in columns:
                            self.error("R0602", f"`assumed {col}`: table `{kind}` has no column `{col}`", row.span)
                    thing = p.things.get(row.name)
                    if thing is not None and thing.assumed:
                        note = ", ".join(thing.assumed)
                        self.assumptions.append(Assumption(f"{kind} `{row.name}`: {note}", None, row.span))

    def check_board(self):
        p = self.p
        if p.board is None:
            self.error("R0701", "the file has no `board`", p.game.span if p.game else Span(1, 1, 1, 2),
                       help="add `board:` listing the squares in order")
            return
        self.assume("board", p.board.meta, p.board.span)
        seen: dict[str, Span] = {}
        for sq in p.board.squares:
            if sq.id in p.things:
                if sq.id in seen:
                    self.error("R0702", f"`{sq.id}` is on the board twice", sq.span)
                seen[sq.id] = sq.span
            elif sq.id in p.squares and p.squares[sq.id].off_board:
                self.error("R0704", f"`{sq.id}` is declared `off board`, so it cannot be on the board", sq.span,
                           help="remove it from `board:`; tokens reach it with `move … to`")
            elif sq.id not in p.squares:
                self.error("R0205", f"unknown square `{sq.id}`", sq.span,
                           help=_nearest(sq.id, list(p.squares) + list(p.things)) or "declare it with `square NAME`")
        for name, thing in p.things.items():
            if thing.kind in self.board_kinds and name not in seen:
                self.error("R0703", f"`{name}` ({thing.kind}) is not on the board", thing.span,
                           help=f"every {thing.kind} must be on the board once")
        for name, sq in p.squares.items():
            if not sq.off_board and not any(s.id == name for s in p.board.squares):
                self.warn("R0404", f"square `{name}` is declared but not on the board", sq.span,
                          help="add it to `board:`, or declare it `off board` if tokens reach it only by `move … to`")
            self.assume(f"square `{name}`", sq.meta, sq.span)

    def check_decks(self, scope):
        for deck in self.p.decks.values():
            self.assume(f"deck `{deck.name}`", deck.meta, deck.span)
            for card in deck.cards:
                self.assume(f"card `{deck.name}.{card.name}`", card.body.meta, card.span)
                if card.keep and deck.policy == "cut":
                    self.error("R0904", f"card `{card.name}` is kept, but a `cut` deck never gives its cards away",
                               card.span, help="kept cards come from `reshuffle` or `once` decks")
                self.block(card.body, {**scope, "player": T.PLAYER}, "card")

    def check_turn(self, scope):
        p = self.p
        if p.turn is None:
            self.error("R0801", "the file has no `turn`", p.game.span if p.game else Span(1, 1, 1, 2),
                       help="add `turn:` with at least one `phase`")
            return
        env = {**scope, "player": T.PLAYER}
        names = set()
        for phase in p.turn.phases:
            self.assume(f"phase `{phase.name}`", phase.body.meta, phase.span)
            if phase.name in names:
                self.error("R0202", f"phase `{phase.name}` is defined more than once", phase.span)
            names.add(phase.name)
            if phase.when is not None:
                self.expect(phase.when, T.BOOL, env, "a phase's condition")
                if isinstance(phase.when, ast.Literal) and phase.when.value is False:
                    self.warn("R0402", f"phase `{phase.name}` can never run: its condition is `false`", phase.span)
            self.block(phase.body, env, "turn")
        for i, phase in enumerate(p.turn.phases[:-1]):
            last = phase.body.statements[-1]
            if isinstance(last, (ast.EndTurn, ast.EndGame)) and phase.when is None:
                for later in p.turn.phases[i + 1:]:
                    self.warn("R0402", f"phase `{later.name}` can never run: phase `{phase.name}` always ends the turn",
                              later.span)
                break

    def check_handlers(self, scope):
        p = self.p
        for h in p.handlers:
            self.assume(f"on {h.event}{' ' + h.target if h.target else ''}", h.body.meta, h.span)
            env = {**scope, "player": T.PLAYER}
            if h.event in ("land", "pass"):
                if h.target is None:
                    self.error("R0901", f"`on {h.event}` needs a square or a kind", h.span,
                               help=f"e.g. `on {h.event} Start:` or `on {h.event} Property p:`")
                elif h.target in p.kinds:
                    if h.var is None:
                        self.error("R0902", f"`on {h.event} {h.target}` needs a name for the thing", h.target_span,
                                   help=f"e.g. `on {h.event} {h.target} x:`")
                    else:
                        env[h.var] = Type(h.target)
                    if h.target not in self.board_kinds:
                        self.warn("R0403", f"no `{h.target}` is on the board, so this handler never runs", h.target_span)
                elif h.target in p.squares:
                    if (p.board is not None and not p.squares[h.target].off_board
                            and not any(s.id == h.target for s in p.board.squares)):
                        self.warn("R0403", f"square `{h.target}` is not on the board, so this handler never runs",
                                  h.target_span)
                elif h.target in p.things:
                    pass
                else:
                    self.error("R0205", f"unknown square or kind `{h.target}`", h.target_span,
                               help=_nearest(h.target, list(p.squares) + list(p.kinds) + list(p.things)))
                    if h.var is not None:
                        env[h.var] = T.ANY  # already reported: don't report every use of the name too
            elif h.target is not None:
                self.error("R0901", f"`on {h.event}` takes no square or kind", h.target_span,
                           help=f"write `on {h.event}:`; it applies to every player")
            if h.event == "debt":
                env.update(debtor=T.PLAYER, creditor=T.ACCOUNT, owed=T.MONEY)
            if h.when is not None:
                self.expect(h.when, T.BOOL, env, "a handler's condition")
            self.block(h.body, narrow(env, h.when), h.event)
        for hook in p.hooks:
            self.assume(f"{hook.which} turn", hook.body.meta, hook.span)
            env = {**scope, "player": T.PLAYER}
            if hook.when is not None:
                self.expect(hook.when, T.BOOL, env, "a hook's condition")
            self.block(hook.body, env, "turn")

    def check_actions(self, scope):
        p = self.p
        for action in p.actions.values():
            self.assume(f"action `{action.name}`", action.body.meta, action.span)
            env = {**scope, "player": T.PLAYER}
            if action.param is not None:
                var, kind = action.param
                if kind not in p.kinds and kind not in p.groups:
                    self.error("R0205", f"unknown kind `{kind}`", action.span, help=_nearest(kind, p.kinds))
                env[var] = Type(kind)
            if action.when is not None:
                self.expect(action.when, T.BOOL, env, "an action's condition")
            self.block(action.body, narrow(env, action.when), "action")
        if p.trade is not None:
            self.assume("trade", p.trade.meta, p.trade.span)
            for k in p.trade.kinds:
                if k.id not in p.kinds:
                    self.error("R0205", f"unknown kind `{k.id}`", k.span, help=_nearest(k.id, p.kinds))
                elif not any(f.name == "owner" and f.is_state for f in p.kinds[k.id].fields):
                    self.error("R0903", f"kind `{k.id}` has no `state owner: player?`, so it cannot be traded", k.span)
            if p.trade.when is not None:
                self.expect(p.trade.when, T.BOOL, {**scope, "player": T.PLAYER, "partner": T.PLAYER},
                            "a trade's condition")
        for name, hint in p.hints.items():
            env = dict(scope)
            if name not in ("worth", "reserve"):
                env["player"] = T.PLAYER  # a preference among options is the chooser's
            if hint.param is not None:
                var, kind = hint.param
                if kind not in p.kinds and kind not in p.groups and kind not in T.BUILTIN:
                    self.error("R0205", f"unknown kind `{kind}`", hint.span,
                               help=_nearest(kind, list(p.kinds) + sorted(T.BUILTIN)))
                    kind = "any"
                env[var] = Type(kind)
            t = self.infer(hint.value, env)
            if name in ("worth", "reserve") and t.name not in ("money", "any"):
                self.error("R0301", f"hint `{name}` must be money; this is {_a(t)}", hint.value.span)
        for inv in p.invariants:
            self.expect(inv.condition, T.BOOL, scope, "an invariant")

    def check_ends(self, scope):
        for end in self.p.ends:
            self.expect(end.condition, T.BOOL, scope, "an end condition")
            self.expect(end.winner, T.PLAYER.maybe(), scope, "the winner")
        if not self.p.ends:
            self.warn("R0406", "the game has no `end when`; only the turn limit will end it",
                      self.p.game.span if self.p.game else Span(1, 1, 1, 2))

    def check_scenarios(self, scope):
        for scenario in self.p.scenarios:
            self.assume(f"scenario \"{scenario.title}\"", scenario.meta, scenario.span)
            env = dict(scope)
            env["winner"] = T.PLAYER.maybe()
            env["game_over"] = T.BOOL
            for item in scenario.items:
                if isinstance(item, ast.ScenarioPlayers):
                    for n in item.names:
                        env[n.id] = T.PLAYER
                elif isinstance(item, ast.ScenarioAs):
                    self.need_player(item.player, env, item.span)
                    self.block(item.body, {**env, "player": T.PLAYER}, "turn")
                elif isinstance(item, ast.ScenarioTurn):
                    self.need_player(item.player, env, item.span)
                elif isinstance(item, ast.ScenarioExpect):
                    self.expect(item.condition, T.BOOL, env, "an expectation")
                elif isinstance(item, ast.Set):
                    self.statement(item, env, "scenario")
                elif isinstance(item, ast.ScenarioCards):
                    deck = self.p.decks.get(item.deck)
                    if deck is None:
                        self.error("R0205", f"unknown deck `{item.deck}`", item.span, help=_nearest(item.deck, self.p.decks))
                    else:
                        cards = {c.name for c in deck.cards}
                        for c in item.cards:
                            if c.id not in cards:
                                self.error("R0205", f"deck `{item.deck}` has no card `{c.id}`", c.span,
                                           help=_nearest(c.id, cards))
                elif isinstance(item, ast.ScenarioAction):
                    self.need_player(item.player, env, item.span)
                    action = self.p.actions.get(item.action)
                    if action is None:
                        self.error("R0205", f"unknown action `{item.action}`", item.span,
                                   help=_nearest(item.action, self.p.actions))
                    elif (action.param is None) != (item.argument is None):
                        self.error("R0307", f"action `{item.action}` takes {'one argument' if action.param else 'no argument'}",
                                   item.span)
                    elif item.argument is not None:
                        self.expect(item.argument, Type(action.param[1]), env, "the action's argument")
                elif isinstance(item, ast.ScenarioAnswer):
                    self.need_player(item.player, env, item.span)
                    for v in item.values:
                        if not isinstance(v, ast.Name):  # a bare name is an option's name
                            self.infer(v, env)
                elif isinstance(item, ast.ScenarioDice):
                    for faces in item.rolls:
                        if any(not 1 <= f <= 6 for f in faces):
                            self.error("R0310", f"a die shows 1 to 6, not {' '.join(map(str, faces))}", item.span)

    def need_player(self, name: str, env, span):
        if env.get(name) != T.PLAYER:
            self.error("R0205", f"unknown player `{name}`", span, help="name the players first: `players Ann, Bob`")

    def check_unused(self):
        for name, param in self.p.params.items():
            if name not in self.used:
                self.warn("R0404", f"parameter `{name}` is never used", param.span)
        for name, deck in self.p.decks.items():
            if name not in self.drawn_decks:
                self.warn("R0404", f"deck `{name}` is never drawn from", deck.span)


def _n(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _a(t: Type) -> str:
    text = str(t)
    if t.name == "any":
        return "an unknown type"
    if t.name == "none":
        return "`none`"
    article = "an" if text[0] in "aeiou" else "a"
    return f"{article} `{text}`"


def check_program(rules: ast.RulesFile) -> Checked:
    program, diags = build_program(rules)
    checker = Checker(program, diags)
    checker.run()
    diags.sort(key=lambda d: (d.span.line if d.span else 0, d.span.column if d.span else 0))
    return Checked(program, diags, checker.types, checker.assumptions)
