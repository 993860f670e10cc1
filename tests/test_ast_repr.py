"""The AST nodes share one `__repr__` (dsl/ast.py `_node_repr`, for start-up time); it writes exactly
what attrs's own generated `__repr__` would, for every node class, and a cycle prints `...`."""

from __future__ import annotations

import functools
from pathlib import Path

import attrs
import pytest

from rulesc.dsl import ast, walk
from rulesc.dsl.parsed import parse_file

ROOT = Path(__file__).resolve().parent.parent


@functools.cache
def twin_of(cls: type) -> type:
    """A class of the same name and fields as the node class `cls`, whose `__repr__` attrs generates."""
    return attrs.make_class(cls.__name__, {f.name: attrs.field(repr=f.repr) for f in attrs.fields(cls)},
                            kw_only=True, frozen=True)


def attrs_repr(node) -> str:
    """The repr of `node` by its twin class."""
    cls = type(node)
    return repr(twin_of(cls)(**{f.name: getattr(node, f.name) for f in attrs.fields(cls)}))


@pytest.mark.slow
def test_every_node_class_reprs_as_attrs_would():
    seen = set()
    for path in [ROOT / "tests" / "completeness" / "everything.rules", ROOT / "games" / "wheeler.rules"]:
        for node in walk.walk(parse_file(path)):
            assert repr(node) == attrs_repr(node), type(node).__name__
            seen.add(type(node))
    assert len(seen) > len(ast.NODE_CLASSES) // 2  # most classes met (everything.rules has every construct)


def test_a_cycle_prints_an_ellipsis_as_attrs_does():
    items: list = []
    node = ast.Call(func="f", args=(items,), span=None)
    items.append(node)
    twin_items: list = []
    twin = attrs.make_class("Call", ["func", "args", "span"], kw_only=True, frozen=True)(
        func="f", args=(twin_items,), span=None)
    twin_items.append(twin)
    assert repr(node) == repr(twin) == "Call(func='f', args=([...],), span=None)"
