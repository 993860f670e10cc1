"""Every diagnostic code, defined once: its stable code, name, severity, summary and explanation.

A diagnostic is raised through its entry here (`codes.UNKNOWN_NAME.diagnostic(...)`, or a checker's
`report(codes.UNKNOWN_NAME, ...)`), so its severity cannot differ from site to site, and a code that
is not registered fails at once (`lookup`) rather than reaching a user undocumented. Everything that
shows codes reads this module: `rulesc explain` and the SARIF rules (rulesc/explain.py, rulesc/sarif.py),
the language server (rulesc/lsp.py), and docs/errors/README.md, which rulesc/explain.py generates from
it (tests/test_codes.py fails when the checked-in page differs).

The message itself is written where the diagnostic is raised, from that site's values: one code
covers several wordings (R0205 alone has a dozen, one per kind of name), so a template per code would
only move each site's sentence here. `summary` is the one line every wording of the code fits.

Codes are stable: never reuse or renumber one (UNASSIGNED holds the numbers that never had a code).
A new code takes the next free number of its range.
"""

from __future__ import annotations

import attrs

from .diagnostics import Diagnostic, Label, Span

ERROR = "error"  # the file cannot be played: `rulesc` exits with status 1 (or `exit_status`)
WARNING = "warning"  # the file can be played, but something in it is probably a mistake


@attrs.frozen
class Code:
    """One diagnostic code. `explanation` is markdown, the code's docs/errors entry after its severity
    and name: what the code means, an example with its real output, and the fix."""

    code: str  # "R0205", as `path:line:col: error[R0205]: …` shows it
    name: str  # "unknown-name": its constant is UNKNOWN_NAME; `rulesc explain unknown-name` finds it
    severity: str  # ERROR or WARNING
    summary: str  # the index's line: what every message of the code is about
    exit_status: int = 1  # 2 for a file that cannot be read or a bad option: a usage or I/O error, not the rules'
    unnecessary: bool = False  # it marks rules that never matter (unused, unreachable); an editor fades them
    explanation: str = attrs.field(kw_only=True, repr=False)

    def diagnostic(self, message: str, path: str, span: Span | None = None, *, labels: tuple[Label, ...] = (),
                   notes: tuple[str, ...] = (), help: str | None = None) -> Diagnostic:
        """A diagnostic of this code, with the code's severity."""
        return Diagnostic(self.severity, self.code, message, path, span, tuple(labels), tuple(notes), help)


@attrs.frozen
class Range:
    """A range of codes (`R02xx`: names) and what its codes have in common, for docs/errors."""

    heading: str  # "R02xx"
    title: str
    intro: str  # markdown, or "" for none

    def holds(self, code: str) -> bool:
        return code.startswith(self.heading.rstrip("x"))


# ---- R00xx: input files and the command line -----------------------------------------------------

NO_SUCH_FILE = Code("R0001", "no-such-file", ERROR, "no such file", exit_status=2, explanation="""\
no such file.

```text
$ rulesc check wheeler.rule
wheeler.rule: error[R0001]: no such file `wheeler.rule`
  help: check the path; rules files end in `.rules`
```

Fix: check the path and the spelling; rules files end in `.rules`. Exit status 2.
""")

PATH_IS_A_DIRECTORY = Code("R0002", "path-is-a-directory", ERROR,
                           "the path is a directory", exit_status=2, explanation="""\
the path names a directory, not a file.

```text
$ rulesc check games
games: error[R0002]: `games` is a directory, not a rules file
  help: name a `.rules` file inside it, e.g. `games/finance.rules`
```

Fix: name a file inside the directory. Exit status 2.
""")

FILE_TOO_LARGE = Code("R0003", "file-too-large", ERROR, "the file is too large", explanation="""\
the file is larger than 1,000,000 bytes. The longest rulebook fits in a few tens of
kilobytes, so a file this big is almost certainly the wrong file (a log, an image, a database).

```text
big.rules: error[R0003]: file is too large (1,000,002 bytes; the limit is 1,000,000)
  help: a rules file is text written by hand; is this the right file?
```

Fix: check that this is the rules file you meant; split generated data if it really is rules.
""")

UNREADABLE_FILE = Code("R0004", "unreadable-file", ERROR, "the file cannot be read", exit_status=2, explanation="""\
the operating system refused to read the file (permissions, a broken link…), or the
path is not an ordinary file: a device such as `/dev/zero` would never end, a named pipe would
block until something wrote to it, so neither is read at all.

```text
locked.rules: error[R0004]: cannot read file: Permission denied
/dev/zero: error[R0004]: cannot read file: it is a device, pipe or socket, not a file
```

Fix: make the file readable, or name the rules file itself. Exit status 2.
""")

BINARY_FILE = Code("R0005", "binary-file", ERROR, "the file is binary", explanation="""\
the file contains NUL bytes, so it is binary, not text. The position of the first NUL
is given.

```text
board.rules:1:10: error[R0005]: file is binary, not text (it contains NUL bytes)
  help: rules files are UTF-8 text
```

Fix: point at the text file; if an editor saved it as UTF-16, save it as UTF-8.
""")

NOT_UTF8 = Code("R0006", "not-utf8", ERROR, "the file is not UTF-8", explanation="""\
the file is not valid UTF-8 (typically Latin-1 or Windows-1252 from an old editor).
The position of the first bad byte is given.

```text
latin1.rules:1:10: error[R0006]: file is not valid UTF-8 (byte 0xe9)
  help: save the file as UTF-8
```

Fix: re-save the file as UTF-8. A UTF-8 byte-order mark is accepted.
""")

EMPTY_FILE = Code("R0007", "empty-file", ERROR, "the file is empty", explanation="""\
the file is empty or holds only white space.

```text
empty.rules: error[R0007]: file is empty
  help: a rules file starts with `game "Name":`
```

Fix: write the game, starting with its header.
""")

MALFORMED_SET = Code("R0010", "malformed-set", ERROR,
                     "`--set` is not `NAME=VALUE` (or, for `sweep`, not a range `NAME=FROM..TO step S`)", exit_status=2, explanation="""\
a `--set` option does not have the form its command takes: `NAME=VALUE` everywhere, and
for `rulesc sweep`, one `NAME=FROM..TO step S` that makes a range of values.

```text
$ rulesc simulate games/finance.rules --set starting_cash
--set: error[R0010]: `--set starting_cash` is not `NAME=VALUE`
  help: e.g. `--set starting_cash=$1500`
```

`rulesc sweep` reports the same code for a range it cannot take: the form, FROM above TO, a
missing step (a count or a percentage steps by 1 when the step is left out; an amount has no such
step), a step of another kind than FROM and TO (`step 250` for amounts, `step 5` for percentages:
`--set` refuses `tariff=5` too), a step of 0 or less, more than 100 values, and a `--set NAME=VALUE`
that fixes the parameter the sweep varies (each value of the sweep would replace it):

```text
$ rulesc sweep games/finance.rules --set 'starting_cash..$2,000' step '$250'
--set: error[R0010]: `--set starting_cash..$2,000 step $250` is not `NAME=FROM..TO step S`
  help: e.g. `--set starting_cash=$1,000..$2,000 step $250`
$ rulesc sweep games/finance.rules --set 'starting_cash=$2,000..$500' step '$250'
--set: error[R0010]: `--set starting_cash=$2,000..$500 step $250`: needs FROM <= TO (the values go up from FROM by the step)
  help: e.g. `--set starting_cash=$1,000..$2,000 step $250`
$ rulesc sweep games/finance.rules --set 'starting_cash=$500..$2,000'
--set: error[R0010]: `--set starting_cash=$500..$2,000`: say the step between amounts, e.g. `step $100`
  help: e.g. `--set starting_cash=$1,000..$2,000 step $250`
$ rulesc sweep games/finance.rules --set 'starting_cash=$500..$2,000' step 250
--set: error[R0010]: `--set starting_cash=$500..$2,000 step 250`: the step must be an amount like FROM and TO, not `250`
  help: e.g. `step $100`
$ rulesc sweep games/finance.rules --set 'starting_cash=$500..$2,000 step -$250'
--set: error[R0010]: `--set starting_cash=$500..$2,000 step -$250`: the step must be above 0 (the values go up from FROM to TO)
  help: e.g. `step $100`
$ rulesc sweep games/finance.rules --set 'starting_cash=$1..$2,000' step '$1'
--set: error[R0010]: `--set starting_cash=$1..$2,000 step $1` makes 2,000 values; a sweep takes at most 100
  help: take a bigger step
$ rulesc sweep games/finance.rules --set 'house_cap=1..$3'
--set: error[R0010]: `--set house_cap=1..$3`: FROM and TO must be two amounts, counts or percentages of the same kind
  help: e.g. `--set starting_cash=$1,000..$2,000 step $250`
$ rulesc sweep games/finance.rules --set 'starting_cash=$500..$2,000' step '$500' --set 'starting_cash=$700'
--set: error[R0010]: `--set starting_cash=$700` fixes `starting_cash`, the parameter the sweep varies (from $500 to $2,000)
  help: drop `--set starting_cash=$700`, or sweep another parameter
```

A TO that the steps do not reach is not an error: as in a range, the values stop at the last step
below it, and a note on stderr says so
(`rulesc: note: $1,200 is not reached by steps of $500 from $500; the last value is $1,000`).
FROM, TO and the step are read as a rules file writes values, so FROM may be below zero (`-$500`,
`-5%`); a value that is not a whole number written out is R0012.

Fix: give the value after `=`, written as in a rules file (`$1,500`, `5`, `10%`); for `sweep`,
`NAME=FROM..TO step S` with FROM <= TO and a step above 0 of the same kind as FROM and TO. Quote it
in the shell, where `$` is special: `--set 'starting_cash=$1500'`. Exit status 2.
""")

UNKNOWN_SET_PARAMETER = Code("R0011", "unknown-set-parameter", ERROR,
                             "`--set` names no parameter", exit_status=2, explanation="""\
`--set` names a parameter the file does not declare.

```text
$ rulesc simulate games/finance.rules --set 'start_cash=$1500'
games/finance.rules: error[R0011]: `--set start_cash`: the rules have no parameter `start_cash`
  help: parameters are `starting_cash`, `circuit_income`, `tariff`, `taxes`, `luxury`, `house_cap`, `opening_bid`
```

Fix: use one of the listed names. Exit status 2.
""")

BAD_SET_VALUE = Code("R0012", "bad-set-value", ERROR,
                     "`--set` value that is not a value or of the wrong type", exit_status=2, explanation="""\
the `--set` value is not a value, or has a different type from the parameter's (a
count for money, money for a percentage…). For a type, the position is the parameter's declaration.

```text
$ rulesc simulate games/finance.rules --set starting_cash=1500
games/finance.rules:13:1: error[R0012]: `--set starting_cash` needs money, not `1500`
$ rulesc simulate games/finance.rules --set 'starting_cash=$1,5OO'
--set: error[R0012]: `--set starting_cash`: `$1,5OO` is not a value (unexpected `,`; expected `assumed`, `cite`, the end of the line)
  help: write a value as in a rules file: `$1500`, `5`, `10%`, `true`
```

`rulesc sweep` reads FROM, TO and the step of its range as values too, and says why one is not:
values are whole numbers, and each of the three is an amount, a count or a percentage written out
(`-$500` is one; a name or a sum is not):

```text
$ rulesc sweep games/finance.rules --set 'house_cap=1..3' step 1.5
--set: error[R0012]: `--set house_cap`: `1.5` is not a value: values are whole numbers (no decimals)
  help: write a whole amount, count or percentage, as in a rules file: `$1,500`, `5`, `10%`
$ rulesc sweep games/finance.rules --set 'house_cap=x..3'
--set: error[R0012]: `--set house_cap`: `x` is not a value: FROM, TO and the step must each be an amount, a count or a percentage written out
  help: write a whole amount, count or percentage, as in a rules file: `$1,500`, `5`, `10%`
```

Fix: write the value with its unit, as a whole number: `'starting_cash=$1500'`, `tariff=15%`,
`house_cap=2`. Exit status 2.
""")


# ---- R01xx: syntax -------------------------------------------------------------------------------

