"""`rulesc debug codegen FILE`: the Python generated for a rules file, printed as one text that compiles.

Run through the command line's entry point (`rulesc.cli.main`), as the console script runs it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesc.cli import main

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["games/wheeler.rules", "games/finance.rules", "games/wallstreet.rules"]


def codegen(capsys, *args) -> tuple[int, str, str]:
    status = main(["debug", "codegen", *args])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.mark.parametrize("game", GAMES)
def test_it_prints_the_generated_python_and_it_compiles(capsys, game):
    path = str(ROOT / game)
    status, out, err = codegen(capsys, path)
    assert status == 0, err
    compile(out, path, "exec")
    assert re.search(r"^def play_turn\(g\b", out, re.MULTILINE), "no def of the turn function"
    assert re.search(r"^def \w+\(g, e\):", out, re.MULTILINE), "no rule's body"
    labels = [line for line in out.splitlines() if line.startswith("# ")]
    assert any("turn" in label for label in labels) and any(".body" in label for label in labels)


def test_set_overrides_are_written_into_the_code(capsys):
    path = str(ROOT / "games/finance.rules")
    _, plain, _ = codegen(capsys, path)
    status, changed, err = codegen(capsys, path, "--set", "circuit_income=$12,345")
    assert status == 0, err
    compile(changed, path, "exec")
    assert "12345" in changed and "12345" not in plain


def test_a_missing_file_or_a_bad_set_is_a_usage_error(capsys):
    status, out, err = codegen(capsys, "no-such-file.rules")
    assert status == 2 and out == "" and "no-such-file.rules" in err
    status, out, err = codegen(capsys, str(ROOT / "games/finance.rules"), "--set", "nosuch=$1")
    assert status == 2 and out == "" and "nosuch" in err


def test_debug_needs_to_be_told_what_to_show(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["debug"])
    assert exit_.value.code == 2 and "codegen" not in capsys.readouterr().out
