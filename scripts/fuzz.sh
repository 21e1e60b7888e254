#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer targets (the `fuzz` preset: clang 14, ASan + UBSan, CUDA off) and runs each for SECONDS
# (60 by default), one after the other, on a corpus seeded from tests/data/ and resources/runs/ with the
# dictionary tests/fuzz/kix.dict. Exits 1 when any target crashed or broke its rule; the input is left in
# build/fuzz/work/crashes/<target>/ — copy it to tests/data/fuzz/<target>/<what-it-is> (tst_fuzzregressions
# replays it) and fix the bug.
# Usage: scripts/fuzz.sh [SECONDS] [TARGET...]
#   targets: document parser ligercsv slug filter roundtrip catalog yaml bundle
# On a shared machine: nice -n 19 scripts/fuzz.sh 600. Inputs are capped at KIX_FUZZ_MAX_LEN bytes (16384).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-60}"
[ $# -gt 0 ] && shift
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(document parser ligercsv slug filter roundtrip catalog yaml bundle)

# the fuzzer's own packages (Debian 12), installed when missing as scripts/setup.sh does for the rest
missing=()
for p in clang-14 libclang-rt-14-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    echo "fuzz.sh: installing missing packages: ${missing[*]}"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi
cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "$(nproc)" --target "${targets[@]/#/fuzz_}"

work=build/fuzz/work
mkdir -p "$work"
stats="$work/stats.tsv"
[ -f "$stats" ] || printf 'date\ttarget\tseconds\texecutions\texec_per_s\tcrashes\n' >"$stats"

seed() { # seed TARGET DIR: the starting inputs of each target
    local target=$1 dir=$2
    case "$target" in
        document|roundtrip|parser)
            find tests/data/model tests/data/ui tests/data/interop resources/runs -type f \( -name '*.json' -o -name '*.jsonl' \) \
                -exec cp -n {} "$dir/" \; ;;
        catalog)
            find tests/data/model/catalog -type f -name '*.jsonl' -exec cp -n {} "$dir/" \; ;;
        yaml|bundle) # the format's own examples when ../shared is there (read, never copied into the project)
            examples="${KIX_SHARED_DIR:-../shared}/data/kernelindex/examples"
            [ "$target" = yaml ] && [ -d "$examples" ] && find "$examples" -name '*.yaml' -exec cp -n {} "$dir/" \;
            [ "$target" = bundle ] && find tests/data/model/good -name '*.json' -exec cp -n {} "$dir/" \;
            true ;;
        ligercsv)
            find tests/data -type f -name '*.csv' -exec cp -n {} "$dir/" \; ;;
        slug)
            printf 'batch128-channels2048-channels_per_group4-hidden512-fp32' >"$dir/seed-slug"
            printf 'seqlen1024-bf16-causal-7b-llama_2_7b' >"$dir/generic-slug" ;;
        filter)
            printf 'group_norm backward b200' >"$dir/words"
            printf 'LIGER  fp32 ' >"$dir/case" ;;
    esac
    if [ -d "tests/data/fuzz/$target" ]; then cp -n tests/data/fuzz/"$target"/* "$dir/" 2>/dev/null || true; fi
}

failed=0
for target in "${targets[@]}"; do
    corpus="$work/corpus/$target"
    crashes="$work/crashes/$target"
    mkdir -p "$corpus" "$crashes"
    seed "$target" "$corpus"
    before=$(find "$crashes" -type f | wc -l)
    log="$work/$target.$$.log" # one per run: two runs of one target at once keep their own figures
    echo "== fuzz_$target for ${seconds}s"
    set +e
    ASAN_OPTIONS="detect_leaks=0:abort_on_error=1" UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1" \
        "build/fuzz/tests/fuzz/fuzz_$target" -dict=tests/fuzz/kix.dict -max_total_time="$seconds" -timeout=60 \
        -max_len="${KIX_FUZZ_MAX_LEN:-16384}" -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$crashes/" "$corpus" >"$log" 2>&1
    rc=$?
    set -e
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    after=$(find "$crashes" -type f | wc -l)
    found=$((after - before))
    printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$(date -u +%FT%TZ)" "$target" "$seconds" "${execs:-0}" "${rate:-0}" "$found" >>"$stats"
    echo "   executions ${execs:-?}, ${rate:-?}/s, new crash inputs: $found (exit $rc)"
    if [ "$rc" -ne 0 ] || [ "$found" -gt 0 ]; then
        failed=1
        grep -m1 -E 'ERROR: |kix fuzz: |runtime error' "$log" || true
        echo "   log: $log; inputs: $crashes/"
    fi
done
echo "== totals per target (all runs so far, $stats):"
awk -F'\t' 'NR > 1 { e[$2] += $4; c[$2] += $6 } END { for (t in e) printf "   %-10s %12d executions %3d crashes\n", t, e[t], c[t] }' "$stats"
exit "$failed"
