#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# The device check of the CUDA GroupNorm kernels, in one call.
#
#   scripts/gpu-check.sh --quick   about 2 minutes on an H200, build included (kernels/cuda/README.md):
#     1. kix_cuda_check built with nvcc directly for sm_90 (no CMake, no Qt), objects in parallel;
#     2. every implementation's launch plan for the seed shapes (plan.txt; needs no GPU);
#     3. correctness of every implementation (kix-fused, kix-persistent, kix-reference) against the float64
#        CPU reference: the small-shape table plus the seed rows and a many-rows persistent case, fp32,
#        bf16 and fp16 (fresh seed, outputs poisoned with NaN, backward run twice and compared bit for bit);
#     4. device copy bandwidth after the memset flush (do_bench's, the policy everything is timed with), after
#        the read sweep and back to back;
#     5. every implementation on the seed workload (M 128, C 2048, H 512, cpg 4), forward, backward and full,
#        fp32 and bf16, and on a short channels sweep (C 256, 1024), all after do_bench's memset flush; the
#        seed workload's forward and backward again after the read sweep and back to back (20 launches per
#        event pair, no flush): the three figures that bound the truth;
#     6. torch.nn.GroupNorm on the same shapes with the same flush (do_bench's), and on the seed workload
#        after the read sweep and back to back (scripts/torch_groupnorm_bench.py; skipped without torch);
#     7. summary.md: medians side by side, the best kix implementation that passed against the targets.
#   scripts/gpu-check.sh           the long check (about 6 minutes): the Qt build when Qt is installed (kix bench
#     --device cuda, its documents checked, tst_cuda_groupnorm), else the standalone CMake project, else nvcc;
#     the full correctness table, compute-sanitizer memcheck and racecheck on the small shapes, Liger's whole
#     channels sweep (C 32..2048), CUDA-graph replay and kix-fused at 64 bytes per thread.
#
# Everything lands in $OUT (--out), at most 8 files: gpu-check.log (complete when the script exits),
# summary.md, plan.txt, verify.txt, environment.json, kix-runs.jsonl, torch-runs.jsonl, kix-bench-raw.jsonl.
#
# Usage: scripts/gpu-check.sh [--quick] [--dry-run] [--standalone] [--out DIR] [--build-dir DIR]
#   --quick       the 3-minute check above
#   --dry-run     build as the device would, run what needs no GPU (the plans), and run each device command
#                 with CUDA_VISIBLE_DEVICES empty: it must stop for want of a device (exit 2), not for its
#                 arguments (tests/kernels/cuda: ctest gpu_check_dry_run runs --dry-run --standalone --quick)
#   --standalone  never the Qt build (the long check then uses kernels/cuda/standalone, or nvcc without CMake)
# Exit status: 0 when every check that ran passed; 1 when a check failed; 2 when the build failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=${OUT:-$ROOT/gpu-check-out}
BUILD=$ROOT/build-gpu-check
DRY=0
STANDALONE=0
QUICK=0
while [ $# -gt 0 ]; do
    case "$1" in
    --dry-run) DRY=1 ;;
    --standalone) STANDALONE=1 ;;
    --quick) QUICK=1 ;;
    --out) OUT=$2; shift ;;
    --build-dir) BUILD=$2; shift ;;
    -h | --help) sed -n '2,31p' "$0"; exit 0 ;;
    *) echo "gpu-check: unknown argument $1" >&2; exit 64 ;;
    esac
    shift
done
# A dry run never uses a GPU, even where there is one: the device commands must meet "no device".
[ $DRY = 1 ] && export CUDA_VISIBLE_DEVICES=""
mkdir -p "$OUT" "$BUILD"
OUT=$(cd "$OUT" && pwd)
BUILD=$(cd "$BUILD" && pwd)
LOG=$OUT/gpu-check.log

START=$(date +%s)
FAILED=0
HAVE_GPU=1
step() { echo; echo "== [$(($(date +%s) - START))s] $*"; }
elapsed() { echo $(($(date +%s) - START)); }
fail() { echo "gpu-check: FAILED: $*" >&2; FAILED=1; }
JOBS=$(nproc 2>/dev/null || echo 4)
PY=$(command -v python3 || true)
KIX_REP_MS=${KIX_REP_MS:-100}                 # the engine's default repetition budget
TORCH_REP_MS=${TORCH_REP_MS:-500}             # Liger's GroupNorm benchmark used rep=500
[ $QUICK = 1 ] && TORCH_REP_MS=${TORCH_REP_MS_QUICK:-100}
SEED=2048
SWEEP=32,64,128,256,512,1024,2048
[ $QUICK = 1 ] && SWEEP=256,1024,2048
IMPLS=all

