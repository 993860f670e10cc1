"""Types and names: the checker's half that reads expressions and statements.

`TypeChecker` resolves every name (suggesting the nearest ones when a name is unknown),
infers the type of every expression and checks it where a statement needs one (money for
`pay`, a player for `move`, a bool for `if`), narrowing optional types where a test proves
a value is not `none` (or an account not the bank). It records each inferred type for the
interpreter's compiler. The declarations' own checks build on it in `checker.py`.
"""

from __future__ import annotations

import attrs

from . import ast, codes, fixes
from . import types as T
from .builtins import (ACCOUNT_FIELDS, BUILTIN_TYPES, NAME_FIELDS, CONTEXT_NAMES, DECK_FIELDS, ENGINE_VALUES, FUNCTIONS, AGGREGATES,
                       GLOBAL_NAMES, MOVE_NAMES, PLAYER_FIELDS, BID_NAMES, ROLL_FIELDS, SALE_FIELDS, SUPPLY_FIELDS)
from .diagnostics import MAYBE_INCORRECT, Diagnostic, Label, Span
from .model import Program
from .types import Type

NARROWED_PLAYER = "$player"  # env key: account path -> the accounts it was tested to differ from (`!= bank`)


@attrs.define
class Assumption:
    what: str
    note: str | None
    span: Span


NARROWED = "$narrowed"  # env key: dotted paths known not to be `none` here


def _path(node) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attr):
        base = _path(node.obj)
        return f"{base}.{node.name}" if base else None
    return None


DEFINES = "$defines"  # env key: the file's functions, for `narrow` to see through a call of one


def _proven_unequal(cond, truth: bool, defines=None, depth: int = 0) -> set[tuple[str, str]]:
    """Pairs (P, other) that `cond` having this truth value proves differ, `other` being `none` or a
    name (`bank`, a global): `P != other` when true, `P == other` when false, through `not`, `and`
    and `or`, and through a call of a `define` (what its body proves of its parameters, it proves of
    the arguments: `define owned(p: Street) = p.owner != none`, then `when owned(s)` narrows `s.owner`)."""
    defines = defines or {}
    if isinstance(cond, ast.Not):
        return _proven_unequal(cond.operand, not truth, defines, depth)
    if isinstance(cond, ast.Call) and cond.func in defines and depth < 8:
        define = defines[cond.func]
        if len(define.params) != len(cond.args):
            return set()
        paths: dict[str, str | None] = {name: _path(arg) for (name, _), arg in zip(define.params, cond.args)}
        out = set()
        for proven, unequal in _proven_unequal(define.value, truth, defines, depth + 1):
            head, _, rest = proven.partition(".")
            arg_path = paths.get(head, head)
            arg_other = paths.get(unequal, unequal)
            if arg_path is not None and arg_other is not None:  # (an argument that is no name or field path proves nothing)
                out.add((arg_path + ("." + rest if rest else ""), arg_other))
        return out
    if isinstance(cond, ast.Compare) and cond.op == ("!=" if truth else "=="):
        for side, other in ((cond.left, cond.right), (cond.right, cond.left)):
            path = _path(side)
            if path and _is_none(other):
                return {(path, "none")}
            if path and isinstance(other, ast.Name):
                return {(path, other.id)}
    if isinstance(cond, ast.BoolOp) and cond.op == ("and" if truth else "or"):
        return set().union(*(_proven_unequal(o, truth, defines, depth) for o in cond.operands))
    return set()


def _is_none(node) -> bool:
    return isinstance(node, ast.Literal) and node.type == "none"


def narrow(env: dict, cond, truth: bool = True) -> dict:
    """`env` knowing what `cond` having this truth value proves: the paths that are not `none`, and
    what each account path differs from (an account is a player where it is neither the bank nor an
    account field: see `TypeChecker.infer`)."""
    if cond is None:
        return env
    pairs = _proven_unequal(cond, truth, env.get(DEFINES) or {})
    paths = {path for path, other in pairs if other == "none"}
    if paths:
        env = {**env, NARROWED: env.get(NARROWED, frozenset()) | paths}
    unequal = {(path, other) for path, other in pairs if other != "none"}
    if unequal:
        known = dict(env.get(NARROWED_PLAYER, {}))
        for path, other in unequal:
            known[path] = known.get(path, frozenset()) | {other}
        env = {**env, NARROWED_PLAYER: known}
    return env


# Statements that run other rules (handlers, `on debt`, `on eliminate`, cards, procedures, actions in a
# window): whatever those rules set to `none` may be `none` after them, whatever a test proved before.
RUNS_RULES = (ast.Move, ast.Pay, ast.Split, ast.Eliminate, ast.Draw, ast.DrawAs, ast.Do, ast.Window, ast.UseCard,
              ast.PlayCard, ast.RaiseCash, ast.Auction)  # an auction `with window` lets bidders act


EXPRESSIONS = (ast.Literal, ast.Name, ast.Attr, ast.Index, ast.Call, ast.Aggregate, ast.Conditional, ast.BinOp,
               ast.Compare, ast.BoolOp, ast.Not, ast.Neg, ast.PercentOf, ast.Rounded, ast.ListExpr)  # hold no statements


def _set_field(stmt) -> str | None:
    """The field (or global) a `set` statement changes."""
    target = stmt.target
    return target.name if isinstance(target, ast.Attr) else getattr(target, "id", None)


def _forgotten(path: str, fields) -> bool:
    parts = path.split(".")
    return any(p in fields for p in parts) or any(p + "." in fields for p in parts[:-1])


def forget(env: dict, fields) -> dict:
    """`env` without what it knew about paths through `fields`: `F` (set to what may be `none`: any path
    through F, `g.owner` with `g` too) or `F.` (set to another value: paths that read on from F)."""
    known = env.get(NARROWED)
    if not known or not fields:
        return env
    kept = frozenset(path for path in known if not _forgotten(path, fields))
    return env if kept == known else {**env, NARROWED: kept}


