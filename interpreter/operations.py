"""The engine's most frequent operations, each written once, as a writer of Python source.

A payment, a two-dice roll, a token's arrival and a field's change happen many times a turn, so
a statement's generated code (stmtgen.py) does them in place rather than through a call. To keep
one meaning for each, the lines are written here, once, by a function that is told what is known
where it writes them: the engine's general method is compiled from the same writer with nothing
known (any operands, every case: `Game.pay`, `Game.arrive`, `Game.set_field`, the two dice of
`Game.roll`), and a statement inlines what its static types settle (a player who pays, a move
by less than a round, a field it names), falling back on the engine's method for any other case.

Every writer takes the `Function` being written, the indentation, and the Python of its operands
(names or literals, computed already); `g` is the game and `where` is the rule's `RuleRef`.
"""

from __future__ import annotations

from typing import Any, Callable

from .reads import POSITION
from .errors import MAX_DEPTH
from .pysource import Function, define
from .state import TWO_DICE, Account, Bank, Player, field_attr, name_of

PLAYER = "player"  # an operand known to be a player
ACCOUNT = "account"  # one known to be an account or the bank (not a player), which may run dry
UNLIMITED = "unlimited"  # one known to be the unlimited bank


def write_emit(fn: Function, indent: int, kind: str, where: str, payload: str, turn: str = "g.state.turn") -> None:
    """`Game.emit`, written out: the event made only when something takes it; `payload` is the
    Python of its fields, separated by commas, `turn` that of the turn's number."""
    fn.add(indent, "if g.emitting:")
    fn.add(indent + 1, f"g.event_sink(({turn}, {kind!r}, {where}, {payload}))")


# ---- a payment ----------------------------------------------------------------------------------

def write_transfer(fn: Function, indent: int, amount: str, source: str, target: str, where: str,
                   pays: str, paid: str | None) -> None:
    """The money moves: `amount` (more than 0) from `source` (a `PLAYER` with the cash, an `ACCOUNT`
    that holds it, a bank that may run dry, or the `UNLIMITED` bank) to `target` (a `PLAYER`, or
    None: a player or an account, looked at here), the cash counter moved, the amount added to its
    rule's total, the event made."""
    add = fn.add
    add(indent, f"{source}.f_cash -= {amount}" if pays == PLAYER else f"{source}.balance -= {amount}")
    if pays == ACCOUNT:  # a limited bank may run dry
        add(indent, f"if not {source}.unlimited and {source}.balance < 0:")
        add(indent + 1, "g.bank_ran_out()")
    if paid == PLAYER:
        add(indent, f"{target}.f_cash += {amount}")
    else:
        fn.namespace["_Player"] = Player
        add(indent, f"if isinstance({target}, _Player):")
        add(indent + 1, f"{target}.f_cash += {amount}")
        add(indent, "else:")
        add(indent + 1, f"{target}.balance += {amount}")
    add(indent, "versions = g.versions")
    add(indent, "versions['cash'] += 1")
    add(indent, "paid = g.paid_by_rule")
    add(indent, "if paid is not None:")
    add(indent + 1, f"paid[{where}] = paid.get({where}, 0) + {amount}")
    write_emit(fn, indent, "pay", where, f"{amount}, {source}.name, {target}.name")


