"""A generated Python function as it is written: its lines, the names its code refers to, and how
it is compiled.

Every piece of generated code (a block's statements, the turn, an arrival, the engine's most
frequent operations, the legal actions, an agent's wants, the things' start) is written into a
`Function` line by line and made a real function by `define`. Each keeps its source
(`function.source`), which `rulesc debug codegen` prints.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, NoReturn, Protocol

from .helpers import HELPERS

if TYPE_CHECKING:
    from .conjuncts import Conjuncts


class Compiled(Protocol):
    """A compiled expression as those who call it know it: a generated function `f(g, e)` of the game
    and the rule's names in scope, which says what it reads. `ExpressionCodegen.function` makes them
    (`Expression`); a define's kept answers (kept.py) and a state field with no default (rules.py)
    are functions given the same attributes."""

    reads: frozenset[str]  # the fields and markers it reads (reads.py): what its answer stands on
    locals: frozenset[str]  # the rule's names it reads

    def __call__(self, g: Any, e: dict[str, Any], /) -> Any: ...


class Expression(Compiled, Protocol):
    """A compiled expression as `ExpressionCodegen.function` makes it: with the failure it reports and
    what else its codegen can say of it, each worked out when first asked."""

    fail: Callable[[BaseException], NoReturn]  # raises the rule's error for what its code raised
    conjuncts: Callable[[], Conjuncts]
    cannot_fail: Callable[[], bool]
    branches: Callable[[], tuple[Expression, Expression, Expression] | None]  # `if C then A else B` as C, A, B
    best: Callable[[str], Callable[[Any, Any, list[Any]], Any]]  # best(g, player, options), by the named option
    inline: Callable[[dict[str, str]], tuple[str, dict[str, Any], frozenset[str]]]


Body = Callable[[Any, dict[str, Any]], None]  # a compiled block of statements, `f(g, e)` (stmtgen.py)


class Function:
    """The lines and the names of one generated function."""

    def __init__(self):
        self.lines: list[str] = []
        self.namespace: dict = dict(HELPERS)
        self.count = 0
        self.steps: list[list] = []  # per block being written: [its statements' steps, the first's node name]
        self.failing: dict = {}  # index in `lines` of a line computing an expression -> its failure (`_expr`)
        self.fixed: dict = {}  # rule names the lines being written read from Python locals (`StatementCodegen.write`)

    def name(self, prefix: str, value) -> str:
        """A name in the function's namespace bound to `value`."""
        self.count += 1
        name = f"{prefix}{self.count}"
        self.namespace[name] = value
        return name

    def temp(self) -> str:
        self.count += 1
        return f"_t{self.count}"

    def add(self, indent: int, line: str) -> None:
        self.lines.append("    " * indent + line)

    def add_failing(self, indent: int, line: str, failure) -> None:
        """A line of an expression: what it raises (`helpers.EXPRESSION_ERRORS`) is `failure`'s rule error."""
        self.failing[len(self.lines)] = failure
        self.add(indent, line)

    def insert(self, index: int, lines: list) -> None:
        """`lines` put in before line `index`, written already; the lines after it move down."""
        self.lines[index:index] = lines
        self.failing = {i + len(lines) if i >= index else i: failure for i, failure in self.failing.items()}

    def source_loops(self, indent: int) -> int:
        """How many loops and `try`s (Python allows 20 nested) enclose a line written at `indent` now."""
        loops, level = 0, indent
        for line in reversed(self.lines):
            stripped = line.lstrip(" ")
            depth = (len(line) - len(stripped)) // 4
            if depth < level:
                level = depth
                loops += stripped.startswith(("for ", "while ", "try:"))
                if level <= 1:
                    break
        return loops



def define(fn: Function, name: str, parameters: str, label: str) -> Any:
        """The function `name(parameters)` of `fn`'s lines, compiled; `label` names it in tracebacks.

        What an expression's lines raise is turned into the expression's rule error by one handler
        around the whole body, which finds the line that failed in the traceback (the first entry
        of a traceback caught in a frame is that frame's own line), rather than by a `try` around
        each: a handler's code lies between the lines that run, and a turn runs through more code
        than the processor's first-level cache holds."""
        body = fn.lines or ["    pass"]
        if fn.failing:
            first = 3  # the body's first line, after `def` and `try:`
            fn.namespace["_failing"] = {first + index: failure for index, failure in fn.failing.items()}
            body = ["    try:", *("    " + line for line in body), "    except _ERRORS as exc:",
                    "        _failure = _failing.get(exc.__traceback__.tb_lineno)",
                    "        if _failure is None:",  # not an expression's line: not a rule's error
                    "            raise",
                    "        _failure(exc)"]
        code = f"def {name}({parameters}):\n" + "\n".join(body) + "\n"
        exec(compile(code, f"<{label}>", "exec"), fn.namespace)
        function = fn.namespace[name]
        function.source = code  # for reading and debugging
        return function
