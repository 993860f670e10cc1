"""`rulesc test --format junit`: JUnit XML with one test case per scenario, read back with an XML parser."""

from __future__ import annotations

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
                       "override param circuit_income = $200\n", encoding="utf-8")
    code, out, _ = rulesc("test", "--format", "junit", "house.rules", "missing.rules", cwd=tmp_path)
    assert code == 2  # a file that cannot be read is an I/O error, as in text
    root = ET.fromstring(out)
    suites = root.findall("testsuite")
    assert [s.get("name") for s in suites] == ["house.rules", "missing.rules"]
    failed = [c for c in suites[0].findall("testcase") if c.find("failure") is not None]
    assert failed and int(suites[0].get("failures")) == len(failed)
    circuit = next(c for c in failed if c.get("name") == "$250 every time around the board")
    failure = circuit.find("failure")
    assert "cash" in failure.get("message")
    assert circuit.get("classname").endswith("games.finance")  # the scenario is written in the base
    assert all(line.startswith(str(ROOT / "games" / "finance.rules") + ":") or
               line.split(":")[0].endswith("finance.rules") for line in failure.text.splitlines())
    (missing,) = suites[1].findall("testcase")
    assert missing.find("error") is not None and "R0001" in missing.find("error").text
    assert root.get("errors") == "1" and root.get("failures") == str(len(failed))
