"""Variants (`extends`, docs/language.md 5.21): a variant overrides, replaces, removes, inserts and
extends what its base has — the game's header, parameters, phases, handlers and hooks (by their `as`
name or their header), actions, invariants, end conditions, table rows and cells, squares on the
board, decks and cards — and adds fields; its base's rules keep pointing into the base file. A name
the base does not have is R0510 with the nearest names, at the variant's line (and a base name the
variant removed but the base still uses points at the removal); `extends` out of place is R0511; a
change that does not exist is a syntax error that says what a variant can write; a variant that does
not apply does not load; `extends "wheeler"` finds the shipped game from any folder, and a base that is
a folder or is missing is R0513."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesc.cli import main
from rulesc.dsl import ast
from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError
from rulesc.dsl.variants import load_file, shipped_games
from rulesc.interpreter.agents import ScriptedAgent
from rulesc.interpreter.engine import Game
from rulesc.interpreter.scenario import run_scenarios

from clirun import rulesc
from tiny_game import BASE

ROOT = Path(__file__).resolve().parent.parent
FINANCE = ROOT / "games" / "finance.rules"
WHEELER = ROOT / "games" / "wheeler.rules"
MINI = ROOT / "tests" / "completeness" / "everything.rules"
MINIMAL = (ROOT / "tests" / "cli_data" / "minimal.rules").read_text(encoding="utf-8")


def variant(tmp_path, text: str, base: Path = MINI, name: str = "house.rules") -> Path:
    path = tmp_path / name
    path.write_text(f'extends "{base}"\n' + text)
    return path


def load(tmp_path, text: str, base: Path = MINI):
    return load_file(variant(tmp_path, text, base))


def errors(tmp_path, text: str, base: Path = MINI):
    with pytest.raises(RulesError) as info:
        load(tmp_path, text, base)
    return info.value.diagnostics


def handlers(rules, event=None, target=None):
    return [d for d in rules.decls if isinstance(d, ast.Handler) and (event is None or d.event == event)
            and (target is None or d.target == target)]


def hooks(rules, which):
    return [d for d in rules.decls if isinstance(d, ast.Hook) and d.which == which]


def clean(rules):
    checked = check_program(rules)
    return [d.message for d in checked.diagnostics if d.is_error]


# ---- handlers and hooks ---------------------------------------------------------------------------

def test_a_handler_is_replaced_by_its_name_in_its_place(tmp_path):
    base = load_file(MINI)
    rules = load(tmp_path, "replace on land Lot l as rent when l.owner != none:\n    pay $7 from player to l.owner\n")
    before = [i for i, d in enumerate(base.decls) if isinstance(d, ast.Handler) and d.name == "rent"]
    after = [i for i, d in enumerate(rules.decls) if isinstance(d, ast.Handler) and d.name == "rent"]
    assert before == after  # same place: handlers run in the order they are written
    new = rules.decls[after[0]]
    assert new.span.file.endswith("house.rules") and new.body.statements[0].amount.value == 7
    assert len(handlers(rules, "land", "Lot")) == 2
    assert not clean(rules)


def test_a_handler_is_replaced_by_its_header_when_the_base_has_one(tmp_path):
    rules = load(tmp_path, "replace on land Tax:\n    pay $3 from player to bank\n")
    [tax] = handlers(rules, "land", "Tax")
    assert tax.span.file.endswith("house.rules")
    assert not clean(rules)


def test_a_replaced_handler_keeps_its_name(tmp_path):
    rules = load(tmp_path, "replace on land Lot l as rent when l.owner != none:\n    pass\n")
    assert [h.name for h in handlers(rules, "land", "Lot")] == ["purchase", "rent"]


def test_handlers_and_hooks_are_removed_by_header_or_name(tmp_path):
    rules = load(tmp_path, "remove on eliminate\nremove handler rest_stop\nremove after turn\n"
                           "remove handler miss_turn\n")
    assert not handlers(rules, "eliminate") and not handlers(rules, "land", "Rest")
    assert not hooks(rules, "after") and not hooks(rules, "before")


def test_a_hook_is_replaced_by_its_header(tmp_path):
    rules = load(tmp_path, "replace after turn when player.position == Jail:\n    move player to Go\n")
    [after] = hooks(rules, "after")
    assert after.span.file.endswith("house.rules")


def test_an_ambiguous_header_names_the_candidates(tmp_path):
    [d] = errors(tmp_path, "remove on land Lot\n")
    assert d.code == "R0510" and d.path.endswith("house.rules") and d.span.line == 2
    assert "2 handlers `on land Lot`" in d.message
    assert "`remove handler purchase` or `remove handler rent`" in d.help
    assert all(label.path.endswith("everything.rules") for label in d.labels)


def test_the_shipped_games_name_their_handlers_of_one_header(tmp_path):
    [d] = errors(tmp_path, "remove on land Lease\n", base=FINANCE)
    assert "`remove handler sale` or `remove handler rent`" in d.help
    [d] = errors(tmp_path, "remove on land Property\n", base=WHEELER)
    assert ("`remove handler purchase` or `remove handler before_poaching` or `remove handler bill` or "
            "`remove handler own_income`") in d.help


def test_an_unnamed_ambiguous_header_says_how_to_name_one(tmp_path):
    base = tmp_path / "base.rules"
    base.write_text(MINI.read_text().replace(" as purchase", "").replace(" as rent", ""))
    [d] = errors(tmp_path, "replace on land Lot l when l.owner == none:\n    pass\n", base=base)
    assert "give each a name in the base" in d.help


def test_a_missing_handler_name_gives_the_nearest(tmp_path):
    [d] = errors(tmp_path, "remove handler rents\n")
    assert d.code == "R0510" and "no handler named `rents`" in d.message and "`rent`" in d.help
    assert d.path.endswith("house.rules")


def test_a_missing_handler_header_lists_what_the_base_has(tmp_path):
    [d] = errors(tmp_path, "remove on land Chancey\n")
    assert d.code == "R0510" and "`remove on land Chancey`" in d.message and "`on land Chance`" in d.help


def test_two_handlers_with_one_name_are_r0202(tmp_path):
    rules = load(tmp_path, "on land Go as rent:\n    pass\n")
    checked = check_program(rules)
    [d] = [d for d in checked.diagnostics if d.code == "R0202"]
    assert "named `rent`" in d.message and d.path.endswith("house.rules")
    assert d.labels[0].path.endswith("everything.rules")


# ---- actions, invariants, end conditions, parameters, decks ----------------------------------------

def test_an_action_is_replaced_and_removed(tmp_path):
    rules = load(tmp_path, "replace action tip any time when player.cash > $5:\n    pay $3 from player to bank\n"
                           "remove action cool_down\n")
    actions = {d.name: d for d in rules.decls if isinstance(d, ast.ActionDecl)}
    assert "cool_down" not in actions and actions["tip"].limit is None
    assert actions["tip"].span.file.endswith("house.rules")
    [d] = errors(tmp_path, "remove action cooldown\n")
    assert "`cool_down`" in d.help


def test_invariants_end_conditions_params_and_decks_are_removed(tmp_path):
    rules = load(tmp_path, 'remove invariant "houses within the cap"\nremove end "time is up"\n'
                           'replace phase spare "nothing" when true:\n    pass\nremove deck Spare\n')
    assert [d.text for d in rules.decls if isinstance(d, ast.Invariant)] == ["a lot with houses has an owner"]
    assert [d.reason for d in rules.decls if isinstance(d, ast.EndDecl)] == ["last player standing"]
    assert not [d for d in rules.decls if isinstance(d, ast.Deck) and d.name == "Spare"]
    assert not clean(rules)
    [d] = errors(tmp_path, 'remove end "time up"\n')
    assert d.code == "R0510" and "`time is up`" in d.help
    [d] = errors(tmp_path, "remove param salry\n")
    assert "`salary`" in d.help


def test_a_removed_parameter_that_is_still_used_is_reported(tmp_path):
    checked = check_program(load(tmp_path, "remove param opening_bid\n"))
    assert any(d.is_error and "opening_bid" in d.message for d in checked.diagnostics)


# ---- tables and the board --------------------------------------------------------------------------

def test_override_table_changes_only_the_listed_cells(tmp_path):
    rules = load(tmp_path, "override table Lot:\n    name  price\n    R1    $70\n")
    [table] = [d for d in rules.decls if isinstance(d, ast.Table) and d.kind == "Lot"]
    r1 = next(r for r in table.rows if r.name == "R1")
    cols = [c.id for c in table.columns[1:]]
    assert r1.cells[cols.index("price")].value == 70
    assert r1.cells[cols.index("street")].id == "Red"  # the others stay
    assert r1.span.file.endswith("house.rules")
    assert not clean(rules)


def test_override_table_keeps_the_assumed_marks_of_other_columns(tmp_path):
    rules = load(tmp_path, "override table Lot:\n    name  price\n    R2    $65\n")
    [table] = [d for d in rules.decls if isinstance(d, ast.Table) and d.kind == "Lot"]
    r2 = next(r for r in table.rows if r.name == "R2")
    assert [str(a) for a in r2.assumed_columns] == ["rents[1]", "rents[2]"]


def test_override_table_reports_a_row_or_column_the_base_has_not(tmp_path):
    [d] = errors(tmp_path, "override table Lot:\n    name  price\n    R9    $70\n")
    assert d.code == "R0510" and "no row `R9` in table `Lot`" in d.message and d.span.line == 4
    [d] = errors(tmp_path, "override table Lot:\n    name  prize\n    R1    $70\n")
    assert "no column `prize`" in d.message and "`price`" in d.help and d.span.line == 3


def test_remove_row_takes_the_thing_and_its_square_off_the_board(tmp_path):
    rules = load(tmp_path, "remove row Lot.B1\n")
    [board] = [d for d in rules.decls if isinstance(d, ast.Board)]
    assert "B1" not in [s.id for s in board.squares] and len(board.squares) == 7
    assert [(c.name, c.index) for c in board.copies] == [("LastChance", 6)]  # the named place after it moved up
    assert not clean(rules)
    [d] = errors(tmp_path, "remove row Lot.B2\n")
    assert "no row `B2` in table `Lot`" in d.message and "`B1`" in d.help


def phase_names(rules):
    [turn] = [d for d in rules.decls if isinstance(d, ast.Turn)]
    return [p.name for p in turn.phases]


@pytest.mark.slow
def test_insert_phase_puts_a_new_phase_after_or_before_another(tmp_path):
    rules = load(tmp_path, "insert phase toll after move:\n    pay $1 from player to bank\n"
                           "insert phase wake \"Wake up\" when turn > 1 optional before move:\n    pass\n")
    names = phase_names(rules)
    assert names.index("wake") + 1 == names.index("move") == names.index("toll") - 1
    assert not clean(rules)
    [d] = errors(tmp_path, "insert phase toll after mvoe:\n    pass\n")
    assert d.code == "R0510" and d.span.line == 2 and d.path.endswith("house.rules")
    assert "`insert phase toll after mvoe`: the base has no phase `mvoe`" in d.message and "`move`" in d.help
    again = check_program(load(tmp_path, "insert phase move after move:\n    pass\n"))
    assert [d.code for d in again.diagnostics if d.is_error] == ["R0202"]


def test_override_board_adds_a_square_that_plays(tmp_path):
    rules = load(tmp_path, "square Well \"Wishing well\"\non land Well:\n    pay $3 from bank to player\n"
                           "override board:\n    Go, Well, R1, Chance, R2\n    Rest, B1, Tax, Chance as LastChance\n"
                           "scenario \"a wish\":\n    players Ann, Bob\n    as Ann:\n        move player by 1\n"
                           "    expect Ann.cash == $503 and Ann.position == Well\n")
    [board] = [d for d in rules.decls if isinstance(d, ast.Board)]
    assert [s.id for s in board.squares][:2] == ["Go", "Well"] and board.span.file.endswith("house.rules")
    assert not clean(rules)
    from rulesc.interpreter.rules import compile_rules
    from rulesc.interpreter.scenario import run_scenarios
    results = {r.title: r for r in run_scenarios(compile_rules(check_program(rules)))}
    assert results["a wish"].passed
    # a board that leaves out a thing of a board kind is the checker's board error, at the thing's row
    missing = check_program(load(tmp_path, "override board:\n    Go, R1, Chance, R2\n    Rest, Tax, Chance as LastChance\n"))
    b1 = next(i for i, line in enumerate(MINI.read_text().splitlines(), 1) if line.startswith("    B1 "))
    assert [(d.code, d.span.line) for d in missing.diagnostics if d.is_error] == [("R0703", b1)]


def test_a_variant_adds_fields(tmp_path):
    rules = load(tmp_path, "global:\n    pot: account\nplayer:\n    fines_paid: money = $0\n")
    assert not clean(rules)


# ---- what cannot be written says what can ------------------------------------------------------------

@pytest.mark.parametrize("line, word", [("remove hook Tax", "remove"), ("replace square Tax:", "replace"),
                                        ("override square Tax:", "override"),
                                        ("insert card Chances.Extra:", "insert")])
def test_a_change_that_does_not_exist_says_what_can_be_written(tmp_path, line, word):
    [d] = errors(tmp_path, line + "\n")
    assert d.code == "R0101" and d.path.endswith("house.rules") and d.span.line == 2
    assert "a variant can write" in d.help and f"`{word} " in d.help


def test_the_cli_reports_a_missing_handler_without_a_traceback(tmp_path, capsys):
    path = variant(tmp_path, "remove on land Lot\n")
    assert main(["check", "--static", str(path)]) == 1
    out = capsys.readouterr()
    assert "R0510" in out.out + out.err and "Traceback" not in out.out + out.err


# ---- extends a shipped game by name -----------------------------------------------------------------

def test_the_shipped_games_are_listed():
    assert {"finance", "wheeler", "wallstreet"} <= set(shipped_games())


@pytest.mark.slow
@pytest.mark.parametrize("name", ["wheeler", "wheeler.rules"])
def test_extends_a_bare_name_finds_the_shipped_game_from_any_folder(tmp_path, name):
    (tmp_path / "house.rules").write_text(f'extends "{name}"\noverride param min_stake = $30,000\n')
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-m", "rulesc", "check", "--static", "house.rules"], cwd=tmp_path,
                          capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Wheeler Dealer" in proc.stdout


@pytest.mark.slow
def test_a_file_next_to_the_variant_comes_before_the_shipped_game(tmp_path):
    (tmp_path / "wheeler.rules").write_text(MINI.read_text())
    rules = load_file(variant(tmp_path / "", "", base=Path("wheeler")))
    assert any(isinstance(d, ast.Table) and d.kind == "Lot" for d in rules.decls)


def test_an_unknown_bare_name_lists_the_shipped_games(tmp_path):
    [d] = errors(tmp_path, "", base=Path("wheelr"))
    assert d.code == "R0513" and "`wheeler`" in d.help and d.path.endswith("house.rules")


def test_a_base_reached_through_dot_dot_is_named_by_its_plain_path():
    """`extends "../games/finance.rules"` from examples/: the base's rules are reported at
    `games/finance.rules:8`, not `examples/../games/finance.rules:8`."""
    rules = load_file(os.path.relpath(ROOT / "examples" / "finance-fast-money.rules"))
    files = {d.span.file for d in rules.decls if d.span.file}
    assert os.path.relpath(ROOT / "games" / "finance.rules") in files
    assert not any("/../" in f for f in files)


# ---- a variant of a small game: the header, parameters, phases and cards; its base's errors in the base 

VARIANT_BASE = BASE.split("turn:")[0] + """
param salary = $5

