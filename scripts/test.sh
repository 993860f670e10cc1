#!/usr/bin/env bash
# Set up a virtual environment with rulesc and its test dependencies, install Graphviz's
# `dot` (Debian's graphviz) for the diagram tests, tmux for the terminal-play test and Neovim
# for the editor test when apt-get is available, and run the tests.
# Arguments go to pytest: `-m "not slow"` for the fast subset, `-m "not network"` without a package registry, `--bless` to accept new
# expected output (tests/snapshots/, tests/golden/).
set -euo pipefail
cd "$(dirname "$0")/.."
if { ! command -v dot || ! command -v tmux || ! command -v nvim; } >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq graphviz tmux neovim >/dev/null; } \
        || echo "warning: could not install graphviz, tmux and neovim; the tests that render images, drive a terminal or an editor will be skipped" >&2
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
.venv/bin/python -m pytest -q -n auto "$@"  # every core (pytest-xdist): the suite takes three to four minutes on two
