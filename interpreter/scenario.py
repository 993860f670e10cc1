"""Run a rules file's scenarios: the rulebook's worked examples, written in the language.

A scenario names its players, arranges a position with `set` (or plays the game's `setup`), forces
dice and cards, scripts the players' answers (scenario_agent.py: each for a window, some to be
refused), then plays (`play turn of`, `as NAME:`, `do`, `forbid`) and states what must hold
(`expect`, `expect P sees X`). Every failed expectation is reported with its line and the values
involved, every refusal with the rule that refused it (refusals.py); the scenario's event log is
kept for the report.
"""

from __future__ import annotations

import attrs

from rulesc.dsl import ast

from .agents import ScriptedAct
from .blindfold import HiddenFieldRead, seen_by
from .engine import Game
from .errors import AgentError, GameEnded, RuleRuntimeError, TurnEnded
from .events import EventLog
from .market import TradeOffer
from .refusals import action_refusal, trade_refusal
from .rules import Rules
from .scenario_agent import ScenarioAgent, Scripted, Watch


@attrs.define
class Failure:
    """A line and what failed there. `file` is the file the line is in when it is not the scenario's own
    (a rule of a variant's base that stopped with an error: base.rules:136, not the house rule's line
    136), and `notes` then name the scenario's line that ran it."""

    line: int
    message: str
    file: str | None = None
    notes: tuple[str, ...] = ()
    cite: str | None = None  # the line's `§ "…"`: the sentence of the rulebook it checks

    def where(self, scenario_file: str) -> str:
        """`file:line`, in the file the line belongs to."""
        return f"{self.file or scenario_file}:{self.line}"


def _stopped(exc: RuleRuntimeError, scenario: ast.Scenario, item: ast.ScenarioItem | None) -> Failure:
    """A rule's run-time error as a failure: at the rule's line, in the rule's file, with a note at the
    scenario's line that was running when it is elsewhere."""
    message = f"error[{exc.code}]: {exc.message}"
    if exc.span is None:
        return Failure(scenario.span.line, message)
    here = scenario.span.file or exc.path
    file = exc.span.file or exc.path
    if file == here:
        return Failure(exc.span.line, message)
    at = item.span if item is not None else scenario.span
    return Failure(exc.span.line, message, file, (f"while the scenario ran its line {at.line} ({here}:{at.line})",))


@attrs.define
class ScenarioResult:
    title: str
    line: int
    file: str | None
    failures: list
    events: list | EventLog  # the game's log, once played
    refusals: list = attrs.Factory(list)  # (Failure records) each `forbid` and `refuse`: the rule that refused it

    @property
    def passed(self) -> bool:
        return not self.failures


def _answer_value(node):
    if isinstance(node, ast.Literal):
        return node.value
    if isinstance(node, ast.Name):
        return node.id
    raise ValueError("answers are literal values or option names")


def _describe(rules: Rules, node, g, env) -> str:
    """For a failed `expect a OP b`, show what each side actually was."""
    text = rules.program.text_at(node.span)
    if isinstance(node, ast.Compare):
        left = rules.compiler.expr(node.left, frozenset(env))(g, env)
        right = rules.compiler.expr(node.right, frozenset(env))(g, env)
        t = rules.checked.types.get(id(node.left))
        money = t is not None and t.name == "money"
        return (f"expected `{text}`, but the left side is {_show(left, money)} "
                f"and the right side is {_show(right, money)}")
    return f"expected `{text}`, but it is false"


def _show(value, money: bool = False) -> str:
    name = getattr(value, "name", None)
    if name is not None:
        return f"`{name}`"
    if value is None:
        return "`none`"
    if money and isinstance(value, int):
        return f"`${value:,}`"
    return f"`{value}`"


def _offer(compiler, item, players: dict, env_names, g, env) -> TradeOffer:
    """A scenario's trade as an offer: things and cards change hands, the amounts net to one payment."""
    sides = []
    cash = 0
    for sign, side in ((1, item.gives), (-1, item.takes)):
        items = []
        for node in side:
            value = compiler.expr(node, env_names)(g, env)
            if isinstance(value, int) and not isinstance(value, bool):
                cash += sign * value
            else:
                items.append(value)
        sides.append(tuple(items))
    return TradeOffer(players[item.player], players[item.partner], sides[0], sides[1], cash)


def _trade_text(rules: Rules, item: ast.ScenarioTrade) -> str:
    """`X, Y to Q for Z, $N`, as the scenario writes the trade."""
    text = rules.program.text_at
    return f"{', '.join(text(n.span) for n in item.gives)} to {item.partner} for {', '.join(text(n.span) for n in item.takes)}"


