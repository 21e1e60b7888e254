#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# ctest gpu_check_dry_run: scripts/gpu-check.sh --dry-run --standalone --quick, i.e. the path the device check
# takes (kix_cuda_check built by nvcc alone, the launch plans, every device command line), without a GPU.
# Checks what the device run relies on: exit status 0, a log that is complete when the script has exited
# (its last line is the exit status), at most 8 files in the output folder, the nvcc build, every device step
# rehearsed (accepted and stopped for want of a device), and the plans of every implementation.
# Usage: gpu_check_dry_run.sh ROOT WORKDIR
set -u
root=$1
work=$2
out=$work/out
mkdir -p "$work"
rm -rf "$out"
"$root/scripts/gpu-check.sh" --dry-run --standalone --quick --out "$out" --build-dir "$work/build" >"$work/stdout.txt" 2>&1
status=$?
log=$out/gpu-check.log
problems=()
[ $status = 0 ] || problems+=("exit status $status")
[ -f "$log" ] || problems+=("no $log")
last=$(tail -n 1 "$log" 2>/dev/null)
[ "$last" = "gpu-check: exit status 0" ] || problems+=("the log's last line is '$last', not the exit status")
cmp -s "$log" "$work/stdout.txt" || problems+=("the log differs from what the script printed")
files=$(find "$out" -mindepth 1 | wc -l)
[ "$files" -le 8 ] || problems+=("$files entries in the output folder (at most 8)")
grep -q "built kix_cuda_check with nvcc" "$log" || problems+=("kix_cuda_check not built with nvcc")
for step in "verify" "bandwidth" "kix_cuda_check bench" "kix_cuda_check bench --flush read,none" \
    "kix_cuda_check bench --graph" "kix_cuda_check bench --bytes-per-thread 64"; do
    grep -q "SKIPPED (no GPU): $step; its command line is accepted" "$log" || problems+=("device step '$step' not rehearsed")
done
for impl in kix-fused kix-persistent kix-reference; do
    grep -q "^C=2048  bf16 $impl *backward" "$out/plan.txt" || problems+=("no seed plan for $impl in plan.txt")
done
for f in plan.txt verify.txt summary.md environment.json; do
    [ -s "$out/$f" ] || problems+=("$f missing or empty")
done
if [ ${#problems[@]} -gt 0 ]; then
    echo "gpu_check_dry_run: FAILED:"
    printf '  %s\n' "${problems[@]}"
    echo "--- the log:"
    cat "$log" 2>/dev/null || cat "$work/stdout.txt"
    exit 1
fi
echo "gpu_check_dry_run: passed ($files files in $out, $(grep -c 'SKIPPED (no GPU)' "$log") device steps rehearsed)"
