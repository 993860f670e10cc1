"""`--bless`: the one switch that accepts new expected output, run on a small suite of its own.

A test compares its output with a file through `expect_file`; without `--bless` a difference
fails with the command that accepts it, with `--bless` the file is rewritten and the run passes.
"""

from __future__ import annotations

from pathlib import Path

CONFTEST = Path(__file__).with_name("conftest.py")

SUITE = '''
from pathlib import Path

def test_output(expect_file):
    expect_file(Path("expected") / "out.txt", "new output\\n")

def test_stale(expect_no_stale):
    expect_no_stale(p for p in Path("expected").glob("*.txt") if p.name != "out.txt")
'''


def make_suite(pytester):
    pytester.makeconftest(CONFTEST.read_text(encoding="utf-8"))
    pytester.makepyfile(test_suite=SUITE)
    expected = pytester.path / "expected"
    expected.mkdir()
    (expected / "out.txt").write_text("old output\n", encoding="utf-8")
    (expected / "gone.txt").write_text("left behind\n", encoding="utf-8")
    return expected


def test_a_difference_fails_and_says_how_to_accept(pytester):
    expected = make_suite(pytester)
    result = pytester.runpytest()
    result.assert_outcomes(failed=2)
    result.stdout.fnmatch_lines(["*the output differs from *out.txt; if the change is intended, "
                                 "run `scripts/test.sh --bless` to accept*",
                                 "*-old output*", "*+new output*"])
    result.stdout.fnmatch_lines(["*expected output that no test produces: *gone.txt; "
                                 "run `scripts/test.sh --bless` to accept*"])
    assert (expected / "out.txt").read_text(encoding="utf-8") == "old output\n"  # comparing writes nothing
    assert (expected / "gone.txt").exists()


def test_bless_rewrites_then_the_comparison_passes(pytester):
    expected = make_suite(pytester)
    pytester.runpytest("--bless").assert_outcomes(passed=2)
    assert (expected / "out.txt").read_text(encoding="utf-8") == "new output\n"
    assert not (expected / "gone.txt").exists()
    pytester.runpytest().assert_outcomes(passed=2)


def test_a_missing_file_fails_and_bless_creates_it(pytester):
    expected = make_suite(pytester)
    (expected / "out.txt").unlink()
    pytester.runpytest("-k", "test_output").stdout.fnmatch_lines(
        ["*no expected output *out.txt; run `scripts/test.sh --bless` to accept*"])
    pytester.runpytest("--bless", "-k", "test_output").assert_outcomes(passed=1)
    assert (expected / "out.txt").read_text(encoding="utf-8") == "new output\n"
