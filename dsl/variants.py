"""Variants: a file that `extends` another starts from its declarations and changes some.

`load_file` reads a rules file and, if it begins with `extends "base.rules"`, loads the
base (itself perhaps a variant), then applies the variant's changes in order:
`override param`, `override game`, `replace phase`, `remove phase`, `replace card`,
`remove card`, `extend deck`, `remove scenario`; any other declaration is added as in a plain file (so a
redefinition is still R0202). Declarations keep the span of the file they come from, so
diagnostics and events point into the base where the base is meant.
"""

from __future__ import annotations

import difflib
from pathlib import Path

import attrs

from . import ast
from .diagnostics import Diagnostic, RulesError
from .parser import parse_file

MAX_CHAIN = 16


def load_file(path) -> ast.RulesFile:
    """Parse a rules file and resolve its `extends` chain; raise RulesError on any problem."""
    return _load(Path(path), [])


def _load(path: Path, chain: list) -> ast.RulesFile:
    rules = parse_file(path)
    extends = [d for d in rules.decls if isinstance(d, ast.Extends)]
    variations = [d for d in rules.decls if isinstance(d, ast.Variation)]
    if not extends:
        if variations:
            raise RulesError([_error("R0511", f"`{variations[0].what}` needs a base: start the file with `extends`",
                                     variations[0])])
        return attrs.evolve(rules, sources={rules.path: rules.source})
    first = extends[0]
    if len(extends) > 1 or rules.decls[0] is not first:
        raise RulesError([_error("R0511", "`extends` comes once, before every other declaration", extends[-1])])
    base_path = (path.parent / first.path)
    key = base_path.resolve()
    if key in chain or len(chain) >= MAX_CHAIN:
        raise RulesError([_error("R0512", f"`extends \"{first.path}\"` makes a cycle of variants", first)])
    if not base_path.is_file():
        raise RulesError([_error("R0513", f"the base file `{first.path}` does not exist", first,
                                 help=f"the path is relative to `{path}`")])
    if base_path.suffix != ".rules":  # a rules file reads only rules files: never echo another file's lines
        raise RulesError([_error("R0513", f"the base file `{first.path}` is not a `.rules` file", first,
                                 help="`extends` names another rules file, ending in `.rules`")])
    base = _load(base_path, chain + [path.resolve()])
    decls = list(base.decls)
    problems: list[Diagnostic] = []
    for decl in rules.decls[1:]:
        if isinstance(decl, ast.Variation):
            problem = _apply(decls, decl)
            if problem is not None:
                problems.append(problem)
        else:
            decls.append(decl)
    if problems:
        raise RulesError(problems)
    sources = {**base.sources, rules.path: rules.source}
    return attrs.evolve(rules, decls=tuple(decls), sources=sources)


def _error(code: str, message: str, node, help: str | None = None, labels=()) -> Diagnostic:
    return Diagnostic("error", code, message, node.span.file or "", node.span, labels=tuple(labels), help=help)


def _find(decls: list, kind, test=lambda d: True) -> int | None:
    return next((i for i, d in enumerate(decls) if isinstance(d, kind) and test(d)), None)


def _apply(decls: list, v: ast.Variation) -> Diagnostic | None:
    """Apply one change to the base's declarations (in place); a Diagnostic if it cannot be."""
    if v.what == "override param":
        i = _find(decls, ast.Param, lambda d: d.name == v.target)
        if i is None:
            return _missing(v, "parameter", [d.name for d in decls if isinstance(d, ast.Param)])
        decls[i] = v.node
    elif v.what == "override game":
        i = _find(decls, ast.Game)
        if i is None:
            return _error("R0510", "the base has no `game` header to override", v)
        base = decls[i]
        settings = {s.key: s for s in base.settings}
        settings.update({s.key: s for s in v.node.settings})
        decls[i] = attrs.evolve(base, title=v.node.title, settings=tuple(settings.values()))
    elif v.what == "remove scenario":
        i = _find(decls, ast.Scenario, lambda d: d.title == v.target)
        if i is None:
            return _missing(v, "scenario", [d.title for d in decls if isinstance(d, ast.Scenario)])
        del decls[i]
    elif v.what in ("replace phase", "remove phase"):
        i = _find(decls, ast.Turn)
        phases = list(decls[i].phases) if i is not None else []
        j = next((k for k, p in enumerate(phases) if p.name == v.target), None)
        if j is None:
            return _missing(v, "phase", [p.name for p in phases])
        if v.node is None:
            del phases[j]
        else:
            phases[j] = v.node
        decls[i] = attrs.evolve(decls[i], phases=tuple(phases))
    else:
        deck_name, _, card_name = v.target.partition(".")
        i = _find(decls, ast.Deck, lambda d: d.name == deck_name)
        if i is None:
            return _missing(v, "deck", [d.name for d in decls if isinstance(d, ast.Deck)], deck_name)
        cards = list(decls[i].cards)
        if v.what == "extend deck":
            cards.extend(v.node)
        else:
            j = next((k for k, c in enumerate(cards) if c.name == card_name), None)
            if j is None:
                return _missing(v, f"card in deck `{deck_name}`", [c.name for c in cards], card_name)
            if v.node is None:
                del cards[j]
            else:
                cards[j] = v.node
        decls[i] = attrs.evolve(decls[i], cards=tuple(cards))
    return None


def _missing(v: ast.Variation, what: str, names: list, target: str | None = None) -> Diagnostic:
    target = target or v.target
    near = difflib.get_close_matches(target, names, n=3, cutoff=0.6)
    help = ("did you mean " + " or ".join(f"`{n}`" for n in near) + "?") if near else \
        (f"the base has: {', '.join(f'`{n}`' for n in names)}" if names else None)
    return _error("R0510", f"`{v.what} {v.target}`: the base has no {what} `{target}`", v, help=help)

