#!/usr/bin/env bash
# Load benchmark: generates corpora of 10k and 100k run files and the same runs as one .jsonl, then times kix's
# loader (model/bench/bench_load: wall ms, peak RSS) and Python's json module on the same files, in one run.
# Usage: scripts/bench-load.sh [BUILD_DIR] [WORK_DIR] [REPEATS]
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
work="${2:-/tmp/kix-bench-load}"
repeats="${3:-3}"
bench="$build/model/bench_load"
[ -x "$bench" ] || { echo "build $bench first (cmake --preset release && cmake --build --preset release)"; exit 2; }
mkdir -p "$work"
for n in 10000 100000; do
    [ -d "$work/c$n" ] || "$bench" generate "$work/c$n" "$n"
done
cat > "$work/pyload.py" <<'PY'
import json, os, sys, time
p = sys.argv[1]
t = time.perf_counter(); n = 0
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
print(f"{(time.perf_counter() - t) * 1000:.1f} {n}")
PY
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
printf "%-14s %10s %10s %10s %9s %10s %8s\n" corpus runs kix_ms python_ms ratio rss_mb disk_mb
for corpus in c10000 c10000.jsonl c100000 c100000.jsonl; do
    path="$work/$corpus"
    kix=(); py=(); rss=()
    for _ in $(seq "$repeats"); do
        read -r ms runs mb _ < <("$bench" load "$path")
        kix+=("$ms"); rss+=("$mb")
        read -r pms _ < <(python3 "$work/pyload.py" "$path")
        py+=("$pms")
    done
    k=$(printf "%s\n" "${kix[@]}" | median); p=$(printf "%s\n" "${py[@]}" | median)
    r=$(printf "%s\n" "${rss[@]}" | median)
    disk=$(du -s --apparent-size --block-size=1M "$path" | cut -f1)
    printf "%-14s %10s %10s %10s %9.2f %10s %8s\n" "$corpus" "$runs" "$k" "$p" "$(echo "$k / $p" | bc -l)" "$r" "$disk"
done
