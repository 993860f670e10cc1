"""The type check: mypy over the language (dsl/) and the engine (interpreter/), configured in pyproject.toml
(`[tool.mypy]`; `mypy` from the project's folder runs the same check), and the AST's annotations held
to what the parser really builds.

mypy trusts the annotations of the AST's node classes (`If.branches: tuple[tuple[Expr, Block], ...]`),
but the transformer builds the nodes from Lark's untyped children, so nothing static checks that a
node holds what its class says. The second half of this file does, at run time, over every shipped
game, example and construct of the language: a node class's annotation that no longer says what its
field holds fails here.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path

import pytest

from rulesc.dsl import ast
from rulesc.dsl.parsed import parse_file
from rulesc.dsl.variants import load_file
from rulesc.dsl.walk import walk

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mypy_finds_no_error_in_dsl_and_interpreter():
    api = pytest.importorskip("mypy.api")
    out, err, status = api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                "--cache-dir", str(ROOT / ".mypy_cache")])
    assert status == 0, out + err
    assert out.startswith("Success: no issues found"), out + err


# ---- the node unions ---------------------------------------------------------------------------

def test_the_statement_union_is_every_statement_class():
    """`ast.Stmt` is every class declared with @statement: a new statement is in the union (and so in the
    annotations that use it, `Block.statements`) the day it is declared."""
    assert set(typing.get_args(ast.Stmt)) == set(ast.STATEMENT_CLASSES)


def test_the_expression_union_is_every_class_declared_before_the_statements():
    expressions = set(typing.get_args(ast.Expr))
    first_statement = ast.NODE_CLASSES.index(ast.STATEMENT_CLASSES[0])
    assert expressions == set(ast.NODE_CLASSES[:first_statement])


def test_the_unions_hold_node_classes_only():
    nodes = set(ast.NODE_CLASSES)
    for union in (ast.Expr, ast.Stmt, ast.Decl, ast.ScenarioItem):
        assert set(typing.get_args(union)) <= nodes


_HINTS = {cls: typing.get_type_hints(cls, vars(ast)) for cls in ast.NODE_CLASSES}  # each field's annotation


def _hints(cls) -> dict:
    return _HINTS[cls]


def test_every_field_of_a_node_says_what_it_holds():
    """No field is left `object`, `Any` or a bare `tuple` or `dict`: mypy would see nothing of it."""
    vague = {object, typing.Any, tuple, dict, list}
    found = [f"{cls.__name__}.{name}: {hint}" for cls in ast.NODE_CLASSES for name, hint in _hints(cls).items()
             if hint in vague]
    assert found == []


def _holds(value, hint) -> bool:
    """Whether `value` is of the type `hint` (the forms the AST's annotations use)."""
    if hint is typing.Any:
        return True
    if hint is type(None):
        return value is None
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        return any(_holds(value, arg) for arg in typing.get_args(hint))
    if origin is tuple:
        args = typing.get_args(hint)
        if not isinstance(value, tuple):
            return False
        if len(args) == 2 and args[1] is Ellipsis:
            return all(_holds(item, args[0]) for item in value)
        return len(value) == len(args) and all(_holds(item, arg) for item, arg in zip(value, args))
    if origin is dict:
        key, item = typing.get_args(hint)
        return isinstance(value, dict) and all(_holds(k, key) and _holds(v, item) for k, v in value.items())
    return isinstance(value, hint)


def _corpus() -> list[Path]:
    """Every shipped game, example and construct (tests/completeness/ uses every one)."""
    return sorted([*(ROOT / "games").glob("*.rules"), *(ROOT / "examples").glob("*.rules"),
                   *(ROOT / "tests" / "completeness").glob("*.rules")])


def test_the_holder_of_types_reads_the_annotations_forms():
    assert _holds((1, "a"), tuple[int, str]) and not _holds((1, 2), tuple[int, str])
    assert _holds((), tuple[ast.Expr, ...]) and not _holds(("a",), tuple[ast.Expr, ...])
    assert _holds(None, ast.Expr | None) and not _holds(None, ast.Expr)
    assert _holds({"a": "b"}, dict[str, str]) and not _holds({"a": 1}, dict[str, str])


@pytest.mark.parametrize("path", _corpus(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_node_holds_what_its_class_says(path):
    """Each field of each node of the file, as parsed (a variant's variations among them) and as
    resolved against its base, holds a value of its annotated type."""
    wrong = []
    for tree in (parse_file(path), load_file(path)):
        for node in walk(tree):
            for name, hint in _hints(type(node)).items():
                value = getattr(node, name)
                if not _holds(value, hint):
                    wrong.append(f"{type(node).__name__}.{name} at line {node.span.line}: {value!r:.80} is not {hint}")
    assert wrong == []
