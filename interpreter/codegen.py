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
looks at X alone (`_picked`, `_tested_on`), one filtered by `p.owner == X` at what X holds
(`_held`, kept by the game); `any(t in L: t == X)` is a membership test
(`_member`), and inside another loop that does not change it, the list it tests is worked out
once before that loop (`_hoisted_member`); a define that cannot fail is written where it is
called (`_inlined`).
"""

from __future__ import annotations

import operator
import re

from rulesc.dsl import ast
from rulesc.dsl.builtins import MOVED_BY, PLAYER_COUNTED, PLAYER_FIELDS, PLAYER_OUT, PLAYER_POSITION, PLAYER_UNTRACKED

from rulesc.dsl.model import move_marks
from rulesc.dsl.walk import walk

from .errors import InternalError, RuleRuntimeError
from .state import Held, Thing, field_attr

PLAYER_ATTRIBUTES = set(PLAYER_FIELDS) - {PLAYER_POSITION}  # kept as attributes of the engine's Player

# What an expression reads, beyond its arguments: field names, and these markers. The engine
# counts changes to each, so a condition whose reads did not change need not be evaluated again.
OUT = "@out"  # who is still in the game
POSITION = "@position"
GLOBAL = "@global:"
COUNTED = "@"  # and a player's attribute whose changes the engine counts: "@owing", "@bidding"
UNTRACKED = "@untracked"  # state with no change counter: never reuse a result


def counters_sum(reads, versions: str) -> str:
    """The Python of the sum of the change counters of `reads`, spelled out: `versions['@out'] + …`
    (`Game.versions` counts 0 for a counter not yet moved)."""
    if not reads:
        return "0"
    return " + ".join(f"{versions}[{r!r}]" for r in reads)


_KEYS: dict = {}  # reads -> its `counters_key`


def counters_key(reads) -> object:
    """key(versions): the sum of the change counters of `reads`, the key an answer is kept under (a
    condition's, a define's, a worth's): counters only grow, so it moves exactly when one does. It is
    computed at every window, so it is spelled out for the reads (`counters_sum`): three times as fast
    as `sum(map(versions.__getitem__, reads))`. One per tuple of reads; `key.reads` is the tuple."""
    reads = tuple(reads)
    key = _KEYS.get(reads)
    if key is None:
        key = _KEYS[reads] = eval(f"lambda versions: {counters_sum(reads, 'versions')}")  # noqa: S307 (our own source)
        key.reads = reads
    return key


# What changes all the time (cash, positions) or has no counter: an answer that reads it is not kept.
CHANGING = frozenset({"cash", POSITION, UNTRACKED})
IDENTITY = {"player", "square", "account"}  # and kinds and groups: compared with `is`, the rest with `==`


class _Problem(Exception):
    """Raised by generated helpers; turned into a RuleRuntimeError at the expression."""


def _at(items, i):
    if not 0 <= i < len(items):
        raise _Problem(f"index {i} is outside the list (it has {len(items)} items)")
    return items[i]


def _div(a, b):
    if b == 0:
        raise _Problem("division by zero")
    return a // b


def _extreme(fn, values, name):
    if not values:
        raise _Problem(f"`{name}` of an empty list")
    return fn(values)


def _best(pairs):
    """The item with the highest score (the first of equals), or None for no items."""
    best, best_score = None, None
    for score, item in pairs:
        if best_score is None or score > best_score:
            best, best_score = item, score
    return best


_SIMPLE = re.compile(r"[A-Za-z_][A-Za-z_0-9]*|-?[0-9]+")  # an argument's Python that is a name or a number
_NONZERO = re.compile(r"-?[1-9][0-9]*")  # the Python of a whole number other than 0
MAX_INLINING = 4  # defines inlined in defines inlined ...
_ATTRIBUTES = re.compile(r"[A-Za-z_][A-Za-z_0-9]*(\.[A-Za-z_][A-Za-z_0-9]*)*")  # a name and its fields: `L_c.f_wins`
_BY_VALUE = frozenset({"money", "count", "percent", "text", "bool"})  # types `in` compares as `==` does


def _one(item, kind: str) -> tuple:
    """The things of `kind` that are `item`: it alone, or none (see `ExpressionCodegen._picked`)."""
    return (item,) if isinstance(item, Thing) and item.kind == kind else ()


# What a failing expression raises inside, turned into a rule error at the expression: one name, so
# that each `except` in generated code is a few bytes (its handler lies between the lines that run).
EXPRESSION_ERRORS = (_Problem, AttributeError, TypeError, KeyError, IndexError)

HELPERS = {"_at": _at, "_div": _div, "_extreme": _extreme, "_best": _best, "_one": _one, "_Thing": Thing,
           "_Problem": _Problem, "_ERRORS": EXPRESSION_ERRORS}


class ExpressionCodegen:
    """Generates a Python function for each expression of one program."""

    def __init__(self, program, types: dict, params: dict, squares: dict, thing_index: dict):
        self.program = program
        self.types = types
        self.params = params
        self.squares = squares
        self.thing_index = thing_index
        self.count = 0
        self.functions: dict = {}
        self.supplies: dict = {}  # name -> state.Supply, filled before the rules are compiled
        self.plain_defines: set = set()  # defines whose answers are not kept: they may be inlined (`_inlined`)
        self.inlining = 0  # how many defines deep `_inlined` is writing now
        self.loops: list = []  # the loops being written, innermost last (`_Loop`): what may be worked out before each
        self.hoists = 0  # lists worked out before a loop so far (their names: `_h1`, `_h2`, …)

    # ---- entry point --------------------------------------------------------------------
    def function(self, node, local: frozenset, failure=None):
        """A Python function `f(g, e)` computing `node` with `local` names read from `e`; a failure
        inside is reported by `failure` (default: as at `node`)."""
        constants: dict = {}
        used: set = set()
        self.reads = set()
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
        namespace = dict(HELPERS)
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

    def _answers_can_be_kept(self, define, function) -> bool:
        """Whether a define's answer depends only on which things it is given: its parameters are all
        things (of a kind, never `none`, never a list: a few of them), it reads only fixed data (which
        no rule can change, R0309, and is the same in every game of these rules) and it aggregates
        (the work worth keeping: plain arithmetic costs less than looking an answer up)."""
        kinds = self.program.kinds
        return bool(define.params) and all(t.name in kinds and not t.optional and not t.is_list
                                           for _, t in define.params) \
            and function.reads <= fixed_fields(self.program) \
            and any(isinstance(n, ast.Aggregate) for n in walk(define.value))

    def _answers_can_be_kept_while(self, define, function) -> tuple | None:
        """What a define's answer depends on, if it can be kept in a game while that stands: its
        parameters are all things, players or squares (never `none`, never a list: a value that
        names itself), it reads nothing that changes all the time or has no counter (`CHANGING`: a
        kept answer would seldom be asked for again before it changed), its answer is not a list (a
        caller might keep it) and it aggregates (plain arithmetic costs less than looking an answer
        up). Returns the counted fields it reads (its fixed data left out), or None."""
        kinds = self.program.kinds
        if not define.params or not all((t.name in kinds or t.name in ("player", "square"))
                                        and not t.optional and not t.is_list for _, t in define.params):
            return None
        if function.reads & CHANGING or self.type_of(define.value).is_list:
            return None
        if not any(isinstance(n, ast.Aggregate) for n in walk(define.value)):
            return None
        return tuple(sorted(function.reads - fixed_fields(self.program)))

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
        works over fixed data alone keeps its answers (`_kept_answers`)."""
        if define.name not in self.functions:
            outer_reads = self.reads
            function = self.function(define.value, frozenset(n for n, _ in define.params))
            if self._answers_can_be_kept(define, function):
                function = _kept_answers(function, [n for n, _ in define.params])
            else:
                reads = self._answers_can_be_kept_while(define, function)
                if reads is not None:
                    function = _answers_kept_while(function, reads)
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
        return not t.is_list and (t.name in IDENTITY or t.name in self.program.kinds or t.name in self.program.groups)

    def _failure(self, node):
        path, span = node.span.file or self.program.path, node.span

        def fail(exc):  # the source text looked up only when it fails: a rules file has hundreds of expressions
            text = source_text(self.program, node)
            if isinstance(exc, _Problem):
                message = str(exc)
            elif isinstance(exc, AttributeError) and "NoneType" in str(exc):
                message = f"`{text}` reads a field of a value that is `none` here"
            else:
                message = f"`{text}` cannot be computed here ({exc})"
            raise RuleRuntimeError(message, path, span, help="guard the rule with `when … != none`"
                                   if "none" in message else None) from None
        return fail

    # ---- translation --------------------------------------------------------------------------
    def source(self, node, local: frozenset, bound: dict, constants: dict, used: set) -> str:
        """Python source for `node`; `bound` maps aggregate variables to Python names, `used`
        collects the rule's local names it reads."""
        def sub(n, extra_bound=None):
            return self.source(n, local, extra_bound if extra_bound is not None else bound, constants, used)

        if isinstance(node, ast.Literal):
            return repr(node.value)
        if isinstance(node, ast.Name):
            return self._name(node, local, bound, constants, used)
        if isinstance(node, ast.Attr):
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
                constants[f"card_{node.obj.id}_{node.name}"] = Held(node.obj.id, node.name)
                return f"card_{node.obj.id}_{node.name}"
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
        if isinstance(node, ast.Index):
            return f"_at({sub(node.obj)}, {sub(node.index)})"
        if isinstance(node, ast.Call):
            args = [sub(a) for a in node.args]
            if node.func == "count":
                return f"len({self.iterable(node.args[0], args[0])})"
            if node.func == "ahead":  # the squares ahead of where the player is
                self.reads.add(POSITION)
                return f"g.ahead({args[0]})"
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
                    # its answer for the thing, kept by its name (`_kept_answers`), read here once known
                    constants[f"kept_{node.func}"] = answers
                    name = f"{args[0]}.name"
                    return f"(kept_{node.func}[{name}] if {name} in kept_{node.func} else {call})"
                return call
            return f"{node.func}({', '.join(args)})"
        if isinstance(node, ast.Aggregate):
            member = self._member(node)
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
            picked, held = self._picked(node), None
            if picked is not None:  # `p in Kind where p == X and …`: X alone, if it is one of them
                one = sub(picked[0])
                if _SIMPLE.fullmatch(one):
                    tested = self._tested_on(node, picked, one, sub, bound)
                    if tested is not None:
                        return tested
                source, rest = f"_one({one}, {node.collection.id!r})", picked[1]
            else:
                held = self._held(node)  # `p in Kind where p.owner == X and …`: the things X holds
                if held is not None and _SIMPLE.fullmatch(holder := sub(held[1])):
                    source, rest = f"g.actions.held_by(g, {node.collection.id!r}, {held[0]!r}, {holder})", held[2]
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
        if isinstance(node, ast.BinOp):
            left, right = sub(node.left), sub(node.right)
            if node.op == "/":  # `//`, but by zero a rule error (`_div`), unless by a number other than 0
                return f"({left} // {right})" if _NONZERO.fullmatch(right) else f"_div({left}, {right})"
            return f"({left} {node.op} {right})"
        if isinstance(node, ast.Compare):
            left, right = sub(node.left), sub(node.right)
            none_side = any(isinstance(n, ast.Literal) and n.type == "none" for n in (node.left, node.right))
            op = node.op
            if op in ("==", "!=") and (none_side or self._by_identity(self.type_of(node.left))):
                op = "is" if op == "==" else "is not"
            return f"({left} {op} {right})"
        if isinstance(node, ast.BoolOp):
            return "(" + f" {node.op} ".join(sub(o) for o in node.operands) + ")"
        if isinstance(node, ast.Not):
            return f"(not {sub(node.operand)})"
        if isinstance(node, ast.Neg):
            return f"(-{sub(node.operand)})"
        if isinstance(node, ast.PercentOf):
            pct, base = sub(node.percent), sub(node.base)
            if node.rounding == "down":
                return f"({base} * {pct} // 100)"
            if node.rounding == "up":
                return f"(-(-{base} * {pct} // 100))"
            return f"(({base} * {pct} * 2 + 100) // 200)"
        if isinstance(node, ast.ListExpr):
            return "[" + ", ".join(sub(i) for i in node.items) + "]"
        if isinstance(node, ast.Conditional):
            return f"({sub(node.then)} if {sub(node.condition)} else {sub(node.orelse)})"
        raise TypeError(f"cannot compile {type(node).__name__}")

    def _member(self, node: ast.Aggregate):
        """For `any(t in L: t == X)` (X not reading `t`) over a list of values compared by value (numbers,
        text, truth values: `in` compares them as `==` does): X, else None. X is computed only where
        the list has items, as the loop computes it."""
        t = self.type_of(node.collection)
        body = node.body
        if node.func != "any" or node.where is not None or not t.is_list or t.optional \
                or t.element is None or t.element.name not in _BY_VALUE \
                or not (isinstance(body, ast.Compare) and body.op == "=="):
            return None
        for mine, other in ((body.left, body.right), (body.right, body.left)):
            if isinstance(mine, ast.Name) and mine.id == node.var and not _reads(other, node.var):
                return other
        return None

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
        reads = [_reads(side, node.var) for side in (body.left, body.right)]
        if reads[0] == reads[1]:
            return None
        mapped, value = (body.left, body.right) if reads[0] else (body.right, body.left)
        t, collection = self.type_of(mapped), node.collection
        if t.is_list or not (t.name in _BY_VALUE or self._by_identity(t)) or not isinstance(collection, ast.Name) \
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
        """An `any`, `all`, `count` or `sum` whose one candidate is X (`_picked`), X's Python a name or
        a number: the test written on X itself, with no loop: `any(q in Property: q == s and q.owner ==
        player)` is `(True if isinstance(s, _Thing) and s.kind == 'Property' and s.f_owner is L_player
        else False)`. None for another aggregate, or where a part's value may be `none` (`and` would
        answer `none` where the aggregate answers true or false)."""
        func, rest = node.func, picked[1]
        body = node.body if node.where is not None else None  # without `where`, the test was the body
        if func not in ("any", "all", "count", "sum") or (func in ("all", "sum") and body is None):
            return None
        if any(self._may_be_none(n) for n in (rest, body) if n is not None):
            return None
        inner = {**bound, node.var: one}
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

    def _may_be_none(self, node) -> bool:
        """Whether a test's value may be `none` (a test `_picked` split off is an `and` of its own)."""
        if isinstance(node, ast.BoolOp):
            return any(self._may_be_none(n) for n in node.operands)
        return self.type_of(node).optional

    def _picked(self, node: ast.Aggregate):
        """For an aggregate over all the things of a kind whose `where` begins `p == X` (X not reading
        `p`; things compare by identity), or an `any` with no `where` whose test does: (X, the rest
        of the test or None), since the one thing that can pass is X. Not for a kind with no things
        (X, computed first, might fail where the loop over nothing would not)."""
        collection = node.collection
        where = node.where if node.where is not None or node.func != "any" else node.body
        if not isinstance(collection, ast.Name) or collection.id not in self.program.kinds or where is None:
            return None
        if not any(t.kind == collection.id for t in self.program.things.values()):
            return None
        first, rest = _first_test(where)
        if not (isinstance(first, ast.Compare) and first.op == "=="):
            return None
        for mine, other in ((first.left, first.right), (first.right, first.left)):
            if isinstance(mine, ast.Name) and mine.id == node.var and not _reads(other, node.var):
                return other, rest
        return None

    def _held(self, node: ast.Aggregate):
        """For an aggregate over the things of a kind whose `where` begins `p.F == X`, or an `any` with
        no `where` whose test does, F a field of the kind that names a player (`owner`) and X a
        player (never `none`) not reading `p`: (F, X, the rest of the test or None). The things that
        can pass are those X holds by F, in the kind's order, which the game keeps for X
        (`Actions.held_by`, found again only when F changes to or from X): what a player owns, not
        every thing of the kind looked at."""
        collection = node.collection
        where = node.where if node.where is not None or node.func != "any" else node.body
        if not isinstance(collection, ast.Name) or collection.id not in self.program.kinds or where is None:
            return None
        first, rest = _first_test(where)
        if not (isinstance(first, ast.Compare) and first.op == "=="):
            return None
        for mine, other in ((first.left, first.right), (first.right, first.left)):
            if isinstance(mine, ast.Attr) and isinstance(mine.obj, ast.Name) and mine.obj.id == node.var \
                    and self.type_of(mine).name == "player" and not _reads(other, node.var):
                t = self.type_of(other)
                if t.name == "player" and not t.optional and not t.is_list:
                    return mine.name, other, rest
        return None

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

    def _name(self, node: ast.Name, local, bound, constants, used) -> str:
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
        if name in p.squares:
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
        if name in ("winner", "game_over"):
            self.reads.add(UNTRACKED)
            return "g.state.winner" if name == "winner" else "g.state.over"
        raise RuleRuntimeError(f"unknown name `{name}`", p.path, node.span)


    def _marks(self) -> dict:
        if not hasattr(self, "marks"):
            self.marks = move_marks(self.program)
        return self.marks


def fixed_fields(program) -> frozenset:
    """The names of fields no rule can change: things' fixed data (their tables' columns), never a
    name that is also a state field, a player's field or a global. Their change counters stay 0, so a
    key summing counters is the same without them, and cheaper. Kept for the last program asked
    about (every game of a file asks)."""
    if _LAST_FIXED[0] is not program:
        kinds = program.kinds.values()
        fixed = {f.name for kind in kinds for f in kind.fields if not f.is_state}
        _LAST_FIXED[:] = program, frozenset(fixed - {f.name for kind in kinds for f in kind.fields if f.is_state}
                                            - set(program.player_fields) - set(program.global_fields))
    return _LAST_FIXED[1]


_LAST_FIXED: list = [None, frozenset()]  # [program, its fixed fields]


def _first_test(where) -> tuple:
    """A condition's first conjunct, and the rest (None, the one left, or an `and` of those left)."""
    if not (isinstance(where, ast.BoolOp) and where.op == "and"):
        return where, None
    rest = where.operands[1] if len(where.operands) == 2 else \
        ast.BoolOp(op="and", operands=tuple(where.operands[1:]), span=where.span)
    return where.operands[0], rest


def _reads(node, name: str) -> bool:
    """Whether expression `node` reads the name `name`."""
    return any(isinstance(n, ast.Name) and n.id == name for n in walk(node))


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


class Safety:
    """A conservative proof that an expression cannot fail: it reads only declared fields of names it
    is given (the rule's own, or an aggregate's over the things of a kind), orders and adds only what
    cannot be `none` by declaration (not by the checker's narrowing, which a split condition may not
    keep), and uses nothing that fails on some values (an index, a division, `min`/`max`, a call).
    Whatever it cannot prove is taken to fail."""

    SAFE_AGGREGATES = frozenset({"all", "any", "count", "sum"})
    ALWAYS_LISTS = frozenset({"players", "squares"})  # names that are always a list (of players still in, of squares)

    def __init__(self, codegen: ExpressionCodegen):
        self.codegen, self.program = codegen, codegen.program

    def safe(self, node, names: frozenset) -> bool:
        if isinstance(node, ast.Literal):
            return True
        if isinstance(node, ast.Name):  # the rule's own, a parameter, a square or thing by name, the current player
            return node.id in names or node.id in self.codegen.params or node.id in self.program.squares \
                or node.id in self.codegen.thing_index or node.id == "current"
        if isinstance(node, ast.Attr):
            return self._field(node, names) is not None
        if isinstance(node, ast.Compare):
            if not (self.safe(node.left, names) and self.safe(node.right, names)):
                return False
            return node.op in ("==", "!=") or (self.never_none(node.left, names) and self.never_none(node.right, names))
        if isinstance(node, ast.BinOp):
            return node.op in ("+", "-", "*") and all(self.safe(n, names) and self.never_none(n, names)
                                                      for n in (node.left, node.right))
        if isinstance(node, ast.BoolOp):
            return all(self.safe(n, names) for n in node.operands)
        if isinstance(node, ast.Not):
            return self.safe(node.operand, names)
        if isinstance(node, ast.Conditional):
            return all(self.safe(n, names) for n in (node.condition, node.then, node.orelse))
        if isinstance(node, ast.Aggregate):
            collection = node.collection
            # Over players, squares or the things of a kind (one at least: a kind without any is not listed).
            if node.func not in self.SAFE_AGGREGATES or not isinstance(collection, ast.Name) \
                    or not (collection.id in self.ALWAYS_LISTS
                            or any(t.kind == collection.id for t in self.program.things.values())):
                return False
            inner = names | {node.var}
            return (node.where is None or self.safe(node.where, inner)) and (node.body is None or (
                self.safe(node.body, inner) and (node.func != "sum" or self.never_none(node.body, inner))))
        return False

    def never_none(self, node, names: frozenset) -> bool:
        """Whether a safe expression's value cannot be `none`, by declaration."""
        if isinstance(node, ast.Literal):
            return node.value is not None
        if isinstance(node, ast.Name):
            return node.id in names or node.id not in self.codegen.params or self.codegen.params[node.id] is not None
        if isinstance(node, ast.Attr):
            declared = self._field(node, names)
            return declared is not None and not declared
        return isinstance(node, (ast.BinOp, ast.Compare, ast.BoolOp, ast.Not, ast.Aggregate))

    def _field(self, node: ast.Attr, names: frozenset):
        """For `X.F` with X one of `names`: whether F is declared optional (True/False); None if it is
        not such a read (or not a declared field of X's type)."""
        if not (isinstance(node.obj, ast.Name) and node.obj.id in names):
            return None
        base = self.codegen.type_of(node.obj)
        if base.optional or base.is_list:
            return None
        if base.name == "player":
            if node.name in PLAYER_FIELDS:
                return PLAYER_FIELDS[node.name].optional
            declared = self.program.player_fields.get(node.name)
            return declared.type.optional if declared is not None else None
        kind = self.program.kinds.get(base.name)
        declared = next((f for f in kind.fields if f.name == node.name), None) if kind is not None else None
        return declared.type.optional if declared is not None else None


class Conjuncts:
    """A condition `A and B and …` (or one that is not an `and`: one conjunct) taken apart, for
    whoever keeps its answers in layers (the legal actions): what each conjunct reads, whether the
    first is `X.F == player` (`holder`: (X, F), else None), and runs of conjuncts compiled on their
    own. A run keeps the whole's position, so a failure in it is reported as the whole's would be."""

    def __init__(self, codegen: ExpressionCodegen, node, local: frozenset):
        self._codegen, self._node, self._local = codegen, node, local
        self.operands = node.operands if isinstance(node, ast.BoolOp) and node.op == "and" else (node,)
        self.reads = []
        for operand in self.operands:  # what each reads: its source, made and thrown away
            codegen.reads = set()
            codegen.source(operand, local, {}, {}, set())
            self.reads.append(frozenset(codegen.reads))
        first = self.operands[0]
        self.holder = None
        if (isinstance(first, ast.Compare) and first.op == "==" and isinstance(first.left, ast.Attr)
                and isinstance(first.left.obj, ast.Name) and first.left.obj.id in local
                and isinstance(first.right, ast.Name) and first.right.id == "player"):
            self.holder = (first.left.obj.id, first.left.name)
        self._parts: dict = {}

    def held_only(self, start: int, stop: int, field: str, kind: str) -> bool:
        """Whether the conjuncts from `start` to `stop` read `field` only as `X.field == player` (or
        `!=`), X a thing of `kind` and `player` the rule's own (`all(q in p.group: q.owner ==
        player)`): their answer then depends on that field only through which things of `kind` the
        player holds, so it stands while those are the same (`actiongen._write_layers`)."""
        codegen, defines = self._codegen, self._codegen.program.defines
        compared, read = set(), []
        for node in walk(self.operands[start:stop]):
            if isinstance(node, ast.Aggregate) and node.var == "player":
                return False  # `player` is another here
            name = node.func if isinstance(node, ast.Call) else node.id if isinstance(node, ast.Name) else None
            define = defines.get(name)
            if define is not None and field in codegen.defined(define).reads:
                return False  # read inside a define, however it is read there
            if isinstance(node, ast.Attr) and node.name == field:
                read.append(node)
            if isinstance(node, ast.Compare) and node.op in ("==", "!="):
                for mine, other in ((node.left, node.right), (node.right, node.left)):
                    if isinstance(other, ast.Name) and other.id == "player" and isinstance(mine, ast.Attr) \
                            and mine.name == field and codegen.type_of(mine.obj).name == kind:
                        compared.add(id(mine))
        return all(id(node) in compared for node in read)

    def part(self, start: int, stop: int):
        """The conjuncts from `start` to `stop` (not included) as one compiled function."""
        if (start, stop) not in self._parts:
            node = ast.BoolOp(op="and", operands=tuple(self.operands[start:stop]), span=self._node.span)
            self._parts[(start, stop)] = self._codegen.function(node, self._local)
        return self._parts[(start, stop)]


def _kept_answers(function, params: list):
    """`function` (a define's, see `ExpressionCodegen._answers_can_be_kept`) keeping its answer for each
    combination of things by their names: the same in every game of these rules, and a bounded number.
    Most have one parameter: then the key is its thing's name alone."""
    answers: dict = {}
    only = params[0] if len(params) == 1 else None

    def kept(g, e):
        key = e[only].name if only is not None else tuple(map(_NAME, e.values()))
        answer = answers.get(key, answers)  # the dict itself: no answer yet (an answer may be None)
        if answer is answers:
            answer = answers[key] = function(g, e)
        return answer
    kept.reads, kept.locals, kept.answers = function.reads, function.locals, answers
    return kept


_NAME = operator.attrgetter("name")


def _answers_kept_while(function, reads: tuple):
    """`function` (a define's, see `ExpressionCodegen._answers_can_be_kept_while`) keeping its answer
    in each game, for each combination of its arguments, while the change counters of what it reads
    stand (their sum changes when one does: they only grow). Not while an agent answers blindfolded
    (`Game.masking`): an answer worked out on the whole state must not reach it."""
    stamp_of = counters_key(reads)

    def kept_while(g, e):
        if g.masking:
            return function(g, e)
        key = (kept_while, *e.values())
        stamp = stamp_of(g.versions)
        known = g.define_answers.get(key)
        if known is not None and known[0] == stamp:
            return known[1]
        answer = function(g, e)
        g.define_answers[key] = (stamp, answer)
        return answer
    kept_while.reads, kept_while.locals, kept_while.plain = function.reads, function.locals, function
    return kept_while


def source_text(program, node) -> str:
    """The source text of a one-line node, for messages."""
    return program.text_at(node.span)