# device_run NAME TIMEOUT COMMAND...: runs a step that needs the GPU. Without one (dry run) the command runs
# anyway and must stop for want of a device (exit status 2): that proves the device run will accept it.
device_run() {
    local name=$1 limit=$2
    shift 2
    if [ $HAVE_GPU = 1 ]; then
        timeout "$limit" "$@"
        local status=$?
        [ $status = 124 ] && echo "gpu-check: $name ran out of its ${limit}s" >&2
        [ $status = 0 ] || fail "$name (exit status $status)"
        return $status
    fi
    "$@" >/dev/null 2>"$BUILD/dry.err"
    local status=$?
    if [ $status = 2 ]; then
        echo "SKIPPED (no GPU): $name; its command line is accepted (exit 2: $(head -c 200 "$BUILD/dry.err"))" >&2
    else
        fail "$name: without a GPU it should stop with exit status 2, got $status: $(head -c 300 "$BUILD/dry.err")"
    fi
    return 0
}

# ------------------------------------------------------------------------------------------------ build
# kix_cuda_check with nvcc alone: every source of kernels/cuda/standalone's target, one nvcc per source in
# parallel (through ccache when there is one), objects reused while no source or header is newer.
KERNEL_CU="cudaflush groupnorm_init groupnorm_reference groupnorm_fused_forward groupnorm_fused_backward
           groupnorm_persistent_forward groupnorm_persistent_backward"
KERNEL_CPP="kernels/groupnorm_reference.cpp kernels/cuda/cuda_check.cpp kernels/cuda/cudatiming.cpp
            kernels/cuda/groupnorm_bench.cpp kernels/cuda/groupnorm_cuda.cpp kernels/cuda/groupnorm_verify.cpp
            kernels/cuda/tools/kix_cuda_check.cpp"
