"""Compile blocks of statements to Python source, once, as expressions already are (codegen.py).

A block (a handler's, a phase's, an action's, a card's body) becomes one generated function
`f(g, e)` whose statements are written out one after the other, with their expressions inlined
as the Python the expression codegen makes, the step budget counted once a block, and the engine
called directly: `pay rent from player to p.owner` runs as a few lines that compute the amount,
test the operands and call `g.pay`. `if` and `for` bodies are written inside their statement, so
a handler's whole body is usually one function.

This is the only implementation of the statements: each has its `_w_X` method here, and every
command (run, simulate, check, test, play, diff) runs what these methods write. A statement nested
too deeply for one Python function is written the same way into a function of its own (`_apart`),
its step still counted with its block; a long `elif` chain is written flat. Either way the same
evaluation order, the same events (the engine makes them), the same steps and the same errors at
the same places.
"""

from __future__ import annotations

from ast import literal_eval

from rulesc.dsl import ast
from rulesc.dsl.builtins import BID_NAMES
from rulesc.dsl.walk import walk

from .errors import MAX_DEPTH, STEP_BUDGET
from .operations import ACCOUNT, PLAYER, write_arrival, write_emit, write_pay, write_set_field, write_two_dice
from .pysource import Function, define
from .state import name_of

PLAIN_TYPES = frozenset({"money", "count", "percent", "bool", "text"})  # values events show as they are

BID_LOCALS = frozenset(BID_NAMES)  # what a `bluffing up to` reads beside the rule's names

MAX_INDENT = 40  # deeper statements are written as functions of their own (`_apart`)
MAX_LOOPS = 8


_LITERAL_STARTS = frozenset("-+.0123456789'\"")


def _constant(source: str) -> bool:
    """Whether generated source is a number, text, truth value or none written out (nothing to compute)."""
    start = source.lstrip(" (")[:1]
    if start not in _LITERAL_STARTS:  # most sources: a name, a call, an attribute (no parse needed to tell)
        return source.strip(" ()") in ("None", "True", "False")
    try:
        value = literal_eval(source)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        return False
    return value is None or isinstance(value, (int, str, float))  # never a list: each use would make a new one


_FOR_THE_BLOCK = (ast.Let, ast.Roll)  # bind a name for the rest of their block
_FOR_THE_BODY = (ast.For, ast.ChooseFor, ast.Auction, ast.RollAgain)  # bind `var` for their own body


def _names(stmt) -> tuple:
    """The name a `let` or `roll … as` binds."""
    return (stmt.name,) if isinstance(stmt, ast.Let) else (stmt.var,)


def binds(blocks) -> set:
    """Every name a statement of `blocks` (at any depth) binds: `let`, `roll … as`, a loop's, a
    choice's, an auction's variable."""
    return {name for block in blocks for node in walk(block) if isinstance(node, _FOR_THE_BLOCK + _FOR_THE_BODY)
            for name in (_names(node) if isinstance(node, _FOR_THE_BLOCK) else (node.var,))}


def write_settling(fn: Function, indent: int, write_body) -> None:
    """A rule's body (`write_body(indent)` writes it), run so that the property checker knows when
    the game is settled: while it watches (`watching`, the function's copy of `g.on_settled`), the
    body counts as a rule running, and when it ends with no other rule running (the rule that moved
    a token is still running while the arrival's handlers run) the game is settled. In plain play
    this costs a test of a local."""
    fn.add(indent, "if watching is not None:")
    fn.add(indent + 1, "g.rules_running += 1")
    fn.add(indent, "try:")
    write_body(indent + 1)
    fn.add(indent, "finally:")
    fn.add(indent + 1, "if watching is not None:")
    fn.add(indent + 2, "g.rules_running -= 1")
    fn.add(indent, "if watching is not None and not g.rules_running:")
    fn.add(indent + 1, "watching()")


