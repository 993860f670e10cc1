"""The `rulesc` command line, run in the test's own process.

`rulesc(*args)` calls `rulesc.cli.main` as `python -m rulesc ARGS` would, with stdout and stderr
captured, and returns `(exit code, stdout, stderr)`. It costs no interpreter start-up and no
import of rulesc per call, which was most of the time of the command-line tests that ran a
subprocess each. The command's own code is the same: `python -m rulesc` is `sys.exit(main())`.

A test that is about the process itself (a pipe, a terminal, what the installed command imports,
standard input) still runs a subprocess. The alarm turns a hang into a failure, as a subprocess's
timeout did; nothing is timed.
"""

from __future__ import annotations

import contextlib
import io
import os
import signal
import threading
from pathlib import Path
from typing import NamedTuple

from rulesc import cli


class _Output(io.StringIO):
    """A captured stream that is not a terminal, as a subprocess's pipe is not."""

    def isatty(self) -> bool:
        return False


class Run(NamedTuple):
    """What a run of the command gave, named as `subprocess.run`'s result names it."""

    returncode: int
    stdout: str
    stderr: str


class Hang(Exception):
    """The command ran past its time: a hang, turned into a failure."""


@contextlib.contextmanager
def no_hang(seconds: float):
    """Fail with `Hang` if the block runs longer than `seconds` (where an alarm can be set)."""
    if not seconds or not hasattr(signal, "setitimer") or threading.current_thread() is not threading.main_thread():
        yield
        return

    def alarm(_signum, _frame):
        raise Hang(f"rulesc did not finish in {seconds}s")

    previous = signal.signal(signal.SIGALRM, alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def rulesc(*args, cwd: str | Path | None = None, timeout: float = 300) -> Run:
    """`rulesc ARGS` in this process: (exit code, stdout, stderr)."""
    out, err = _Output(), _Output()
    here = os.getcwd()
    try:
        if cwd is not None:
            os.chdir(cwd)
        with no_hang(timeout), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = cli.main([str(a) for a in args])
            except SystemExit as exc:  # argparse's usage errors, --help and --version
                code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    finally:
        os.chdir(here)
    return Run(code, out.getvalue(), err.getvalue())
