"""The money and ownership analyses (dsl/soundness/: accounts, payers, ownership, amounts; codes R11xx).

Each file of `soundness_data/` is a house rule of a shipped game; a `bad_*` file marks every finding it
must give on its line (`# error: R1103`), as the checker cases do, and gives no other R11xx finding; a
`good_*` file is the sound twin of a class and gives none. The new files of examples/broken/ are checked
as an author would run them (`rulesc check --static`), position by position. And the shipped games and
the house rules of examples/ give no finding at all.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from clirun import rulesc
from rulesc.dsl.checker import check_program
from rulesc.dsl.variants import load_file

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
DATA = HERE / "soundness_data"
BROKEN = ROOT / "examples" / "broken"
EXPECTATION = re.compile(r"\b(error|warning)\s*:\s*(R11\d\d)\b")


def findings(path: Path) -> list:
    """The R11xx diagnostics of a file (the checker must find nothing else wrong with it first)."""
    checked = check_program(load_file(str(path)))
    others = [d for d in checked.diagnostics if d.is_error and not d.code.startswith("R11")]
    assert not others, [f"{d.path}:{d.span.line if d.span else '?'}: {d.code} {d.message}" for d in others]
    return [d for d in checked.diagnostics if d.code.startswith("R11")]


def expectations(path: Path) -> Counter:
    expected: Counter = Counter()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if "#" in line:
            for severity, code in EXPECTATION.findall(line[line.index("#"):]):
                expected[(number, severity, code)] += 1
    return expected


BAD = sorted(DATA.glob("bad_*.rules"))
GOOD = sorted(DATA.glob("good_*.rules"))


def test_each_class_has_broken_files_and_a_sound_twin():
    assert len(BAD) >= 6 and len(GOOD) >= 4
    codes = {code for path in BAD for (_, _, code) in expectations(path)}
    assert codes == {"R1101", "R1102", "R1103", "R1104", "R1105", "R1106", "R1107"}


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_a_broken_house_rule_gives_exactly_the_findings_marked_on_its_lines(path):
    found = Counter((d.span.line, d.severity, d.code) for d in findings(path)
                    if Path(d.path).resolve() == path.resolve())
    assert found == expectations(path)
    elsewhere = [d for d in findings(path) if Path(d.path).resolve() != path.resolve()]
    assert not elsewhere, [(d.path, d.span.line, d.code) for d in elsewhere]


@pytest.mark.parametrize("path", GOOD, ids=lambda p: p.stem)
def test_a_sound_twin_gives_no_finding(path):
    assert findings(path) == []


# ---- the corpus of examples/broken/, as `rulesc check --static` shows it ---------------------------------

CORPUS = [
    # file, [(line, column, severity, code)]
    ("money_pot_never_paid_out.rules", [(14, 5, "warning", "R1101"), (22, 9, "error", "R1102")]),
    ("auction_starter_pays.rules", [(18, 17, "error", "R1103")]),
    ("sell_without_ownership.rules", [(11, 5, "error", "R1104"), (12, 5, "error", "R1104")]),
    ("negative_price.rules", [(12, 9, "error", "R1105")]),
]


@pytest.mark.parametrize("name,expected", CORPUS, ids=[c[0] for c in CORPUS])
def test_check_static_reports_each_broken_house_rule_at_its_line_and_column(name, expected):
    path = BROKEN / name
    assert path.read_text(encoding="utf-8").startswith("# ")  # the header says the house rule and the bug
    code, out, err = rulesc("check", "--static", name, cwd=BROKEN)
    assert code == 1 and "Traceback" not in out + err
    shown = re.findall(rf"^{re.escape(name)}:(\d+):(\d+): (error|warning)\[(R11\d\d)\]", err, re.M)
    assert [(int(line), int(col), severity, c) for line, col, severity, c in shown] == expected, err


def test_a_finding_names_the_other_line_it_is_about():
    code, out, err = rulesc("check", "--static", BROKEN / "auction_starter_pays.rules")
    assert "note: `p` goes to `sale.winner` here at" in err and "auction_starter_pays.rules:19:17" in err
    assert "help: the player who gets the thing pays for it: `from sale.winner`" in err
    code, out, err = rulesc("check", "--static", BROKEN / "negative_price.rules")
    assert "note: `bankomat_bonus` is declared negative here at" in err and "negative_price.rules:9:1" in err
    code, out, err = rulesc("check", "--static", BROKEN / "sell_without_ownership.rules")
    assert "note: action `sell_back` lets `player` pick any `Lease`" in err


def test_a_variants_negative_value_is_reported_at_the_variants_line_with_a_note_at_the_base_payment():
    found = findings(DATA / "bad_amounts_finance.rules")
    first = next(d for d in found if d.span.line == 5)
    assert first.code == "R1105" and first.path.endswith("bad_amounts_finance.rules")
    assert first.labels and first.labels[0].path.endswith("finance.rules")
    assert "`circuit_income` is negative" in first.message


def test_json_gives_the_finding_as_data():
    import json
    code, out, err = rulesc("check", "--static", "--format", "json", BROKEN / "sell_without_ownership.rules")
    diags = [d for entry in json.loads(out) for d in entry["diagnostics"] if d["code"] == "R1104"]
    assert [(d["severity"], d["span"]["line"], d["span"]["column"]) for d in diags] == [("error", 11, 5), ("error", 12, 5)]


# ---- no false finding in what ships ------------------------------------------------------------------

SHIPPED = (sorted((ROOT / "games").glob("*.rules")) + sorted((ROOT / "examples").glob("*.rules"))
           + sorted((ROOT / "examples" / "games").glob("*.rules")))


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.name)
def test_shipped_games_and_house_rules_give_no_money_or_ownership_finding(path):
    assert findings(path) == []


# ---- money changed by `set` (R1108) -------------------------------------------------------------------

def test_a_set_of_cash_in_a_rule_is_money_from_nowhere_at_the_set_line():
    (found,) = [d for d in findings(BROKEN / "money_from_nowhere.rules") if d.code == "R1108"]
    assert (found.severity, found.span.line, found.span.column) == ("warning", 7, 5)
    assert found.message.startswith("`set player.cash` changes money with no payment")
    assert found.labels[0].path.endswith("base.rules") and "allow money-set-without-payment" in found.help


def test_a_money_field_declared_to_be_set_is_not_reported_and_the_declaration_is_what_allows_it(tmp_path):
    text = (DATA / "good_amounts.rules").read_text(encoding="utf-8")
    assert findings(DATA / "good_amounts.rules") == []
    undeclared = tmp_path / "undeclared.rules"
    undeclared.write_text(text.replace("allow money-set-without-payment   ", "").replace(
        '"../../games/finance.rules"', f'"{ROOT / "games" / "finance.rules"}"'), encoding="utf-8")
    assert [d.code for d in findings(undeclared)] == ["R1108"]


def test_the_setup_and_scenarios_may_set_money(tmp_path):
    path = tmp_path / "setup.rules"
    path.write_text(f'extends "{ROOT / "games" / "finance.rules"}"\n\nsetup:\n    for p in players:\n'
                    '        set p.cash = $900\n', encoding="utf-8")
    assert [d for d in findings(path) if d.code == "R1108"] == []
