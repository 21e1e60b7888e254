#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Command 2: set up, build, and run the whole test suite offscreen.
# Usage: scripts/test.sh [PRESET]   (dev by default; asan for the AddressSanitizer + UBSan run)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-dev}"
scripts/setup.sh "$preset"
QT_QPA_PLATFORM=offscreen ctest --preset "$preset" -j "$(nproc)"