def write_pay(fn: Function, indent: int, amount: str, source: str, target: str, where: str,
              pays: str | None, paid: str | None) -> None:
    """`pay AMOUNT from SOURCE to TARGET`. With `pays` known, the common case (a player who has the
    cash, or an unlimited bank, pays another) is written in place and any other goes to `g.pay`;
    with nothing known, every case: nothing to pay, a player who is out, a debt (`on debt`), an
    account that holds too little."""
    add = fn.add
    if pays is not None:  # PLAYER or ACCOUNT
        fn.namespace["_Bank"] = Bank
        can = f"not {source}.out and {source}.f_cash >= {amount}" if pays == PLAYER \
            else f"type({source}) is _Bank and {source}.unlimited"
        add(indent, f"if {amount} > 0 and {source} is not {target} and {can}:")
        write_transfer(fn, indent + 1, amount, source, target, where, PLAYER if pays == PLAYER else UNLIMITED, paid)
        add(indent, "else:")
        add(indent + 1, f"g.pay({amount}, {source}, {target}, {where})")
        return
    fn.namespace.update(_Player=Player, _Account=Account)
    add(indent, f"if {amount} == 0 or {source} is {target}:")
    add(indent + 1, "return")
    add(indent, f"if isinstance({source}, _Player):")  # (what the test above lets pass goes on here)
    add(indent + 1, f"if {source}.out:")
    add(indent + 2, f"g.out_cannot_pay({source})")
    add(indent + 1, f"if {source}.f_cash < {amount} and not g._resolve_debt({source}, {target}, {amount}, {where}):")
    add(indent + 2, "return")
    write_transfer(fn, indent + 1, amount, source, target, where, PLAYER, paid)
    add(indent, "else:")
    add(indent + 1, f"if isinstance({source}, _Account) and {source}.balance < {amount}:")
    add(indent + 2, f"g.account_cannot_pay({source}, {amount})")
    write_transfer(fn, indent + 1, amount, source, target, where, ACCOUNT, paid)


# ---- two dice -----------------------------------------------------------------------------------

def write_two_dice(fn: Function, indent: int, result: str, who: str, where: str) -> None:
    """Two dice rolled into `result` (a shared `Roll`), the event made for the roller `who` (the
    Python of a player or None, computed only when the event is)."""
    rnd, first, second, roller = fn.temp(), fn.temp(), fn.temp(), fn.temp()
    fn.namespace["_TWO_DICE"] = TWO_DICE
    add = fn.add
    add(indent, f"{rnd} = g.state.rng.random")
    add(indent, f"{first} = int({rnd}() * 6) + 1")
    add(indent, f"{second} = int({rnd}() * 6) + 1")
    add(indent, f"{result} = _TWO_DICE[6 * {first} + {second} - 7]")
    add(indent, "if g.emitting:")
    add(indent + 1, f"{roller} = {who}")
    payload = f"{roller}.name if {roller} is not None else None, {result}.faces"  # a shared tuple: no list made
    add(indent + 1, f"g.event_sink((g.state.turn, 'roll', {where}, {payload}))")


# ---- a token's arrival --------------------------------------------------------------------------

def write_arrival(fn: Function, indent: int, who: str, start: str, dest: str, steps: str, where: str,
                  how: str | None) -> None:
    """The token of `who` goes from square `start` to `dest`, `steps` squares on: the squares with
    `on pass` handlers on the way are told in moving order (not by a `send` or a `place`), then
    `dest`'s `on land` handlers run (not on a `place`). `how` "by" says the move is by less than a
    round (0 < steps < the ring); None, that it may be any move (`Game.move` works out `dest`)."""
    add = fn.add
    write_emit(fn, indent, "move", where, f"{who}.name, g.board[{start}].name, g.board[{dest}].name, {steps}")
    add(indent, "g.depth += 1")  # `descend`, written out: a move is the most frequent
    add(indent, f"if g.depth > {MAX_DEPTH}:")
    add(indent + 1, "g.moves_too_deep()")
    fn.namespace["_POSITION"] = POSITION
    if how is None:
        add(indent, "if how == 'place':")
        add(indent + 1, f"{who}.at = {dest}")
        add(indent + 1, f"{who}.visits += 1")  # a new visit, wherever the token arrives (`once per visit`)
        add(indent + 1, "g.versions[_POSITION] += 1")
        add(indent + 1, "g.depth -= 1")
        add(indent + 1, "return")
    add(indent, "try:")
    inner = indent + 1
    ahead, square, fire, occupant, passes = fn.temp(), fn.temp(), fn.temp(), fn.temp(), fn.temp()
    passing = inner
    if how is None:
        add(inner, f"{passes} = g.pass_ahead[{start}]")
        add(inner, f"if {passes} and {steps} > 0 and how != 'send':")
        add(inner + 1, f"if {steps} >= g.ring:")  # round the board more than once: a square may be passed twice
        add(inner + 2, f"for {ahead} in range(1, {steps} + 1):")
        add(inner + 3, f"{square} = ({start} + {ahead}) % g.ring")
        add(inner + 3, f"if g.pass_fire[{square}] is not None:")
        add(inner + 4, f"g._pass({who}, {square}, {where})")
        add(inner + 1, "else:")
        passing = inner + 2
    else:
        passes = f"g.pass_ahead[{start}]"
    add(passing, f"for {ahead}, {square} in {passes}:")  # the squares with `on pass` handlers, in order
    add(passing + 1, f"if {ahead} > {steps}:")
    add(passing + 2, "break")
    add(passing + 1, f"g._pass({who}, {square}, {where})")
    add(inner, f"{who}.at = {dest}")
    add(inner, f"{who}.visits += 1")
    add(inner, "g.versions[_POSITION] += 1")
    add(inner, f"{occupant} = g.board[{dest}]")
    write_emit(fn, inner, "land", where, f"{who}.name, {occupant}.name")
    add(inner, f"{fire} = g.land_fire[{dest}]")
    add(inner, f"if {fire} is not None:")
    add(inner + 1, f"{fire}(g, {who}, {occupant})")
    add(indent, "finally:")
    add(indent + 1, "g.depth -= 1")


