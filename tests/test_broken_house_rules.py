"""The house-rule mistakes of examples/broken/ (a variant of examples/broken/base.rules each), and what
`rulesc check` says of them: each exits 1 naming the author's line, a static mistake as a diagnostic
(an override of the wrong type, an `extends` cycle, a handler restated word for word) and a dynamic one
as a broken invariant with a failure that replays (`run --check`, `simulate --check`), also as JSON; a
legitimate second payment is only a warning and a changed base scenario. Declared invariants are
checked where the game settles, not between two `set`s of one rule, and only when what they read has
changed."""

from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import pytest

from rulesc.cli import main

HERE = Path(__file__).resolve().parent
DATA = HERE.parent / "examples" / "broken"


_RUNS: dict[tuple[str, ...], tuple[int, str, str]] = {}


def run(capsys, *argv):
    """`rulesc ARGV` in this process. A command on the files of examples/broken/ alone is run once
    and its output kept: several tests read the same check (or replay) of the same file, seeded."""
    argv = tuple(str(a) for a in argv)
    if argv in _RUNS:
        return _RUNS[argv]
    code = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    if all(not a.startswith("/") or Path(a).parent == DATA for a in argv):
        _RUNS[argv] = code, out, err
    return code, out, err


# ---- variants: static diagnostics ----------------------------------------------------------------

def test_a_wrongly_typed_override_is_reported_at_the_variant_line(capsys):
    path = DATA / "override_wrong_type.rules"
    code, out, err = run(capsys, "check", "--static", path)
    assert code == 1
    assert re.search(r"override_wrong_type\.rules:5:\d+: error\[R0514\]: `override param starting_cash` "
                     r"gives a `count`, but the base's `starting_cash` is a `money`", err), err
    assert re.search(r"note: the base declares `starting_cash` as a `money` at .*finance\.rules:\d+", err), err
    # one slip, one error: the base's uses of `starting_cash` are checked as money, not reported too;
    # the help is the `$`
    assert err.count("error[") == 1, err
    assert "help: write it as money, as the base does: `$5`" in err, err
    code, out, _ = run(capsys, "check", "--static", "--format", "json", path)
    found = [d for d in json.loads(out)[0]["diagnostics"] if d["code"] == "R0514"]
    assert found and found[0]["path"].endswith("override_wrong_type.rules") and found[0]["span"]["line"] == 5
    assert found[0]["labels"][0]["path"].endswith("finance.rules")


def test_a_two_file_extends_cycle_names_both_files(capsys):
    code, out, err = run(capsys, "check", "--static", DATA / "cycle_a.rules")
    assert code == 1
    first = err.splitlines()[0]
    assert "error[R0512]" in first and first.startswith(str(DATA / "cycle_b.rules") + ":2:1")
    assert "`cycle_a.rules` extends `cycle_b.rules` extends `cycle_a.rules`" in first
    assert re.search(r"note: `cycle_a\.rules` extends `cycle_b\.rules` at .*cycle_a\.rules:2:1", err), err


# ---- broken house rules that `rulesc check` must catch, at their line, replayably ---------------------

FAST = ("--examples", "30", "--games", "5")


def _replay_command(out: str) -> list[str]:
    lines = [line for line in out.splitlines() if line.strip().startswith("replay this game: rulesc ")]
    assert len(lines) == 1, out
    return shlex.split(lines[0].split("replay this game: rulesc ", 1)[1])


def _check_fails(capsys, name: str, invariant: str, line_text: str, *options):
    """`rulesc check` exits 1 on `name`, the failure names the line of that file holding `line_text`,
    and the printed replay command plays the same game to the same failure."""
    path = DATA / name
    code, out, err = run(capsys, "check", *(options or FAST), path)
    assert code == 1, out + err
    assert re.search(rf"^  FAILED +{re.escape(invariant)}\b", out, re.M), out
    lines = path.read_text(encoding="utf-8").splitlines()
    number = next(i for i, text in enumerate(lines, 1) if line_text in text)
    assert f"  rule: {name}:{number}    " in out, out
    message = next(line for line in out.splitlines() if line.startswith("FAILED: " + invariant))
    argv = _replay_command(out)
    assert argv[:2] == ["run", str(path)] and "--check" in argv
    code, replayed, _ = run(capsys, *argv)
    assert code == 1, replayed
    assert message in replayed and f"  rule: {name}:{number}    " in replayed, replayed
    return out


@pytest.mark.slow
def test_an_out_player_who_keeps_his_cash_is_caught(capsys):
    out = _check_fails(capsys, "out_keeps_cash.rules", "an out player holds nothing", "eliminate player")
    assert re.search(r"is out \(eliminated at event #\d+\) but still holds \d+ in `cash`", out), out