UNEXPECTED_TOKEN = Code("R0101", "unexpected-token", ERROR, "unexpected token", explanation="""\
the parser met a word or symbol where the grammar does not allow it. The message says
what it found and what it expected; the help explains the commonest causes (a missing `:`, a
block that is not indented, a line indented for no reason), and names the slip where it
recognises one (below: a misspelt keyword, `=` for `==`, money with cents, a tab among spaces; and a
value given with no `set`: `player.cash = $5` says "to change a value, write `set` before it").

The game's own phase line without its colon:

```rules
turn:
    phase move
        roll 2 dice as d
```

```text
tiny.rules:25:15: error[R0101]: unexpected end of line; expected `:`, `optional`, `when`, a quoted string
   |
25 |     phase move
   |               ^
  help: blocks open with `:` at the end of the line
```

Where a statement may come, the message says `a statement` rather than listing every keyword a
statement can start with (`roll`, `move`, `pay`, `window`, `do`…). A misspelt statement keyword:

```rules
after turn:
    collect fee from bank to player
```

```text
tiny.rules:35:5: error[R0101]: unexpected `collect`; expected a statement
   |
35 |     collect fee from bank to player
   |     ^^^^^^^
```

A word near one of the keywords that fit there gets the nearest (as a misspelt name gets the
nearest names), if putting it in its place makes the line read:

```rules
after turn:
    pya fee from bank to player
```

```text
tiny.rules:35:5: error[R0101]: unexpected `pya`; expected a statement
   |
35 |     pya fee from bank to player
   |     ^^^
  help: did you mean `pay`?
```

A single `=` where `==` would make the line read (a condition, `when`, `end when`):

```rules
on land Go:
    if player.cash = $0:
        pay fee from bank to player
```

```text
tiny.rules:35:20: error[R0101]: unexpected `=`; expected `:`
   |
35 |     if player.cash = $0:
   |                    ^
  help: to compare, write `==`; a single `=` gives a value (`set x = …`, `let x = …`, `param x = …`)
```

Money with cents: `$10.50` reads as `$10`, `.` and `50`, so the error is at the `.` or the `50`
(at the `$` of `$.50`, R0102); money is whole units of the currency:

```rules
param tax = $10.50
```

```text
tiny.rules:34:17: error[R0101]: unexpected `50`; expected a name
   |
34 | param tax = $10.50
   |                 ^^
  help: `$10.50` is not money: money is whole units of the currency (docs/language.md 2: "`$100.00` is not money: write `$100`")
```

A tab among spaces: the indenter counts a tab as 4 columns wherever it stands, where an editor
may show it 8 wide, so lines that look aligned are not. When the line of an indentation error,
or the line before it, is indented with a tab, the help gives both widths as counted. Here the
first `pay` is indented with a tab, the second with eight spaces:

```text
tiny.rules:36:9: error[R0101]: unexpected indentation; expected a statement, the end of the block
   |
36 |         pay fee from bank to player
   |         ^
  help: a tab counts as 4 columns: line 35 is indented 4 columns (a tab) and this line 8 (8 spaces); indent with spaces only
```

Other common forms: `unexpected indentation; expected a statement, the end of the block` (a
line indented more than the one before it, which does not end in `:`), `expected an indented
block` (a line ending in `:` followed by nothing indented), `unexpected end of file` (an
unclosed bracket), a keyword in the wrong order (`phase bump optional when …:` must be
`phase bump when … optional:`).

Fix: compare the line with the form in the language reference. Test files:
`syntax_missing_colon`, `syntax_missing_block`, `syntax_unexpected_indent`,
`syntax_missing_paren`, `syntax_extra_paren`, `syntax_block_at_eof`, `syntax_unexpected_token`;
the hints are tested in `tests/test_parse_hints.py`.
""")

UNEXPECTED_CHARACTER = Code("R0102", "unexpected-character", ERROR, "unexpected character", explanation="""\
a character that cannot start any token: a single quote, a stray symbol, an
unterminated string.

```rules
game 'Tiny':
```

```text
error[R0102]: unexpected character `'`
  help: strings use double quotes: "like this"
```

C's operators are words in rulesc; the help says which:

```rules
on land Go:
    if player.cash > $0 && player.cash < fee:
        pay fee from bank to player
```

```text
tiny.rules:35:25: error[R0102]: unexpected character `&`
   |
35 |     if player.cash > $0 && player.cash < fee:
   |                         ^
  help: write `and` for `&&`: conditions combine with `and`, `or` and `not`
```

(`||` gets `or`, a `!` before an operand `not`; `!=` is a comparison. A lone `|`, as in a table
drawn with bars, gets no hint.)

Fix: use double quotes for text; close every string on its line; remove the stray character;
write `and`, `or`, `not`. Money is written `$1,000`, not `1,000 $` or `1.000`. Test files:
`syntax_single_quote`, `syntax_unterminated_string`, `syntax_unexpected_character`,
`syntax_stray_character_in_table`; the operator hints are tested in `tests/test_parse_hints.py`.
""")

UNMATCHED_INDENTATION = Code("R0103", "unmatched-indentation", ERROR, "indentation matches no block", explanation="""\
a line dedents to a column that no enclosing block uses.

```rules
turn:
    phase move:
        roll 2 dice as d
      move player by d.total
```

```text
error[R0103]: this line's indentation matches no enclosing block
  help: indent it to the same column as a line above it
```

When this line or the one before it is indented with a tab, the help says how the tab was
counted (4 columns, wherever it stands) instead. Here an `after turn:` block's `if` holds a `pass`
indented with eight spaces, and the `end turn` after it is indented with a tab and two spaces:

```text
tiny.rules:37:4: error[R0103]: this line's indentation matches no enclosing block
   |
37 |       end turn
   |       ^
  help: a tab counts as 4 columns: line 36 is indented 8 columns (8 spaces) and this line 6 (a tab and 2 spaces); indent with spaces only
```

(The column, 4, counts the tab as one character; the line is shown with its tabs expanded and the
caret under the word.)

Fix: line the statement up with its block (here, eight spaces). Indent with spaces. Test file:
`syntax_bad_dedent`; the tab hint is tested in `tests/test_parse_hints.py`.
""")

NESTING_TOO_DEEP = Code("R0104", "nesting-too-deep", ERROR, "nesting too deep", explanation="""\
brackets or blocks nested more than 64 deep (or an expression more than 192 levels
deep). No hand-written rule needs this; the limit stops a hostile or generated file from
exhausting the parser.

```rules
        move player by ((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((d.total))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
```

```text
error[R0104]: nesting is too deep (more than 64 levels)
  help: split the expression or block with `let` names
```

Fix: name intermediate values with `let`, or move data into a table.
""")

NOT_AN_AGGREGATE = Code("R0105", "not-an-aggregate", ERROR, "not an aggregate", explanation="""\
a call written like an aggregate, `NAME(x in …)`, whose NAME is not an aggregate.

```rules
end when total(q in players: q.cash) == $0 winner players[0] as "bank wins"
```

```text
error[R0105]: `total(… in …)` is not an aggregate
  help: aggregates are `all`, `any`, `count`, `max`, `min`, `sum`
```

Fix: use one of `all`, `any`, `count`, `sum`, `min`, `max` (here `sum`). Test file:
`syntax_not_an_aggregate`.
""")

NUMBER_TOO_LARGE = Code("R0106", "number-too-large", ERROR, "number too large", explanation="""\
a number (a count, money, a percentage, a die face, `copies`) larger than
1,000,000,000,000,000. No game needs one; a longer number is almost always a slip of the
keyboard, and Python cannot even convert one of over 4,300 digits. The same limit holds for
`--set` values (there the error is R0012) and a scenario's dice.

```rules
param fee = $100000000000000000000
```

```text
tiny.rules:34:13: error[R0106]: number too large (21 digits; the largest is 1,000,000,000,000,000)
  help: no game needs a number this large: is a digit repeated?
```

Fix: write the number you meant. Test file: `number_too_large`.
""")

DESIGNED_NOT_BUILT = Code("R0107", "designed-not-built", ERROR,
                          "designed syntax that is not built yet", explanation="""\
a line writes syntax that docs/language.md designs (marked **designed**) but the
grammar does not build yet: `skip next turn of P`, `bank … then ious`, `roll N dice for P as d`,
the card flags `discardable`, `tradable on draw` and `use
when`, an `optional` `choose … for`. It is a syntax error (R0101) that knows what was meant.

```rules
    phase move:
        skip next turn of player
```

```text
tiny.rules:18:9: error[R0107]: `skip next turn of P` is designed but not built yet (docs/language.md 5.12)
   |
18 |         skip next turn of player
   |         ^^^^
  help: today write a `status` with its own turn (`put P in S`, its phases `release P`), or a counter and a `before turn` hook that ends the turn
```

Fix: write what the help says, which the language builds today. Test file: `designed_not_built`.
""")


# ---- R02xx: names --------------------------------------------------------------------------------

UNKNOWN_TYPE = Code("R0201", "unknown-type", ERROR, "unknown type", explanation="""\
a field's type is not a built-in type, a kind or a group.

```rules
kind Lot:
    price: mony
```

```text
error[R0201]: unknown type `mony`
  help: did you mean `money`?
```

Fix: use `money`, `count`, `percent`, `bool`, `text`, `player`, `square`, a kind, a group, a list
`[T]`, or an optional `T?`. (`account` is the type of `bank` and `creditor` in expressions, and `card`
the type of `Deck.Card` and of a player's kept cards, but neither can be declared as a field's type
yet: `account` there is `R0210`.) Test file: `unknown_type`.
""")

DEFINED_TWICE = Code("R0202", "defined-twice", ERROR, "defined more than once", explanation="""\
the same name is declared twice where it must be unique. Parameters, globals, kinds,
groups, group members, squares, table rows and decks share one namespace; fields are unique
within their kind (and within `player:` / `global:`), cards within their deck, phases within the
turn, options within a `choose`, header settings within the header, actions among actions.

```rules
param fee = $10
param fee = $20
```

```text
error[R0202]: `fee` is defined more than once
  note: `fee` was first defined here as a parameter at tiny.rules:32:1
  help: rename one of them, or remove the duplicate
```

Other messages: ``setting `players` is given twice``, ``field `cash` is defined more than once``,
``field `price` is defined more than once in kind `Lot` ``, ``card `A` is defined more than once
in deck `D` ``, ``action `a` is defined more than once``, ``phase `move` is defined more than
once``, ``option `a` is given twice``, ``the scenario names its players twice`` (a second
`players` line in one scenario), ``player `Ann` is named twice``. A `square Alpha` that is also a table row `Alpha` is the
first form.

Functions (`define`) share the namespace too. In a variant (a file that `extends` another), a new
declaration that reuses a name the base declared is this error as well.

Fix: rename one, or delete the duplicate. In a variant, change an inherited declaration with
`override param`, `override game`, `replace phase`, `replace card`… (language reference,
section 5.21) instead of declaring it again. Test files: `duplicate_definition`,
`duplicate_field`, `duplicate_global_field`, `scenario_players_and_bids`.
""")

BUILT_IN_NAME_DECLARED = Code("R0203", "built-in-name-declared", ERROR,
                              "a built-in name cannot be declared", explanation="""\
a declaration uses a built-in name: `player`, `players`, `bank`, `turn`,
`current`, `squares`, `none`, `true`, `false`.

```rules
param bank = $10
```

```text
error[R0203]: `bank` is a built-in name and cannot be declared
  help: choose another name
```

```rules
param current = $10
```

```text
tiny.rules:34:1: error[R0203]: `current` is a built-in name and cannot be declared
   |
34 | param current = $10
   | ^^^^^^^^^^^^^^^^^^^
  help: choose another name
```

The same code answers a `player:` field that repeats one the engine keeps for every player
(`name`, `seat`, `out`, `position`, `owing`, `hand`, `extra_turns`):

```text
error[R0203]: `position` is a built-in field of every player and cannot be declared
  help: remove this line; the engine keeps it (the start square is the header's `start:`)
```

Fix: choose another name (`bank_float`, `starting_bank`); drop a declared built-in field.
Test file: `builtin_name`.
""")

