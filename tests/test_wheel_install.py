"""The built wheel works on its own: installed into a fresh virtual environment outside the source
tree, every subcommand runs on a shipped game.

This is what a user gets from `pip install rulesc`, so a run-time dependency listed only as a test
extra, or a package file (the grammar) left out of the wheel, fails here. It needs a package
registry (to build the wheel and to install its dependencies): skip it with `-m "not network"`. Building
and installing takes seconds (more on a first run), so it is `slow` too. Under pytest-xdist one worker
runs all these tests (tests/conftest.py, `pytest_xdist_make_scheduler`), and were they spread, the
workers would share one build.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = [pytest.mark.network, pytest.mark.slow]


def _run(cmd, cwd, timeout=600):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
    assert proc.returncode == 0, f"{' '.join(map(str, cmd))} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc.stdout + proc.stderr


@contextlib.contextmanager
def _locked(path: Path):
    """Hold an exclusive lock on `path` (a file) for the block: one pytest-xdist worker at a time."""
    import fcntl
    with open(path, "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@pytest.fixture(scope="module")
def installed(tmp_path_factory, request):
    """A fresh virtual environment outside the source tree holding only the built wheel and what it requires.

    Under pytest-xdist the workers share it: the first to get here builds it in the run's own temporary
    folder (the parent of every worker's), under a lock, and the others wait for it and use it."""
    worker = getattr(request.config, "workerinput", {}).get("workerid")
    if worker is None or os.name != "posix":  # one process: a folder of its own
        return _install(tmp_path_factory.mktemp("wheel"))
    shared = tmp_path_factory.getbasetemp().parent  # this run's, the same for every worker
    with _locked(shared / "wheel.lock"):
        work = shared / "wheel"
        if not (work / "installed").exists():
            shutil.rmtree(work, ignore_errors=True)  # a build that failed halfway
            work.mkdir()
            _install(work)
            (work / "installed").touch()
    return work


def _install(work: Path) -> Path:
    _run([sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", work / "dist", ROOT], cwd=work)
    wheels = list((work / "dist").glob("rulesc-*.whl"))
    assert len(wheels) == 1, wheels
    # The environment gets no pip of its own: this process's pip installs into it (`--python`), and
    # leaves the byte-code to be compiled at first import; either took longer than everything else here.
    _run([sys.executable, "-m", "venv", "--without-pip", work / "venv"], cwd=work)
    _run([sys.executable, "-m", "pip", "--python", work / "venv" / "bin" / "python", "install", "-q", "--no-compile",
          wheels[0]], cwd=work)
    # The games are copied out too, so nothing at all is read from the source tree.
    shutil.copytree(ROOT / "games", work / "games")
    return work


def test_the_wheel_does_not_import_from_the_source_tree(installed):
    where = _run([installed / "venv" / "bin" / "python", "-c", "import rulesc, rulesc.dsl; print(rulesc.dsl.__file__)"],
                 cwd=installed)
    assert str(installed / "venv") in where and str(ROOT) not in where


@pytest.mark.parametrize("args", [
    ["check", "--examples", "10", "games/finance.rules"],
    ["check", "--static", "games/wheeler-level1.rules"],
    ["test", "games/finance.rules", "games/wheeler.rules"],
    ["run", "games/wheeler.rules", "--seed", "3"],
    ["simulate", "games/finance.rules", "-n", "5", "--quiet"],
    ["simulate", "games/finance.rules", "-n", "5", "--quiet", "--jobs", "2"],
    ["diagram", "games/wheeler.rules", "-o", "turn.dot"],
    ["diagram", "games/wheeler.rules", "--money", "-o", "money.dot"],
    ["doc", "games/finance.rules", "-o", "finance.md"],
    ["explain", "R0205"],
    ["check", "--static", "--format", "sarif", "games/wheeler.rules"],
    ["test", "--format", "junit", "games/wheeler-level1.rules"],
    ["debug", "codegen", "games/finance.rules"],
], ids=lambda a: a[0] + ("-static" if "--static" in a else "") + ("-money" if "--money" in a else "") + ("-sarif" if "sarif" in a else "")
    + ("-junit" if "junit" in a else "") + ("-jobs" if "--jobs" in a else ""))
def test_every_subcommand_runs_from_the_installed_wheel(installed, args):
    out = _run([installed / "venv" / "bin" / "rulesc", *args], cwd=installed)
    if args[0] == "diagram" and "--money" in args:
        assert "digraph money_flow {" in (installed / "money.dot").read_text()
    elif args[0] == "diagram":
        assert "digraph turn_flow {" in (installed / "turn.dot").read_text()
    if args[0] == "doc":  # the page and its pictures
        assert "## Money" in (installed / "finance.md").read_text() and (installed / "finance-money.svg").exists()
    if args[0] == "debug":  # the Python the file is compiled to, one text that compiles
        compile(out, "finance.rules", "exec")
    if args[0] == "explain":  # the registry of codes, which the docs/errors page is written from, is in the wheel
        assert out.startswith("### R0205\n") and "unknown name" in out
    if "sarif" in args:  # the rules' descriptions come from the registry too
        assert '"shortDescription": {\n                "text": "unknown name"' in out


def _message(payload: dict) -> bytes:
    import json
    body = json.dumps(payload).encode("utf-8")
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def test_the_language_server_starts_from_the_installed_wheel(installed):
    """`rulesc lsp` answers `initialize` (its run-time dependency, pygls, came with the wheel)."""
    requests = b"".join(_message(m) for m in [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"processId": None, "rootUri": None,
                                                                        "capabilities": {}}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None},
        {"jsonrpc": "2.0", "method": "exit", "params": None},
    ])
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    proc = subprocess.run([str(installed / "venv" / "bin" / "rulesc"), "lsp"], input=requests, capture_output=True,
                          timeout=120, cwd=installed, env=env)
    assert proc.returncode == 0, proc.stderr.decode(errors="replace")
    assert b'"hoverProvider": true' in proc.stdout.replace(b'":true', b'": true')


def test_the_pygments_lexer_is_registered_by_the_installed_wheel(installed):
    out = _run([installed / "venv" / "bin" / "python", "-c",
                "from pygments.lexers import get_lexer_for_filename; print(get_lexer_for_filename('x.rules').name)"],
               cwd=installed)
    assert out.strip() == "Rules"


def test_a_variant_extends_a_shipped_game_by_name_from_the_installed_wheel(installed, tmp_path):
    """`extends "wheeler"` reads the game shipped in the wheel (rulesc/games/), from a folder with no games."""
    (tmp_path / "house.rules").write_text('extends "wheeler"\noverride param min_stake = $30,000\n')
    out = _run([installed / "venv" / "bin" / "rulesc", "check", "--static", "house.rules"], cwd=tmp_path)
    assert "Wheeler Dealer" in out and "0 errors" in out
    where = _run([installed / "venv" / "bin" / "python", "-c",
                  "from rulesc.dsl.variants import load_file; "
                  "print(sorted(load_file('house.rules').sources))"], cwd=tmp_path)
    assert str(installed / "venv") in where and str(ROOT) not in where
