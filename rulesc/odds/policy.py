"""A stated policy for the chain: how the player decides (`--decide`) and the fields it fixes (`--state`).

A decision that moves the token (leave a status at once or throw for doubles, use a card at once or keep it)
has no law of its own: the chain cannot be exact about it without being told how the player
decides. `--decide NAME=OPTION` tells it, for every decision the rules put to the moving player
by that name: a `choose`'s option, `play` or `skip` for an optional phase, `first` or `last` for a
`choose … for` (the first or last element its collection offers), `keep` or `use` for a card that
may be kept. `--state FIELD=VALUE` fixes a player's field that actions change (a thing bought), so
that a roll depending on it is exact for that value. The figures are then exact *under the stated
policy*, and the output says which. This module finds the rules' decisions, checks the names given
against them (with the rule's line and the nearest names) and parses the values.
"""

from __future__ import annotations

import difflib

import attrs

from rulesc.dsl import ast
from rulesc.dsl.model import rule_roots
from rulesc.dsl.walk import walk

KEEP = "keep"  # the engine's decision, when a card that may be kept is drawn: keep it, or use it at once
FOR_RULES = ("first", "last")  # how a `choose … for` may be decided


class PolicyError(ValueError):
    """A `--decide` or `--state` the rules do not have: the message names the rule and the near names."""


@attrs.frozen
class Decision:
    name: str
    what: str  # how the report names it
    options: tuple
    where: str  # file:line


@attrs.frozen
class Policy:
    decide: dict = attrs.field(factory=dict)  # decision name -> option
    state: dict = attrs.field(factory=dict)  # player field -> value as the chain reads it
    written: tuple = ()  # the options as given, for the report: ("NAME=OPTION", "FIELD=VALUE")

    def __bool__(self) -> bool:
        return bool(self.decide or self.state)


def decisions(program) -> dict:
    """Every named decision of the rules that a policy may fix: name -> `Decision` (its first place)."""
    found: dict = {}

    def note(name, what, options, span):
        if name not in found:
            found[name] = Decision(name, what, tuple(options), _where(program, span))

    phases = list(program.turn.phases) if program.turn is not None else []
    for status in program.statuses.values():
        phases += list(status.phases)
    for phase in phases:
        if phase.optional:
            note(phase.name, f"the optional phase `{phase.name}`", ("play", "skip"), phase.span)
    for node in walk(rule_roots(program)):
        if isinstance(node, ast.Choose):
            note(node.name, f"the decision `{node.name}`", [o.name for o in node.options], node.span)
        elif isinstance(node, ast.ChooseFor):
            note(node.name, f"the decision `{node.name}`", FOR_RULES, node.span)
    for deck in program.decks.values():
        for card in deck.cards:
            if card.keep:
                note(KEEP, "whether a card that may be kept is kept", ("keep", "use"), card.span)
    return found


def parse(program, decide_texts, state_texts, path: str) -> Policy:
    """The policy of the `--decide` and `--state` options; a `PolicyError` for a name the rules lack."""
    known = decisions(program)
    decide: dict = {}
    written = []
    for text in decide_texts:
        name, option = _pair(text, "--decide", "NAME=OPTION", "leave=play")
        if name not in known:
            listed = ", ".join(f"`{n}`" for n in sorted(known)) or "none"
            raise PolicyError(f"--decide {text}: `{path}` has no decision `{name}`{_near(name, known)} "
                              f"(its decisions: {listed})")
        d = known[name]
        if option not in d.options:
            raise PolicyError(f"--decide {text}: {d.what} ({d.where}) has no option `{option}`"
                              f"{_near(option, d.options)} (write {name}=" + f" or {name}=".join(d.options) + ")")
        decide[name] = option
        written.append(f"{name}={option}")
    state: dict = {}
    for text in state_texts:
        name, value = _pair(text, "--state", "FIELD=VALUE", "field=0")
        if name not in program.player_fields:
            raise PolicyError(f"--state {text}: `{path}` has no player field `{name}`"
                              f"{_near(name, program.player_fields)}")
        state[name] = _value(program, text, value)
        written.append(f"{name}={value}")
    return Policy(decide, state, tuple(written))


def _pair(text: str, option: str, form: str, example: str) -> tuple:
    name, sep, value = text.partition("=")
    if not sep or not name.strip() or not value.strip():
        raise PolicyError(f"{option} `{text}`: write {form}, e.g. {option} {example}")
    return name.strip(), value.strip()


def _value(program, text: str, value: str):
    from .values import Place
    if value in ("true", "false"):
        return value == "true"
    if value == "none":
        return None
    plain = value.lstrip("$").replace(",", "")
    if plain.lstrip("-").isdigit():
        return int(plain)
    names = set(program.squares) | set(program.things)
    if value in names:
        return Place(value)
    if value in program.statuses:
        return value
    raise PolicyError(f"--state {text}: `{value}` is not a number, true/false, none, a square, a thing or a "
                      f"status of the rules{_near(value, names | set(program.statuses))}")


def _near(name: str, names) -> str:
    close = difflib.get_close_matches(name, list(names), n=2)
    return "; did you mean " + " or ".join(f"`{c}`" for c in close) + "?" if close else ""


def _where(program, span) -> str:
    path = span.file or program.path
    return f"{path.rsplit('/', 1)[-1]}:{span.line}"