SECOND_ONE_PER_GAME = Code("R0204", "second-one-per-game", ERROR,
                           "a second declaration of a one-per-game thing", explanation="""\
a second declaration of something a game has only once: the `game` header, `bank`,
`board`, `turn`, `trade`.

```rules
board:
    Go, Alpha

board:
    Go
```

```text
error[R0204]: a game has one `board`; this is a second
  note: the first `board` is here at tiny.rules:18:1
```

Fix: merge the two (a board may span several lines; a `trade` line lists several kinds). Test
file: `second_board`.
""")

UNKNOWN_NAME = Code("R0205", "unknown-name", ERROR, "unknown name", explanation="""\
a name that is not declared where it is used. It covers every kind of name: values in
expressions, squares on the board, kinds in tables, groups, actions, hints and `trade`, squares
and kinds in handlers, decks in `draw`, and in scenarios players, actions, decks and cards.

```rules
on land Lot p when p.owner == none:
    pay p.price from player to bnak
```

```text
error[R0205]: unknown name `bnak`
  help: did you mean `bank`?
```

Other messages: ``unknown square or kind `Lots` `` (in `on land`), ``unknown kind `Lots` ``,
``unknown square `Alpa` `` (in `board`), ``unknown deck `Chance` ``, ``unknown player `Cid` ``,
``unknown action `build` `` (in a scenario, or in `window for P only …`), ``unknown phase `roll` ``
(in `own turn before PHASE`, `in` or `after`; also when a variant removes the phase an action
names; test file `action_timing_misuse`), ``deck `D` has no card `B` ``, and for a `do` statement:

```text
tiny.rules:38:5: error[R0205]: unknown procedure `fin`
   |
38 |     do fin(player, fee)
   |     ^^^^^^^^^^^^^^^^^^^
  help: did you mean `fine`?
```

A `draw` where there is no `player` to draw for (in a procedure, which sees only its parameters):

```text
tiny.rules:40:5: error[R0205]: `draw` draws for `player`, and there is no `player` here
   |
40 |     draw from Chance
   |     ^^^^^^^^^^^^^^^^
  help: a procedure sees only its parameters: draw in the turn, a handler, a card or an action
```

A rule-local name used outside its rule gets a special help:

```text
error[R0205]: unknown name `debtor`
  help: `debtor` is only defined where the rules have one (a turn, a handler, a card, an action)
```

Fix: correct the spelling (names are case-sensitive), declare the name, or move the expression
into a rule that binds it (`debtor`, `creditor`, `owed` exist only in `on debt`, `partner` only
in `trade … when`, `player` in phases, handlers, hooks, cards and actions). Test files:
`unknown_name`, `unknown_name_player_outside_rule`, `board_unknown_square`, `table_unknown_kind`,
`unknown_deck`, `unknown_kind_in_action`, `unknown_kind_in_handler`, `hint_unknown_kind`,
`statement_operands`.
""")

UNKNOWN_FIELD = Code("R0206", "unknown-field", ERROR, "no such field", explanation="""\
a field that the value's type does not have.

```rules
    pay p.prize from player to bank
```

```text
error[R0206]: a `Lot` has no field `prize`
  help: did you mean `price`?
```

A deck's fields are `left`, `discarded` and its cards:

```rules
end when Luck.size == 0 winner none as "deck done"
```

```text
tiny.rules:41:10: error[R0206]: a `deck` has no field `size`
   |
41 | end when Luck.size == 0 winner none as "deck done"
   |          ^^^^^^^^^
  help: its fields are `left`, `discarded`, `Gift`
```

Fix: use one of the fields listed in the help. Players have `name`, `seat`, `out`, `position`,
`owing`, `hand`, `extra_turns` and the `player:` fields; things have `name` and their kind's
fields; rolls `total`, `doubles`, `faces`; sales `winner`, `price`; decks `left`, `discarded` and
their cards (`Deck.Card`); cards and squares `name`. Test files: `unknown_field`,
`unknown_player_field`.
""")

UNKNOWN_FUNCTION = Code("R0208", "unknown-function", ERROR, "unknown function", explanation="""\
a call to a function that does not exist.

```rules
end when size(players) == 1 winner players[0] as "last player standing"
```

```text
tiny.rules:34:10: error[R0208]: unknown function `size`
   |
34 | end when size(players) == 1 winner players[0] as "last player standing"
   |          ^^^^^^^^^^^^^
  help: functions are `count`, `min`, `max`, `even`, `odd`, `ahead`, `holds`, `all`, `any`, `sum`, `first`, `best`, `list` and those you `define`
```

When the name is close to a known one, the help suggests it instead (`did you mean `even`?`).

Fix: the built-in functions are `count(list)`, `min(a, b, …)`, `max(a, b, …)`, `even(n)`,
`odd(n)`, `ahead(player)` and `holds(player, Deck.Card)`; for `all`, `any`, `sum`, `first`,
`best`, `list` write the aggregate form `all(x in list: …)`; declare your own with
`define NAME(x: T) = …`. Test file: `unknown_function`.
""")

RECURSIVE_FUNCTION = Code("R0209", "recursive-function", ERROR, "a function that calls itself", explanation="""\
a function (`define`) that calls itself, directly or through other functions. A
function is a named expression, computed whenever it is called; one that calls itself would never
finish, so recursion is refused.

```rules
define rent(p: Lot) = p.price / 10 + rent(p)

on land Lot p when p.owner != none and p.owner != player:
    pay rent(p) from player to p.owner
```

```text
tiny.rules:34:1: error[R0209]: `rent` calls itself; functions may not recurse
   |
34 | define rent(p: Lot) = p.price / 10 + rent(p)
   | ^
```

With two functions that call each other (`define a(p: Lot) = b(p)` and
`define b(p: Lot) = a(p) + $1`), the error names the first one the checker reaches: ``` `a`
calls itself ```.

Fix: write the value without recursion: an aggregate (`sum(q in p.block: …)`, `count(…)`,
`max(…)`) does what a loop would.
""")

MISPLACED_ACCOUNT_FIELD = Code("R0210", "misplaced-account-field", ERROR,
                               "an `account` field on a kind, in a list, optional or with a default", explanation="""\
an `account` field that is not a plain account of `player:` or `global:`: one on a
kind, a list of accounts (`[account]`), an optional one (`account?`), or one with a default.
Account fields are built (language reference, 5.4): `savings: account` on `player:` gives every
player an account of his own, and `pot: account` in `global:` one for the game, each starting
empty; `pay` moves money into and out of them, and money conservation counts them. (Until
accounts were built, R0210 rejected every `account` field.)

```rules
global:
    pots: [account] = [bank]
```

```text
tiny.rules:13:11: error[R0210]: a list or an optional account is not an account field
   |
13 |     pots: [account] = [bank]
   |           ^^^^^^^^^
  help: accounts are fields of `player:` or `global:`, written `NAME: account` with no default (each starts empty); else keep an amount (`pots: money = $0`)
```

Fix: `pot: account` in `global:`, or one per player in `player:`. `account` is also the type of
`bank` and `creditor`, and of a `define` or `procedure` parameter (`procedure charge(a: account)`).
Test file: `account_field`.
""")

HIDDEN_NON_PLAYER_FIELD = Code("R0211", "hidden-non-player-field", ERROR,
                               "`hidden` on a field that is not a player's", explanation="""\
`hidden` on a field of `global:` or of a kind. Only a player's fields are hidden (from
the other players' agents, language reference 5.4); the game's state and things are in view.

```rules
global:
    hidden pot: money = $0
```

```text
error[R0211]: only a player's fields can be `hidden`; `pot` is a global
  help: `hidden` keeps a player's field from the other players' agents (`hidden cash: money`)
```

Fix: remove `hidden`, or move the field to `player:`. Test file: `hidden_field_misuse`.
""")

HINT_READS_HIDDEN_FIELD = Code("R0212", "hint-reads-hidden-field", ERROR,
                               "a hint reads another player's hidden field", explanation="""\
a hint (5.18) reads a `hidden` field of a player other than its own: the heuristic
agent judges by hints, and a hint sees only what its player may see, which is his own
`player.cash` but not another's `q.cash`. A function (`define`) the hint calls is held to the same
rule, whatever it is given (it sees only its parameters). `worth` and `reserve` see no player,
so they may read no hidden field at all. Rules themselves (conditions, `choose … where`, `end
when`) see everything.

```rules
player:
    hidden cash: money = $500

hint reserve = sum(q in players: q.cash) / 10
```

```text
error[R0212]: hint `reserve` reads `cash`, a hidden field, of a player other than its own
  help: a hint sees what its player may see: his own `player.cash`, not another's
```

Fix: judge by what is in view (things owned, positions) or by the player's own fields:
`hint reserve = $100`. Test file: `hidden_field_misuse`.
""")

MARK_NAME_TAKEN = Code("R0213", "mark-name-taken", ERROR, "a move's mark takes a name already used", explanation="""\
a move's mark (`move … with NAME`, 5.13) takes a name the file already uses: a
square, a thing, a parameter, a global, `player` or `moved_by`. The arrival's handlers read the
mark by its name, so it would stand in the other's place.

```rules
    phase jump:
        move player to Jail with Go
```

```text
tiny.rules:21:29: error[R0213]: the mark `Go` is already the name of something else
   |
21 |         move player to Jail with Go
   |                             ^^^^^^^
  help: handlers would read the mark in its place: give the mark a name of its own
```

Fix: name the mark after what it changes: `move player to Jail with caught`. Test file:
`landing_context_misuse`.
""")


# ---- R03xx: types --------------------------------------------------------------------------------

WRONG_TYPE = Code("R0301", "wrong-type", ERROR, "wrong type", explanation="""\
a value of one type where another is required. The message names the place, the
type needed and the type found.

```rules
        move player by $5
```

```text
error[R0301]: how far a player moves must be a `count`, but this is a `money`
```

Other messages, each with the same cause:

- ``a phase's condition must be a `bool`, but this is a `count` `` (and handlers', actions',
  options', `if`, `end when`, `invariant`, `expect` conditions);
- ``the default of `houses` must be a `count` …``, ``` `price` of `Alpha` must be a `money` …```
  (a table cell), ``the value set must be …``, ``an amount paid must be a `money` …``;
- ``` `all` iterates over a list or a group; this is a `money` ``` (also `for`);
- ``list items must all be a `money`; this is a `count` ``;
- ``both branches must have one type; they are a `money` and a `count` `` (`if … then … else`);
- ``` `count` counts a list; this is a `money` ```, ``` `min` needs arguments of one type ```,
  ``` `sum` needs money or a count; this is a `text` ```;
- ``hint `reserve` must be money; this is a `count` ``;
- ``the base of a percentage must be a `money` …`` (`10% of 3 rounded down`);
- a function's argument: ``` `p` of `tax` must be a `Lot`, but this is a `player` ``` (for a
  `define`d function), ``the argument of `even` must be a `count`, but this is a `money` ``,
  ``who holds must be a `player` …``, ``the card held must be a `card` …`` (`holds`);
- ``` `best` ranks by money or a count; this is a `text` ```;
- what an auction sells (a thing, a card, a square or a player: the events name it):

  ```text
  tiny.rules:43:13: error[R0301]: an auction sells a thing, a card or another value with a name; this is a `text`
     |
  43 |     auction "a house" from $10 as sale:
     |             ^^^^^^^^^
    help: auction a thing of a kind (`auction p from …`) or a card (`Deck.Card`)
  ```

- ``the value set must be a `player?`, but this is an `account` `` (`set p.owner = creditor`
  in `on debt`: test `if creditor != bank:` first, which makes `creditor` a `player`).

Fix: write money with `$` (`$5`, not `5`); use `d.total`, not `d`; compare to get a `bool`
(`p.houses > 0`, not `p.houses`). Test files: `type_move_by_money`, `type_pay_count`,
`type_condition_not_bool`, `type_if_not_bool`, `type_default`, `type_set_wrong_value`,
`type_table_cell`, `percent_of_count`, `statement_operands`.
""")

INDEX_OF_NON_LIST = Code("R0302", "index-of-non-list", ERROR, "indexing something that is not a list", explanation="""\
`x[i]` where x is not a list.

```rules
        move player by d.total[0]
```

```text
error[R0302]: only lists can be indexed; this is a `count`
```

Fix: index only lists (`p.rents[p.houses]`, `d.faces[0]`, `players[0]`). Test file:
`type_index_not_list`.
""")

