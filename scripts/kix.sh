#!/usr/bin/env bash
# Command 1: set up, build, and start kix on the bundled runs (or on PATHs given).
# With no display, kix prints a headless summary of the runs and writes a chart file instead.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh dev
exec build/dev/app/kix "$@"
