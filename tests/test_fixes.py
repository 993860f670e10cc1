"""A diagnostic's machine-applicable fix checks clean once applied (issue #30, item 5).

Every diagnostic raised on the house rules of examples/broken/ and on the examples of docs/errors/
(dsl/codes.md: a whole file as shown, or the lines shown added to the small game the page names) that
carries fixes is taken; each fix is applied alone (`dsl.fixes.apply`) and the file checked again, as
`rulesc check --static` and the editor check it. The fix must apply (its text is where it says); the
fixed file must have no error of the fixed diagnostic's code on its line, and, for a machine-applicable
fix, no error the file did not have: a help that drops a name (`replace on land Lease as rent`, which
gave five errors) fails here. A near name is only maybe right (`deposit` is near `position`, a square).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesc import langinfo
from rulesc.dsl import fixes
from rulesc.dsl.diagnostics import MACHINE_APPLICABLE, Diagnostic

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "examples" / "broken"
TINY = ROOT / "tests" / "checker_cases" / "unknown_function.rules"
BLOCK = re.compile(r"^```rules\n(.*?)^```", re.M | re.S)


def tiny_game() -> str:
    """The small valid game the error page adds its lines to: the test file it names, its last line's
    mistake (an unknown function in `end`) mended."""
    lines = TINY.read_text(encoding="utf-8").splitlines()
    assert lines[-1].startswith("end when size(players)")
    return "\n".join(lines[:-1] + ['end when count(players) == 1 winner players[0] as "last player standing"']) + "\n"


def doc_examples() -> list[tuple[str, str]]:
    """(name, text) of every rules example of the error page, as a file."""
    page = (ROOT / "dsl" / "codes.md").read_text(encoding="utf-8")
    out = []
    for section in re.split(r"^## ", page, flags=re.M)[1:]:
        code = section.split("\n", 1)[0].strip()
        for i, block in enumerate(BLOCK.findall(section)):
            whole = block.lstrip().startswith(("game ", "extends ", "#"))
            out.append((f"{code}-{i}", block if whole else tiny_game() + "\n" + block))
    return out


def _line(d: Diagnostic) -> int:
    return d.span.line if d.span else 0


def errors(diags: list[Diagnostic]) -> set[tuple[str, int]]:
    return {(d.code, _line(d)) for d in diags if d.is_error}


def cases() -> list[tuple[str, str, Path]]:
    """(name, text, folder to check it in)."""
    out = [(p.name, p.read_text(encoding="utf-8"), BROKEN) for p in sorted(BROKEN.glob("*.rules"))]
    out += [(name, text, Path("docs-errors")) for name, text in doc_examples()]
    return out


def check(text: str, folder: Path, name: str, tmp_path: Path) -> list[Diagnostic]:
    if folder == Path("docs-errors"):  # a variant of the page extends `base.rules`: the small game
        folder = tmp_path
        (folder / "base.rules").write_text(tiny_game(), encoding="utf-8")
    path = folder / (name if name.endswith(".rules") else name + ".rules")
    return langinfo.analyse(text, str(path)).diagnostics


CASES = cases()


def test_the_corpus_raises_fixes_of_several_codes(tmp_path):
    fixed = {d.code for name, text, folder in CASES for d in check(text, folder, name, tmp_path) if d.fixes}
    assert {"R0205", "R0206", "R0510"} <= fixed, fixed


@pytest.mark.parametrize("name,text,folder", CASES, ids=[c[0] for c in CASES])
def test_every_fix_checks_clean_once_applied(name, text, folder, tmp_path):
    before = check(text, folder, name, tmp_path)
    for diag in [d for d in before if d.fixes]:
        clean = []
        for fix in diag.fixes:
            fixed = fixes.apply(text, fix)
            assert fixed is not None, f"{diag.code} at line {fix.span.line}: `{fix.original}` is not in its span"
            after = [d for d in check(fixed, folder, name, tmp_path) if d.is_error]
            same = [d for d in after if d.code == diag.code and _line(d) == _line(diag)]
            assert not same, f"{diag.code} `{fix.original}` -> `{fix.replacement}` leaves: {same[0].message}"
            new = [d for d in after if (d.code, _line(d)) not in errors(before)]
            if fix.applicability == MACHINE_APPLICABLE:
                clean.append((fix, new))
        # Alternatives are the author's choice (`as sale` or `as rent`): the one meant checks clean.
        assert not clean or any(not new for _, new in clean), "\n".join(
            f"{diag.code} `{fix.original}` -> `{fix.replacement}` gives: "
            + "; ".join(f"{d.code} at {_line(d)}: {d.message}" for d in new) for fix, new in clean)


def test_the_fix_for_a_handler_the_base_has_twice_restates_its_bound_name_and_condition():
    path = BROKEN / "replace_which_lease.rules"
    text = path.read_text(encoding="utf-8")
    (diag,) = [d for d in langinfo.analyse(text, str(path)).diagnostics if d.code == "R0510"]
    assert "`replace on land Lease p as rent …:`" in diag.help
    rent = fixes.apply(text, diag.fixes[1])
    assert "replace on land Lease p as rent when p.owner != none and p.owner != player:" in rent
    assert langinfo.analyse(rent, str(path)).diagnostics == []


SLIPS = [  # a line of a phase written with a slip, and the line its fix gives
    ("if player.cash = $5:", "if player.cash == $5:"),
    ("if player.cash > $5 && player.cash < $9:", "if player.cash > $5 and player.cash < $9:"),
    ("if player.cash > $5&&player.cash < $9:", "if player.cash > $5 and player.cash < $9:"),
    ("player.cash = $5", "set player.cash = $5"),
    ("pya fee from player to bank", "pay fee from player to bank"),
]


@pytest.mark.parametrize("slip,mended", SLIPS, ids=[s for s, _ in SLIPS])
def test_a_slips_fix_makes_the_line_read(slip, mended, tmp_path):
    lines = tiny_game().splitlines()
    at = lines.index("        move player by d.total") + 1
    body = [" " * 8 + slip] + ([" " * 12 + "pay fee from player to bank"] if slip.endswith(":") else [])
    text = "\n".join(lines[:at] + body + lines[at:]) + "\n"
    (diag,) = check(text, tmp_path, "slip", tmp_path)
    assert diag.code in ("R0101", "R0102") and len(diag.fixes) == 1 and diag.fixes[0].applicability == MACHINE_APPLICABLE
    fixed = fixes.apply(text, diag.fixes[0])
    assert fixed is not None and fixed.splitlines()[at] == " " * 8 + mended
    assert [d for d in check(fixed, tmp_path, "slip", tmp_path) if d.is_error] == []


# ---- `replace phase` keeps what it does not state (R0517) ----------------------------------------------

def test_a_replaced_phase_keeps_the_bases_condition_and_says_so():
    from rulesc.dsl.checker import check_program
    from rulesc.dsl.variants import load_file
    path = BROKEN / "replace_phase_keeps_condition.rules"
    checked = check_program(load_file(path))
    (warning,) = [d for d in checked.diagnostics if d.code == "R0517"]
    assert (warning.severity, warning.span.line) == ("warning", 6)
    assert "keeps the base's `when player.position != School`" in warning.message
    assert warning.labels[0].path.endswith("wheeler.rules")
    (draw,) = [ph for ph in checked.program.turn.phases if ph.name == "draw"]
    assert draw.when is not None and draw.span.file.endswith("replace_phase_keeps_condition.rules")


@pytest.mark.parametrize("header,when,optional,warned", [
    ('replace phase draw "Draw" when true:', False, False, ""),
    ('replace phase draw "Draw" when player.position != School:', True, False, ""),
    ('replace phase use_card "Use" when count(player.hand) > 1 optional:', True, True, ""),
    ('replace phase use_card "Use" optional:', True, True, "keeps the base's `when count(player.hand) > 0`,"),
    ('replace phase use_card "Use" when true:', False, True, "keeps the base's `optional`,"),
    ('replace phase use_card "Use":', True, True, "keeps the base's `when count(player.hand) > 0` and `optional`"),
])
def test_a_replacement_keeps_what_it_does_not_state_and_warns_only_then(header, when, optional, warned, tmp_path):
    from rulesc.dsl.checker import check_program
    from rulesc.dsl.variants import load_file
    path = tmp_path / "house.rules"
    path.write_text(f'extends "{ROOT / "games" / "wheeler.rules"}"\n\n{header}\n    pay $1 from player to bank\n',
                    encoding="utf-8")
    checked = check_program(load_file(path))
    found = [d.message for d in checked.diagnostics if d.code == "R0517"]
    name = header.split()[2]
    (phase,) = [ph for ph in checked.program.turn.phases if ph.name == name]
    assert phase.optional == optional
    assert (phase.when is not None and not (hasattr(phase.when, "value") and phase.when.value is True)) == when
    assert len(found) == (1 if warned else 0) and all(warned in m for m in found), found


# ---- money against a count: the missing `$` -----------------------------------------------------------

DOLLARS = [  # lines added to the small game; the code, the help's words, the fix's replacement and applicability
    ("on land Go:\n    pay 50 from bank to player\n", "R0301", "write amounts of money with `$`: `$50`", "$50", True),
    ("on land Go:\n    if player.cash > 100:\n        pay fee from player to bank\n", "R0303", "`$100`", "$100", True),
    ("on land Go:\n    pay fee + 5 from player to bank\n", "R0305", "`$5`", "$5", True),
    ("param bonus = 50\n\non land Go:\n    pay bonus from bank to player\n", "R0301",
     "`bonus` is a count (`param bonus = 50`): if it is money, write `param bonus = $50`", "$50", False),
]


@pytest.mark.parametrize("lines,code,help,replacement,machine", DOLLARS, ids=[d[1] + d[3] for d in DOLLARS])
def test_money_against_a_count_hints_at_the_missing_dollar_and_its_fix_checks(lines, code, help, replacement,
                                                                               machine, tmp_path):
    text = tiny_game() + "\n" + lines
    (diag,) = check(text, tmp_path, "dollar", tmp_path)
    assert diag.code == code and help in diag.help
    (fix,) = diag.fixes
    assert fix.replacement == replacement and (fix.applicability == MACHINE_APPLICABLE) == machine
    assert [d for d in check(fixes.apply(text, fix), tmp_path, "dollar", tmp_path) if d.is_error] == []


def test_an_account_paid_as_an_amount_hints_at_its_balance_and_the_fix_checks(tmp_path):
    """`pay pot from pot to player`: an account is where money is, the amount is `pot.balance`."""
    text = tiny_game() + "\nglobal:\n    pot: account\n\non land Go:\n    pay pot from pot to player\n"
    (diag,) = check(text, tmp_path, "pot", tmp_path)
    assert diag.code == "R0301" and "`pot.balance`" in diag.help
    (fix,) = diag.fixes
    assert fix.replacement == "pot.balance" and fix.applicability == MACHINE_APPLICABLE
    assert [d for d in check(fixes.apply(text, fix), tmp_path, "pot", tmp_path) if d.is_error] == []
