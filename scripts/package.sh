#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the kix .deb (CPack; the package preset: Release, the kix target only, CPU backend) into build/package/.
# Usage: scripts/package.sh            build the .deb and print its path
#        scripts/package.sh --check    also validate the .desktop and AppStream files, install the .deb (dpkg -i as
#                                      root, removed again afterwards; else extracted with dpkg-deb -x) and run the
#                                      installed kix headless (.ci/run does this)
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = --check ] && check=1

cmake --preset package >/dev/null
cmake --build --preset package -j "$(nproc)"
(cd build/package && cpack -G DEB >/dev/null)
deb=$(ls -t build/package/kix_*.deb | head -1)
echo "kix: package $deb"
((check)) || exit 0

fail() { echo "kix package check: $*" >&2; exit 1; }
desktop-file-validate resources/desktop/kix.desktop
appstreamcli validate --no-net --pedantic resources/desktop/io.github.kix.kix.metainfo.xml

# What the package says and holds.
dpkg-deb --info "$deb"
depends=$(dpkg-deb --field "$deb" Depends)
[[ "$depends" == *libqt6widgets6* && "$depends" == *libqt6charts6* ]] ||
    fail "Depends lacks the Qt libraries (dpkg-shlibdeps did not run?): $depends"
contents=$(dpkg-deb --contents "$deb")
for f in ./usr/bin/kix ./usr/share/applications/kix.desktop ./usr/share/metainfo/io.github.kix.kix.metainfo.xml \
         ./usr/share/icons/hicolor/scalable/apps/kix.svg ./usr/share/man/man1/kix.1 ./usr/share/doc/kix/copyright \
         ./usr/share/kix/runs/; do
    grep -q " $f\$" <<<"$contents" || grep -q " $f " <<<"$contents" || fail "$deb lacks $f"
done

tmp=$(mktemp -d)
# The installed tree as AppStream sees it: the metainfo's desktop-id, icon and binary must be in the package.
dpkg-deb -x "$deb" "$tmp/tree"
appstreamcli validate-tree --no-net --pedantic "$tmp/tree"
installed=0
if [ "$(id -u)" -eq 0 ] && [ -z "${KIX_PACKAGE_EXTRACT:-}" ]; then
    # dpkg refuses the package when a computed dependency is not installed: that checks Depends too.
    dpkg -i "$deb"
    installed=1
    root=/
else
    root="$tmp/tree/"
fi
cleanup() {
    ((installed)) && dpkg -r kix >/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
kix="${root}usr/bin/kix"
runs="${root}usr/share/kix/runs"

version=$("$kix" --version) || fail "$kix --version failed"
echo "$version"
expected=$(sed -n 's/^project(kix VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
[[ "$version" == "kix $expected "* ]] || fail "kix --version says '$version', CMakeLists.txt $expected"

# Headless, away from the source tree: the summary of the installed runs and its chart.
summary=$(cd "$tmp" && env -u DISPLAY -u WAYLAND_DISPLAY XDG_RUNTIME_DIR="$tmp" "$kix" summary --chart "$tmp/chart.png" "$runs") ||
    fail "kix summary $runs failed"
echo "$summary" | head -3
grep -qE '^kix: [1-9][0-9]* runs from [1-9][0-9]* files' <<<"$summary" || fail "kix summary loaded no runs from $runs"
file "$tmp/chart.png" | grep -q 'PNG image data' || fail "kix summary --chart wrote no PNG"
man -l "${root}usr/share/man/man1/kix.1" >/dev/null 2>&1 || fail "man cannot render kix.1"
echo "kix package check: $deb installs and runs"