build_with_nvcc() {
    local dir=$BUILD/nvcc
    mkdir -p "$dir/obj" "$dir/generated/kix"
    sed -e 's/@PROJECT_VERSION@/0.0.0-gpu-check/' -e 's/@KIX_HAVE_CUDA@/1/' -e "s|@PROJECT_SOURCE_DIR@|$ROOT|" \
        -e "s|@KIX_SHARED_DIR@|$ROOT/../shared|" "$ROOT/cmake/config.h.in" >"$dir/generated/kix/config.h.new"
    cmp -s "$dir/generated/kix/config.h.new" "$dir/generated/kix/config.h" || mv "$dir/generated/kix/config.h.new" "$dir/generated/kix/config.h"
    local launcher=()
    command -v ccache >/dev/null && launcher=(ccache)
    local flags=(-std=c++17 -O3 -DNDEBUG -gencode arch=compute_90,code=sm_90 --expt-relaxed-constexpr -lineinfo
                 -I"$ROOT" -I"$dir/generated" -Xcompiler=-Wall,-Wextra,-fopenmp-simd)
    local newest_header
    newest_header=$(find "$ROOT/kernels" -name '*.h' -o -name '*.cuh' | xargs ls -t | head -1)
    local sources=() objects=() source object
    for source in $KERNEL_CU; do sources+=("kernels/cuda/$source.cu"); done
    for source in $KERNEL_CPP; do sources+=("$source"); done
    local compiled=0 failed=0
    for source in "${sources[@]}"; do
        object=$dir/obj/$(echo "$source" | tr '/' '_').o
        objects+=("$object")
        if [ -f "$object" ] && [ "$object" -nt "$ROOT/$source" ] && [ "$object" -nt "$newest_header" ] \
            && [ "$object" -nt "$dir/generated/kix/config.h" ]; then
            continue
        fi
        while [ "$(jobs -rp | wc -l)" -ge "$JOBS" ]; do sleep 0.2; done
        rm -f "$object" "$object.rc"
        ( ${launcher[@]+"${launcher[@]}"} nvcc "${flags[@]}" -x "$([ "${source##*.}" = cu ] && echo cu || echo c++)" -c "$ROOT/$source" \
            -o "$object" >"$object.log" 2>&1; echo $? >"$object.rc" ) &
        compiled=$((compiled + 1))
    done
    wait
    for object in "${objects[@]}"; do
        if [ -f "$object.rc" ] && [ "$(cat "$object.rc")" != 0 ]; then
            echo "nvcc failed: $(basename "$object" .o):"; cat "$object.log"; failed=1
        fi
    done
    [ $failed = 0 ] || return 1
    echo "compiled $compiled of ${#sources[@]} sources with nvcc (the others were up to date)"
    nvcc -o "$dir/kix_cuda_check" "${objects[@]}" -ldl -lpthread || return 1
    CHECK=$dir/kix_cuda_check
    echo "built kix_cuda_check with nvcc: $CHECK"
}

main() {
    step "environment"
    echo "gpu-check: $(date -u +%FT%TZ) in $ROOT, $JOBS CPUs, quick=$QUICK dry-run=$DRY standalone=$STANDALONE"
    (cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null) || true
    command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv || echo "nvidia-smi: not available"
    command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
    command -v nvcc >/dev/null || { echo "gpu-check: FAILED: nvcc not found"; return 2; }
    nvcc --version | tail -2

    step "build (sm_90)"
    KIX=""
    CHECK=""
    TEST=""
    local generator=()
    command -v ninja >/dev/null && generator=(-G Ninja)
    local common=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90)
    if [ $QUICK = 1 ] || ! command -v cmake >/dev/null; then
        [ $QUICK = 0 ] && echo "cmake not found: building with nvcc alone"
        build_with_nvcc || { echo "gpu-check: FAILED: build"; return 2; }
    elif [ $STANDALONE = 0 ] && cmake -S "$ROOT" -B "$BUILD/full" ${generator[@]+"${generator[@]}"} "${common[@]}" -DKIX_BUILD_BENCHMARKS=OFF >"$BUILD/configure-full.log" 2>&1; then
        cmake --build "$BUILD/full" -j "$JOBS" --target kix_cuda_check || fail "build of kix_cuda_check"
        cmake --build "$BUILD/full" -j "$JOBS" --target tst_cuda_groupnorm && TEST=$BUILD/full/tests/kernels/cuda/kix_tests_kernels_cuda
        cmake --build "$BUILD/full" -j "$JOBS" --target kix && KIX=$BUILD/full/app/kix
        CHECK=$BUILD/full/kernels/cuda/kix_cuda_check
    else
        [ $STANDALONE = 0 ] && { echo "full configure failed (Qt or nlohmann/json missing?):"; tail -5 "$BUILD/configure-full.log"; }
        echo "building the Qt-free kernels/cuda/standalone project"
        if cmake -S "$ROOT/kernels/cuda/standalone" -B "$BUILD/standalone" ${generator[@]+"${generator[@]}"} "${common[@]}" >"$BUILD/configure-standalone.log" 2>&1 \
            && cmake --build "$BUILD/standalone" -j "$JOBS" --target kix_cuda_check; then
            CHECK=$BUILD/standalone/kernels/cuda/kix_cuda_check
        else
            tail -20 "$BUILD/configure-standalone.log"
            echo "the standalone CMake build failed: building with nvcc alone"
            build_with_nvcc || { echo "gpu-check: FAILED: build"; return 2; }
        fi
    fi
    [ -x "$CHECK" ] || { echo "gpu-check: FAILED: no kix_cuda_check"; return 2; }
    # `kix bench` times when this kix has it (the long check with Qt); else kix_cuda_check does.
    if [ -n "$KIX" ] && "$KIX" bench --help >/dev/null 2>&1; then echo "timing with: kix bench"; else KIX=""; echo "timing with: kix_cuda_check"; fi
    echo "build done after $(elapsed)s"

    step "launch plans (no GPU needed)"
    "$CHECK" plan --channels "$SWEEP" >"$OUT/plan.txt" 2>&1 || fail "kix_cuda_check plan"
    grep "^C=$SEED " "$OUT/plan.txt" | grep -v fp16

    step "device"
    echo '{}' >"$BUILD/bandwidth.json"
    if ! "$CHECK" info >"$BUILD/info.json" 2>"$BUILD/info.err"; then
        HAVE_GPU=0
        echo "no usable CUDA device: $(cat "$BUILD/info.err")"
        [ $DRY = 1 ] || fail "no CUDA device (run with --dry-run on machines without one)"
        [ -n "$PY" ] && "$PY" -c 'import json,sys;print(json.dumps({"device":None,"error":open(sys.argv[1]).read().strip()}))' \
            "$BUILD/info.err" >"$BUILD/info.json"
    fi
    cat "$BUILD/info.json"

    step "correctness: every implementation against the float64 reference"
    : >"$OUT/verify.txt"
    if [ $QUICK = 1 ]; then
        device_run "verify" 90 "$CHECK" verify --quick \
            --cases seed-slice,persistent-many-rows,rows-16-per-thread,persistent-512-threads,cpg-4096,cpg-5632-h2-opt-in,misaligned-long \
            --dtypes fp32,bf16,fp16 >>"$OUT/verify.txt" 2>&1
    else
        device_run "verify" 240 "$CHECK" verify --dtypes fp32,bf16,fp16 >>"$OUT/verify.txt" 2>&1
    fi
    grep -v "^ok \|plan:" "$OUT/verify.txt" | head -40
    if [ -n "$TEST" ] && [ $HAVE_GPU = 1 ] && [ "$(elapsed)" -lt 150 ]; then
        timeout 180 "$TEST" tst_cuda_groupnorm -silent >>"$OUT/verify.txt" 2>&1 || fail "tst_cuda_groupnorm"
        tail -2 "$OUT/verify.txt"
    fi

    SANITIZER=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
    if [ $QUICK = 0 ]; then
        step "compute-sanitizer memcheck on the small shapes"
        sanitize memcheck 120
    fi

    step "device copy bandwidth (after the memset flush; the read sweep and back to back as controls)"
    COPY_GBS=0
    device_run "bandwidth" 60 "$CHECK" bandwidth >"$BUILD/bandwidth.json"
    if [ $HAVE_GPU = 1 ]; then
        cat "$BUILD/bandwidth.json"
        COPY_GBS=$("$PY" -c 'import json,sys;print(json.load(open(sys.argv[1])).get("copy_bandwidth_gbps",0))' "$BUILD/bandwidth.json" 2>/dev/null || echo 0)
    else
        echo '{}' >"$BUILD/bandwidth.json"
    fi

    step "kix timing: every implementation, seed workload and C in $SWEEP, forward/backward/full, fp32 and bf16"
    RAW=$OUT/kix-bench-raw.jsonl
    : >"$RAW"
    : >"$OUT/kix-runs.jsonl"
    if [ -n "$KIX" ] && [ $HAVE_GPU = 1 ]; then
        kix_bench_documents
    else
        device_run "kix_cuda_check bench" 150 "$CHECK" bench --impl "$IMPLS" --pass forward,backward,full --dtype fp32,bf16 \
            --batch 128 --channels "$SWEEP" --hidden 512 --channels-per-group 4 --rep-ms "$KIX_REP_MS" >>"$RAW"
    fi
    echo "-- the flush controls: kix-fused and kix-persistent, seed workload, after the read sweep and back to back"
    device_run "kix_cuda_check bench --flush read,none" 60 "$CHECK" bench --impl kix-fused,kix-persistent \
        --pass forward,backward --dtype fp32,bf16 --flush read,none --launches 20 --rep-ms "$KIX_REP_MS" >>"$RAW"
    if [ $QUICK = 1 ]; then # checked against the reference before timing, as every bench line is
        echo "-- quick: CUDA-graph replay and kix-fused at 64 bytes per thread, seed workload, forward + backward"
        device_run "kix_cuda_check bench --graph" 30 "$CHECK" bench --impl kix-fused,kix-persistent \
            --pass full --dtype fp32,bf16 --graph --rep-ms 50 >>"$RAW"
        device_run "kix_cuda_check bench --bytes-per-thread 64" 30 "$CHECK" bench --impl kix-fused \
            --pass forward,backward --dtype fp32,bf16 --bytes-per-thread 64 --rep-ms 50 >>"$RAW"
    else
        echo "-- kix-fused and kix-persistent, seed workload, CUDA-graph replay"
        device_run "kix_cuda_check bench --graph" 60 "$CHECK" bench --impl kix-fused,kix-persistent \
            --pass forward,backward,full --dtype fp32,bf16 --graph --rep-ms "$KIX_REP_MS" >>"$RAW"
        echo "-- kix-fused, seed workload, 64 bytes of each input per thread (the tuning alternative)"
        device_run "kix_cuda_check bench --bytes-per-thread 64" 60 "$CHECK" bench --impl kix-fused \
            --pass forward,backward,full --dtype fp32,bf16 --bytes-per-thread 64 --rep-ms "$KIX_REP_MS" >>"$RAW"
    fi
    if [ -s "$RAW" ] && [ -n "$PY" ]; then
        "$PY" "$ROOT/scripts/torch_groupnorm_bench.py" convert-kix "$RAW" --out "$BUILD/converted.jsonl" --copy-bandwidth "$COPY_GBS" \
            && cat "$BUILD/converted.jsonl" >>"$OUT/kix-runs.jsonl"
    fi

    step "torch.nn.GroupNorm on the same shapes (do_bench, rep ${TORCH_REP_MS} ms)"
    : >"$OUT/torch-runs.jsonl"
    if [ -z "$PY" ]; then
        echo "python3 not found: torch timing skipped"
    elif [ $HAVE_GPU = 0 ]; then
        echo "SKIPPED (no GPU): torch timing; the script itself, run now, reports what it finds:"
        "$PY" "$ROOT/scripts/torch_groupnorm_bench.py" bench --out "$BUILD/torch-dry.jsonl" --channels 32 --rep 1 --warmup 1
    elif [ $QUICK = 1 ] && [ "$(elapsed)" -gt 150 ]; then
        echo "torch timing skipped: $(elapsed)s gone, the 3-minute budget is near"
    else
        timeout $([ $QUICK = 1 ] && echo 60 || echo 200) "$PY" "$ROOT/scripts/torch_groupnorm_bench.py" bench \
            --out "$OUT/torch-runs.jsonl" --channels "$SWEEP" --rep "$TORCH_REP_MS" --flush memset || fail "torch bench"
        local policy
        for policy in read none; do # the flush controls, as kix's: seed workload only
            timeout 30 "$PY" "$ROOT/scripts/torch_groupnorm_bench.py" bench --out "$BUILD/torch-$policy.jsonl" \
                --channels "$SEED" --passes forward,backward --rep "$TORCH_REP_MS" --flush $policy --launches 20 \
                && cat "$BUILD/torch-$policy.jsonl" >>"$OUT/torch-runs.jsonl" || fail "torch bench --flush $policy"
        done
    fi

    if [ $QUICK = 0 ]; then
        step "compute-sanitizer racecheck on the small shapes"
        if [ "$(elapsed)" -gt 290 ]; then
            echo "racecheck skipped: $(elapsed)s gone, the 6-minute budget is near" | tee -a "$OUT/verify.txt"
        else
            sanitize racecheck $((330 - $(elapsed)))
        fi
    fi

    step "summary"
    if [ -n "$PY" ]; then
        "$PY" "$ROOT/scripts/torch_groupnorm_bench.py" summary "$OUT/kix-runs.jsonl" "$OUT/torch-runs.jsonl" \
            --out "$OUT/summary.md" --copy-bandwidth "$COPY_GBS" || fail "summary"
        "$PY" -c 'import json,sys;json.dump({"info":json.load(open(sys.argv[1])),"bandwidth":json.load(open(sys.argv[2]))},open(sys.argv[3],"w"),indent=1)' \
            "$BUILD/info.json" "$BUILD/bandwidth.json" "$OUT/environment.json"
    fi
    [ -s "$RAW" ] || rm -f "$RAW"
    local files
    files=$(find "$OUT" -mindepth 1 | wc -l)
    [ "$files" -le 8 ] || fail "$files entries in $OUT (at most 8)"
    step "done after $(elapsed)s: $([ $FAILED = 0 ] && echo 'every check that ran passed' || echo 'FAILURES above'); $files files in $OUT:"
    ls -la "$OUT"
    return $FAILED
}

