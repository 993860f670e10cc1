"""Each rules file's parsed tree is kept in the user's cache folder (dsl/cache.py, dsl/parsed.py),
and the cache is safe: the tree loaded is the tree the parser builds; a changed file, grammar or
parser is parsed again; a damaged entry, or one of another file, is ignored; a file with a syntax
error is never kept; runs in parallel never see a half-written entry; the folder stays bounded."""

from __future__ import annotations

import os
import pickle
import shutil
import subprocess
import sys
import zlib
from pathlib import Path

import pytest

from rulesc.dsl import cache, parsed, parser
from rulesc.dsl.diagnostics import RulesError
from rulesc.dsl.variants import load_file

ROOT = Path(__file__).resolve().parent.parent
GAME = ROOT / "games" / "wheeler.rules"
KEPT_IN_MEMORY = parsed._tree  # the trees the process keeps (bypassed by every other test here)
SMALL = 'game "Small":\n    players: 2 to 4\n\nparam starting_cash = $1,500\n'


@pytest.fixture(autouse=True)
def no_trees_kept_in_memory(monkeypatch):
    """These tests are about the cache folder: each load goes to it, past the trees the process keeps."""
    monkeypatch.setattr(parsed, "_tree", parsed._tree.__wrapped__)


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_ENV, str(folder))
    return folder


@pytest.fixture
def parses(monkeypatch):
    """The files the parser really parsed (not loaded from the cache), in order."""
    seen: list[str] = []
    real = parser.parse_text

    def counting(text, path="<string>"):
        seen.append(path)
        return real(text, path)

    monkeypatch.setattr(parser, "parse_text", counting)
    return seen


def entries(folder: Path) -> list[Path]:
    return sorted(folder.glob("ast-*.pickle"))


@pytest.mark.slow
def test_the_second_parse_of_an_unchanged_file_loads_the_very_same_tree(cache_dir, parses):
    first = parsed.parse_file(GAME)
    assert parses == [str(GAME)] and len(entries(cache_dir)) == 1
    second = parsed.parse_file(GAME)
    assert parses == [str(GAME)]  # loaded, not parsed
    assert second == first and repr(second) == repr(first)
    assert second == parser.parse_text(GAME.read_text(encoding="utf-8"), str(GAME))
    assert [p.suffix for p in cache_dir.iterdir() if p.suffix != ".pickle"] == []  # no scratch files left


@pytest.mark.slow
def test_every_shipped_game_and_example_loads_as_it_parses(cache_dir):
    for path in sorted([*(ROOT / "games").glob("*.rules"), *(ROOT / "examples").glob("*.rules"),
                          *(ROOT / "examples" / "games").glob("*.rules")]):
        fresh = parsed.parse_file(path)
        loaded = parsed.parse_file(path)
        assert repr(loaded) == repr(fresh), path.name
        assert load_file(path) == load_file(path)


def test_a_changed_file_is_parsed_again(cache_dir, parses, tmp_path):
    rules = tmp_path / "small.rules"
    rules.write_text(SMALL, encoding="utf-8")
    parsed.parse_file(rules)
    rules.write_text(SMALL.replace("$1,500", "$1,600"), encoding="utf-8")
    again = parsed.parse_file(rules)
    assert parses == [str(rules), str(rules)]
    assert "1600" in repr(again) and "1500" not in repr(again)
    assert len(entries(cache_dir)) == 1  # the file's one entry, replaced


