"""A variant's case of a handler (docs/language.md 5.21): `replace on debt only when C:` changes what the
base's handler does when C holds and keeps the rest of it. It plays exactly as the house rule written by
copying the whole handler does (the same events, seed for seed: only the rule lines they cite differ),
for handlers with a bound thing and for hooks; a later case of one handler is tested first; a case that
names its thing otherwise than the base's handler is R0518, and one for a handler the base does not
have is R0510."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulesc.dsl import ast
from rulesc.dsl.diagnostics import RulesError
from rulesc.dsl.variants import load_file
from rulesc.interpreter.agents import make_agents
from rulesc.interpreter.engine import Game
from rulesc.interpreter.rules import load_rules

FINANCE = Path(__file__).resolve().parent.parent / "games" / "finance.rules"

# FINANCE puts out a player who cannot pay and withdraws his leases; the house rule gives them to
# the player he owes instead, and keeps the base's rule for a debt to the bank.
CASE = f"""extends "{FINANCE}"
replace on debt only when creditor != bank:
    if debtor.cash < owed:
        pay debtor.cash from debtor to creditor
        for p in Lease:
            if p.owner == debtor:
                set p.owner = creditor
        eliminate debtor
"""

COPIED = f"""extends "{FINANCE}"
replace on debt:
    if creditor != bank:
        if debtor.cash < owed:
            pay debtor.cash from debtor to creditor
            for p in Lease:
                if p.owner == debtor:
                    set p.owner = creditor
            eliminate debtor
    else:
        if debtor.cash < owed:
            pay debtor.cash from debtor to creditor
            eliminate debtor
"""

# A case of a handler with a thing (the rent: half on an unimproved lease) and two cases of one
# hook-like handler, the later tested first.
RENT_CASE = f"""extends "{FINANCE}"
replace on land Lease p as rent only when p.houses == 0:
    pay p.rents[0] / 2 from player to p.owner
replace on land Lease p as rent only when p.houses == 0 and player.cash < $100:
    pass
"""

RENT_COPIED = f"""extends "{FINANCE}"
replace on land Lease p as rent when p.owner != none and p.owner != player:
    if p.houses == 0 and player.cash < $100:
        pass
    elif p.houses == 0:
        pay p.rents[0] / 2 from player to p.owner
    else:
        pay p.rents[p.houses] from player to p.owner
"""


def _events(path: Path, seed: int) -> list:
    g = Game(load_rules(str(path)), 4, seed=seed, agents=make_agents("heuristic", seed, 4))
    g.play()
    return [(e.turn, e.kind, e.payload) for e in g.events]


def _write(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("case, copied", [(CASE, COPIED), (RENT_CASE, RENT_COPIED)], ids=["debt", "rent"])
def test_a_case_plays_as_the_copied_handler(tmp_path, case, copied):
    case_path, copied_path = _write(tmp_path, "case.rules", case), _write(tmp_path, "copied.rules", copied)
    differs = False
    for seed in range(3):
        played = _events(case_path, seed)
        assert played == _events(copied_path, seed), f"seed {seed}"
        differs |= played != _events(FINANCE, seed)
    assert differs  # the case changed some game: the comparison is not of two copies of the base


def test_the_handler_keeps_its_place_name_and_condition_and_records_the_case(tmp_path):
    program = load_file(_write(tmp_path, "case.rules", RENT_CASE))
    rent = [h for h in program.decls if isinstance(h, ast.Handler) and h.name == "rent"]
    assert len(rent) == 1
    assert rent[0].span.file == str(FINANCE)  # the base's handler, where it was
    assert [s.line for s in rent[0].cases] == [2, 4]  # the variant's two cases
    outer = rent[0].body.statements[0]
    assert isinstance(outer, ast.If) and outer.span.line == 4  # the last case is tested first
    assert isinstance(outer.orelse.statements[0], ast.If) and outer.orelse.statements[0].span.line == 2


def test_a_case_that_renames_the_thing_is_refused(tmp_path):
    path = _write(tmp_path, "bad.rules", f"""extends "{FINANCE}"
replace on land Lease q as rent only when q.houses == 0:
    pass
""")
    with pytest.raises(RulesError) as err:
        load_file(path)
    d = err.value.diagnostics[0]
    assert d.code == "R0518" and d.span.line == 2
    assert "`q`" in d.message and "`p`" in d.message
    assert "on land Lease p" in d.help


def test_a_case_of_a_missing_handler_names_the_nearest(tmp_path):
    path = _write(tmp_path, "bad.rules", f"""extends "{FINANCE}"
replace on land Lease as rnt only when true:
    pass
""")
    with pytest.raises(RulesError) as err:
        load_file(path)
    d = err.value.diagnostics[0]
    assert d.code == "R0510" and "`replace rnt only when …`" in d.message and "rent" in (d.help or "")


def test_diff_shows_the_case_as_a_change_of_the_handler_at_the_variants_line(tmp_path):
    from rulesc.diff import changes
    path = _write(tmp_path, "case.rules", CASE)
    found = changes(load_rules(str(FINANCE)), load_rules(str(path)))
    assert [(c.what, c.category, c.name) for c in found] == [("changed", "handler", "on debt")]
    assert found[0].where == f"{path}:2"
    assert "only when creditor != bank" in found[0].variant and "eliminate debtor" in found[0].variant


def test_the_judge_blames_the_case_line(tmp_path):
    from rulesc.judge.units import changes
    path = _write(tmp_path, "case.rules", CASE)
    found = changes(load_rules(str(path)).program, load_rules(str(FINANCE)).program)
    assert [(c.label, c.span.line) for c in found] == [("`on debt`", 2)]
    assert {"creditor", "Lease", "debtor"} <= found[0].names