# compute-sanitizer TOOL LIMIT: the small shapes (fp32 and bf16: vector and scalar paths) under one tool.
sanitize() {
    echo "-- compute-sanitizer --tool $1" | tee -a "$OUT/verify.txt"
    if [ $HAVE_GPU = 0 ]; then echo "SKIPPED (no GPU): compute-sanitizer $1" | tee -a "$OUT/verify.txt"; return; fi
    if [ -z "$SANITIZER" ]; then echo "compute-sanitizer not found: skipped" | tee -a "$OUT/verify.txt"; return; fi
    timeout "$2" "$SANITIZER" --tool "$1" --error-exitcode 9 "$CHECK" verify --quick --dtypes fp32,bf16 >"$BUILD/sanitizer.txt" 2>&1
    local status=$?
    cat "$BUILD/sanitizer.txt" >>"$OUT/verify.txt"
    tail -4 "$BUILD/sanitizer.txt"
    if grep -q -e "Device not supported" -e "Unable to find injection library" "$BUILD/sanitizer.txt"; then
        echo "compute-sanitizer cannot attach on this machine (gVisor?): $1 not checked" | tee -a "$OUT/verify.txt"
    elif [ $status = 124 ]; then
        echo "compute-sanitizer $1 ran out of time (${2}s): not checked" | tee -a "$OUT/verify.txt"
    elif [ $status != 0 ]; then
        fail "compute-sanitizer $1 (exit status $status; see verify.txt)"
    fi
}

