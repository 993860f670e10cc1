"""`rulesc play`: one game at the terminal, you in one seat and the heuristic agents in the others.

It exists so that a designer can play a house rule before anyone else does, and a player can
learn a game: every decision the rules give your seat is asked at the prompt (`help`, `status`,
`board` say more), and `--log` keeps the game to replay it later with `rulesc run --replay`.
"""

from __future__ import annotations

from .shared import at_least, check_writable, fail, load, players, with_file, with_players, with_set, write_output

EXAMPLE = "rulesc play mygame.rules --players 3"


def add_parser(sub):
    p = sub.add_parser("play", help="play one game at the terminal against the heuristic agents")
    with_file(p)
    p.add_argument("--seat", type=at_least(1), default=1, help="your seat, from 1 (default 1)")
    p.add_argument("--log", metavar="EVENTS.jsonl", help="write the game's event log, to replay it later")
    p.add_argument("--seed", type=int, default=0, help="the game's seed (default 0)")
    with_players(p)
    with_set(p)
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from rulesc.interpreter.events import events_to_jsonl
    from rulesc.play import play_at_terminal
    check_writable(args.log)
    rules = load(args)
    count = players(rules, args.players)
    if not 1 <= args.seat <= count:
        return fail(f"--seat is 1 to {count}")
    game = play_at_terminal(rules, count, args.seat - 1, args.seed)
    if args.log:
        from rulesc.replay import log_header
        write_output(args.log, log_header(rules, args.file, args.set, "terminal") + events_to_jsonl(game.events))
    state = game.state
    print(f"game over after {state.turn} turns: {state.end_reason}; "
          f"winner: {state.winner.name if state.winner else 'nobody'}")
    return 0
