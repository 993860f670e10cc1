"""The actions of a running game: which are legal now, taking one, and the windows to take them in.

`Actions` is the game's (`game.actions`), an object of its own because finding the legal actions is
a job of its own, and the largest part of a turn's work in a game with many actions: an action's
condition is tested again only when something it reads has changed (the change counters,
`Game.versions`), so this object keeps, per player, the options found and what they were found
under, and what each player holds (`held_by`). It holds those caches and the open window's
restriction; the state, the counters and the agents it reads from the game each method is handed
(`g`, not kept: see engine.py). Every decision is put to the deciding player's agent with the legal
options only: the rules say what is legal (an action's `when`, a trade's conditions), agents only
pick, and an answer outside the options is an `AgentError`.
"""

from __future__ import annotations

import functools
from typing import Any

from .actiongen import ActionChoice, write_legal_actions
from .reads import counters_key, fixed_fields
from .errors import AgentError
from .events import NO_RULE, RuleRef
from .market import TradeOffer
from .state import Player, field_attr, name_of

MAX_WINDOW_ACTIONS = 30  # actions and trade offers one player may make in one window
MAX_AMOUNTS = 10_000  # the most amounts one action may offer at once (`from … to … step …`)


class Actions:
    __slots__ = ("only", "caching", "kept", "kept_for_all", "kits", "plan", "some_safe", "amount_tests",
                 "matched")

    def __init__(self, rules, seats: int) -> None:
        self.only = None  # while a `window for P only …` is open, the actions it allows
        self.caching = True  # whether options are kept (off, every condition is tested every time: for tests)
        # Per seat, the legal actions kept and his things (`held_by`) ...
        self.kept: list[dict] = [{} for _ in range(seats)]
        self.kept_for_all: dict = {}  # ... and those the same for every player
        self.kits: list = [None] * seats  # per seat, his agent and what it wants (`window`)
        self.plan: list | None = None  # the rules' actions as `legal_actions` walks them (see `_action_plan`), made once ...
        self.some_safe = False  # ... and whether testing any of them cannot fail (then it may be left out)
        self.amount_tests = rules.amount_tests  # an amount action's tests, taken apart once (`_amount_tests`)
        self.matched: dict = {}  # action name -> its kept options by a fixed field (`_matching`)

    # ---- the legal actions ----------------------------------------------------------------------
    def legal_actions(self, g, player: Player, own_turn: bool, wanted=None) -> list:
        """Every legal (action, argument) for the player now; with `wanted` (names), the actions not
        wanted are left out where testing their conditions cannot fail (so leaving them out hides no
        failure: see `Agent.wanted_actions`).

        The stable part of an action's condition is re-evaluated only when something it
        reads has changed since it was last evaluated for this player (the codegen lists
        what each condition reads; the engine counts changes); otherwise the previous
        answer stands. The volatile part (cash...) is tested every time: once for all the
        things offered when it does not read the action's argument (`player.owing > $0`),
        else for each. The loop over the actions is written out once for the rules (actiongen.py)."""
        if g.rules.legal_actions is None:
            self.make_plan(g.rules)
        return g.rules.legal_actions(self, g, player, own_turn, wanted)

    def make_plan(self, rules) -> list:
        """The rules' actions as `legal_actions` walks them, and `legal_actions` written out: made
        once for every game of these rules (actiongen.py)."""
        if rules.action_plan is None:
            rules.action_plan = _action_plan(rules.actions, fixed_fields(rules.program))
            rules.legal_actions = write_legal_actions(rules.action_plan)
        self.plan = rules.action_plan
        self.some_safe = any(entry[8] for entry in self.plan)
        return self.plan

    def _selected(self, g, action, player: Player, found: list) -> list:
        """The options whose thing passes a volatile part that matches a fixed field first (see
        `rules._selector`): the value to match worked out once, the rest tested where it matches."""
        field, value_of, identity, rest = action.select
        env: dict[str, Any] = {"player": player}
        value = value_of(g, env)
        matching = self._matching(action.name, found, field, value)
        if matching is None:  # a value that cannot be looked up: compared with each
            attr = field_attr(field)
            if identity:
                matching = [choice for choice in found if getattr(choice.argument, attr) is value]
            else:
                matching = [choice for choice in found if getattr(choice.argument, attr) == value]
        if rest is None:
            return matching
        var = action.var
        passed = []
        for choice in matching:
            env[var] = choice.argument
            if rest(g, env):
                passed.append(choice)
        return passed

    def _allowed_now(self, g, action, player: Player) -> bool:
        """An action's `once per turn` (or visit) not used up, and its `own turn before/in/after PHASE` now."""
        if action.limit is not None and self._times_taken(g, action, player) >= self._limit(g, action, player):
            return False
        return action.relation is None or self._in_time(g, action)

    def _legal_amounts(self, g, action, player: Player) -> list:
        """Every amount from the lowest to the highest in steps, for which the action's `when` holds."""
        env: dict[str, Any] = {"player": player}
        lowest, highest, stepping = action.amount
        low, high, step = lowest(g, env), highest(g, env), stepping(g, env)
        if step <= 0:
            raise g.error(f"the step of `{action.var}` in action `{action.name}` is {step}; it must be above 0")
        if low > high:
            return []
        if (high - low) // step + 1 > MAX_AMOUNTS:
            raise g.error(f"action `{action.name}` offers {(high - low) // step + 1:,} amounts, more than "
                          f"{MAX_AMOUNTS:,}", help="choose a larger step")
        guard, when, volatile = self._amount_tests(action)
        if guard is not None and not guard(g, env):  # the same for every amount
            return []
        options = []
        for value in range(low, high + 1, step):
            env[action.var] = value
            if (when is None or when(g, env)) and (volatile is None or volatile(g, env)):
                options.append(ActionChoice(action.name, value))
        return options

    def _matching(self, name: str, found: list, field: str, value) -> list | None:
        """The options in `found` whose thing's fixed `field` is `value`, in their order, from an index
        of `found` by that field made once per list of options (the kept options change far less
        often than the value asked for, the player's square). A field's values are the things,
        players and squares compared by identity (their hash) or plain values compared by `==`, as
        the dict compares keys; None where a value cannot be a key."""
        known = self.matched.get(name)
        if known is None or known[0] is not found:
            index: dict | None
            attr = field_attr(field)
            try:
                by_value: dict = {}
                for choice in found:
                    by_value.setdefault(getattr(choice.argument, attr), []).append(choice)
                index = by_value
            except TypeError:  # an unhashable value (a list)
                index = None
            self.matched[name] = known = (found, index)
        if known[1] is None:
            return None
        try:
            return known[1].get(value, ())
        except TypeError:
            return None

    def _amount_tests(self, action) -> tuple:
        """An amount action's condition as (guard, when, volatile): `guard` the conjuncts it tests first
        that do not read the amount (`on_bankomat(player)`), tested once for all amounts (or None);
        `when` and `volatile` what is left of its two parts, tested for each amount. Each part keeps
        the whole's place, so a failure is reported as the whole's would be. Worked out once for every
        game of these rules."""
        known = self.amount_tests.get(action.name)
        if known is not None:
            return known
        var, guards, when, volatile = action.var, [], action.when, action.volatile
        for part in ("when", "volatile"):
            condition = when if part == "when" else volatile
            if condition is None:
                continue
            conjuncts = condition.conjuncts()
            count = len(conjuncts.operands)
            lead = next((k for k in range(count) if var in conjuncts.part(k, k + 1).locals), count)
            if lead:
                guards.append(conjuncts.part(0, lead))
            rest = conjuncts.part(lead, count) if lead < count else None
            if part == "when":
                when = rest
                if rest is not None:  # the volatile part is tested after it: no more can go first
                    break
            else:
                volatile = rest
        guard = None
        if len(guards) == 1:
            guard = guards[0]
        elif guards:
            first, second = guards
            guard = lambda g, e: first(g, e) and second(g, e)  # noqa: E731 (the stable part's, then the volatile's)
        self.amount_tests[action.name] = known = (guard, when, volatile)
        return known

    def _legal(self, g, action, player: Player) -> list:
        if action.var is None:
            if action.when is None or action.when(g, {"player": player}):
                return [ActionChoice(action.name, None)]
            return []
        options = []
        env: dict[str, Any] = {"player": player}
        candidates = self._candidates(g, action, player)
        name, var, when = action.name, action.var, action.when
        if when is None:
            return [_new_tuple(ActionChoice, (name, thing)) for thing in candidates]
        for thing in candidates:
            env[var] = thing
            if when(g, env):
                options.append(_new_tuple(ActionChoice, (name, thing)))  # a named tuple, made as `tuple` makes one
        return options

    def _candidates(self, g, action, player: Player):
        """The things an action on a kind may be taken on, before its condition: those whose field the
        condition first compares with the player (`p.owner == player`) holds him, else all."""
        field = action.prefilter
        kind_things = g.kind_things
        if field is None:
            return kind_things.get(action.kind, ())
        if self.caching:
            return self.held_by(g, action.kind, field, player)
        return _holding(field)(kind_things.get(action.kind, ()), player)

    def held_by(self, g, kind: str, field: str, player: Player) -> list:
        """The things of a kind whose field that names a player (`owner`) names `player`, in their
        order (a list kept: not to be changed): kept for him beside his kept actions, and found
        again only when the field changed to or from him (`Game.set_field` counts those changes by
        seat): what he holds changes far less often than the other things a condition reads. Found
        again, the same things are the same list (see `actiongen._write_layers`)."""
        version = g.versions[(field, player.seat)]
        kept = self.kept[player.seat]
        known = kept.get((kind, field))
        if known is not None and known[0] == version:
            return known[1]
        things = _holding(field)(g.kind_things.get(kind, ()), player)
        if known is not None and known[1] == things:
            things = known[1]
        kept[(kind, field)] = (version, things)
        return things

    def _in_time(self, g, action) -> bool:
        """`own turn before/in/after PHASE`: where the current turn is against that phase."""
        at, index = g.phase_at, action.phase_index
        if action.relation == "before":
            return at < index
        if action.relation == "in":
            return at == index
        return at > index

    @staticmethod
    def _limit(g, action, player: Player) -> int:
        """How many times per turn (or visit) the player may take it: written, or computed now."""
        if action.limit_expr is not None:
            return action.limit_expr(g, {"player": player})
        return action.limit

    def _stamp(self, g, action, player: Player) -> int:
        """The turn (or, for `per visit`, the visit) an action's limit counts in now."""
        return player.visits if action.per == "visit" else g.state.turn

    def _times_taken(self, g, action, player: Player) -> int:
        used = player.uses.get(action.name)
        return used[1] if used is not None and used[0] == self._stamp(g, action, player) else 0

    # ---- taking one, in a window ----------------------------------------------------------------
    def perform(self, g, player: Player, choice: ActionChoice) -> None:
        action = g.rules.action_named[choice.action]
        if action.limit is not None:
            player.uses[action.name] = [self._stamp(g, action, player), self._times_taken(g, action, player) + 1]
        env: dict[str, Any] = {"player": player}
        if action.var is not None:
            env[action.var] = choice.argument
        if g.emitting:
            g.event_sink((g.state.turn, "action", action.where, player.name, action.name,
                          name_of(choice.argument)))
        action.body(g, env)

    def window(self, g, player: Player, raising: int | None = None, where: RuleRef = NO_RULE, only=None) -> None:
        """Let a player act: legal actions and trade offers, until the agent passes.

        At the end of a turn every player whose agent `wants_window` gets one; a debtor
        raising cash (`raising` = what he owes) gets one until the debt is covered. With
        `only`, just those actions."""
        outer, self.only = self.only, only  # a debt inside it opens an ordinary window
        try:
            if g.emitting:  # `emit`, written out: one of the events made every turn
                g.event_sink((g.state.turn, "window", where, player.name))
            own_turn = player.seat == g.state.current
            kit = self.kits[player.seat]
            if kit is None or kit[0] is not g.agents[player.seat]:
                kit = self._window_kit(g, player)
            agent, wanted = kit
            legal = g.rules.legal_actions  # `legal_actions`, called without the method in between
            for _ in range(MAX_WINDOW_ACTIONS):
                if player.out or (raising is not None and player.f_cash >= raising):
                    return
                options = legal(self, g, player, own_turn, wanted(g, player, raising) if wanted is not None else None)
                choice = agent.act(g, player, options, raising)
                if choice is None:
                    return
                if isinstance(choice, TradeOffer):
                    g.market.trade(g, choice, g.rules.trade_where)
                elif choice in options:
                    self.perform(g, player, choice)
                else:
                    raise AgentError(f"{player.name}'s agent chose {choice!r}, which is not a legal action now")
        finally:
            self.only = outer

    def _window_kit(self, g, player: Player) -> tuple:
        """(the agent that answers in `player`'s windows, what it wants as `wanted(game, player,
        raising)` or None for every action), kept for the game while his agent stays (`kits`):
        asked in every window. Only an agent of its own asks for fewer actions (a blindfolded one,
        as in `choose`, is asked for all, and made for each window), and only where some action may
        be left out."""
        if self.plan is None:
            self.make_plan(g.rules)
        if g.rules.hidden_fields:
            return g.agent(player), None
        agent = g.agents[player.seat]
        kit = self.kits[player.seat] = (agent, agent.wanted_for(g.rules) if self.some_safe else None)
        return kit

    def open_window(self, g, player: Player, where: RuleRef, only=None) -> None:
        """`window for P [only A, B]`: an action window in the middle of the turn, if P's agent wants
        one; with `only`, just those actions (a frozenset of names) and no trades."""
        if not player.out and g.agent(player).wants_window(g, player, player.seat == g.state.current):
            g.descend("windows open windows", help="look for an action whose body opens a `window` again")
            try:
                self.window(g, player, where=where, only=only)
            finally:
                g.depth -= 1