def _window(compiler, window: ast.AnswerWindow | None, players: dict, watch: Watch):
    """window(game, player): whether a decision put now is in the window a scripted answer names."""
    if window is None:
        return None
    phase, relation = window.phase, window.relation or "in"
    of = players[window.of].seat if window.of is not None else None
    condition = compiler.expr(window.condition, frozenset(players) | {"player"}) \
        if window.condition is not None else None

    def applies(g, player) -> bool:
        return (phase is None or watch.at(relation, phase)) and (of is None or g.state.current == of) \
            and (condition is None or bool(condition(g, {**players, "player": player})))
    return applies


def _script(rules: Rules, scenario: ast.Scenario, players: dict, agents: dict, watch: Watch, g) -> None:
    """Every `answer` and `refuse` line into its player's queues, in the scenario's order."""
    compiler, text = rules.compiler, rules.program.text_at
    for item in scenario.items:
        if isinstance(item, ast.ScenarioTrade) and item.mode == "refuse":
            offer = _offer(compiler, item, players, frozenset(players), g, dict(players))
            trade = _trade_text(rules, item)
            agents[players[item.player].seat].queues.setdefault("trade", []).append(
                Scripted(offer, item.span.line, f"offer `trade {trade}`", _window(compiler, item.window, players, watch),
                         True))
            continue
        if not isinstance(item, ast.ScenarioAnswer):
            continue
        window = _window(compiler, item.window, players, watch)
        queue = agents[players[item.player].seat].queues.setdefault(item.decision, [])
        values = [_answer_value(v) for v in item.values]
        if item.decision == "act":  # action and thing pairs: `answer Ann act: build, Lot1`
            for i in range(0, len(values), 2):
                act = ScriptedAct(values[i], values[i + 1] if i + 1 < len(values) else None) \
                    if values[i] is not None else None
                shown = " ".join(text(v.span) for v in item.values[i:i + 2])
                queue.append(Scripted(act, item.span.line, f"`{shown}`", window, item.refused))
            continue
        for value, node in zip(values, item.values):
            shown = f"bid {text(node.span)}" if item.decision == "bid" else f"answer `{text(node.span)}` to `{item.decision}`"
            queue.append(Scripted(value, item.span.line, shown, window, item.refused))


def _sees(rules: Rules, item: ast.ScenarioSees, players: dict, g) -> str | None:
    """What is wrong with `expect P sees X` / `expect P cannot see X`, or None."""
    viewer = players[item.player]
    shown = rules.program.text_at(item.value.span)
    value_of = rules.compiler.expr(item.value, frozenset(players))
    try:
        with seen_by(g, viewer):
            value = value_of(g, dict(players))
    except HiddenFieldRead as exc:
        if item.visible:
            return f"{viewer.name} cannot see `{shown}`: {exc}"
        return None
    if not item.visible:
        return f"{viewer.name} sees `{shown}` (it is {_show(value)}): nothing it reads is hidden from him"
    return None