INCOMPARABLE_VALUES = Code("R0303", "incomparable-values", ERROR, "values that cannot be compared", explanation="""\
a comparison between values that cannot be compared, or an ordering (`<`, `<=`, `>`,
`>=`) of values that are not numbers or may be `none`.

```rules
end when players[0] < $5 winner players[0] as "rich"
```

```text
error[R0303]: cannot compare a `player` with a `money`
```

Also: ``` `<` compares numbers; this is a `player` ```.

Fix: compare like with like (`players[0].cash < $5`); order only money, counts and percentages;
narrow an optional value first (`p.value != none and p.value > $100`). Test files:
`type_compare_money_player`, `type_order_players`.
""")

NEGATED_NON_NUMBER = Code("R0304", "negated-non-number", ERROR,
                          "negating something that is not a number", explanation="""\
unary minus on something that is not money or a count.

```rules
        if -d.doubles:
```

```text
error[R0304]: cannot negate a `bool`
```

Fix: use `not` for truth values; negate only money and counts. Test file: `type_negate_bool`.
""")

IMPOSSIBLE_ARITHMETIC = Code("R0305", "impossible-arithmetic", ERROR,
                             "impossible arithmetic, or a value that may be `none` where one is required", explanation="""\
arithmetic the types do not allow, or a value that may be `none` used where a value
is required (in arithmetic, as an amount, a payer or payee, a condition, a mover...).

```rules
    pay p.price + 5 from player to bank
```

```text
error[R0305]: cannot compute a `money` + a `count`
  help: write amounts of money with `$`, e.g. `$10`
```

```rules
on land Lot p:
    pay p.price from player to p.owner
```

```text
error[R0305]: who is paid may be `none` here (a `player?`)
  help: check it first: `when p.owner != none`, or `if p.owner != none:`
```

What an auction sells may not be `none` either:

```text
tiny.rules:45:13: error[R0305]: what is auctioned may be `none` here (a `Lot?`)
   |
45 |     auction first(l in Lot where l.owner == none) from $10 as sale:
   |             ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  help: name it with `let` and check it first: `if x != none:`
```

Fix: money + money, count + count, money × count, money ÷ count (section 7.2 of the reference);
for percentages write `10% of X rounded down`. For optional values, test them first: in the
rule's `when` (`when p.owner != none and p.owner != player`), an `if x != none:` around the
statement (its `elif`/`else` branches know the test was false), or `if x != none then x else $0`.

A test holds only until something may undo it: after `set p.owner = none` (or any value that may
be `none`, also inside an `if` or in a later round of a `for`), and after a statement that runs
other rules (`move`, `pay`, `eliminate`, `draw`, `do`, `window`, `use card`, `play`, `raise cash`)
when some rule of the file may set that field to `none` (an `on eliminate` that clears owners), the
field is again "may be `none`":

```text
tiny.rules:42:10: error[R0305]: who moves may be `none` here (a `player?`)
   |
42 |     move p.owner by 1
   |          ^^^^^^^
```

(after `eliminate p.owner`, whose `on eliminate` sets owners to `none`). Test it again after the
statement, or keep the value with `let o = p.owner` before it. Should a `none` still reach a
statement at run time, the rule stops with R1001 (`` `p.owner` is `none` here, so it cannot be
moved ``), never with a crash.

Test files: `type_money_plus_count`, `type_optional_arithmetic`, `type_pay_to_optional_owner`,
`pay_optional_amount`, `chain_span`, `statement_operands`, `none_after_set`.
""")

VALUE_WITHOUT_FIELDS = Code("R0306", "value-without-fields", ERROR, "a value with no fields", explanation="""\
`.field` on a value that has no fields (money, a count, a percentage, a bool, text, a
list).

```rules
        move player by d.total.size
```

```text
error[R0306]: a `count` has no fields
```

Fix: remove the field, or use the function meant (`count(list)` for a list's length). Test
file: `type_field_of_money`.
""")

WRONG_ARGUMENT_COUNT = Code("R0307", "wrong-argument-count", ERROR, "wrong number of arguments", explanation="""\
a function, aggregate or scenario action with the wrong number of arguments, or an
aggregate missing its body.

```rules
end when count(players, players) == 1 winner players[0] as "last player standing"
```

```text
error[R0307]: `count` takes 1 argument, not 2
```

Also: ``` `min` takes 2 or more arguments, or an aggregate `min(x in list: …)` ```,
``` `all(x in list: condition)` needs a condition ```, ``` `sum(x in list: value)` needs a value ```,
``` `even` takes 1 argument, not 2 ``` (and `odd`, `ahead`), ``` `holds` takes 2 arguments (a
player and a card), not 1 ```, ``` `fine` takes 2 arguments, not 1 ``` (a `do` of a procedure),
and in scenarios ``action `build` takes one argument`` /
``takes no argument``. A `define`d function and `best` give:

```rules
define tax(p: Lot) = p.price / 10

on land Lot p when p.owner != none and p.owner != player:
    pay tax(p, 2) from player to p.owner

end when turn > 100 winner best(q in players) as "richest"
```

```text
tiny.rules:37:9: error[R0307]: `tax` takes 1 argument, not 2
   |
37 |     pay tax(p, 2) from player to p.owner
   |         ^^^^^^^^^
tiny.rules:39:28: error[R0307]: `best(x in list: score)` needs a score
   |
39 | end when turn > 100 winner best(q in players) as "richest"
   |                            ^^^^^^^^^^^^^^^^^^
```

Fix: give the arguments the message names; give `best` its score (`best(q in players: q.cash)`).
Test files: `type_arity_count`, `type_arity_min`.
""")

UNSETTABLE_TARGET = Code("R0308", "unsettable-target", ERROR, "only fields and globals can be set", explanation="""\
`set` on something that is not a field or a global: a local name, a parameter, an
expression.

```rules
        roll 2 dice as d
        set d = 3
```

```text
error[R0308]: `d` is not a global field; only fields and globals can be set
  help: use `let` for a local name
```

Also: ``only a field or a global can be set``.

Fix: use `let` for a new local value; declare a `global:` field for game-wide state; parameters
are constants (change them with `--set` or in a variant). Test file: `type_set_local`.
""")

FIXED_FIELD_SET = Code("R0309", "fixed-field-set", ERROR,
                       "fixed data or an engine-kept field cannot be set", explanation="""\
`set` on fixed data (a kind's field without `state`, a thing's `name`), on a player
attribute the engine keeps (`name`, `seat`, `out`, `position`, `owing`, `hand`, `extra_turns`), or
on a field of a value the engine makes (a roll, a sale, a square, a deck, a card, a group), or on
an `account` field (`set pot = bank`, `set player.deposit.balance = $0`): an account holds money
that only `pay` moves.

```rules
    set p.price = $1
```

```text
error[R0309]: `price` is fixed data of `Lot`, not state
  help: declare it `state price: …` in kind `Lot` to change it during play
```

```rules
on land Go:
    set player.position = Alpha
    set player.extra_turns = 0
```

```text
tiny.rules:35:9: error[R0309]: `position` of a player is kept by the engine
   |
35 |     set player.position = Alpha
   |         ^^^^^^^^^^^^^^^
  help: the engine keeps it: `move`, `eliminate`, `draw`, `extra turn` and debts change it
tiny.rules:36:9: error[R0309]: `extra_turns` of a player is kept by the engine
   |
36 |     set player.extra_turns = 0
   |         ^^^^^^^^^^^^^^^^^^
  help: the engine keeps it: `move`, `eliminate`, `draw`, `extra turn` and debts change it
```

```rules
    auction Alpha from $10 as sale:
        set sale.price = $0
    set Alpha.name = "Alpha Street"
```

```text
tiny.rules:46:13: error[R0309]: `price` of a `sale` cannot be set
   |
46 |         set sale.price = $0
   |             ^^^^^^^^^^
  help: only a thing's `state` fields, a player's declared fields and globals can be set
tiny.rules:47:9: error[R0309]: `name` of `Lot` is fixed
   |
47 |     set Alpha.name = "Alpha Street"
   |         ^^^^^^^^^^
  help: a thing's name is its row's in the table; keep what changes in a `state` field
```

Fix: declare the field `state` with a default if it really changes during play. The engine's
fields change only through the statements that own them: tokens move with `move`, `send` or
`place`; players leave with `eliminate`; `hand` changes with `draw`, `use card`, `give card` and
`discard card`; `extra_turns` with `extra turn for`; `owing` while `raise cash` runs. In a
scenario, place a token with `as Ann: place player at Tariff` (silently) or
`as Ann: move player to Tariff` (passing and landing). Test files: `type_set_fixed_field`,
`type_set_engine_field`, `statement_operands`.
""")

IMPOSSIBLE_DIE_FACE = Code("R0310", "impossible-die-face", ERROR,
                           "a scenario forces a die face outside 1 to 6", explanation="""\
a scenario's `dice` line forces a face a die cannot show.

```rules
scenario "a roll of seven":
    players Ann, Bob
    dice 1 7
    play turn of Ann
```

```text
tiny.rules:36:5: error[R0310]: a die shows 1 to 6, not 1 7
   |
36 |     dice 1 7
   |     ^
```

Fix: faces are 1 to 6, one group of faces per roll (`dice 3 4, 6 6` forces two rolls of two
dice). Test file: `scenario_die_face`.
""")

COMPUTED_SCENARIO_ANSWER = Code("R0311", "computed-scenario-answer", ERROR,
                                "a scenario's scripted answer is computed, not written out", explanation="""\
a scenario's `answer` is an expression to compute. Answers are written out: an
amount (`$60`), `true`/`false`, `none` (pass), or the name of an option or thing.

```rules
    answer Ann bid: fee + $5
```

```text
error[R0311]: an answer is a value like `$60`, `true` or `none`, or an option's name
  help: scripted answers are written out, not computed
```

A scripted bid is an amount of money or `none` (``a bid is an amount like `$60`, or `none` to
drop out``): `answer Ann bid: pass` or `answer Ann bid: 60` is this error too.

Fix: write the value, `answer Ann bid: $15`. Test files: `scenario_computed_answer`,
`scenario_players_and_bids`.
""")

NON_POSITIVE_STEP = Code("R0312", "non-positive-step", ERROR,
                         "an action's amount with a step of 0 or less", explanation="""\
an amount chosen in a range (`(a: money from LOW to HIGH step STEP)`) whose written
step is 0 or less: the amounts would never go up from the lowest.

```rules
action withdraw(a: money from $1 to player.deposit step $0) any time:
    pay a from bank to player
```

```text
tiny.rules:31:57: error[R0312]: the step of `a` must be above 0
   |
31 | action withdraw(a: money from $1 to player.deposit step $0) any time:
   |                                                         ^^
  help: amounts go from the lowest up in steps of this size
```

Fix: a step above 0 (`step $1` for any sum). A computed step is checked when the action is
offered (`R1001`). Bounds of the wrong type, or an amount of a kind, are `R0301`. Test file:
`action_amount_misuse`.
""")

UNTRADABLE_IN_SCENARIO_TRADE = Code("R0313", "untradable-in-scenario-trade", ERROR,
                                    "a scenario's trade lists something that cannot be traded", explanation="""\
a scenario's `do`/`forbid`/`offer … trade` lists, on one side, something that is not
a thing of a kind the `trade` declaration names, a kept card (`Deck.Card`) or an amount of money,
or two amounts of money.

```rules
    do Ann trade Start to Bob for $5, $10
```

```text
error[R0313]: a trade's side lists things of a traded kind (`Lot`), kept cards and money, not a `square`
```

Fix: list things, cards and at most one amount on each side: `do Ann trade Lot1 to Bob for $15`.
Test file: `scenario_trade_items`.
""")

BIDDERS_OUT_AT_PASS_ZERO = Code("R0314", "bidders-out-at-pass-zero", ERROR,
                                "an auction whose bidders are out at the 0th pass", explanation="""\
a round-robin auction (`in turn after P`) whose bidders are out at their `passes 0`th
pass: nobody could ever bid.

```rules
    auction l from $1 among players in turn after player passes 0 as sale:
```

```text
error[R0314]: a bidder out at his 0th pass could never bid
  help: `passes 1` (out at the first pass) or more
```

Fix: `passes 2` (Wall Street: "Each player has the right to pass once, and after the second pass
the player is out of the bidding"). Test file: `auction_round_robin_misuse`.
""")

