"""The Markov chain of one player's token, read from the rules' movement statements.

A state of the chain is what the rules keep about the token between two of its player's turns:
its place on the board, its status (`put … in`) with the turns begun in it, and the player's
counters that only movement rules change (a missed-turn counter). A transition is one whole turn
of that player: the `before turn` hooks, the turn's (or his status's) phases, the arrivals'
handlers and the cards they draw, the `after turn` hooks. Each branch of a turn carries its
probability (the dice's law, a deck's composition), so a turn's outcomes are exact fractions.

The reader follows only the statements that can move the token or end the turn (`move`, `put`,
`release`, `end turn`, a counter's `set`) and the conditions around them; payments, auctions and
the like are not its business, and it runs none of them: the interpreter does (`simulated.py`).
Where a moving statement depends on what the token's state does not hold (a decision, money,
ownership, another player, a deck's order), the reader goes on with a stated approximation (the
decision not taken, the condition false) and records a `Caveat` naming the rule: the report then
says the figures are not exact and gives the simulated ones beside them.
"""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction

import attrs

from rulesc.dsl import ast
from rulesc.dsl.model import rule_roots
from rulesc.dsl.walk import walk

from .policy import KEEP, Policy
from .values import DECISION, DECK, EXHAUSTED, PLAYER, PLAYERS, STATE, Opaque, Place, Unknown, Values, dice_outcomes

MAX_DEPTH = 40  # moves inside moves, as the engine allows
MAX_STATES = 4000  # a chain larger than this is not read (a counter that grows without end)


@attrs.frozen
class Token:
    """A state of the chain: the board index, the status and its turns, the kept counters' values."""

    at: int
    status: str | None = None
    turns: int = 0
    counters: tuple = ()


@attrs.frozen
class Caveat:
    """A rule whose effect on the token the chain does not follow exactly."""

    kind: str  # values.DECISION, STATE, PLAYERS or DECK
    what: str
    rule: str  # file:line
    text: str  # the rule's line, as written


@attrs.frozen
class Outcome:
    """One turn from a state: where it ends (state -> probability), the expected landings on each
    board index, and the expected squares moved (forward, less backward)."""

    ends: dict
    landings: dict
    steps: Fraction


@attrs.define
class Branch:
    p: Fraction
    token: Token
    env: dict
    ended: bool = False  # `end turn`, or `put` in a status: the rest of the turn does not run
    released: bool = False  # `release` in a status's phase: the ordinary phases follow

    def key(self):
        return (self.token, tuple(sorted(self.env.items(), key=lambda kv: kv[0])), self.ended, self.released)


@attrs.define
class Chain:
    """The chain read from a rules file: its states, each one's turn, and what the reader could not follow."""

    board: list  # board index -> name (the ring, then the squares off it)
    ring: int
    start: Token
    outcomes: dict  # Token -> Outcome
    caveats: list  # [Caveat], in the order found
    decks: dict  # deck name -> policy, for the decks whose cards move the token
    policy: Policy = attrs.field(factory=Policy)  # the stated decisions and fields the chain follows


