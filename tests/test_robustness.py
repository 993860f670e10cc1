"""Regression tests for issue #13: no input crashes or hangs rulesc.

Each test is one problem found by fuzzing or by trying the command line as a new user would,
and failed before its fix. A file that checks clean must play without an internal error: the
rules may still be stopped by a runtime diagnostic (R1001, R1002), never by a Python exception.
The command-line cases run `rulesc` in this process (tests/clirun.py), with an alarm only to catch
hangs; the one about pipes runs a subprocess.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import clirun
from rulesc import cli
from rulesc.dsl.checker import check_program
from rulesc.dsl.diagnostics import RulesError
from rulesc.dsl.parser import parse_text

DATA = Path(__file__).parent / "cli_data"
MINIMAL = (DATA / "minimal.rules").read_text(encoding="utf-8")


def broken(old: str, new: str, text: str = MINIMAL) -> str:
    assert old in text, old
    return text.replace(old, new, 1)


def rulesc(*args, timeout=60):
    """`rulesc ARGS` in this process (tests/clirun.py): the exit code, and stdout and stderr together."""
    code, out, err = clirun.rulesc(*args, timeout=timeout)
    return code, out + err


def codes(text: str, path: str = "probe.rules") -> list[str]:
    """The error codes of parsing and checking `text` (empty: it checks clean)."""
    try:
        rules = parse_text(text, path)
    except RulesError as exc:
        return [d.code for d in exc.diagnostics]
    return [d.code for d in check_program(rules).diagnostics if d.is_error]


def write(tmp_path, text: str, name: str = "probe.rules") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


# ---- the internal-error exit code ------------------------------------------------------------------

def test_an_internal_error_has_its_own_exit_code(monkeypatch, capsys):
    def boom(_args):
        raise RuntimeError("a bug")
    parser = cli.build_parser
    monkeypatch.setattr(cli, "build_parser", lambda: _with_func(parser(), boom))
    status = cli.main(["check", "--static", "x.rules"])
    err = capsys.readouterr().err
    assert status == cli.EXIT_INTERNAL == 3
    assert "internal error" in err and "Traceback" not in err


def _with_func(parser, func):
    parser.set_defaults(func=func)
    for action in parser._subparsers._group_actions[0].choices.values():
        action.set_defaults(func=func)
    return parser


# ---- numbers ---------------------------------------------------------------------------------------

HUGE = "1" * 4400


@pytest.mark.parametrize("old,new", [
    ("param salary = $100", f"param salary = ${HUGE}"),
    ("param salary = $100", f"param salary = $100\nparam n = {HUGE}"),
    ("param salary = $100", f"param salary = $100\nparam n = -{HUGE}"),
    ("roll 2 dice as d", "roll 1000000000000000000000000000000 dice as d"),
    ("    start: Go", f"    start: Go\n    first player: highest roll {HUGE} dice"),
])
def test_a_number_too_large_is_a_diagnostic(old, new):
    text = broken(old, new)
    assert codes(text) == ["R0106"]


def test_a_huge_number_in_set_is_a_usage_error(tmp_path):
    status, out = rulesc("run", write(tmp_path, MINIMAL), "--set", f"salary=${HUGE}")
    assert status == 2 and "salary" in out and "Traceback" not in out and "internal" not in out


# ---- --set -----------------------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.parametrize("value", ["salary=$", "salary=", "salary=$5\nparam extra = $1", "9x=$5", "salary=(("])
def test_every_bad_set_value_is_a_usage_error(tmp_path, value):
    path = write(tmp_path, MINIMAL)
    for static in (["--static"], []):
        status, out = rulesc("check", *static, "--examples", "1", path, "--set", value)
        assert status == 2, (static, out)
        assert "Traceback" not in out and "--set" in out


@pytest.mark.slow
@pytest.mark.parametrize("value", ["nosuch=$1", "salary=abc", "salary=5%"])
def test_set_is_checked_with_static_too(tmp_path, value):
    status, out = rulesc("check", "--static", write(tmp_path, MINIMAL), "--set", value)
    assert status == 2 and "Traceback" not in out


# ---- the command line ------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [
    ["check", "--examples", "-3"], ["simulate", "-n", "-5"], ["simulate", "-n", "0"],
    ["run", "--players", "0"], ["play", "--seat", "0"], ["run", "--log", "{dir}"], ["run", "--log", "{dir}/no/x.jsonl"],
])
def test_bad_option_values_are_usage_errors(tmp_path, args):
    path = write(tmp_path, MINIMAL)
    args = [a.replace("{dir}", str(tmp_path)) for a in args]
    status, out = rulesc(args[0], path, *args[1:])
    assert status == 2, out
    assert "Traceback" not in out and "internal error" not in out
    assert "error" in out


def test_version():
    status, out = rulesc("--version")
    assert status == 0 and out.startswith("rulesc ")


# ---- values the checker cannot see: the engine stops them with a diagnostic --------------------------

def run_game(text: str, tmp_path, *args):
    return rulesc("run", write(tmp_path, text), "--seed", "1", *args)


@pytest.mark.slow
@pytest.mark.parametrize("old,new,message", [
    ("roll 2 dice as d", "roll count(players) * 10000000 dice as d", "dice"),
    ("roll 2 dice as d", "roll count(players) - 9 dice as d", "dice"),
    ("move player by d.total", "move player by d.total * 1000000000000", "squares"),
])
def test_unbounded_work_in_one_statement_is_stopped(tmp_path, old, new, message):
    text = broken(old, new)
    assert codes(text) == []
    status, out = run_game(text, tmp_path)
    assert status == 1, out
    assert "Traceback" not in out and "internal error" not in out and message in out
    assert f":{next(i for i, l in enumerate(text.splitlines(), 1) if new.strip() in l)}:" in out


@pytest.mark.parametrize("old,new", [
    ("players: 2 to 4", "players: 0 to 0"),
    ("players: 2 to 4", "players: 4 to 2"),
    ("players: 2 to 4", "players: 2 to 1000"),
    ("    start: Go", "    start: Go\n    first player: highest roll 0 dice"),
])
def test_header_values_the_engine_cannot_play_are_rejected(old, new):
    assert codes(broken(old, new)) == ["R0504"]


@pytest.mark.slow
def test_players_range_from_parameters_is_checked_with_their_values(tmp_path):
    text = broken("players: 2 to 4", "players: fewest to 4").replace("param salary", "param fewest = 2\nparam salary")
    assert codes(text) == []
    status, out = rulesc("run", write(tmp_path, text), "--set", "fewest=5")
    assert status == 1 and "R0504" in out and "Traceback" not in out


def test_start_off_the_board_is_rejected():
    text = broken("start: Go", "start: Jail").replace('square Rest "Rest"', 'square Rest "Rest"\nsquare Jail "Jail" off board')
    assert codes(text) == ["R0504"]


def test_a_vast_deck_is_rejected():
    text = broken("turn:\n", 'deck D cut:\n    card A "A" copies 1000000000:\n        pay $1 from player to bank\n\nturn:\n')
    text += "\non land Rest:\n    draw from D\n"
    assert codes(text) == ["R0910"]


@pytest.mark.slow
def test_a_cut_deck_with_no_cards_plays(tmp_path):
    text = broken("turn:\n", 'deck D cut:\n    card A "A" copies 0:\n        pay $1 from player to bank\n\nturn:\n')
    text += "\non land Rest:\n    draw from D\n    discard from D\n"
    assert codes(text) == []
    status, out = run_game(text, tmp_path)
    assert status == 0, out


@pytest.mark.slow
def test_a_negative_reserve_never_makes_the_heuristic_agent_bid_beyond_its_cash(tmp_path):
    text = broken(
        "    if player.cash >= l.price:\n        pay l.price from player to bank\n        set l.owner = player\n",
        "    auction l from $1 among players as s:\n"
        "        pay s.price from s.winner to bank\n        set l.owner = s.winner\n")
    text += "\nhint reserve = -$1,000\nhint worth(l: Lot) = $1,000,000\n"
    assert codes(text) == [], codes(text)
    for seed in range(3):
        status, out = rulesc("run", write(tmp_path, text), "--seed", seed)
        assert status == 0, out


# ---- `none` after a test: `set … = none` and rules that clear fields -----------------------------------

NONE_CASES = {
    "set-then-pay": ("    pay l.price / 4 from player to l.owner",
                     "    set l.owner = none\n    pay l.price / 4 from player to l.owner"),
    "set-in-if-then-pay": ("    pay l.price / 4 from player to l.owner",
                           "    if player.cash > $0:\n        set l.owner = none\n    pay l.price / 4 from player to l.owner"),
    "set-later-in-a-loop": ("    pay l.price / 4 from player to l.owner",
                            "    for q in Lot:\n        pay $1 from player to l.owner\n        set l.owner = none"),
    "eliminate-then-pay": ("    pay l.price / 4 from player to l.owner",
                           "    eliminate l.owner\n    pay l.price / 4 from player to l.owner"),
    "eliminate-then-move": ("    pay l.price / 4 from player to l.owner",
                            "    eliminate l.owner\n    move l.owner by 1"),
    "eliminate-then-extra-turn": ("    pay l.price / 4 from player to l.owner",
                                  "    eliminate l.owner\n    extra turn for l.owner"),
    "eliminate-then-eliminate": ("    pay l.price / 4 from player to l.owner",
                                 "    eliminate l.owner\n    eliminate l.owner"),
}


@pytest.mark.parametrize("name", NONE_CASES)
def test_a_value_cleared_after_its_test_is_not_taken_as_set(name):
    old, new = NONE_CASES[name]
    text = broken(old, new)
    assert "R0305" in codes(text), codes(text)


@pytest.mark.parametrize("name", NONE_CASES)
def test_the_engine_reports_none_where_the_checker_could_not_see_it(name, monkeypatch):
    """Defence in depth: with the checker's forgetting switched off (as it was before the fix),
    the engine stops the rule with a diagnostic, not a Python exception."""
    from rulesc.dsl import typecheck
    from rulesc.interpreter.engine import Game
    from rulesc.interpreter.errors import RuleRuntimeError
    from rulesc.interpreter.rules import compile_rules
    monkeypatch.setattr(typecheck, "forget", lambda env, fields: env)
    old, new = NONE_CASES[name]
    text = broken(old, new)
    checked = check_program(parse_text(text, "probe.rules"))
    if not checked.ok:
        pytest.skip("the checker sees this one without forgetting")
    rules = compile_rules(checked)
    stopped = []
    for seed in range(5):
        game = Game(rules, 3, seed=seed)
        try:
            game.setup()
            game.play()
        except RuleRuntimeError as exc:
            stopped.append(exc.message)
    assert stopped, "no game reached the rule that reads `none`: the case shows nothing"
    assert all("`none`" in message or "out of the game" in message for message in stopped), stopped


# ---- scenarios ------------------------------------------------------------------------------------------

SCENARIO_BASE = broken(
    "    if player.cash >= l.price:\n        pay l.price from player to bank\n        set l.owner = player\n",
    "    auction l from $1 among players as s:\n        pay s.price from s.winner to bank\n        set l.owner = s.winner\n")


@pytest.mark.slow
@pytest.mark.parametrize("lines,code", [
    ("    players Ann, Bob\n    players Ann, Cid\n    answer Cid bid: $5\n", "R0202"),
    ("    players Ann, Ann\n", "R0202"),
    ("    players Ann, Bob\n    answer Cid bid: $5\n", "R0205"),
    ("    players Ann, Bob\n    answer Ann bid: pass\n", "R0311"),
])
def test_scenario_mistakes_are_diagnostics(tmp_path, lines, code):
    text = SCENARIO_BASE + '\nscenario "probe":\n' + lines + "    as Ann:\n        move player to Red\n" \
        "    expect Ann.cash > $0\n"
    assert code in codes(text)
    status, out = rulesc("test", write(tmp_path, text))
    assert status == 1 and code in out and "Traceback" not in out and "internal" not in out


def test_a_scripted_bid_that_is_not_an_amount_fails_the_scenario_not_rulesc():
    """Through the API, where nothing checked the scenario: the agent says what is wrong."""
    from rulesc.dsl import ast
    from rulesc.interpreter.rules import compile_rules
    from rulesc.interpreter.scenario import run_scenario
    text = SCENARIO_BASE + '\nscenario "probe":\n    players Ann, Bob\n    answer Ann bid: $5\n' \
        "    as Ann:\n        move player to Red\n"
    rules = compile_rules(check_program(parse_text(text, "probe.rules")))
    scenario = rules.program.scenarios[0]
    answer = next(i for i in scenario.items if isinstance(i, ast.ScenarioAnswer))
    bad = ast.ScenarioAnswer(player=answer.player, decision="bid", values=(ast.Name(id="pass", span=answer.span),),
                             span=answer.span)
    items = tuple(bad if i is answer else i for i in scenario.items)
    result = run_scenario(rules, ast.Scenario(**_fields(scenario, items=items)))
    assert not result.passed and "not an amount" in result.failures[0].message


def test_an_answer_for_a_player_not_in_the_scenario_fails_it_not_rulesc():
    from rulesc.dsl import ast
    from rulesc.interpreter.rules import compile_rules
    from rulesc.interpreter.scenario import run_scenario
    text = SCENARIO_BASE + '\nscenario "probe":\n    players Ann, Bob\n    answer Bob bid: $5\n'
    rules = compile_rules(check_program(parse_text(text, "probe.rules")))
    scenario = rules.program.scenarios[0]
    items = tuple(ast.ScenarioAnswer(player="Cid", decision=i.decision, values=i.values, span=i.span)
                  if isinstance(i, ast.ScenarioAnswer) else i for i in scenario.items)
    result = run_scenario(rules, ast.Scenario(**_fields(scenario, items=items)))
    assert not result.passed and "Cid" in result.failures[0].message


def _fields(node, **changes) -> dict:
    import attrs
    return {**attrs.asdict(node, recurse=False), **changes}


# ---- what a rules file may read ----------------------------------------------------------------------

def test_a_trailing_comma_on_a_board_line_is_allowed():
    text = broken("    Go, Red, Rest, Blue", "    Go, Red,\n    Rest, Blue,")
    assert codes(text) == []


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_a_device_is_refused_not_read():
    status, out = rulesc("check", "--static", "/dev/zero", timeout=30)
    assert status == 2 and "R0004" in out and "Traceback" not in out


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_refused_without_blocking(tmp_path):
    fifo = tmp_path / "pipe.rules"
    os.mkfifo(fifo)
    status, out = rulesc("check", "--static", fifo, timeout=30)
    assert status == 2 and "R0004" in out and "Traceback" not in out


@pytest.mark.slow
def test_extends_reads_only_rules_files(tmp_path):
    secret = tmp_path / "notes.txt"
    secret.write_text("a private line\nanother\n", encoding="utf-8")
    variant = write(tmp_path, 'extends "notes.txt"\n', "variant.rules")
    status, out = rulesc("check", "--static", variant)
    assert status == 2 and "R0513" in out and "private" not in out


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_extends_of_a_device_is_refused(tmp_path):
    link = tmp_path / "zero.rules"
    link.symlink_to("/dev/zero")
    variant = write(tmp_path, 'extends "zero.rules"\n', "variant.rules")
    status, out = rulesc("check", "--static", variant, timeout=30)
    assert status in (1, 2) and "Traceback" not in out and "internal" not in out


@pytest.mark.slow
def test_diagram_format_and_output_name_must_agree(tmp_path):
    status, out = rulesc("diagram", write(tmp_path, MINIMAL), "--format", "svg", "-o", tmp_path / "x.png")
    assert status == 2 and "x.png" in out and "Traceback" not in out
    assert not (tmp_path / "x.png").exists()


# ---- every option of every subcommand, given a bad value ---------------------------------------------------

def _bad_values():
    """(subcommand, option, bad value) for every option that takes a value: a word where a number goes,
    a value outside the choices, a missing file where a file is read."""
    import argparse
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    cases = []
    for command, p in sub.choices.items():
        for action in p._actions:
            if not action.option_strings or action.nargs == 0:
                continue
            option = action.option_strings[-1]
            if action.choices:
                cases.append((command, option, "nosuch"))
            elif action.type is not None and action.type is not str:
                cases.append((command, option, "abc"))
            elif option in ("--rulebook", "--replay"):
                cases.append((command, option, "{tmp}/missing.txt"))
            elif option == "--set":
                cases.append((command, option, "nosuch=$1"))
    return cases


BAD_VALUES = _bad_values()


def test_the_walk_covers_every_subcommand():
    assert {c for c, _o, _v in BAD_VALUES} >= {"check", "run", "play", "simulate", "diagram", "test"}


@pytest.mark.slow
@pytest.mark.parametrize("command,option,value", BAD_VALUES, ids=[f"{c} {o} {v}" for c, o, v in BAD_VALUES])
def test_every_option_with_a_bad_value_is_a_usage_error(tmp_path, command, option, value):
    path = write(tmp_path, MINIMAL)
    extra = ["--rulebook", tmp_path / "missing.txt"] if command == "citations" and option != "--rulebook" else []
    status, out = rulesc(command, path, option, value.replace("{tmp}", str(tmp_path)), *extra)
    assert status == 2, out
    assert "Traceback" not in out and "internal error" not in out
    errors = [line for line in out.splitlines() if "error" in line]
    assert errors and len(errors[0]) < 200, out


# ---- saved games -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", ["random", "heuristic"])
def test_a_saved_game_continues_identically_with_every_agent(kind):
    import json

    from rulesc.interpreter.agents import agents_from_json, agents_to_json, make_agents
    from rulesc.interpreter.engine import Game
    from rulesc.interpreter.events import events_to_jsonl
    from rulesc.interpreter.rules import load_rules
    from rulesc.interpreter.state import state_from_json, state_to_json
    finance = load_rules(str(Path(__file__).resolve().parent.parent / "games" / "finance.rules"))
    original = Game(finance, 3, seed=5, agents=make_agents(kind, 5, 3), turn_limit=30)
    original.play()
    saved = json.loads(json.dumps({"state": state_to_json(original.state), "agents": agents_to_json(original.agents)}))
    original.turn_limit, original.state.over, original.started = 70, False, True
    original.events.clear()
    original.play()

    agents = make_agents(kind, 999, 3)  # other seeds: only what was saved may matter
    agents_from_json(agents, saved["agents"])
    copy = Game(finance, 3, seed=0, agents=agents, turn_limit=70)
    copy.state = state_from_json(saved["state"], copy.things, copy.squares, copy.rules.player_class)
    copy.things = copy.state.things
    copy.active = [p for p in copy.state.players if not p.out]
    copy.state.over, copy.started = False, True
    copy.play()
    assert events_to_jsonl(copy.events) == events_to_jsonl(original.events)


def test_a_scripted_agent_saves_the_answers_it_has_not_given():
    from rulesc.interpreter.agents import ScriptedAct, ScriptedAgent
    agent = ScriptedAgent({"bid": [5, None], "act": [("build", "Red")]})
    agent._next("bid")
    copy = ScriptedAgent()
    copy.restore(agent.save())
    assert copy.script == {"bid": [None], "act": [ScriptedAct("build", "Red")]}


def test_every_subcommand_and_option_has_help_and_an_example():
    import argparse
    parser = cli.build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, command in sub.choices.items():
        assert command.description and "example:" in (command.epilog or ""), name
        for action in command._actions:
            assert action.help, (name, action.option_strings or action.dest)


def test_an_unknown_option_shows_the_subcommands_usage(tmp_path):
    status, out = rulesc("simulate", write(tmp_path, MINIMAL), "--bogus")
    assert status == 2 and "usage: rulesc simulate" in out and "--bogus" in out


# ---- the event log says how it was played ----------------------------------------------------------------

@pytest.mark.slow
def test_a_replay_explains_a_set_value_that_differs(tmp_path):
    import json
    path, log = write(tmp_path, MINIMAL), tmp_path / "game.jsonl"
    status, out = rulesc("run", path, "--seed", "3", "--log", log, "--set", "salary=$150")
    assert status == 0, out
    header = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert header["event"] == "played with" and header["set"] == ["salary=$150"] and len(header["sha256"]) == 64
    status, out = rulesc("run", path, "--seed", "3", "--replay", log, "--set", "salary=$150")
    assert status == 0 and "the same game" in out
    status, out = rulesc("run", path, "--seed", "3", "--replay", log)
    assert status == 1 and "played with --set salary=$150" in out


@pytest.mark.slow
def test_a_replay_says_when_the_rules_changed(tmp_path):
    path, log = write(tmp_path, MINIMAL), tmp_path / "game.jsonl"
    assert rulesc("run", path, "--seed", "3", "--log", log)[0] == 0
    path.write_text(MINIMAL.replace("param salary = $100", "param salary = $90"), encoding="utf-8")
    status, out = rulesc("run", path, "--seed", "3", "--replay", log)
    assert status == 1 and "the rules have changed" in out


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_replaying_a_device_is_refused(tmp_path):
    status, out = rulesc("run", write(tmp_path, MINIMAL), "--replay", "/dev/zero", timeout=30)
    assert status == 2 and "not a file" in out


def test_assumed_values_are_counted_and_listed_on_request(tmp_path):
    game = Path(__file__).resolve().parent.parent / "games" / "finance.rules"
    status, out = rulesc("check", "--static", game)
    assert status == 0 and "assumed values: " in out and "--assumed" in out and "Lease `Rubeville`" not in out
    status, out = rulesc("check", "--static", "--assumed", game)
    assert status == 0 and "Lease `Rubeville`" in out


def test_piped_output_keeps_diagnostics_and_results_in_order(tmp_path):
    good = write(tmp_path, MINIMAL, "good.rules")
    bad = write(tmp_path, broken("pay salary from bank", "pay salry from bank"), "bad.rules")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # as a user's shell has it
    proc = subprocess.run(f"{sys.executable} -m rulesc check --static {good} {bad} 2>&1", shell=True,
                          capture_output=True, text=True, timeout=60, env=env)
    out = proc.stdout
    assert out.index("good.rules: Minimal") < out.index("error[R0205]") < out.index("bad.rules: Minimal"), out


def test_paths_are_shown_normalised(tmp_path):
    (tmp_path / "sub").mkdir()
    path = write(tmp_path, broken("pay salary from bank", "pay salry from bank"))
    status, out = rulesc("check", "--static", f"{tmp_path}/sub/../././probe.rules")
    assert status == 1 and f"{path}:" in out and "/./" not in out and "/../" not in out


def test_setting_a_global_forgets_what_was_known_through_it():
    text = broken("param salary = $100", "param salary = $100\n\nglobal:\n    spot: Lot = Red") \
        .replace("    pay l.price / 4 from player to l.owner",
                 "    if spot.owner != none:\n        set spot = l\n        pay $1 from player to spot.owner")
    assert "R0305" in codes(text), codes(text)


def test_setting_an_index_is_a_diagnostic_not_a_crash():
    text = broken("    pay l.price / 4 from player to l.owner", "    set [l][0] = l\n    pay l.price / 4 from player to l.owner")
    assert "R0308" in codes(text)


# ---- findings of the fuzzers ------------------------------------------------------------------------------

@pytest.mark.parametrize("default", ["current", "players[1]"])
def test_a_default_that_reads_the_players_is_a_diagnostic(default, monkeypatch):
    """scripts/fuzz.py 1500 3, mutants 244 and 327: `state owner: player? = current` is computed while the
    game is set up, when there are no players yet. The checker says so (R0515); and should such a value
    reach the engine, it is R1001 at the default, not an IndexError or AttributeError."""
    from rulesc.dsl.checker import Checker
    from rulesc.interpreter.engine import Game
    from rulesc.interpreter.errors import RuleRuntimeError
    from rulesc.interpreter.rules import compile_rules
    text = broken("    state owner: player? = none", f"    state owner: player? = {default}")
    assert codes(text) == ["R0515"]
    monkeypatch.setattr(Checker, "check_initial", lambda self, node, what: None)
    rules = compile_rules(check_program(parse_text(text, "probe.rules")))
    with pytest.raises(RuleRuntimeError) as info:
        Game(rules, 3, seed=1)
    assert info.value.span.line == 13 and default in info.value.message
