"""The fuzzers of issue #13, shared by the suite (tests/test_fuzz_play.py) and the long hunt
(scripts/fuzz.py): rules files made by mutating the shipped games and by a generator that
follows the grammar, and `exercise`, which takes one file as far as it goes.

`exercise(text)` parses the file, checks it, and if it checks clean compiles it, plays a few
short games with the built-in agents and runs its scenarios. Any exception other than a
diagnostic is a bug in rulesc and propagates: `RulesError` (the file or a `--set` is wrong),
`RuleRuntimeError` (a rule did something impossible; R1001/R1002, with file:line:col) are the only
answers allowed. A built-in agent that breaks the rules (`AgentError`) is a bug too. With
`oracle`, each game played is played again under every combination of the execution options
(rulesc/differential.py: events on/off, invariant checks on/off, saved and loaded midway) and
must be the same game under each, event for event, error for error; a difference raises
`Disagreed`. A hang is
caught by `no_hang`, an alarm that is only there to catch hangs: nothing here is timed.

Every choice is made through a `Chooser`, so the same mutations run under Hypothesis (which
shrinks a failure to a small file) and from a seeded `random.Random` (which counts, for the
figures of a long hunt).
"""

from __future__ import annotations

import contextlib
import random
import re
import signal
import tempfile
from pathlib import Path

from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError, render_text
from rulesc.dsl.parser import parse_text
from rulesc.differential import describe, disagreements
from rulesc.dsl.variants import load_file
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.errors import RuleRuntimeError
from rulesc.interpreter.rules import compile_rules
from rulesc.interpreter.scenario import run_scenarios

ROOT = Path(__file__).resolve().parent.parent
# What mutants are made from: every shipped game, the house rules in examples/ (the classic roll-and-move
# constructs among them) and the completeness file, which uses every construct of the language.
CORPUS = [ROOT / "games" / name for name in ("finance.rules", "wheeler.rules", "wheeler-level1.rules",
                                             "wallstreet.rules", "wallstreet-short.rules")]
CORPUS += sorted((ROOT / "examples").glob("*.rules")) + sorted((ROOT / "examples" / "games").glob("*.rules"))
CORPUS += [ROOT / "tests" / "completeness" / "everything.rules", ROOT / "tests" / "cli_data" / "minimal.rules"]
GAMES = {path.name: path.read_text(encoding="utf-8") for path in CORPUS}
PLACES = {path.name: path.relative_to(ROOT) for path in CORPUS}  # where each sits, for `extends "../games/…"`

TURN_LIMIT = 25  # turns per game played: enough to reach debts, auctions and cards, short enough to be quick
HANG_SECONDS = 60  # one file taking longer than this has hung (a normal one takes well under a second)


class Hang(Exception):
    """A file kept rulesc busy for HANG_SECONDS: a loop that no step budget stops."""


class Disagreed(AssertionError):
    """A game played under two combinations of the execution options gave two games (the oracle)."""


@contextlib.contextmanager
def no_hang(seconds: int = HANG_SECONDS):
    """Raise Hang if the body runs longer than `seconds` (where SIGALRM exists; elsewhere, nothing)."""
    if not hasattr(signal, "SIGALRM"):
        yield
        return

    def alarm(_signum, _frame):
        raise Hang(f"still running after {seconds} s")
    previous = signal.signal(signal.SIGALRM, alarm)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# ---- choices -------------------------------------------------------------------------------------------

class Chooser:
    """Where the fuzzers' choices come from: a seeded generator here, Hypothesis's `data` below."""

    def __init__(self, rng: random.Random):
        self.rng = rng

    def integer(self, low: int, high: int) -> int:
        return self.rng.randint(low, high)

    def choice(self, options):
        options = list(options)
        return options[self.integer(0, len(options) - 1)]

    def chance(self, percent: int) -> bool:
        return self.integer(1, 100) <= percent


class DataChooser(Chooser):
    def __init__(self, data):
        from hypothesis import strategies as st
        self.data, self.st = data, st

    def integer(self, low, high):
        return self.data.draw(self.st.integers(low, high))