deck Fate once:
    card Gift "Gift" copies 2:
        pay $10 from bank to player
    card Tax "Tax":
        pay $10 from player to bank

turn:
    phase move:
        roll 1 die as d
        move player by d.total
    phase draw:
        draw from Fate
    phase rest:
        pay $1 from bank to player

on pass Go:
    pay salary from bank to player

end when count(players) == 1 winner players[0] as "last player standing"
"""


def write_variant(tmp_path, text: str):
    (tmp_path / "base.rules").write_text(VARIANT_BASE, encoding="utf-8")
    path = tmp_path / "variant.rules"
    path.write_text(text, encoding="utf-8")
    return path


def load_variant(tmp_path, text: str):
    from rulesc.interpreter.rules import load_rules
    return load_rules(str(write_variant(tmp_path, text)))


def test_a_variant_overrides_replaces_and_removes(tmp_path):
    rules = load_variant(tmp_path, """extends "base.rules"

override game "Tiny, house rules":
    players: 3 to 4

override param salary = $7

replace phase draw "Discard instead":
    discard from Fate

remove phase rest

remove card Fate.Tax

extend deck Fate:
    card Windfall:
        pay $1 from bank to player

scenario "the variant's rules apply":
    players Ann, Bob, Cid
    as Ann:
        move player to B1
        move player to R1
    expect Ann.cash == $107