class Reader:
    """Reads the chain of `rules` (a compiled `Rules`: its board, parameters and merged program)."""

    def __init__(self, rules, policy: Policy | None = None):
        self.rules = rules
        self.policy = policy or Policy()
        self.decide = self.policy.decide
        self.program = program = rules.program
        self.board = list(rules.board) + list(rules.off_board)
        self.ring = len(rules.board)
        self.params = dict(rules.params)
        self.places = set(self.board) | set(program.squares) | set(program.things)
        self.kind_of = dict(rules.thing_kinds)
        self.kinds = set(self.kind_of.values())
        self.statuses = dict(program.statuses)
        self.decks = dict(program.decks)
        self.marks = set()
        for node in walk(rule_roots(program)):
            if isinstance(node, ast.Move):
                self.marks.update(node.marks)
        self.values = Values(self)
        self.stops = {i for i, name in enumerate(rules.board)
                      if name in program.squares and program.squares[name].stop}
        self.caveats: dict = {}
        self.moved_by_cards: dict = {}
        self._relevant: dict = {}
        self.counters = self._counters()
        self.cards_kept = self._cards_kept() and self.decide.get(KEEP) != "use"
        self.handlers = defaultdict(list)  # ("land"|"pass", target name) -> [ast.Handler]
        for h in program.handlers:
            if h.event in ("land", "pass"):
                self.handlers[h.event, h.target].append(h)
        self._arrivals: dict = {}  # (event, board index) -> the handlers that may move the token there
        self._indices: dict = defaultdict(list)  # a square's name -> its board indices
        for i, name in enumerate(self.board):
            self._indices[name].append(i)
        self.hooks = {"before": [h for h in program.hooks if h.which == "before"],
                      "after": [h for h in program.hooks if h.which == "after"]}
        self.actions_moving = [a for a in program.actions.values() if self.relevant(a.body)]

    # ---- what the chain keeps ---------------------------------------------------------------
    def _counters(self) -> tuple:
        """The player's count and yes/no fields that only turn rules set, each to a value the reader
        can work out (a constant, the field plus or minus one): a missed-turn counter. A field an
        action, a card kept for later or a decision may set is not one: reading it is a caveat."""
        program = self.program
        sets: dict = defaultdict(list)
        in_action = set()
        for action in program.actions.values():
            for node in walk(action.body):
                in_action.add(id(node))
        for node in walk(rule_roots(program)):
            if isinstance(node, ast.Set) and _player_field(node.target) is not None:
                sets[_player_field(node.target)].append(node)
        read = self._fields_read_outside_actions()
        kept = []
        for name, field in program.player_fields.items():
            if field.type.name not in ("count", "bool") or field.type.is_list or name not in sets:
                continue
            if name not in read:  # only actions read it (or nothing does): no turn's course depends on it
                continue
            if any(id(s) in in_action for s in sets[name]):
                continue
            if all(_simple_update(s.value, name) for s in sets[name]):
                kept.append(name)
        return tuple(kept)

    def _fields_read_outside_actions(self) -> set:
        """The fields some rule other than an action (or a scenario) reads: a field's own `set` and its
        own `+ 1` are not reads."""
        program = self.program
        roots = [r for r in rule_roots(program)
                 if r not in program.scenarios and not any(r is a for a in program.actions.values())]
        written: set = set()
        nodes = list(walk(roots))
        for node in nodes:
            if isinstance(node, ast.Set):
                written.add(id(node.target))
                if isinstance(node.value, ast.BinOp):
                    written.add(id(node.value.left))
        return {n.name for n in nodes if isinstance(n, ast.Attr) and id(n) not in written}

    def _cards_kept(self) -> bool:
        """Whether any `draw` the rules make is of a deck with a card to keep (then `holds` is unknown)."""
        for node in walk(rule_roots(self.program)):
            if isinstance(node, ast.Draw) and node.deck in self.decks:
                if any(card.keep for card in self.decks[node.deck].cards):
                    return True
        return False

    def start_token(self) -> Token:
        values = []
        for name in self.counters:
            default = self.program.player_fields[name].default
            try:
                values.append(self.values.value(default, {}, None) if default is not None else 0)
            except Unknown:
                values.append(0)
        return Token(self.board.index(self.rules.start), None, 0, tuple(values))

    def token_value(self, token: Token, name: str):
        if name in self.policy.state:
            return self.policy.state[name]
        if name == "position":
            return Place(self.board[token.at])
        if name == "status":
            return token.status
        if name == "status_turns":
            return token.turns
        if name in self.counters:
            return token.counters[self.counters.index(name)]
        field = self.program.player_fields.get(name)
        if field is not None and field.default is not None:
            raise Unknown(STATE, f"`player.{name}`, which rules other than the movement rules change")
        raise Unknown(STATE, f"`player.{name}`")

    # ---- which statements matter -------------------------------------------------------------
    def relevant(self, node) -> bool:
        """Whether `node` (a block or statement) may move the token, end the turn or change a counter."""
        key = id(node)
        if key in self._relevant:
            return self._relevant[key]
        self._relevant[key] = False  # (a procedure that calls itself)
        found = False
        for sub in walk(node):
            if isinstance(sub, (ast.Move, ast.Put, ast.Release, ast.EndTurn)):
                found = True
            elif isinstance(sub, ast.Set) and _player_field(sub.target) in self.counters:
                found = True
            elif isinstance(sub, ast.Draw) and sub.deck in self.decks:
                found = any(self.relevant(c.body) for c in self.decks[sub.deck].cards)
            elif isinstance(sub, ast.Do) and sub.name in self.program.procedures:
                found = self.relevant(self.program.procedures[sub.name].body)
            elif isinstance(sub, ast.UseCard):
                found = any(self.relevant(c.body) for d in self.decks.values() for c in d.cards if c.keep)
            elif isinstance(sub, ast.PlayCard):
                found = self._card(sub.card) is not None and self.relevant(self._card(sub.card).body)
            elif isinstance(sub, ast.Window):
                found = bool(getattr(self, "actions_moving", []))
            if found:
                break
        self._relevant[key] = found
        return found

    def _card(self, node):
        if isinstance(node, ast.Attr) and isinstance(node.obj, ast.Name) and node.obj.id in self.decks:
            return next((c for c in self.decks[node.obj.id].cards if c.name == node.name), None)
        return None

    # ---- caveats --------------------------------------------------------------------------------
    def caveat(self, kind: str, what: str, span) -> None:
        path = span.file or self.program.path
        rule = f"{path.rsplit('/', 1)[-1]}:{span.line}"
        key = (kind, what, rule)
        if key not in self.caveats:
            source = self.program.sources.get(path, self.program.source if span.file is None else "")
            lines = source.splitlines()
            text = lines[span.line - 1].strip() if 0 < span.line <= len(lines) else ""
            self.caveats[key] = Caveat(kind, what, rule, text)

    # ---- the chain ------------------------------------------------------------------------------
    def read(self) -> Chain:
        start = self.start_token()
        outcomes: dict = {}
        todo = [start]
        while todo:
            token = todo.pop()
            if token in outcomes:
                continue
            outcome = self.turn(token)
            outcomes[token] = outcome
            if len(outcomes) > MAX_STATES:
                raise ValueError(f"the token's chain has more than {MAX_STATES:,} states")
            todo.extend(t for t in outcome.ends if t not in outcomes)
        return Chain(self.board, self.ring, start, outcomes, list(self.caveats.values()), dict(self.moved_by_cards),
                     self.policy)

    def turn(self, token: Token) -> Outcome:
        """One whole turn from `token`."""
        self.landings: dict = defaultdict(Fraction)
        self.steps = Fraction(0)
        self.depth = 0
        branches = [Branch(Fraction(1), token, {})]
        branches = self.hooks_run(branches, "before")
        ordinary, in_status = [], []
        for b in branches:
            if b.ended:
                ordinary.append(b)
            elif b.token.status is not None:
                b.token = attrs.evolve(b.token, turns=b.token.turns + 1)
                in_status.append(b)
            else:
                ordinary.append(b)
        for status in sorted({b.token.status for b in in_status}):
            group = [b for b in in_status if b.token.status == status]
            for phase in self.statuses[status].phases:
                ordinary.extend(b for b in group if b.released)  # the ordinary phases follow
                group = self.phase([b for b in group if not b.released], phase)
            for b in group:
                b.ended = b.ended or not b.released  # a status's turn ends with its phases
            ordinary.extend(group)
        if self.program.turn is not None:
            for phase in self.program.turn.phases:
                ordinary = self.phase(ordinary, phase)
        for b in ordinary:
            b.ended = False
            b.released = False
        branches = self.hooks_run(ordinary, "after")
        ends: dict = defaultdict(Fraction)
        for b in branches:
            ends[b.token] += b.p
        return Outcome(dict(ends), dict(self.landings), self.steps)

    def hooks_run(self, branches: list, which: str) -> list:
        for hook in self.hooks[which]:
            if not self.relevant(hook.body):
                continue
            branches = self.guarded(branches, hook.when, hook.body, hook.span, f"`{which} turn` hook")
        return branches

    def phase(self, branches: list, phase) -> list:
        if not self.relevant(phase.body):
            return branches
        if phase.optional and self.decide.get(phase.name) == "skip":
            return branches
        if phase.optional and phase.name not in self.decide:
            self.caveat(DECISION, f"the optional phase `{phase.name}` (the chain has it skipped)", phase.span)
            return branches
        return self.guarded(branches, phase.when, phase.body, phase.span, f"phase `{phase.name}`")

    def guarded(self, branches: list, when, body, span, what: str) -> list:
        """Run `body` (a hook's or a phase's) on the branches not ended where `when` holds."""
        out, run = [], []
        for b in branches:
            if b.ended or (when is not None and not self.holds(when, b.env, b, span, what)):
                out.append(b)
            else:
                run.append(b)
        if run:
            for b in self.block(run, body):
                b.env = {}
                out.append(b)
        return merge(out)

    def holds(self, condition, env: dict, branch: Branch, span, what: str) -> bool:
        try:
            return bool(self.values.value(condition, env, branch.token))
        except Unknown as exc:
            self.caveat(exc.kind, f"{what} depends on {exc.what} (the chain takes it as false)", span)
            return False

    # ---- statements --------------------------------------------------------------------------------
    def block(self, branches: list, block) -> list:
        for stmt in block.statements:
            live = [b for b in branches if not b.ended]
            if not live:
                break
            done = [b for b in branches if b.ended]
            if self.relevant(stmt) or isinstance(stmt, (ast.Roll, ast.Let)):
                live = self.statement(live, stmt)
            branches = merge(done + live)
        return branches

    def statement(self, branches: list, stmt) -> list:
        method = getattr(self, f"_s_{type(stmt).__name__}", None)
        if method is None:  # a statement that holds a moving one in a way the chain cannot follow
            what = type(stmt).__name__.lower()
            self.caveat(DECISION, f"a `{what}` whose body moves the token (not followed)", stmt.span)
            return branches
        return method(branches, stmt)

    def _value(self, node, b: Branch, span):
        try:
            return self.values.value(node, b.env, b.token)
        except Unknown as exc:
            self.caveat(exc.kind, f"depends on {exc.what}", span)
            return Opaque(exc.kind, exc.what)

    def _s_Roll(self, branches, stmt):
        out = []
        for b in branches:
            count = self._value(stmt.count, b, stmt.span)
            if isinstance(count, Opaque):
                b.env = {**b.env, stmt.var: count}
                out.append(b)
                continue
            for dice, p in dice_outcomes(count):
                out.append(Branch(b.p * p, b.token, {**b.env, stmt.var: dice}, b.ended, b.released))
        return out

    def _s_Let(self, branches, stmt):
        for b in branches:
            b.env = {**b.env, stmt.name: self._value(stmt.value, b, stmt.span)}
        return branches

    def _s_RollAgain(self, branches, stmt):
        finished = []
        rolling = branches
        for k in range(1, stmt.limit + 1):
            rolled = []
            for b in rolling:
                count = self._value(stmt.count, b, stmt.span)
                if isinstance(count, Opaque):
                    finished.append(b)
                    continue
                for dice, p in dice_outcomes(count):
                    rolled.append(Branch(b.p * p, b.token, {**b.env, stmt.var: dice}, b.ended, b.released))
            last = k == stmt.limit
            too_many = [b for b in rolled if last and b.env[stmt.var].doubles and stmt.too_many is not None]
            body = [b for b in rolled if not (last and b.env[stmt.var].doubles and stmt.too_many is not None)]
            after = self.block(body, stmt.body) + (self.block(too_many, stmt.too_many) if too_many else [])
            rolling = []
            for b in after:
                again = b.env[stmt.var].doubles and not b.ended and not last
                b.env = {key: v for key, v in b.env.items() if key != stmt.var}
                (rolling if again else finished).append(b)
            rolling = merge(rolling)
            if not rolling:
                break
        return finished + rolling

    def _s_If(self, branches, stmt):
        out = []
        for b in branches:
            for condition, body in stmt.branches:
                if self.holds(condition, b.env, b, stmt.span, "a condition"):
                    out.extend(self.block([b], body))
                    break
            else:
                out.extend(self.block([b], stmt.orelse) if stmt.orelse is not None else [b])
        return out

    def _s_Choose(self, branches, stmt):
        decided = self.decide.get(stmt.name)
        if decided is None:
            self.caveat(DECISION, f"the decision `{stmt.name}` (the chain takes its first option)", stmt.span)
            for option in stmt.options:
                if option.when is None:
                    return self.block(branches, option.body)
            return branches
        out = []
        for b in branches:  # the stated option where it is offered, else the first one offered
            offered = [o for o in stmt.options if o.when is None
                       or self.holds(o.when, b.env, b, o.span, f"the option `{o.name}` of `{stmt.name}`")]
            chosen = next((o for o in offered if o.name == decided), offered[0] if offered else None)
            out.extend(self.block([b], chosen.body) if chosen is not None else [b])
        return out

    def _s_ChooseFor(self, branches, stmt):
        decided = self.decide.get(stmt.name)
        if decided is None:
            self.caveat(DECISION, f"the decision `{stmt.name}` (not followed)", stmt.span)
            return branches
        out = []
        for b in branches:
            try:
                items = self.values.collection(stmt.collection, b.env, b.token)
                if stmt.where is not None:
                    items = [x for x in items if self.values.value(stmt.where, {**b.env, stmt.var: x}, b.token)]
            except Unknown as exc:
                self.caveat(exc.kind, f"the decision `{stmt.name}` offers what depends on {exc.what} (not followed)",
                            stmt.span)
                out.append(b)
                continue
            if not items:
                out.append(b)
                continue
            picked = items[0] if decided == "first" else items[-1]
            saved = b.env
            b.env = {**b.env, stmt.var: picked}
            for done in self.block([b], stmt.body):
                done.env = saved
                out.append(done)
        return out

    def _s_Auction(self, branches, stmt):
        self.caveat(DECISION, "an auction whose rules move the token (not followed)", stmt.span)
        return branches

    def _s_For(self, branches, stmt):
        self.caveat(PLAYERS, "a loop whose body moves a token (not followed)", stmt.span)
        return branches

    def _s_Window(self, branches, stmt):
        for action in self.actions_moving:
            self.caveat(DECISION, f"the action `{action.name}`, which moves the token (not followed)", action.span)
        return branches

    def _s_UseCard(self, branches, stmt):
        self.caveat(DECISION, "a kept card the player may use (not followed)", stmt.span)
        return branches

    def _s_PlayCard(self, branches, stmt):
        card = self._card(stmt.card)
        return self.block(branches, card.body) if card is not None else branches

    def _s_Do(self, branches, stmt):
        proc = self.program.procedures[stmt.name]
        out = []
        for b in branches:
            env = {name: self._value(arg, b, stmt.span) for (name, _), arg in zip(proc.params, stmt.args)}
            saved = b.env
            b.env = env
            for done in self.block([b], proc.body):
                done.env = saved
                out.append(done)
        return out

    def _s_Draw(self, branches, stmt):
        deck = self.decks[stmt.deck]
        cards = [c for c in deck.cards]
        total = sum(c.copies for c in cards)
        if total == 0:
            return branches
        if deck.policy in ("cycle", "reshuffle"):
            back = "goes under the pile" if deck.policy == "cycle" else "is reshuffled in when the pile is out"
            self.caveat(DECK, f"`{deck.name}` is a `{deck.policy}` deck, shuffled once and drawn in turn (a card "
                              f"drawn {back}): the chain draws each card independently with its share of the deck, "
                              "which each single draw has, though successive draws are not independent", stmt.span)
        elif deck.policy == "once":
            self.caveat(EXHAUSTED, f"`{deck.name}` is a `once` deck and runs out: the chain draws each card with its "
                                   "share of the full deck, as on the first pass (in the long run none is left)",
                        stmt.span)
        self.moved_by_cards[deck.name] = deck.policy
        out = []
        for b in branches:
            rest = Fraction(0)
            for card in cards:
                share = Fraction(card.copies, total)
                if not self.relevant(card.body):
                    rest += share
                    continue
                if card.keep and self.decide.get(KEEP) == "keep":
                    rest += share  # to the hand: its effect waits for a `use card`
                    continue
                if card.keep and KEEP not in self.decide:
                    self.caveat(DECISION, f"the card `{card.name}` may be kept for later (the chain uses it at once)",
                                card.span)
                drawn = Branch(b.p * share, b.token, {}, b.ended, b.released)
                for done in self.block([drawn], card.body):
                    done.env = b.env
                    out.append(done)
            if rest:
                out.append(Branch(b.p * rest, b.token, b.env, b.ended, b.released))
        return out

    def _s_Set(self, branches, stmt):
        name = _player_field(stmt.target)
        if name not in self.counters:
            return branches
        index = self.counters.index(name)
        for b in branches:
            value = self._value(stmt.value, b, stmt.span)
            if isinstance(value, Opaque):
                continue
            counters = list(b.token.counters)
            counters[index] = value
            b.token = attrs.evolve(b.token, counters=tuple(counters))
        return branches

    def _s_EndTurn(self, branches, stmt):
        for b in branches:
            b.ended = True
        return branches

    def _s_Put(self, branches, stmt):
        for b in branches:
            if self._value(stmt.who, b, stmt.span) != PLAYER:
                self.caveat(PLAYERS, "puts another player in a status", stmt.span)
                continue
            at = self.statuses[stmt.status].at
            index = self.board.index(at) if at is not None else b.token.at
            b.token = attrs.evolve(b.token, at=index, status=stmt.status, turns=0)
            b.ended = True
        return branches

    def _s_Release(self, branches, stmt):
        for b in branches:
            if self._value(stmt.who, b, stmt.span) != PLAYER:
                self.caveat(PLAYERS, "releases another player", stmt.span)
                continue
            b.token = attrs.evolve(b.token, status=None, turns=0)
            b.released = True
        return branches

    def _s_Move(self, branches, stmt):
        out = []
        for b in branches:
            who = self._value(stmt.who, b, stmt.span)
            if who != PLAYER:
                if not isinstance(who, Opaque):
                    self.caveat(PLAYERS, "moves another player's token", stmt.span)
                out.append(b)
                continue
            amount = self._value(stmt.amount, b, stmt.span)
            if isinstance(amount, Opaque):
                out.append(b)
                continue
            out.extend(self.move(b, stmt, amount))
        return out

    def move(self, b: Branch, stmt, amount) -> list:
        n = self.ring
        start = b.token.at
        how = stmt.how
        if how in ("to", "send", "place"):
            name = amount.name if isinstance(amount, Place) else None
            places = self._indices.get(name, [])
            if not places:
                self.caveat(STATE, "a move to somewhere not on the board", stmt.span)
                return [b]
            ring_places = [i for i in places if i < n]
            if ring_places:
                ring_start = start if start < n else -1
                target = next((i for i in ring_places if i > ring_start), ring_places[0])
            else:
                target = places[0]
            steps = 0 if target >= n or start >= n else (target - start - 1) % n + 1
        else:
            if start >= n or not isinstance(amount, int) or amount < 0:
                self.caveat(STATE, "a move the engine refuses (off the board, or a negative distance)", stmt.span)
                return [b]
            steps = amount if how == "by" else -amount
            if how == "by" and self.stops and steps > 1:
                steps = next((k for k in range(1, steps) if (start + k) % n in self.stops), steps)
            target = (start + steps) % n
        self.steps += b.p * steps
        if how != "place":
            self.landings[target] += b.p
        b.token = attrs.evolve(b.token, at=target)
        if how == "place":
            return [b]
        branches = [b]
        if how in ("by", "to") and steps > 0:
            for k in range(1, steps + 1):
                branches = self.arrive(branches, (start + k) % n, "pass", stmt)
        return self.arrive(branches, target, "land", stmt)

    def arrive(self, branches: list, index: int, event: str, stmt) -> list:
        name = self.board[index]
        handlers = self._arrivals.get((event, index))
        if handlers is None:
            handlers = self.handlers.get((event, self.kind_of.get(name)), []) + self.handlers.get((event, name), [])
            handlers = self._arrivals[event, index] = [h for h in handlers if self.relevant(h.body)]
        if not handlers:
            return branches
        self.depth += 1
        if self.depth > MAX_DEPTH:
            self.caveat(STATE, "moves inside moves deeper than the engine allows", stmt.span)
            self.depth -= 1
            return branches
        marks = {m: True for m in stmt.marks}
        out = []
        for b in branches:
            if b.ended:
                out.append(b)
                continue
            live = [b]
            firing = []
            for h in handlers:  # every handler's condition is tested before any of them runs
                env = {**marks, **({h.var: Place(name)} if h.var else {})}
                if h.when is None or self.holds(h.when, {**b.env, **env}, b, h.span, f"`on {event} {h.target}`"):
                    firing.append((h, env))
            for h, env in firing:
                saved = b.env
                for x in live:
                    x.env = env
                live = self.block(live, h.body)
                for x in live:
                    x.env = saved
            out.extend(live)
        self.depth -= 1
        return out


def _player_field(target) -> str | None:
    if isinstance(target, ast.Attr) and isinstance(target.obj, ast.Name) and target.obj.id == "player":
        return target.name
    return None


def _simple_update(value, name: str) -> bool:
    """A counter's new value the chain can follow: a literal, or the counter plus or minus a literal."""
    if isinstance(value, ast.Literal):
        return True
    if isinstance(value, ast.BinOp) and value.op in ("+", "-"):
        return _player_field(value.left) == name and isinstance(value.right, ast.Literal)
    return False


def merge(branches: list) -> list:
    """Branches in the same state as one, their probabilities added."""
    if len(branches) < 2:
        return branches
    merged: dict = {}
    for b in branches:
        key = b.key()
        if key in merged:
            merged[key].p += b.p
        else:
            merged[key] = b
    return list(merged.values())


def read_chain(rules, policy: Policy | None = None) -> Chain:
    """The chain of `rules` (a compiled `Rules`), the stated `policy` followed."""
    return Reader(rules, policy).read()
