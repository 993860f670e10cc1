#!/usr/bin/env bash
# Set up rulesc in a virtual environment, then do the main job on a shipped game:
# check games/finance.rules (static diagnostics, assumptions, property tests) and draw its turn flow.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v dot >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    SUDO=""; [ "$(id -u)" -ne 0 ] && SUDO="sudo"
    $SUDO apt-get update -qq && $SUDO apt-get install -y -qq graphviz >/dev/null || true
fi
python3 -m venv .venv
.venv/bin/python -m pip install -q --upgrade pip
.venv/bin/python -m pip install -q -e .
mkdir -p out
.venv/bin/rulesc check games/finance.rules
.venv/bin/rulesc diagram games/finance.rules -o out/finance.svg || .venv/bin/rulesc diagram games/finance.rules -o out/finance.dot
