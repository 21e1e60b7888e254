#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Retakes the README's screenshots from the real window on the real Liger CSV: Xvfb + openbox, xdotool types the
# filter and picks the chart, ImageMagick's `import` grabs the screen. Needs xvfb, openbox, xdotool, imagemagick.
#   scripts/screenshots.sh [CSV]     (default: ../shared/data/liger/all_benchmark_data.csv next to the checkout)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
kix=${KIX_BIN:-$root/build/dev/app/kix}
csv=$(realpath "${1:-$root/../shared/data/liger/all_benchmark_data.csv}")
out=$root/resources/screenshots
mkdir -p "$out"
[ -x "$kix" ] || { echo "screenshots: build kix first ($kix)" >&2; exit 1; }
[ -f "$csv" ] || { echo "screenshots: no CSV at $csv" >&2; exit 1; }

# shot WIDTH HEIGHT FILE FILTER CHART_KEY [HOVER_X HOVER_Y]
shot() {
    local w=$1 h=$2 file=$3 filter=$4 key=$5 hx=${6:-} hy=${7:-}
    local config
    config=$(mktemp -d) # fresh settings: the default layout
    xvfb-run -a -s "-screen 0 ${w}x${h}x24" env XDG_CONFIG_HOME="$config" bash -c '
        set -e
        openbox >/dev/null 2>&1 &
        sleep 1
        "$0" "$1" >/dev/null 2>&1 &
        app=$!
        win=$(xdotool search --sync --onlyvisible --name "^kix" | head -1)
        xdotool windowmove "$win" 0 0 windowsize "$win" "$2" "$3"
        sleep 4 # the CSV loads off the GUI thread
        xdotool windowactivate --sync "$win" key ctrl+f
        xdotool type --delay 20 "$4"
        xdotool key Return "$5"
        sleep 2
        if [ -n "$7" ]; then xdotool mousemove "$7" "$8"; sleep 1; fi
        import -window root "$6"
        kill $app
    ' "$kix" "$csv" "$w" "$h" "$filter" "$key" "$out/$file" "$hx" "$hy"
    rm -rf "$config"
    echo "wrote $out/$file"
}

# the mouse on the channels=2048 bar: the read-out line and the tooltip show its exact values
shot 1600 1000 speedup.png "groupnorm backward gpu:b200" ctrl+3 "${HOVER_X:-800}" "${HOVER_Y:-728}"
shot 1600 1000 sweep.png "groupnorm gpu:b200" ctrl+2
shot 1600 1000 quantiles.png "groupnorm backward gpu:b200" ctrl+1
shot 1280 720 speedup-1280x720.png "groupnorm backward gpu:b200" ctrl+3
# the first view of the whole CSV: kernels x GPUs, one click to filter
shot 1280 720 overview-1280x720.png "" ctrl+6