def run_scenario(rules: Rules, scenario: ast.Scenario) -> ScenarioResult:
    names = ["P1", "P2"]
    for item in scenario.items:
        if isinstance(item, ast.ScenarioPlayers):
            names = [n.id for n in item.names]
    result = ScenarioResult(scenario.title, scenario.span.line, scenario.span.file, [], [])
    for item in scenario.items:
        if isinstance(item, ast.ScenarioAnswer) and item.player not in names:
            result.failures.append(Failure(item.span.line, f"`{item.player}` is not a player of the scenario"))
            return result
    watch = Watch([phase.name for phase in rules.phases])
    agents = {seat: ScenarioAgent({}, watch) for seat in range(len(names))}
    watch.agents = agents
    try:
        g = Game(rules, names, seed=0, agents=agents)
    except ValueError as exc:
        result.failures.append(Failure(scenario.span.line, str(exc)))
        return result
    except RuleRuntimeError as exc:  # a default that cannot be computed before the game begins
        result.failures.append(_stopped(exc, scenario, None))
        return result
    g.observer = watch.observe
    players = {p.name: p for p in g.state.players}
    env_names = frozenset(players)
    compiler = rules.compiler

    def env_for(player=None) -> dict:
        env = dict(players)
        if player is not None:
            env["player"] = player
        return env

    running: ast.ScenarioItem | None = None  # the item being played, for a note where a rule stops
    try:
        _script(rules, scenario, players, agents, watch, g)
        for item in scenario.items:
            running = item
            if isinstance(item, ast.Set):
                compiler.statement(item, env_names)(g, env_for())
            elif isinstance(item, ast.ScenarioDice):
                g.forced_dice.extend(item.rolls)
            elif isinstance(item, ast.ScenarioCards):
                g.decks.forced.setdefault(item.deck, []).extend(c.id for c in item.cards)
            elif isinstance(item, ast.ScenarioSetup):
                g.setup()
            elif isinstance(item, ast.ScenarioTurn):
                g.state.current = players[item.player].seat
                try:
                    g.play_turn()
                except GameEnded:
                    pass
            elif isinstance(item, ast.ScenarioAs):
                player = players[item.player]
                g.state.current = player.seat
                g.steps = 0
                body = compiler.block(item.body, env_names | {"player"})
                try:
                    body(g, env_for(player))
                except (TurnEnded, GameEnded):
                    pass
            elif isinstance(item, ast.ScenarioAction):
                player = players[item.player]
                argument = compiler.expr(item.argument, env_names)(g, env_for()) if item.argument is not None else None
                legal = [o for o in g.actions.legal_actions(g, player, own_turn=player.seat == g.state.current)
                         if o.action == item.action and o.argument == argument]
                shown = rules.program.text_at(item.argument.span) if item.argument is not None else None
                if isinstance(argument, int) and shown is not None and not shown.startswith("$"):
                    param = rules.program.actions[item.action].param
                    shown += f" (= {'$' if param is not None and param.kind == 'money' else ''}{argument:,})"
                what = f"`{item.action}{f' {shown}' if shown is not None else ''}` by {player.name}"
                if item.expect_legal and not legal:
                    why = action_refusal(g, player, item.action, argument)
                    result.failures.append(Failure(item.span.line, f"{what} is not allowed here"
                                                   f"{f' ({why})' if why else ''}, but the scenario does it",
                                                   cite=item.meta.cite))
                elif not item.expect_legal and legal:
                    result.failures.append(Failure(item.span.line, f"{what} is allowed here, but the scenario forbids it",
                                                   cite=item.meta.cite))
                elif not item.expect_legal:
                    why = action_refusal(g, player, item.action, argument) or "it is not among the legal actions"
                    result.refusals.append(Failure(item.span.line, f"{what} refused: {why}", cite=item.meta.cite))
                else:
                    try:
                        g.actions.perform(g, player, legal[0])
                    except (TurnEnded, GameEnded):
                        pass
            elif isinstance(item, ast.ScenarioTrade):
                if item.mode == "refuse":
                    continue  # scripted: refused in her window (`_script`)
                offer = _offer(compiler, item, players, env_names, g, env_for())
                what = f"the trade `{item.player} trade {_trade_text(rules, item)}`"
                if item.mode == "offer":
                    agents[offer.proposer.seat].offers.append(offer)
                elif g.market.trade_is_legal(g, offer) != (item.mode == "do"):
                    why = trade_refusal(g, offer) if item.mode == "do" else None
                    allowed = f"is not allowed here{f' ({why})' if why else ''}, but the scenario does it" \
                        if item.mode == "do" else "is allowed here, but the scenario forbids it"
                    result.failures.append(Failure(item.span.line, f"{what} {allowed}", cite=item.meta.cite))
                elif item.mode == "do":
                    try:
                        g.market.complete_trade(g, offer, rules.trade_where)
                    except (TurnEnded, GameEnded):
                        pass
                else:
                    why = trade_refusal(g, offer) or "the rules do not allow it"
                    result.refusals.append(Failure(item.span.line, f"{what} refused: {why}", cite=item.meta.cite))
            elif isinstance(item, ast.ScenarioExpect):
                env = env_for()
                if not compiler.expr(item.condition, env_names)(g, env):
                    result.failures.append(Failure(item.span.line, _describe(rules, item.condition, g, env),
                                                   cite=item.meta.cite))
            elif isinstance(item, ast.ScenarioSees):
                wrong = _sees(rules, item, players, g)
                if wrong is not None:
                    result.failures.append(Failure(item.span.line, wrong))
        if g.forced_dice:
            result.failures.append(Failure(scenario.span.line, f"{len(g.forced_dice)} forced dice were never rolled"))
    except RuleRuntimeError as exc:
        result.failures.append(_stopped(exc, scenario, running))
    except AgentError as exc:
        result.failures.append(Failure(scenario.span.line, str(exc)))
    result.refusals.extend(Failure(line, message) for line, message in watch.refusals)
    result.failures.extend(Failure(line, message) for line, message in watch.failures)
    for player in g.state.players:
        result.failures.extend(Failure(line, message) for line, message in agents[player.seat].unasked(player))
    result.refusals.sort(key=lambda r: r.line)
    result.failures.sort(key=lambda f: f.line)
    g.observer = None
    result.events = g.events
    return result


def run_scenarios(rules: Rules) -> list[ScenarioResult]:
    return [run_scenario(rules, s) for s in rules.program.scenarios]