@pytest.mark.slow
def test_a_rule_that_gives_turn_after_turn_is_caught(capsys):
    out = _check_fails(capsys, "extra_turn_forever.rules", "the game progresses", "extra turn for player")
    assert "turns in a row" in out


@pytest.mark.slow
def test_a_game_in_which_nothing_changes_is_caught(capsys):
    out = _check_fails(capsys, "stall.rules", "the game progresses", "roll 1 die as d")
    assert "nothing but positions has changed in 60 turns" in out


@pytest.mark.slow
def test_an_invariant_that_breaks_only_after_200_turns_is_found_by_the_search(capsys):
    out = _check_fails(capsys, "late_invariant.rules", "the short game is over by turn 240",
                       'invariant "the short game is over by turn 240"')
    assert "found by the search" in out and "241 turns" in out


@pytest.mark.slow
def test_an_invariant_that_breaks_only_after_200_turns_is_found_by_whole_games(capsys):
    out = _check_fails(capsys, "late_invariant.rules", "the short game is over by turn 240",
                       'invariant "the short game is over by turn 240"', "--examples", "0", "--games", "5")
    assert re.search(r"whole game: seed \d+, \d players, 241 turns", out), out
    assert re.search(r"replay this game: rulesc run \S+ --players \d --seed \d+ --check$", out, re.M), out


def test_rent_paid_twice_is_an_error_at_the_restated_handler(capsys):
    code, out, err = run(capsys, "check", *FAST, DATA / "rent_twice.rules")
    assert code == 1, out + err
    assert re.search(r"rent_twice\.rules:7:1: error\[R0411\]: this handler repeats the one at base\.rules:52 word "
                     r"for word, so every time a player lands on `Lease` its payments are made twice", err), err
    assert re.search(r"note: the same rule, first written here at \S*base\.rules:52:1", err), err
    assert "R0410" not in err  # the error says it all: no warning for the same pair besides


@pytest.mark.slow
def test_a_second_payment_on_the_same_arrival_is_a_warning_and_a_changed_base_scenario(capsys, tmp_path):
    """A toll beside the rent (same arrival, same condition, another payment) is a legitimate house
    rule: R0410 warns, the base's scenario is reported CHANGED as information, and check exits 0."""
    toll = tmp_path / "toll.rules"
    toll.write_text(f'extends "{DATA / "base.rules"}"\n\n'
                    "on land Lease p when p.owner != none and p.owner != player:\n"
                    "    pay $10 from player to bank\n", encoding="utf-8")
    code, out, err = run(capsys, "check", *FAST, toll)
    assert "scenarios: 0 of 1 pass" in out
    assert re.search(r"^  CHANGED .*base\.rules:\d+  rent is paid to the owner$", out, re.M), out
    assert "expected `Ann.cash == $290`, but the left side is `$280`" in out, out
    assert code == 0, out + err
    assert re.search(r"toll\.rules:3:1: warning\[R0410\]: this handler and the one at base\.rules:\d+ both run "
                     r"when a player lands on `Lease` under the same condition, and both move money", err), err
    assert re.search(r"note: the other handler at \S*base\.rules:\d+:1", err), err
    code, out, _ = run(capsys, "check", "--format", "json", *FAST, toll)
    scenarios = json.loads(out)[0]["scenarios"]
    assert scenarios["changed_by_variant"] == 1 and scenarios["failed"] == 0
    assert scenarios["scenarios"][0]["inherited"] is True


def test_a_failing_scenario_of_the_file_itself_fails_the_check(capsys, tmp_path):
    text = (DATA / "base.rules").read_text(encoding="utf-8")
    broken = tmp_path / "own.rules"
    broken.write_text(text.replace("expect Bob.cash == $310", "expect Bob.cash == $320"), encoding="utf-8")
    code, out, _ = run(capsys, "check", "--examples", "5", "--games", "0", broken)
    assert code == 1
    assert re.search(r"^  FAIL +\S*own\.rules:\d+  rent is paid to the owner$", out, re.M), out


@pytest.mark.slow
def test_the_base_game_of_these_house_rules_checks_clean(capsys):
    code, out, err = run(capsys, "check", *FAST, DATA / "base.rules")
    assert code == 0, out + err
    assert "result: all invariants hold" in out and "scenarios: 1 of 1 pass" in out


@pytest.mark.slow
def test_json_gives_the_failure_as_data(capsys):
    code, out, _ = run(capsys, "check", "--format", "json", *FAST, DATA / "out_keeps_cash.rules")
    assert code == 1
    props = json.loads(out)[0]["properties"]
    assert props["ok"] is False and "report" not in props
    failure = next(f for f in props["failures"] if f["invariant"] == "an out player holds nothing")
    assert failure["rule"]["file"].endswith("out_keeps_cash.rules") and failure["rule"]["line"] == 7
    assert failure["rule"]["text"] == "eliminate player"
    assert failure["before"]["holds"] == [] and any("`cash`" in h for h in failure["after"]["holds"])
    events = failure["events"]
    assert events[failure["event_index"]]["event"] == "eliminate"
    assert all({"seq", "turn", "event", "rule"} <= set(e) for e in events)
    assert failure["replay"].startswith("rulesc run ") and failure["replay_args"][0] == "run"
    status = {i["name"]: i["ok"] for i in props["invariants"]}
    assert status["an out player holds nothing"] is False and status["money is conserved"] is True


