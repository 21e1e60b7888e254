#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the tests labelled `tsan` (the loader, the benchmark runner, the UI models) with ThreadSanitizer (the
# `tsan` preset, CPU path) and runs them. Suppressions, each with its reason: tests/tsan.supp.
# Usage: scripts/tsan.sh        (CI runs it after the dev and asan suites)
set -euo pipefail
cd "$(dirname "$0")/.."
cmake --preset tsan >/dev/null
mapfile -t tests < <(ctest --test-dir build/tsan -L tsan -N | sed -n 's/^ *Test *#[0-9]*: *//p')
[ ${#tests[@]} -gt 0 ] || { echo "tsan.sh: no test is labelled tsan" >&2; exit 1; }
cmake --build --preset tsan -j "$(nproc)" --target "${tests[@]}"
ctest --preset tsan -j "$(nproc)"
