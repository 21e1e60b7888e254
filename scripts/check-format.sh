#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks every tracked C++ and CUDA file against .clang-format; names each file that is not formatted.
# Usage: scripts/check-format.sh        (fix with: git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' | xargs clang-format -i)
set -euo pipefail
cd "$(dirname "$0")/.."
clang_format="${CLANG_FORMAT:-clang-format}"
mapfile -t files < <(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh')
bad=()
for f in "${files[@]}"; do
    "$clang_format" --dry-run --Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -gt 0 ]; then
    printf 'not formatted: %s\n' "${bad[@]}" >&2
    echo "check-format: ${#bad[@]} of ${#files[@]} files differ from .clang-format ($("$clang_format" --version))" >&2
    exit 1
fi
# Every source file says its licence (LICENSE): an SPDX line near the top.
mapfile -t sources < <(git ls-files '*.cpp' '*.h' '*.cu' '*.cuh' '*.cmake' '*.sh' '*.py' 'CMakeLists.txt' '*/CMakeLists.txt' |
    grep -v '^tests/data/')
unlicensed=()
for f in "${sources[@]}"; do
    head -n 5 "$f" | grep -q 'SPDX-License-Identifier: Apache-2.0' || unlicensed+=("$f")
done
if [ ${#unlicensed[@]} -gt 0 ]; then
    printf 'no SPDX-License-Identifier line: %s\n' "${unlicensed[@]}" >&2
    exit 1
fi
echo "check-format: ${#files[@]} files formatted; ${#sources[@]} sources carry an SPDX licence line"
