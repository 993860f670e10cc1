"""Variants: a file that `extends` another starts from its declarations and changes some.

`load_file` reads a rules file and, if it begins with `extends "base.rules"`, loads the
base (itself perhaps a variant), then applies the variant's changes in order:
`override param`, `override game`, `override table`, `override board`, `replace phase`,
`remove phase`, `insert phase … after|before`, `replace card`, `remove card`, `extend deck`,
`remove deck`, `remove scenario`, `replace`/`remove` of a handler, hook or action, `remove row`,
`remove invariant`, `remove end`, `remove param`; any other declaration is added as in a plain file (so a
redefinition is still R0202). Declarations keep the span of the file they come from, so
diagnostics and events point into the base where the base is meant.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import ast, codes
from .diagnostics import Diagnostic, Label, RulesError, Span
from .fixes import Help, nearest
from .parsed import parse_file

MAX_CHAIN = 16


def load_file(path) -> ast.RulesFile:
    """Parse a rules file and resolve its `extends` chain; raise RulesError on any problem."""
    return _load(Path(path), [])


def _cycle(first: ast.Extends, path: Path, key: Path, chain: list) -> Diagnostic:
    """R0512 at the `extends` that closes a cycle, with a note at every other `extends` of it."""
    start = next((i for i, (resolved, _, _) in enumerate(chain) if resolved == key), None)
    if start is None:  # the chain is too long rather than a cycle
        return _error(codes.VARIANT_CYCLE, f"`extends \"{first.path}\"` makes a chain of more than {MAX_CHAIN} variants", first)
    links = chain[start:]
    names = [Path(shown).name for _, shown, _ in links] + [path.name, Path(links[0][1]).name]
    labels = [Label(node.span, f"`{Path(shown).name}` extends `{node.path}`", node.span.file or shown)
              for _, shown, node in links]
    return _error(codes.VARIANT_CYCLE, f"`extends \"{first.path}\"` makes a cycle of variants: " + " extends ".join(
        f"`{n}`" for n in names), first, labels=labels,
        help="one of these files must be the base game, with no `extends`")


def base_of(path) -> Path | None:
    """The file a variant `extends` (as its loaded declarations name it), or None for a game with no base."""
    rules = parse_file(Path(path))
    first = next((d for d in rules.decls if isinstance(d, ast.Extends)), None)
    return None if first is None else _resolve_base(Path(path), first.path)


def resolve(rules: ast.RulesFile, path) -> ast.RulesFile:
    """Resolve the `extends` chain of a file already parsed (an editor's unsaved buffer at `path`):
    its base is read from disk relative to `path`, as `load_file` would."""
    return _resolve(rules, Path(path), [])


def _load(path: Path, chain: list) -> ast.RulesFile:
    return _resolve(parse_file(path), path, chain)


def _resolve(rules: ast.RulesFile, path: Path, chain: list) -> ast.RulesFile:
    extends = [d for d in rules.decls if isinstance(d, ast.Extends)]
    variations = [d for d in rules.decls if isinstance(d, ast.Variation)]
    if not extends:
        if variations:
            raise RulesError([_error(codes.MISPLACED_EXTENDS, f"`{variations[0].what}` needs a base: start the file with `extends`",
                                     variations[0])])
        return ast.evolve(rules, sources={rules.path: rules.source})
    first = extends[0]
    if len(extends) > 1 or rules.decls[0] is not first:
        raise RulesError([_error(codes.MISPLACED_EXTENDS, "`extends` comes once, before every other declaration", extends[-1])])
    base_path = _resolve_base(path, first.path)
    key = base_path.resolve()
    if key in [resolved for resolved, _, _ in chain] or len(chain) >= MAX_CHAIN:
        raise RulesError([_cycle(first, path, key, chain)])
    if base_path.is_dir():
        raise RulesError([_error(codes.MISSING_BASE_FILE, f"the base file `{first.path}` is a folder, not a file", first,
                                 help="`extends` names another rules file, ending in `.rules`")])
    if not base_path.is_file():
        shipped = ", ".join(f"`{n}`" for n in shipped_games())
        raise RulesError([_error(codes.MISSING_BASE_FILE, f"the base file `{first.path}` does not exist", first,
                                 help=f"the path is relative to `{path}`; a bare name is also looked up among "
                                      f"the games shipped with rulesc: {shipped}")])
    if base_path.suffix != ".rules":  # a rules file reads only rules files: never echo another file's lines
        raise RulesError([_error(codes.MISSING_BASE_FILE, f"the base file `{first.path}` is not a `.rules` file", first,
                                 help="`extends` names another rules file, ending in `.rules`")])
    base = _load(base_path, chain + [(path.resolve(), str(path), first)])
    decls = list(base.decls)
    overrides = list(base.overrides)
    removals = list(base.removals)
    warnings = list(base.warnings)
    problems: list[Diagnostic] = []
    for decl in rules.decls[1:]:
        if isinstance(decl, ast.Variation):
            if decl.what.startswith("remove "):
                removals.append(decl)
            problem = _apply(decls, decl, overrides, warnings)
            if problem is not None:
                problems.append(problem)
        else:
            decls.append(decl)
    if problems:
        raise RulesError(problems)
    sources = {**base.sources, rules.path: rules.source}
    return ast.evolve(rules, decls=tuple(decls), sources=sources, overrides=tuple(overrides),
                      removals=tuple(removals), warnings=tuple(warnings))


def _shipped_dirs() -> list[Path]:
    """Where the games shipped with rulesc are: the package's `rulesc.games` (an installed wheel
    holds games/*.rules there), and the source tree's games/ folder."""
    dirs = []
    try:
        from importlib import resources
        dirs.append(Path(str(resources.files("rulesc.games"))))
    except (ImportError, TypeError, ValueError):
        pass
    dirs.append(Path(__file__).resolve().parent.parent / "games")
    return [d for d in dirs if d.is_dir()]


def shipped_games() -> list[str]:
    """The names of the shipped games, which `extends` finds from any folder."""
    return sorted({p.stem for d in _shipped_dirs() for p in d.glob("*.rules")})


def _resolve_base(path: Path, written: str) -> Path:
    """`extends "X"`: X relative to the variant's own folder; if no such file and X is a bare name
    (`NAME` or `NAME.rules`, no folder), the shipped game of that name."""
    here = Path(os.path.normpath(path.parent / written))  # `examples/../games/x.rules` shown as `games/x.rules`
    if here.is_file() or "/" in written or "\\" in written:
        return here
    name = written if written.endswith(".rules") else written + ".rules"
    if name != written and (path.parent / name).is_file():
        return path.parent / name
    for d in _shipped_dirs():
        if (d / name).is_file():
            return d / name
    return here


def _error(code: codes.Code, message: str, node, help: str | None = None, labels=()) -> Diagnostic:
    return code.diagnostic(message, node.span.file or "", node.span, labels=tuple(labels), help=help)


def _find(decls: list, kind, test=lambda d: True) -> int | None:
    return next((i for i, d in enumerate(decls) if isinstance(d, kind) and test(d)), None)


# `remove WHAT KEY`: the declaration of that kind whose field KEY names it, and what a message calls it.
REMOVALS = {
    "remove invariant": (ast.Invariant, "text", "invariant"),
    "remove end": (ast.EndDecl, "reason", "end condition"),
    "remove param": (ast.Param, "name", "parameter"),
    "remove deck": (ast.Deck, "name", "deck"),
}


def _apply(decls: list, v: ast.Variation, overrides: list, warnings: list) -> Diagnostic | None:
    """Apply one change to the base's declarations (in place); a Diagnostic if it cannot be.
    An overridden parameter is recorded in `overrides` as (the override, the base's declaration),
    so that the type checker can report a value of the wrong type at the override."""
    if v.what == "override param":
        i = _find(decls, ast.Param, lambda d: d.name == v.target)
        if i is None:
            return _missing(v, "parameter", [d.name for d in decls if isinstance(d, ast.Param)])
        assert isinstance(v.node, ast.Param)  # the new declaration (as for every `what`: ast.Variation)
        overrides.append(ast.Override(v.node, decls[i]))
        decls[i] = v.node
    elif v.what == "override game":
        i = _find(decls, ast.Game)
        if i is None:
            return _error(codes.VARIANT_TARGET_MISSING, "the base has no `game` header to override", v)
        assert isinstance(v.node, ast.Game)
        base = decls[i]
        settings = {s.key: s for s in base.settings}
        settings.update({s.key: s for s in v.node.settings})
        decls[i] = ast.evolve(base, title=v.node.title, settings=tuple(settings.values()))
    elif v.what == "remove scenario":
        i = _find(decls, ast.Scenario, lambda d: d.title == v.target)
        if i is None:
            return _missing(v, "scenario", [d.title for d in decls if isinstance(d, ast.Scenario)])
        del decls[i]
    elif v.what in ("replace handler", "remove handler", "replace case"):
        return _apply_handler(decls, v)
    elif v.what in ("replace action", "remove action"):
        i = _find(decls, ast.ActionDecl, lambda d: d.name == v.target)
        if i is None:
            return _missing(v, "action", [d.name for d in decls if isinstance(d, ast.ActionDecl)])
        _put(decls, i, v.node)
    elif v.what in REMOVALS:
        kind, key, noun = REMOVALS[v.what]
        i = _find(decls, kind, lambda d: getattr(d, key) == v.target)
        if i is None:
            return _missing(v, noun, [getattr(d, key) for d in decls if isinstance(d, kind)])
        del decls[i]
    elif v.what == "remove row":
        return _remove_row(decls, v)
    elif v.what == "override table":
        return _override_table(decls, v)
    elif v.what in ("replace phase", "remove phase", "insert phase after", "insert phase before"):
        return _change_phase(decls, v, warnings)
    elif v.what in ("replace status phase", "remove status phase"):
        return _change_status_phase(decls, v)
    elif v.what in ("replace procedure", "replace define"):
        kind = ast.Procedure if v.what == "replace procedure" else ast.Define
        i = _find(decls, kind, lambda d: d.name == v.target)
        if i is None:
            return _missing(v, v.what.split()[1], [d.name for d in decls if isinstance(d, kind)])
        decls[i] = v.node
    elif v.what == "override board":
        i = _find(decls, ast.Board)
        if i is None:
            return _error(codes.VARIANT_TARGET_MISSING, "the base has no `board:` to override", v,
                          help="a variant without a board to change declares one with `board:`")
        decls[i] = v.node
    else:
        deck_name, _, card_name = v.target.partition(".")
        i = _find(decls, ast.Deck, lambda d: d.name == deck_name)
        if i is None:
            return _missing(v, "deck", [d.name for d in decls if isinstance(d, ast.Deck)], deck_name)
        cards = list(decls[i].cards)
        if v.what == "extend deck":
            assert isinstance(v.node, tuple)  # the cards it adds
            cards.extend(v.node)
        else:
            j = next((k for k, c in enumerate(cards) if c.name == card_name), None)
            if j is None:
                return _missing(v, f"card in deck `{deck_name}`", [c.name for c in cards], card_name)
            if v.node is None:
                del cards[j]
            else:
                cards[j] = v.node
        decls[i] = ast.evolve(decls[i], cards=tuple(cards))
    return None


def _change_phase(decls: list, v: ast.Variation, warnings: list) -> Diagnostic | None:
    """`replace phase NAME`, `remove phase NAME`, `insert phase NAME … after|before OTHER`: the
    turn's phases are changed in place; an inserted phase goes next to the one it names."""
    i = _find(decls, ast.Turn)
    phases = list(decls[i].phases) if i is not None else []
    j = next((k for k, p in enumerate(phases) if p.name == v.target), None)
    if i is None or j is None:  # (no turn: no phase either)
        return _missing(v, "phase", [p.name for p in phases])
    if v.what.startswith("insert"):
        phases.insert(j + 1 if v.what.endswith("after") else j, v.node)
    elif v.node is None:
        del phases[j]
    else:
        assert isinstance(v.node, ast.Phase)
        base = phases[j]
        phases[j], kept = _replaced_phase(base, v.node)
        if kept:
            warnings.append(_kept_warning(v, base, kept))
    decls[i] = ast.evolve(decls[i], phases=tuple(phases))
    return None


def _replaced_phase(base: ast.Phase, new: ast.Phase) -> tuple[ast.Phase, list[str]]:
    """The phase `replace phase` makes: the replacement's, with the base's `when` and `optional` where it
    states none (a phase that runs only in some turns, or may be skipped, stays so unless the variant
    says otherwise: `when true` runs it every turn). Also which of the two it kept."""
    kept = []
    if new.when is None and base.when is not None:
        new = ast.evolve(new, when=base.when)
        kept.append("when")
    if base.optional and not new.optional:
        new = ast.evolve(new, optional=True)
        kept.append("optional")
    return new, kept


def _kept_warning(v: ast.Variation, base: ast.Phase, kept: list[str]) -> Diagnostic:
    """R0517 at the variant's `replace phase`, with a note at the base's phase."""
    condition = _text(base.when) if "when" in kept else None
    what = " and ".join(f"`when {condition or '…'}`" if k == "when" else "`optional`" for k in kept)
    helps = []
    if "when" in kept:
        helps.append(f"write the condition on the replacement to keep it (`when {condition or '…'}`), or "
                     "`when true` to run the phase in every turn")
    if "optional" in kept:
        helps.append("write `optional` to keep it; a phase that may no longer be skipped is removed and inserted "
                     "again (`remove phase`, then `insert phase … after`)")
    return codes.PHASE_KEEPS_BASE_CONDITION.diagnostic(
        f"`replace phase {v.target}` keeps the base's {what}, which the replacement does not state",
        v.span.file or "", v.span, help="; ".join(helps),
        labels=(Label(base.span, f"the base's phase `{base.name}`", base.span.file or ""),))


def _change_status_phase(decls: list, v: ast.Variation) -> Diagnostic | None:
    """`replace phase STATUS.NAME …:` / `remove phase STATUS.NAME`: a phase of a status's own turn,
    changed in place."""
    status_name, _, name = v.target.partition(".")
    i = _find(decls, ast.Status, lambda d: d.name == status_name)
    if i is None:
        return _missing(v, "status", [d.name for d in decls if isinstance(d, ast.Status)], status_name)
    phases = list(decls[i].phases)
    j = next((k for k, p in enumerate(phases) if p.name == name), None)
    if j is None:
        return _missing(v, "phase", [p.name for p in phases], name, f" in status `{status_name}`")
    if v.node is None:
        del phases[j]
    else:
        phases[j] = v.node
    decls[i] = ast.evolve(decls[i], phases=tuple(phases))
    return None


def _put(decls: list, i: int, node) -> None:
    """Replace decls[i] by node, or delete it when node is None."""
    if node is None:
        del decls[i]
    else:
        decls[i] = node


def header_of(d) -> str:
    """A handler's or hook's header as a variant writes it: `on land Square`, `on debt`, `before turn`."""
    if isinstance(d, ast.Hook):
        return f"{d.which} turn"
    return f"on {d.event}" + (f" {d.target}" if d.target else "")


def _apply_handler(decls: list, v: ast.Variation) -> Diagnostic | None:
    """`replace on land Square [as NAME] …:` / `remove on land Square` / `remove handler NAME` /
    `replace before turn …:` / `remove after turn`: by its `as` name, or by its header when
    exactly one handler of the base has it."""
    handlers = [(i, d) for i, d in enumerate(decls) if isinstance(d, (ast.Handler, ast.Hook))]
    by_name = " " not in v.target
    if by_name:
        found = [i for i, d in handlers if d.name == v.target]
    else:
        found = [i for i, d in handlers if header_of(d) == v.target]
    if not found:
        names = [d.name for _, d in handlers if d.name] + list(dict.fromkeys(header_of(d) for _, d in handlers))
        kind = "handler named" if by_name else "handler"
        return _missing(v, kind, names)
    if len(found) > 1:
        lines = ", ".join(f"line {decls[i].span.line}" + (f" (`as {decls[i].name}`)" if decls[i].name else "")
                          for i in found)
        labels = [Label(decls[i].span, f"`{header_of(decls[i])}` here", decls[i].span.file or "") for i in found]
        return _error(codes.VARIANT_TARGET_MISSING,
                      f"`{v.what.split()[0]} {v.target}`: the base has {len(found)} handlers `{v.target}` ({lines})",
                      v, labels=labels, help=_which_help(v, [decls[i] for i in found]))
    i = found[0]
    node = v.node
    assert node is None or isinstance(node, (ast.Handler, ast.Hook))  # the new one, None for a removal
    if v.what == "replace case":
        return _replace_case(decls, i, v)
    if node is not None and node.name is None and decls[i].name is not None:
        node = ast.evolve(node, name=decls[i].name)  # a replaced handler keeps its name
    _put(decls, i, node)
    return None


def _replace_case(decls: list, i: int, v: ast.Variation) -> Diagnostic | None:
    """`replace on debt only when C:` + block: the base handler stays, in its place, with its header,
    name and condition; its body becomes `if C:` the case's block `else:` the body it had. A later
    case of the same handler wraps this one, so the last written is tested first."""
    base, case = decls[i], v.node
    assert isinstance(case, (ast.Handler, ast.Hook)) and case.when is not None
    if isinstance(base, ast.Handler) and isinstance(case, ast.Handler) and case.var != base.var:
        named = f"`{base.var}`" if base.var else "nothing"
        return _error(codes.CASE_RENAMES_THING,
                      f"`replace {v.target} only when …`: the case names the thing `{case.var or ''}`, the handler "
                      f"it changes names {named}", v,
                      labels=[Label(base.span, "the handler changed", base.span.file or "")],
                      help=f"write the case's header as the base's is: `{header_of(base)}{' ' + base.var if base.var else ''}"
                           f" … only when …:`, so its condition and body read the same names")
    branch = ast.If(branches=((case.when, case.body),), orelse=base.body, span=case.span)
    body = ast.Block(statements=(branch,), span=base.body.span)
    decls[i] = ast.evolve(base, body=body, cases=base.cases + (case.span,))
    return None


def _which_help(v: ast.Variation, found: list) -> str:
    """Name the handlers a header matches more than once. Each form is the base handler's header written
    again with its bound name (`replace on land Kind p as NAME …:`), so the body reads the names it
    did; applied as a fix to a replacement with no `when`, the header takes the base's condition too, or
    the replacement would run where the base's never did."""
    verb = v.what.split()[0]
    if all(d.name for d in found):
        if verb == "remove":
            forms = [f"`remove handler {d.name}`" for d in found]
            return "name the one you mean: " + " or ".join(forms)
        node = v.node
        bound = getattr(node, "var", None)
        written = f"{v.target} {bound}" if bound else v.target
        forms, headers = [], []
        for d in found:
            var = bound or getattr(d, "var", None)
            header = f"{v.target} {var} as {d.name}" if var else f"{v.target} as {d.name}"
            forms.append(f"`replace {header} …:`")
            condition = _text(d.when) if getattr(node, "when", None) is None and var == getattr(d, "var", None) else None
            headers.append(f"{header} when {condition}" if condition else header)
        line = Span(v.span.line, v.span.column, v.span.line, v.span.column + len(f"replace {written}"), v.span.file)
        return Help("name the one you mean: " + " or ".join(forms), written, headers, line)
    return ("name the one you mean: give each a name in the base (`on land Square as NAME:`) and write "
            "`remove handler NAME` or `replace on land Square as NAME …:`")


def _text(node) -> str | None:
    """The source text of a one-line node of a file on disk (a base's condition), or None."""
    span = getattr(node, "span", None)
    if span is None or span.file is None or span.end_line != span.line:
        return None
    try:
        lines = Path(span.file).read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    return lines[span.line - 1][span.column - 1:span.end_column - 1] if span.line <= len(lines) else None


def _remove_row(decls: list, v: ast.Variation) -> Diagnostic | None:
    """`remove row K.NAME`: the thing goes from its table, and its square from the board."""
    kind, _, name = v.target.partition(".")
    i = _find(decls, ast.Table, lambda d: d.kind == kind and any(r.name == name for r in d.rows))
    if i is None:
        tables = [d for d in decls if isinstance(d, ast.Table) and d.kind == kind]
        if not tables:
            return _missing(v, "table", sorted({d.kind for d in decls if isinstance(d, ast.Table)}), kind)
        return _missing(v, "row", [r.name for t in tables for r in t.rows], name, f" in table `{kind}`")
    decls[i] = ast.evolve(decls[i], rows=tuple(r for r in decls[i].rows if r.name != name))
    b = _find(decls, ast.Board)
    if b is not None:
        board = decls[b]
        gone = [i for i, s in enumerate(board.squares) if s.id == name]  # the named places after it move up
        copies = tuple(ast.evolve(c, index=c.index - sum(i < c.index for i in gone)) for c in board.copies)
        decls[b] = ast.evolve(board, squares=tuple(s for s in board.squares if s.id != name), copies=copies)
    return None


def _override_table(decls: list, v: ast.Variation) -> Diagnostic | None:
    """`override table K:` + a header and rows: the listed cells of existing rows change; the
    columns not in the header keep the base's values (and its `assumed` marks for them)."""
    table = v.node
    assert isinstance(table, ast.Table)  # a header and the rows it changes
    rows = {}
    for i, d in enumerate(decls):
        if isinstance(d, ast.Table) and d.kind == table.kind:
            for j, r in enumerate(d.rows):
                rows[r.name] = (i, j)
    if not rows:
        return _missing(v, "table", sorted({d.kind for d in decls if isinstance(d, ast.Table)}))
    for row in table.rows:
        if row.name not in rows:
            return _missing(ast.evolve(v, span=row.span), "row", list(rows), row.name, f" in table `{table.kind}`")
        i, j = rows[row.name]
        base_table = decls[i]
        base_cols = [c.id for c in base_table.columns[1:]]
        new_cols = [c.id for c in table.columns[1:]]
        for c in table.columns[1:]:
            if c.id not in base_cols:
                return _error(codes.VARIANT_TARGET_MISSING,
                              f"`override table {table.kind}`: the base's table has no column `{c.id}`",
                              c, help="its columns: " + ", ".join(f"`{n}`" for n in base_cols))
        base_row = base_table.rows[j]
        cells = list(base_row.cells)
        for col, cell in zip(new_cols, row.cells):
            cells[base_cols.index(col)] = cell
        assumed = base_row.assumed_columns
        if row.assumed_columns is not None:
            assumed = row.assumed_columns
        elif assumed:
            assumed = tuple(a for a in assumed if a.column not in new_cols)
        new_row = ast.evolve(base_row, cells=tuple(cells), assumed_columns=assumed,
                             cite=row.cite or base_row.cite, span=row.span)
        decls[i] = ast.evolve(base_table, rows=base_table.rows[:j] + (new_row,) + base_table.rows[j + 1:])
    return None


def _missing(v: ast.Variation, what: str, names: list, target: str | None = None, where: str = "") -> Diagnostic:
    target = target or v.target
    shown = f"{v.what.replace('status ', '')} {v.target}"
    if v.what.endswith("handler") and " " in v.target:  # `remove on land Square`, `replace before turn`
        shown = f"{v.what.split()[0]} {v.target}"
    elif v.what == "replace case":  # `replace on debt only when …`
        shown = f"replace {v.target} only when …"
    elif v.what.startswith("insert phase"):  # `insert phase NEW after OLD`
        assert isinstance(v.node, ast.Phase)
        shown = f"insert phase {v.node.name} {v.what.split()[-1]} {v.target}"
    help = nearest(target, names) or (f"the base has: {', '.join(f'`{n}`' for n in names)}" if names else None)
    return _error(codes.VARIANT_TARGET_MISSING, f"`{shown}`: the base has no {what} `{target}`{where}", v, help=help)

