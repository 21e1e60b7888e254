#!/usr/bin/env bash
# The device check of the CUDA GroupNorm kernels, in one call (under 6 minutes on an H200):
#   1. build for sm_90, Release: the whole project when Qt is installed (kix, tst_cuda_groupnorm,
#      kix_cuda_check), else the Qt-free kernels/cuda/standalone project (kix_cuda_check only);
#   2. correctness of kix-reference and kix-fused against the float64 CPU reference over the shape/dtype
#      table (fresh random seed, outputs poisoned with NaN before every run, backward run twice and
#      compared bit for bit);
#   3. the small shapes under compute-sanitizer memcheck (and racecheck last, when time is left);
#   4. device copy bandwidth;
#   5. the seed workload and Liger's channels sweep (C 32..2048, M 128, H 512, cpg 4), forward, backward and
#      full, fp32 and bf16, both implementations (kix bench --device cuda when it builds, else kix_cuda_check);
#      kix-fused on the seed workload also as CUDA-graph replay and with 64 bytes per thread (tuning);
#      with kix bench, every run document is checked for what the CUDA backend must record (the GPU's
#      environment, the SM clocks around the timing loop, any throttling warning) and the graph replay
#      also runs as `kix bench --cuda-graph`, whose documents must say cuda_graph in their protocol;
#   6. torch.nn.GroupNorm on the same shapes (scripts/torch_groupnorm_bench.py; skipped without torch);
#   7. a summary table. Everything lands in $OUT (at most 8 files):
#      gpu-check.log, summary.md, verify.txt, environment.json, kix-runs.jsonl, torch-runs.jsonl, kix-bench-raw.jsonl
#
# Usage: scripts/gpu-check.sh [--dry-run] [--standalone] [--quick] [--out DIR] [--build-dir DIR]
#   --dry-run     no GPU expected: build and run what needs none, report the GPU steps as skipped
#   --standalone  skip the Qt build even where Qt is installed
#   --quick       seed workload only (no channels sweep), fused only, no racecheck
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
    -h | --help) sed -n '2,24p' "$0"; exit 0 ;;
    *) echo "gpu-check: unknown argument $1" >&2; exit 64 ;;
    esac
    shift
done
mkdir -p "$OUT" "$BUILD"
OUT=$(cd "$OUT" && pwd)
LOG=$OUT/gpu-check.log
: >"$LOG"
exec > >(tee -a "$LOG") 2>&1

START=$(date +%s)
FAILED=0
step() { echo; echo "== [$(($(date +%s) - START))s] $*"; }
elapsed() { echo $(($(date +%s) - START)); }
fail() { echo "gpu-check: FAILED: $*"; FAILED=1; }
JOBS=$(nproc 2>/dev/null || echo 4)
GENERATOR=()
command -v ninja >/dev/null && GENERATOR=(-G Ninja)
PY=$(command -v python3 || true)
KIX_REP_MS=${KIX_REP_MS:-100}   # the engine's default repetition budget
TORCH_REP_MS=${TORCH_REP_MS:-500} # Liger's GroupNorm benchmark used rep=500
CHANNELS=32,64,128,256,512,1024,2048
[ $QUICK = 1 ] && CHANNELS=2048
IMPLS=kix-fused,kix-reference
[ $QUICK = 1 ] && IMPLS=kix-fused

step "environment"
echo "gpu-check: $(date -u +%FT%TZ) in $ROOT, $JOBS CPUs, dry-run=$DRY"
(cd "$ROOT" && git rev-parse --short HEAD 2>/dev/null) || true
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version,memory.total,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv || echo "nvidia-smi: not available"
command -v nvcc >/dev/null || export PATH=/usr/local/cuda/bin:$PATH
nvcc --version | tail -2