ROLL_AGAIN_NEVER_ROLLS = Code("R0315", "roll-again-never-rolls", ERROR,
                              "a roll again on doubles that never rolls again", explanation="""\
a `roll … again on doubles up to N times` that can never roll a second time: the limit
counts every roll, the first included, so `up to 1 times` never rolls again; and one die never
shows doubles.

```rules
    phase move:
        roll 2 dice as d again on doubles up to 1 times:
            move player by d.total
```

```text
tiny.rules:16:49: error[R0315]: `up to 1 time` never rolls again
   |
16 |         roll 2 dice as d again on doubles up to 1 times:
   |                                                 ^
  help: the count is of rolls in all, the first one included: `up to 3 times` rolls at most twice more
```

With one die: ``one die never shows doubles, so this roll never rolls again``.

Fix: `up to 3 times` (two more rolls at most), or a plain `roll 2 dice as d` when doubles give no
roll again. Test file: `roll_again_misuse`.
""")

UNKNOWN_SCENARIO_ANSWER = Code("R0316", "unknown-scenario-answer", ERROR,
                               "a scenario answers a decision the rules never ask, or with an option it does not have", explanation="""\
a scenario's `answer` names a decision no rule of the file asks (a misspelt `choose`
name), or answers a `choose`, an optional phase or `keep` with a name that is none of its options.
Either way the answer would never be taken: the decision would get its first option, and the
scenario would test something else than it says.

```rules
    answer Ann biy: decline
    answer Ann buy: declin
```

```text
tiny.rules:40:5: error[R0316]: the rules never ask a decision `biy`
  help: did you mean `buy` or `bid`?
tiny.rules:41:21: error[R0316]: `declin` is not an option of `buy`
  help: did you mean `decline`?
```

An option that exists but is not offered at that moment is a fair answer: the first offered option
is taken, which is how a scenario shows that one is not offered (a company the player cannot pay
for). A scenario a variant inherits from its base is not checked so: a house rule may drop a
decision its base's scenarios answer.

Fix: the decision's name as its `choose` writes it (text when it has spaces: `answer Ann "whom to
bump": Bob`), and one of its options. Test file: `scenario_answer_misspelt`.
""")


# ---- R04xx: reachability and unused declarations -------------------------------------------------

STATEMENT_AFTER_TURN_END = Code("R0401", "statement-after-turn-end", WARNING,
                                "statement after the turn has ended", unnecessary=True, explanation="""\
a statement after an unconditional `end turn` or `end game` in the same block.

```rules
    phase move:
        end turn
        roll 2 dice as d
```

```text
warning[R0401]: this statement can never run: the turn has already ended
  help: remove it, or move it before `end turn`
```

Fix: remove the statement or move it before `end turn`. Test file: `unreachable_statement`.
""")

UNREACHABLE_PHASE = Code("R0402", "unreachable-phase", WARNING,
                         "phase that can never run", unnecessary=True, explanation="""\
a phase that can never run.

```rules
turn:
    phase move when false:
        roll 2 dice as d
```

```text
warning[R0402]: phase `move` can never run: its condition is `false`
```

```text
warning[R0402]: phase `two` can never run: phase `move` always ends the turn
```

Fix: remove the dead phase or correct its condition; put `end turn` under a condition.
Test files: `unreachable_phase`, `unreachable_phase_false`.
""")

UNREACHABLE_HANDLER = Code("R0403", "unreachable-handler", WARNING,
                           "handler that can never run", unnecessary=True, explanation="""\
an `on land` / `on pass` handler for a square or kind that is not on the board.

```rules
square Jail "Jail"

on land Jail:
    end turn
```

```text
warning[R0403]: square `Jail` is not on the board, so this handler never runs
```

Also: ``no `Lot` is on the board, so this handler never runs``. A handler for a square declared
`off board` is not reported: tokens reach it with `move … to`, `send` or `place`.

Fix: put the square or the kind's things on the board, declare the square `off board` if tokens
only ever go there by `move … to` (a building in the middle of the board), or remove the
handler. Test files: `handler_square_not_on_board`, `board_missing`.
""")

UNUSED_DECLARATION = Code("R0404", "unused-declaration", WARNING,
                          "declared but never used", unnecessary=True, explanation="""\
a declaration nothing uses: a parameter never read, a deck never drawn from, a
function (`define`) never called, a `procedure` never run by `do`, a square declared but not on
the board.

```rules
param fee = $10
```

```text
warning[R0404]: parameter `fee` is never used
```

Also: ``function `spare` is never used``, ``procedure `idle` is never used``,
``deck `D` is never drawn from`` (a deck that is only the target of `discard from`
counts as used), and, for a square (not one declared `off board`):

```text
tiny.rules:34:1: warning[R0404]: square `Jail` is declared but not on the board
   |
34 | square Jail "Jail"
   | ^^^^^^^^^^^^^^^^^^
  help: add it to `board:`, or declare it `off board` if tokens reach it only by `move … to`
```

Fix: use it or remove it (a parameter meant only for a house rule belongs in the variant that
uses it). Test files: `unused_param`, `unused_deck`.
""")

EMPTY_GROUP = Code("R0405", "empty-group", WARNING, "group with no members", explanation="""\
a group whose kind has no field of the group's type, so nothing belongs to it.

```rules
group Colour of Lot: Red, Blue
```

```text
warning[R0405]: no field of kind `Lot` has type `Colour`, so the group has no members
  help: add `colour: Colour` to kind `Lot`
```

Fix: add the field to the kind and a column to its table. Test file: `group_without_members`.
""")

NO_END_CONDITION = Code("R0406", "no-end-condition", WARNING, "no `end when`", explanation="""\
the file has no `end when`, so only the turn limit ends a game.

```text
warning[R0406]: the game has no `end when`; only the turn limit will end it
```

Fix: add the rulebook's end conditions, e.g.
`end when count(players) == 1 winner players[0] as "last player standing"`, and a `turn limit:`
for simulations. Test file: `missing_end`.
""")

RAISE_CASH_OUTSIDE_DEBT = Code("R0408", "raise-cash-outside-debt", ERROR,
                               "`raise cash` outside `on debt`", explanation="""\
`raise cash` outside `on debt`: only a debtor raises cash.

```rules
on land Go:
    raise cash
```

```text
tiny.rules:35:5: error[R0408]: `raise cash` is only meaningful in `on debt`
   |
35 |     raise cash
   |     ^^^^^^^^^^
  help: `raise cash` lets a debtor sell and borrow; put it in `on debt:`
```

Fix: move it into `on debt:`. To offer an action only to a player who is raising cash, test
`player.owing > $0` in the action's `when`. Test file: `raise_cash_outside_debt`.
""")

SHOWING_WITHOUT_LASTING = Code("R0409", "showing-without-lasting", WARNING,
                               "`Deck.showing` of a deck with no `lasting` card", explanation="""\
`Deck.showing` of a deck none of whose cards is `lasting`: only a lasting card is
shown in force after its draw, so the expression is always `none`.

```rules
deck Plain reshuffle:
    card Gift "A gift":
        pay $10 from bank to player

on land News:
    if Plain.showing != none:
        pay $5 from bank to player
```

```text
tiny.rules:35:8: warning[R0409]: deck `Plain` has no `lasting` card, so `Plain.showing` is always `none`
   |
35 |     if Plain.showing != none:
   |        ^^^^^^^^^^^^^
  help: flag the cards that stay in force `lasting`
```

Fix: flag the cards that stay in play `lasting` (`card Boom "…" lasting:`), or test something
else. Test file: `deck_lasting_misuse`.
""")

HANDLERS_BOTH_PAY = Code("R0410", "handlers-both-pay", WARNING,
                         "two handlers on the same arrival, under the same condition, both moving money", explanation="""\
two `on land` (or `on pass`) handlers for the same squares — the same square, the
same kind, or a kind and one of its things — under the same condition (or one of them with none),
and both move money: every arrival makes both payments. That may be meant (a toll beside the
rent), but it is often a house rule restating a rule of its base beside the base's own with a
change; the warning is at the later handler, with a note at the other. Conditions are compared as
written, up to the name of the handler's variable. When the two handlers are the same rule
written twice, it is the error [R0411](#r0411) instead.

```rules
on land Lot l when l.owner != none and l.owner != player:
    pay l.price / 4 from player to l.owner

on land Lot x when x.owner != none and x.owner != player:
    pay x.price / 10 from player to bank
```

```text
handlers_pay_twice.rules:42:1: warning[R0410]: this handler and the one at handlers_pay_twice.rules:39 both run when a player lands on `Lot` under the same condition, and both move money
   |
42 | on land Lot x when x.owner != none and x.owner != player:
   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  note: the other handler at handlers_pay_twice.rules:39:1
  help: if this restates the other rule, one of them is enough; if both are meant, say so in one handler
```

Fix: if one restates the other, remove it; if both payments are meant, write them in one handler,
so a reader sees both. A warning, not an error: `rulesc check` still plays the house rule, and the
base's scenarios it changes are reported as `CHANGED`. Test file: `handlers_pay_twice`.
""")

HANDLER_WRITTEN_TWICE = Code("R0411", "handler-written-twice", ERROR,
                             "a handler written twice: the same arrival, condition and payments", explanation="""\
two `on land` (or `on pass`) handlers that are one rule written twice: the same event
and target, the same condition and the same body — compared as syntax, up to the name of the
handler's variable, citations, comments and layout — and the body moves money. Both handlers run
on every arrival (a house rule keeps every handler of its base; only phases and cards can be
`replace`d), so every payment is made twice.

Why this is an error when [R0410](#r0410) is a warning: two different payments on one arrival can
be a legitimate house rule (a toll beside the rent), so the checker cannot tell intent and only
warns. The same payment written twice has one reading only — paying it twice — and no rulebook
states a doubled payment as the same sentence twice: a payment meant to be doubled is written
once, doubled (`pay 2 * …`), which this check does not touch. So nothing legitimate is refused,
and the commonest house-rule mistake (restating the base's rule with a citation, leaving the
base's in place) fails `rulesc check` with exit status 1 instead of passing with a warning.

```rules
on land Lot l when l.owner != none and l.owner != player:
    pay fee from player to l.owner

on land Lot x when x.owner != none and x.owner != player:
    pay fee from player to x.owner
```

```text
tiny.rules:37:1: error[R0411]: this handler repeats the one at tiny.rules:34 word for word, so every time a player lands on `Lot` its payments are made twice
   |
37 | on land Lot x when x.owner != none and x.owner != player:
   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  note: the same rule, first written here at tiny.rules:34:1
  help: remove one of them: a house rule keeps every handler of its base, so a handler restated beside it runs as well; a payment meant to be made twice is written once, doubled
```

Fix: remove the restated handler; to change the base's rule, change the amount in one handler.
Test files: `handler_restated`; `examples/broken/rent_twice.rules` (a house rule).
""")

UNUSABLE_KEPT_CARD = Code("R0412", "unusable-kept-card", WARNING,
                          "a kept card that no rule can ever use", explanation="""\
a card declared `keep` that, once kept, no rule can ever reach: the file has no
`use card` anywhere, and no `holds(…, Deck.Card)`, `discard card`, `give card` names it (a card
given by an expression, not by name, counts as reaching every card), and it is not `tradable` in
a `trade … cards`. A player who keeps it holds it for good: a kept card that does nothing, and,
from a `once` deck, one fewer card in play. Scenarios do not count: they are not rules.

```rules
deck Chance reshuffle:
    card Pardon "Skip one rent" keep:
        pass

on land Alpha:
    draw from Chance
```

```text
tiny.rules:35:5: warning[R0412]: card `Chance.Pardon` is kept, but no rule can ever use it: no `use card`, and no `holds`, `discard card`, `give card` or trade reaches it
   |
35 |     card Pardon "Skip one rent" keep:
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  help: add `use card by player` where the rulebook lets a kept card be played, or test `holds(player, Chance.Pardon)` in the rule it changes; or drop `keep`
```

Fix: say where a kept card is played (`use card by player` in an `optional` phase or a hook), or
test `holds(player, Deck.Card)` in the rule the card changes and `discard card` it there; if the
card is only ever used at once, drop `keep`. Test files: `kept_card_unused`, `deck_lasting_misuse`;
`examples/broken/kept_card_unused.rules` (a house rule).
""")

