"""`rulesc check --format sarif` is a valid SARIF 2.1.0 log (checked against the standard's JSON schema,
shipped in tests/sarif_data/), with a rule for every registered code and a result with its region for
every diagnostic; `rulesc explain CODE` prints the code's entry of docs/errors/README.md."""

from __future__ import annotations

import json
import re
from pathlib import Path

import jsonschema
import pytest

import clirun
from rulesc import explain
from rulesc.dsl import codes

ROOT = Path(__file__).resolve().parent.parent
SCHEMA = json.loads((Path(__file__).parent / "sarif_data" / "sarif-schema-2.1.0.json").read_text("utf-8"))
MINIMAL = (Path(__file__).parent / "cli_data" / "minimal.rules").read_text("utf-8")
GAMES = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "games").glob("*.rules"))


def rulesc(*args, cwd=ROOT, timeout=300):
    proc = clirun.rulesc(*args, timeout=timeout, cwd=cwd)
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc.returncode, proc.stdout, proc.stderr


def sarif(*args, cwd=ROOT) -> tuple[int, dict]:
    code, out, err = rulesc("check", "--format", "sarif", *args, cwd=cwd)
    log = json.loads(out)
    jsonschema.Draft4Validator(SCHEMA).validate(log)
    return code, log


def test_the_schema_is_the_standard_one():
    jsonschema.Draft4Validator.check_schema(SCHEMA)
    assert SCHEMA["title"] == "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"
    assert SCHEMA["properties"]["version"]["enum"] == ["2.1.0"]


@pytest.mark.slow
@pytest.mark.parametrize("game", GAMES)
def test_every_shipped_game_gives_a_valid_log_with_a_rule_for_every_code(game):
    code, log = sarif("--static", game)
    assert code == 0
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    assert ids[:len(codes.REGISTRY)] == list(codes.REGISTRY)
    assert "invariant" in ids
    r0205 = rules[ids.index("R0205")]
    assert r0205["name"] == "unknown-name" and r0205["shortDescription"]["text"] == "unknown name"
    assert r0205["help"]["markdown"].startswith("### R0205\n")
    assert [r for r in run["results"] if r["level"] == "error"] == []


@pytest.mark.slow
def test_diagnostics_become_results_with_regions_and_related_locations(tmp_path):
    text = MINIMAL.replace("pay salary from bank", "pay salry from bank", 1) \
        .replace("param salary = $100", "param salary = $100\nparam salary = $200", 1)
    (tmp_path / "broken.rules").write_text(text, encoding="utf-8")
    code, log = sarif("--static", "broken.rules", cwd=tmp_path)
    assert code == 1
    (run,) = log["runs"]
    rules = run["tool"]["driver"]["rules"]
    by_rule = {r["ruleId"]: r for r in run["results"]}
    assert {"R0202", "R0205"} <= set(by_rule)
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
    unknown = by_rule["R0205"]
    lines = text.splitlines()
    line = next(i for i, s in enumerate(lines, 1) if "pay salry" in s)
    location = unknown["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "broken.rules", "uriBaseId": "%SRCROOT%"}
    assert location["region"]["startLine"] == line
    assert location["region"]["startColumn"] == lines[line - 1].index("salry") + 1
    assert location["region"]["endColumn"] == lines[line - 1].index("salry") + 1 + len("salry")
    assert "help: did you mean `salary`?" in unknown["message"]["text"]
    duplicate = by_rule["R0202"]
    first = next(i for i, s in enumerate(lines, 1) if "param salary = $100" in s)
    assert duplicate["relatedLocations"][0]["physicalLocation"]["region"]["startLine"] == first
    assert run["invocations"] == [{"executionSuccessful": True}]


@pytest.mark.slow
def test_a_missing_file_is_a_valid_log_and_exit_2(tmp_path):
    code, log = sarif("--static", "nowhere.rules", cwd=tmp_path)
    assert code == 2
    (run,) = log["runs"]
    assert [r["ruleId"] for r in run["results"]] == ["R0001"]
    assert run["invocations"] == [{"executionSuccessful": False}]


@pytest.mark.slow
def test_a_broken_invariant_is_a_result_at_the_rule_that_broke_it():
    code, log = sarif("--examples", "20", "tests/properties_data/houses.rules")
    assert code == 1
    (run,) = log["runs"]
    (result,) = [r for r in run["results"] if r["ruleId"] == "invariant"]
    assert "houses never exceed five" in result["message"]["text"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "tests/properties_data/houses.rules"
    line = location["region"]["startLine"]
    assert "houses" in (ROOT / "tests/properties_data/houses.rules").read_text("utf-8").splitlines()[line - 1]


@pytest.mark.slow
def test_explain_prints_the_docs_entry():
    code, out, _ = rulesc("explain", "R0205")
    assert code == 0
    page = (ROOT / "docs" / "errors" / "README.md").read_text("utf-8")
    assert out.startswith("### R0205\n") and out in page
    assert "### R0206" not in out
    assert rulesc("explain", "r205")[1] == out  # case and leading zeros do not matter
    assert rulesc("explain", "unknown-name")[1] == out  # nor whether the code or its name is given


def test_explain_an_unknown_code_is_a_usage_error():
    code, out, err = rulesc("explain", "R0299")
    assert code == 2 and out == ""
    assert "no diagnostic code `R0299`" in err and "R0209" in err


def test_every_code_of_the_index_has_an_entry_and_every_entry_is_in_the_index():
    page = explain.page()
    headings = re.findall(r"^### (R\d{4})$", page, re.MULTILINE)
    assert headings and sorted(headings) == sorted(codes.REGISTRY)
    for code in codes.REGISTRY:
        assert explain.entry(code).startswith(f"### {code}\n")