# ---- mutations of the shipped games --------------------------------------------------------------------

NUMBER = re.compile(r"(?<![\w.])(\$?)(\d[\d,]*)(%?)(?![\w])")
NAME = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
OPERATORS = ["==", "!=", ">=", "<=", ">", "<", "+", "-", "*", "/", "and", "or"]
OPERATOR = re.compile(r"(?<=\s)(==|!=|>=|<=|>|<|\+|-|\*|/|and|or)(?=\s)")
WORDS = ["none", "player", "true", "false", "bank", "current", "players[0]", "players[1]"]
BOUNDARY_NUMBERS = ["0", "1", "2", "3", "6", "7", "40", "100", "1000", "999999", "1000000000000000"]
INJECTED = [  # statements a new user's rules might contain, put where a statement may go
    "set {thing}.owner = none", "eliminate player", "end turn", "extra turn for player", "move player by 0",
    "move player back 1", "roll 0 dice as zz", "pay player.cash from player to bank", "pay $1 from bank to player",
    "eliminate players[0]", "let zz = players[count(players) - 1]", "for zz in players:\n{indent}    eliminate zz",
    "if player.cash < $0:\n{indent}    end turn", "pass",
]


def _replace_match(text: str, pattern: re.Pattern, choose: Chooser, make) -> str:
    matches = list(pattern.finditer(text))
    if not matches:
        return text
    m = choose.choice(matches)
    return text[:m.start()] + make(m) + text[m.end():]


def mutate_number(text, choose):
    def new(m):
        value = choose.choice(BOUNDARY_NUMBERS)
        if m.group(1):
            value = value if len(value) < 4 else f"{int(value):,}"
        return m.group(1) + value + m.group(3)
    return _replace_match(text, NUMBER, choose, new)


def mutate_name(text, choose):
    names = sorted(set(NAME.findall(text)))
    return _replace_match(text, NAME, choose, lambda m: choose.choice(names))


def mutate_operator(text, choose):
    return _replace_match(text, OPERATOR, choose, lambda m: choose.choice(OPERATORS))


def mutate_word(text, choose):
    return _replace_match(text, re.compile(r"\b(none|player|true|false|bank|current)\b"), choose,
                          lambda m: choose.choice(WORDS))


def _statement_lines(lines):
    return [i for i, line in enumerate(lines) if line.startswith("    ") and line.strip()
            and not line.lstrip().startswith("#")]


def mutate_lines(text, choose):
    """Delete, duplicate or move a statement line, or insert a risky statement beside one."""
    lines = text.splitlines(keepends=True)
    candidates = _statement_lines(lines)
    if not candidates:
        return text
    i = choose.choice(candidates)
    how = choose.integer(0, 3)
    if how == 0:
        return "".join(lines[:i] + lines[i + 1:])
    if how == 1:
        return "".join(lines[:i + 1] + [lines[i]] + lines[i + 1:])
    indent = lines[i][:len(lines[i]) - len(lines[i].lstrip())]
    if how == 2:
        j = choose.choice(candidates)
        moved = indent + lines[j].lstrip()
        return "".join(lines[:i + 1] + [moved] + lines[i + 1:])
    thing = choose.choice(re.findall(r"\b([a-z])\.owner\b", text) or ["player"])
    statement = choose.choice(INJECTED).format(thing=thing, indent=indent)
    return "".join(lines[:i + 1] + [indent + statement + "\n"] + lines[i + 1:])


MUTATIONS = [mutate_number, mutate_name, mutate_operator, mutate_word, mutate_lines]


def mutant(choose: Chooser) -> tuple[str, str]:
    """(game file name, its text after one to three mutations)."""
    name = choose.choice(sorted(GAMES))
    text = GAMES[name]
    for _ in range(choose.integer(1, 3)):
        text = choose.choice(MUTATIONS)(text, choose)
    return name, text


# ---- games generated from the grammar -------------------------------------------------------------------

