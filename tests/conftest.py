"""One switch for every file of expected output: `--bless`.

Snapshot tests (tests/snapshots/) and golden-file tests (tests/golden/) compare what the
code gives now with a file in the tree through the `expect_file` fixture. After a
deliberate change, `scripts/test.sh --bless` (or `pytest --bless`) writes the new output
into those files instead of comparing; review the diff with `git diff` and commit it.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ACCEPT = "run `scripts/test.sh --bless` to accept"
DIFF_SHOWN = 6000  # characters of a differing file's diff a failure shows

pytest_plugins = ["pytester"]  # tests/test_bless.py runs pytest on a small test suite of its own


def pytest_addoption(parser):
    parser.addoption("--bless", action="store_true", default=False,
                     help="rewrite every snapshot (tests/snapshots/) and golden file (tests/golden/) "
                          "with the output of now, instead of comparing")


def _shown(path: Path) -> str:
    """The path as the failure names it: relative to the repository when it is inside it."""
    try:
        return path.resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return str(path)


@pytest.fixture
def blessing(request) -> bool:
    """Whether this run accepts the output of now (`--bless`) rather than comparing it."""
    return request.config.getoption("--bless")


@pytest.fixture
def expect_file(blessing):
    """`expect_file(path, actual)`: fail unless `path` holds exactly `actual`; with `--bless`, write it."""

    def check(path: Path, actual: str) -> None:
        if blessing:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(actual, encoding="utf-8")
            return
        name = _shown(path)
        if not path.exists():
            pytest.fail(f"no expected output {name}; {ACCEPT}", pytrace=False)
        expected = path.read_text(encoding="utf-8")
        if actual != expected:
            diff = "".join(difflib.unified_diff(expected.splitlines(keepends=True), actual.splitlines(keepends=True),
                                                name, "output now"))
            if len(diff) > DIFF_SHOWN:
                diff = diff[:DIFF_SHOWN] + "\n... (diff cut short)\n"
            pytest.fail(f"the output differs from {name}; if the change is intended, {ACCEPT}\n{diff}",
                        pytrace=False)

    return check


@pytest.fixture
def expect_no_stale(blessing):
    """`expect_no_stale(files)`: fail if any expected-output file has no test left; with `--bless`, delete them."""

    def check(stale) -> None:
        stale = sorted(stale)
        if blessing:
            for path in stale:
                path.unlink()
            return
        names = ", ".join(_shown(p) for p in stale)
        assert not stale, f"expected output that no test produces: {names}; {ACCEPT} (it deletes them)"

    return check


# ---- pytest-xdist: the tests of one module on one worker ------------------------------------------

# Modules whose tests share something costly, made once per process: on two workers it was made twice.
ONE_WORKER = (
    "tests/test_wheel_install.py::",  # the installed wheel: seconds to build and install
    "tests/test_broken_house_rules.py::",  # its runs of `rulesc check`, kept for the tests that read the same
    "tests/test_properties.py::",  # the property checks of its module fixtures
    "tests/test_simulate_dask.py::",  # a Dask cluster of two worker processes
    "tests/test_judge.py::",  # its runs of `rulesc check`, kept for the tests that read the same
)


def pytest_xdist_make_scheduler(config, log):
    """`-n` (`--dist load`, its default): each test goes to whichever worker is free, as `load` does,
    except that the tests of a module in ONE_WORKER go to one worker together, before the rest (the
    larger first), so what they share is made once while the other worker goes on with other tests.
    (`--dist loadgroup` with `xdist_group` would say this, but it does not group on pytest 9.2:
    pytest-xdist issue #1386.)"""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class Scheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return next((module for module in ONE_WORKER if nodeid.startswith(module)), nodeid)

    return Scheduling(config, log)


def pytest_configure(config):
    """On a pytest-xdist worker, the commands the tests run play their games in this process unless a
    test says `--jobs N`: the workers keep every core busy already, and a command's own worker
    processes (one per core by default) only added their start-up to the suite's time."""
    if hasattr(config, "workerinput"):
        os.environ.setdefault("RULESC_JOBS", "1")
