"""`rulesc simulate --dask ADDRESS`: the games played on a Dask cluster (a LocalCluster of two worker
processes on 127.0.0.1 here) give the summary of a local run, byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import clirun

GAMES = Path(__file__).resolve().parent.parent / "games"


def simulate(*args):
    return subprocess.run([sys.executable, "-m", "rulesc", "simulate", *map(str, args)], capture_output=True,
                          text=True, timeout=300)


def here(*args):
    """The command run in this process (tests/clirun.py): the local run each cluster run is compared with."""
    return clirun.rulesc(*map(str, args), timeout=300)


@pytest.fixture(scope="module")
def scheduler():
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=":0") as cluster:
        yield cluster.scheduler_address


@pytest.mark.slow
def test_a_dask_cluster_gives_the_summary_of_a_local_run(scheduler):
    for args in ((GAMES / "finance.rules", "-n", "30", "--seed", "4"),
                 (GAMES / "wheeler-level1.rules", "-n", "6", "--seed", "1", "--players", "3",
                  "--set", "starting_cash=$120,000")):
        local = here("simulate", *args)
        remote = simulate(*args, "--dask", scheduler)
        assert local.returncode == remote.returncode == 0, remote.stderr
        assert remote.stdout == local.stdout
        assert f"on {scheduler}" in remote.stderr


@pytest.mark.slow
def test_a_rule_that_fails_on_the_cluster_is_reported_as_in_one_process(scheduler, tmp_path):
    minimal = (Path(__file__).parent / "cli_data" / "minimal.rules").read_text(encoding="utf-8")
    path = tmp_path / "index.rules"
    path.write_text(minimal.replace("pay l.price / 4 from player to l.owner", "pay [l.price][3] from player to l.owner"),
                    encoding="utf-8")
    local = here("simulate", path, "-n", "6")
    remote = simulate(path, "-n", "6", "--dask", scheduler)
    assert local.returncode == remote.returncode == 1
    assert remote.stderr == local.stderr and "outside the list" in remote.stderr


@pytest.mark.slow  # a process of its own that imports distributed
def test_a_bad_scheduler_address_is_a_usage_error():
    pytest.importorskip("distributed")
    proc = simulate(GAMES / "finance.rules", "-n", "2", "--dask", "nonsense://nowhere")
    assert proc.returncode == 2 and "Dask scheduler" in proc.stderr and "Traceback" not in proc.stderr


def test_without_dask_the_dask_option_says_what_to_install(monkeypatch):
    from rulesc.interpreter.rules import load_rules
    from rulesc.runner import RunError
    from rulesc.simulate import simulate as simulate_games
    monkeypatch.setitem(sys.modules, "distributed", None)  # as if it were not installed
    rules = load_rules(str(GAMES / "finance.rules"))
    with pytest.raises(RunError, match=r"rulesc\[dask\]"):
        simulate_games(rules, 2, 0, 2, dask="tcp://127.0.0.1:8786")


def rulesc(*args):
    return subprocess.run([sys.executable, "-m", "rulesc", *map(str, args)], capture_output=True, text=True,
                          timeout=300)


@pytest.mark.slow
@pytest.mark.parametrize("args", [
    ("sweep", GAMES / "finance.rules", "--set", "circuit_income=$150..$350", "step", "$100", "--games", "6",
     "--format", "csv"),
    ("diff", GAMES / "finance.rules", GAMES.parent / "examples" / "finance-fast-money.rules", "--games", "8"),
    ("check", GAMES.parent / "examples" / "broken" / "late_invariant.rules", "--examples", "0", "--games", "4"),
], ids=["sweep", "diff", "check"])
def test_sweep_diff_and_check_on_the_cluster_give_the_output_of_one_process(scheduler, args):
    local = here(*args, "--jobs", "1")
    remote = rulesc(*args, "--dask", scheduler)
    assert remote.returncode == local.returncode and "Traceback" not in remote.stderr, remote.stderr
    assert remote.stdout == local.stdout and remote.stdout