""")
    assert rules.title == "Tiny, house rules" and rules.players_range == (3, 4)
    assert rules.params["salary"] == 7
    assert [p.name for p in rules.phases] == ["move", "draw"]
    assert sorted(c.name for c in rules.decks["Fate"].cards) == ["Gift", "Gift", "Windfall"]
    results = run_scenarios(rules)
    assert results and all(r.passed for r in results), [r.failures for r in results]


def test_inherited_rules_point_into_the_base_file(tmp_path):
    rules = load_variant(tmp_path, 'extends "base.rules"\noverride param salary = $7\n')
    g = Game(rules, ["Ann", "Bob"], seed=3, agents={0: ScriptedAgent(), 1: ScriptedAgent()})
    g.play()
    assert {e.rule.file for e in g.events if e.rule} == {str(tmp_path / "base.rules")}
    assert {e.rule.text.rsplit(":", 1)[0] for e in g.events if e.rule} == {"base.rules"}  # as the log shows it


def test_a_variant_naming_what_the_base_lacks_is_an_error(tmp_path):
    from rulesc.dsl.diagnostics import RulesError
    from rulesc.dsl.variants import load_file
    path = write_variant(tmp_path, 'extends "base.rules"\noverride param salry = $7\nremove phase nap\n')
    with pytest.raises(RulesError) as info:
        load_file(path)
    codes = [(d.code, d.span.line) for d in info.value.diagnostics]
    assert codes == [("R0510", 2), ("R0510", 3)]
    assert "did you mean `salary`" in info.value.diagnostics[0].help
    missing = write_variant(tmp_path, 'extends "nowhere.rules"\n')
    with pytest.raises(RulesError) as info:
        load_file(missing)
    assert info.value.diagnostics[0].code == "R0513"


@pytest.mark.parametrize("text,line,message", [
    ('param bonus = $5\nextends "base.rules"\n', 2, "`extends` comes once, before every other declaration"),
    ('extends "base.rules"\nextends "base.rules"\n', 2, "`extends` comes once, before every other declaration"),
    ("param bonus = $5\n\nremove phase move\n", 3, "`remove phase` needs a base: start the file with `extends`"),
])
def test_extends_out_of_place_or_a_change_without_it_is_an_error(tmp_path, text, line, message):
    from rulesc.dsl.diagnostics import RulesError
    from rulesc.dsl.variants import load_file
    with pytest.raises(RulesError) as info:
        load_file(write_variant(tmp_path, text))
    (problem,) = info.value.diagnostics
    assert (problem.code, problem.span.line, problem.message) == ("R0511", line, message)


def test_base_errors_are_reported_in_the_base_file(tmp_path):
    from rulesc.dsl.checker import check_program
    from rulesc.dsl.variants import load_file
    (tmp_path / "base.rules").write_text(VARIANT_BASE.replace("pay salary from bank", "pay salry from bank"))
    path = tmp_path / "variant.rules"
    path.write_text('extends "base.rules"\n')
    diags = [d for d in check_program(load_file(path)).diagnostics if d.is_error]
    assert [d.code for d in diags] == ["R0205"]
    assert diags[0].path.endswith("base.rules")


def test_an_error_inside_a_chain_of_the_base_is_reported_in_the_base(tmp_path):
    from rulesc.dsl.checker import check_program
    from rulesc.dsl.variants import load_file
    from rulesc.report import format_diagnostics
    base = VARIANT_BASE.replace("pay salary from bank", "pay salary + 5 + salary from bank")
    (tmp_path / "base.rules").write_text(base)
    path = tmp_path / "variant.rules"
    path.write_text('extends "base.rules"\nparam bonus = $1 + 1\n')
    checked = check_program(load_file(path))
    errors = [d for d in checked.diagnostics if d.is_error]
    line = next(i for i, text in enumerate(base.splitlines(), 1) if "salary + 5" in text)
    # sorted by file, then line: the base's error first, though its line is further down
    assert [(d.code, d.path, d.span.line) for d in errors] == [
        ("R0305", str(tmp_path / "base.rules"), line), ("R0305", str(path), 2)]
    shown = format_diagnostics(checked)
    assert f"base.rules:{line}:" in shown and "pay salary + 5 + salary from bank" in shown


def test_a_variant_may_remove_every_card_of_a_cut_deck(tmp_path):
    base = VARIANT_BASE.replace("deck Fate once:", "deck Fate cut:")
    (tmp_path / "base.rules").write_text(base)
    path = tmp_path / "variant.rules"
    path.write_text('extends "base.rules"\nremove card Fate.Gift\nremove card Fate.Tax\n')
    from rulesc.interpreter.rules import load_rules
    g = Game(load_rules(str(path)), ["Ann", "Bob"], seed=1, agents={0: ScriptedAgent(), 1: ScriptedAgent()})
    g.decks.draw(g, "Fate", g.state.players[0], "x")  # draws nothing, as from an empty `once` deck
    assert not [e for e in g.events if e[1] == "draw"]


# ---- what the command line says of a variant that does not load ----------------------------------

def test_extends_of_a_folder_says_it_is_a_folder(tmp_path):
    (tmp_path / "base.rules").mkdir()
    path = tmp_path / "variant.rules"
    path.write_text('extends "base.rules"\n')
    code, _, err = rulesc("check", "--static", path)
    assert code == 2 and "error[R0513]: the base file `base.rules` is a folder, not a file" in err


def test_a_variant_that_does_not_apply_to_its_base_does_not_load_rather_than_parse(tmp_path):
    (tmp_path / "base.rules").write_text(MINIMAL)
    variant = tmp_path / "variant.rules"
    variant.write_text('extends "base.rules"\n\nremove scenario "no such scenario"\n')
    code, out, err = rulesc("check", "--static", variant)
    assert code == 1 and "R0510" in err
    assert out == f"{variant}: does not load\n  1 error, 0 warnings\n"


def test_a_name_a_variant_removed_and_its_base_still_uses_points_at_the_removal(tmp_path):
    """The errors stood in the base file with nothing pointing at the variant's line that caused them."""
    variant = tmp_path / "no-boom.rules"
    variant.write_text('extends "wallstreet"\n\nremove card NewsCards.Boom\n')
    code, _, err = rulesc("check", "--static", variant)
    assert code == 1
    errors = [line for line in err.splitlines() if "error[" in line]
    assert errors and all("wallstreet.rules:" in line and "Boom" in line for line in errors)
    assert err.count(f"note: the variant's `remove card NewsCards.Boom` removed it at {variant}:3:1") == len(errors)
