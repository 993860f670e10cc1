"""A condition taken apart into its conjuncts, for whoever tests or keeps its parts apart.

The legal actions (`dealing._layers`, `actiongen._write_layers`) keep a condition `A and B and …`
in layers: it is split before the longest rest that reads something the first part does not, and
each part's answer is kept under the counters of what it alone reads (reads.py), so a change only
the rest reads tests only the rest again. An amount action (`Dealing._amount_tests`) tests first,
once for all amounts, the conjuncts that do not read the amount. Both need the condition seen
this way: what each conjunct reads, whether the first picks the things a player holds, and runs
of conjuncts compiled on their own by the expression codegen.
"""

from __future__ import annotations

from rulesc.dsl import ast
from rulesc.dsl.walk import walk


class Conjuncts:
    """A condition `A and B and …` (or one that is not an `and`: one conjunct) taken apart, for
    whoever keeps its answers in layers (the legal actions): what each conjunct reads, whether the
    first is `X.F == player` (`holder`: (X, F), else None), and runs of conjuncts compiled on their
    own. A run keeps the whole's position, so a failure in it is reported as the whole's would be.
    `codegen` is the `ExpressionCodegen` that compiled the whole."""

    def __init__(self, codegen, node, local: frozenset):
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
