#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Prints the compute capabilities of this machine's NVIDIA GPUs as CMake wants them ("9.0" -> 90, several joined
# by ';'), once each; prints nothing when there is no NVIDIA GPU or driver.
set -uo pipefail
command -v nvidia-smi >/dev/null 2>&1 || exit 0
nvidia-smi --query-gpu=compute_cap --format=csv,noheader 2>/dev/null | tr -d ' .' | grep -E '^[0-9]+$' |
    sort -u | paste -sd ';' || true