# The long check with Qt: kix bench --device cuda writes run documents, each checked for what the CUDA
# backend must record (the GPU's environment, the SM clocks around the timing loop, the flush, any
# throttling warning); the graph replay also runs as `kix bench --cuda-graph` (protocol launch cuda_graph).
kix_bench_documents() {
    rm -rf "$BUILD/kix-runs"
    timeout 300 "$KIX" bench --device cuda --pass forward,backward,full --dtype fp32,bf16 --impl all \
        --shape 128,2048,512 --channels-per-group 4 --sweep channels=$SWEEP --rep-ms "$KIX_REP_MS" \
        --out "$BUILD/kix-runs" || fail "kix bench"
    for f in "$BUILD"/kix-runs/*.json; do [ -f "$f" ] && "$PY" -c 'import json,sys;print(json.dumps(json.load(open(sys.argv[1])),ensure_ascii=False))' "$f"; done >>"$OUT/kix-runs.jsonl"
    check_kix_docs "$BUILD/kix-runs" stream || fail "kix bench documents (environment, clocks)"
    echo "-- kix bench --cuda-graph, kix-fused, seed workload, fp32"
    rm -rf "$BUILD/kix-graph-runs"
    timeout 90 "$KIX" bench --device cuda --cuda-graph --pass forward,backward,full --dtype fp32 --impl kix-fused \
        --rep-ms "$KIX_REP_MS" --out "$BUILD/kix-graph-runs" || fail "kix bench --cuda-graph"
    check_kix_docs "$BUILD/kix-graph-runs" cuda_graph || fail "kix bench --cuda-graph documents"
}

check_kix_docs() {
    [ -n "$PY" ] || { echo "python3 not found: documents not checked"; return 0; }
    "$PY" - "$1" "$2" <<'PYEOF'
import glob, json, sys
directory, launch = sys.argv[1], sys.argv[2]
need_hw = ["product", "architecture", "memoryBytes", "l2CacheBytes", "maxSmClockMHz", "memoryClockMHz"]
need_sw = ["driver", "cudaDriver", "cudaRuntime"]
files, bad, warnings = sorted(glob.glob(directory + "/*.json")), [], []
for f in files:
    doc = json.load(open(f))
    env = doc["environment"]["spec"]
    engine = doc["run"]["spec"]["sourceNative"]["engine"]
    details = engine.get("deviceDetails", {})
    measured = doc["protocol"]["spec"]["measurement"].get("launch", "stream")
    missing = [k for k in need_hw if k not in env.get("hardware", {})] + \
              [k for k in need_sw if k not in env.get("software", {})]
    missing += [f"deviceDetails.{k}" for k in ("clocks", "cacheFlush") if k not in details]
    if measured != launch:
        missing.append(f"protocol launch {measured} (expected {launch})")
    if missing:
        bad.append(f"{f.rsplit('/', 1)[-1]}: {', '.join(missing)}")
    if details.get("warning"):
        warnings.append(f"{f.rsplit('/', 1)[-1]}: {details['warning']}")
print(f"{len(files)} kix bench document(s) in {directory}; launch {launch}; "
      f"{len(bad)} incomplete, {len(warnings)} with a clock warning")
for line in bad + warnings:
    print("  " + line)
sys.exit(1 if bad or not files else 0)
PYEOF
}

# The log is written through a pipe that the script waits for: it is complete when the script exits, even
# when a step fails or times out.
: >"$LOG"
main 2>&1 | tee -a "$LOG"
status=${PIPESTATUS[0]}
echo "gpu-check: exit status $status" | tee -a "$LOG"
exit "$status"
