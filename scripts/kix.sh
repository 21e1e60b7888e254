#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Command 1: set up, build, and start kix on the bundled runs (or on PATHs given).
# With no display, kix prints a headless summary of the runs and writes a chart file instead.
# It builds only the kix target (the window and the CLI) in build/app: no tests (scripts/test.sh builds those in
# build/dev), no benchmark programs, and the CUDA backend only for the GPUs this machine has (none: CPU only).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --packages

archs=$(scripts/cuda-archs.sh) # the compute capabilities present; none without an NVIDIA GPU
if [ -n "$archs" ]; then
    cuda=(-DKIX_ENABLE_CUDA=ON "-DCMAKE_CUDA_ARCHITECTURES=$archs")
    echo "kix: building the CUDA backend for compute capability ${archs//;/, }"
else
    cuda=(-DKIX_ENABLE_CUDA=OFF)
fi

cmake --preset app "${cuda[@]}" >/dev/null
cmake --build --preset app -j "$(nproc)"
exec build/app/app/kix "$@"