def test_the_same_file_by_another_path_has_its_own_spans(cache_dir, parses, tmp_path, monkeypatch):
    rules = tmp_path / "small.rules"
    rules.write_text(SMALL, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    by_name = parsed.parse_file("small.rules")
    by_path = parsed.parse_file(rules)
    assert len(parses) == 2
    assert by_name.decls[0].span.file == "small.rules" and by_path.decls[0].span.file == str(rules)


@pytest.mark.slow
def test_a_changed_grammar_or_parser_is_parsed_again(cache_dir, parses, tmp_path, monkeypatch):
    parsed.parse_file(GAME)
    package = tmp_path / "dsl"
    shutil.copytree(Path(cache.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "__file__", str(package / "cache.py"))
    cache._code_digest.cache_clear()
    same = cache._code_digest()
    for changed in ("rules.lark", "transform.py", "ast.py"):
        original = (package / changed).read_bytes()
        (package / changed).write_bytes(original + b"\n")
        cache._code_digest.cache_clear()
        assert cache._code_digest() != same, changed
        parsed.parse_file(GAME)
        (package / changed).write_bytes(original)
    cache._code_digest.cache_clear()
    assert parses == [str(GAME)] * 4
    monkeypatch.undo()
    cache._code_digest.cache_clear()


@pytest.mark.slow
@pytest.mark.parametrize("damage", ["cut short", "garbage", "another object", "empty"])
def test_a_damaged_entry_is_ignored_and_rewritten(cache_dir, parses, damage):
    fresh = parsed.parse_file(GAME)
    (entry,) = entries(cache_dir)
    stamp = entry.read_bytes().split(b"\n", 1)[0] + b"\n"
    entry.write_bytes({"cut short": entry.read_bytes()[:5000], "garbage": stamp + b"\x80\x05garbage",
                       "another object": stamp + zlib.compress(pickle.dumps({"not": "a tree"})),
                       "empty": b""}[damage])
    again = parsed.parse_file(GAME)
    assert again == fresh and parses == [str(GAME)] * 2
    assert parsed.parse_file(GAME) == fresh and len(parses) == 2  # rewritten whole


def test_an_entry_of_another_file_under_this_name_is_not_used(cache_dir, parses, tmp_path):
    rules = tmp_path / "small.rules"
    rules.write_text(SMALL, encoding="utf-8")
    parsed.parse_file(rules)
    parsed.parse_file(GAME)
    cache.ast_cache_file(str(GAME)).replace(cache.ast_cache_file(str(rules)))
    assert parsed.parse_file(rules).path == str(rules)
    assert parses == [str(rules), str(GAME), str(rules)]


def test_a_file_with_a_syntax_error_is_never_kept_and_reports_the_same(cache_dir, parses, tmp_path):
    rules = tmp_path / "broken.rules"
    rules.write_text(SMALL + "param = 3\n", encoding="utf-8")
    reports = []
    for _ in range(2):
        with pytest.raises(RulesError) as caught:
            parsed.parse_file(rules)
        reports.append(caught.value.diagnostics)
    assert reports[0] == reports[1] and reports[0][0].code == "R0101"
    assert entries(cache_dir) == [] and len(parses) == 2


def test_no_cache_when_turned_off(tmp_path, monkeypatch, parses):
    monkeypatch.setenv(cache.CACHE_ENV, "")
    monkeypatch.chdir(tmp_path)
    parsed.parse_file(GAME)
    parsed.parse_file(GAME)
    assert len(parses) == 2 and list(tmp_path.iterdir()) == []


def test_the_folder_keeps_only_the_most_recently_used_trees(cache_dir, parses, tmp_path, monkeypatch):
    monkeypatch.setattr(cache, "MAX_AST_ENTRIES", 3)
    files = []
    for i in range(5):
        rules = tmp_path / f"f{i}.rules"
        rules.write_text(SMALL, encoding="utf-8")
        files.append(rules)
    for i, rules in enumerate(files):
        parsed.parse_file(rules)
        os.utime(cache.ast_cache_file(str(rules)), (1_000_000 + i, 1_000_000 + i))  # written in this order
    assert {e.name for e in entries(cache_dir)} == {cache.ast_cache_file(str(f)).name for f in files[2:]}


@pytest.mark.slow
def test_runs_in_parallel_agree_and_leave_no_scratch_files(tmp_path):
    env = dict(os.environ, **{cache.CACHE_ENV: str(tmp_path / "cache")})
    command = [sys.executable, "-m", "rulesc", "check", "--static", str(GAME)]
    runs = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
            for _ in range(4)]
    outputs = {(run.wait(timeout=120), *run.communicate()) for run in runs}
    assert len(outputs) == 1 and next(iter(outputs))[0] == 0
    assert [p.suffix for p in (tmp_path / "cache").iterdir()] == [".pickle"] * 2  # the parser's, the tree's


CHECK_AND_REPORT_LARK = (
    "import sys\n"
    "from rulesc.cli import main\n"
    "code = main(['check', '--static', sys.argv[1]])\n"
    "print('lark imported' if 'lark' in sys.modules else 'lark not imported', file=sys.stderr)\n"
    "sys.exit(code)\n")


@pytest.mark.slow
def test_the_cli_loads_an_unchanged_file_without_the_parser_and_prints_the_same(tmp_path):
    env = dict(os.environ, **{cache.CACHE_ENV: str(tmp_path / "cache")})
    runs = [subprocess.run([sys.executable, "-c", CHECK_AND_REPORT_LARK, str(GAME)], env=env, capture_output=True,
                           text=True, timeout=120) for _ in range(2)]
    assert runs[0].stderr.endswith("lark imported\n") and runs[1].stderr.endswith("lark not imported\n")
    assert runs[0].returncode == runs[1].returncode == 0
    assert runs[0].stdout == runs[1].stdout and runs[0].stdout


def test_a_process_hands_out_the_tree_it_kept_until_the_text_changes(monkeypatch, tmp_path, parses):
    monkeypatch.setenv(cache.CACHE_ENV, "")  # no folder: only the process's memory can keep it
    monkeypatch.setattr(parsed, "_tree", KEPT_IN_MEMORY)
    KEPT_IN_MEMORY.cache_clear()
    path = tmp_path / "small.rules"
    path.write_text(SMALL, encoding="utf-8")
    first = parsed.parse_file(path)
    assert parsed.parse_file(path) is first and parses == [str(path)]
    path.write_text(SMALL.replace("1,500", "2,000"), encoding="utf-8")
    changed = parsed.parse_file(path)
    assert changed is not first and parses == [str(path), str(path)]
    assert "2,000" in changed.source
