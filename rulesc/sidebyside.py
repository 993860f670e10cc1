"""`rulesc diff BASE VARIANT --show-seed N`: the pair of games behind a difference, side by side.

`diff` plays the base and the variant on the same seeds; when it reports that a house rule changes
the winner or a figure, it names the seeds whose pairs show it. This plays one such pair again, as
`diff` played it (seed N, the same players and agents), and prints the two games turn by turn in
two columns, each event in words (sentences.py), with a `|` between lines that are the same and
a `*` where they differ; the first turn that differs is named at the top, with how each game ended,
and the turns before it, the same in both, are left out but the last.
"""

from __future__ import annotations

import itertools

from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import Rules
from rulesc.sentences import Words


def play_in_words(rules: Rules, players: int, seed: int, agents: str) -> tuple[Game, dict]:
    """Game `seed` as `diff` plays it, and its events in words, by turn."""
    game = Game(rules, players, seed=seed, agents=make_agents(agents, seed, players), record=False)
    words = Words(rules)
    turns: dict = {}

    def observe(g, kind, where, payload) -> None:
        line = words.describe(kind, payload)
        if line is not None:
            turns.setdefault(g.state.turn, []).append(line)
    game.observer = observe
    game.play()
    return game, turns


def _ending(game: Game) -> str:
    state = game.state
    winner = state.winner.name if state.winner is not None else "nobody"
    return f"ended after {state.turn} turns: {state.end_reason}; winner: {winner}"


def _cell(text: str, width: int) -> str:
    return text if len(text) <= width else text[:width - 1] + "…"


def side_by_side(base: Rules, variant: Rules, players: int, seed: int, agents: str = "heuristic",
                 width: int = 160) -> str:
    """The two games of seed `seed`, turn by turn in two columns of `width` in all."""
    (a, left), (b, right) = (play_in_words(r, players, seed, agents) for r in (base, variant))
    column = max(20, (width - 3) // 2)
    differ = next((t for t in sorted(set(left) | set(right)) if left.get(t) != right.get(t)), None)
    lines = [f"seed {seed}, {players} players, {agents} agents",
             f"  base:    {base.title}: {_ending(a)}",
             f"  variant: {variant.title}: {_ending(b)}",
             "  the two games are the same throughout" if differ is None else
             f"  the games first differ in turn {differ} (`*` marks the lines that differ)",
             "", f"{_cell('base', column):<{column}} | {_cell('variant', column)}"]
    turns = sorted(set(left) | set(right))
    if differ is not None and differ - 1 > turns[0]:  # what both games share up to the turn before: left out
        same = [t for t in turns if t < differ - 1]
        lines.append(f"... turns {same[0]} to {same[-1]} are the same in both games "
                     f"({sum(len(left[t]) for t in same)} lines left out)")
        turns = [t for t in turns if t >= differ - 1]
    for turn in turns:
        for x, y in itertools.zip_longest(left.get(turn, []), right.get(turn, []), fillvalue=""):
            mark = "|" if x == y else "*"
            lines.append(f"{_cell(x, column):<{column}} {mark} {_cell(y, column)}".rstrip())
    return "\n".join(lines) + "\n"
