"""The judge (rulesc/judge/): what `rulesc check` finds in the whole games it plays, and in a house rule's
games set against its base's on the same seeds.

Each broken house rule of examples/broken/ that only play shows is checked: the finding's code and
severity, its position in the broken file (the line a new user would have to change), and the exit
status with and without `--strict`. `allow` turns a warning off where it is written, and nothing else.
The shipped games pass `--strict`.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from clirun import rulesc

ROOT = Path(__file__).resolve().parent.parent
BROKEN = ROOT / "examples" / "broken"
GAMES = ROOT / "games"
QUICK = ("--examples", "0", "--games", "20")  # 20 whole games only: the findings come from them


def _line_of(path: Path, text: str) -> int:
    return next(i for i, line in enumerate(path.read_text("utf-8").splitlines(), 1) if text in line)


_RUNS: dict = {}


def check(path: Path, *options):
    key = (path, options)
    if key not in _RUNS:
        _RUNS[key] = rulesc("check", *QUICK, *options, path)
    return _RUNS[key]


def finding(out: str, code: str) -> re.Match:
    found = re.search(rf"^(?P<file>\S+?):(?P<line>\d+):(?P<col>\d+): (?P<severity>error|warning)\[{code}\]: "
                      rf"(?P<message>.*)$", out, re.M)
    assert found, out
    return found


CASES = [
    # file, code, severity, the text of the line it must be at
    ("tax_in_the_wrong_unit.rules", "R1301", "warning", "on land Park when"),
    ("no_window_before_rolling.rules", "R1302", "warning", "remove phase prepare"),
    ("deck_never_drawn.rules", "R1303", "warning", "remove phase draw"),
    ("deck_never_drawn.rules", "R1302", "warning", "remove phase draw"),
    ("end_tested_after_turn.rules", "R1303", "warning", "end when crashing"),
    ("win_below_starting_cash.rules", "R1304", "error", "override param win_cash"),
    ("rent_twice_new_handler.rules", "R1307", "warning", "p.houses == 0:"),
    ("second_rent_beside_base.rules", "R1307", "warning", "on land Company c when"),
    ("jail_needs_double_six.rules", "R1306", "warning", "phase try"),
    ("salary_too_high.rules", "R1305", "warning", "override param circuit_income"),
    ("salary_too_high.rules", "R1303", "warning", "override param circuit_income"),
]


@pytest.mark.slow
@pytest.mark.parametrize("name, code, severity, at", CASES, ids=[f"{c[0]}-{c[1]}" for c in CASES])
def test_a_broken_house_rule_is_found_at_its_line(name, code, severity, at):
    path = BROKEN / name
    result = check(path)
    found = finding(result.stdout, code)
    assert Path(found["file"]).resolve() == path.resolve(), found.group(0)
    assert int(found["line"]) == _line_of(path, at), found.group(0)
    assert found["severity"] == severity
    assert "Traceback" not in result.stdout + result.stderr
    if severity == "error":
        assert result.returncode == 1, result.stdout


@pytest.mark.slow
def test_warnings_alone_pass_without_strict_and_fail_with_it():
    path = BROKEN / "no_window_before_rolling.rules"
    result = check(path)
    assert result.returncode == 0, result.stdout
    assert "result: 0 errors, 1 warning from the whole games" in result.stdout
    strict = check(path, "--strict")
    assert strict.returncode == 1 and finding(strict.stdout, "R1302")


@pytest.mark.slow
def test_a_lost_base_rule_is_blamed_on_the_change_that_ran_it_and_replays_both_games():
    path = BROKEN / "deck_never_drawn.rules"
    out = check(path).stdout
    lost = finding(out, "R1302")
    assert "card `WheelerDealer." in lost["message"]
    block = re.match(r"[^\n]*\n(?:[ \d][^\n]*\n)*", out[lost.start():])[0]  # the finding and its indented lines
    assert re.search(r"note: card `WheelerDealer\.\w+` is here at .*wheeler\.rules:\d+", block), block
    replays = re.findall(r"note: (?:replay a base game|the same seed in this variant): rulesc (.*)", block)
    assert len(replays) == 2, block
    base, variant = (shlex.split(r) for r in replays)
    assert base[1].endswith("games/wheeler.rules") and variant[1].endswith("deck_never_drawn.rules")
    assert base[2:] == variant[2:], "the two replays play the same seed and seats"


@pytest.mark.slow
def test_the_replay_of_a_double_charge_shows_both_handlers_paying(tmp_path):
    path = BROKEN / "rent_twice_new_handler.rules"
    out = check(path).stdout
    command = re.search(r"note: replay: rulesc (.*)", out[finding(out, "R1307").start():])[1]
    log = tmp_path / "log.jsonl"
    ran = rulesc(*shlex.split(command), "--log", log)
    assert ran.returncode == 0, ran.stderr
    lines = log.read_text("utf-8").splitlines()
    first, second = _line_of(path, "pay p.rents[0] from"), _line_of(path, "pay p.rents[0] * 2")
    rules = [re.search(r'"rule":"([^"]*)"', line)[1] for line in lines if '"event":"pay"' in line]
    pairs = list(zip(rules, rules[1:]))
    assert (f"rent_twice_new_handler.rules:{first}", f"rent_twice_new_handler.rules:{second}") in pairs


@pytest.mark.slow
def test_allow_on_the_blamed_line_says_the_warning_is_meant(tmp_path):
    source = (BROKEN / "no_window_before_rolling.rules").read_text("utf-8")
    house = tmp_path / "house.rules"
    house.write_text(source.replace('extends "../../games/wallstreet.rules"', f'extends "{GAMES / "wallstreet.rules"}"')
                     .replace("remove phase prepare", "remove phase prepare   allow base-rule-lost"), "utf-8")
    result = rulesc("check", *QUICK, "--games", "5", "--strict", house)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "R1302" not in result.stdout and "(1 allowed by `allow`)" in result.stdout
    # by its code too; and an allow elsewhere does not reach it
    house.write_text(source.replace('extends "../../games/wallstreet.rules"', f'extends "{GAMES / "wallstreet.rules"}"')
                     .replace("remove phase prepare", "remove phase prepare   allow R1302"), "utf-8")
    assert rulesc("check", *QUICK, "--games", "5", "--strict", house).returncode == 0
    house.write_text(source.replace('extends "../../games/wallstreet.rules"', f'extends "{GAMES / "wallstreet.rules"}"')
                     + "\nparam unrelated = 1   allow base-rule-lost\n", "utf-8")
    result = rulesc("check", *QUICK, "--games", "5", "--strict", house)
    assert result.returncode == 1 and "R1302" in result.stdout


def test_an_error_cannot_be_allowed_and_an_unknown_name_gets_the_nearest(tmp_path):
    house = tmp_path / "house.rules"
    house.write_text(f'extends "{GAMES / "finance.rules"}"\n\n'
                     "param bonus = $10   allow handler-written-twice\n"
                     "param other = $10   allow base-rule-lots\n", "utf-8")
    result = rulesc("check", "--static", house)
    assert result.returncode == 1
    assert re.search(r"house\.rules:3:\d+: error\[R0416\]: `allow handler-written-twice`: R0411", result.stderr), \
        result.stderr
    assert re.search(r"house\.rules:4:\d+: error\[R0205\]: `allow base-rule-lots`", result.stderr), result.stderr
    assert "base-rule-lost" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize("game", sorted(p.name for p in GAMES.glob("*.rules")))
def test_the_shipped_games_pass_strict(game):
    result = rulesc("check", "--examples", "10", "--strict", GAMES / game)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "what the whole games show:\n" not in result.stdout, result.stdout


@pytest.mark.slow
def test_the_whole_games_are_the_ones_simulate_plays_by_default():
    from rulesc.dsl.checker import check_program
    from rulesc.dsl.variants import load_file
    from rulesc.interpreter.rules import compile_rules
    from rulesc.properties import check_properties
    from rulesc.runner import default_players

    rules = compile_rules(check_program(load_file(GAMES / "finance.rules")))
    report = check_properties(rules, examples=0, seed=7, games=5)
    assert report.whole_seats == default_players(rules.players_range) == 4
    assert [p.seed for p in report.profiles] == [7, 8, 9, 10, 11]
    assert all(p.players == 4 for p in report.profiles)


@pytest.mark.slow
def test_check_fails_on_the_game_a_default_simulation_crashes_in():
    path = BROKEN / "bump_fee_bills_out_player.rules"
    simulated = rulesc("simulate", "-n", "50", "--quiet", path)
    assert simulated.returncode == 1
    seed = re.search(r"in the game of seed (\d+)", simulated.stderr)[1]
    checked = rulesc("check", "--examples", "0", path)  # the default 50 whole games: simulate's first 50
    assert checked.returncode == 1 and "FAILED  the rules run without crashing" in checked.stdout
    replay = re.search(r"replay this game: rulesc run \S+ --players (\d+) --seed (\d+) --check", checked.stdout)
    assert replay and replay[2] == seed and int(replay[1]) == 4, checked.stdout


@pytest.mark.slow
def test_a_toll_to_the_bank_beside_the_rent_is_not_a_double_charge(tmp_path):
    house = tmp_path / "toll.rules"
    house.write_text(f'extends "{GAMES / "finance.rules"}"\n\n'
                     "on land Lease p when p.owner != none and p.owner != player:\n"
                     "    pay $5 from player to bank\n", "utf-8")
    result = rulesc("check", *QUICK, "--games", "20", house)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "R1307" not in result.stdout


@pytest.mark.slow
def test_a_base_is_played_once_for_every_variant_of_it_checked_and_again_when_it_changes(tmp_path, monkeypatch):
    from rulesc.judge import games
    played = []
    real = games._played_base
    monkeypatch.setattr(games, "_played_bases", {})
    monkeypatch.setattr(games, "_played_base", lambda loaded, *args: played.append(loaded.path) or real(loaded, *args))
    base = tmp_path / "base.rules"
    base.write_text((GAMES / "finance.rules").read_text("utf-8"), "utf-8")
    for name, tax in (("one.rules", 5), ("two.rules", 7)):
        (tmp_path / name).write_text(f'extends "base.rules"\n\non land Lease p when p.owner != none and '
                                     f'p.owner != player:\n    pay ${tax} from player to bank\n', "utf-8")
    both = rulesc("check", *QUICK, "--games", "5", tmp_path / "one.rules", tmp_path / "two.rules")
    assert both.returncode == 0, both.stdout + both.stderr
    assert len(played) == 1  # the base's games, once for the two variants
    alone = rulesc("check", *QUICK, "--games", "5", tmp_path / "two.rules")
    assert len(played) == 1 and alone.stdout in both.stdout  # the same report as when checked beside the other
    base.write_text(base.read_text("utf-8") + "\n# a comment: another text\n", "utf-8")
    assert rulesc("check", *QUICK, "--games", "5", tmp_path / "two.rules").returncode == 0
    assert len(played) == 2  # a changed base is played again
