"""The parser's tables are cached in the user's cache folder (dsl/cache.py), and the cache is safe:
a changed grammar gets tables of its own, a damaged or unwritable cache is never an error, and a
parser loaded from the cache parses exactly as a freshly built one."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

from rulesc.dsl import cache, parser
from rulesc.dsl.parser import build_parser

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = resources.files("rulesc.dsl").joinpath("rules.lark").read_text(encoding="utf-8")
BUILT = "<string>"  # a Lark parser's source_path when it was built from the grammar's text ...
LOADED = "<deserialized>"  # ... and when its tables were loaded from a cache file


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    monkeypatch.setenv(cache.CACHE_ENV, str(folder))
    return folder


def test_the_first_run_builds_and_caches_the_tables_and_the_next_loads_them(cache_dir):
    first = build_parser()
    assert first.source_path == BUILT
    files = list(cache_dir.iterdir())
    assert len(files) == 1 and files[0].name.startswith("parser-") and files[0].suffix == ".pickle"
    second = build_parser()
    assert second.source_path == LOADED
    assert list(cache_dir.iterdir()) == files  # nothing left behind: no scratch files


@pytest.mark.slow
def test_a_loaded_parser_parses_every_shipped_game_as_a_built_one(cache_dir):
    built = build_parser()
    loaded = build_parser()
    assert loaded.source_path == LOADED
    for game in sorted((ROOT / "games").glob("*.rules")):
        for _, chunk in parser.split_declarations(game.read_text(encoding="utf-8")):
            chunk = chunk if chunk.endswith("\n") else chunk + "\n"
            assert loaded.parse(chunk) == built.parse(chunk), f"{game.name}: {chunk[:60]!r}"


@pytest.mark.slow
def test_a_changed_grammar_gets_tables_of_its_own(cache_dir):
    build_parser()
    changed = GRAMMAR + "\n// a comment: the same language, another grammar text\n"
    assert build_parser(changed).source_path == BUILT
    assert len(list(cache_dir.iterdir())) == 2
    assert build_parser(changed).source_path == LOADED
    assert build_parser().source_path == LOADED


@pytest.mark.slow
def test_a_damaged_cache_file_is_rebuilt(cache_dir):
    build_parser()
    (cached,) = cache_dir.iterdir()
    cached.write_bytes(cached.read_bytes()[:1000])  # cut short, as by a full disk
    again = build_parser()
    assert again.source_path == BUILT and again.parse('param x = $1\n')
    assert build_parser().source_path == LOADED  # and rewritten whole


@pytest.mark.slow
def test_a_cache_file_of_another_grammar_under_this_name_is_not_used(cache_dir):
    build_parser()
    (cached,) = cache_dir.iterdir()
    build_parser(GRAMMAR + "\n// another grammar text\n")  # writes its own file ...
    (other,) = [f for f in cache_dir.iterdir() if f != cached]
    other.replace(cached)  # ... which now sits where this grammar's tables should be
    assert build_parser().source_path == BUILT  # the hash it starts with refuses it


@pytest.mark.slow
def test_no_cache_when_turned_off(tmp_path, monkeypatch):
    monkeypatch.setenv(cache.CACHE_ENV, "")
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert cache.user_cache_dir() is None
    assert build_parser().source_path == BUILT
    assert list(tmp_path.iterdir()) == []


def test_the_default_folder_is_the_platforms_cache_folder(tmp_path, monkeypatch):
    monkeypatch.delenv(cache.CACHE_ENV, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    if sys.platform.startswith("linux"):
        assert cache.user_cache_dir() == tmp_path / "xdg" / "rulesc"
        monkeypatch.delenv("XDG_CACHE_HOME")
        assert cache.user_cache_dir() == tmp_path / "home" / ".cache" / "rulesc"
    assert "site-packages" not in str(cache.user_cache_dir())


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0, reason="root writes anywhere")
def test_an_unwritable_cache_folder_is_no_error(cache_dir):
    cache_dir.mkdir()
    cache_dir.chmod(stat.S_IRUSR | stat.S_IXUSR)
    try:
        assert build_parser().source_path == BUILT
        assert list(cache_dir.iterdir()) == []
    finally:
        cache_dir.chmod(stat.S_IRWXU)


@pytest.mark.slow
def test_a_cache_path_that_cannot_be_a_folder_is_no_error(tmp_path, monkeypatch):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv(cache.CACHE_ENV, str(blocker / "cache"))
    assert build_parser().source_path == BUILT


@pytest.mark.slow
def test_the_cli_says_nothing_of_a_cache_it_cannot_use(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    env = dict(os.environ, **{cache.CACHE_ENV: str(blocker / "cache")})
    proc = subprocess.run([sys.executable, "-m", "rulesc", "check", "--static", str(ROOT / "games" / "finance.rules")],
                          capture_output=True, text=True, env=env, timeout=60)
    assert proc.returncode == 0
    assert "cache" not in proc.stderr.lower() and "Traceback" not in proc.stderr
