#!/usr/bin/env bash
# Run every Deckhand benchmark side by side with the reference engines, pinned to one core.
#
#   bash bench/run.sh [--quick] [--no-service] [--out FILE]
#
# Creates (once) the separate benchmark virtualenv bench/.venv (git-ignored) with
# open-spiel, rlcard and py-spy from PyPI plus this project with its test extras (the
# Discord section drives the bot through tests/e2e's fake Discord), then runs
# `python -m bench` on CPU 0 and writes bench/results/latest.md (also printed).
set -euo pipefail
cd "$(dirname "$0")/.."
VENV=bench/.venv
PY=${PYTHON:-python3.11}
if [ ! -x "$VENV/bin/python" ]; then
    "$PY" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --upgrade pip
fi
if ! "$VENV/bin/python" -c "import pyspiel, rlcard, games, pytest, discord" 2>/dev/null; then
    "$VENV/bin/pip" install --quiet open-spiel rlcard py-spy -e '.[test]'
fi
PIN=()
if command -v taskset >/dev/null 2>&1; then
    PIN=(taskset -c 0)
fi
exec "${PIN[@]}" "$VENV/bin/python" -m bench "$@"