class StatementCodegen:
    """Writes the blocks of one program as Python functions; `compiler` gives the general path."""

    def __init__(self, compiler):
        self.compiler = compiler
        self.codegen = compiler.codegen
        self.count = 0

    def block(self, block: ast.Block, local: frozenset, settles: bool = False):
        """One function running the statements of `block`, with `local` names bound in `e`; a rule's
        whole body `settles` (see `write_settling`), a procedure's or a scenario's does not."""
        fn = Function()
        if settles:
            fn.add(1, "watching = g.on_settled")
            write_settling(fn, 1, lambda indent: self._statements(fn, block.statements, local, indent))
        else:
            self._statements(fn, block.statements, local, 1)
        self.count += 1
        line = block.statements[0].span.line if block.statements else 0
        return define(fn, f"_block{self.count}", "g, e", f"{self.compiler.program.path}:{line} block")

    # ---- for other generated code (turngen.py): statements and conditions written into its functions
    def write(self, fn: Function, block: ast.Block, local: frozenset, indent: int, fixed: dict | None = None) -> None:
        """The statements of `block` written into `fn` at `indent`, reading and binding names in `e`;
        those in `fixed`, which hold in `e` the values of the Python locals they map to and which no
        statement binds again (`binds`), read from those locals."""
        outer, fn.fixed = fn.fixed, fixed or {}
        try:
            self._statements(fn, block.statements, local, indent)
        finally:
            fn.fixed = outer

    def value(self, fn: Function, node, local: frozenset, indent: int, bound: dict | None = None) -> str:
        """Expression `node` computed into `fn` at `indent` (reading names in `e`, or those in `bound`
        from the Python locals it maps them to): its Python name or literal."""
        return self._expr(fn, node, local, indent, bound)

    # ---- pieces ------------------------------------------------------------------------------
    def _statements(self, fn: Function, statements, local: frozenset, indent: int) -> frozenset:
        """The statements of a block, one after another, names scoped as the checker reads them: a name
        bound again inside the block (`let`, `roll … as`) that was bound outside it gets its outer value
        back when the block ends; one a statement binds for its own body (a loop's, a choice's, an
        auction's), right after that statement (all of them share the rule's one `e`)."""
        rebound = {n for s in statements if isinstance(s, _FOR_THE_BLOCK) for n in _names(s)} & local
        kept = self._keep(fn, sorted(rebound), indent)
        start = len(fn.lines)
        fn.steps.append([0, None])
        for stmt in statements:
            inner = self._keep(fn, [stmt.var] if isinstance(stmt, _FOR_THE_BODY) and stmt.var in local else [], indent)
            if self._too_deep(fn, stmt, indent):
                local = self._apart(fn, stmt, local, indent)
            else:
                local = self._write_statement(fn, stmt, local, indent)
            self._give_back(fn, inner, indent)
        self._give_back(fn, kept, indent)
        steps, first = fn.steps.pop()
        if steps:  # the block's steps counted as it starts (`_tick`)
            fn.insert(start, ["    " * indent + f"g.steps += {steps}",
                              "    " * indent + f"if g.steps > {STEP_BUDGET}:",
                              "    " * (indent + 1) + f"g.over_budget({first})"])
        return local

    @staticmethod
    def _keep(fn: Function, names, indent: int) -> list:
        """Keep the values of `names` in `e` (see `_statements`); [(name, local)]."""
        kept = [(name, fn.temp()) for name in names]
        for name, saved in kept:
            fn.add(indent, f"{saved} = e[{name!r}]")
        return kept

    @staticmethod
    def _give_back(fn: Function, kept: list, indent: int) -> None:
        for name, saved in kept:
            fn.add(indent, f"e[{name!r}] = {saved}")

    def _write_statement(self, fn: Function, stmt, local: frozenset, indent: int) -> frozenset:
        """`stmt` written into `fn` by its `_w_X` method; the local names visible after it."""
        write = getattr(self, "_w_" + type(stmt).__name__, None)
        if write is None:
            raise TypeError(f"no code is written for a `{type(stmt).__name__}` statement")  # a construct not added here
        return write(fn, stmt, local, indent, self.compiler.where(stmt))

    def _apart(self, fn: Function, stmt, local: frozenset, indent: int) -> frozenset:
        """`stmt` written as a function of its own, called from `fn`: for a statement nested too deeply
        to write in place (`_too_deep`). It is the same code: its own step is counted with the block
        it is in, as in place, and it reads and binds its names in `e` (nothing in `fn.fixed`)."""
        apart = Function()
        apart.steps.append([0, None])
        local = self._write_statement(apart, stmt, local, 1)
        steps, first = apart.steps.pop()
        block = fn.steps[-1]
        block[0] += steps
        if block[1] is None and first is not None:
            block[1] = fn.name("_n", apart.namespace[first])
        self.count += 1
        called = define(apart, f"_apart{self.count}", "g, e", f"{self.compiler.program.path}:{stmt.span.line} statement")
        fn.add(indent, f"{fn.name('_s', called)}(g, e)")
        return local

    @staticmethod
    def _too_deep(fn: Function, stmt, indent: int) -> bool:
        """Whether writing `stmt` here could pass Python's limits on one function (100 levels of
        indentation, 20 nested loops and `try`s): rules may nest blocks and loops deeply. (A long
        `elif` chain is written flat where it would nest too deeply: `_w_If`.)"""
        return indent > MAX_INDENT or fn.source_loops(indent) >= MAX_LOOPS

    def _tick(self, fn: Function, node, indent: int) -> None:
        """What `Game.tick` does: the statement running now, and one step of the turn's budget. The
        steps of a block's statements written out are counted together as the block starts (a block
        runs whole, or ends the turn or the game): a turn that loops runs blocks again and again, and
        is stopped all the same, at the first statement of the block that would pass the budget."""
        n = fn.name("_n", node)
        fn.add(indent, f"g.last_node = {n}")
        block = fn.steps[-1]
        block[0] += 1
        if block[1] is None:
            block[1] = n

    def _expr(self, fn: Function, node, local: frozenset, indent: int, bound: dict | None = None) -> str:
        """Compute expression `node` into a new local of the function; returns its name. A failure
        inside is the same rule error, at the same place, as the expression's own function raises.
        `bound` maps rule names to Python locals of the function that hold their values."""
        codegen = self.codegen
        constants: dict = {}
        used: set = set()
        codegen.reads = set()
        if fn.fixed:
            bound = {**fn.fixed, **(bound or {})}
        source = codegen.source(node, local, bound or {}, constants, used)
        fn.namespace.update(constants)
        if not used and _constant(source):  # a number or text (a literal, a parameter): used as it is
            return source
        target = fn.temp()
        if isinstance(node, ast.Name):  # reading a name cannot fail: no `try`
            fn.add(indent, f"{target} = {f'e[{next(iter(used))!r}]' if used else source}")
            return target
        failure = codegen._failure(node)
        for n in sorted(used):
            fn.add_failing(indent, f"L_{n} = e[{n!r}]", failure)
        fn.add_failing(indent, f"{target} = {source}", failure)
        return target

    def _needed(self, fn: Function, node, local: frozenset, indent: int, role: str) -> str:
        """An operand that may not be `none` (`Compiler.need`)."""
        value = self._expr(fn, node, local, indent)
        fail = self.compiler.none_operand(node, role)
        if fail is not None:
            fn.add(indent, f"if {value} is None:")
            fn.add(indent + 1, f"{fn.name('_none', fail)}()")
        return value

    # ---- statements ----------------------------------------------------------------------------
    def _w_Roll(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        count = self._expr(fn, node.count, local, indent)
        w = fn.name("_w", where)
        call = f"e[{node.var!r}] = g.roll(e.get('player'), {count}, {w})"
        if count != "2":
            fn.add(indent, call)
            return local | {node.var}
        # Two dice, the common roll, as `Game.roll` rolls them, unless a scenario forces the dice.
        fn.add(indent, "if g.forced_dice:")
        fn.add(indent + 1, call)
        fn.add(indent, "else:")
        write_two_dice(fn, indent + 1, f"e[{node.var!r}]", "e.get('player')", w)
        return local | {node.var}

    def _w_Move(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        who = self._needed(fn, node.who, local, indent, "moved")
        amount = self._expr(fn, node.amount, local, indent)
        w = fn.name("_w", where)
        if self.compiler.landing_context:  # the arrival's handlers read the move (`moved_by`, marks)
            return self._marked_move(fn, node, local, indent, who, amount, w)
        program = self.compiler.program
        if node.how != "by" or program.board is None or any(square.stop for square in program.squares.values()):
            fn.add(indent, f"g.move({who}, {node.how!r}, {amount}, {w})")
            return local
        # The most frequent move, from a ring square by less than a round on a board without `stop`
        # squares, is written in place as `Game.arrive` does it (operations.write_arrival); any other
        # goes through `Game.move`.
        ring = len(program.board.squares)
        start, dest = fn.temp(), fn.temp()
        fn.add(indent, f"{start} = {who}.at")
        fn.add(indent, f"if {start} < {ring} and 0 < {amount} < {ring}:")
        fn.add(indent + 1, f"{dest} = {start} + {amount}")
        fn.add(indent + 1, f"if {dest} >= {ring}:")
        fn.add(indent + 2, f"{dest} -= {ring}")
        write_arrival(fn, indent + 1, who, start, dest, amount, w, "by")
        fn.add(indent, "else:")
        fn.add(indent + 1, f"g.move({who}, 'by', {amount}, {w})")
        return local

    def _marked_move(self, fn, node, local, indent, who: str, amount: str, w: str):
        """`Game.move_marked`: the move tells the arrival's handlers the roll its distance reads (the
        first one named) and its marks."""
        rolls = [n for n in walk(node.amount) if isinstance(n, ast.Name) and n.id in local
                 and getattr(self.codegen.types.get(id(n)), "name", None) == "roll"]
        roll = self._expr(fn, rolls[0], local, indent) if rolls and node.how in ("by", "back") else "None"
        marks = fn.name("_marks", frozenset(node.marks))
        fn.add(indent, f"g.move_marked({who}, {node.how!r}, {amount}, {w}, {roll}, {marks})")
        return local

    def _w_Pay(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        amount = self._expr(fn, node.amount, local, indent)
        if not (_constant(amount) and literal_eval(amount) >= 0):
            fn.add(indent, f"if {amount} < 0:")
            fn.add(indent + 1, f"{fn.name('_negative', self.compiler.negative_payment(node))}({amount})")
        source = self._needed(fn, node.source, local, indent, "who pays")
        target = self._needed(fn, node.target, local, indent, "who is paid")
        w = fn.name("_w", where)
        pays, paid = (self.codegen.type_of(side).name for side in (node.source, node.target))
        # `Game.pay`'s common case written in place where the payer is known to be a player or an
        # account (an `account` may be a player too: `creditor`); any other payment goes to `g.pay`.
        known = {"player": PLAYER, "account": ACCOUNT}
        if pays in known and paid in known:
            write_pay(fn, indent, amount, source, target, w, known[pays], PLAYER if paid == "player" else None)
        else:
            fn.add(indent, f"g.pay({amount}, {source}, {target}, {w})")
        return local

    def _w_Split(self, fn, node, local, indent, where):
        """`split A from X among PS rounded R to U`: each of PS is paid A / count(PS) rounded, by
        `Game.pay` (a player who pays and cannot opens `on debt`); the payer keeps what is left."""
        self._tick(fn, node, indent)
        amount = self._expr(fn, node.amount, local, indent)
        source = self._needed(fn, node.source, local, indent, "who pays")
        among = self._expr(fn, node.among, local, indent)
        unit = self._expr(fn, node.unit, local, indent) if node.unit is not None else "1"
        w = fn.name("_w", where)
        share, each = fn.temp(), fn.temp()
        fn.add(indent, f"if {among}:")
        fn.add(indent + 1, f"{share} = _round({amount}, len({among}), {unit}, {node.rounding or 'down'!r})")
        fn.add(indent + 1, f"if {share} < 0:")
        fn.add(indent + 2, f"{fn.name('_negative', self.compiler.negative_payment(node))}({share})")
        fn.add(indent + 1, f"for {each} in list({among}):")
        fn.add(indent + 2, f"g.pay({share}, {source}, {each}, {w})")
        return local

    def _w_Set(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        w = fn.name("_w", where)
        if isinstance(node.target, ast.Name):
            value = self._expr(fn, node.value, local, indent)
            fn.add(indent, f"g.set_global({node.target.id!r}, {value}, {w})")
            return local
        target = self._expr(fn, node.target.obj, local, indent)
        fn.add(indent, f"if {target} is None:")
        fn.add(indent + 1, f"{fn.name('_none', self.compiler.none_failure(node.target))}()")
        value = self._expr(fn, node.value, local, indent)
        supply = self.compiler.supply_of(node.target)
        if supply is not None:  # pieces taken from the bank's supply, or given back to it
            fn.add(indent, f"g.set_supplied({target}, {node.target.name!r}, {value}, {w}, {fn.name('_supply', supply)})")
            return local
        field_type = self.codegen.type_of(node.target)
        write_set_field(fn, indent, target, value, w, node.target.name, field_type.name == "player",
                        lambda python: self._shown(fn, field_type, python))
        return local

    def _shown(self, fn, t, value: str) -> str:
        """`state.name_of(value)` for a value of type `t`, written out where the type settles it."""
        if not t.is_list and t.name in PLAIN_TYPES:
            return value
        if self.codegen._by_identity(t):  # a player, thing, square or account: shown by name
            return f"({value}.name if {value} is not None else None)"
        fn.namespace["_name_of"] = name_of
        return f"_name_of({value})"

    def _w_Let(self, fn, node, local, indent, where):
        value = self._expr(fn, node.value, local, indent)
        fn.add(indent, f"e[{node.name!r}] = {value}")
        return local | {node.name}

    def _w_Draw(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        who = self._expr(fn, node.who, local, indent) if node.who is not None else "e['player']"
        fn.add(indent, f"g.decks.draw(g, {node.deck!r}, {who}, {fn.name('_w', where)})")
        return local

    def _w_DrawAs(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        who = self._expr(fn, node.who, local, indent) if node.who is not None else "e['player']"
        drawn = fn.temp()
        fn.add(indent, f"{drawn} = g.decks.draw(g, {node.deck!r}, {who}, {fn.name('_w', where)})")
        fn.add(indent, f"if {drawn} is not None:")
        fn.add(indent + 1, f"e[{node.var!r}] = {drawn}")
        self._statements(fn, node.body.statements, local | {node.var}, indent + 1)
        if node.orelse is not None:
            fn.add(indent, "else:")
            self._statements(fn, node.orelse.statements, local, indent + 1)
        return local

    def _w_Do(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        params = self.compiler.program.procedures[node.name].params
        values = [self._expr(fn, a, local, indent) for a in node.args]  # in order, left to right
        env = "{" + ", ".join(f"{n!r}: {v}" for (n, _), v in zip(params, values)) + "}"
        # The procedure call: its event, one level deeper, the body. The body is looked up when the statement runs: a procedure
        # is compiled on first use (so procedures may call each other).
        fn.namespace["_procedures"] = self.compiler.procedures
        body = fn.temp()
        fn.add(indent, f"{body} = _procedures.get({node.name!r}) or "
                       f"{fn.name('_procedure', self.compiler.procedure)}({node.name!r})")
        shown = ", ".join(self._shown(fn, t, v) for (_, t), v in zip(params, values))
        write_emit(fn, indent, "do", fn.name("_w", where), f"{node.name!r}, [{shown}]")
        fn.add(indent, "g.depth += 1")
        fn.add(indent, f"if g.depth > {MAX_DEPTH}:")
        fn.add(indent + 1, "g.procedures_too_deep()")
        fn.add(indent, "try:")
        fn.add(indent + 1, f"{body}(g, {env})")
        fn.add(indent, "finally:")
        fn.add(indent + 1, "g.depth -= 1")
        return local

    def _w_Pass(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        return local

    def _w_EndTurn(self, fn, node, local, indent, where):
        fn.add(indent, f"g.end_turn({fn.name('_w', where)})")
        return local

    def _w_Eliminate(self, fn, node, local, indent, where):
        return self._for_player(fn, node, local, indent, where, "eliminate", "eliminated")

    def _w_ExtraTurn(self, fn, node, local, indent, where):
        return self._for_player(fn, node, local, indent, where, "extra_turn", "the player")

    def _w_Window(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        who = self._needed(fn, node.who, local, indent, "given a window" if node.only else "the player")
        only = fn.name("_only", frozenset(n.id for n in node.only)) if node.only else "None"  # the named actions only
        fn.add(indent, f"g.actions.open_window(g, {who}, {fn.name('_w', where)}, {only})")
        return local

    def _w_UseCard(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        who = self._needed(fn, node.who, local, indent, "the player")
        fn.add(indent, f"g.decks.use_card(g, {who}, {fn.name('_w', where)})")
        return local

    def _for_player(self, fn, node, local, indent, where, method: str, role: str):
        self._tick(fn, node, indent)
        who = self._needed(fn, node.who, local, indent, role)
        fn.add(indent, f"g.{method}({who}, {fn.name('_w', where)})")
        return local

    def _w_If(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        if indent + len(node.branches) > MAX_INDENT:
            return self._flat_if(fn, node, local, indent)
        for condition, body in node.branches:  # each `elif` is tested inside the `else` of the one before
            test = self._expr(fn, condition, local, indent)
            fn.add(indent, f"if {test}:")
            self._statements(fn, body.statements, local, indent + 1)
            fn.add(indent, "else:")
            indent += 1
        if node.orelse is not None:
            self._statements(fn, node.orelse.statements, local, indent)
        else:
            fn.add(indent, "pass")
        return local

    def _flat_if(self, fn, node, local, indent):
        """A long `elif` chain, written flat: a loop run once, left after the branch that runs (each
        test computed only when the ones before it failed, as in the nested form)."""
        fn.add(indent, "while True:")
        for condition, body in node.branches:
            test = self._expr(fn, condition, local, indent + 1)
            fn.add(indent + 1, f"if {test}:")
            self._statements(fn, body.statements, local, indent + 2)
            fn.add(indent + 2, "break")
        if node.orelse is not None:
            self._statements(fn, node.orelse.statements, local, indent + 1)
        fn.add(indent + 1, "break")
        return local

    def _w_RollAgain(self, fn, node, local, indent, where):
        """Roll, run the body; while the dice show doubles roll again, at most `limit` rolls in all. On the
        last roll allowed, doubles run `too many doubles:` instead of the body. Rolling stops too when the
        body ends the roller's part in it: he is out, or put in a status with its own turn. Each roll
        after the first is a step of its own."""
        self._tick(fn, node, indent)
        who, status, k, rolled = fn.temp(), fn.temp(), fn.temp(), fn.temp()
        n, w = fn.name("_n", node), fn.name("_w", where)
        inner = local | {node.var}
        fn.add(indent, f"{who} = e.get('player')")
        fn.add(indent, f"{status} = {who}.status if {who} is not None else None")
        fn.add(indent, f"for {k} in range(1, {node.limit + 1}):")
        body, again = indent + 1, indent + 2
        fn.add(body, f"if {k} > 1:")
        fn.add(again, f"g.tick({w}, {n})")
        write_emit(fn, again, "again", w, f"{who}.name if {who} is not None else None, {k}")
        count = self._expr(fn, node.count, local, body)
        fn.add(body, f"{rolled} = e[{node.var!r}] = g.roll({who}, {count}, {w})")
        if node.too_many is not None:
            fn.add(body, f"if {rolled}.doubles and {k} == {node.limit}:")
            self._statements(fn, node.too_many.statements, inner, body + 1)
            fn.add(body + 1, "break")
        self._statements(fn, node.body.statements, inner, body)
        fn.add(body, f"if not {rolled}.doubles or ({who} is not None and ({who}.out or {who}.status != {status})):")
        fn.add(body + 1, "break")
        return local

    def _w_Auction(self, fn, node, local, indent, where):
        """An auction: the open one (`Market.auction`), or bidding round by round (`Market.round_auction`),
        run again from the start without a bluffer who is exposed; then the sale's body, or `else`."""
        self._tick(fn, node, indent)
        w = fn.name("_w", where)
        bidders, sale = fn.temp(), fn.temp()
        if node.among is not None:
            fn.add(indent, f"{bidders} = {self._expr(fn, node.among, local, indent)}")
        else:
            fn.add(indent, f"{bidders} = g.active")
        thing = self._needed(fn, node.thing, local, indent, "auctioned")
        minimum = self._expr(fn, node.minimum, local, indent)
        if node.after is None and node.passes == 1 and not node.bluffing:  # the open auction
            fn.add(indent, f"{sale} = g.market.auction(g, {thing}, {minimum}, {bidders}, {w}, {node.window!r})")
        else:
            first = self._expr(fn, node.after, local, indent) if node.after is not None else "None"
            limit = "None"
            if node.limit is not None:  # each bidder's highest bid, worked out at each of his bids
                highest = fn.name("_limit", self.compiler.expr(node.limit, local | BID_LOCALS))
                limit = f"lambda bidder: {highest}(g, {{**e, 'bidder': bidder}})"
            exposed, loop = fn.temp(), indent + 1
            fn.add(indent, f"{exposed} = []")
            fn.add(indent, "while True:")  # a bluffer exposed: the auction runs again from the start without him
            fn.add(loop, f"{bidders} = [p for p in {bidders} if p not in {exposed}]")
            fn.add(loop, f"{sale} = g.market.round_auction(g, {thing}, {minimum}, {bidders}, {w}, {node.window!r}, "
                         f"{first}, {node.passes!r}, {limit})")
            fn.add(loop, f"if {sale} is None or {not node.bluffing!r} or g.market.covers_bid(g, {sale}, {w}):")
            fn.add(loop + 1, "break")
            fn.add(loop, f"{exposed}.append({sale}.winner)")
            if node.bluff is not None:
                fn.add(loop, f"e[{node.var!r}] = {sale}")
                self._statements(fn, node.bluff.statements, local | {node.var}, loop)
            fn.add(loop, f"{sale} = None")
        fn.add(indent, f"if {sale} is not None:")
        fn.add(indent + 1, f"e[{node.var!r}] = {sale}")
        self._statements(fn, node.body.statements, local | {node.var}, indent + 1)
        if node.orelse is not None:
            fn.add(indent, "else:")
            self._statements(fn, node.orelse.statements, local, indent + 1)
        return local

    def _w_Discard(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        fn.add(indent, f"g.decks.discard(g, {node.deck!r}, {fn.name('_w', where)})")
        return local

    def _w_DiscardHeld(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        who = self._needed(fn, node.who, local, indent, "who holds the card")
        card = self._needed(fn, node.card, local, indent, "the card")
        to = self._needed(fn, node.to, local, indent, "who receives the card") if node.to is not None else "None"
        fn.add(indent, f"g.decks.discard_held(g, {who}, {card}, {fn.name('_w', where)}, {to})")
        return local

    def _w_PlayCard(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        who = self._needed(fn, node.who, local, indent, "who plays the card")
        card = self._needed(fn, node.card, local, indent, "the card")
        fn.add(indent, f"g.decks.play_card(g, {who}, {card}, {fn.name('_w', where)})")
        return local

    def _w_Put(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        who = self._needed(fn, node.who, local, indent, "put in a status")
        fn.add(indent, f"g.put({who}, {node.status!r}, {fn.name('_w', where)})")
        return local

    def _w_Release(self, fn, node, local, indent, where):
        return self._for_player(fn, node, local, indent, where, "release", "the player")

    def _w_EndGame(self, fn, node, local, indent, where):
        winner = self._expr(fn, node.winner, local, indent)
        fn.add(indent, f"g.end_game({node.reason!r}, {winner}, {fn.name('_w', where)})")
        return local

    def _w_RaiseCash(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        fn.add(indent, f"g.raise_cash(e['debtor'], e['owed'], {fn.name('_w', where)})")
        return local

    def _w_For(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        items = self._expr(fn, node.collection, local, indent)
        item = fn.temp()
        fn.add(indent, f"for {item} in list({self.codegen.iterable(node.collection, items)}):")
        fn.add(indent + 1, f"e[{node.var!r}] = {item}")
        self._statements(fn, node.body.statements, local | {node.var}, indent + 1)
        return local

    def _w_ChooseFor(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        items = self._expr(fn, node.collection, local, indent)
        legal, item, var = fn.temp(), fn.temp(), node.var
        inner = local | {var}
        bound = {var: item}  # the test reads the item from the loop's own local, and the rule's other names
        if node.where is not None:  # from locals read once before the loop (a test changes nothing)
            for name in sorted({n.id for n in walk(node.where) if isinstance(n, ast.Name)} & (local - {var})):
                bound[name] = fn.temp()
                fn.add(indent, f"{bound[name]} = e[{name!r}]")
        if node.where is None:
            fn.add(indent, f"{legal} = list({self.codegen.iterable(node.collection, items)})")
        else:  # a comprehension, the test written in it
            test, constants, used, hoisted = self.codegen.inline_in_loop(node.where, inner, bound, (item,))
            fn.namespace.update(constants)
            failure = self.codegen._failure(node.where)
            for name in sorted(used):
                fn.add_failing(indent, f"L_{name} = e[{name!r}]", failure)
            before = "".join(f"for {name} in ({source},) " for name, source in hoisted)  # worked out once
            loop = f"for {item} in {self.codegen.iterable(node.collection, items)}"
            fn.add_failing(indent, f"{legal} = [{item} {before}{loop} if {test}]", failure)
        fn.add(indent, f"if {legal}:")  # nothing to choose from: the statement does nothing
        by = self._needed(fn, node.by, local, indent + 1, "who chooses")
        fn.add(indent + 1, f"e[{var!r}] = g.choose({by}, {node.name!r}, {legal}, {fn.name('_w', where)})")
        self._statements(fn, node.body.statements, inner, indent + 1)
        return local

    def _w_Choose(self, fn, node, local, indent, where):
        self._tick(fn, node, indent)
        by = self._needed(fn, node.by, local, indent, "who chooses")
        names = fn.temp()
        fn.add(indent, f"{names} = []")
        for option in node.options:
            if option.when is None:
                fn.add(indent, f"{names}.append({option.name!r})")
            else:
                test = self._expr(fn, option.when, local, indent)
                fn.add(indent, f"if {test}:")
                fn.add(indent + 1, f"{names}.append({option.name!r})")
        fn.add(indent, f"if {names}:")
        picked = fn.temp()
        fn.add(indent + 1, f"{picked} = g.choose({by}, {node.name!r}, {names}, {fn.name('_w', where)})")
        for index, option in enumerate(node.options):  # the picked option's body
            fn.add(indent + 1, f"{'el' if index else ''}if {picked} == {option.name!r}:")
            self._statements(fn, option.body.statements, local, indent + 2)
        return local
