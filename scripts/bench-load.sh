#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Load benchmark: generates 20k and 100k run files shaped like the Liger-derived seed run, the same 100k runs as one
# .jsonl and a 1M-run .jsonl (about 2.2 GB), each .jsonl also as people write them: Python's json.dumps defaults
# (", " and ": ", one document a line; *.py.jsonl) and indented over many lines, one document after another (what
# `jq .` writes; *.indented.jsonl). Then times, alternately and in one run, whole processes over the same bytes:
# kix's loader (tests/benchmarks/bench_load load), Python 3's json module, `cat` (the floor: reading the bytes) and
# the user's command `kix list` (the load and every row written). Prints medians of wall time, CPU time
# (user + system) and peak RSS, and the ratios kix / Python, kix / cat, kix's peak RSS / the corpus's size and
# kix list / the load alone.
# Usage: scripts/bench-load.sh [BUILD_DIR] [WORK_DIR] [REPEATS] [CORPUS...]
#   CORPUS: c20000 (20k files), c100000 (100k files), c100000.jsonl, c100000.py.jsonl, c100000.indented.jsonl,
#   c1000000.jsonl, c1000000.py.jsonl, c1000000.indented.jsonl; default all but c100000
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build/release}"
work="${2:-/tmp/kix-bench-load}"
repeats="${3:-3}"
shift $(($# < 3 ? $# : 3))
corpora=("$@")
[ ${#corpora[@]} -gt 0 ] || corpora=(c20000 c100000.jsonl c100000.py.jsonl c100000.indented.jsonl c1000000.jsonl
                                     c1000000.py.jsonl c1000000.indented.jsonl)
bench="$build/tests/benchmarks/bench_load"
kix="$build/app/kix"
[ -x "$bench" ] && [ -x "$kix" ] || { echo "build $bench and $kix first (cmake --preset release && cmake --build build/release --target bench_load kix)"; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "needs /usr/bin/time (apt-get install time)"; exit 2; }
mkdir -p "$work"
cat > "$work/reformat.py" <<'PY'
import json, sys
# minified JSON Lines in, the same documents out as Python's defaults write them, or indented over many lines
src, dst, style = sys.argv[1:4]
with open(src) as f, open(dst + '.part', 'w') as out:
    for line in f:
        if line.strip():
            doc = json.loads(line)
            out.write((json.dumps(doc, indent=2) if style == 'indented' else json.dumps(doc)) + '\n')
import os
os.replace(dst + '.part', dst)
PY
for corpus in "${corpora[@]}"; do
    case "$corpus" in
    c20000 | c100000) [ -d "$work/$corpus" ] || "$bench" generate "$work/$corpus" "${corpus#c}" ;;
    *.py.jsonl | *.indented.jsonl)
        base="${corpus%%.*}.jsonl" style="${corpus#*.}" style="${style%.jsonl}"
        [ -f "$work/$base" ] || "$bench" generate-jsonl "$work/$base" "${base//[^0-9]/}"
        [ -f "$work/$corpus" ] || python3 "$work/reformat.py" "$work/$base" "$work/$corpus" "$style" ;;
    *.jsonl) [ -f "$work/$corpus" ] || "$bench" generate-jsonl "$work/$corpus" "${corpus//[^0-9]/}" ;;
    esac
done
cat > "$work/pyload.py" <<'PY'
import json, os, sys
p = sys.argv[1]
n = 0
if p.endswith('.jsonl'):
    with open(p) as f:
        first = f.readline()
        f.seek(0)
        try:
            json.loads(first); lines = True
        except ValueError:
            lines = False
        if lines:
            for line in f:
                if line.strip():
                    json.loads(line); n += 1
        else:  # documents over several lines, one after another
            text = f.read(); d = json.JSONDecoder(); i = 0
            while True:
                while i < len(text) and text[i].isspace(): i += 1
                if i >= len(text): break
                _, i = d.raw_decode(text, i); n += 1
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
printf "%-23s %5s %7s %7s %7s %7s %7s %7s %7s %7s %7s %7s %6s %7s %6s %7s\n" corpus mb kix_s py_s cat_s kix_cpu py_cpu \
    cat_cpu kix_mb py_mb wall/py cpu/cat rss/mb list_s list/ld runs
for corpus in "${corpora[@]}"; do
    path="$work/$corpus"
    kw=(); kc=(); km=(); pw=(); pc=(); pm=(); cw=(); cc=(); lw=()
    for _ in $(seq "$repeats"); do
        read -r w c m < <(timed "$bench" load "$path"); kw+=("$w"); kc+=("$c"); km+=("$m")
        read -r w _ _ < <(timed env -u DISPLAY QT_QPA_PLATFORM=offscreen "$kix" list "$path"); lw+=("$w")
        read -r w c m < <(timed python3 "$work/pyload.py" "$path"); pw+=("$w"); pc+=("$c"); pm+=("$m")
        read -r w c _ < <(timed bash -c 'catfloor "$0"' "$path"); cw+=("$w"); cc+=("$c")
    done
    runs=$("$bench" load "$path" | cut -d' ' -f2)
    med() { printf "%s\n" "$@" | median; }
    k=$(med "${kw[@]}"); p=$(med "${pw[@]}"); cf=$(med "${cw[@]}"); l=$(med "${lw[@]}")
    kcpu=$(med "${kc[@]}"); pcpu=$(med "${pc[@]}"); ccpu=$(med "${cc[@]}")
    krss=$(med "${km[@]}"); prss=$(med "${pm[@]}")
    disk=$(du -sL --apparent-size --block-size=1M "$path" | cut -f1)
    printf "%-23s %5s %7s %7s %7s %7s %7s %7s %7s %7s %7.2f %7.2f %6.2f %7s %7.2f %6s\n" "$corpus" "$disk" "$k" "$p" \
        "$cf" "$kcpu" "$pcpu" "$ccpu" "$krss" "$prss" "$(echo "$k / $p" | bc -l)" \
        "$(echo "$kcpu / ($ccpu + 0.005)" | bc -l)" "$(echo "$krss / $disk" | bc -l)" "$l" "$(echo "$l / $k" | bc -l)" "$runs"
done
echo "(medians of $repeats; whole processes; cpu = user + system; cpu/cat: kix's CPU over cat's, +5 ms against 0;"
echo " list_s: \`kix list CORPUS\` to /dev/null, the load and every row; list/ld: its wall time over the load's)"
