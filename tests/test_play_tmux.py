"""`rulesc play` in a real terminal: tmux runs it, a loop reads the screen (capture-pane) as a player
would and answers with keys (send-keys), asks for `help`, `players`, `board`, `info` and `me` on the way, and plays
the whole game to its end. Skipped where tmux is not installed; every wait is bounded."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DEADLINE = 900  # seconds: a bound against a hang only
pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")


class Terminal:
    def __init__(self, tmp_path: Path, command: list[str]):
        self.socket = f"rulesc-test-{os.getpid()}"
        conf = tmp_path / "tmux.conf"
        conf.write_text("set-option -g history-limit 200000\n", encoding="utf-8")
        script = tmp_path / "play.sh"  # the pane stays open after the game, to be read
        script.write_text(" ".join(shlex.quote(c) for c in command) + '\necho "[exit $?]"\nsleep 600\n',
                          encoding="utf-8")
        self.tmux("-f", str(conf), "new-session", "-d", "-s", "play", "-x", "160", "-y", "50", "-c", str(ROOT),
                  f"bash {shlex.quote(str(script))}")

    def tmux(self, *args) -> str:
        proc = subprocess.run(["tmux", "-L", self.socket, *args], capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
        return proc.stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-t", "play")

    def history(self) -> str:
        return self.tmux("capture-pane", "-p", "-J", "-S", "-", "-t", "play")

    def send(self, text: str):
        if text:
            self.tmux("send-keys", "-t", "play", "-l", text)
        self.tmux("send-keys", "-t", "play", "Enter")

    def close(self):
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True, timeout=60)


def last_line(screen: str) -> str:
    lines = [line.rstrip() for line in screen.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def answer(prompt: str, screen: str) -> str | None:
    """What a careful, thrifty player types at this prompt; None while no question is asked."""
    if not prompt.endswith(">"):
        return None
    bid = re.search(r"bid on .*: \$([\d,]+) to \$([\d,]+), or empty to pass >$", prompt)
    if bid:
        low = int(bid.group(1).replace(",", ""))
        return str(low) if low <= 60 else ""  # bids the least on cheap leases, lets the rest go
    if prompt.endswith("[y/N] >"):
        return "n"
    menu = screen.splitlines()
    if any(line.strip() == "0) pass" for line in menu[-12:]):
        return "0"
    if prompt.strip() == ">":
        return "1"
    return None


@pytest.mark.slow
def test_a_whole_game_played_at_the_terminal(tmp_path):
    term = Terminal(tmp_path, [sys.executable, "-m", "rulesc", "play", "games/finance.rules", "--players", "2",
                               "--seed", "3"])
    try:
        started = time.monotonic()
        answered_at = None
        asked = []
        while True:
            assert time.monotonic() - started < DEADLINE, "the game did not end:\n" + term.screen()
            screen = term.screen()
            if "[exit " in screen:
                break
            prompt = last_line(screen)
            reply = answer(prompt, screen)
            if reply is None or screen == answered_at:
                time.sleep(0.05)
                continue
            if len(asked) < 5:  # the commands, at the first questions
                command = ["help", "players", "board", "info 1", "me"][len(asked)]
                term.send(command)
                asked.append(command)
                deadline = time.monotonic() + 60
                while term.screen().count(prompt) < 2 and time.monotonic() < deadline:
                    time.sleep(0.05)
                answered_at = None
                continue
            term.send(reply)
            answered_at = screen
        text = term.history()
    finally:
        term.close()

    assert "[exit 0]" in text, text[-3000:]
    assert "FINANCE (1932): you are in seat 1 of 2; type `help` at any question, `quit` to leave." in text
    # help, players, board, info and me, as a player reads them
    assert "quit          leave the game (it stops here; you may save its log to replay it)" in text
    assert re.search(r"^Wayback\n  a Lease: number 1, series One, value \$50, rents \$2 \$10 ", text, re.M)
    assert re.search(r"^(no action is open to you now|actions the rules allow you now:)$", text, re.M)
    assert re.search(r"^  P1 \(you\): on [A-Za-z].*, cash \$[\d,]+; holds ", text, re.M)
    assert re.search(r"^  P2: on .*, cash \$[\d,]+", text, re.M)
    assert re.search(r"^  0 Start$", text, re.M) and re.search(r"^ 39 LaSalleStreet +number 22, series Eight, value \$100, rents \$50 ", text, re.M)
    # events in words, money as money, and no Python reprs
    assert "--- P1's turn ---" in text and re.search(r"P\d pays \$[\d,]+ to ", text)
    assert not re.search(r"\['|=\[|=True|=False|=None", text)
    # the person answered bids through the whole game, which ended by its own rule
    assert re.search(r"^P1 bids \$\d+$", text, re.M)
    assert "input ended" not in text
    assert re.search(r"game over after \d+ turns: last player standing; winner: P[12]", text)