def test_simulate_check_lists_the_games_that_break_an_invariant(capsys):
    path = DATA / "out_keeps_cash.rules"
    code, out, _ = run(capsys, "simulate", path, "-n", "20", "--check", "--quiet")
    assert code == 1
    assert re.search(r"^invariants: \d+ of 20 games broke one", out, re.M), out
    replay = next(line for line in out.splitlines() if line.strip().startswith("replay: rulesc "))
    code, replayed, _ = run(capsys, *shlex.split(replay.split("replay: rulesc ", 1)[1]))
    assert code == 1 and "FAILED: an out player holds nothing" in replayed
    code, out, _ = run(capsys, "simulate", DATA / "base.rules", "-n", "5", "--check", "--quiet")
    assert code == 0 and "all held" in out


def test_run_draws_refuses_a_word_that_is_not_draws(capsys):
    code, _, err = run(capsys, "run", DATA / "base.rules", "--draws", "nonsense")
    assert code == 2 and "--draws" in err


# ---- every file of examples/broken/: exit 1, the responsible line of that file named --------------

# file -> (a text on the responsible line, how it is found: a diagnostic's code, or FAILED/FAIL)
BROKEN = {
    "out_keeps_cash.rules": ("eliminate player", "FAILED"),
    "extra_turn_forever.rules": ("extra turn for player", "FAILED"),
    "stall.rules": ("roll 1 die as d", "FAILED"),
    "late_invariant.rules": ('invariant "the short game is over by turn 240"', "FAILED"),
    "money_from_nowhere.rules": ("set player.cash = player.cash + $50", "FAILED"),
    "rent_twice.rules": ("on land Lease p when", "error[R0411]"),
    "override_wrong_type.rules": ("override param starting_cash = 5", "error[R0514]"),
    "cycle_a.rules": ('extends "cycle_b.rules"', "error[R0512]"),
    "cycle_b.rules": ('extends "cycle_a.rules"', "error[R0512]"),
    "procedure_calls_itself.rules": ("do payout(q)", "error[R0413]"),
    "kept_card_unused.rules": ('card Voucher "A $50 voucher', "warning[R0412]"),
    "handler_after_turn_ends.rules": ("on land School:                                assumed", "error[R1201]"),
    "out_player_decides.rules": ('choose "last wish" by player:', "error[R1202]"),
    "stored_player_decides.rules": ('choose "waive luxury" by chair:', "warning[R1203]"),  # exit 1 under --strict
    "hidden_cash_in_options.rules": ('choose "takeover target" by player', "error[R1204]"),
    "counter_never_reset.rules": ("if player.served == 3:", "error[R1205]"),
    "money_pot_never_paid_out.rules": ("pay prize from bank to player", "error[R1102]"),
    "auction_starter_pays.rules": ("pay sale.price from player to bank", "error[R1103]"),
    "sell_without_ownership.rules": ("pay 50% of p.value rounded down from bank to player", "error[R1104]"),
    "negative_price.rules": ("pay bankomat_bonus from bank to player", "error[R1105]"),
}


WARNED_ONLY = {"stored_player_decides.rules"}  # a warning: exit 1 under `--strict`


def test_examples_broken_holds_house_rules_each_tested_and_with_a_comment():
    """Each file is a case of a test: of this file's (BROKEN) or another's that names it."""
    files = sorted(p.name for p in DATA.glob("*.rules") if p.name != "base.rules")
    tests = "".join(p.read_text(encoding="utf-8") for p in HERE.glob("test_*.py"))
    assert set(BROKEN) <= set(files) and len(files) >= 10
    assert [name for name in files if f'"{name}"' not in tests] == []
    for name in files:
        first = (DATA / name).read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# "), name  # each says what is wrong with it


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(BROKEN))
def test_check_exits_1_on_each_broken_house_rule_and_names_its_line(capsys, name):
    path = DATA / name
    text, how = BROKEN[name]
    number = next(i for i, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)
    strict = ("--strict",) if name in WARNED_ONLY else ()  # a warning alone fails the check under `--strict`
    code, out, err = run(capsys, "check", *FAST, *strict, path)
    assert code == 1, out + err
    if strict:
        assert run(capsys, "check", *FAST, path)[0] == 0, "a warning alone passes a plain check"
    if how == "FAILED":
        assert re.search(rf"^  rule: {re.escape(name)}:{number} ", out, re.M), out
        argv = _replay_command(out)
        message = next(line for line in out.splitlines() if line.startswith("FAILED: "))
        code, replayed, _ = run(capsys, *argv)
        assert code == 1 and message in replayed and f"  rule: {name}:{number}    " in replayed, replayed
    else:
        # The diagnostic, and this file's line: where it is reported, or in a note (a cycle is
        # reported at the file that closes it, with a note at the other).
        assert how in err and re.search(rf"\b{re.escape(name)}:{number}:\d+", err), err


