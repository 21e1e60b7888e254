#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Installs the Debian 12 packages kix needs (only those missing), then configures and builds a CMake preset.
# Usage: scripts/setup.sh [PRESET [CMAKE ARGS...]]  (default: dev) packages, configure, build the preset
#        scripts/setup.sh --packages        the packages only (scripts/kix.sh configures and builds itself)
#        scripts/setup.sh --ci-packages     the packages only, with those only CI needs (.ci/run)
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake ninja-build lld pkg-config libboost-context-dev qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev
          nlohmann-json3-dev libsimdjson-dev libzstd-dev libssl-dev libyaml-cpp-dev libgl-dev fonts-dejavu-core)
# CI only: the .desktop and AppStream validators, clang-format, dpkg-shlibdeps/file for the .deb (CPack), and
# chromium for tst_htmlreport's real-browser test (optional: where it cannot be installed, that test skips).
ci_packages=(desktop-file-utils appstream clang-format dpkg-dev file chromium)

mode=build
preset=dev
configure_args=()
case "${1:-}" in
--packages) mode=packages ;;
--ci-packages) mode=packages; packages+=("${ci_packages[@]}") ;;
"") ;;
*) preset="$1"; shift; configure_args=("$@") ;;
esac

missing=()
for p in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "kix: installing missing packages: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    if ! DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; then
        [[ " ${missing[*]} " == *" chromium "* ]] || exit 1
        echo "kix: chromium cannot be installed here; tst_htmlreport skips its browser test"
        rest=()
        for p in "${missing[@]}"; do [ "$p" = chromium ] || rest+=("$p"); done
        [ ${#rest[@]} -eq 0 ] || DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${rest[@]}"
    fi
fi
[ "$mode" = packages ] && exit 0

cmake --preset "$preset" ${configure_args[@]+"${configure_args[@]}"} >/dev/null
cmake --build --preset "$preset" -j "$(nproc)"