@functools.cache
def _holding(field: str):
    """holding(things, player): those of `things` whose `field` is `player`, in their order (the
    field's attribute read as an attribute: a list comprehension written for it)."""
    return eval(f"lambda things, player: [t for t in things if t.{field_attr(field)} is player]")  # noqa: S307 (our own source)


def _counted(reads, fixed: frozenset) -> tuple:
    """What an expression reads whose change counters may move (see `fixed_fields`), in a fixed order."""
    return tuple(sorted(r for r in reads if r not in fixed))


def _key(reads, fixed: frozenset):
    """The key of what an expression reads (`reads.counters_key`), fixed fields left out."""
    return counters_key(_counted(reads, fixed))


def _action_plan(actions, fixed: frozenset) -> list:
    """Per action, what `legal_actions` asks of it, worked out once: (action, name, own turn only,
    limited in number or time, the key of what its stable condition reads (fixed fields left out:
    `reads.counters_key`), its volatile condition, whether that reads the action's argument and
    so is tested for each option, its stable condition's layers or None, whether testing it cannot
    fail, whether its stable answer is the same for every player: no layers, no holder to filter
    by, a condition that does not read `player` (`s.owner == none`), so it is kept once for all)."""
    plan = []
    for a in actions:
        layers = _layers(a, fixed)
        plan.append((a, a.name, a.timing == "own turn", a.limit is not None or a.relation is not None,
                     _key(a.sorted_reads, fixed), a.volatile,
                     a.volatile is not None and a.var is not None and a.var in a.volatile.locals, layers,
                     a.amount is None and all(part is None or part.cannot_fail() for part in (a.when, a.volatile)),
                     layers is None and a.prefilter is None and (a.when is None or "player" not in a.when.locals)))
    return plan