# ------------------------------------------------------------------------------------------------ build
step "build (Release, CMAKE_CUDA_ARCHITECTURES=90)"
KIX=""
CHECK=""
TEST=""
COMMON=(-DCMAKE_BUILD_TYPE=Release -DCMAKE_CUDA_ARCHITECTURES=90)
if [ $STANDALONE = 0 ] && cmake -S "$ROOT" -B "$BUILD/full" "${GENERATOR[@]}" "${COMMON[@]}" -DKIX_BUILD_BENCHMARKS=OFF >"$BUILD/configure-full.log" 2>&1; then
    cmake --build "$BUILD/full" -j "$JOBS" --target kix_cuda_check || fail "build of kix_cuda_check"
    cmake --build "$BUILD/full" -j "$JOBS" --target tst_cuda_groupnorm && TEST=$BUILD/full/tests/kernels/cuda/tst_cuda_groupnorm
    cmake --build "$BUILD/full" -j "$JOBS" --target kix && KIX=$BUILD/full/app/kix
    CHECK=$BUILD/full/kernels/cuda/kix_cuda_check
else
    [ $STANDALONE = 0 ] && { echo "full configure failed (Qt or nlohmann/json missing?); its log:"; tail -5 "$BUILD/configure-full.log"; }
    echo "building the Qt-free kernels/cuda/standalone project"
    cmake -S "$ROOT/kernels/cuda/standalone" -B "$BUILD/standalone" "${GENERATOR[@]}" "${COMMON[@]}" >"$BUILD/configure-standalone.log" 2>&1 \
        || { tail -20 "$BUILD/configure-standalone.log"; echo "gpu-check: FAILED: configure"; exit 2; }
    cmake --build "$BUILD/standalone" -j "$JOBS" --target kix_cuda_check || { echo "gpu-check: FAILED: build"; exit 2; }
    CHECK=$BUILD/standalone/kernels/cuda/kix_cuda_check
fi
[ -x "$CHECK" ] || { echo "gpu-check: FAILED: no kix_cuda_check"; exit 2; }
# `kix bench` is used when this kix has it (app/commands/bench.cpp); else kix_cuda_check times.
if [ -n "$KIX" ] && "$KIX" bench --help >/dev/null 2>&1; then echo "timing with: kix bench"; else KIX=""; echo "timing with: kix_cuda_check (kix bench not available)"; fi
echo "build done after $(elapsed)s"

# ------------------------------------------------------------------------------------------ the device
step "device"
HAVE_GPU=1
echo '{}' >"$BUILD/bandwidth.json"
if ! "$CHECK" info >"$BUILD/info.json" 2>"$BUILD/info.err"; then
    HAVE_GPU=0
    echo "no usable CUDA device: $(cat "$BUILD/info.err")"
    [ $DRY = 1 ] || fail "no CUDA device (run with --dry-run on machines without one)"
    [ -n "$PY" ] && "$PY" -c 'import json,sys;print(json.dumps({"device":None,"error":open(sys.argv[1]).read().strip()}))' \
        "$BUILD/info.err" >"$BUILD/info.json"
fi
cat "$BUILD/info.json"
if [ -n "$KIX" ]; then
    echo "-- kix bench --device cuda on a tiny shape (expected to name the CUDA error without a device):"
    "$KIX" bench --device cuda --pass forward --shape 2,8,16 --channels-per-group 2 --out "$BUILD/probe" --rep-ms 1 --warmup-ms 1; echo "exit status $?"
    echo "-- kix bench --device cpu --cuda-graph (expected to be refused: CUDA devices only):"
    "$KIX" bench --device cpu --cuda-graph --pass forward --shape 2,8,16 --channels-per-group 2 --out "$BUILD/probe" 2>&1 | head -1; echo "exit status ${PIPESTATUS[0]}"
    if [ $HAVE_GPU = 0 ]; then
        echo "-- kix bench --device auto (falls back to the CPU):"
        "$KIX" bench --device auto --pass forward --shape 2,8,16 --channels-per-group 2 --out "$BUILD/probe" --rep-ms 1 --warmup-ms 1; echo "exit status $?"
    fi
fi

gpu_skip() { echo "SKIPPED (no GPU): $*"; }

# check_kix_docs DIR LAUNCH: the kix bench documents in DIR record the CUDA environment (GPU, sm_XX, driver
# and runtime, memory, clocks, L2), the SM clocks before and after timing (engine.deviceDetails.clocks) and
# LAUNCH ("cuda_graph" or "stream") in their protocol; prints the throttling warnings. Fails when one doesn't.
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
    if "clocks" not in details:
        missing.append("deviceDetails.clocks")
    if measured != launch:
        missing.append(f"protocol launch {measured} (expected {launch})")
    if missing:
        bad.append(f"{f.rsplit('/', 1)[-1]}: {', '.join(missing)}")
    if details.get("warning"):
        warnings.append(f"{f.rsplit('/', 1)[-1]}: {details['warning']}")
