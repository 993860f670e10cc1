"""`rulesc odds`: how often a turn ends on each square, and what an owned square earns, from the rules.

A player prices a property or a house rule by where tokens land. This command reads the token's
Markov chain from the file's movement rules (dice, doubles, moves of squares and cards, statuses
and their ways out, decks), solves it exactly, and says which figures are exact; where a rule it
cannot follow moves the token (a decision, money, another player), it plays games with the
interpreter and gives the simulated figures, with their intervals, beside the chain's.
"""

from __future__ import annotations

import json
import sys

from .shared import Exit, check_writable, fail, with_file, with_set, write_output

EXAMPLE = "rulesc odds mygame.rules --owned-by A1,A2 --houses A1=2 --heatmap odds.svg"


def add_parser(sub):
    p = sub.add_parser("odds", help="exact landing odds and expected rents, from the rules' Markov chain")
    with_file(p)
    p.add_argument("--diff", metavar="VARIANT",
                   help="compare FILE (the base) with VARIANT: what the house rule changes")
    p.add_argument("--format", choices=["table", "json", "csv"], default="table", help="output format")
    p.add_argument("--owned-by", metavar="SQUARES", action="append", default=[],
                   help="squares an opponent owns (comma-separated): their expected rent per opponent turn")
    p.add_argument("--houses", metavar="SQUARE=N", action="append", default=[],
                   help="buildings on an owned square (the field its build action adds to)")
    p.add_argument("--scenario", metavar="TITLE",
                   help="take the owned squares and their buildings from the `set` lines of this scenario")
    p.add_argument("--decide", metavar="NAME=OPTION", action="append", default=[],
                   help="how the player decides NAME (a `choose`'s option, play/skip for an optional phase, "
                        "first/last for a `choose ... for`, keep/use for a card that may be kept): the chain "
                        "follows it, and its figures are exact under that policy (repeatable)")
    p.add_argument("--state", metavar="FIELD=VALUE", action="append", default=[],
                   help="fix a player field the rules change by actions (e.g. FIELD=none): figures exact for "
                        "that state (repeatable)")
    p.add_argument("--simulate", metavar="GAMES", type=int, default=None,
                   help="also play GAMES games and show the simulated figures (default: 100 when the chain "
                        "is approximate, none when exact)")
    p.add_argument("--seed", type=int, default=0, help="first seed of the simulated games")
    p.add_argument("--heatmap", metavar="FILE", dest="output", help="write the board as a heat map (SVG)")
    with_set(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from rulesc.odds import money, report
    from rulesc.odds.figures import APPROXIMATE, odds
    from rulesc.odds.policy import PolicyError, parse
    from rulesc.odds.solve import NoUniqueLaw

    from .shared import load
    check_writable(args.output)
    if args.diff and _extends(args.file, args.diff):
        return fail(f"`{args.file}` extends `{args.diff}`: FILE is the base and `--diff` names the house rule, "
                    f"as in `rulesc odds {args.diff} --diff {args.file}`")
    rules = load(args)
    try:
        policy = parse(rules.program, args.decide, args.state, args.file)
        if args.diff:
            args_file = args.file
            args.file = args.diff
            variant_rules = load(args)
            args.file = args_file
            variant_policy = parse(variant_rules.program, args.decide, args.state, args.diff)
    except PolicyError as exc:
        return fail(str(exc))
    try:
        base = odds(rules, policy)
        if args.diff:
            variant = odds(variant_rules, variant_policy)
    except (NoUniqueLaw, ValueError) as exc:
        return fail(f"cannot solve the chain of `{args.file}`: {exc}", 1)
    if not base.moves and not args.diff:
        if args.format == "json":
            print(json.dumps(report.to_json(base), indent=2))
        else:
            print(f"{base.title}: no rule moves a token (the game has no roll-and-move): "
                  "there are no landing odds to compute")
        return 0
    if args.diff:
        if args.format == "json":
            print(json.dumps(report.diff_json(base, variant), indent=2))
        else:
            sys.stdout.write(report.diff_table(base, variant))
        return 0
    owned = [name.strip() for text in args.owned_by for name in text.split(",") if name.strip()]
    buildings = {}
    for text in args.houses:
        name, _, count = text.partition("=")
        if not count.strip().isdigit():
            return fail(f"--houses `{text}`: write SQUARE=N, e.g. --houses {name or 'Square'}=2")
        buildings[name.strip()] = int(count)
    if args.scenario is not None:
        try:
            more_owned, more_buildings = money.from_scenario(rules.program, args.scenario)
        except KeyError:
            titles = ", ".join(f'"{sc.title}"' for sc in rules.program.scenarios[:5]) or "none"
            return fail(f"`{args.file}` has no scenario \"{args.scenario}\" (its first: {titles})")
        owned = list(dict.fromkeys(owned + more_owned))
        buildings = {**more_buildings, **buildings}
    for name in owned + list(buildings):
        if name not in rules.thing_kinds:
            raise Exit(fail(f"`{name}` is not a thing of `{args.file}` that can be owned"))
    games = args.simulate if args.simulate is not None else (100 if base.exactness == APPROXIMATE else 0)
    measured = None
    if games:
        from rulesc.odds.simulated import measure
        measured = measure(rules, games=games, seed=args.seed, policy=policy)
    incomes = money.incomes(rules, base, owned, buildings) if owned else []
    if args.output:
        from rulesc.odds.heatmap import heatmap_svg
        write_output(args.output, heatmap_svg(base))
        print(f"wrote {args.output}", file=sys.stderr)
    if args.format == "json":
        print(json.dumps(report.to_json(base, measured, incomes), indent=2))
    elif args.format == "csv":
        sys.stdout.write(report.to_csv(base, measured))
    else:
        sys.stdout.write(report.format_table(base, measured, incomes))
    return 0


def _extends(variant, base) -> bool:
    """Whether `variant` is a house rule of `base`, through any chain of `extends`: then `odds
    VARIANT --diff BASE` has its two files the wrong way round (`rulesc diff` takes BASE first)."""
    from pathlib import Path

    from rulesc.dsl.diagnostics import RulesError
    from rulesc.dsl.variants import base_of
    try:
        seen, path, target = set(), Path(variant), Path(base).resolve()
        while path is not None and path.resolve() not in seen:
            seen.add(path.resolve())
            path = base_of(path)
            if path is not None and path.resolve() == target:
                return True
    except (OSError, RulesError):  # an unreadable or broken file: `load` reports it as it reports any
        return False
    return False

