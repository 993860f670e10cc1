"""The house rules in examples/ (issue #12), and Wall Street's shorter game: each says in its header
what it changes and why people play it, checks clean, passes its scenarios (its own and the base's
that still hold), diffs against its base with the change it claims, and draws."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesc.cli import main

ROOT = Path(__file__).resolve().parent.parent

# file, its base, a line `rulesc diff` must print for the change the header describes
HOUSE_RULES = [
    ("examples/finance-fines-pot.rules", "games/finance.rules", "~ handler on land Taxes: on land Taxes: / pay taxes from player to pot"),
    ("examples/wheeler-no-auctions.rules", "games/wheeler.rules", "~ handler on land Property p as purchase when p.owner == none"),
    ("examples/wheeler-big-start.rules", "games/wheeler.rules", "- phase bump"),
    ("examples/wheeler-no-poaching.rules", "games/wheeler.rules", "~ handler on land Property p as bill"),
    ("examples/wheeler-loan-interest.rules", "games/wheeler.rules", "+ handler on pass Park"),
    ("examples/wallstreet-no-enforced-auction.rules", "games/wallstreet.rules", "- handler on land Enforced"),
    ("games/wallstreet-short.rules", "games/wallstreet.rules", "~ parameter win_cash"),
]
IDS = [Path(f).stem for f, _, _ in HOUSE_RULES]


def run(capsys, *argv) -> tuple[int, str]:
    code = main([str(a) for a in argv])
    out = capsys.readouterr()
    return code, out.out + out.err


def changes(path: Path) -> list[str]:
    """The lines that change the base: everything but comments, blank lines, the header and scenarios."""
    out, in_scenario = [], False
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if line.startswith("scenario "):
            in_scenario = True
        elif not line[0].isspace():
            in_scenario = False
        if not in_scenario and not line.startswith(("extends", "override game", "remove scenario")):
            out.append(line)
    return out


@pytest.mark.parametrize("path, base, line", HOUSE_RULES, ids=IDS)
def test_the_header_says_what_it_changes_and_why(path, base, line):
    if not path.startswith("examples/"):
        pytest.skip("a shipped game: its header is the rulebook's")
    head = []
    for text in (ROOT / path).read_text().splitlines():
        if not text.startswith("#"):
            break
        head.append(text)
    assert len(head) >= 3 and re.search(r"A house rule for ", head[0]), head
    assert "extends \"" in (ROOT / path).read_text().split("\n\n", 2)[1]  # a shipped game by its name


@pytest.mark.parametrize("path, base, line", HOUSE_RULES, ids=IDS)
def test_it_is_written_in_a_few_lines_without_a_workaround(path, base, line):
    lines = changes(ROOT / path)
    assert len(lines) <= 12, lines
    text = "\n".join(lines)
    assert "1,000,000,000" not in text and "= $0" not in text  # no unreachable bids, no zeroed base rules


@pytest.mark.parametrize("path, base, line", HOUSE_RULES, ids=IDS)
def test_it_checks_clean(capsys, path, base, line):
    code, out = run(capsys, "check", "--static", ROOT / path)
    assert code == 0 and "0 errors, 0 warnings" in out, out


@pytest.mark.parametrize("path, base, line", HOUSE_RULES, ids=IDS)
def test_its_scenarios_pass(capsys, path, base, line):
    code, out = run(capsys, "test", ROOT / path)
    assert code == 0 and " 0 failed" in out, out
    if path.startswith("examples/"):  # its own scenario of the house rule ran
        own = re.findall(r'^scenario "([^"]+)"', (ROOT / path).read_text(), re.M)
        assert own and all(f"PASS  {path}" in out or title in out for title in own)


@pytest.mark.parametrize("path, base, line", HOUSE_RULES, ids=IDS)
def test_it_diffs_against_its_base(capsys, path, base, line):
    code, out = run(capsys, "diff", ROOT / base, ROOT / path)
    assert code == 0, out
    assert line in out, out


@pytest.mark.parametrize("path, base, line", HOUSE_RULES, ids=IDS)
def test_it_draws(capsys, tmp_path, path, base, line):
    dot = tmp_path / "turn.dot"
    code, out = run(capsys, "diagram", ROOT / path, "-o", dot)
    assert code == 0, out
    text = dot.read_text()
    assert "digraph turn_flow {" in text and text.rstrip().endswith("}")
    title = re.search(r'^override game "([^"]+)"', (ROOT / path).read_text(), re.M)
    if title:  # the variant's game is drawn, not its base
        assert text.startswith(f"// turn flow of {title.group(1)}\n")


def test_the_fines_pot_really_collects_in_play(capsys):
    code, out = run(capsys, "diff", ROOT / "games/finance.rules", ROOT / "examples/finance-fines-pot.rules",
                    "--games", "20", "--seed", "1")
    assert code == 0, out
    assert "pot" in out  # money by rule: the pot's rules move money in these games