class _Gen:
    """Writes a small game the way the grammar reads one: declarations at column 1, blocks indented by
    four spaces (the indenter's `_INDENT`/`_DEDENT` come from the indentation written here). Types are
    followed loosely, so that many files check clean and some do not."""

    def __init__(self, choose: Chooser):
        self.c = choose
        self.lots = [f"Lot{i}" for i in range(choose.integer(1, 5))]
        self.squares = [f"Sq{i}" for i in range(choose.integer(1, 3))]
        self.off = choose.chance(30)
        self.decks = ["Luck"] if choose.chance(60) else []

    def money(self, names=()):
        c = self.c
        options = [f"${c.choice(['0', '1', '5', '50', '200', '1,000'])}", "fee", "player.cash / 2",
                   f"{c.choice(['10', '50', '100'])}% of player.cash rounded down", "bonus * 2"]
        options += [f"{n}.price" for n in names]
        options += [f"sum(l in Lot where l.owner == {self.who(names)}: l.price)",  # aggregates the codegen
                    f"sum(l in Lot where l == {self.place(names)} and l.owner != player: l.price)"]  # rewrites
        return c.choice(options)

    def place(self, names=()):
        return self.c.choice(["player.position", *self.squares, *self.lots, *[n for n in names if n != "d"]])

    def count(self, names=()):
        c = self.c
        return c.choice(["0", "1", "2", "d.total" if "d" in names else "1", "count(players)", "player.tally",
                         "steps", f"{c.integer(0, 12)}"])

    def who(self, names=()):
        options = ["player", "players[0]", "current"] + [f"{n}.owner" for n in names if n != "d"]
        return self.c.choice(options)

    def cond(self, names=()):
        c = self.c
        options = [f"player.cash >= {self.money(names)}", f"{self.count(names)} > {self.count(names)}",
                   "player.flag", "not player.flag", f"count(players) == {c.integer(1, 4)}"]
        options += [f"{n}.owner == none" for n in names if n != "d"] + [f"{n}.owner != none" for n in names if n != "d"]
        options += [f"{n}.owner == player" for n in names if n != "d"]
        options += [f"any(q in players: q.position == {self.place(names)})",
                    f"count(t in squares where t != {self.place(names)} and not any(q in players: q.position == t)) > 1",
                    f"any(l in Lot: l == {self.place(names)} and l.owner == {self.who(names)})",
                    f"all(l in Lot where l.owner == {self.who(names)}: l.price > {self.money(names)})",
                    "count(q in players: any(l in Lot where l.owner == q: l.price > $50)) > 0"]
        return c.choice(options)

    def statement(self, depth, names, indent):
        c = self.c
        pad = "    " * indent
        kinds = ["pay", "pay", "set", "move", "tally", "flag", "let"]
        if depth < 2:
            kinds += ["if", "for", "auction"]
        kinds += ["draw"] * bool(self.decks) + ["eliminate", "extra", "end", "roll", "choose"]
        kind = c.choice(kinds)
        if kind == "pay":
            src, dst = c.choice([(self.who(names), "bank"), ("bank", self.who(names)),
                                 (self.who(names), self.who(names))])
            return [f"{pad}pay {self.money(names)} from {src} to {dst}"]
        if kind == "set":
            things = [n for n in names if n != "d"] or [c.choice(self.lots)]
            return [f"{pad}set {c.choice(things)}.owner = {c.choice(['none', 'player', self.who(names)])}"]
        if kind == "move":
            how = c.choice(["by", "back", "to"])
            target = c.choice(self.squares + self.lots + (["Office"] if self.off else [])) if how == "to" \
                else self.count(names)
            return [f"{pad}move {self.who(names)} {how} {target}"]
        if kind == "tally":
            return [f"{pad}set player.tally = {self.count(names)}"]
        if kind == "flag":
            return [f"{pad}set player.flag = {c.choice(['true', 'false', 'not player.flag'])}"]
        if kind == "let":
            return [f"{pad}let v{depth} = {self.who(names)}"]
        if kind == "draw":
            return [f"{pad}draw from {self.decks[0]}"]
        if kind == "eliminate":
            return [f"{pad}eliminate {self.who(names)}"]
        if kind == "extra":
            return [f"{pad}extra turn for {self.who(names)}"]
        if kind == "end":
            return [f"{pad}end turn"]
        if kind == "roll":
            return [f"{pad}roll {c.choice(['1', '2', '0', 'count(players)', 'player.tally'])} dice as d"]
        if kind == "choose":
            return [f'{pad}choose "which way" by {self.who(names)}:',
                    f"{pad}    option stay:", f"{pad}        pass",
                    f"{pad}    option go when {self.cond(names)}:", *self.block(depth + 1, names, indent + 2)]
        if kind == "if":
            lines = [f"{pad}if {self.cond(names)}:", *self.block(depth + 1, names, indent + 1)]
            if c.chance(40):
                lines += [f"{pad}else:", *self.block(depth + 1, names, indent + 1)]
            return lines
        if kind == "for":
            var = f"q{depth}"
            return [f"{pad}for {var} in {c.choice(['Lot', 'players'])}:",
                    *self.block(depth + 1, names if c.chance(50) else names, indent + 1)]
        thing = c.choice([n for n in names if n != "d"] or self.lots)
        return [f"{pad}auction {thing} from {self.money(names)} among players as s{depth}:",
                f"{pad}    pay s{depth}.price from s{depth}.winner to bank",
                f"{pad}    set {thing}.owner = s{depth}.winner"]

    def block(self, depth, names, indent):
        lines = []
        for _ in range(self.c.integer(1, 3)):
            lines += self.statement(depth, names, indent)
        return lines

    def game(self) -> str:
        c = self.c
        low = c.choice([1, 2, 2, 2, 3])
        high = c.choice([low, low + 1, 4, 6])
        board = self.lots + self.squares
        board = [board[i] for i in sorted(range(len(board)), key=lambda _i: c.integer(0, 99))]
        start = c.choice(self.squares)
        out = ['game "Generated":', f"    players: {low} to {high}", f"    start: {start}"]
        if c.chance(40):
            out.append(f"    first player: {c.choice(['seat order', 'highest roll 1 die', 'highest roll 2 dice'])}")
        if c.chance(30):
            out.append(f"    turn limit: {c.integer(1, 60)}")
        out += ["", f"param fee = ${c.choice(['0', '10', '50'])}", f"param bonus = ${c.choice(['0', '25', '200'])}",
                f"param steps = {c.integer(0, 8)}", "",
                "player:", f"    cash: money = ${c.choice(['0', '100', '1,500'])}", "    flag: bool = false",
                "    tally: count = 0", "",
                "kind Lot:", "    price: money", "    state owner: player? = none", "",
                "table Lot:", "    name   price"]
        out += [f"    {lot}   ${c.choice(['0', '20', '60', '400'])}" for lot in self.lots]
        out.append("")
        for sq in self.squares:
            out.append(f'square {sq} "{sq}"' + (" stop" if c.chance(15) else ""))
        if self.off:
            out.append('square Office "Office" off board')
        out += ["", "board:", "    " + ", ".join(board), ""]
        for deck in self.decks:
            out.append(f"deck {deck} {c.choice(['cut', 'reshuffle', 'once', 'cycle'])}:")
            for i in range(c.integer(1, 3)):
                out.append(f'    card C{i} "Card {i}"' + (f" copies {c.integer(0, 3)}" if c.chance(40) else "") + ":")
                out += self.block(1, (), 2)
            out.append("")
        out += ["turn:", "    phase move:", f"        roll {c.choice(['1', '2', '2'])} dice as d",
                "        move player by d.total"]
        out += self.block(1, ("d",), 2)
        if c.chance(50):
            out += [f"    phase extra when {self.cond()}:", *self.block(1, (), 2)]
        out.append("")
        out += ["on land Lot l when l.owner == none:", *self.block(0, ("l",), 1), ""]
        out += ["on land Lot l when l.owner != none and l.owner != player:",
                "    pay l.price / 4 from player to l.owner", *(self.block(0, ("l",), 1) if c.chance(40) else []), ""]
        for sq in self.squares:
            if c.chance(50):
                out += [f"on {c.choice(['land', 'pass'])} {sq}:", *self.block(0, (), 1), ""]
        if c.chance(80):
            out += ["on debt:", "    pay debtor.cash from debtor to creditor", "    eliminate debtor", ""]
        if c.chance(70):
            out += ["on eliminate:", "    for l in Lot:", "        if l.owner == player:",
                    "            set l.owner = none", ""]
        if c.chance(40):
            out += ["action sell(l: Lot) any time when l.owner == player:",
                    "    set l.owner = none", "    pay l.price / 2 from bank to player", ""]
        out.append(c.choice(['end when count(players) == 1 winner players[0] as "last player standing"',
                             'end when turn > 30 winner best(p in players: p.cash) as "richest"',
                             'end when any(p in players: p.cash > $5,000) winner players[0] as "rich"']))
        if c.chance(40):
            names = ["Ann", "Bob", "Cid"][:max(low, 2)]
            out += ["", 'scenario "generated":', f"    players {', '.join(names)}",
                    f"    dice {c.integer(1, 6)} {c.integer(1, 6)}", f"    answer {names[0]} bid: $5, none",
                    f"    play turn of {names[0]}", f"    expect {names[0]}.cash >= $0"]
        return "\n".join(out) + "\n"


