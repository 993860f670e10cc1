"""Compile rules expressions to Python source, once, and then to ordinary Python functions.

Conditions are where a game spends its time (every legal action is a condition
evaluated over many things), so each expression becomes one generated function
`f(g, e)` instead of a tree of closures: `p.owner == player and all(q in p.group:
q.owner == player)` runs as `L_p.f_owner is L_player and all(v_q.f_owner is
L_player for v_q in g.members.get(L_p.f_group, ()))` (a field is an attribute:
state.with_fields). The checker's inferred types choose the translation (identity for
players, things and squares, value equality for numbers, text, lists and cards); an
expression the checker did not type is an internal error, never a guess. Any failure inside (a
field of `none`, an index out of range, a division by zero) is reported as a rule error at the
expression's source position.

Some shapes are written as what they compute rather than as their loops, each only where it
answers (and fails) exactly as the loop would: an aggregate over a kind filtered by `p == X`
looks at X alone (`Shapes.picked`, `_tested_on`), one filtered by `p.owner == X` at what X holds
(`Shapes.held`, kept by the game); `any(t in L: t == X)` is a membership test
(`Shapes.member`), and inside another loop that does not change it, the list it tests is worked
out once before that loop (`_hoisted_member`); a define that cannot fail is written where it is
called (`_inlined`).

This module is the translation alone. What it proves before choosing a shape (what cannot fail,
which shape an aggregate has) is in analysis.py; the helpers generated code calls, in helpers.py;
what an expression reads and the change counters, in reads.py; a define's kept answers, in
kept.py; a condition taken apart by its conjuncts, in conjuncts.py.
"""

from __future__ import annotations

import re
from typing import Any, Callable, ClassVar

from rulesc.dsl import ast
from rulesc.dsl.builtins import MOVED_BY, PLAYER_COUNTED, PLAYER_FIELDS, PLAYER_OUT, PLAYER_POSITION, PLAYER_UNTRACKED
from rulesc.dsl.model import move_marks

from .analysis import BY_VALUE, Safety, Shapes, reads_name
from .conjuncts import Conjuncts
from .errors import InternalError, RuleRuntimeError
from .helpers import HELPERS, Problem
from .kept import keep_answers
from .pysource import Expression
from .reads import COUNTED, GLOBAL, OUT, POSITION, UNTRACKED
from .state import Held, field_attr

PLAYER_ATTRIBUTES = set(PLAYER_FIELDS) - {PLAYER_POSITION}  # kept as attributes of the engine's Player
IDENTITY = {"player", "square", "account"}  # and kinds and groups: compared with `is`, the rest with `==`
_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|-?[0-9]+")  # an argument's Python that is a name or a number
_NONZERO = re.compile(r"-?[1-9][0-9]*")  # the Python of a whole number other than 0
MAX_INLINING = 4  # defines inlined in defines inlined ...
_ATTRIBUTES = re.compile(r"[A-Za-z_][A-Za-z_0-9]*(\.[A-Za-z_][A-Za-z_0-9]*)*")  # a name and its fields: `L_c.f_wins`