def nearest_hint(name: str, candidates) -> str | None:
    """"did you mean `a`?" for the names nearest a misspelt one, each a machine-applicable fix (`fixes.Help`)."""
    return fixes.nearest(name, candidates)


def _not_a_player(program: Program) -> frozenset | None:
    """What an account must be tested to differ from to be a player: the bank and every `global:`
    account field (`pot`: a debt may be owed to it, a procedure may be passed it). None where no test
    can tell: a `player:` account field (`deposit`) is one of every player's, and cannot be named
    once for all."""
    if any(_holds_money(f) for f in program.player_fields.values()):
        return None
    return frozenset({"bank"} | {name for name, f in program.global_fields.items() if _holds_money(f)})


def _holds_money(field) -> bool:
    """Whether a declared field is an account field (`pot: account`)."""
    return field.type.name == "account" and not field.type.is_list


class TypeChecker:
    """Infers and checks types; reports through `error`/`warn`; shared by every declaration check."""

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
        self.not_a_player = _not_a_player(program)

    def expect_winner(self, node, env) -> None:
        """A winner: a player, `none`, or a list of players who share the win (`leaders(…)`)."""
        t = self.infer(node, env)
        if t.is_list and t.element is not None and t.element.name in ("player", "any"):
            return
        self.expect(node, T.PLAYER.maybe(), env, "the winner")

    def rounding_unit(self, unit, t: Type, env) -> None:
        """The `to U` of a rounding: of the rounded value's type, and above 0 where it is written out."""
        self.expect(unit, t, env, "the unit rounded to")
        if isinstance(unit, ast.Literal) and isinstance(unit.value, int) and unit.value <= 0:
            self.report(codes.NON_POSITIVE_STEP, "the unit rounded to must be above 0", unit.span,
                        help="e.g. `rounded up to $100`")

    # ---- reporting ---------------------------------------------------------------------
    def report(self, code: codes.Code, message, span, help=None):
        """A diagnostic of `code` (its severity is the registry's) at `span`."""
        self._add(code.diagnostic(message, span.file or self.p.path, span, help=help))

    def _add(self, diag: Diagnostic):
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
            assert ref.element is not None  # `[T]` names its elements' type
            return Type("list", ref.optional, self.resolve_type(ref.element))
        if ref.name in BUILTIN_TYPES or ref.name in self.p.kinds or ref.name in self.p.groups:
            return Type(ref.name, ref.optional)
        candidates = sorted(BUILTIN_TYPES | set(self.p.kinds) | set(self.p.groups))
        self.report(codes.UNKNOWN_TYPE, f"unknown type `{ref.name}`", ref.span,
                    help=nearest_hint(ref.name, candidates) or f"types are {', '.join(candidates)}")
        return T.ANY

    def kind_fields(self, kind: str) -> dict[str, Type]:
        decl = self.p.kinds.get(kind)
        fields = dict(NAME_FIELDS)
        if decl is not None:
            for f in decl.fields:
                fields[f.name] = self.resolve_type(f.type)
        return fields

    def player_fields(self) -> dict[str, Type]:
        fields = dict(PLAYER_FIELDS)
        for f in self.p.player_fields.values():
            fields[f.name] = self.resolve_type(f.type)
        return fields

    # ---- the global scope ------------------------------------------------------------------
    def global_scope(self) -> dict[str, Type]:
        scope: dict[str, Type] = dict(GLOBAL_NAMES)
        self.scope = scope  # functions called from parameters see the scope as it is being built
        earlier: dict[str, Type] = {}  # a parameter is a constant: it may use the parameters above it
        overrides = {id(o.param): o for o in self.p.overrides}
        for name, param in self.p.params.items():
            scope[name] = earlier[name] = self.infer(param.value, dict(earlier))
            override = overrides.get(id(param))
            if override is not None:
                scope[name] = earlier[name] = self.check_override(override, scope[name], dict(earlier))
        for name, f in self.p.global_fields.items():
            scope[name] = self.resolve_type(f.type)
        for name in self.p.kinds:
            scope[name] = T.list_of(Type(name))
        for name in self.p.groups:
            scope[name] = T.list_of(Type(name))
        for name in [*self.p.squares, *self.p.copies]:
            scope[name] = T.SQUARE
        for name, thing in self.p.things.items():
            scope[name] = Type(thing.kind)
        for name in self.p.decks:
            scope[name] = Type("deck")
        for name in self.p.statuses:
            scope[name] = Type("status")
        for name in self.p.supplies:
            scope[name] = Type("supply")
        if self.p.defines:  # for `narrow`: a call of a define proves what its body proves
            scope[DEFINES] = self.p.defines  # type: ignore[assignment]  # (not a name: data beside them)
        return scope

    def check_override(self, override, new: Type, env: dict) -> Type:
        """R0514: an `override param` whose value is not of the type of the base's value; reported
        at the override, with a note at the base's declaration. The type the rest of the file sees
        is the base's: one slip, one error (not one more at every use, in the base's lines); where
        the value is a number and the base's is money, the fix is its `$`."""
        errors = len(self.diags)
        base = self.infer(override.base.value, env)
        del self.diags[errors:]  # the base's own problems are not the variant's
        if T.ANY in (base, new) or T.compatible(base, new, self.board_kinds):
            return new
        span = override.param.span
        base_span = override.base.span
        value = override.param.value
        written = self.p.text_at(value.span) if isinstance(value, ast.Literal) else ""
        help: str | fixes.Help = (f"give a `{base}` value, as the base does: every rule that uses "
                                  f"`{override.param.name}` expects one")
        if base.name == "money" and new.name == "count" and written.replace(",", "").isdigit():
            help = fixes.Help(f"write it as money, as the base does: `${written}`", written, [f"${written}"],
                              value.span)
        self._add(codes.OVERRIDE_TYPE_MISMATCH.diagnostic(
            f"`override param {override.param.name}` gives a `{new}`, but the base's "
            f"`{override.param.name}` is a `{base}`", span.file or self.p.path, span,
            labels=(Label(base_span, f"the base declares `{override.param.name}` as a `{base}`",
                          base_span.file or self.p.path),),
            help=help))
        return base

    # ---- expressions ------------------------------------------------------------------------------
    def expect(self, node, expected: Type, env, what: str) -> Type:
        actual = self.infer(node, env)
        if T.compatible(expected, actual, self.board_kinds):
            return actual
        if actual.optional and T.compatible(expected, actual.required(), self.board_kinds):
            path = _path(node)
            self.report(codes.IMPOSSIBLE_ARITHMETIC, f"{what} may be `none` here ({a_type(actual)})", node.span,
                        help=f"check it first: `when {path} != none`, or `if {path} != none:`" if path
                        else "check that it is not `none` first")
        else:
            help = self._account_help(node) if actual.name == "account" and expected.name == "player" else None
            if expected.name == "money" and actual.name == "count" and not (expected.optional or actual.optional):
                help = self._dollar_help((node, actual))
            elif expected.name == "money" and actual.name == "account" and (path := _path(node)):
                # an account is where money is; the amount in it is its balance
                help = fixes.Help(f"the money in an account is its balance: `{path}.balance`", path,
                                  [f"{path}.balance"], node.span)
            self.report(codes.WRONG_TYPE, f"{what} must be {a_type(expected)}, but this is {a_type(actual)}", node.span,
                        help=help)
        return actual

    def _dollar_help(self, *operands) -> str | None:
        """Where money meets a count (`pay 50 …`, `cash > 100`, `fee + 5`), the count is most often money
        written without its `$`: say so, and offer the `$` as a fix where the count is written as a number,
        here (machine-applicable) or as a parameter's value (maybe the wrong fix: the parameter may be
        counted elsewhere). None where the two are not money and a count."""
        names = {t.name for _, t in operands}
        if len(operands) > 1 and names != {"money", "count"}:
            return None
        text = "write amounts of money with `$`, e.g. `$10`"
        count = next(n for n, t in operands if t.name == "count")
        if isinstance(count, ast.Name) and count.id in self.p.params:
            param = self.p.params[count.id]
            value = param.value
            written = self.p.text_at(value.span) if isinstance(value, ast.Literal) else ""
            here = (value.span.file or self.p.path) == (count.span.file or self.p.path)  # a fix edits one file
            if written.replace(",", "").isdigit() and here:
                return fixes.Help(f"`{count.id}` is a count (`param {count.id} = {written}`): if it is money, "
                                  f"write `param {count.id} = ${written}`", written, [f"${written}"], value.span,
                                  applicability=MAYBE_INCORRECT)
            return text
        written = self.p.text_at(count.span) if isinstance(count, ast.Literal) else ""
        if written.replace(",", "").isdigit():
            return fixes.Help(f"write amounts of money with `$`: `${written}`", written, [f"${written}"], count.span)
        return text

    def _account_help(self, node) -> str:
        """How to prove an account a player, where a player is needed."""
        path = _path(node) or "it"
        if self.not_a_player is None:
            fields = ", ".join(f"`{n}`" for n, f in self.p.player_fields.items() if _holds_money(f))
            return (f"an account may be the bank, a player or a player's account field ({fields}), which no test "
                    f"can rule out: in this file an account is never known to be a player")
        tests = " and ".join(f"{path} != {name}" for name in sorted(self.not_a_player, key=lambda n: n != "bank"))
        return f"an account is the bank, a player or an account field: test `if {tests}:` first"

    def infer(self, node, env) -> Type:
        t = self._infer(node, env)
        if t.optional and _path(node) in env.get(NARROWED, ()):
            t = t.required()
        if t.name == "account" and self._proven_a_player(node, env):
            t = T.PLAYER
        self.types[id(node)] = t
        return t

    def _proven_a_player(self, node, env) -> bool:
        """Whether tests around `node`, an account, prove it a player: it differs from the bank and
        from every account field it could be (`_not_a_player`)."""
        unequal = env.get(NARROWED_PLAYER)
        if not unequal or self.not_a_player is None:
            return False
        return self.not_a_player <= unequal.get(_path(node), frozenset())

    def element_of(self, coll: Type, node, what: str) -> Type:
        """The element type when iterating `coll`: a list's items, or a group's members."""
        if coll.is_list:
            assert coll.element is not None  # a list type always has its elements' type
            return coll.element
        if coll.name in self.p.groups:
            return Type(self.p.groups[coll.name].kind)
        if coll.name != "any":
            self.report(codes.WRONG_TYPE, f"{what} iterates over a list or a group; this is {a_type(coll)}", node.span)
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
                self.report(codes.INDEX_OF_NON_LIST, f"only lists can be indexed; this is {a_type(base)}", node.obj.span)
                return T.ANY
            assert base.element is not None  # a list type always has its elements' type
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
                self.report(codes.INCOMPARABLE_VALUES, f"cannot compare {a_type(left)} with {a_type(right)}", node.span,
                            help=self._dollar_help((node.left, left), (node.right, right)))
            elif node.op not in ("==", "!=") and (left.name not in ("money", "count", "percent", "any")
                                                  or left.optional or right.optional):
                self.report(codes.INCOMPARABLE_VALUES, f"`{node.op}` compares numbers; this is {a_type(left)}", node.span)
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
                self.report(codes.NEGATED_NON_NUMBER, f"cannot negate {a_type(t)}", node.span)
            return t
        if isinstance(node, ast.PercentOf):
            self.expect(node.percent, T.PERCENT, env, "the left of `of`")
            base = self.expect(node.base, T.MONEY, env, "the base of a percentage")
            if node.unit is not None:
                self.rounding_unit(node.unit, T.MONEY, env)
            return base if base.name == "money" else T.MONEY
        if isinstance(node, ast.Rounded):
            t = self.infer(node.value, env)
            if t.name not in ("money", "count", "any") or t.optional:
                self.report(codes.WRONG_TYPE, f"only money or a count can be rounded; this is {a_type(t)}",
                            node.value.span, help="e.g. `bonus / count(tied) rounded up to $100`")
                return T.ANY
            self.rounding_unit(node.unit, t, env)
            return t
        if isinstance(node, ast.ListExpr):
            items = [self.infer(i, env) for i in node.items]
            element = next((t for t in items if t.name != "none"), T.ANY)
            for item, t in zip(node.items, items):
                if not T.compatible(element.maybe(), t, self.board_kinds):
                    self.report(codes.WRONG_TYPE, f"list items must all be {a_type(element)}; this is {a_type(t)}", item.span)
            return T.list_of(element)
        if isinstance(node, ast.Conditional):
            self.expect(node.condition, T.BOOL, env, "the condition of `if`")
            then = self.infer(node.then, narrow(env, node.condition))
            orelse = self.infer(node.orelse, narrow(env, node.condition, False))
            if not T.comparable(then, orelse, self.board_kinds):
                self.report(codes.WRONG_TYPE,
                            f"both branches must have one type; they are {a_type(then)} and {a_type(orelse)}", node.span)
            if then.name == "none":
                return orelse.maybe()
            return then.maybe() if orelse.name == "none" or orelse.optional else then
        raise TypeError(f"unknown expression node {node!r}")

    def lookup(self, node: ast.Name, env) -> Type:
        if node.id in env:
            self.used.add(node.id)
            return env[node.id]
        define = self.p.defines.get(node.id)
        if define is not None:  # a function named without `()`: with no parameters, its value
            self.used.add(node.id)
            if not define.params:
                return self.function_type(define)
            params = ", ".join(pname for pname, _ in define.params)
            self.report(codes.WRONG_ARGUMENT_COUNT,
                        f"`{node.id}` takes {len(define.params)} argument{'' if len(define.params) == 1 else 's'}",
                        node.span, help=f"call it with them: `{node.id}({params})`")
            return T.ANY
        if node.id in self.p.procedures:
            self.used.add(node.id)
            self.report(codes.UNKNOWN_NAME, f"`{node.id}` is a procedure, which has no value", node.span,
                        help=f"run it as a statement: `do {node.id}(…)`; for a value, `define` a function")
            return T.ANY
        help = nearest_hint(node.id, env.keys())
        if node.id in CONTEXT_NAMES:
            help = f"`{node.id}` is only defined where the rules have one (a turn, a handler, a card, an action)"
        if node.id in BID_NAMES:
            help = f"`{node.id}` is only defined in an auction's `bluffing up to`, where it names each bidder in turn"
        if node.id in MOVE_NAMES:
            help = (f"`{node.id}` is the roll that moved the token, seen by the `on land` and `on pass` handlers "
                    "of that move; elsewhere name the roll itself (`roll 2 dice as d` … `d.total`)")
        self.report(codes.UNKNOWN_NAME, f"unknown name `{node.id}`", node.span, help=help)
        return T.ANY

    def fields_of(self, base: Type, deck: str | None = None) -> dict[str, Type] | None:
        """The fields a value of type `base` has (a deck's cards too, for the deck named `deck`), or None
        for a type with no fields. The editor's completion after `x.` asks it too (rulesc/langinfo.py)."""
        if base.name == "player":
            return self.player_fields()
        if base.name == "roll":
            return dict(ROLL_FIELDS)
        if base.name == "sale":
            return dict(SALE_FIELDS)
        if base.name in self.p.kinds or base.name in self.p.groups:
            return self.kind_fields(base.name)
        if base.name in ("square", "card"):
            return dict(NAME_FIELDS)
        if base.name == "deck":
            fields = dict(DECK_FIELDS)
            if deck in self.p.decks:
                fields.update({c.name: Type("card") for c in self.p.decks[deck].cards})
            return fields
        if base.name == "account":
            return dict(ACCOUNT_FIELDS)
        if base.name == "supply":
            return dict(SUPPLY_FIELDS)
        return None

    def attribute(self, node: ast.Attr, env) -> Type:
        base = self.infer(node.obj, env)
        if base.name == "any":
            return T.ANY
        fields = self.fields_of(base, node.obj.id if isinstance(node.obj, ast.Name) else None)
        if fields is None:
            self.report(codes.VALUE_WITHOUT_FIELDS, f"{a_type(base)} has no fields", node.span)
            return T.ANY
        if base.name == "deck" and isinstance(node.obj, ast.Name) and node.obj.id in self.p.decks:
            deck = self.p.decks[node.obj.id]
            if node.name == "showing" and not any(c.lasting for c in deck.cards):
                self.report(codes.SHOWING_WITHOUT_LASTING,
                            f"deck `{deck.name}` has no `lasting` card, so `{deck.name}.showing` is always `none`",
                            node.span, help="flag the cards that stay in force `lasting`")
        if node.name not in fields:
            self.report(codes.UNKNOWN_FIELD, f"{a_type(base)} has no field `{node.name}`", node.span,
                        help=nearest_hint(node.name, fields) or f"its fields are {', '.join(f'`{f}`' for f in fields)}")
            return T.ANY
        t = fields[node.name]
        return t.maybe() if base.optional else t

    def call(self, node: ast.Call, env) -> Type:
        args = [self.infer(a, env) for a in node.args]
        if node.func == "count":
            if len(args) != 1:
                self.report(codes.WRONG_ARGUMENT_COUNT, f"`count` takes 1 argument, not {len(args)}", node.span)
            elif not args[0].is_list and args[0].name != "any":
                self.report(codes.WRONG_TYPE, f"`count` counts a list; this is {a_type(args[0])}", node.args[0].span)
            return T.COUNT
        if node.func in ("min", "max"):
            if len(args) < 2:
                self.report(codes.WRONG_ARGUMENT_COUNT,
                            f"`{node.func}` takes 2 or more arguments, or an aggregate `{node.func}(x in list: …)`",
                            node.span)
                return T.ANY
            for a, t in zip(node.args[1:], args[1:]):
                if not T.comparable(args[0], t, self.board_kinds):
                    self.report(codes.WRONG_TYPE, f"`{node.func}` needs arguments of one type", a.span)
            return args[0]
        if node.func == "ahead":
            if len(args) != 1:
                self.report(codes.WRONG_ARGUMENT_COUNT, f"`ahead` takes 1 argument, not {len(args)}", node.span)
            else:
                self.expect(node.args[0], T.PLAYER, env, "the argument of `ahead`")
            return T.list_of(T.SQUARE)
        if node.func == "neighbours":
            if len(args) != 1:
                self.report(codes.WRONG_ARGUMENT_COUNT, f"`neighbours` takes 1 argument, not {len(args)}", node.span)
                return T.ANY
            return T.list_of(self.graph_square(args[0], node.args[0], "`neighbours`"))
        if node.func == "holds":
            if len(args) != 2:
                self.report(codes.WRONG_ARGUMENT_COUNT,
                            f"`holds` takes 2 arguments (a player and a card), not {len(args)}", node.span)
            else:
                self.expect(node.args[0], T.PLAYER, env, "who holds")
                self.expect(node.args[1], Type("card"), env, "the card held")
            return T.BOOL
        if node.func in ("even", "odd"):
            if len(args) != 1:
                self.report(codes.WRONG_ARGUMENT_COUNT, f"`{node.func}` takes 1 argument, not {len(args)}", node.span)
            else:
                self.expect(node.args[0], T.COUNT, env, f"the argument of `{node.func}`")
            return T.BOOL
        define = self.p.defines.get(node.func)
        if define is not None:
            self.used.add(node.func)
        if define is not None:
            self.check_arguments(node.func, define.params, node.args, node.span, env)
            return self.function_type(define)
        builtins = list(dict.fromkeys([*FUNCTIONS, *sorted(AGGREGATES)]))
        self.report(codes.UNKNOWN_FUNCTION, f"unknown function `{node.func}`", node.span,
                    help=nearest_hint(node.func, builtins + list(self.p.defines))
                    or "functions are " + ", ".join(f"`{b}`" for b in builtins) + " and those you `define`")
        return T.ANY

    def check_arguments(self, name: str, params, args, span, env) -> None:
        """A call of a `define` or a `procedure`: the right number of arguments, each of its type."""
        if len(args) != len(params):
            for a in args:
                self.infer(a, env)
            self.report(codes.WRONG_ARGUMENT_COUNT, f"`{name}` takes {len(params)} argument{'' if len(params) == 1 else 's'}, "
                        f"not {len(args)}", span)
            return
        for arg, (pname, ptype) in zip(args, params):
            if ptype.also:  # over several kinds: a thing of any of them
                t = self.infer(arg, env)
                if t.name != "any" and (t.is_list or t.optional or t.name not in ptype.kinds):
                    either = " or ".join(f"`{k}`" for k in ptype.kinds)
                    self.report(codes.WRONG_TYPE, f"`{pname}` of `{name}` must be a {either}, but this is {a_type(t)}",
                                arg.span)
                continue
            self.expect(arg, self.resolve_type(ptype), env, f"`{pname}` of `{name}`")

    def each_kind(self, params, env: dict) -> list[dict]:
        """The environments a body with these parameters is checked in: one, or one for each kind a
        parameter over several kinds ranges over (the others take their first kind), as an action's is."""
        envs = [{**env, **{pname: self.resolve_type(ptype) for pname, ptype in params}}]
        for pname, ptype in params:
            for k in ptype.kinds if ptype.also else ():
                if k not in self.p.kinds:
                    self.report(codes.UNKNOWN_NAME, f"unknown kind `{k}`", ptype.span, help=nearest_hint(k, self.p.kinds))
                elif k != ptype.name:
                    envs.append({**envs[0], pname: Type(k)})
        return envs

    def function_type(self, define: ast.Define) -> Type:
        """The type of a `define`d function's value, inferred once (recursion is refused)."""
        if define.name in self.function_types:
            t = self.function_types[define.name]
            if t is None:
                self.report(codes.RECURSIVE_FUNCTION, f"`{define.name}` calls itself; functions may not recurse", define.span)
                return T.ANY
            return t
        self.function_types[define.name] = None
        first, *others = self.each_kind(define.params, dict(self.scope) if self.scope is not None else {})
        t = self.infer(define.value, first)
        for env in others:  # over several kinds: what it reads must be on every one, its value of one type
            other = self.infer(define.value, env)
            if other != t and "any" not in (t.name, other.name):
                self.report(codes.WRONG_TYPE, f"`{define.name}` is {a_type(t)} for one kind and {a_type(other)} "
                            "for another", define.value.span, help="a function has one type of value, whatever its argument")
        self.function_types[define.name] = t
        return t

    def graph_square(self, t: Type, node, what: str) -> Type:
        """The type of a square of a graph (a thing of a graph's kind), which `t` must be."""
        kinds = {g.kind for g in self.p.graphs.values()}
        if t.name == "any" or (t.name in kinds and not t.is_list and not t.optional):
            return t.required()
        self.report(codes.WRONG_TYPE, f"{what} takes a square of a graph; this is {a_type(t)}", node.span,
                    help=f"the graphs' squares are things of {', '.join(f'`{k}`' for k in sorted(kinds))}" if kinds
                    else "declare a board graph: `graph NAME of KIND: grid ROWS by COLUMNS`")
        return T.ANY

    def connected(self, node: ast.Aggregate, env) -> Type:
        """`connected(x in S where F)`: S (a square of a graph, or a list of them) and every square joined to
        it through squares where F holds, as a list."""
        coll = self.infer(node.collection, env)
        square = self.graph_square(coll.element if coll.is_list and coll.element is not None else coll,
                                   node.collection, "`connected`")
        if node.where is not None:
            self.expect(node.where, T.BOOL, {**env, node.var: square}, "a `where` filter")
        if node.body is not None:
            self.report(codes.WRONG_ARGUMENT_COUNT, "`connected(x in square where condition)` takes no `: value`",
                        node.body.span, help="filter the squares it may go through with `where`")
        return T.list_of(square)

    def aggregate(self, node: ast.Aggregate, env) -> Type:
        if node.func == "connected":
            return self.connected(node, env)
        coll = self.infer(node.collection, env)
        element = self.element_of(coll, node.collection, f"`{node.func}`")
        inner = {**env, node.var: element}
        if node.where is not None:
            self.expect(node.where, T.BOOL, inner, "a `where` filter")
            inner = narrow(inner, node.where)  # the body sees only the items the filter kept
        if node.func == "list":
            if node.body is None:
                return T.list_of(element)
            return T.list_of(self.infer(node.body, inner))
        if node.func == "first":
            if node.body is not None:
                self.expect(node.body, T.BOOL, inner, "the condition of `first`")
            return element.maybe()
        if node.func in ("best", "leaders"):  # the first with the highest score / all tied for it
            if node.body is None:
                self.report(codes.WRONG_ARGUMENT_COUNT, f"`{node.func}(x in list: score)` needs a score", node.span)
            else:
                t = self.infer(node.body, inner)
                if t.name not in ("money", "count", "any"):
                    self.report(codes.WRONG_TYPE, f"`{node.func}` ranks by money or a count; this is {a_type(t)}",
                                node.body.span)
            return element.maybe() if node.func == "best" else T.list_of(element)
        if node.func in ("all", "any"):
            if node.body is None:
                self.report(codes.WRONG_ARGUMENT_COUNT, f"`{node.func}(x in list: condition)` needs a condition", node.span)
                return T.BOOL
            self.expect(node.body, T.BOOL, inner, f"the condition of `{node.func}`")
            return T.BOOL
        if node.func == "count":
            if node.body is not None:
                self.expect(node.body, T.BOOL, inner, "the condition of `count`")
            return T.COUNT
        if node.body is None:
            self.report(codes.WRONG_ARGUMENT_COUNT, f"`{node.func}(x in list: value)` needs a value", node.span)
            return T.ANY
        t = self.infer(node.body, inner)
        if t.name not in ("money", "count", "any"):
            self.report(codes.WRONG_TYPE, f"`{node.func}` needs money or a count; this is {a_type(t)}", node.body.span)
            return T.ANY
        return t

    def arithmetic(self, node: ast.BinOp, env) -> Type:
        left, right = self.infer(node.left, env), self.infer(node.right, env)
        if "any" in (left.name, right.name):
            return left if right.name == "any" else right
        if left.optional or right.optional:
            self.report(codes.IMPOSSIBLE_ARITHMETIC,
                        f"`{node.op}` on a value that may be `none` ({a_type(left)}, {a_type(right)})", node.span,
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
            help = self._dollar_help((node.left, left), (node.right, right))
        elif "percent" in pair and node.op in "*/":
            help = "`of … rounded` is read left to right with `*` and `/`: write `n * (P of X rounded down)`"
        self.report(codes.IMPOSSIBLE_ARITHMETIC, f"cannot compute {a_type(left)} {node.op} {a_type(right)}", node.span, help=help)
        return T.ANY

    # ---- statements --------------------------------------------------------------------------------
    def block(self, block: ast.Block, env, context: str) -> dict:
        env = dict(env)
        ended = False
        for stmt in block.statements:
            if ended:
                self.report(codes.STATEMENT_AFTER_TURN_END, "this statement can never run: the turn has already ended", stmt.span,
                            help="remove it, or move it before `end turn`")
                ended = False
            env = forget(self.statement(stmt, env, context), self.cleared_by(stmt))
            if isinstance(stmt, (ast.EndTurn, ast.EndGame)):
                ended = True
        return env

    def cleared_by(self, stmt) -> frozenset:
        """The fields that may be `none` after `stmt` although a test before it proved otherwise: those
        it (or a statement nested in it) sets to a value that may be `none`, and, if it runs other rules,
        those any rule of the file may set so."""
        from .walk import walk_depth
        if isinstance(stmt, ast.Set):  # the common case, without a walk
            return frozenset({self._cleared(stmt)})
        if isinstance(stmt, (ast.Let, ast.Roll, ast.EndTurn, ast.EndGame, ast.Pass)):
            return frozenset()
        fields, runs = set(), isinstance(stmt, RUNS_RULES)
        if not runs:
            for node, _depth in walk_depth(stmt, into=lambda n: not isinstance(n, EXPRESSIONS)):
                if isinstance(node, ast.Set):
                    fields.add(self._cleared(node))
                runs = runs or isinstance(node, RUNS_RULES)
        if runs:
            fields |= self.cleared_by_rules()
        return frozenset(fields)

    def _cleared(self, stmt) -> str:
        field = _set_field(stmt) or ""  # `set x[0] = …` is R0308, and sets no field
        return field if self.may_be_none(stmt.value) else field + "."

    def may_be_none(self, value) -> bool:
        t = self.types.get(id(value))
        if t is not None:
            return t.optional or t.name == "none"
        if isinstance(value, ast.Literal):
            return value.type == "none"
        if isinstance(value, (ast.Attr, ast.Name)):  # not typed yet: a field or global declared optional
            name = value.name if isinstance(value, ast.Attr) else value.id
            return name in self.optional_fields()
        return True

    def optional_fields(self) -> frozenset:
        if getattr(self, "_optional_fields", None) is None:
            fields = [*self.p.player_fields.values(), *self.p.global_fields.values(),
                      *(f for kind in self.p.kinds.values() for f in kind.fields)]
            self._optional_fields = frozenset(f.name for f in fields if f.type.optional)
        return self._optional_fields

    def cleared_by_rules(self) -> frozenset:
        """Every field some rule of the file may set to `none` (syntactically: the value is `none`,
        or reads a field declared optional, or is computed)."""
        if getattr(self, "_cleared_by_rules", None) is None:
            from .walk import walk
            p = self.p
            roots = (*p.handlers, *p.hooks, *p.actions.values(), *p.procedures.values(), *p.decks.values(),
                     *([p.setup] if p.setup else []), *([p.turn] if p.turn else []), *p.statuses.values())
            self._cleared_by_rules = frozenset(self._cleared(n) for n in walk(roots) if isinstance(n, ast.Set))
        return self._cleared_by_rules

    def statement(self, s, env, context: str) -> dict:
        meta = getattr(s, "meta", ast.NO_META)
        self.assume(f"{type(s).__name__.lower()} statement", meta, s.span)
        if isinstance(s, ast.Roll):
            self.expect(s.count, T.COUNT, env, "the number of dice")
            return {**env, s.var: T.ROLL}
        if isinstance(s, ast.RollAgain):
            return self.roll_again(s, env, context)
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
        if isinstance(s, ast.Split):
            self.expect(s.amount, T.MONEY, env, "an amount split")
            self.expect(s.source, T.ACCOUNT, env, "who pays")
            self.expect(s.among, T.list_of(T.PLAYER), env, "the players who share it")
            if s.unit is None:
                self.report(codes.SPLIT_WITHOUT_ROUNDING, "a split must say how each share is rounded", s.span,
                            help="end it with `rounded down to $1` (the payer keeps the rest), `rounded up to $100`, "
                                 "or `rounded nearest to $10`")
            else:
                self.rounding_unit(s.unit, T.MONEY, env)
            return env
        if isinstance(s, ast.Set):
            if not isinstance(s.target, (ast.Attr, ast.Name)):
                self.report(codes.UNSETTABLE_TARGET, "only a field or a global can be set", s.target.span)
                return env
            if isinstance(s.target, ast.Name) and s.target.id not in self.p.global_fields:
                self.report(codes.UNSETTABLE_TARGET, f"`{s.target.id}` is not a global field; only fields and globals can be set",
                            s.target.span, help="use `let` for a local name")
                return env
            if isinstance(s.target, ast.Attr):
                base = self.infer(s.target.obj, env)
                if base.name in self.p.kinds:
                    decl = self.p.kinds[base.name]
                    f = next((f for f in decl.fields if f.name == s.target.name), None)
                    if f is not None and not f.is_state:
                        self.report(codes.FIXED_FIELD_SET,
                                    f"`{s.target.name}` is fixed data of `{base.name}`, not state", s.target.span,
                                    help=f"declare it `state {f.name}: …` in kind `{base.name}` to change it during play")
                    elif s.target.name == "name":  # the one field every thing has, its table row's name
                        self.report(codes.FIXED_FIELD_SET, f"`name` of `{base.name}` is fixed", s.target.span,
                                    help="a thing's name is its row's in the table; keep what changes in a `state` field")
                elif base.name == "player" and s.target.name in PLAYER_FIELDS:
                    self.report(codes.FIXED_FIELD_SET, f"`{s.target.name}` of a player is kept by the engine", s.target.span,
                                help="the engine keeps it: `move`, `eliminate`, `draw`, `extra turn` and debts change it")
                elif base.name in ENGINE_VALUES or base.name in self.p.groups:
                    self.report(codes.FIXED_FIELD_SET, f"`{s.target.name}` of {a_type(base)} cannot be set", s.target.span,
                                help="only a thing's `state` fields, a player's declared fields and globals can be set")
            declared = {k: v for k, v in env.items() if k != NARROWED}  # a field keeps its declared type
            target = self.infer(s.target, declared)
            if target.name == "account" and not target.is_list:
                self.report(codes.FIXED_FIELD_SET, "an account field holds money and is kept by the engine; it cannot be set",
                            s.target.span, help="move money into or out of it: `pay a from player to player.deposit`")
                return env
            self.expect(s.value, target, env, "the value set")
            return env
        if isinstance(s, ast.Let):
            return {**env, s.name: self.infer(s.value, env)}
        if isinstance(s, (ast.ExtraTurn, ast.UseCard, ast.Window)):
            self.expect(s.who, T.PLAYER, env, "the player")
            for name in getattr(s, "only", ()):
                if name.id not in self.p.actions:
                    self.report(codes.UNKNOWN_NAME, f"unknown action `{name.id}`", name.span,
                                help=nearest_hint(name.id, self.p.actions) or "a window names actions declared with `action`")
            return env
        if isinstance(s, ast.Do):
            proc = self.p.procedures.get(s.name)
            self.used.add(s.name)
            if proc is None:
                for a in s.args:
                    self.infer(a, env)
                self.report(codes.UNKNOWN_NAME, f"unknown procedure `{s.name}`", s.span,
                            help=nearest_hint(s.name, self.p.procedures) or "declare it with `procedure NAME(...):`")
            else:
                self.check_arguments(s.name, proc.params, s.args, s.span, env)
            return env
        if isinstance(s, (ast.DiscardHeld, ast.PlayCard)):
            self.expect(s.card, Type("card"), env, "the card")
            self.expect(s.who, T.PLAYER, env, "the player")
            if isinstance(s, ast.DiscardHeld) and s.to is not None:
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
        if isinstance(s, (ast.Draw, ast.DrawAs, ast.Discard)):
            deck = self.p.decks.get(s.deck)
            if deck is None:
                self.report(codes.UNKNOWN_NAME, f"unknown deck `{s.deck}`", s.deck_span, help=nearest_hint(s.deck, self.p.decks))
            who = getattr(s, "who", None)
            if who is not None:
                self.expect(who, T.PLAYER, env, "whom the card is drawn for")
            elif isinstance(s, (ast.Draw, ast.DrawAs)) and "player" not in env:
                self.report(codes.UNKNOWN_NAME, "`draw` draws for `player`, and there is no `player` here", s.span,
                            help="name whom it is drawn for: `draw from Deck for P`; a procedure sees only its "
                                 "parameters, and the setup has no `player`")
            self.drawn_decks.add(s.deck)
            if isinstance(s, ast.DrawAs):
                drawn = Type(deck.of) if deck is not None and deck.of is not None else Type("card")
                self.block(s.body, {**env, s.var: drawn}, context)
                if s.orelse is not None:
                    self.block(s.orelse, env, context)
            return env
        if isinstance(s, ast.Eliminate):
            self.expect(s.who, T.PLAYER, env, "who is eliminated")
            return env
        if isinstance(s, ast.Put):
            self.expect(s.who, T.PLAYER, env, "who is put in a status")
            if s.status in self.p.statuses:
                self.used.add(s.status)
            else:
                self.report(codes.UNKNOWN_NAME, f"unknown status `{s.status}`", s.status_span,
                            help=nearest_hint(s.status, self.p.statuses) or "declare it: `status NAME:` and its phases")
            return env
        if isinstance(s, ast.Release):
            self.expect(s.who, T.PLAYER, env, "who is released")
            return env
        if isinstance(s, ast.Pass):
            return env
        if isinstance(s, ast.EndTurn) and context == "setup":
            self.report(codes.END_TURN_IN_SETUP, "`end turn` in `setup`: the setup runs before the first turn", s.span,
                        help="the setup runs once, whole; to end the game there use `end game`")
            return env
        if isinstance(s, (ast.EndTurn, ast.RaiseCash)):
            if isinstance(s, ast.RaiseCash) and context != "debt":
                self.report(codes.RAISE_CASH_OUTSIDE_DEBT, "`raise cash` is only meaningful in `on debt`", s.span,
                            help="`raise cash` lets a debtor sell and borrow; put it in `on debt:`")
            return env
        if isinstance(s, ast.EndGame):
            self.expect_winner(s.winner, env)
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
            # what the body clears in one round is not proved in the next
            self.block(s.body, forget({**env, s.var: element}, self.cleared_by(s)), context)
            return env
        if isinstance(s, ast.Auction):
            self.sold(s.thing, env)
            self.expect(s.minimum, T.MONEY, env, "the opening bid")
            if s.among is not None:
                self.expect(s.among, T.list_of(T.PLAYER), env, "the bidders")
            if s.after is not None:
                self.expect(s.after, T.PLAYER, env, "the player bidding starts after")
            if s.limit is not None:
                self.expect(s.limit, T.MONEY, env | BID_NAMES, "the highest bid (`bluffing up to`)")
            if s.passes < 1:
                self.report(codes.BIDDERS_OUT_AT_PASS_ZERO, f"a bidder out at his {s.passes}th pass could never bid",
                            s.passes_span or s.span, help="`passes 1` (out at the first pass) or more")
            self.block(s.body, {**env, s.var: T.SALE}, context)
            if s.orelse is not None:
                self.block(s.orelse, env, context)
            if s.bluff is not None:
                if not s.bluffing:
                    self.report(codes.BLUFF_WITHOUT_BLUFFING,
                                "a `bluff:` block on an auction that is not `bluffing`", s.bluff.span,
                                help="add `bluffing up to LIMIT` before `as`: bids may then exceed cash, up to the limit")
                self.block(s.bluff, {**env, s.var: T.SALE}, context)
            return env
        if isinstance(s, ast.Choose):
            self.expect(s.by, T.PLAYER, env, "who chooses")
            names = set()
            for opt in s.options:
                if opt.name in names:
                    self.report(codes.DEFINED_TWICE, f"option `{opt.name}` is given twice", opt.span)
                names.add(opt.name)
                if opt.when is not None:
                    self.expect(opt.when, T.BOOL, env, "an option's condition")
                self.block(opt.body, narrow(env, opt.when), context)
            return env
        raise TypeError(f"unknown statement {s!r}")

    def roll_again(self, s: ast.RollAgain, env, context: str) -> dict:
        """`roll … again on doubles up to N times:`: R0315 when it can never roll a second time."""
        self.expect(s.count, T.COUNT, env, "the number of dice")
        if s.limit < 2:
            self.report(codes.ROLL_AGAIN_NEVER_ROLLS,
                        f"`up to {s.limit} time{'' if s.limit == 1 else 's'}` never rolls again", s.limit_span,
                        help="the count is of rolls in all, the first one included: `up to 3 times` rolls at most twice more")
        elif isinstance(s.count, ast.Literal) and s.count.value == 1:
            self.report(codes.ROLL_AGAIN_NEVER_ROLLS, "one die never shows doubles, so this roll never rolls again", s.count.span,
                        help="roll 2 dice or more, or write a plain `roll 1 die as …`")
        inner = {**env, s.var: T.ROLL}
        # the body runs once for each roll: what it clears in one round is not proved in the next
        self.block(s.body, forget(inner, self.cleared_by(s)), context)
        if s.too_many is not None:
            self.block(s.too_many, forget(inner, self.cleared_by(s)), context)
        return env

    def sold(self, node, env) -> None:
        """What an auction sells is a value with a name (the events name it): a thing, a card, a square
        or a player, and not `none`."""
        t = self.infer(node, env)
        named = t.name in ("player", "square", "card", "supply", "any") or t.name in self.p.kinds or t.name in self.p.groups
        if not named:
            self.report(codes.WRONG_TYPE, f"an auction sells a thing, a card or another value with a name; this is {a_type(t)}",
                        node.span, help="auction a thing of a kind (`auction p from …`) or a card (`Deck.Card`)")
        elif t.optional:
            path = _path(node)
            self.report(codes.IMPOSSIBLE_ARITHMETIC, f"what is auctioned may be `none` here ({a_type(t)})", node.span,
                        help=f"check it first: `if {path} != none:`" if path
                        else "name it with `let` and check it first: `if x != none:`")


def plural(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def a_type(t: Type) -> str:
    text = str(t)
    if t.name == "any":
        return "an unknown type"
    if t.name == "none":
        return "`none`"
    article = "an" if text[0] in "aeiou" else "a"
    return f"{article} `{text}`"


