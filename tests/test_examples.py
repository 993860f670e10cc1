"""The examples work as their comments say: the house rule checks and passes, the script compares."""

from __future__ import annotations

import pytest

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args):
    return subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.mark.slow
def test_the_house_rule_checks_and_passes_its_scenarios():
    check = run("-m", "rulesc", "check", "--static", "examples/finance-fast-money.rules")
    assert check.returncode == 0 and "0 errors" in check.stdout
    test = run("-m", "rulesc", "test", "examples/finance-fast-money.rules")
    assert test.returncode == 0 and "fast money: $400 a circuit" in test.stdout


def test_the_comparison_script_prints_both_games():
    out = run("examples/compare_house_rule.py", "games/finance.rules", "examples/finance-fast-money.rules", "-n", "5")
    assert out.returncode == 0, out.stderr
    assert "FINANCE (1932), fast money" in out.stdout and "mean turns" in out.stdout


@pytest.mark.slow
def test_the_wheeler_corners_house_rule_checks_and_passes_its_scenarios():
    check = run("-m", "rulesc", "check", "--static", "examples/wheeler-corners.rules")
    assert check.returncode == 0 and "0 errors" in check.stdout
    test = run("-m", "rulesc", "test", "examples/wheeler-corners.rules")
    assert test.returncode == 0 and "City Hall: $1,000 for each title held" in test.stdout
