"""`rulesc run`: one game, played by the agents, printed or logged event by event.

It exists to look at one game closely: the outcome and each player's cash; `--log` the event log
as JSON lines (after a header saying how to play it again); `--check` every invariant after every
event; `--draws` the very game a failure of `rulesc check` printed; and `--replay` a logged game
played again, to tell whether it is still the same game, event for event, and if not, why.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from rulesc.interpreter.errors import RuleRuntimeError

from .shared import Exit, check_writable, fail, load, players, with_agents, with_file, with_set, write_output

EXAMPLE = "rulesc run mygame.rules --seed 7 --log game.jsonl"


def add_parser(sub):
    p = sub.add_parser("run", help="play one game and print or log it")
    with_file(p)
    p.add_argument("--seed", type=int, help="the game's seed (default 0)")
    p.add_argument("--log", metavar="EVENTS.jsonl", help="write the event log as JSON lines ('-' for stdout)")
    p.add_argument("--replay", metavar="EVENTS.jsonl", help="play a logged game again and check it is the same")
    p.add_argument("--check", action="store_true",
                   help="check every invariant after every event; exit 1 and show the failure if one breaks")
    p.add_argument("--draws", metavar="WORD",
                   help="play the game `rulesc check` drew (its dice, cards and decisions), as its failure prints")
    p.add_argument("--turn-limit", type=int, metavar="N", help="end the game after N turns (default: the game's own)")
    with_agents(p)
    with_set(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    if args.replay:
        given = [option for option, value in (("--log", args.log), ("--check", args.check or None),
                                              ("--draws", args.draws), ("--turn-limit", args.turn_limit))
                 if value is not None]
        if given:
            return fail(f"--replay plays the logged game again as it was: {', '.join(given)} cannot apply")
        return replay(args, load(args))
    args.seed = args.seed or 0
    check_writable(args.log)
    rules = load(args)
    if args.turn_limit is not None and args.turn_limit < 1:
        return fail("--turn-limit must be at least 1")
    game = _new_game(args, rules)
    seats = len(game.state.players)
    failure = None
    try:
        if args.check:
            from rulesc.properties import play_checked
            failure = play_checked(rules, game)
        elif args.draws:
            from rulesc.properties import OutOfData
            try:
                game.play()
            except OutOfData:
                pass
        else:
            game.play()
    except ValueError as exc:
        if not args.draws:
            raise
        return fail(f"--draws: {exc}")  # the draws of another game, or other rules
    except RuleRuntimeError:
        if args.log:  # the events up to the error: what led to it
            _write_log(args, rules, game)
        raise
    state = game.state
    if args.log:
        _write_log(args, rules, game)
        if args.log == "-":
            return 1 if failure is not None else 0
    winner = " and ".join(w.name for w in state.winners) if state.winners else "nobody"
    how = "the checker's draws" if args.draws else f"{args.agents} agents"
    print(f"{rules.title}: seed {args.seed}, {seats} players, {how}")
    if failure is not None:
        from rulesc.properties.report import _format_failure
        print(f"stopped after {state.turn} turns: an invariant broke")
        print("\n".join(_format_failure(failure, args.debug)))
    elif state.over:
        print(f"ended after {state.turn} turns: {state.end_reason}; winner: {winner}")
    else:
        print(f"stopped after {state.turn} turns: the draws ran out (the checker's game stopped here too)")
    for p in state.players:
        status = "out" if p.out else f"cash {p.f['cash']:,}"
        print(f"  {p.name}: {status}")
    if args.check and failure is None:
        print("every invariant held after every event")
    if args.log:
        print(f"{len(game.events)} events written to {args.log}")
    return 1 if failure is not None else 0


def _new_game(args, rules):
    """The game `rulesc run` plays: seeded with agents, or the checker's drawn values (`--draws`)."""
    from rulesc.interpreter.agents import make_agents
    from rulesc.interpreter.engine import Game
    if args.draws:
        from rulesc.properties import DataRandom, DrawnSource, HypothesisAgent, decode_draws
        try:
            source = DrawnSource(decode_draws(args.draws))
            low, high = rules.players_range
            drawn = source.integer(low, high)
        except ValueError as exc:
            raise Exit(fail(f"--draws: {exc}")) from None
        if args.players is not None and args.players != drawn:
            raise Exit(fail(f"these draws are of a game of {drawn} players, not {args.players}"))
        agents = {seat: HypothesisAgent(source) for seat in range(drawn)}
        return Game(rules, drawn, seed=args.seed, agents=agents, rng=DataRandom(source),
                    turn_limit=args.turn_limit)
    count = players(rules, args.players)
    return Game(rules, count, seed=args.seed, agents=make_agents(args.agents, args.seed, count),
                turn_limit=args.turn_limit)


def _write_log(args, rules, game) -> None:
    """`run --log`: the game's events, after a header that says how to play it again."""
    from rulesc.interpreter.events import events_to_jsonl
    from rulesc.replay import log_header
    text = log_header(rules, args.file, args.set, args.agents) + events_to_jsonl(game.events)
    if args.log == "-":
        sys.stdout.write(text)
    else:
        write_output(args.log, text)


def replay(args, rules) -> int:
    """`run --replay`: the logged game played again; the first event that differs, and why it may."""
    from rulesc.replay import explain, read_header, read_log
    from rulesc.replay import replay as replayed
    if Path(args.replay).exists() and not Path(args.replay).is_file():  # a device or a pipe: never read it
        return fail(f"`{args.replay}` is not a file")
    try:
        text = Path(args.replay).read_text(encoding="utf-8")
        log = read_log(text)
    except OSError as exc:
        return fail(f"cannot read `{args.replay}`: {exc.strerror or exc}")
    except ValueError as exc:
        return fail(f"`{args.replay}` is not an event log (JSON lines): {exc}")
    setup = log[0] if log and log[0].get("event") == "setup" else {}
    for option, asked, logged in (("--seed", args.seed, setup.get("seed")),
                                  ("--players", args.players, len(setup.get("players") or ()))):
        if asked is not None and asked != logged:  # the log's own, or the replay would not be of this game
            return fail(f"{args.replay} is of the game of {option} {logged}, not {asked}")
    header = read_header(text) or {}
    try:
        result = replayed(rules, log, unfinished=bool(header.get("left")))
    except (ValueError, KeyError, StopIteration) as exc:
        return fail(f"`{args.replay}` cannot be replayed: {exc}")
    if result.first_difference is None:
        left = f", up to where it was left {header['left']}" if header.get("left") else ""
        print(f"replayed {result.events} events of {args.replay}: the same game, event for event{left}")
        return 0
    print(f"the replay differs from {args.replay} at event {result.first_difference}:\n"
          f"  logged:   {json.dumps(result.expected)}\n  replayed: {json.dumps(result.actual)}")
    for reason in explain(header or None, rules, args.set):
        print(f"  note: {reason}")
    return 1