def _layers(action, fixed: frozenset) -> tuple | None:
    """How to keep an action's stable condition in layers (see `actiongen._write_layers`), or None.

    The candidates come first: for `p.owner == player and …` (the action's prefilter), the things
    the player holds, a list kept while they are the same. Then the condition `A and B and …` is
    split before the longest rest that reads something the first part does not, so a change only
    the rest reads re-tests only the rest (`… and all(q in p.group: q.owner == player) and p.level
    < 3` is not asked again who owns what when a level is raised). Returns (first part, the key of
    what it reads, rest, the key of what it reads: `reads.counters_key`); a part may be None
    (nothing to test: its options all pass). A part that reads the holder's field only against the
    player (`all(q in p.group: q.owner == player)`) is kept by the candidates instead: it stands
    while the player's things are the same. None when there is nothing to gain: no argument,
    amounts (never kept), or no such split."""
    if action.var is None or action.amount is not None or action.when is None:
        return None
    conjuncts = action.when.conjuncts()
    count = len(conjuncts.operands)
    held = action.prefilter is not None and conjuncts.holder == (action.var, action.prefilter)
    start = 1 if held else 0  # the holder's test is passed by every candidate
    split = next((k for k in range(count - 1, start, -1)
                  if frozenset().union(*conjuncts.reads[k:]) - frozenset().union(*conjuncts.reads[start:k])),
                 start if held else None)
    if split is None:
        return None
    first = conjuncts.part(start, split) if split > start else None
    rest = conjuncts.part(split, count) if count > split else None

    def reads(part, begin: int, end: int) -> tuple:
        """What a part's answer is kept by: its counted reads, less the holder's field where the part
        reads it only against the player (the candidates, the player's things, stand for it then)."""
        if part is None:
            return ()
        counted = _counted(part.reads, fixed)
        if held and conjuncts.held_only(begin, end, action.prefilter, action.kind):
            counted = tuple(r for r in counted if r != action.prefilter)
        return counted
    return first, counters_key(reads(first, start, split)), rest, counters_key(reads(rest, split, count))


_new_tuple = tuple.__new__  # makes an ActionChoice without the named tuple's slower constructor