@pytest.mark.slow
def test_the_kept_voucher_also_fails_its_own_scenario(capsys):
    code, out, err = run(capsys, "check", *FAST, DATA / "kept_card_unused.rules")
    assert code == 1
    assert re.search(r"^  FAIL +\S*kept_card_unused\.rules:14  a kept voucher is cashed at Go$", out, re.M), out


# ---- declared invariants hold where the game is settled, not between two `set`s of one rule -------

LAPS = '''extends "{base}"

global:
    laps: count = 0
    paid_laps: count = 0

on pass Go:
    set laps = laps + 1
{second}
invariant "every lap is paid": laps == paid_laps
'''


@pytest.mark.slow
def test_an_invariant_over_two_fields_one_rule_sets_in_turn_holds(capsys, tmp_path):
    path = tmp_path / "together.rules"
    path.write_text(LAPS.format(base=DATA / "base.rules", second="    set paid_laps = paid_laps + 1\n"),
                    encoding="utf-8")
    code, out, err = run(capsys, "check", *FAST, path)
    assert code == 0 and "result: all invariants hold" in out, out + err
    assert re.search(r"^  ok +every lap is paid\b", out, re.M), out


@pytest.mark.slow
def test_an_invariant_still_false_when_the_rule_ends_breaks_at_the_event_that_made_it_false(capsys, tmp_path):
    path = tmp_path / "apart.rules"
    path.write_text(LAPS.format(base=DATA / "base.rules",
                                second="    if laps < 3:\n        set paid_laps = paid_laps + 1\n"),
                    encoding="utf-8")
    code, out, err = run(capsys, "check", *FAST, path)
    assert code == 1, out + err
    # The position is the `set` after which it became false (and stayed false), not the settling.
    assert "  rule: apart.rules:8    set laps = laps + 1" in out, out
    marked = next(line for line in out.splitlines() if line.startswith("    >> "))
    assert "set       target=global field=laps old=2 new=3" in marked and marked.endswith("apart.rules:8"), out
    code, out, _ = run(capsys, "check", "--format", "json", *FAST, path)
    failure = json.loads(out)[0]["properties"]["failures"][0]
    event = failure["events"][failure["event_index"]]
    assert event["event"] == "set" and event["field"] == "laps" and event["new"] == 3
    assert failure["after"] == {"holds": False, "event": "set", "target": "global", "field": "laps", "old": 2,
                                "new": 3}


@pytest.mark.slow
def test_an_out_player_with_an_empty_account_holds_nothing(capsys, tmp_path):
    """Regression: an account field is an `Account`, always truthy; an out player's empty deposit is
    not money held (Wall Street's check reported `Account(P1.deposit)` at every elimination)."""
    text = (DATA / "base.rules").read_text(encoding="utf-8")
    text = text.replace("    cash: money = starting_cash\n", "    cash: money = starting_cash\n    deposit: account\n")
    path = tmp_path / "deposits.rules"
    path.write_text(text, encoding="utf-8")
    code, out, err = run(capsys, "check", *FAST, path)
    assert code == 0 and re.search(r"^  ok +an out player holds nothing", out, re.M), out + err


def test_a_declared_invariant_is_evaluated_only_when_what_it_reads_has_changed():
    """Issue #11's cost: "houses never exceed five" reads `houses`, so it is evaluated after the
    events that changed a `houses` field (and where the game settles), not after every event."""
    from rulesc.interpreter.agents import make_agents
    from rulesc.interpreter.engine import Game
    from rulesc.interpreter.rules import load_rules
    from rulesc.properties import play_checked

    rules = load_rules(str(DATA / "base.rules"))
    inv = rules.invariants[0]
    condition, calls = inv.condition, []

    def counted(g, e):
        calls.append(len(g.events))
        return condition(g, e)
    counted.reads = condition.reads
    assert counted.reads == {"houses"}
    inv.condition = counted
    game = Game(rules, 3, seed=1, agents=make_agents("heuristic", 1, 3))
    assert play_checked(rules, game) is None
    changes = sum(1 for e in game.events if e.kind == "set" and e.payload[1] == "houses")
    assert changes and len(calls) == changes + 1  # once at the start, then once per change
    assert len(calls) < len(game.events) / 10
