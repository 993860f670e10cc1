"""`rulesc play`: one game at the terminal, you in one seat and the heuristic agents in the others.

It exists so that a designer can play a house rule before anyone else does, and a player can
learn a game: every decision the rules give your seat is asked at the prompt (`help`, `board`,
`info SQUARE`, `me`, `players` say more), and `--log` keeps the game to replay it later with
`rulesc run --replay`. `quit` leaves the game where it stands and offers to save its log; the end
of the input leaves it too (exit 0), and so does Ctrl-C (exit 130, as for any interrupted command):
one line says so, and `--log` still keeps the game so far.
"""

from __future__ import annotations

import sys

from .shared import at_least, check_writable, fail, load, players, with_file, with_players, with_set, write_output

EXAMPLE = "rulesc play mygame.rules --players 3"

EXIT_INTERRUPTED = 130  # 128 + SIGINT, what a shell reports for a command stopped by Ctrl-C


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
    from rulesc.play import INTERRUPTED, QUIT, offer_to_save, play_at_terminal
    from rulesc.replay import log_header
    check_writable(args.log)
    rules = load(args)
    count = players(rules, args.players)
    if not 1 <= args.seat <= count:
        return fail(f"--seat is 1 to {count}")
    game, left = play_at_terminal(rules, count, args.seat - 1, args.seed)
    state = game.state
    where = f"at turn {state.turn}"
    if left is not None:
        print(f"\nyou left the game {where} ({left})")
    log = args.log or (offer_to_save(sys.stdin, sys.stdout) if left == QUIT else None)
    if log:
        left_at = None if left is None else f"{where}: {left}"
        write_output(log, log_header(rules, args.file, args.set, "terminal", left_at) + events_to_jsonl(game.events))
        print(f"{len(game.events)} events written to {log}; `rulesc run {args.file} --replay {log}` plays them again")
    if left is not None:
        return EXIT_INTERRUPTED if left == INTERRUPTED else 0
    print(f"game over after {state.turn} turns: {state.end_reason}; "
          f"winner: {state.winner.name if state.winner else 'nobody'}")
    return 0
