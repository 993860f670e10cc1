"""The diagnostic codes' registry (dsl/codes.py, with the explanations in dsl/codes.md) is the one place a
code is defined.

Every code the source names is registered, and raised through its entry except in the files listed in
STILL_LITERAL; every registered code is produced by some test; docs/errors/README.md is the page the
registry generates; and what reads the registry (`rulesc explain`, the CLI's exit status) agrees with it.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulesc import explain
from rulesc.commands import shared
from rulesc.dsl import codes
from rulesc.dsl.diagnostics import RulesError

ROOT = Path(__file__).resolve().parent.parent
TESTS = Path(__file__).resolve().parent
SOURCES = sorted(p for d in ("dsl", "interpreter", "rulesc") for p in (ROOT / d).rglob("*.py"))
CODE = re.compile(r"\bR\d{4}\b")
LITERAL = re.compile(r"""["'](R\d{4})["']""")

# Files that may still write a code as a string literal (none: every one raises through the registry). Each
# code such a file names must still be registered, with the severity it gives it.
STILL_LITERAL: set = set()


def _relative(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


def test_each_entry_is_named_after_its_constant_in_the_order_of_its_code():
    constants = {name: value for name, value in vars(codes).items() if isinstance(value, codes.Code)}
    assert list(codes.REGISTRY.values()) == list(constants.values())
    for constant, entry in constants.items():
        assert constant == entry.name.upper().replace("-", "_"), f"{entry.code}: {constant} is named `{entry.name}`"
        assert re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", entry.name), entry.name
    assert list(codes.REGISTRY) == sorted(codes.REGISTRY), "the codes are not in order"
    assert len({c.name for c in codes.REGISTRY.values()}) == len(codes.REGISTRY), "a name is taken twice"


def test_each_entry_has_a_severity_a_range_and_a_summary():
    for c in codes.REGISTRY.values():
        assert re.fullmatch(r"R\d{4}", c.code) and c.code not in codes.UNASSIGNED, c.code
        assert c.severity in (codes.ERROR, codes.WARNING), c.code
        assert c.exit_status in (1, 2), c.code
        assert sum(r.holds(c.code) for r in codes.RANGES) == 1, f"{c.code} is in no range, or in two"
        assert c.summary and not c.summary.endswith("."), c.code


def test_each_code_has_one_explanation_and_each_explanation_is_of_a_code():
    sections = re.findall(r"^## (.*)$", (ROOT / "dsl" / "codes.md").read_text("utf-8"), re.MULTILINE)
    assert sections == list(codes.REGISTRY), "dsl/codes.md: one `## CODE` section per code, in the registry's order"
    for c in codes.REGISTRY.values():
        assert c.explanation.strip() and not c.explanation.startswith(("**", "#")), c.code


def test_a_code_that_is_not_registered_fails_loudly():
    with pytest.raises(KeyError, match="R0299.*not a registered diagnostic code"):
        codes.lookup("R0299")
    assert codes.lookup("R0205") is codes.UNKNOWN_NAME


def test_the_page_is_the_one_the_registry_generates(expect_file):
    expect_file(ROOT / "docs" / "errors" / "README.md", explain.page())


def test_every_code_the_source_or_the_docs_names_is_registered():
    docs = [ROOT / "README.md", *(p for p in (ROOT / "docs").rglob("*.md") if p.parent.name != "errors")]
    named = {(_relative(p), code) for p in [*SOURCES, *docs] for code in CODE.findall(p.read_text("utf-8"))}
    unknown = sorted((where, code) for where, code in named if code not in codes.REGISTRY
                     and code not in codes.UNASSIGNED)
    assert not unknown, f"codes named but not registered in dsl/codes.py: {unknown}"


def test_every_registry_constant_the_source_uses_exists():
    used = {(_relative(p), name) for p in SOURCES for name in re.findall(r"\bcodes\.([A-Z][A-Z0-9_]*)\b",
                                                                           p.read_text("utf-8"))}
    missing = sorted((where, name) for where, name in used if not hasattr(codes, name))
    assert not missing, f"no such code in dsl/codes.py: {missing}"


def test_codes_are_written_as_literals_only_in_the_files_still_being_rewritten():
    literal = sorted({_relative(p) for p in SOURCES if LITERAL.search(p.read_text("utf-8"))} - {"dsl/codes.py"})
    assert set(literal) <= STILL_LITERAL, f"write these codes as `codes.NAME`: {sorted(set(literal) - STILL_LITERAL)}"
    for name in literal:
        for severity, code in re.findall(r"""Diagnostic\(\s*["'](\w+)["'],\s*["'](R\d{4})["']""",
                                         (ROOT / name).read_text("utf-8")):
            assert severity == codes.lookup(code).severity, f"{name}: {code} raised as {severity}"


def test_every_registered_code_is_produced_by_a_test():
    """A code is exercised when a test expects it: a checker case's `# error: R0xxx`, a snapshot, or
    a test that asserts it (this file, which names none, aside)."""
    files = [p for p in TESTS.rglob("*") if p.is_file() and p.suffix in (".py", ".rules", ".txt", ".json")
             and p != Path(__file__).resolve()]
    seen = {code for p in files for code in CODE.findall(p.read_text("utf-8", errors="replace"))}
    untested = sorted(set(codes.REGISTRY) - seen)
    assert not untested, f"registered codes no test produces: {untested}"


def test_the_cli_exits_2_for_the_codes_the_registry_gives_status_2():
    for code in codes.REGISTRY.values():
        error = RulesError([code.diagnostic("a message", "x.rules")])
        assert shared.unread(error) == (code.exit_status == 2), code.code


@pytest.mark.parametrize("written", ["R0205", "r205", "205", "unknown-name", "UNKNOWN_NAME"])
def test_explain_finds_a_code_by_its_number_or_its_name(written):
    assert explain.entry(explain.normalise(written)) == explain.section(codes.UNKNOWN_NAME)


def test_explain_suggests_the_nearest_names():
    assert explain.nearest("unknwn-name")[0] == "unknown-name"
