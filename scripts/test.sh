#!/usr/bin/env bash
# Set up a virtual environment with rulesc and its test dependencies, install Graphviz's
# `dot` (Debian's graphviz) for the diagram tests and tmux for the terminal-play test when
# apt-get is available, and run the tests.
# Arguments go to pytest: `-m "not slow"` for the fast subset, `-m "not network"` without a package registry, `--bless` to accept new
# expected output (tests/snapshots/, tests/golden/).
set -euo pipefail
cd "$(dirname "$0")/.."
if { ! command -v dot || ! command -v tmux; } >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    { $SUDO apt-get update -qq && $SUDO apt-get install -y -qq graphviz tmux >/dev/null; } \
        || echo "warning: could not install graphviz and tmux; the tests that render images or drive a terminal will be skipped" >&2
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e '.[test]'
.venv/bin/python -m pytest -q -n auto "$@"  # every core (pytest-xdist): the suite takes about five minutes on two
