"""Compile checked AST into generated Python, once, so that playing never re-walks the tree.

Every expression becomes `f(g, e) -> value` (codegen.py) and every block of statements
`f(g, e) -> None` (stmtgen.py), where `g` is the running `Game` and `e` the dict of local
names (`player`, a handler's thing, a roll...). This class is what those two share for one
program: the rule locations (`where`: one `RuleRef` per file and line, for the events the
statements cause), the parameters, the procedures compiled so far, and the runtime
diagnostics a statement raises when an operand it needs is `none`. Each statement's meaning
is written once, in stmtgen.py; there is no other way a statement runs.
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
    """Turns the checked program's AST into generated functions; one instance per loaded program."""

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

    def none_failure(self, node):
        """What to call when the thing whose field `node` (`x.f`) reads is `none`."""
        def fail():
            self.fail(f"`{source_text(self.program, node.obj)}` is `none` here, so it has no `{node.name}`", node,
                      help="guard the rule with `when … != none`")
        return fail

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
    def block(self, block: ast.Block, local: frozenset, settles: bool = False):
        """A block as one generated function (stmtgen.py): every statement written out in Python; a
        rule's whole body `settles` (stmtgen.write_settling)."""
        return self.statements.block(block, local, settles)

    def statement(self, node, local: frozenset):
        """One statement on its own (a scenario's `set` line), as a generated function `f(g, e)`."""
        return self.block(ast.Block(statements=(node,), span=node.span), local)

    @property
    def landing_context(self) -> bool:
        """Whether some handler can read what a move says about itself (`moved_by`, a mark): then every
        move tells the engine (`Game.move_marked`), so each arrival's handlers see their own move's."""
        if not hasattr(self, "_landing_context"):
            self._landing_context = bool(move_marks(self.program)) or any(
                isinstance(n, ast.Name) and n.id == MOVED_BY for n in walk(rule_roots(self.program)))
        return self._landing_context

    def supply_of(self, target):
        """The supply that limits a `set` of `thing.field`, if one counts that field of its kind."""
        if not isinstance(target, ast.Attr):
            return None
        kind = getattr(self.types.get(id(target.obj)), "name", None)
        return next((s for s in self.codegen.supplies.values() if s.field == target.name and s.kind == kind), None)

    def procedure(self, name: str):
        """A procedure's compiled body, compiled on first use (so procedures may call each other)."""
        body = self.procedures.get(name)
        if body is None:
            proc = self.program.procedures[name]
            body = self.procedures[name] = self.block(proc.body, frozenset(pname for pname, _ in proc.params))
        return body


def owner_prefilter(when, var: str) -> str | None:
    """The field F if `when` starts with `VAR.F == player`: candidates can be filtered by it cheaply."""
    first = when.operands[0] if isinstance(when, ast.BoolOp) and when.op == "and" else when
    if (isinstance(first, ast.Compare) and first.op == "==" and isinstance(first.left, ast.Attr)
            and isinstance(first.left.obj, ast.Name) and first.left.obj.id == var
            and isinstance(first.right, ast.Name) and first.right.id == "player"):
        return first.left.name
    return None