class ExpressionCodegen:
    """Generates a Python function for each expression of one program."""

    def __init__(self, program, types: dict, params: dict, squares: dict, thing_index: dict):
        self.program = program
        self.types = types
        self.params = params
        self.squares = squares
        self.thing_index = thing_index
        self.shapes = Shapes(program, self.type_of)  # the aggregates written as what they compute
        self.count = 0
        self.functions: dict = {}
        self.supplies: dict = {}  # name -> state.Supply, filled before the rules are compiled
        self.plain_defines: set = set()  # defines whose answers are not kept: they may be inlined (`_inlined`)
        self.inlining = 0  # how many defines deep `_inlined` is writing now
        self.loops: list = []  # the loops being written, innermost last (`_Loop`): what may be worked out before each
        self.hoists = 0  # lists worked out before a loop so far (their names: `_h1`, `_h2`, …)

    # ---- entry point --------------------------------------------------------------------
    def function(self, node, local: frozenset, failure=None) -> Expression:
        """A Python function `f(g, e)` computing `node` with `local` names read from `e`; a failure
        inside is reported by `failure` (default: as at `node`)."""
        constants: dict = {}
        used: set = set()
        self.reads: set[str] = set()
        outer_loops, self.loops = self.loops, []  # (a define compiled while a caller's loop is written)
        try:
            source = self.source(node, local, {}, constants, used)
        finally:
            self.loops = outer_loops
        reads = frozenset(self.reads)
        self.count += 1
        name = f"_expr{self.count}"
        # Read each local name from `e` once, into a Python local (cheaper than a dict lookup each use).
        prologue = "".join(f"        L_{n} = e[{n!r}]\n" for n in sorted(used))
        code = (f"def {name}(g, e):\n"
                f"    try:\n"
                f"{prologue}"
                f"        return {source}\n"
                f"    except _ERRORS as exc:\n"
                f"        _fail(exc)\n")
        namespace: dict[str, Any] = dict(HELPERS)
        namespace.update(constants)
        namespace["_fail"] = failure if failure is not None else self._failure(node)
        exec(compile(code, f"<{self.program.path}:{node.span.line}>", "exec"), namespace)
        function = namespace[name]
        function.fail = namespace["_fail"]
        function.reads = reads
        function.locals = frozenset(used)  # the rule's names it reads: one that reads no `p` is the same for every `p`
        function.conjuncts = lambda: self.conjuncts(function, node, local)
        function.cannot_fail = lambda: self.cannot_fail(function, node, local)
        function.branches = lambda: self.branches(function, node, local)
        function.best = lambda var: self.best(function, node, local, var)
        function.inline = lambda bound: self.inline(node, local, bound)
        return function

    def cannot_fail(self, function, node, local: frozenset) -> bool:
        """Whether `function` surely returns rather than fails, wherever it is evaluated as its rule
        evaluates it (see `Safety`): then not evaluating it hides no failure. Found when first asked."""
        if not hasattr(function, "safe"):
            function.safe = Safety(self).safe(node, frozenset(local))
        return function.safe

    def branches(self, function, node, local: frozenset):
        """For `if C then A else B`: (C, A, B) compiled on their own, each reporting a failure as the
        whole would (so `A if C else B` run as three calls is the whole, failures included), or None
        for any other expression. Made when first asked."""
        if not hasattr(function, "parts"):
            function.parts = tuple(self.function(n, local, self._failure(node))
                                   for n in (node.condition, node.then, node.orelse)) \
                if isinstance(node, ast.Conditional) else None
        return function.parts

    def inline(self, node, local: frozenset, bound: dict) -> tuple:
        """`node` as one Python expression, for a function written elsewhere: (its source, the
        constants it names, the rule's names it reads, each as `L_<name>`); `bound` maps names to the
        Python locals that hold them there."""
        source, constants, used, _ = self.inline_in_loop(node, local, bound, ())
        return source, constants, used

    def inline_in_loop(self, node, local: frozenset, bound: dict, names: tuple) -> tuple:
        """`inline`, for an expression evaluated in a loop that binds the Python `names` (none: in no
        loop): (its source, constants, the rule's names it reads, [(name, source)] of the lists to
        work out before the loop, once, and name so: see `_hoisted_member`)."""
        constants: dict = {}
        used: set = set()
        outer_reads, outer_loops = self.reads, self.loops
        self.loops = [_Loop(names)] if names else []
        try:
            source = self.source(node, local, bound, constants, used)
            hoisted = [(name, items) for items, name in self.loops[0].hoisted.items()] if names else []
        finally:
            self.reads, self.loops = outer_reads, outer_loops
        return source, constants, frozenset(used), hoisted

    def best(self, function, node, local: frozenset, var: str):
        """best(g, player, options): the first of `options` for which `function`'s expression, with
        `var` bound to it (and `player` to the one choosing, unless `var` hides it), is highest; None
        for none. `max(options, key=…)` with the expression written in the loop: a hint that an agent
        weighs each option of a decision by. A failure inside is `function`'s. Made once per name."""
        made = function.__dict__.setdefault("best_by", {})
        if var not in made:
            source, constants, used, hoisted = self.inline_in_loop(node, local, {var: "v_option"}, ("v_option",))
            if used - {"player"}:  # a hint reads its parameter and the one choosing, nothing else
                raise InternalError(f"a hint that reads {sorted(used)}")
            code = ("def best(g, player, options):\n"  # the first option's value, then each next one's against it
                    + ("    L_player = player\n" if used else "")
                    + "".join(f"    {name} = {items}\n" for name, items in hoisted)
                    + "    rest = iter(options)\n"
                    "    for v_option in rest:\n"
                    "        try:\n"
                    f"            high = {source}\n"
                    "        except _ERRORS as exc:\n"
                    "            _fail(exc)\n"
                    "        found = v_option\n"
                    "        break\n"
                    "    else:\n"
                    "        return None\n"
                    "    for v_option in rest:\n"
                    "        try:\n"
                    f"            value = {source}\n"
                    "        except _ERRORS as exc:\n"
                    "            _fail(exc)\n"
                    "        if value > high:\n"
                    "            found, high = v_option, value\n"
                    "    return found\n")
            namespace = dict(HELPERS)
            namespace.update(constants)
            namespace["_fail"] = function.fail
            exec(compile(code, f"<{self.program.path}:{node.span.line} best>", "exec"), namespace)
            made[var] = namespace["best"]
        return made[var]

    def conjuncts(self, function, node, local: frozenset) -> "Conjuncts":
        """`function`'s condition by its conjuncts (see `Conjuncts`), made when first asked."""
        if not hasattr(function, "split"):
            function.split = Conjuncts(self, node, local)
        return function.split

    def defined(self, define):
        """The compiled function of a `define`, made once; it reads its parameters from `e`. One that
        can keeps its answers (kept.py); one that computes them all is plain (`plain_defines`)."""
        if define.name not in self.functions:
            outer_reads = self.reads
            function = self.function(define.value, frozenset(n for n, _ in define.params))
            keeping = keep_answers(self.program, define, function, self.type_of)
            if keeping is not None:
                function = keeping
            else:
                self.plain_defines.add(define.name)
            self.functions[define.name] = function
            self.reads = outer_reads | function.reads
        else:
            self.reads |= self.functions[define.name].reads
        return self.functions[define.name]

    def type_of(self, node):
        """The checker's type of `node`. The translation depends on it, so a node the checker did not
        type is a bug in rulesc (an expression the checker skipped), raised here rather than guessed."""
        t = self.types.get(id(node))
        if t is None:
            span = node.span
            where = f"{span.file or self.program.path}:{span.line}:{span.column}"
            raise InternalError(f"the checker has no type for `{source_text(self.program, node)}` "
                                f"({type(node).__name__}) at {where}")
        return t

    def _by_identity(self, t) -> bool:
        """Players, things and squares are compared by identity (fast, and what they mean); everything
        else (numbers, text, lists, cards) by value."""
        if t.is_list:
            return False
        if t.name == "square" and self.program.copies:  # places of a repeated square tell themselves apart (state.Copy)
            return False
        return t.name in IDENTITY or t.name in self.program.kinds or t.name in self.program.groups

    def _failure(self, node):
        path, span = node.span.file or self.program.path, node.span

        def fail(exc):  # the source text looked up only when it fails: a rules file has hundreds of expressions
            text = source_text(self.program, node)
            if isinstance(exc, Problem):
                message = str(exc)
            elif isinstance(exc, AttributeError) and "NoneType" in str(exc):
                message = f"`{text}` reads a field of a value that is `none` here"
            else:
                message = f"`{text}` cannot be computed here ({exc})"
            raise RuleRuntimeError(message, path, span, help="guard the rule with `when … != none`"
                                   if "none" in message else None) from None
        return fail

    # ---- translation: one method per node type -----------------------------------------------
    def source(self, node, local: frozenset, bound: dict, constants: dict, used: set) -> str:
        """Python source for `node`; `bound` maps aggregate variables to Python names, `used`
        collects the rule's local names it reads."""
        def sub(n, extra_bound=None):
            return self.source(n, local, extra_bound if extra_bound is not None else bound, constants, used)

        translate = self._TRANSLATIONS.get(type(node))
        if translate is None:
            raise TypeError(f"cannot compile {type(node).__name__}")
        return translate(self, node, sub, local, bound, constants, used)

    # Each `_x(node, sub, local, bound, constants, used)`: `sub(n, extra_bound=None)` is the Python of
    # a part `n` (with `extra_bound`, inside an aggregate of its own).
    def _literal(self, node: ast.Literal, sub, local, bound, constants, used) -> str:
        return repr(node.value)

    def _name(self, node: ast.Name, sub, local, bound, constants, used) -> str:
        name = node.id
        if name in bound:
            return bound[name]
        if name in local:
            used.add(name)
            return f"L_{name}"
        p = self.program
        if name in self.params:
            return repr(self.params[name])
        if name == "players":
            self.reads.add(OUT)
            return "g.active"
        if name == "bank":
            self.reads.add(UNTRACKED)
            return "g.state.bank"
        if name in p.global_fields:
            self.reads.add(GLOBAL + name)
            return f"g.state.globals[{name!r}]"
        if name in self.thing_index:
            return f"g.things[{self.thing_index[name]}]"
        if name in p.squares or name in p.copies:  # (a named place of a repeated square: its Copy)
            constants[f"sq_{name}"] = self.squares[name]
            return f"sq_{name}"
        if name == "current":
            self.reads.add(UNTRACKED)
            return "g.state.players[g.state.current]"
        if name == "squares":
            return "g.square_list"
        if name in p.decks or name in p.statuses:
            return repr(name)
        if name in self.supplies:
            constants[f"supply_{name}"] = self.supplies[name]
            return f"supply_{name}"
        if name in p.kinds or name in p.groups:
            return f"g.kind_things[{name!r}]"
        if name == "turn":
            self.reads.add(UNTRACKED)
            return "g.state.turn"
        define = p.defines.get(name)
        if define is not None and not define.params:  # a function of no parameters named without `()`
            constants[f"fn_{name}"] = self.defined(define)
            return f"fn_{name}(g, {{}})"
        if name == MOVED_BY:  # in `on land`/`on pass`: what the move that arrived said about itself
            self.reads.add(UNTRACKED)
            return "g.moving_roll"
        if name in self._marks():
            self.reads.add(UNTRACKED)
            return f"({name!r} in g.move_marks)"
        if name in ("winner", "winners", "game_over"):
            self.reads.add(UNTRACKED)
            return {"winner": "g.state.winner", "winners": "g.state.winners"}.get(name, "g.state.over")
        raise RuleRuntimeError(f"unknown name `{name}`", node.span.file or p.path, node.span)

    def _attr(self, node: ast.Attr, sub, local, bound, constants, used) -> str:
        obj = sub(node.obj)
        base_name = self.type_of(node.obj).name
        if base_name == "player" and node.name in PLAYER_ATTRIBUTES:
            if node.name == PLAYER_OUT:
                self.reads.add(OUT)
            elif node.name in PLAYER_COUNTED:
                self.reads.add(COUNTED + node.name)
            elif node.name in PLAYER_UNTRACKED:
                self.reads.add(UNTRACKED)
            return f"{obj}.{node.name}"
        if base_name == "deck":
            if node.name in ("left", "discarded"):
                self.reads.add(UNTRACKED)
                pile = "decks" if node.name == "left" else "discards"
                return f"len(g.state.{pile}[{obj}])"
            if node.name == "showing":
                self.reads.add(UNTRACKED)
                return f"g.state.showing.get({obj})"
            deck = node.obj
            assert isinstance(deck, ast.Name)  # a deck is named (the checker types nothing else a deck)
            constants[f"card_{deck.id}_{node.name}"] = Held(deck.id, node.name)
            return f"card_{deck.id}_{node.name}"
        if base_name == "player" and node.name == PLAYER_POSITION:
            self.reads.add(POSITION)
            return f"g.board[{obj}.at]"
        if base_name in ("roll", "sale") or node.name == "name":
            return f"{obj}.{node.name}"
        if base_name == "supply":  # `.left` changes whenever the field it counts does
            if node.name == "left":
                self.reads.add(self.supplies[node.obj.id].field if isinstance(node.obj, ast.Name) else UNTRACKED)
                return f"g.supply_left({obj})"
            return f"{obj}.{node.name}"
        if base_name == "account":  # `.balance`: changes with every payment, as cash does
            self.reads.add("cash")
            return f"{obj}.{node.name}"
        self.reads.add(node.name)
        return f"{obj}.{field_attr(node.name)}"

    def _index(self, node: ast.Index, sub, local, bound, constants, used) -> str:
        return f"_at({sub(node.obj)}, {sub(node.index)})"

    def _call(self, node: ast.Call, sub, local, bound, constants, used) -> str:
        args = [sub(a) for a in node.args]
        if node.func == "count":
            return f"len({self.iterable(node.args[0], args[0])})"
        if node.func == "ahead":  # the squares ahead of where the player is
            self.reads.add(POSITION)
            return f"g.ahead({args[0]})"
        if node.func == "neighbours":  # a graph's links never change
            return f"g.adjacent[{args[0]}]"
        if node.func == "holds":
            self.reads.add(UNTRACKED)
            return f"({args[1]} in {args[0]}.hand)"
        if node.func in ("even", "odd"):
            return f"({args[0]} % 2 == {0 if node.func == 'even' else 1})"
        define = self.program.defines.get(node.func)
        if define is not None:
            function = self.defined(define)
            inlined = self._inlined(define, function, args, bound, constants)
            if inlined is not None:
                return inlined
            constants[f"fn_{node.func}"] = function
            env = ", ".join(f"{pname!r}: {a}" for (pname, _), a in zip(define.params, args))
            call = f"fn_{node.func}(g, {{{env}}})"
            answers = getattr(function, "answers", None)
            if answers is not None and len(args) == 1 and _SIMPLE.fullmatch(args[0]):
                # its answer for the thing, kept by its name (`kept._kept_answers`), read here once known
                constants[f"kept_{node.func}"] = answers
                name = f"{args[0]}.name"
                return f"(kept_{node.func}[{name}] if {name} in kept_{node.func} else {call})"
            return call
        return f"{node.func}({', '.join(args)})"

    def _connected(self, node: ast.Aggregate, sub, bound) -> str:
        """`connected(x in S where F)`: the squares of S's graph where F holds (worked out as a list, as an
        aggregate's loop), then those of them joined to S, S included (`_connected`)."""
        square = self.type_of(node)
        assert square.element is not None  # (the checker typed it a list of a graph's squares)
        kind = square.element.name
        var = f"v_{node.var}_{len(bound)}"
        start = sub(node.collection)
        self.loops.append(_Loop((var,)))
        try:
            test = sub(node.where, {**bound, node.var: var}) if node.where is not None else None
        finally:
            before = self.loops.pop().prefix()
        allowed = f"[{var} {before}for {var} in g.kind_things[{kind!r}]{f' if {test}' if test else ''}]"
        starts = start if self.type_of(node.collection).is_list else f"({start},)"
        return f"_connected(g.adjacent, g.kind_things[{kind!r}], {starts}, {allowed})"

    def _aggregate(self, node: ast.Aggregate, sub, local, bound, constants, used) -> str:
        if node.func == "connected":
            return self._connected(node, sub, bound)
        member = self.shapes.member(node)
        if member is not None:  # `any(t in L: t == X)`: whether X is in the list L
            items = sub(node.collection)
            if _ATTRIBUTES.fullmatch(items):  # read twice: a name or its fields, nothing computed
                return f"({sub(member)} in {items} if {items} else False)"
        hoisted = self._hoisted_member(node, local, bound, sub)
        if hoisted is not None:
            return hoisted
        var = f"v_{node.var}_{len(bound)}"
        inner = {**bound, node.var: var}
        source, where, body = self.iterable(node.collection, sub(node.collection)), node.where, node.body
        picked, held = self.shapes.picked(node), None
        kind = node.collection.id if isinstance(node.collection, ast.Name) else None  # (over a kind: `picked`, `held`)
        if picked is not None:  # `p in Kind where p == X and …`: X alone, if it is one of them
            one = sub(picked[0])
            if _SIMPLE.fullmatch(one):
                tested = self._tested_on(node, picked, one, sub, bound)
                if tested is not None:
                    return tested
            source, rest = f"_one({one}, {kind!r})", picked[1]
        else:
            held = self.shapes.held(node)  # `p in Kind where p.owner == X and …`: the things X holds
            if held is not None and _SIMPLE.fullmatch(holder := sub(held[1])):
                source, rest = f"g.actions.held_by(g, {kind!r}, {held[0]!r}, {holder})", held[2]
                self.reads.add(held[0])  # what it holds changes with the field, as the test it replaces read
            else:
                held = None
        if picked is not None or held is not None:
            if node.where is not None:
                where = rest
            else:  # `any(p in Kind: p == X and …)`, the same test
                body = rest if rest is not None else ast.Literal(value=True, type="bool", span=node.span)
        self.loops.append(_Loop((var,)))
        try:
            test = sub(where, inner) if where is not None else None
            body = sub(body, inner) if body is not None else None
        finally:
            before = self.loops.pop().prefix()
        loop = f"{before}for {var} in {source}"
        if test is not None:
            loop += f" if {test}"
        if node.func in ("all", "any"):
            return f"{node.func}({body} {loop})"
        if node.func == "list":
            return f"[{body if body is not None else var} {loop}]"
        if node.func == "first":
            if body is not None:
                loop += f" if {body}" if node.where is None else f" and {body}"
            return f"next(({var} {loop}), None)"
        if node.func == "best":
            return f"_best(({body}, {var}) {loop})"
        if node.func == "leaders":
            return f"_leaders(({body}, {var}) {loop})"
        if node.func == "count":  # a list's length: cheaper than a sum over a generator
            if body is None and where is None:
                return f"len({source})"
            cond = f" if {body}" if body is not None else ""
            if cond and where is not None:
                return f"len([1 {loop} and {body}])"
            return f"len([1 {loop}{cond}])"
        if node.func == "sum":
            return f"sum({body} {loop})"
        return f"_extreme({node.func}, [{body} {loop}], {node.func!r})"

    def _binop(self, node: ast.BinOp, sub, local, bound, constants, used) -> str:
        left, right = sub(node.left), sub(node.right)
        if node.op == "/":  # `//`, but by zero a rule error (`_div`), unless by a number other than 0
            return f"({left} // {right})" if _NONZERO.fullmatch(right) else f"_div({left}, {right})"
        return f"({left} {node.op} {right})"

    def _compare(self, node: ast.Compare, sub, local, bound, constants, used) -> str:
        left, right = sub(node.left), sub(node.right)
        none_side = any(isinstance(n, ast.Literal) and n.type == "none" for n in (node.left, node.right))
        op = node.op
        if op in ("==", "!=") and (none_side or self._by_identity(self.type_of(node.left))):
            op = "is" if op == "==" else "is not"
        return f"({left} {op} {right})"

    def _boolop(self, node: ast.BoolOp, sub, local, bound, constants, used) -> str:
        return "(" + f" {node.op} ".join(sub(o) for o in node.operands) + ")"

    def _not(self, node: ast.Not, sub, local, bound, constants, used) -> str:
        return f"(not {sub(node.operand)})"

    def _neg(self, node: ast.Neg, sub, local, bound, constants, used) -> str:
        return f"(-{sub(node.operand)})"

    def _percent_of(self, node: ast.PercentOf, sub, local, bound, constants, used) -> str:
        pct, base = sub(node.percent), sub(node.base)
        if node.unit is not None:  # `rounded up to $100`
            return f"_round({base} * {pct}, 100, {sub(node.unit)}, {node.rounding!r})"
        if node.rounding == "down":
            return f"({base} * {pct} // 100)"
        if node.rounding == "up":
            return f"(-(-{base} * {pct} // 100))"
        return f"(({base} * {pct} * 2 + 100) // 200)"

    def _rounded(self, node: ast.Rounded, sub, local, bound, constants, used) -> str:
        value = node.value
        if isinstance(value, ast.BinOp) and value.op == "/":  # the exact quotient is rounded
            return f"_round({sub(value.left)}, {sub(value.right)}, {sub(node.unit)}, {node.rounding!r})"
        return f"_round({sub(value)}, 1, {sub(node.unit)}, {node.rounding!r})"

    def _list(self, node: ast.ListExpr, sub, local, bound, constants, used) -> str:
        return "[" + ", ".join(sub(i) for i in node.items) + "]"

    def _conditional(self, node: ast.Conditional, sub, local, bound, constants, used) -> str:
        return f"({sub(node.then)} if {sub(node.condition)} else {sub(node.orelse)})"

    _TRANSLATIONS: ClassVar[dict[type, Callable[..., str]]] = {
        ast.Literal: _literal, ast.Name: _name, ast.Attr: _attr, ast.Index: _index, ast.Call: _call,
        ast.Aggregate: _aggregate, ast.BinOp: _binop, ast.Compare: _compare, ast.BoolOp: _boolop,
        ast.Not: _not, ast.Neg: _neg, ast.PercentOf: _percent_of, ast.Rounded: _rounded, ast.ListExpr: _list,
        ast.Conditional: _conditional}

    # ---- the shapes written as what they compute (found by `Shapes`, analysis.py) ---------------
    def _hoisted_member(self, node: ast.Aggregate, local: frozenset, bound: dict, sub) -> str | None:
        """For `any(q in L: f(q) == X)` inside a loop that neither L nor f reads (X not reading `q`;
        f's values compared by value or by identity, as `in` compares them; L and f unable to fail):
        `X in H`, with H = `[f(q) for q in L]` worked out once before the loop (`_Loop`), not a
        generator made and run for each of the loop's items: `occupied(s)` = `any(q in players:
        q.position == s)` tested for each square of a choice is where the players stand, found
        once. X is computed only where H has items, as the loop computes it, unless it cannot fail.
        None where it does not apply (then the `any` is written as it is)."""
        body = node.body
        if not self.loops or node.func != "any" or not (isinstance(body, ast.Compare) and body.op == "=="):
            return None
        reads = [reads_name(side, node.var) for side in (body.left, body.right)]
        if reads[0] == reads[1]:
            return None
        mapped, value = (body.left, body.right) if reads[0] else (body.right, body.left)
        t, collection = self.type_of(mapped), node.collection
        if t.is_list or not (t.name in BY_VALUE or self._by_identity(t)) or not isinstance(collection, ast.Name) \
                or not (collection.id in Safety.ALWAYS_LISTS
                        or any(thing.kind == collection.id for thing in self.program.things.values())):
            return None
        names, safety = frozenset(local) | frozenset(bound) | {node.var}, Safety(self)
        if not safety.safe(mapped, names) or (node.where is not None and not safety.safe(node.where, names)):
            return None
        var = f"v_{node.var}_{len(bound)}"
        inner = {**bound, node.var: var}
        source = self.iterable(collection, sub(collection))
        self.loops.append(_Loop((var,)))
        try:
            test = f" if {sub(node.where, inner)}" if node.where is not None else ""
            item = sub(mapped, inner)
        finally:
            before = self.loops.pop().prefix()
        items = f"[{item} {before}for {var} in {source}{test}]"
        loop = self.loops[-1]
        if loop.reads(items):  # it reads the loop's own variables: worked out for each item, as written
            return None
        name = loop.hoisted.get(items)
        if name is None:
            self.hoists += 1
            name = loop.hoisted[items] = f"_h{self.hoists}"
        x = sub(value)
        return f"({x} in {name})" if safety.safe(value, names) else f"({x} in {name} if {name} else False)"

    def _tested_on(self, node: ast.Aggregate, picked: tuple, one: str, sub, bound: dict) -> str | None:
        """An `any`, `all`, `count` or `sum` whose one candidate is X (`Shapes.picked`), X's Python a
        name or a number: the test written on X itself, with no loop: `any(q in Property: q == s and
        q.owner == player)` is `(True if isinstance(s, _Thing) and s.kind == 'Property' and s.f_owner
        is L_player else False)`. None for another aggregate, or where a part's value may be `none`
        (`and` would answer `none` where the aggregate answers true or false)."""
        func, rest = node.func, picked[1]
        body = node.body if node.where is not None else None  # without `where`, the test was the body
        if func not in ("any", "all", "count", "sum") or (func in ("all", "sum") and body is None):
            return None
        if any(self.shapes.may_be_none(n) for n in (rest, body) if n is not None):
            return None
        inner = {**bound, node.var: one}
        assert isinstance(node.collection, ast.Name)  # `picked` answers only for an aggregate over a kind
        kind, t = node.collection.id, self.type_of(picked[0])
        tests = [] if t.name == kind and not t.optional and not t.is_list \
            else [f"isinstance({one}, _Thing)", f"{one}.kind == {kind!r}"]
        if rest is not None:
            tests.append(sub(rest, inner))
        value = sub(body, inner) if body is not None else None
        if func == "sum":
            return f"({value} if {' and '.join(tests)} else 0)" if tests else value
        if func == "all":
            return f"(False if {' and '.join(tests + [f'not {value}'])} else True)"
        if value is not None:
            tests.append(value)
        if not tests:  # X is always the one thing that passes
            return "True" if func == "any" else "1"
        return f"({'True' if func == 'any' else '1'} if {' and '.join(tests)} else {'False' if func == 'any' else '0'})"

    def _inlined(self, define, function, args: list, bound: dict, constants: dict) -> str | None:
        """A define's expression written where it is called, its parameters read from the Python of
        the arguments (`occupied(s)` in a loop over squares is `any(... is v_s_0 ...)`, no call, no
        dict made), or None where it is called instead: where it keeps its answers (`defined`), where
        it may fail (a failure is reported in the define, as its function does), where an argument
        is more than a name or a number (each use would compute it again) or defines inline defines
        too deeply. Its aggregates' variables are numbered after the caller's (`bound`, renamed so
        that the define sees only its parameters), so that none hides an argument."""
        params = frozenset(name for name, _ in define.params)
        if define.name not in self.plain_defines or self.inlining >= MAX_INLINING \
                or not all(_SIMPLE.fullmatch(a) for a in args) \
                or not self.cannot_fail(function, define.value, params):
            return None
        inner = {f" {name}": python for name, python in bound.items()}  # (no rule name has a space)
        inner.update(zip((name for name, _ in define.params), args))
        used: set = set()
        self.inlining += 1
        try:
            source = self.source(define.value, params, inner, constants, used)
        finally:
            self.inlining -= 1
        return f"({source})" if not used else None

    def iterable(self, node, source: str) -> str:
        """What to loop over: a list as it is, a group's members, or nothing for `none`."""
        t = self.type_of(node)
        if t.is_list and not t.optional:
            return source
        if t.name in self.program.groups:
            return f"g.members.get({source}, ())"
        return f"g.iterate({source})"

    def _marks(self) -> dict:
        if not hasattr(self, "marks"):
            self.marks = move_marks(self.program)
        return self.marks


class _Loop:
    """A loop being written (an aggregate's, a choice's over its options, a hint's over a decision's):
    the Python names it binds, and the lists to work out once before it (`_hoisted_member`), each
    source with the name that holds it."""

    __slots__ = ("names", "hoisted", "_reads")

    def __init__(self, names: tuple):
        self.names = names
        self.hoisted: dict = {}
        self._reads = re.compile(r"\b(?:" + "|".join(map(re.escape, names)) + r")\b")

    def reads(self, source: str) -> bool:
        """Whether Python `source` names one of the loop's variables."""
        return self._reads.search(source) is not None

    def prefix(self) -> str:
        """The comprehension clauses that bind the hoisted lists: `for _h1 in ([…],) `, put first."""
        return "".join(f"for {name} in ({items},) " for items, name in self.hoisted.items())


def source_text(program, node) -> str:
    """The source text of a one-line node, for messages."""
    return program.text_at(node.span)