def generated(choose: Chooser) -> str:
    return _Gen(choose).game()


# ---- taking a file as far as it goes ------------------------------------------------------------------------

def _load(text: str, name: str):
    """Parse `text` as the file `name`; a variant is loaded beside copies of the shipped games."""
    if not re.search(r"^extends\b", text, re.MULTILINE):  # comments may come before `extends`
        return parse_text(text, name)
    with tempfile.TemporaryDirectory(prefix="rulesc-fuzz-") as folder:
        for game, source in GAMES.items():  # the corpus laid out as in the project, so every `extends` finds its base
            place = Path(folder) / PLACES[game]
            place.parent.mkdir(parents=True, exist_ok=True)
            place.write_text(source, encoding="utf-8")
        where = PLACES[name].parent if name in PLACES else Path(".")
        path = Path(folder) / where / ("mutant-" + name)
        path.write_text(text, encoding="utf-8")
        return load_file(path)


def exercise(text: str, name: str = "fuzz.rules", games: int = 2, seed: int = 0, play: bool = True,
             oracle: bool = False) -> str:
    """Take one rules file as far as it goes; returns how far ("syntax", "rejected", "clean" when not
    `play`ed, "played"). Raises anything but a diagnostic: that is a bug in rulesc. With `oracle`,
    every game played is played under every combination of the execution options too, and raises
    `Disagreed` if they are not all the same game."""
    try:
        rules_file = _load(text, name)
    except RulesError as exc:
        for d in exc.diagnostics:
            render_text(d, text)
        return "syntax"
    checked = check_program(rules_file)
    for d in checked.diagnostics:
        render_text(d, text)
    if not checked.ok:
        return "rejected"
    if not play:
        return "clean"
    try:
        rules = compile_rules(checked)
    except RulesError:
        return "rejected"  # values only known once compiled (a players range from parameters)
    low, high = rules.players_range
    for i in range(games):
        count = min(max(low, 2 + (seed + i) % 3), high)
        kind = ("random", "heuristic")[(seed + i) % 2]
        try:
            game = Game(rules, count, seed=seed + i, agents=make_agents(kind, seed + i, count),
                        turn_limit=TURN_LIMIT)
            game.play()
        except RuleRuntimeError as exc:
            render_text(exc.diagnostic(), text)
        if oracle:
            found = disagreements(rules, seed + i, count, kind, turn_limit=TURN_LIMIT)
            if found:
                raise Disagreed(describe(found))
    for _result in run_scenarios(rules):
        pass
    return "played"
