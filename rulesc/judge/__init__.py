"""The judge: what whole games say about a rules file, and about a house rule against the game it changes.

`rulesc check` proves invariants (money is conserved, nobody's cash goes negative, the rules do not
crash); a file can keep every one of them and still spoil the game: a house rule that never runs, a
base action no longer offered, an end that can never come, a game decided before it starts, a player
who never gets out of jail, an arrival charged twice. The judge reads the profiles of the whole games
the check played (rulesc/properties/profile.py: how each game went) and, for a variant, of its base played on the same
seeds and seats; it reports each difference at the line to blame (`units`: the declarations, the
variant's changes, and which change shares the most names with what changed), with a command that
replays a game showing it (`findings`).
"""

from .findings import Side, judge

__all__ = ["Side", "judge"]