# ---- a field's change ---------------------------------------------------------------------------

def write_set_field(fn: Function, indent: int, target: str, value: str, where: str, field: str | None,
                    names_player: bool | None, shown) -> None:
    """`set TARGET.FIELD = VALUE`: the field (an attribute: state.with_fields) changed, its change
    counted, the event made. `field` is the field's name, or None where the Python variable `field`
    holds it; a field that names a player (`owner`: `names_player` True, or None to look) counts
    its changes for each player it named or names too, under (field, seat): what a player holds is
    kept while they stand (`Actions.held_by`), whoever else's things change hands. `shown(python)`
    is the Python of a value as its event shows it."""
    add = fn.add
    old = fn.temp()
    if field is not None:
        attr, key = field_attr(field), repr(field)
        add(indent, f"{old} = getattr({target}, {attr!r}, None)")
        add(indent, f"{target}.{attr} = {value}")
    else:
        attr, key = fn.temp(), "field"
        fn.namespace["_field_attr"] = field_attr
        add(indent, f"{attr} = _field_attr(field)")
        add(indent, f"{old} = getattr({target}, {attr}, None)")
        add(indent, f"setattr({target}, {attr}, {value})")
    if names_player is False:
        add(indent, f"g.versions[{key}] += 1")
    else:
        add(indent, "versions = g.versions")
        add(indent, f"versions[{key}] += 1")
        if names_player is None:
            fn.namespace["_Player"] = Player
        for named in (old, value):
            add(indent, f"if {named} is not None:" if names_player else f"if isinstance({named}, _Player):")
            add(indent + 1, f"versions[({key}, {named}.seat)] += 1")
    write_emit(fn, indent, "set", where, f"{target}.name, {key}, {shown(old)}, {shown(value)}")


# ---- the engine's general methods, compiled from the writers above ------------------------------

def _compiled(name: str, parameters: str, write) -> Callable[..., Any]:
    fn = Function()
    write(fn)
    return define(fn, name, parameters, f"Game.{name}")


def _shown_by_name_of(fn: Function):
    fn.namespace["_name_of"] = name_of
    return lambda value: f"_name_of({value})"


pay = _compiled("pay", "g, amount, source, target, where",
                lambda fn: write_pay(fn, 1, "amount", "source", "target", "where", None, None))
arrive = _compiled("arrive", "g, player, how, start, dest, steps, where",
                   lambda fn: write_arrival(fn, 1, "player", "start", "dest", "steps", "where", None))
set_field = _compiled("set_field", "g, target, field, value, where",
                      lambda fn: write_set_field(fn, 1, "target", "value", "where", None, None, _shown_by_name_of(fn)))


def _write_two_dice_roll(fn: Function) -> None:
    write_two_dice(fn, 1, "result", "player", "where")
    fn.add(1, "return result")


two_dice = _compiled("two_dice", "g, player, where", _write_two_dice_roll)
