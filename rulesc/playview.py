"""What the person at the terminal may see of a game (`rulesc play`): the board with each square's
prices, rents, owner and buildings; one square in full (`info`); the players; their own seat with
the actions the rules allow them now and what each costs; the rules' own words for a square.

Everything is read from the rules file's model, so it works for any game: a thing's fields are its
kind's declared fields (the fixed table data, then its state), typed as declared (money as money);
the players are seen through the engine's view (`blindfold.view`), so another player's `hidden`
field stays hidden; what an action costs is what its body pays, worked out from its `pay`
statements for the thing offered; a square's rules are its `on land` handlers that apply now, with
the rulebook sentence each cites (`§ "…"`).
"""

from __future__ import annotations

import linecache

from rulesc.dsl import ast
from rulesc.interpreter.actiongen import ActionChoice
from rulesc.interpreter.blindfold import view
from rulesc.interpreter.state import state_to_json
from rulesc.sentences import Words, money, plain


def _ref(value) -> str:
    """A field's value as `view` gives it (JSON): a player, thing or square by name, an account by balance."""
    if isinstance(value, dict):
        if "balance" in value:
            return money(value["balance"])
        return str(next(iter(value.values())))
    return value


class Sight:
    """The views of one game's rules for the person in `seat`, in `words`."""

    def __init__(self, rules, words: Words):
        program = rules.program
        self.rules, self.words = rules, words
        self.fields = {name: [(f.name, f.is_state) for f in kind.fields] for name, kind in program.kinds.items()}
        self.rows = {row.name: row for tables in program.tables.values() for table in tables for row in table.rows}
        self.squares = program.squares
        self.costs: dict = {}  # action name -> [(pays: bool, compiled amount)] of its body's top-level payments
        for name, decl in program.actions.items():
            var = rules.action_named[name].var
            local = frozenset({"player"} | ({var} if var else set()))
            self.costs[name] = [(_names(s.source, "player"), rules.compiler.expr(s.amount, local))
                                for s in decl.body.statements if isinstance(s, ast.Pay)
                                and (_names(s.source, "player") or _names(s.target, "player"))]

    # -- things and squares --------------------------------------------------------------------

    def facts(self, thing) -> str:
        """A thing's fixed data, then its state: `value $50, rents $2 $10 …; owner P2, houses 1`."""
        fixed, state = [], []
        for name, is_state in self.fields.get(thing.kind, ()):
            value = thing.f.get(name)
            if value is None and not is_state:
                continue
            text = "nobody" if value is None else self.words.field(name, value) if not hasattr(value, "name") \
                else self.words.square(value.name)
            (state if is_state else fixed).append(f"{name} {text}")
        return "; ".join(part for part in (", ".join(fixed), ", ".join(state)) if part)

    def find(self, game, text: str):
        """The square or thing `text` names: by name or title (any case, spaces ignored) or board number."""
        text = text.strip()
        if text.isdigit() and int(text) < len(game.board):
            return game.board[int(text)]
        wanted = "".join(text.lower().split())
        for thing in (*game.board, *game.state.things):
            for name in (thing.name, self.words.square(thing.name)):
                if "".join(name.lower().split()) == wanted:
                    return thing
        return None

    def board(self, game) -> str:
        """The ring, square by square: its title, its thing's facts (prices, rents, owner…), who is on it."""
        state = game.state
        lines = []
        width = max((len(self.words.square(s.name)) for s in game.board), default=0)  # the facts in one column
        for i, square in enumerate(game.board):
            line = f"{i:3} {self.words.square(square.name):{width}}"
            if hasattr(square, "kind"):
                line += f"  {self.facts(square)}"
            line = line.rstrip()
            here = [p.name for p in state.players if not p.out and p.at == i]
            lines.append(line + (f"  <- {', '.join(here)}" if here else ""))
        return "\n".join(lines) + "\n"

    def citations(self, name: str) -> list[str]:
        """The rulebook's words the rules file gives for a square or thing by name: its declaration's, its row's."""
        found = []
        square = self.squares.get(name)
        if square is not None and square.meta.cite:
            found.append(f"§ \"{square.meta.cite}\"")
        row = self.rows.get(name)
        if row is not None and row.cite:
            found.append(f"§ \"{row.cite}\"")
        if row is not None and row.assumed_columns is not None:  # the file says the rulebook does not give them
            assumed = [a.column + (f"[{a.index}]" if a.index is not None else "") for a in row.assumed_columns]
            found.append(f"assumed (not in the rulebook): {', '.join(assumed) or 'the whole row'}")
        return found

    def landing_rules(self, game, player, square) -> list[str]:
        """The `on land` rules that apply to `player` arriving on `square` now, each with the sentence it cites."""
        rules = self.rules
        kind = getattr(square, "kind", None)
        handlers = (rules.land.get(kind, []) if kind is not None else []) + rules.land.get(square.name, [])
        lines = []
        for h in handlers:
            env = {"player": player, **({h.var: square} if h.var else {})}
            try:
                if h.when is not None and not h.when(game, env):
                    continue
            except Exception:  # a condition that reads what only the arrival binds: shown, as it may apply
                pass
            cite = h.node.body.meta.cite
            lines.append(f"  {h.where.text}: " + (f"§ \"{cite}\"" if cite else _written(h.where)))
        return lines

    def info(self, game, seat: int, text: str) -> str:
        """One square or thing in full: title, facts, the rulebook's words, its rules, who is on it."""
        thing = self.find(game, text)
        if thing is None:
            return f"no square or thing is called `{text}` (try `board` for their names)\n"
        lines = [f"{self.words.square(thing.name)}" + (f" ({thing.name})" if self.words.square(thing.name)
                                                        != thing.name else "")]
        if hasattr(thing, "kind"):
            lines.append(f"  a {thing.kind}: {self.facts(thing)}")
        lines += [f"  {c}" for c in self.citations(thing.name)]
        named = [t for t in game.state.things if t is not thing and any(v is thing for v in t.f.values())]
        lines += [f"  {t.kind} {self.words.square(t.name)}: {self.facts(t)}" for t in named]
        if thing in game.board:
            me = game.state.players[seat]
            rules = self.landing_rules(game, me, thing)
            lines += ["  landing here, you:" if rules else "  landing here: no rule applies to you now", *rules]
            here = [p.name for p in game.state.players if not p.out and game.board[p.at] is thing]
            if here:
                lines.append(f"  here now: {', '.join(here)}")
        return "\n".join(lines) + "\n"

    # -- players -------------------------------------------------------------------------------

    def players(self, game, seat: int | None) -> str:
        """Every player: position, cash, holdings, kept cards and every other field, as `seat` may see
        them (`view`: another player's hidden fields are left out and said to be hidden); `seat` None:
        the whole state, as a log or a test sees it."""
        state = game.state
        seen = view(game, state.players[seat]) if seat is not None else state_to_json(state)  # None: everything
        hidden = [f for f in self.rules.program.player_fields if f in self.rules.hidden_fields]
        lines = [f"turn {state.turn}"]
        for p, data in zip(state.players, seen["players"]):
            you = " (you)" if seat is not None and p.seat == seat else ""
            if p.out:
                lines.append(f"  {p.name}{you}: out of the game")
                continue
            fields = data["fields"]
            where = self.words.square(game.board[p.at].name) if 0 <= p.at < len(game.board) else "?"
            cash = f"cash {money(fields['cash'])}" if "cash" in fields else "cash hidden"
            holds = [self.words.square(name) for name, f in seen["things"].items()
                     if any(v == {"player": p.name} for v in f.values())]
            line = f"  {p.name}{you}: on {where}, {cash}; holds {', '.join(holds) or 'nothing'}"
            if p.hand:
                line += f"; cards kept: {', '.join(self.words.card(h.card) for h in p.hand)}"
            shown = [f"{k} {self.words.field(k, _ref(v))}" for k, v in fields.items() if k != "cash"]
            shown += [f"{k} hidden" for k in hidden if k != "cash" and k not in fields]
            if shown:  # the rest of what the rules keep on a player (a deposit, loans, a car)
                line += f"; {', '.join(shown)}"
            lines.append(line)
        return "\n".join(lines) + "\n"

    def me(self, game, seat: int) -> str:
        """Your seat: your line of `players`, each thing you hold with its facts, and the actions you may take now."""
        player = game.state.players[seat]
        lines = [line for line in self.players(game, seat).splitlines() if line.startswith(f"  {player.name} (you)")]
        held = [t for t in game.state.things if any(v is player for v in t.f.values())]
        lines += [f"  {self.words.square(t.name)}: {self.facts(t)}" for t in held]
        if not player.out:
            legal = game.actions.legal_actions(game, player, player.seat == game.state.current)
            lines.append("actions the rules allow you now:" if legal else "no action is open to you now")
            lines += [f"  {self.label(game, player, choice)}" for choice in legal]
        return "\n".join(lines) + "\n"

    # -- choices -------------------------------------------------------------------------------

    def cost(self, game, player, choice: ActionChoice) -> str:
        """What taking the action pays or brings in cash (its body's payments from or to the player)."""
        action = self.rules.action_named.get(choice.action)
        env = {"player": player, **({action.var: choice.argument} if action is not None and action.var else {})}
        parts = []
        for pays, amount in self.costs.get(choice.action, ()):
            try:
                value = amount(game, env)
            except Exception:  # an amount that needs what only running the action gives: not shown
                continue
            if isinstance(value, int):
                parts.append(f"{'pays' if pays else 'receives'} {money(value)}")
        return ", ".join(parts)

    def label(self, game, player, option) -> str:
        """A menu line: an action with its argument by title and its cost; anything else by name or title."""
        if isinstance(option, ActionChoice):
            arg = option.argument
            text = option.action + ("" if arg is None else " " + (money(arg) if isinstance(arg, int)
                                                                    else self.words.square(arg.name)))
            cost = self.cost(game, player, option) if game is not None else ""
            return text + (f" ({cost})" if cost else "")
        name = getattr(option, "name", option)
        return self.words.square(name) if isinstance(name, str) else plain(name)


def _names(node, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _written(where) -> str:
    """A rule that cites no rulebook sentence is shown as written: its first line, without comment."""
    text = linecache.getline(where.file, where.line).split("#", 1)[0].strip() if where.file else ""
    return f"`{text}`" if text else "(cites no rulebook sentence)"

