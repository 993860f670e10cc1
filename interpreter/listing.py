"""The Python generated for a rules file, as one text to read (`rulesc debug codegen`).

Compiling a rules file writes Python: the turn and the arrivals on each square (turngen.py), the
body of each handler, phase, action and card (stmtgen.py), and what the engine writes out on
first use (the legal actions, actiongen.py), and, the same for every file, the engine's operations
that statements write in place (operations.py), compiled once with nothing known. Each of those functions keeps the source it was
compiled from (`pysource.define` sets its `.source`). This module finds them by walking
a loaded `Rules` (its records, lists and tables; the functions that wrap a body; and, in each
generated function's namespace, the generated functions it calls) and puts their sources one
after the other, each after a `# <where it is kept>: <what it was written for>` comment.

The text compiles (`compile(text, path, "exec")`); it is for reading, not for running: the names
a function's namespace binds when it is made (constants, helpers, the rules' records) are not
in it. It reads the `Rules` as it finds them and changes nothing.
"""

from __future__ import annotations

import types

import attrs

from . import operations

FIRST = ("written",)  # the turn and the arrivals, then the rest of `Rules` in the order it declares its fields


def generated_source(rules) -> str:
    """Every function generated for `rules` that kept its source, as one Python text."""
    found = _Listing(rules)
    names = [*FIRST, *(f.name for f in attrs.fields(type(rules)) if f.name not in FIRST)]
    for name in names:  # first what `Rules` holds itself, so that each function is named by where it is kept
        found.structure(getattr(rules, name), name)
    listed = found.listed() + [(f"the engine's operation Game.{f.__name__} (operations.py)", f)
                                for f in (operations.pay, operations.arrive, operations.set_field, operations.two_dice)]
    parts = [f"# The Python generated for {rules.path}: {len(listed)} functions, each after where it is kept\n"
             "# and what it was written for. The names their namespaces bind (constants, helpers, the rules'\n"
             "# records) are not here: this compiles, to be read rather than run.\n"]
    for label, function in listed:
        parts.append(f"\n# {label}\n{function.source}")
    return "".join(parts)


def _generated(value) -> bool:
    """Whether `value` is a function compiled from generated source (its file name is `<label>`)."""
    return isinstance(value, types.FunctionType) and value.__code__.co_filename.startswith("<")


def _ours(value) -> bool:
    """Whether `value` is one of the interpreter's records (a handler, a phase, the written turn ...)."""
    return attrs.has(type(value)) and type(value).__module__.startswith("rulesc.interpreter")


class _Listing:
    def __init__(self, rules):
        self.seen: set = {id(rules)}
        self.functions: list = []  # [(where it is kept, function)], in the order found

    def structure(self, value, path: str) -> None:
        """Find the functions with a source in `value`, kept at `path` of the `Rules`: through its
        tables, lists and records, and through the closures around compiled functions, but not yet through what generated functions call (see `listed`)."""
        stack = [(value, path)]
        while stack:
            value, path = stack.pop()
            children = self._children(value, path, inside_generated=False)
            stack.extend(reversed(children))

    def listed(self) -> list:
        """(label, function) for every function found, each followed by the generated functions
        its namespace holds that `structure` did not find (a body called rather than written in
        place, a function written apart), in a depth-first walk."""
        listed = []
        for path, function in list(self.functions):
            listed.append((self._label(path, function), function))
            known = len(self.functions)
            stack = [(v, f"{path} -> {k}") for k, v in reversed(list(function.__globals__.items()))]
            while stack:
                value, where = stack.pop()
                stack.extend(reversed(self._children(value, where, inside_generated=True)))
            listed.extend((self._label(p, f), f) for p, f in self.functions[known:])
            del self.functions[known:]
        return listed

    def _children(self, value, path: str, inside_generated: bool) -> list:
        """What to look into next from `value` (recording it if it is a function with a source)."""
        if isinstance(value, (str, bytes, int, float, bool, type(None), type)) or id(value) in self.seen:
            return []
        if isinstance(value, dict):
            self.seen.add(id(value))
            return [(v, f"{path}[{k!r}]") for k, v in value.items()]
        if isinstance(value, (list, tuple)):
            self.seen.add(id(value))
            return [(v, f"{path}[{i}]" + (f"({v.name})" if isinstance(getattr(v, "name", None), str) else ""))
                    for i, v in enumerate(value)]
        if _ours(value):
            self.seen.add(id(value))
            return [(getattr(value, f.name), f"{path}.{f.name}") for f in attrs.fields(type(value))]
        if not isinstance(value, types.FunctionType):
            return []
        self.seen.add(id(value))
        if isinstance(getattr(value, "source", None), str):
            self.functions.append((path, value))
            return []  # what it calls: in `listed`, after it
        if _generated(value) and not inside_generated:
            return []  # an expression's function: its namespace holds no statement's
        cells = zip(value.__code__.co_freevars, value.__closure__ or ())
        inner = [(cell.cell_contents, path) for _, cell in cells if _has_contents(cell)]
        if _generated(value):
            inner += [(v, f"{path} -> {k}") for k, v in value.__globals__.items()]
        return inner + [(v, path) for v in vars(value).values()]

    @staticmethod
    def _label(path: str, function) -> str:
        written_for = function.__code__.co_filename[1:-1]
        return f"{path}: {written_for}".replace("\n", " ")


def _has_contents(cell) -> bool:
    try:
        cell.cell_contents
    except ValueError:  # a closure's variable not yet bound
        return False
    return True