ENDLESS_PROCEDURE = Code("R0413", "endless-procedure", ERROR,
                         "a procedure that always runs itself again", explanation="""\
a procedure every path through whose body runs `do` of itself — directly, or through
a procedure that always does — before anything ends the turn or the game: once run, it never
returns (at run time, the rules' depth limit stops the game). A `do` under an `if` without an
`else`, in a `for` (which may run no time) or in one option of a choice is a path that stops,
and is not reported; an `if`/`else` or a choice all of whose branches run it is.

```rules
procedure collect(q: player):
    pay fee from bank to q
    do collect(q)

on land Alpha:
    do collect(player)
```

```text
tiny.rules:36:5: error[R0413]: procedure `collect` always runs itself again, so once run it never returns
   |
36 |     do collect(q)
   |     ^^^^^^^^^^^^^
  note: procedure `collect` at tiny.rules:34:1
  help: put the `do` under a condition that ends the repeat (`if …:`), or loop with `for`
```

Through another procedure the message says so: ``procedure `ping` always runs itself again
(through `pong`), so once run it never returns``, reported for each procedure of the cycle.
Fix: put the repeat under the condition that ends it (`if q.cash < $100: do collect(q)`).
Test files: `procedure_calls_itself`; `examples/broken/procedure_calls_itself.rules`.
""")

UNREAD_MOVE_MARK = Code("R0414", "unread-move-mark", WARNING,
                        "a move's mark that no handler reads", unnecessary=True, explanation="""\
a move carries a mark (`move … with NAME`, 5.13) that no `on land` or `on pass`
handler reads: the mark changes nothing.

```rules
    phase hop:
        move player to Jail with unread
```

```text
tiny.rules:23:29: warning[R0414]: no `on land` or `on pass` handler reads the mark `unread`
   |
23 |         move player to Jail with unread
   |                             ^^^^^^^^^^^
  help: read it in the handler it should change: `if unread:` or `when unread`
```

Fix: read it where the landing should differ (`if twice: pay 2 * rent(l) …`), or remove it. Test
file: `landing_context_misuse`.
""")

UNTESTED_SUPPLY = Code("R0415", "untested-supply", WARNING,
                       "an action takes from a supply without testing what is left", explanation="""\
an action sets the field a `supply` counts (5.3), but its `when` does not test the
supply's `left`: it is offered when the bank has nothing left, and taking it then stops the game
(`R1001`).

```rules
supply Houses = 32 on Lease.houses

action build(p: Lease) any time when p.owner == player:
    set p.houses = p.houses + 1
```

```text
tiny.rules:24:1: warning[R0415]: action `build` sets `houses` of a `Lease`, which the supply `Houses` limits, but its `when` does not test `Houses.left`
  help: add `and Houses.left > 0` to its `when`, so that it is not offered when the bank has none left
```

Fix: `action build(p: Lease) any time when p.owner == player and Houses.left > 0:`. Test file:
`supply_misuse`.
""")


# ---- R05xx: the header, declared state and variants ----------------------------------------------

PLAYERS_WITHOUT_CASH = Code("R0501", "players-without-cash", ERROR, "players have no `cash`", explanation="""\
players have no `cash: money` field. Cash is the account `pay` moves money through.

```rules
player:
    savings: money = $100
```

```text
error[R0501]: players have no `cash: money` field
  help: add `player:` with `cash: money = $…`
```

Fix: declare `cash: money = …` in `player:`. Test file: `missing_cash`.
""")

NO_GAME_HEADER = Code("R0502", "no-game-header", ERROR, "no `game` header", explanation="""\
the file has no `game` header.

```text
error[R0502]: the file has no `game` header
  help: start the file with `game "Name":` and its settings
```

Fix: start the file with `game "Name":` and its settings. A variant file (`extends
"base.rules"`) needs no header of its own: it has its base's, and may change it with
`override game`. Test file: `missing_game_header`.
""")

UNKNOWN_SETTING = Code("R0503", "unknown-setting", ERROR, "unknown setting", explanation="""\
a header setting the language does not know.

```rules
game "Tiny":
    players: 2 to 4
    start: Go
    dice: 2
```

```text
error[R0503]: unknown setting `dice`
  help: settings are currency, first player, players, start, turn limit
```

Fix: use a known setting; game numbers such as the number of dice go in `param` lines or in the
rules themselves. Test file: `unknown_setting`.
""")

BAD_SETTING_VALUE = Code("R0504", "bad-setting-value", ERROR, "bad setting value", explanation="""\
a known setting with a value of the wrong form.

```rules
    players: 4
```

```text
error[R0504]: `players` is a range like `2 to 6`
```

Also: ``` `start` names a square ``` (`start: $5`), ``` `first player` is `highest roll N dice`
or `seat order` ```, ``` `turn limit` is a number ```; and values the engine could not play:
``` `players: 4 to 2`: the fewest is more than the most ``` (also fewer than 1 player or more
than 100, checked again with the values of parameters and `--set` when the rules are compiled),
``` `start: Jail` names a square that is not on the board ```, and ``` `first player: highest
roll` of 0 dice; it takes 1 to 100 ``` (ties roll again: with no dice they would tie for ever).

Fix: `players: 2 to 6`, `start: Go`, `first player: highest roll 2 dice` (or `highest roll 1
die`, or `seat order`), `turn limit: 500`. Test files: `bad_players_setting`, `header_values`.
""")

NO_START_SQUARE = Code("R0505", "no-start-square", ERROR, "no `start:`", explanation="""\
the header has no `start:` square.

```text
error[R0505]: the game header has no `start:` square
  help: add `start: NAME` naming the square where tokens begin
```

Fix: add `start: NAME`. Test file: `missing_start`.
""")

UNRESOLVED_EXTENDS = Code("R0506", "unresolved-extends", ERROR,
                          "`extends` met by the checker, not resolved by loading the file", explanation="""\
the checker was given a file that still contains `extends`. `rulesc` resolves
`extends` when it loads a file (`rulesc.dsl.variants.load_file`, used by every command), so this
only happens to a program that parses a variant file itself and checks it without loading its
base, through the Python API:

```python
from rulesc.dsl.parsed import parse_file
from rulesc.dsl.checker import check_program
checked = check_program(parse_file("house.rules"))    # house.rules: extends "base.rules"
```

```text
house.rules:1:1: error[R0506]: `extends` is resolved when a file is loaded, not by the checker
  |
1 | extends "base.rules"
  | ^^^^^^^^^^^^^^^^^^^^
  help: load the file with `rulesc.dsl.variants.load_file`, as `rulesc` does
```

(followed by the errors of a file that has no header, board or turn of its own: `R0502`,
`R0501`, `R0701`, `R0801`.)

Fix: load the file with `load_file(path)` (or `rulesc.interpreter.rules.load_rules`), which
loads the base and applies the variant, then check the result. Test file: `extends_unresolved`.
""")

MISSING_DEFAULT = Code("R0507", "missing-default", ERROR,
                       "`state`, player or global field without a default", explanation="""\
a `state` field of a kind, a player field or a global without a starting value (and
not optional). A game reads every field from its first turn, so each must hold a value from the
start; only an optional field (`T?`) starts as `none`.

```rules
kind House:
    price: money
    state floors: count
```

```text
tiny.rules:36:5: error[R0507]: state `floors` needs a default value
   |
36 |     state floors: count
   |     ^^^^^^^^^^^^^^^^^^^
  help: e.g. `state floors: count = …`, or `state floors: count?` to start as `none`
```

```rules
global:
    level: count
```

```text
tiny.rules:36:5: error[R0507]: global `level` needs a default value
   |
36 |     level: count
   |     ^^^^^^^^^^^^
  help: e.g. `level: count = …`, or `level: count?` to start as `none`
```

A player field without a value reads ``player field `bonus` needs a default value``.

Fix: give the starting value (`state floors: count = 0`, `level: count = 1`), or make the type
optional (`state owner: player?` starts as `none`). Test files: `state_without_default`,
`field_without_default`.
""")

VARIANT_TARGET_MISSING = Code("R0510", "variant-target-missing", ERROR,
                              "a variant changes something the base does not have", explanation="""\
a variant changes something its base does not have: `override param` of a parameter
the base does not declare, `replace phase` / `remove phase` of a phase its turn does not have,
`replace card` / `remove card` / `extend deck` naming a deck or card it does not have,
`remove scenario` with a title no scenario has, `override game` when the base has no header,
`replace`/`remove` of a handler or hook (by its `as` name or its header), an action, a row
(`remove row`, `override table`), a deck, an invariant, an end condition or a parameter the base
does not have. Every such change is reported, each at its own line; the help names the nearest
names, or lists what the base has. A header that several of the base's handlers share is also
`R0510`, with a note at each and the names to use:

```text
house.rules:2:1: error[R0510]: `remove on land Lease`: the base has 2 handlers `on land Lease` (line 162 (`as sale`), line 167 (`as rent`))
  |
2 | remove on land Lease
  | ^^^^^^^^^^^^^^^^^^^^
  note: `on land Lease` here at games/finance.rules:162:1
  note: `on land Lease` here at games/finance.rules:167:1
  help: name the one you mean: `remove handler sale` or `remove handler rent`
```

With a base that declares `param fee = $10` and one phase, `move`:

```rules
extends "base.rules"

override param fees = $5
remove phase roll
```

```text
house.rules:3:1: error[R0510]: `override param fees`: the base has no parameter `fees`
  |
3 | override param fees = $5
  | ^^^^^^^^^^^^^^^^^^^^^^^^
  help: did you mean `fee`?
house.rules:4:1: error[R0510]: `remove phase roll`: the base has no phase `roll`
  |
4 | remove phase roll
  | ^^^^^^^^^^^^^^^^^
  help: the base has: `move`
```

Other messages: ``` `remove card Luck.Gift`: the base has no card in deck `Luck` `Gift` ```,
``` `extend deck Luk`: the base has no deck `Luk` ```, ``` `remove scenario …`: the base has no
scenario `…` ```, ``the base has no `game` header to override``.

Fix: correct the name (names are case-sensitive; `remove scenario` takes the exact title). To add
something new, declare it without `override`/`replace`: a plain `param bonus = $5` adds a
parameter.
""")

MISPLACED_EXTENDS = Code("R0511", "misplaced-extends", ERROR,
                         "`extends` out of place, or a change without `extends`", explanation="""\
`extends` in the wrong place, or a change (`override`, `replace`, `remove`,
`extend deck`) in a file that does not extend another. `extends` must be the first declaration
of the file (comments and blank lines may come before it), and there is only one.

```rules
param bonus = $5
extends "base.rules"
```

```text
late.rules:2:1: error[R0511]: `extends` comes once, before every other declaration
  |
2 | extends "base.rules"
  | ^^^^^^^^^^^^^^^^^^^^
```

```rules
param bonus = $5

remove phase move
```

```text
nobase.rules:3:1: error[R0511]: `remove phase` needs a base: start the file with `extends`
  |
3 | remove phase move
  | ^^^^^^^^^^^^^^^^^
```

Fix: put `extends "base.rules"` first; a file without `extends` is a whole game and declares
everything itself.
""")

VARIANT_CYCLE = Code("R0512", "variant-cycle", ERROR, "variants that extend each other in a cycle", explanation="""\
variants that extend each other in a cycle (`a.rules` extends `b.rules`, which extends
`a.rules`), or a chain of more than 16 files. The error is reported at the `extends` that closes
the cycle, names every file of the cycle, and has a note at each other file's `extends`.

```text
$ cat a.rules
extends "b.rules"
$ cat b.rules
extends "a.rules"
$ rulesc check a.rules
b.rules:1:1: error[R0512]: `extends "a.rules"` makes a cycle of variants: `a.rules` extends `b.rules` extends `a.rules`
  |
1 | extends "a.rules"
  | ^^^^^^^^^^^^^^^^^
  note: `a.rules` extends `b.rules` at a.rules:1:1
  help: one of these files must be the base game, with no `extends`
```

Fix: one of the files must be the base game, with its own header, board and turn and no
`extends`.
""")

