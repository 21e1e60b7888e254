#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Load benchmark: generates 20k and 100k run files shaped like the Liger-derived seed run, the same 100k runs as one
# .jsonl and a 1M-run .jsonl (about 2.2 GB), then times, alternately and in one run, whole processes over the same
# bytes: kix's loader (model/bench/bench_load load), Python 3's json module, and `cat` (the floor: reading the bytes).
# Prints medians of wall time, CPU time (user + system) and peak RSS, and the ratios kix / Python, kix / cat and
# kix's peak RSS / the corpus's size.
# Usage: scripts/bench-load.sh [BUILD_DIR] [WORK_DIR] [REPEATS] [CORPUS...]
#   CORPUS: c20000 (20k files), c100000 (100k files), c100000.jsonl, c1000000.jsonl; default all but c100000
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
work="${2:-/tmp/kix-bench-load}"
repeats="${3:-3}"
shift $(($# < 3 ? $# : 3))
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(c20000 c100000.jsonl c1000000.jsonl)
bench="$build/model/bench_load"
[ -x "$bench" ] || { echo "build $bench first (cmake --preset release && cmake --build build/release --target bench_load)"; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)"; exit 2; }
mkdir -p "$work"
for n in 20000 100000; do
    [ -d "$work/c$n" ] || "$bench" generate "$work/c$n" "$n"
done
[ -f "$work/c1000000.jsonl" ] || "$bench" generate-jsonl "$work/c1000000.jsonl" 1000000
cat > "$work/pyload.py" <<'PY'
import json, os, sys
p = sys.argv[1]
n = 0
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
print(n)
PY
median() { sort -n | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# whole process: prints "wall_s cpu_s peak_rss_mb"
timed() {
    /usr/bin/time -o "$work/time.txt" -f "%e %U %S %M" "$@" >/dev/null 2>&1
    awk '{printf "%.2f %.2f %.1f\n", $1, $2 + $3, $4 / 1024}' "$work/time.txt"
}
catfloor() { if [ -d "$1" ]; then find "$1" -type f -print0 | xargs -0 cat; else cat "$1"; fi; }
export -f catfloor
printf "%-15s %5s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %6s %6s\n" corpus mb kix_s py_s cat_s kix_cpu py_cpu \
    cat_cpu kix_mb py_mb wall/py cpu/cat rss/mb runs
for corpus in "${corpora[@]}"; do
    path="$work/$corpus"
    kw=(); kc=(); km=(); pw=(); pc=(); pm=(); cw=(); cc=()
    for _ in $(seq "$repeats"); do
        read -r w c m < <(timed "$bench" load "$path"); kw+=("$w"); kc+=("$c"); km+=("$m")
        read -r w c m < <(timed python3 "$work/pyload.py" "$path"); pw+=("$w"); pc+=("$c"); pm+=("$m")
        read -r w c _ < <(timed bash -c 'catfloor "$0"' "$path"); cw+=("$w"); cc+=("$c")
    done
    runs=$("$bench" load "$path" | cut -d' ' -f2)
    med() { printf "%s\n" "$@" | median; }
    k=$(med "${kw[@]}"); p=$(med "${pw[@]}"); cf=$(med "${cw[@]}")
    kcpu=$(med "${kc[@]}"); pcpu=$(med "${pc[@]}"); ccpu=$(med "${cc[@]}")
    krss=$(med "${km[@]}"); prss=$(med "${pm[@]}")
    disk=$(du -sL --apparent-size --block-size=1M "$path" | cut -f1)
    printf "%-15s %5s %7s %7s %7s %7s %7s %7s %7s %7s %7.2f %7.2f %6.2f %6s\n" "$corpus" "$disk" "$k" "$p" "$cf" \
        "$kcpu" "$pcpu" "$ccpu" "$krss" "$prss" "$(echo "$k / $p" | bc -l)" \
        "$(echo "$kcpu / ($ccpu + 0.005)" | bc -l)" "$(echo "$krss / $disk" | bc -l)" "$runs"
done
echo "(medians of $repeats; whole processes; cpu = user + system; cpu/cat: kix's CPU over cat's, +5 ms against 0)"
