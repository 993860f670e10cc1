"""Compile checked AST into Python closures, once, so that playing never re-walks the tree.

Every expression becomes `f(g, e) -> value` and every statement `s(g, e) -> None`,
where `g` is the running `Game` and `e` the dict of local names (`player`, a handler's
thing, a roll...). The static types the checker inferred pick the right closure for
each node (a player's field, a thing's field, a roll's total), so no closure asks
what kind of node it is while the game runs. Statements call the engine for anything
that changes state, passing their own `RuleRef` (file and line) for the event they cause:
one per rule location, made here once.
"""

from __future__ import annotations

from rulesc.dsl import ast
from rulesc.dsl.builtins import MOVED_BY
from rulesc.dsl.checker import Checked
from rulesc.dsl.model import move_marks, rule_roots
from rulesc.dsl.walk import walk

from .codegen import ExpressionCodegen, source_text
from .errors import RuleRuntimeError
from .events import RuleRef
from .state import Square
from .stmtgen import StatementCodegen

NEVER_NONE = frozenset({"player", "bank", "current"})  # reserved names that always hold a value



class Compiler:
    """Turns the checked program's AST into closures; one instance per loaded program."""

    def __init__(self, checked: Checked, squares: dict[str, Square], thing_index: dict[str, int]):
        self.checked = checked
        self.program = checked.program
        self.types = checked.types
        self.squares = squares
        self.thing_index = thing_index
        self.refs: dict[tuple[str, int], RuleRef] = {}  # one per rule location
        self.params: dict[str, object] = {}
        self.procedures: dict = {}  # name -> compiled body
        self.codegen = ExpressionCodegen(self.program, self.types, self.params, squares, thing_index)
        self.statements = StatementCodegen(self)

    def where(self, node) -> RuleRef:
        """The rule's file and line, for the events it causes (the base file's, for inherited
        rules); the same `RuleRef` for every node at that place."""
        key = (node.span.file or self.program.path, node.span.line)
        ref = self.refs.get(key)
        if ref is None:
            ref = self.refs[key] = RuleRef(*key)
        return ref

    def fail(self, message: str, node, help: str | None = None):
        raise RuleRuntimeError(message, node.span.file or self.program.path, node.span, help)

    # ---- expressions ------------------------------------------------------------------------
    def expr(self, node, local: frozenset = frozenset()):
        """Compile an expression; `local` holds the names bound in the enclosing rule."""
        return self.codegen.function(node, local)

    def _none_failure(self, node):
        def fail():
            self.fail(f"`{source_text(self.program, node.obj)}` is `none` here, so it has no `{node.name}`", node,
                      help="guard the rule with `when … != none`")
        return fail

    def need(self, node, local: frozenset, role: str):
        """Compile an operand a statement cannot do without (who pays, who moves...): `none` there is
        a runtime diagnostic. The checker proves most of these are not `none`, but its proof can be
        undone by what runs in between (a `set … = none`, or an `eliminate` whose handlers clear fields)."""
        value = self.expr(node, local)
        fail = self.none_operand(node, role)
        if fail is None:
            return value

        def needed(g, e):
            found = value(g, e)
            if found is None:
                fail()
            return found
        return needed

    def none_operand(self, node, role: str):
        """What to call when operand `node` of a statement is `none` (raises the runtime diagnostic),
        or None for a reserved name that always holds a value."""
        if isinstance(node, ast.Name) and node.id in NEVER_NONE:
            return None
        def fail():  # the source text looked up only when it fails
            self.fail(f"`{source_text(self.program, node)}` is `none` here, so it cannot be {role}", node,
                      help="test it first (`if … != none:`): a rule run since the test may have cleared it")
        return fail

    def negative_payment(self, node):
        """What to call with the amount when a `pay` would pay a negative amount."""
        def fail(value):
            self.fail(f"cannot pay a negative amount ({value})", node)
        return fail

    # ---- statements ----------------------------------------------------------------------------
    def block(self, block: ast.Block, local: frozenset):
        """A block as one generated function (stmtgen.py): the common statements written out in
        Python, any other through its `_s_X` closure."""
        return self.statements.block(block, local)

    def stmt(self, node, local: frozenset):
        """Compile one statement through its `_s_X` method (the general path, for statements the
        statement codegen does not write out); returns the closure and the local names visible after it."""
        method = getattr(self, "_s_" + type(node).__name__)
        return method(node, local, self.where(node))

    def _s_Roll(self, node, local, where):
        count, var = self.expr(node.count, local), node.var

        def roll(g, e):
            g.tick(where, node)
            e[var] = g.roll(e.get("player"), count(g, e), where)
        return roll, local | {var}

    def _s_RollAgain(self, node, local, where):
        """Roll, run the body; while the dice show doubles roll again, at most `limit` rolls in all. On the
        last roll allowed, doubles run `too many doubles:` instead of the body. Rolling stops too when the
        body ends the roller's part in it: he is out, or put in a status with its own turn."""
        count, var, limit = self.expr(node.count, local), node.var, node.limit
        inner = local | {var}
        body = self.block(node.body, inner)
        too_many = self.block(node.too_many, inner) if node.too_many is not None else None

        def roll_again(g, e):
            who = e.get("player")
            status = who.status if who is not None else None
            for k in range(1, limit + 1):
                g.tick(where, node)
                if k > 1:
                    g.emit("again", where, who.name if who is not None else None, k)
                rolled = e[var] = g.roll(who, count(g, e), where)
                if rolled.doubles and k == limit and too_many is not None:
                    too_many(g, e)
                    return
                body(g, e)
                if not rolled.doubles or (who is not None and (who.out or who.status != status)):
                    return
        return roll_again, local

    @property
    def landing_context(self) -> bool:
        """Whether some handler can read what a move says about itself (`moved_by`, a mark): then every
        move tells the engine (`Game.move_marked`), so each arrival's handlers see their own move's."""
        if not hasattr(self, "_landing_context"):
            self._landing_context = bool(move_marks(self.program)) or any(
                isinstance(n, ast.Name) and n.id == MOVED_BY for n in walk(rule_roots(self.program)))
        return self._landing_context

    def _marked_move(self, node, local, where):
        """`move`, telling the arrival's handlers the roll its distance reads (the first one named) and its marks."""
        who, amount, how = self.need(node.who, local, "moved"), self.expr(node.amount, local), node.how
        rolls = [n for n in walk(node.amount) if isinstance(n, ast.Name) and n.id in local
                 and getattr(self.types.get(id(n)), "name", None) == "roll"]
        roll = self.expr(rolls[0], local) if rolls and how in ("by", "back") else None
        marks = frozenset(node.marks)

        def move(g, e):
            g.tick(where, node)
            g.move_marked(who(g, e), how, amount(g, e), where, roll(g, e) if roll is not None else None, marks)
        return move, local

    def _s_Move(self, node, local, where):
        if self.landing_context:
            return self._marked_move(node, local, where)
        who, amount, how = self.need(node.who, local, "moved"), self.expr(node.amount, local), node.how

        def move(g, e):
            g.tick(where, node)
            g.move(who(g, e), how, amount(g, e), where)
        return move, local

    def _s_Pay(self, node, local, where):
        amount = self.expr(node.amount, local)
        source, target = self.need(node.source, local, "who pays"), self.need(node.target, local, "who is paid")

        negative = self.negative_payment(node)

        def pay(g, e):
            g.tick(where, node)
            value = amount(g, e)
            if value < 0:
                negative(value)
            g.pay(value, source(g, e), target(g, e), where)
        return pay, local

    def _supply_of(self, target):
        """The supply that limits a `set` of `thing.field`, if one counts that field of its kind."""
        if not isinstance(target, ast.Attr):
            return None
        kind = getattr(self.types.get(id(target.obj)), "name", None)
        return next((s for s in self.codegen.supplies.values() if s.field == target.name and s.kind == kind), None)

    def _s_Set(self, node, local, where):
        value = self.expr(node.value, local)
        if isinstance(node.target, ast.Name):
            name = node.target.id

            def set_global(g, e):
                g.tick(where, node)
                g.set_global(name, value(g, e), where)
            return set_global, local
        obj, field = self.expr(node.target.obj, local), node.target.name
        fail = self._none_failure(node.target)
        supply = self._supply_of(node.target)  # pieces taken from the bank's supply, or given back to it

        def set_field(g, e):
            g.tick(where, node)
            target = obj(g, e)
            if target is None:
                fail()
            if supply is None:
                g.set_field(target, field, value(g, e), where)
            else:
                g.set_supplied(target, field, value(g, e), where, supply)
        return set_field, local

    def _s_Let(self, node, local, where):
        value, name = self.expr(node.value, local), node.name

        def let(g, e):
            e[name] = value(g, e)
        return let, local | {name}

    def _s_Draw(self, node, local, where):
        deck = node.deck

        def draw(g, e):
            g.tick(where, node)
            g.draw(deck, e["player"], where)
        return draw, local

    def _s_Discard(self, node, local, where):
        deck = node.deck

        def discard(g, e):
            g.tick(where, node)
            g.discard(deck, where)
        return discard, local

    def _s_Do(self, node, local, where):
        args = [self.expr(a, local) for a in node.args]
        names = [pname for pname, _ in self.program.procedures[node.name].params]
        procedure = self.procedure

        def do(g, e):
            g.tick(where, node)
            g.run_procedure(node.name, procedure(node.name), {n: a(g, e) for n, a in zip(names, args)}, where)
        return do, local

    def procedure(self, name: str):
        """A procedure's compiled body, compiled on first use (so procedures may call each other)."""
        body = self.procedures.get(name)
        if body is None:
            proc = self.program.procedures[name]
            body = self.procedures[name] = self.block(proc.body, frozenset(pname for pname, _ in proc.params))
        return body

    def _s_DiscardHeld(self, node, local, where):
        card, who = self.need(node.card, local, "the card"), self.need(node.who, local, "who holds the card")
        to = self.need(node.to, local, "who receives the card") if node.to is not None else None

        def discard_held(g, e):
            g.tick(where, node)
            g.discard_held(who(g, e), card(g, e), where, to(g, e) if to is not None else None)
        return discard_held, local

    def _s_PlayCard(self, node, local, where):
        card, who = self.need(node.card, local, "the card"), self.need(node.who, local, "who plays the card")

        def play_card(g, e):
            g.tick(where, node)
            g.play_card(who(g, e), card(g, e), where)
        return play_card, local

    def _s_ExtraTurn(self, node, local, where):
        return self._for_player(node, local, where, "extra_turn"), local

    def _s_Pass(self, node, local, where):
        def nothing(g, e):
            g.tick(where, node)
        return nothing, local

    def _s_Window(self, node, local, where):
        if not node.only:
            return self._for_player(node, local, where, "open_window"), local
        who, only = self.need(node.who, local, "given a window"), frozenset(n.id for n in node.only)

        def window(g, e):
            g.tick(where, node)
            g.open_window(who(g, e), where, only)
        return window, local

    def _s_UseCard(self, node, local, where):
        return self._for_player(node, local, where, "use_card"), local

    def _for_player(self, node, local, where, method: str):
        """A statement that calls the engine's `method(player, where)` for `node.who`."""
        who = self.need(node.who, local, "the player")

        def statement(g, e):
            g.tick(where, node)
            getattr(g, method)(who(g, e), where)
        return statement

    def _s_ChooseFor(self, node, local, where):
        by, coll, var, name = self.need(node.by, local, "who chooses"), self.expr(node.collection, local), node.var, node.name
        inner = local | {var}
        test = self.expr(node.where, inner) if node.where is not None else None
        body = self.block(node.body, inner)

        def choose_for(g, e):
            g.tick(where, node)
            legal = []
            for item in g.iterate(coll(g, e)):
                e[var] = item
                if test is None or test(g, e):
                    legal.append(item)
            if not legal:
                return
            e[var] = g.choose(by(g, e), name, legal, where)
            body(g, e)
        return choose_for, local

    def _s_Put(self, node, local, where):
        who, status = self.need(node.who, local, "put in a status"), node.status

        def put(g, e):
            g.tick(where, node)
            g.put(who(g, e), status, where)
        return put, local

    def _s_Release(self, node, local, where):
        return self._for_player(node, local, where, "release"), local

    def _s_Eliminate(self, node, local, where):
        who = self.need(node.who, local, "eliminated")

        def eliminate(g, e):
            g.tick(where, node)
            g.eliminate(who(g, e), where)
        return eliminate, local

    def _s_EndTurn(self, node, local, where):
        def end_turn(g, e):
            g.end_turn(where)
        return end_turn, local

    def _s_EndGame(self, node, local, where):
        winner, reason = self.expr(node.winner, local), node.reason

        def end_game(g, e):
            g.end_game(reason, winner(g, e), where)
        return end_game, local

    def _s_RaiseCash(self, node, local, where):
        def raise_cash(g, e):
            g.tick(where, node)
            g.raise_cash(e["debtor"], e["owed"], where)
        return raise_cash, local

    def _s_If(self, node, local, where):
        branches = [(self.expr(c, local), self.block(b, local)) for c, b in node.branches]
        orelse = self.block(node.orelse, local) if node.orelse is not None else None
        if len(branches) == 1:
            (cond, body), = branches

            def if_(g, e):
                g.tick(where, node)
                if cond(g, e):
                    body(g, e)
                elif orelse is not None:
                    orelse(g, e)
            return if_, local

        def if_chain(g, e):
            g.tick(where, node)
            for cond, body in branches:
                if cond(g, e):
                    body(g, e)
                    return
            if orelse is not None:
                orelse(g, e)
        return if_chain, local

    def _s_For(self, node, local, where):
        coll, var = self.expr(node.collection, local), node.var
        body = self.block(node.body, local | {var})

        def for_(g, e):
            g.tick(where, node)
            for item in list(g.iterate(coll(g, e))):
                e[var] = item
                body(g, e)
        return for_, local

    def _s_Auction(self, node, local, where):
        thing, minimum = self.need(node.thing, local, "auctioned"), self.expr(node.minimum, local)
        among = self.expr(node.among, local) if node.among is not None else None
        after = self.expr(node.after, local) if node.after is not None else None
        var = node.var
        windows, passes, bluffing = node.window, node.passes, node.bluffing
        body = self.block(node.body, local | {var})
        orelse = self.block(node.orelse, local) if node.orelse is not None else None
        bluff = self.block(node.bluff, local | {var}) if node.bluff is not None else None

        def auction(g, e):
            g.tick(where, node)
            bidders = among(g, e) if among is not None else g.active
            if after is None and passes == 1 and not bluffing:  # the open auction
                sale = g.auction(thing(g, e), minimum(g, e), bidders, where, windows)
            else:
                sale = None
                sold, low = thing(g, e), minimum(g, e)
                first = after(g, e) if after is not None else None
                exposed = []
                while True:  # a bluffer exposed: the auction runs again from the start without him
                    bidders = [p for p in bidders if p not in exposed]
                    sale = g.round_auction(sold, low, bidders, where, windows, first, passes, bluffing)
                    if sale is None or not bluffing or g.covers_bid(sale, where):
                        break
                    exposed.append(sale.winner)
                    if bluff is not None:
                        e[var] = sale
                        bluff(g, e)
                    sale = None
            if sale is not None:
                e[var] = sale
                body(g, e)
            elif orelse is not None:
                orelse(g, e)
        return auction, local

    def _s_Choose(self, node, local, where):
        by = self.need(node.by, local, "who chooses")
        options = [(o.name, self.expr(o.when, local) if o.when is not None else None, self.block(o.body, local))
                   for o in node.options]
        name = node.name

        def choose(g, e):
            g.tick(where, node)
            chooser = by(g, e)
            legal = [(n, body) for n, when, body in options if when is None or when(g, e)]
            if not legal:
                return
            picked = g.choose(chooser, name, [n for n, _ in legal], where)
            dict(legal)[picked](g, e)
        return choose, local


def owner_prefilter(when, var: str) -> str | None:
    """The field F if `when` starts with `VAR.F == player`: candidates can be filtered by it cheaply."""
    first = when.operands[0] if isinstance(when, ast.BoolOp) and when.op == "and" else when
    if (isinstance(first, ast.Compare) and first.op == "==" and isinstance(first.left, ast.Attr)
            and isinstance(first.left.obj, ast.Name) and first.left.obj.id == var
            and isinstance(first.right, ast.Name) and first.right.id == "player"):
        return first.left.name
    return None