MISSING_BASE_FILE = Code("R0513", "missing-base-file", ERROR,
                         "the base file does not exist", exit_status=2, explanation="""\
the file named by `extends` does not exist, or its name does not end in `.rules` (``the
base file `/etc/passwd` is not a `.rules` file``: a rules file reads only other rules files). The
path is relative to the directory of the file that names it, not to the current directory.

```rules
extends "../wheeler.rules"
```

```text
lost.rules:1:1: error[R0513]: the base file `../wheeler.rules` does not exist
  |
1 | extends "../wheeler.rules"
  | ^^^^^^^^^^^^^^^^^^^^^^^^^^
  help: the path is relative to `lost.rules`; a bare name is also looked up among the games shipped with rulesc: `finance`, `wallstreet`, `wallstreet-short`, `wheeler`, `wheeler-level1`
```

A bare name with no folder (`extends "wheeler"`) that is not a file next to the variant is looked
up among the games shipped with rulesc; the help lists them.

Fix: correct the path relative to the variant's own location (`games/wheeler-level1.rules` says
`extends "wheeler.rules"`), or name a shipped game. Exit status 2, as for a missing file named on
the command line.
""")

OVERRIDE_TYPE_MISMATCH = Code("R0514", "override-type-mismatch", ERROR,
                              "an `override param` of another type than the base's value", explanation="""\
a variant's `override param` gives a value of another type than the base's value
(a count where the base has money, say). Every rule of the base that uses the parameter expects
the base's type, so those uses report their own errors at the base's lines; this one points at
the variant's line that caused them, with a note at the base's declaration.

```rules
extends "finance.rules"
override param starting_cash = 5
```

```text
house.rules:2:10: error[R0514]: `override param starting_cash` gives a `count`, but the base's `starting_cash` is a `money`
  |
2 | override param starting_cash = 5
  |          ^^^^^^^^^^^^^^^^^^^^^^^
  note: the base declares `starting_cash` as a `money` at finance.rules:13:1
  help: give a `money` value, as the base does: every rule that uses `starting_cash` expects one
```

Fix: write the value as the base does (`$5`, not `5`).
""")

SETUP_READS_PLAYERS = Code("R0515", "setup-reads-players", ERROR,
                           "a default that reads the players or whose turn it is", explanation="""\
a value computed while the game is set up (a field's default, the bank's money) reads
`players` or `current`. Defaults are computed before the players are seated and before anyone's
turn, so neither exists yet.

```rules
kind Lot:
    state owner: player? = current
```

```text
tiny.rules:14:28: error[R0515]: the default of `owner` reads `current`, which does not exist while the game is set up
   |
14 |     state owner: player? = current
   |                            ^^^^^^^
  help: start from a value that does not depend on the players, and change it in `setup:`, which runs once the players are seated
```

Fix: a default that does not depend on the players (`= none`), and a `setup:` block that sets
what depends on them. Test file: `default_reads_players`.
""")

BAD_SUPPLY = Code("R0516", "bad-supply", ERROR,
                  "a supply not on a state count field, or of a size that changes", explanation="""\
a `supply` (5.3) counts pieces on a field that is not a `state` field of type
`count`, or its size is not a number or a parameter.

```rules
supply Houses = 32 on Lot.price
```

```text
tiny.rules:20:27: error[R0516]: a supply counts pieces on a `state` field of type `count`; `price` of `Lot` is fixed data
   |
20 | supply Houses = 32 on Lot.price
   |                           ^^^^^
  help: declare it `state price: count = 0` in kind `Lot`
```

A size that reads a global or a field: ``the size of a supply is a number or a parameter; `limit`
changes in play``.

Fix: count a `state houses: count = 0` field; give the size as `32` or a `param`. Test file:
`supply_misuse`.
""")


# ---- R06xx: tables -------------------------------------------------------------------------------

FIRST_COLUMN_NOT_NAME = Code("R0601", "first-column-not-name", ERROR, "first column is not `name`", explanation="""\
a table's first column is not `name`.

```rules
table Lot:
    title  price
    Alpha  $60
```

```text
error[R0601]: a table's first column is `name`
```

Fix: name the first column `name`. Test file: `table_first_column`.
""")

UNKNOWN_COLUMN = Code("R0602", "unknown-column", ERROR, "column that is no fixed field", explanation="""\
a column that is not a fixed field of the kind (state fields have no column: they
start from their defaults), or an `assumed` column that the table does not have, or an
`assumed` element (`rents[5]`) that the row's list does not have.

```rules
table Lot:
    name   price  rent
    Alpha  $60    $6
```

```text
error[R0602]: kind `Lot` has no fixed field `rent`
  help: its fixed fields are price
```

Also: ``` `assumed rent`: table `Lot` has no column `rent` ```, and
``` `assumed rents[5]`: `rents` of `Alpha` has no element 5 (elements count from 0) ```.

Fix: add the field to the kind (without `state`), or correct the column name or the element's
index. Test files: `table_column_not_field`, `table_assumed_element`.
""")

MISSING_COLUMN = Code("R0603", "missing-column", ERROR, "fixed field without a column", explanation="""\
a fixed field of the kind has no column in its table.

```rules
kind Lot:
    price: money
    rent: money

table Lot:
    name   price
    Alpha  $60
```

```text
error[R0603]: table `Lot` has no column for field `rent`
```

Fix: add the column, or make the field `state` with a default if it is not printed data. Test
file: `table_missing_column`.
""")

ROW_WIDTH_MISMATCH = Code("R0604", "row-width-mismatch", ERROR, "row with the wrong number of cells", explanation="""\
a row with more or fewer cells than the table has columns.

```rules
table Lot:
    name   price
    Alpha  $60  $6
```

```text
error[R0604]: row `Alpha` has 2 values for 1 column
```

Fix: one cell per column; write `none` for an empty optional cell; put a list in `[ ]` (one
cell). Test file: `table_short_row`.
""")


# ---- R07xx: the board ----------------------------------------------------------------------------

NO_BOARD = Code("R0701", "no-board", ERROR, "no `board`", explanation="""\
the file has no `board`.

```text
error[R0701]: the file has no `board`
  help: add `board:` listing the squares in order
```

Fix: add `board:` with the squares in order. Test file: `board_missing`.
""")

THING_ON_BOARD_TWICE = Code("R0702", "thing-on-board-twice", ERROR, "a thing on the board twice", explanation="""\
a thing (a table row) is on the board more than once. (Special squares may repeat.)

```rules
board:
    Go, Alpha, Alpha
```

```text
error[R0702]: `Alpha` is on the board twice
```

Fix: keep one; if the game really has two such spaces, make it a special `square` or two things.
Test file: `board_thing_twice`.
""")

THING_MISSING_FROM_BOARD = Code("R0703", "thing-missing-from-board", ERROR,
                                "a thing missing from the board", explanation="""\
a thing of a kind that is on the board is itself missing from the board.

```rules
table Lot:
    name   price
    Alpha  $60
    Beta   $80

board:
    Go, Alpha
```

```text
error[R0703]: `Beta` (Lot) is not on the board
  help: every Lot must be on the board once
```

Fix: add it to the board at its place. Test file: `board_thing_missing`.
""")

OFF_BOARD_SQUARE_ON_BOARD = Code("R0704", "off-board-square-on-board", ERROR,
                                 "an `off board` square listed in `board:`", explanation="""\
a square declared `off board` is also listed in `board:`. An off-board square is a
place off the ring (Wheeler Dealer's Tax Audit building, in the centre of the board): tokens
reach it and leave it only with `move … to`, `send` and `place`, so it cannot also be one of the
ring's squares.

```rules
square Office "Office" off board

board:
    Go, Alpha, Beta, Office
```

```text
tiny.rules:23:22: error[R0704]: `Office` is declared `off board`, so it cannot be on the board
   |
23 |     Go, Alpha, Beta, Office
   |                      ^^^^^^
  help: remove it from `board:`; tokens reach it with `move … to`
```

(Here the `square` line is the game's line 20 and `board:` its line 22.)

Fix: remove it from `board:` if it is a place off the ring; or drop `off board` from its
`square` line if rolls of the dice should count it. Tested in
`tests/test_language_extensions.py` (`test_an_off_board_square_cannot_also_be_on_the_board`).
""")

STOP_SQUARE_OFF_BOARD = Code("R0705", "stop-square-off-board", ERROR,
                             "a `stop` square that is `off board`", explanation="""\
a square declared both `stop` and `off board`. `stop` ends every `move … by` that
would pass the square; a square off the ring is never on such a move's way.

```rules
square Vault "Vault" stop off board
```

```text
tiny.rules:11:1: error[R0705]: `Vault` is `off board`, so no move along the ring can stop on it
   |
11 | square Vault "Vault" stop off board
   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  help: drop `stop`, or put the square on the board
```

Fix: drop `stop` (tokens reach an `off board` square only with `move … to`), or put the square
on the board. Test file: `stop_off_board`.
""")


# ---- R08xx: the turn -----------------------------------------------------------------------------

NO_TURN = Code("R0801", "no-turn", ERROR, "no `turn`", explanation="""\
the file has no `turn`.

```text
error[R0801]: the file has no `turn`
  help: add `turn:` with at least one `phase`
```

Fix: add `turn:` with its phases. Test file: `missing_turn`.

(Unreachable phases are `R0402`.)
""")

END_TURN_IN_SETUP = Code("R0802", "end-turn-in-setup", ERROR, "`end turn` in `setup`", explanation="""\
`end turn` in the `setup:` block. The setup runs once, before the first turn: there
is no turn to end.

```rules
setup:
    roll 1 die as d
    end turn
```

```text
tiny.rules:32:5: error[R0802]: `end turn` in `setup`: the setup runs before the first turn
   |
32 |     end turn
   |     ^^^^^^^^
  help: the setup runs once, whole; to end the game there use `end game`
```

Fix: remove it; the setup runs to its end (`end game` may end the game there; an `end turn` in a
handler or procedure the setup sets off stops the setup at that point). `player`
is not bound in the setup either (`R0205`): name players with `players[0]` or loop over
`players`. Test file: `setup_misuse`.
""")

ACTION_LIMIT_ZERO = Code("R0803", "action-limit-zero", ERROR,
                         "an action limited to 0 times per turn or visit", explanation="""\
an action limited to `0 per turn` or `0 per visit`: it could never be taken.

```rules
action never any time 0 per visit:
    pay $50 from bank to player
```

```text
tiny.rules:22:1: error[R0803]: action `never` may be taken 0 times per visit, that is never
   |
22 | action never any time 0 per visit:
   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  help: write `once per …` or a number above 0, or remove the action
```

Fix: `once per turn`, `2 per visit`…, or remove the action. Test file: `action_limit_zero`.
""")

STATUS_NEVER_RELEASED = Code("R0804", "status-never-released", WARNING,
                             "a status no rule releases a player from", explanation="""\
a `status` (5.12) that no rule can `release` a player from: once put in it, he
plays its turn for the rest of the game and never an ordinary one.

```rules
status InJail "In jail" at Jail:
    phase wait:
        pay $1 from player to bank
```

```text
tiny.rules:22:1: warning[R0804]: no rule releases a player from `InJail`: once put in it, he never plays an ordinary turn again
   |
22 | status InJail "In jail" at Jail:
   | ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  help: `release player` in one of its phases (paid a fine, rolled doubles, served his turns)
```

Fix: give the way out: `if player.status_turns == 3: release player`. Test file: `status_misuse`.
""")


# ---- R09xx: handlers, trades and cards -----------------------------------------------------------

BAD_HANDLER_TARGET = Code("R0901", "bad-handler-target", ERROR,
                          "handler target missing or not allowed", explanation="""\
`on land` / `on pass` without a square or kind, or `on debt` / `on eliminate` with
one.

```rules
on land:
    end turn
```

```text
error[R0901]: `on land` needs a square or a kind
  help: e.g. `on land Start:` or `on land Property p:`
```

```rules
on debt Go:
    eliminate debtor
```

```text
error[R0901]: `on debt` takes no square or kind
  help: write `on debt:`; it applies to every player
```

Fix: name the square or kind for `land`/`pass`; write `on debt:` and `on eliminate:` bare (filter
with `when`). Test file: `on_debt_with_target`.
""")

