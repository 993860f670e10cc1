"""The types of rules expressions, and the small algebra the checker needs over them.

A type is a plain immutable value: a base name ("money", "count", "percent", "bool",
"text", "player", "square", "account", "sale", "roll", "none", "any" or the name of a
kind or group), an optional flag (`player?`) and, for lists, an element type.
"""

from __future__ import annotations

import attrs



@attrs.frozen
class Type:
    name: str
    optional: bool = False
    element: "Type | None" = None

    @property
    def is_list(self) -> bool:
        return self.name == "list"

    def required(self) -> "Type":
        return attrs.evolve(self, optional=False)

    def maybe(self) -> "Type":
        return attrs.evolve(self, optional=True)

    def __str__(self) -> str:
        if self.is_list:
            text = f"[{self.element}]"
        else:
            text = self.name
        return text + ("?" if self.optional else "")


MONEY = Type("money")
COUNT = Type("count")
PERCENT = Type("percent")
BOOL = Type("bool")
TEXT = Type("text")
PLAYER = Type("player")
SQUARE = Type("square")
ACCOUNT = Type("account")
SALE = Type("sale")
ROLL = Type("roll")
NONE = Type("none")
ANY = Type("any")


def list_of(t: Type) -> Type:
    return Type("list", element=t)


def compatible(expected: Type, actual: Type, kinds_on_board: set[str] | None = None) -> bool:
    """May a value of type `actual` stand where `expected` is required?"""
    if expected.name == "any" or actual.name == "any":
        return True
    if actual.name == "none":
        return expected.optional
    if actual.optional and not expected.optional:
        return False
    if expected.is_list and actual.is_list:
        assert expected.element is not None and actual.element is not None  # a list type always has its elements' type
        return compatible(expected.element, actual.element, kinds_on_board)
    if expected.name == actual.name:
        return True
    if expected.name == "account" and actual.name == "player":
        return True
    if expected.name == "square" and kinds_on_board is not None and actual.name in kinds_on_board:
        return True
    return False


def comparable(a: Type, b: Type, kinds_on_board: set[str]) -> bool:
    if a.name in ("none", "any") or b.name in ("none", "any"):
        return True
    return compatible(a.required(), b.required(), kinds_on_board) or compatible(b.required(), a.required(), kinds_on_board)