print(f"{len(files)} kix bench document(s) in {directory}; launch {launch}; "
      f"{len(bad)} incomplete, {len(warnings)} with a clock warning")
if files:
    last = json.load(open(files[-1]))
    print("  environment:", json.dumps(last["environment"]["spec"]))
    print("  clocks of the last run:", json.dumps(last["run"]["spec"]["sourceNative"]["engine"].get("deviceDetails", {}).get("clocks")))
for line in bad + warnings:
    print("  " + line)
sys.exit(1 if bad or not files else 0)
PYEOF
}

# --------------------------------------------------------------------------------------- correctness
step "correctness: kix-reference and kix-fused against the float64 reference"
if [ $HAVE_GPU = 1 ]; then
    timeout 240 "$CHECK" verify >"$OUT/verify.txt" 2>&1
    status=$?
    cat "$OUT/verify.txt"
    [ $status = 0 ] || fail "verify (exit status $status; see verify.txt)"
    if [ -n "$TEST" ] && [ $QUICK = 0 ] && [ "$(elapsed)" -lt 120 ]; then
        timeout 180 "$TEST" -silent >>"$OUT/verify.txt" 2>&1 || fail "tst_cuda_groupnorm"
        tail -2 "$OUT/verify.txt"
    fi
else
    gpu_skip "verify" | tee "$OUT/verify.txt"
    [ -n "$TEST" ] && { "$TEST" -silent 2>&1 | tail -3 | tee -a "$OUT/verify.txt"; }
fi

