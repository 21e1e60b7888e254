#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Load benchmark: generates 20k and 100k run files shaped like the Liger-derived seed run and the same 100k runs as one
# .jsonl, then times kix's loader (model/bench/bench_load: wall and CPU ms of loadPaths, peak RSS) and Python 3's
# json module over the same files, alternately, in one run. Prints the medians and the ratios kix / Python.
# Usage: scripts/bench-load.sh [BUILD_DIR] [WORK_DIR] [REPEATS]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
work="${2:-/tmp/kix-bench-load}"
repeats="${3:-5}"
bench="$build/model/bench_load"
[ -x "$bench" ] || { echo "build $bench first (cmake --preset release && cmake --build --preset release)"; exit 2; }
mkdir -p "$work"
for n in 20000 100000; do
    [ -d "$work/c$n" ] || "$bench" generate "$work/c$n" "$n"
done
cat > "$work/pyload.py" <<'PY'
import json, os, sys, time
p = sys.argv[1]
t = time.perf_counter(); c = time.process_time(); n = 0
if p.endswith('.jsonl'):
    with open(p) as f:
        for line in f:
            if line.strip():
                json.loads(line); n += 1
else:
    for root, dirs, files in os.walk(p):
        for name in files:
            with open(os.path.join(root, name)) as f:
                json.load(f); n += 1
print(f"{(time.perf_counter() - t) * 1000:.1f} {n} {(time.process_time() - c) * 1000:.1f}")
PY
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
printf "%-14s %7s %8s %8s %8s %8s %6s %6s %7s %7s %5s\n" corpus runs kix_ms py_ms kix_cpu py_cpu wall× cpu× rss_mb disk_mb rss×
for corpus in c20000 c100000.jsonl c100000; do
    path="$work/$corpus"
    kix=(); kcpu=(); py=(); pcpu=(); rss=()
    for _ in $(seq "$repeats"); do
        read -r ms runs mb _ cpu < <("$bench" load "$path")
        kix+=("$ms"); kcpu+=("$cpu"); rss+=("$mb")
        read -r pms _ pc < <(python3 "$work/pyload.py" "$path")
        py+=("$pms"); pcpu+=("$pc")
    done
    k=$(printf "%s\n" "${kix[@]}" | median); p=$(printf "%s\n" "${py[@]}" | median)
    kc=$(printf "%s\n" "${kcpu[@]}" | median); pc=$(printf "%s\n" "${pcpu[@]}" | median)
    r=$(printf "%s\n" "${rss[@]}" | median)
    disk=$(du -s --apparent-size --block-size=1M "$path" | cut -f1)
    printf "%-14s %7s %8s %8s %8s %8s %6.2f %6.2f %7s %7s %5.2f\n" "$corpus" "$runs" "$k" "$p" "$kc" "$pc" \
        "$(echo "$k / $p" | bc -l)" "$(echo "$kc / $pc" | bc -l)" "$r" "$disk" "$(echo "$r / $disk" | bc -l)"
done
