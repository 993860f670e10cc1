"""`rulesc test --format junit`: JUnit XML with one test case per scenario, read back with an XML parser."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

import clirun

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "games").glob("*.rules"))


def rulesc(*args, cwd=ROOT):
    proc = clirun.rulesc(*args, timeout=300, cwd=cwd)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_scenario_of_a_shipped_game_is_a_passing_test_case(game):
    code, text, _ = rulesc("test", game)
    passes = [line.split()[2:] for line in text.splitlines() if line.startswith("PASS")]
    code, out, _ = rulesc("test", "--format", "junit", game)
    assert code == 0
    root = ET.fromstring(out)
    (suite,) = root.findall("testsuite")
    cases = suite.findall("testcase")
    assert suite.get("name") == game and suite.get("failures") == "0" and suite.get("errors") == "0"
    assert int(suite.get("tests")) == len(cases) == len(passes) > 0
    assert root.get("tests") == str(len(cases))
    assert [c.get("name") for c in cases] == [" ".join(words) for words in passes]
    for case in cases:
        assert case.find("failure") is None
        source = (ROOT / case.get("file")).read_text("utf-8").splitlines()
        assert source[int(case.get("line")) - 1].startswith(f'scenario "{case.get("name")}"')
    assert out == rulesc("test", "--format", "junit", game)[1]  # byte for byte the same: no times


def test_a_failing_scenario_is_a_failure_with_its_messages_and_a_missing_file_an_error(tmp_path):
    variant = tmp_path / "house.rules"
    variant.write_text(f'extends "{(ROOT / "games" / "finance.rules").as_posix()}"\n\n'
                       "override param circuit_income = $200\n\n"
                       'scenario "the house rule\'s own, wrong":\n'
                       "    players Ann, Bob\n"
                       "    expect Ann.cash == $1\n", encoding="utf-8")
    code, out, _ = rulesc("test", "--format", "junit", "house.rules", "missing.rules", cwd=tmp_path)
    assert code == 2  # a file that cannot be read is an I/O error, as in text
    root = ET.fromstring(out)
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["house.rules", "missing.rules"]
    failed = [c for c in suites[0].findall("testcase") if c.find("failure") is not None]
    assert [c.get("name") for c in failed] == ["the house rule's own, wrong"]
    assert int(suites[0].get("failures")) == 1 and "cash" in failed[0].find("failure").get("message")
    # a base's scenario the house rule changes is CHANGED, as `check` and `test` say: skipped, with why
    changed = [c for c in suites[0].findall("testcase") if c.find("skipped") is not None]
    assert int(suites[0].get("skipped")) == len(changed) > 0
    circuit = next(c for c in changed if c.get("name") == "$250 every time around the board")
    skipped = circuit.find("skipped")
    assert skipped.get("message").startswith("CHANGED by the house rule: ") and "cash" in skipped.get("message")
    assert circuit.get("classname").endswith("games.finance")  # the scenario is written in the base
    assert all(line.split(":")[0].endswith("finance.rules") for line in skipped.text.splitlines())
    (missing,) = suites[1].findall("testcase")
    assert missing.find("error") is not None and "R0001" in missing.find("error").text
    assert root.get("errors") == "1" and root.get("failures") == str(len(failed))


def test_text_and_check_give_an_inherited_scenario_the_same_verdict(tmp_path):
    variant = tmp_path / "house.rules"
    variant.write_text(f'extends "{(ROOT / "games" / "finance.rules").as_posix()}"\n\n'
                       "override param circuit_income = $200\n", encoding="utf-8")
    code, out, _ = rulesc("test", "house.rules", cwd=tmp_path)
    assert code == 0, out  # only the file's own scenarios can fail it
    assert re.search(r"^CHANGED +.*finance\.rules:\d+  \$250 every time around the board$", out, re.M), out
    assert "FAIL" not in out
    code, out, _ = rulesc("check", "--examples", "0", "--games", "0", "house.rules", cwd=tmp_path)
    assert re.search(r"^  CHANGED .*finance\.rules:\d+  \$250 every time around the board$", out, re.M), out
