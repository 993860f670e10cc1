"""What the expression codegen proves about an expression before it chooses how to write it.

The translation (codegen.py) writes some expressions as what they compute rather than as they are
written: an aggregate that can look at one thing or at what a player holds, a membership test, a
list worked out once before a loop, a define written where it is called. Each is right only where
a fact about the expression holds (it cannot fail; its filter begins `p == X` or `p.owner == X`;
it compares by value), and those facts are found here, on the AST and the checker's types alone,
without writing any Python: `Safety` (what cannot fail) and `Shapes` (which aggregates have such a
shape).
"""

from __future__ import annotations

from rulesc.dsl import ast
from rulesc.dsl.builtins import PLAYER_FIELDS
from rulesc.dsl.walk import walk

BY_VALUE = frozenset({"money", "count", "percent", "text", "bool"})  # types `in` compares as `==` does


def reads_name(node, name: str) -> bool:
    """Whether expression `node` reads the name `name`."""
    return any(isinstance(n, ast.Name) and n.id == name for n in walk(node))


def _first_test(where) -> tuple:
    """A condition's first conjunct, and the rest (None, the one left, or an `and` of those left)."""
    if not (isinstance(where, ast.BoolOp) and where.op == "and"):
        return where, None
    rest = where.operands[1] if len(where.operands) == 2 else \
        ast.BoolOp(op="and", operands=tuple(where.operands[1:]), span=where.span)
    return where.operands[0], rest


class Safety:
    """A conservative proof that an expression cannot fail: it reads only declared fields of names it
    is given (the rule's own, or an aggregate's over the things of a kind), orders and adds only what
    cannot be `none` by declaration (not by the checker's narrowing, which a split condition may not
    keep), and uses nothing that fails on some values (an index, a division, `min`/`max`, a call).
    Whatever it cannot prove is taken to fail. `codegen` is the `ExpressionCodegen` of the program:
    its parameters, its things by name and its types."""

    SAFE_AGGREGATES = frozenset({"all", "any", "count", "sum"})
    ALWAYS_LISTS = frozenset({"players", "squares"})  # names that are always a list (of players still in, of squares)

    def __init__(self, codegen):
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


class Shapes:
    """The aggregates the translation writes as what they compute, recognised: one whose filter
    picks one thing (`picked`), one whose filter picks what a player holds (`held`), a membership
    test (`member`). `type_of` is the checker's type of a node (`ExpressionCodegen.type_of`)."""

    def __init__(self, program, type_of):
        self.program, self.type_of = program, type_of

    def member(self, node: ast.Aggregate):
        """For `any(t in L: t == X)` (X not reading `t`) over a list of values compared by value (numbers,
        text, truth values: `in` compares them as `==` does): X, else None. X is computed only where
        the list has items, as the loop computes it."""
        t = self.type_of(node.collection)
        body = node.body
        if node.func != "any" or node.where is not None or not t.is_list or t.optional \
                or t.element is None or t.element.name not in BY_VALUE \
                or not (isinstance(body, ast.Compare) and body.op == "=="):
            return None
        for mine, other in ((body.left, body.right), (body.right, body.left)):
            if isinstance(mine, ast.Name) and mine.id == node.var and not reads_name(other, node.var):
                return other
        return None

    def may_be_none(self, node) -> bool:
        """Whether a test's value may be `none` (a test `picked` split off is an `and` of its own)."""
        if isinstance(node, ast.BoolOp):
            return any(self.may_be_none(n) for n in node.operands)
        return self.type_of(node).optional

    def picked(self, node: ast.Aggregate):
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
            if isinstance(mine, ast.Name) and mine.id == node.var and not reads_name(other, node.var):
                return other, rest
        return None

    def held(self, node: ast.Aggregate):
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
                    and self.type_of(mine).name == "player" and not reads_name(other, node.var):
                t = self.type_of(other)
                if t.name == "player" and not t.optional and not t.is_list:
                    return mine.name, other, rest
        return None
