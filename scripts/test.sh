#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Command 2: set up, build, and run the whole test suite offscreen.
# Usage: scripts/test.sh [PRESET]   (dev by default; asan for the AddressSanitizer + UBSan run)
set -euo pipefail
cd "$(dirname "$0")/.."
preset="${1:-dev}"
# The CUDA kernels are compiled for the GPUs present, else for one architecture (sm_90, the one ptxas's budget is
# checked for): the tests run them on the CPU, and three architectures would triple nvcc's time.
cuda=()
if [ -x /usr/local/cuda/bin/nvcc ] || command -v nvcc >/dev/null 2>&1; then
    archs=$(scripts/cuda-archs.sh)
    cuda=("-DCMAKE_CUDA_ARCHITECTURES=${archs:-90}")
fi
scripts/setup.sh "$preset" ${cuda[@]+"${cuda[@]}"}
QT_QPA_PLATFORM=offscreen ctest --preset "$preset" -j "$(nproc)"