UNNAMED_HANDLER_THING = Code("R0902", "unnamed-handler-thing", ERROR,
                             "kind handler without a name for the thing", explanation="""\
`on land K` / `on pass K` for a kind, without a name for the thing.

```rules
on land Lot when Alpha.owner == none:
    pay Alpha.price from player to bank
```

```text
error[R0902]: `on land Lot` needs a name for the thing
  help: e.g. `on land Lot x:`
```

Fix: `on land Lot p when p.owner == none:`. Test file: `handler_kind_needs_name`.
""")

TRADED_KIND_WITHOUT_OWNER = Code("R0903", "traded-kind-without-owner", ERROR,
                                 "traded kind without an owner", explanation="""\
`trade` lists a kind without `state owner: player?`: there is no owner to exchange.

```rules
kind Lot:
    price: money
    state holder: player? = none

trade Lot with cash
```

```text
error[R0903]: kind `Lot` has no `state owner: player?`, so it cannot be traded
```

Fix: call the owning field `owner` (`state owner: player? = none`). Test file:
`trade_without_owner`.
""")

KEPT_CARD_IN_CUT_DECK = Code("R0904", "kept-card-in-cut-deck", ERROR, "a kept card in a `cut` deck", explanation="""\
a card flagged `keep` in a `cut` deck. A cut deck never gives its cards away (the card
cut is used and stays in the deck), so no player could keep one.

```rules
deck Luck cut:
    card Pardon "Keep this card: a pardon" keep:
        pay fee from bank to player

on land Go:
    draw from Luck
```

```text
tiny.rules:35:5: error[R0904]: card `Pardon` is kept, but a `cut` deck never gives its cards away
   |
35 |     card Pardon "Keep this card: a pardon" keep:
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  help: kept cards come from `reshuffle`, `once` or `cycle` decks
```

Fix: make the deck `reshuffle` (drawn cards are discarded and come back when the deck runs out)
or `once`, or drop `keep` so the card acts when it is cut.
""")

KEPT_LASTING_CARD = Code("R0905", "kept-lasting-card", ERROR, "a card both kept and `lasting`", explanation="""\
a card flagged both `keep` and `lasting`. A lasting card is in force from its draw
until the next card of its deck is drawn (`Deck.showing`); a kept card waits in a hand to be used
later. A card cannot be both.

```rules
deck Headlines cycle:
    card Pardon "A pardon" keep lasting:
        pass
```

```text
tiny.rules:18:5: error[R0905]: card `Pardon` is both kept and `lasting`
   |
18 |     card Pardon "A pardon" keep lasting:
   |     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
  help: a lasting card is in force from its draw until the next card of its deck; a kept card waits in a hand: drop one of the two
```

Fix: drop one of the two flags. Test file: `deck_lasting_misuse`.
""")

TRADABLE_CARD_NOT_KEPT = Code("R0907", "tradable-card-not-kept", ERROR,
                              "a `tradable` card that is not kept", explanation="""\
a card flagged `tradable` but not `keep`. Only a kept card is ever in a player's hand,
so only a kept card can be traded.

```rules
    card Pardon "A pardon" tradable:
        pay fee from bank to player
```

```text
error[R0907]: card `Pardon` is `tradable`, but it is not kept, so nobody ever holds it
  help: flag it `keep` too, or drop `tradable`
```

Fix: `card Pardon "A pardon" keep tradable:`. Test file: `card_tradable_flags`.
""")

TRADABLE_CARD_NEVER_TRADED = Code("R0908", "tradable-card-never-traded", WARNING,
                                  "a `tradable` card that no `trade` lets be traded", explanation="""\
a card flagged `tradable`, but the file's `trade` declaration does not list `cards`
(or there is none), so it can never be traded.

```rules
    card Pardon "A pardon" keep tradable:
        pay fee from bank to player

trade Lot with cash
```

```text
warning[R0908]: card `Pardon` is `tradable`, but no `trade` lists `cards`
  help: add `cards` to the trade: `trade Property, cards with cash`
```

Fix: `trade Lot, cards with cash`. Test file: `card_tradable_flags`.
""")

BLUFF_WITHOUT_BLUFFING = Code("R0909", "bluff-without-bluffing", ERROR,
                              "a `bluff:` block on an auction that is not `bluffing`", explanation="""\
an auction with a `bluff:` block that is not `bluffing`: without `bluffing` no bid
may exceed the bidder's cash, so nobody can be exposed and the block could never run.

```rules
    auction L1 from $1 in turn after player passes 2 as sale:
        set L1.owner = sale.winner
    bluff:
        pay $5 from sale.winner to bank
```

```text
error[R0909]: a `bluff:` block on an auction that is not `bluffing`
  help: add `bluffing` before `as`: bids may then exceed cash
```

Fix: `auction L1 from $1 in turn after player passes 2 bluffing as sale:`, or remove the block.
Test file: `auction_round_robin_misuse`.
""")

DECK_TOO_LARGE = Code("R0910", "deck-too-large", ERROR, "a deck of more than 10,000 cards", explanation="""\
a deck holds more than 10,000 cards, counting `copies`. The engine keeps every copy,
so `copies 1000000000` would exhaust memory before the first turn; no printed deck comes near.

```rules
deck Chances cut:
    card Fine "Fine" copies 1000000000:
        pay fee from player to bank
```

```text
tiny.rules:29:5: error[R0910]: deck `Chances` has 1,000,000,000 cards; a deck holds at most 10,000
  help: is `copies 1,000,000,000` of `Fine` a slip?
```

Fix: the number of copies the game really has. Test file: `deck_too_large`.
""")


# ---- R1xxx: while a game runs --------------------------------------------------------------------

RUNTIME_ERROR = Code("R1001", "runtime-error", ERROR,
                     "a rule did something impossible while the game ran", explanation="""\
a rule did something impossible at run time. The message says what:

| message | cause | fix |
| --- | --- | --- |
| ``` `p.owner.cash` reads a field of a value that is `none` here ```, ``` `p.owner` is `none` here, so it has no `houses` ``` | a field of a value that was `none` (reading it, or setting it) | guard the rule: `when p.owner != none` |
| ``` `…` cannot be computed here (…) ``` | an expression failed in another way the checker could not foresee | check the types of the values involved; report it if the file checks cleanly |
| `index 6 is outside the list (it has 6 items)` | `p.rents[p.houses]` with too many houses | cap the index (`house_cap`), or lengthen the list |
| ``` `min` of an empty list ``` | `min`/`max(x in … where …)` matched nothing | test `count(…) > 0` first |
| `division by zero` | `/` by a count that was 0 | test it first |
| `cannot pay a negative amount (-5)` | `pay` of a negative amount | swap the payer and payee, or test the sign |
| `P2 owes 600 but has 100, and the rules have no `on debt`` | a payment larger than cash, no `on debt` | add `on debt:` (with `raise cash` and `eliminate`) |
| `` `on debt` left P2 owing 600 with 100 in cash `` | `on debt` ended with the debtor short and still in | end `on debt` by eliminating a debtor who is still short |
| `P2 is out of the game and cannot pay` | a rule made an eliminated player pay | filter out players with `out`; don't pay after `eliminate` |
| `the bank has run out of money` | a limited `bank $…` paid more than it holds | `bank unlimited`, a bigger bank, or (designed) `then ious` |
| `` `Alpha` is not on the board `` | `move P to` a thing that is not on the board | move to a square on the board |
| `the scenario forced 1 dice but the rule rolls 2` | a scenario's `dice` line does not match the roll | give as many faces as the rule rolls (`dice 3 4` for two dice) |
| ``the scenario forces card `Gift`, but no copy of it is left in `Luck` `` | a scenario's `cards` line names a card already drawn (or kept, or discarded) from a `reshuffle` or `once` deck | force only cards still in the draw pile; `Deck.left` tells how many are |
| `` `X` is not on the board, so no one can move there `` | `move`, `send` or `place` to a special square that is not on the board | put the square on the board, or declare it `off board` |
| ``Ann is at `Office`, off the board; a token leaves it only with `move … to` `` | `move … by` or `move … back` of a token on an `off board` square, which is on no ring to count steps along | leave it with `move P to S`, `send P to S` or `place P at S` (Wheeler Dealer's audit ends with `move player to Park`) |
| ``the step of `a` in action `deposit` is 0; it must be above 0`` | an amount's computed step (`step x`) was 0 or less when the action was offered | compute a positive step, or write it as a number |
| ``action `give` offers 1,000,000 amounts, more than 10,000`` | `(a: money from $1 to player.cash step $1)` with a large range | choose a larger step |
| `the rule rolls 1,000,000 dice; a roll is of 0 to 1,000 dice` | `roll n dice` with `n` computed (or a parameter) out of range | compute a sensible number of dice |

Example:

```rules
on land Lot p when p.owner == none:
    pay min(q in Lot where q.price > $1,000: q.price) from player to bank
```

```text
loop.rules:28:9: error[R1001]: `min` of an empty list
   |
28 |     pay min(q in Lot where q.price > $1,000: q.price) from player to bank
   |         ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
```
""")

RULES_LOOP = Code("R1002", "rules-loop", ERROR, "the rules loop", explanation="""\
the rules loop: a turn ran more than 20,000 statements, or moves, card effects,
procedures, debts or action windows triggered each other more than 40 deep (a landing that moves
the player, who lands again…; a procedure that calls itself without end; an `on debt` that asks
the debtor for more than he has; an action whose body opens a `window` for its player). One
statement that would do unbounded work is stopped the same way: a move of more than 20,000
squares (`move player by n` with a vast `n`).

```rules
on land Go:
    move player by 0
```

```text
$ rulesc run tiny.rules --seed 3
tiny.rules:35:5: error[R1002]: moves trigger moves more than 40 deep; the rules seem to loop
   |
35 |     move player by 0
   |     ^^^^^^^^^^^^^^^^
  help: look for a handler whose move lands on a square that moves again
```

Other messages: ``cards draw cards more than 40 deep; the rules seem to loop``, ``procedures call
procedures more than 40 deep; the rules seem to loop``, ``debts raise debts more than 40 deep; the
rules seem to loop``, ``windows open windows more than 40 deep; the rules seem to loop``, ``the rules ran 20,000 statements in one
turn without finishing it; they seem to loop``.

Fix: find the cycle (a card that sends the player to a square that draws the same card, a
handler that moves onto its own square, a procedure that calls itself unconditionally) and break
it with a condition or a different destination.
""")


# ---- the ranges, and the registry -----------------------------------------------------------------

RANGES = (
    Range("R00xx", "input files and the command line", """\
These come before any parsing. The file-reading codes are raised by `dsl/source.py`, the `--set`
codes by the interpreter when it loads a file (`interpreter/rules.py`).
"""),
    Range("R01xx", "syntax", """\
Raised by the parser (`dsl/parser.py`, `dsl/transform.py`).
"""),
    Range("R02xx", "names", """\
Raised while the declarations are gathered (`dsl/model.py`) and names are resolved
(`dsl/checker.py`). Unknown names come with the nearest known names.
"""),
    Range("R03xx", "types", """\
Raised by the type checker (`dsl/typecheck.py`, `dsl/checker.py`). The types are described in the language
reference, section 6.
"""),
    Range("R04xx", "reachability and unused declarations", """\
Mostly warnings: the file can be played, but part of it will never matter.
"""),
    Range("R05xx", "the header, declared state and variants", ""),
    Range("R06xx", "tables", ""),
    Range("R07xx", "the board", ""),
    Range("R08xx", "the turn", ""),
    Range("R09xx", "handlers, trades and cards", ""),
    Range("R1xxx", "while a game runs", """\
Raised by the interpreter (`interpreter/errors.py`) when a rule does something impossible in a
particular game. They point at the statement that was running. `rulesc run`, `simulate`, `test`
and the property checker report them (a scenario or a generated game fails with the
diagnostic); they stop that game with a diagnostic, not a Python traceback.
"""),
)

UNASSIGNED = ("R0207", "R0407")  # numbers passed over when their ranges were filled: never give them a code

REGISTRY: dict[str, Code] = {entry.code: entry for entry in list(globals().values()) if isinstance(entry, Code)}


def lookup(code: str) -> Code:
    """The entry of `code`; a KeyError naming this module for a code that is not registered."""
    try:
        return REGISTRY[code]
    except KeyError:
        raise KeyError(f"`{code}` is not a registered diagnostic code (dsl/codes.py)") from None