SANITIZER=$(command -v compute-sanitizer || ls /usr/local/cuda/bin/compute-sanitizer 2>/dev/null || true)
# compute-sanitizer TOOL LIMIT: the small shapes (fp32 and bf16: vector and scalar paths) under one tool.
sanitize() {
    echo "-- compute-sanitizer --tool $1" | tee -a "$OUT/verify.txt"
    if [ $HAVE_GPU = 0 ]; then gpu_skip "compute-sanitizer $1" | tee -a "$OUT/verify.txt"; return; fi
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
step "compute-sanitizer memcheck on the small shapes"
sanitize memcheck 120

# ------------------------------------------------------------------------------------------ bandwidth
step "device copy bandwidth"
COPY_GBS=0
if [ $HAVE_GPU = 1 ]; then
    "$CHECK" bandwidth >"$BUILD/bandwidth.json" || fail "bandwidth"
    cat "$BUILD/bandwidth.json"
    COPY_GBS=$("$PY" -c 'import json,sys;print(json.load(open(sys.argv[1])).get("copy_bandwidth_gbps",0))' "$BUILD/bandwidth.json")
else
    gpu_skip "bandwidth"
fi

# ------------------------------------------------------------------------------------------ kix timing
step "kix timing: seed workload and channels sweep ($CHANNELS), forward/backward/full, fp32 and bf16"
RAW=$OUT/kix-bench-raw.jsonl
: >"$RAW"
: >"$OUT/kix-runs.jsonl"
if [ $HAVE_GPU = 0 ]; then
    gpu_skip "kix timing"
else
    if [ -n "$KIX" ]; then
        rm -rf "$BUILD/kix-runs"
        timeout 300 "$KIX" bench --device cuda --pass forward,backward,full --dtype fp32,bf16 --impl "$IMPLS" \
            --shape 128,2048,512 --channels-per-group 4 --sweep channels=$CHANNELS --rep-ms "$KIX_REP_MS" \
            --out "$BUILD/kix-runs" || fail "kix bench"
        for f in "$BUILD"/kix-runs/*.json; do [ -f "$f" ] && "$PY" -c 'import json,sys;print(json.dumps(json.load(open(sys.argv[1])),ensure_ascii=False))' "$f"; done >>"$OUT/kix-runs.jsonl"
        check_kix_docs "$BUILD/kix-runs" stream || fail "kix bench documents (environment, clocks)"
        # Kept out of kix-runs.jsonl: the summary tells implementations apart by name only, so these would
        # overwrite the stream rows; kix_cuda_check --graph below gives the summary its graph row.
        echo "-- kix bench --cuda-graph, kix-fused, seed workload, fp32"
        rm -rf "$BUILD/kix-graph-runs"
        timeout 90 "$KIX" bench --device cuda --cuda-graph --pass forward,backward,full --dtype fp32 --impl kix-fused \
            --rep-ms "$KIX_REP_MS" --out "$BUILD/kix-graph-runs" || fail "kix bench --cuda-graph"
        check_kix_docs "$BUILD/kix-graph-runs" cuda_graph || fail "kix bench --cuda-graph documents"
    else
        timeout 300 "$CHECK" bench --impl "$IMPLS" --pass forward,backward,full --dtype fp32,bf16 --batch 128 \
            --channels "$CHANNELS" --hidden 512 --channels-per-group 4 --rep-ms "$KIX_REP_MS" >>"$RAW" || fail "kix_cuda_check bench"
    fi
    echo "-- kix-fused, seed workload, CUDA-graph replay"
    timeout 60 "$CHECK" bench --impl kix-fused --pass forward,backward,full --dtype fp32,bf16 --graph \
        --rep-ms "$KIX_REP_MS" >>"$RAW" || fail "kix_cuda_check bench --graph"
    echo "-- kix-fused, seed workload, 64 bytes of each input per thread (the tuning alternative)"
    timeout 60 "$CHECK" bench --impl kix-fused --pass forward,backward,full --dtype fp32,bf16 --bytes-per-thread 64 \
        --rep-ms "$KIX_REP_MS" >>"$RAW" || fail "kix_cuda_check bench --bytes-per-thread 64"
    "$PY" "$ROOT/scripts/torch_groupnorm_bench.py" convert-kix "$RAW" --out "$BUILD/converted.jsonl" --copy-bandwidth "$COPY_GBS" \
        && cat "$BUILD/converted.jsonl" >>"$OUT/kix-runs.jsonl"
fi

# ----------------------------------------------------------------------------------------------- torch
step "torch.nn.GroupNorm on the same shapes (do_bench, rep ${TORCH_REP_MS} ms)"
: >"$OUT/torch-runs.jsonl"
if [ -z "$PY" ]; then
    echo "python3 not found: torch timing skipped"
elif [ $HAVE_GPU = 0 ]; then
    gpu_skip "torch timing (the script itself, run now, reports what it finds):"
    "$PY" "$ROOT/scripts/torch_groupnorm_bench.py" bench --out "$BUILD/torch-dry.jsonl" --channels 32 --rep 1 --warmup 1
else
    timeout 200 "$PY" "$ROOT/scripts/torch_groupnorm_bench.py" bench --out "$OUT/torch-runs.jsonl" --channels "$CHANNELS" \
        --rep "$TORCH_REP_MS" || fail "torch bench"
fi

step "compute-sanitizer racecheck on the small shapes"
if [ $QUICK = 1 ]; then
    echo "racecheck skipped (--quick)"
elif [ "$(elapsed)" -gt 290 ]; then
    echo "racecheck skipped: $(elapsed)s gone, the 6-minute budget is near" | tee -a "$OUT/verify.txt"
else
    sanitize racecheck $((330 - $(elapsed)))
fi

# --------------------------------------------------------------------------------------------- summary
step "summary"
if [ -n "$PY" ]; then
    "$PY" "$ROOT/scripts/torch_groupnorm_bench.py" summary "$OUT/kix-runs.jsonl" "$OUT/torch-runs.jsonl" \
        --out "$OUT/summary.md" --copy-bandwidth "$COPY_GBS" || fail "summary"
fi
[ -n "$PY" ] && "$PY" -c 'import json,sys;json.dump({"info":json.load(open(sys.argv[1])),"bandwidth":json.load(open(sys.argv[2]))},open(sys.argv[3],"w"),indent=1)' \
    "$BUILD/info.json" "$BUILD/bandwidth.json" "$OUT/environment.json"
[ -s "$RAW" ] || rm -f "$RAW"
step "done: $([ $FAILED = 0 ] && echo 'every check that ran passed' || echo 'FAILURES above'); files in $OUT:"
ls -la "$OUT"
exit $FAILED
