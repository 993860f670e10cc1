"""Every position a scenario's failure gives names the file its line is in (issue #30, item 7).

A house rule's scenario runs its base's rules: an error in one of them (the roll that rolls two dice
where the scenario forced one) is at the base's line, and must be shown as `finance.rules:136`, with a
note at the scenario's line that ran it, not as `house.rules:136` (a line the house rule may not have).
The same holds the other way (a base's scenario stopped by the house rule's handler), in `rulesc test`,
`rulesc check` (text and JSON) and the JUnit report.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from rulesc.cli import main

ROOT = Path(__file__).resolve().parent.parent
FINANCE = ROOT / "games" / "finance.rules"
ROLL = next(i for i, line in enumerate(FINANCE.read_text(encoding="utf-8").splitlines(), 1)
            if line.strip().startswith("roll 2 dice"))

ONE_DIE = f'''# a house rule's scenario that forces one die
extends "{FINANCE}"

scenario "one die":
    players Ann, Bob
    dice 3
    play turn of Ann
    expect Ann.position == Wayback
'''


def house(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "house.rules"
    path.write_text(text, encoding="utf-8")
    return path


def test_test_names_the_bases_file_for_the_bases_line_and_notes_the_scenarios(tmp_path, capsys):
    path = house(tmp_path, ONE_DIE)
    assert main(["test", str(path)]) == 1
    out = capsys.readouterr().out
    assert f"{FINANCE}:{ROLL}: error[R1001]: the scenario forced 1 dice but the rule rolls 2" in out, out
    assert f"{path}:{ROLL}" not in out
    assert f"note: while the scenario ran its line 7 ({path}:7)" in out


def test_check_text_and_json_name_the_same_file(tmp_path, capsys):
    path = house(tmp_path, ONE_DIE)
    main(["check", "--games", "1", "--examples", "1", str(path)])
    out = capsys.readouterr().out
    assert re.search(rf"^ +{re.escape(str(FINANCE))}:{ROLL}: error\[R1001\]", out, re.M), out
    main(["check", "--games", "1", "--examples", "1", "--format", "json", str(path)])
    data = json.loads(capsys.readouterr().out)
    runs = data[0]["scenarios"]["scenarios"] if isinstance(data, list) else data["scenarios"]["scenarios"]
    (failure,) = next(r for r in runs if r["title"] == "one die")["failures"]
    assert (failure["file"], failure["line"]) == (str(FINANCE), ROLL) and failure["notes"]


def test_junit_names_the_same_file(tmp_path, capsys):
    path = house(tmp_path, ONE_DIE)
    main(["test", "--format", "junit", str(path)])
    out = capsys.readouterr().out
    assert f"{FINANCE}:{ROLL}: error[R1001]" in out and f"{path}:{ROLL}:" not in out


def test_a_bases_scenario_stopped_by_the_house_rules_roll_names_the_house_rule(tmp_path, capsys):
    path = house(tmp_path, f'''# a house rule that rolls one die
extends "{FINANCE}"

replace phase move "Roll one die and move":    assumed "house"
    roll 1 die as d
    move player by d.total
''')
    main(["test", str(path)])
    out = capsys.readouterr().out
    failures = [line for line in out.splitlines() if "error[R1001]" in line]
    assert failures and all(line.strip().startswith(f"{path}:5: error[R1001]: the scenario forced 2 dice")
                            for line in failures), out
    assert f"note: while the scenario ran its line" in out and f"({FINANCE}:" in out
